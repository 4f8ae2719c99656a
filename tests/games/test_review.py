"""The review after a game: the moves that lost most of the mover's expected score are marked 悪手 /
疑問手 by the thresholds, each with the search's line; in the terminal with human_play.py --review."""
import re

import pytest

from alphazero.game.registry import load_game
from alphazero.play.review import BAD_MOVE, DUBIOUS_MOVE, judge_moves, review_moves
from alphazero.settings import SearchSettings
from conftest import run_script


@pytest.fixture(scope='module')
def tictactoe():
    return load_game('tictactoe')


@pytest.fixture(scope='module')
def untrained(tictactoe):
    import keras
    from alphazero.network.runtimes import KerasNetwork
    from alphazero.search.evaluator import Evaluator
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    keras.utils.set_random_seed(0)
    return Evaluator(KerasNetwork(build_network(tictactoe, NetworkSettings('resnet', filters=4, blocks=1))))


def exact_solver(game):
    """solve(state) -> Solved from the whole game's minimax (alphazero/play/exact.py): every
    position of tic-tac-toe settled, as the solvers settle Othello's last empties."""
    from alphazero.game.solved import Solved
    from alphazero.play.exact import optimal_actions, position_key, solve
    table = solve(game)
    return lambda state: Solved(optimal_actions(state, table)[:1], table[position_key(state)][1])


def test_with_every_position_solved_the_review_marks_exactly_the_moves_that_lose(tictactoe, untrained):
    """An untrained network, but a solver that settles every position: the review marks exactly the
    moves after which the mover's game-theoretic result is worse (a draw thrown away: 0.5 lost, a
    bad move), whatever the search thought; the preferred line starts with a move that keeps it."""
    from alphazero.play.exact import optimal_actions, position_key, solve
    game, table = tictactoe, solve(tictactoe)
    actions = [4, 1, 0, 8, 2, 6, 3, 5, 7]   # o centre; x b-edge loses at once to o's corner ...
    states = [game.State()]
    for action in actions:
        states.append(states[-1].next(action))
    marks = review_moves(untrained, SearchSettings(sims=8), states, actions, lambda t: True, exact_solver(game))
    truth = [t for t, action in enumerate(actions)
             if -table[position_key(states[t + 1])][1] < table[position_key(states[t])][1]]
    assert truth and [m.ply for m in marks] == truth
    for mark in marks:
        assert mark.exact and mark.bad and mark.loss >= 0.5 and mark.line[0] != actions[mark.ply]
        assert mark.line[0] in optimal_actions(states[mark.ply], table)


def test_one_search_values_the_played_move_and_never_marks_the_preferred_one(tictactoe, untrained):
    """No solver: the played move gets its share (a quarter) of the one search of its position, so
    its value is the search's; a move that the search itself prefers is never marked, and marks go
    by the loss: DUBIOUS_MOVE or more, bad from BAD_MOVE."""
    from alphazero.search.played import PLAYED_SHARE
    from alphazero.search.search import search_roots
    game = tictactoe
    state = game.State().next(4)
    unlikely = min(state.legal_actions(), key=lambda a: untrained([state])[0][0][a])
    result = search_roots(untrained, [state], SearchSettings(sims=40), played=[unlikely])
    assert result.visits[0, unlikely] >= PLAYED_SHARE * 39
    assert BAD_MOVE == 0.2 and DUBIOUS_MOVE == 0.1
    actions = [4, 0, 8, 2, 1, 7, 6, 3, 5]
    states = [game.State()]
    for action in actions:
        states.append(states[-1].next(action))
    search = SearchSettings(sims=30)
    judged = judge_moves(untrained, search, states, actions, lambda t: True)
    marks = review_moves(untrained, search, states, actions, lambda t: True)
    for each in judged:
        assert (each.line == []) == (each.before == each.after)
        assert not each.line or each.line[0] != actions[each.ply]
    assert [m.ply for m in marks] == [j.ply for j in judged if j.loss >= DUBIOUS_MOVE]
    assert all(m.bad == (m.loss >= BAD_MOVE) for m in marks)
    preferred = [search_roots(untrained, [states[t]], search, played=[actions[t]]).lines[0][0][0]
                 for t in range(len(actions))]
    assert all(mark.ply not in [t for t in range(len(actions)) if preferred[t] == actions[t]] for mark in marks)


@pytest.mark.slow
def test_the_terminal_reviews_a_finished_game(tiny_best):
    """human_play.py --text --review on a tic-tac-toe game to its end: the review's header, then each
    marked move with its loss and the AI's line, or the line saying none was marked."""
    typed = ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3'] * 2
    result = run_script('human_play.py', '--text', '--review', '--model', 'model/best.h5', '--sims', '8',
                        '--lang', 'en', input='\n'.join(typed) + '\n', cwd='.', timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout.split('Review: your moves that lost 20 points or more of your expected score are bad moves')[1]
    lines = [line for line in out.splitlines()[1:] if line.startswith('  ')]
    pattern = r'  \d+\. [abc][123]: (bad|dubious) move \((\d+)% -> (\d+)%(, exact)?\); the AI prefers [abc][123] \(its line: [abc][123]( [abc][123])*\)'
    assert lines == ['  no move of yours was marked'] or all(re.fullmatch(pattern, line) for line in lines), lines
