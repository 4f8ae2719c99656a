"""Self-play's games: one network plays itself, many games at once, and the games become training arrays."""
from alphazero.data.targets import games_to_arrays, games_to_margins
from alphazero.play.loop import play_games
from alphazero.play.openings import random_opening
from alphazero.play.players import MctsPlayer
from alphazero.search.evaluator import Evaluator


def play_self_play(game, network, count, settings, rng, progress=None):
    """`count` self-play games of one network, all at once; returns the (position, policy, value,
    margin) arrays (margin None for a game without one) and the evaluator's counts. `settings`: sims, temperature, dirichlet_alpha,
    dirichlet_weight, greedy_after, opening_moves, peek, parallel, cache, options, q_ratio (self_play.py's
    flags)."""
    evaluator = Evaluator(network, cache=settings['cache'])
    # In a game with hidden information the search may see it (peek), as the point-Othello page's self-play does
    determinize = None if settings['peek'] else game.determinize
    player = MctsPlayer(evaluator, settings['sims'], settings['temperature'], rng, settings['dirichlet_alpha'],
                        settings['dirichlet_weight'], settings['greedy_after'], determinize,
                        options=settings['options'])
    opening_moves = settings['opening_moves']
    openings = [random_opening(game, opening_moves, rng) for _ in range(count)] if opening_moves else None
    results = play_games(game.State, [(player, player)] * count, settings['parallel'], record=True, progress=progress,
                         openings=openings)
    margins = games_to_margins(results, game) if game.MARGIN_SCALE else None
    counts = {'evaluations': evaluator.evaluations, 'lookups': evaluator.lookups, 'hit_rate': evaluator.hit_rate}
    return (*games_to_arrays(results, settings['q_ratio']), margins), counts
