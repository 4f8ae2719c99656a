# ====================
# Connect Four (the book's chapter 8 game)
# ====================
# 6 rows x 7 columns; an action is a column (0-6) and the stone drops to the lowest empty row.
# Four in a row (across, down or diagonal) wins; a full board is a draw.
#
# The board is a bitboard, as in fast Connect Four solvers (bitboard.py). Unlike the book, the input planes keep the
# board's geometry (its reshape put squares that are not neighbours next to each other).

import sys

import numpy as np

from alphazero.game.opponents import heuristic_opponents, random_action
from alphazero.game.solved import OutOfNodes, Solved
from games.connect4.bitboard import COLUMN_MASK, COLUMNS, FULL, HEIGHT, ROWS, SHIFTS, TOP
from games.connect4.solver import CENTRE_FIRST, Solver

# The network's view of the game
NAME = 'connect4'
BOARD_SHAPE = (ROWS, COLUMNS)
INPUT_SHAPE = (ROWS, COLUMNS, 2)   # channels last: side to move, opponent; row 0 is the top
ACTION_COUNT = COLUMNS
# How it looks (the window and the page): the first player's stones red, the second's yellow
TITLE = {'en': 'Connect Four', 'ja': '四目並べ'}
STONE_COLORS, STONE_SHADES = ('red', 'yellow'), ('#E53935', '#FDD835')
BOARD_COLOR, LINE_COLOR = '#1565C0', '#0D3C85'

# The bit of each square in reading order (row 0 = top), for planes and cells
SQUARE_BITS = np.array([c * HEIGHT + (ROWS - 1 - r) for r in range(ROWS) for c in range(COLUMNS)])


# Four in a row somewhere among `bits`
def has_four(bits):
    for shift in SHIFTS:
        pairs = bits & (bits >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


# A bitboard as 0/1 per square in reading order
def squares(bits):
    return np.unpackbits(np.frombuffer(bits.to_bytes(8, 'little'), np.uint8), bitorder='little')[SQUARE_BITS]


# Game state
class State:
    # Initialise: an empty board unless bitboards are given (pieces = the side to move's stones)
    def __init__(self, pieces=0, enemy_pieces=0):
        self.pieces = pieces
        self.enemy_pieces = enemy_pieces

    # Number of stones on a bitboard
    def piece_count(self, pieces):
        return pieces.bit_count()

    # Lost: the opponent (who just moved) has four in a row
    def is_lose(self):
        return has_four(self.enemy_pieces)

    # Draw: the board is full and nobody has won
    def is_draw(self):
        return (self.pieces | self.enemy_pieces) == FULL and not self.is_lose()

    # Game over
    def is_done(self):
        return self.is_lose() or (self.pieces | self.enemy_pieces) == FULL

    # The state after dropping a stone in column `action`, seen from the new side to move
    def next(self, action):
        occupied = self.pieces | self.enemy_pieces
        # Adding the column's lowest bit to its stones carries up to the first empty square
        stone = (occupied + (1 << action * HEIGHT)) & COLUMN_MASK[action] & ~occupied
        return State(self.enemy_pieces, self.pieces | stone)

    # Columns whose top square is empty
    def legal_actions(self):
        occupied = self.pieces | self.enemy_pieces
        return [c for c in range(COLUMNS) if not occupied & TOP[c]]

    # The first player is to move when both sides have as many stones
    def is_first_player(self):
        return self.piece_count(self.pieces) == self.piece_count(self.enemy_pieces)

    # The network's input: (6, 7, 2), plane 0 = side to move, plane 1 = opponent, row 0 = top
    def planes(self):
        return np.stack([squares(self.pieces), squares(self.enemy_pieces)], axis=-1).reshape(INPUT_SHAPE).astype(np.float32)

    # Squares by owner in reading order: +1 first player, -1 second player, 0 empty
    def cells(self):
        first, second = (self.pieces, self.enemy_pieces) if self.is_first_player() else (self.enemy_pieces, self.pieces)
        return [int(v) for v in squares(first).astype(int) - squares(second).astype(int)]

    # Text board: o = first player, x = second player, column numbers below
    def __str__(self):
        marks = {1: 'o', -1: 'x', 0: '-'}
        cells = self.cells()
        rows = [''.join(marks[cells[r * COLUMNS + c]] for c in range(COLUMNS)) for r in range(ROWS)]
        return '\n'.join(rows + [''.join(str(c) for c in range(COLUMNS))])


# A click on square (row * COLUMNS + column) drops a stone in that column
def square_action(square):
    return square % COLUMNS


# Symmetries as (square permutation, action permutation): the board and its mirror image
def _symmetries():
    squares_ = np.arange(ROWS * COLUMNS).reshape(ROWS, COLUMNS)
    identity = tuple(range(ROWS * COLUMNS)), tuple(range(COLUMNS))
    mirror = tuple(int(i) for i in np.fliplr(squares_).reshape(-1)), tuple(range(COLUMNS - 1, -1, -1))
    return identity, mirror


SYMMETRIES = _symmetries()

# Every group of four squares in a line, for the heuristic
WINDOWS = tuple(sum(1 << (start + i * shift) for i in range(4))
                for shift in SHIFTS for start in range(HEIGHT * COLUMNS)
                if all((start + i * shift) < HEIGHT * COLUMNS and (FULL >> (start + i * shift)) & 1 for i in range(4)))
WINDOW_WEIGHTS = (0, 1, 10, 100, 0)  # a line holding 0-4 stones of one side only (steep, so deeper searches play better)


# Heuristic for the fixed-depth alpha-beta opponents: open lines, weighted by how full they are
def heuristic(state):
    score = 0
    for window in WINDOWS:
        mine, theirs = state.pieces & window, state.enemy_pieces & window
        if not theirs:
            score += WINDOW_WEIGHTS[mine.bit_count()]
        elif not mine:
            score -= WINDOW_WEIGHTS[theirs.bit_count()]
    return score


# The opponents of evaluate_best_player.py: random, and alpha-beta to depths 1, 2 and 4
# Connect Four's solver (solver.py) settles a position of SOLVER_STONES stones or more within
# SOLVER_NODES positions (under a second here): a win, a draw or a loss, and the move that keeps it
SOLVER_STONES = 20
SOLVER_NODES = 200_000


def solve(state, nodes=SOLVER_NODES):
    """The exact result for the side to move (Solved: 1 win, 0 draw, -1 loss) and its move (the
    most central that keeps it), from SOLVER_STONES stones on; None earlier, or when it takes
    more than `nodes` positions."""
    if state.is_done() or (state.pieces | state.enemy_pieces).bit_count() < SOLVER_STONES:
        return None
    try:
        results = Solver(nodes).move_results(state)
    except OutOfNodes:
        return None
    best = max(results.values())
    return Solved([next(column for column in CENTRE_FIRST if results.get(column) == best)], best)


def opponents():
    return {'VS_Random': random_action, **heuristic_opponents(heuristic, (1, 2, 4))}


# Play one random game when run alone
if __name__ == '__main__':
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
