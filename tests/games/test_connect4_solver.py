"""Connect Four's exact solver (games/connect4/game.py, which the benchmarks use), against plain
minimax over connect4.State."""
import functools
import os
import random
import sys

import pytest

from games.connect4 import game as connect4
from conftest import REPO

sys.path.insert(0, os.path.join(REPO, 'bench'))
from connect4_solver import label_positions  # noqa: E402
from games.connect4.solver import Solver, winning_squares  # noqa: E402


@functools.lru_cache(maxsize=None)
def minimax(pieces, enemy_pieces):
    """The result for the side to move by trying every move to the end (only for nearly full boards)."""
    state = connect4.State(pieces, enemy_pieces)
    if state.is_lose():
        return -1
    if state.is_draw():
        return 0
    return max(-minimax(after.pieces, after.enemy_pieces) for after in map(state.next, state.legal_actions()))


def random_position(rng, stones):
    state = connect4.State()
    for _ in range(stones):
        if state.is_done():
            return None
        state = state.next(rng.choice(state.legal_actions()))
    return None if state.is_done() else state


def late_positions(count, seed):
    rng, positions = random.Random(seed), []
    while len(positions) < count:
        state = random_position(rng, rng.randint(28, 40))
        if state is not None:
            positions.append(state)
    return positions


def test_winning_squares_are_the_moves_that_win():
    for state in late_positions(200, 1):
        mask = state.pieces | state.enemy_pieces
        winning = winning_squares(state.pieces, mask)
        for column in state.legal_actions():
            after = state.next(column)
            square = after.enemy_pieces & ~state.pieces
            assert bool(winning & square) == after.is_lose()


@pytest.mark.slow
@pytest.mark.parametrize('seed', [2, 3])
def test_every_move_result_equals_minimax(seed):
    solver = Solver()
    for state in late_positions(100, seed):
        for column, result in solver.move_results(state).items():
            after = state.next(column)
            assert result == -minimax(after.pieces, after.enemy_pieces)


def test_labelled_positions_each_have_a_wrong_move():
    positions = label_positions(5, seed=1, least=24, most=30, log=lambda _: None)
    assert len(positions) == 5
    for entry in positions:
        state = connect4.State()
        for column in entry['moves']:
            state = state.next(int(column))
        assert not state.is_done() and 24 <= len(entry['moves']) <= 30
        assert sorted(int(c) for c in entry['results']) == state.legal_actions()
        assert len(set(entry['results'].values())) > 1


def test_the_solver_agrees_with_the_benchmark_labels():
    from connect4_accuracy import read_positions
    late = [(state, results) for state, results in read_positions()
            if (state.pieces | state.enemy_pieces).bit_count() >= 22][:60]
    assert len(late) == 60
    solver = Solver()
    assert all(solver.solve(state.pieces, state.pieces | state.enemy_pieces) == max(results.values())
               for state, results in late)
