"""Tic-tac-toe rules and the book's fixed players."""
import itertools

import numpy as np
import pytest

from game import LINES, SYMMETRIES, State, alpha_beta, alpha_beta_action, mcts_action, random_action
from conftest import state_from


@pytest.mark.parametrize('line', LINES)
def test_every_line_wins(line):
    # The side to move has lost when the opponent owns the line...
    others = [i for i in range(9) if i not in line][:2]
    lost = state_from(others, line)
    assert lost.is_lose() and lost.is_done()
    # ...and the same stones do not make the side to move lose when they are its own
    assert not state_from(line, others).is_lose()


def test_only_eight_lines_win():
    # Of all 126 sets of 3 squares, exactly the 8 lines win
    winning = [s for s in itertools.combinations(range(9), 3) if state_from([], s).is_lose()]
    assert sorted(winning) == sorted(LINES)


def test_draw_is_a_full_board_without_a_line():
    # o x o / o x x / x o o: nobody has three in a row
    draw = state_from([0, 2, 3, 7, 8], [1, 4, 5, 6])
    assert draw.is_draw() and not draw.is_lose() and draw.is_done()
    assert draw.legal_actions() == []
    assert not State().is_done()
    # A full board whose last stone made a line is lost for the side to move, not drawn
    full_lost = state_from([1, 3, 5, 6], [0, 2, 4, 7, 8])  # the opponent's stones 0, 4, 8 form a diagonal
    assert full_lost.is_lose() and not full_lost.is_draw() and full_lost.is_done()


def test_legal_actions_are_the_empty_squares_in_order():
    state = state_from([4], [0, 8])
    assert state.legal_actions() == [1, 2, 3, 5, 6, 7]
    assert State().legal_actions() == list(range(9))


def test_next_swaps_the_point_of_view():
    state = State()
    after = state.next(4)
    # The move belongs to the player who made it, who is now the opponent
    assert after.enemy_pieces[4] == 1 and after.pieces[4] == 0
    assert not after.is_first_player() and state.is_first_player()
    after2 = after.next(0)
    assert after2.pieces[4] == 1 and after2.enemy_pieces[0] == 1 and after2.is_first_player()
    # The original state is unchanged
    assert state.pieces == [0] * 9 and state.enemy_pieces == [0] * 9


def test_planes_are_side_to_move_then_opponent_in_board_layout():
    state = state_from([1], [5])  # square = x + 3y: 1 is (x1, y0), 5 is (x2, y1)
    planes = state.planes()
    assert planes.shape == (3, 3, 2) and planes.dtype == np.float32
    assert planes[0, 1, 0] == 1 and planes[1, 2, 1] == 1 and planes.sum() == 2


def test_str_marks_first_player_o():
    assert str(State().next(0).next(4)) == 'o--\n-x-\n---'


def test_symmetries_are_the_eight_board_symmetries():
    assert len(set(SYMMETRIES)) == 8
    for perm, actions in SYMMETRIES:
        assert actions == perm  # an action is a square
        assert sorted(perm) == list(range(9))
        # A symmetry maps every winning line onto a winning line
        assert {tuple(sorted(perm.index(i) for i in line)) for line in LINES} == set(LINES)


def test_alpha_beta_says_the_empty_board_is_a_draw():
    assert alpha_beta(State(), -float('inf'), float('inf')) == 0


def test_alpha_beta_never_loses_to_any_sequence_of_moves():
    chosen = {}

    def alpha_beta_move(state):
        key = (tuple(state.pieces), tuple(state.enemy_pieces))
        if key not in chosen:
            chosen[key] = alpha_beta_action(state)
        return chosen[key]

    # Every result of every game in which the opponent tries every move
    def results(state, alpha_beta_to_move):
        if state.is_done():
            lost = state.is_lose()
            return [(-1 if alpha_beta_to_move else 1) if lost else 0]
        if alpha_beta_to_move:
            return results(state.next(alpha_beta_move(state)), False)
        return [r for action in state.legal_actions() for r in results(state.next(action), True)]

    as_first, as_second = results(State(), True), results(State(), False)
    assert min(as_first) == 0 and min(as_second) == 0
    assert len(as_second) > 100 and 1 in as_second  # it does win when the opponent blunders


def test_alpha_beta_takes_a_win_and_blocks_a_loss():
    assert alpha_beta_action(state_from([0, 1], [3, 4])) == 2  # win on the top row
    assert alpha_beta_action(state_from([0], [3, 4])) == 5     # block the middle row


def test_random_and_mcts_players_move_legally():
    state = state_from([0], [4])
    for _ in range(20):
        assert random_action(state) in state.legal_actions()
    assert mcts_action(state) in state.legal_actions()
    assert mcts_action(state_from([0, 1], [3, 4])) == 2  # a pure MCTS finds an immediate win
