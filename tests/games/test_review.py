"""The review after a game: the moves after which the mover's expected score fell are marked 悪手 /
疑問手 by the thresholds, each with the search's line; in the terminal with human_play.py --review."""
import re

import pytest

from alphazero.game.registry import load_game
from alphazero.play.review import BAD_MOVE, DUBIOUS_MOVE, mark_moves
from conftest import run_script


def test_moves_are_marked_by_the_fall_of_the_movers_expected_score():
    """Made-up values for each position of a tic-tac-toe game: a fall of 0.25 is a bad move, of 0.15 a
    dubious one, of 0.05 nothing; a move into the end is judged by the result; each position is
    analysed once, and only the moves asked for."""
    game = load_game('tictactoe')
    actions = [0, 3, 1, 4, 2]  # o wins along the top row
    states = [game.State()]
    for action in actions:
        states.append(states[-1].next(action))
    # the value of each position for its side to move (expected score = (value + 1) / 2)
    values = {0: 0.0, 1: -0.5, 2: 0.3, 3: 0.2, 4: 0.9}
    asked = []

    def analyse(state):
        t = states.index(state)
        asked.append(t)
        return values[t], [actions[t]]
    marks = mark_moves(states, actions, lambda t: t % 2 == 0, analyse)
    # t=0: 0.5 -> 1 - 0.25 = 0.75: no mark; t=2: 0.65 -> 1 - 0.6 = 0.4: a fall of 0.25, bad; t=4: 0.95 ->
    # the win (1): none
    assert [(m.ply, m.bad) for m in marks] == [(2, True)] and marks[0].line == [actions[2]]
    assert sorted(asked) == [0, 1, 2, 3, 4]  # each position once, the finished one not at all
    assert BAD_MOVE == 0.2 and DUBIOUS_MOVE == 0.1
    values[3] = 0.0  # after t=2: 1 - 0.5 = 0.5, a fall of 0.15: dubious
    assert [(m.ply, m.bad) for m in mark_moves(states, actions, lambda t: t % 2 == 0, analyse)] == [(2, False)]


@pytest.mark.slow
def test_the_terminal_reviews_a_finished_game(tiny_best):
    """human_play.py --text --review on a tic-tac-toe game to its end: the review's header, then each
    marked move with its fall and the AI's line, or the line saying none was marked."""
    typed = ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3'] * 2
    result = run_script('human_play.py', '--text', '--review', '--model', 'model/best.h5', '--sims', '8',
                        '--lang', 'en', input='\n'.join(typed) + '\n', cwd='.', timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout.split('Review: your moves after which your expected score fell by 20 points or more')[1]
    lines = [line for line in out.splitlines()[1:] if line.startswith('  ')]
    pattern = r'  \d+\. [abc][123]: (bad|dubious) move \((\d+)% -> (\d+)%\); the AI prefers [abc][123] \(its line: [abc][123]( [abc][123])*\)'
    assert lines == ['  no move of yours was marked'] or all(re.fullmatch(pattern, line) for line in lines), lines
