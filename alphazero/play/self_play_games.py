"""Self-play's games: one network plays itself, many games at once, and the games become training arrays."""
from dataclasses import replace

from alphazero.data.targets import games_to_arrays, games_to_margins
from alphazero.play.loop import play_games
from alphazero.play.openings import random_opening
from alphazero.play.agent import Agent, Style


def play_self_play(game, network, plays, search, exploration, rng, progress=None):
    """plays.games self-play games of one network, plays.parallel at a time (SelfPlaySettings), with
    `search` and `exploration` (alphazero/settings.py); returns the (position, policy, value, margin)
    arrays (margin None for a game without one) and the evaluator's counts."""
    # In a game with hidden information the search may see it (peek), as the point-Othello page's
    # self-play does; self-play never asks the game's solver
    player = Agent(game, network, replace(search, solver=False),
                   Style(temperature=plays.temperature, exploration=exploration, peek=exploration.peek), rng)
    evaluator = player.evaluator
    opening_moves = exploration.random_opening
    openings = [random_opening(game, opening_moves, rng) for _ in range(plays.games)] if opening_moves else None
    results = play_games(game.State, [(player, player)] * plays.games, plays.parallel, record=True, progress=progress,
                         openings=openings)
    margins = games_to_margins(results, game) if game.MARGIN_SCALE else None
    counts = {'evaluations': evaluator.evaluations, 'lookups': evaluator.lookups, 'hit_rate': evaluator.hit_rate}
    return (*games_to_arrays(results, exploration.q_ratio), margins), counts
