"""Perfect endgames: each game's solver (the contract's `solve`) against a second, plain search that
tries every move to the end, on positions of random games; and the players that play what it proves."""
import functools

import numpy as np
import pytest

from alphazero.game.registry import load_game
from alphazero.game.solved import Solved
from conftest import random_endgame


def plain_margin(state, final_margin):
    """The final margin for the side to move, every move tried to the end (no pruning)."""
    if state.is_done():
        return final_margin(state)
    return max(-plain_margin(state.next(action), final_margin) for action in state.legal_actions())


@pytest.mark.parametrize('name', ['othello6', 'othello8'])
def test_othello_endgames_are_solved_to_the_exact_margin(name):
    """The last empties: the solver's margin is plain minimax's, its move gets it, and it says so."""
    game, rng = load_game(name), np.random.default_rng(0)
    for empties in (1, 2, 3, 4, 5, 6) * 3:
        state, _ = random_endgame(game, empties, rng)
        solved = game.solve(state)
        exact = plain_margin(state, game.heuristic)
        assert solved.margin == exact and solved.value == (exact > 0) - (exact < 0)
        assert -plain_margin(state.next(solved.line[0]), game.heuristic) == exact
    assert game.solve(game.State()) is None  # 60 empties: the search decides
    assert Solved([0], 1, margin=6).says() == 'wins by 6' and Solved([0], -1, margin=-2).says('ja') == '2 石差で負け'


def plain_result(state):
    """1, 0 or -1 for the side to move, every move tried to the end (Connect Four)."""
    return plain_connect4(state.pieces, state.enemy_pieces)


@functools.lru_cache(maxsize=None)
def plain_connect4(pieces, enemy_pieces):
    state = load_game('connect4').State(pieces, enemy_pieces)
    if state.is_done():
        return -1 if state.is_lose() else 0
    return max(-plain_result(state.next(action)) for action in state.legal_actions())


def random_position(game, rng, fewest, most):
    """The position after fewest to most - 1 random moves, or None when the game ended before."""
    state = game.State()
    for _ in range(int(rng.integers(fewest, most))):
        if state.is_done():
            return None
        state = state.next(int(rng.choice(state.legal_actions())))
    return None if state.is_done() else state


def test_connect_four_is_solved_from_twenty_stones_as_minimax_says():
    game, rng = load_game('connect4'), np.random.default_rng(1)
    checked = 0
    while checked < 40:
        state = random_position(game, rng, 30, 38)
        if state is None:
            continue
        solved = game.solve(state)
        result = plain_result(state)
        assert solved.value == result and -plain_result(state.next(solved.line[0])) == result
        checked += 1
    assert game.solve(game.State()) is None


def forced_within(state, plies):
    """Whether the side to move wins within `plies` plies whatever the opponent does (plain search)."""
    if plies <= 0 or state.is_done():
        return False
    for action in state.legal_actions():
        after = state.next(action)
        if after.is_lose():
            return True
        if plies >= 3 and not after.is_done() and all(
                not again.is_done() and forced_within(again, plies - 2)
                for again in map(after.next, after.legal_actions())):
            return True
    return False


def test_simple_shogi_mates_are_found_and_are_the_shortest():
    """The solver's mate in N: a forced win within N plies and none within N - 2 (plain search), its
    line legal and ending with the lion taken; a position without a mate in 3 gets none of 1 or 3."""
    game, rng = load_game('shogi'), np.random.default_rng(2)
    mates = quiet = 0
    while mates < 30 or quiet < 20:
        state = random_position(game, rng, 2, 40)
        if state is None:
            continue
        solved = game.solve(state)
        if solved is None:
            assert not forced_within(state, 3)
            quiet += 1
            continue
        assert solved.mate == len(solved.line) and forced_within(state, solved.mate)
        assert solved.mate == 1 or not forced_within(state, solved.mate - 2)
        walked = state
        for action in solved.line:
            assert not walked.is_done() and action in walked.legal_actions()
            walked = walked.next(action)
        assert walked.is_lose()
        mates += 1


def test_players_play_what_the_solver_proves_and_say_it(capsys):
    """A searching player (an untrained network) plays the solver's move in Othello's last empties, and
    searches the opening; human_play's AI says the exact result after its move."""
    from alphazero.play.levels import Level
    from alphazero.play.agent import Agent, Style
    from alphazero.play.players import SolvingPlayer
    from alphazero.network.runtimes import KerasNetwork
    from alphazero.settings import SearchSettings
    from conftest import tiny_model
    from human_play import ai_action, play_text
    game, rng = load_game('othello8'), np.random.default_rng(3)
    network = KerasNetwork(tiny_model(0, rules=game))
    player = Agent(game, network, style=Style(Level(4, 8, 0.0)), rng=rng).player
    states = [random_endgame(game, 8, rng)[0] for _ in range(6)] + [game.State()]
    choices = player.choose(states)
    assert isinstance(player, SolvingPlayer) and not isinstance(choices[-1][1], Solved)
    for state, (action, solved) in zip(states[:-1], choices):
        assert action == solved.line[0] and -plain_margin(state.next(action), game.heuristic) == solved.margin
    next_action = ai_action(Agent(game, network, SearchSettings(sims=4)))
    assert next_action(states[0]) == choices[0][0] and next_action.solved == choices[0][1]
    next_action(game.State())
    assert next_action.solved is None
    # In the terminal: the AI's line with what the solver proved (tic-tac-toe, with a made-up result)
    move = load_game('tictactoe').State().legal_actions()[0]
    said = lambda state: move  # noqa: E731
    said.solved = Solved([move], 0)
    answers = iter(['resign'])
    play_text(load_game('tictactoe'), said, False, read=lambda prompt='': next(answers))
    assert '(solved: draw)' in capsys.readouterr().out
