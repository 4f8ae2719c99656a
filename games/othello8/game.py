# ====================
# Othello (reversi): the rules for any even board, and the standard 8x8 game
# ====================
# The book's chapter 8 plays reversi on a 6x6 board (games/othello6/game.py); this module is the standard 8x8
# game, and games/othello6/game.py and games/othello8planes/game.py are thin modules on its rules.
#
# An action is a square (row * size + column), or `size * size` to pass, legal only when no other
# move exists. The game ends when neither side can move (after two passes in a row, or on a full
# board); the side with more discs wins. Boards are bitboards (square = bit), so finding the legal
# moves is a few shifts and masks per direction instead of a walk from every square.

import functools

import numpy as np

from alphazero.game.solved import solve_margin
from alphazero.game.opponents import heuristic_opponents, random_action

SIZE = 8


# The geometry of a size x size board: the masks that keep shifted discs from wrapping round an
# edge, the starting discs, and the board's 8 symmetries
class Board:
    def __init__(self, size):
        self.size = size
        self.squares = size * size
        self.full = (1 << self.squares) - 1
        self.pass_action = self.squares
        not_first_column = sum(1 << (r * size + c) for r in range(size) for c in range(1, size))
        not_last_column = sum(1 << (r * size + c) for r in range(size) for c in range(size - 1))
        # (shift, mask): a positive shift moves towards higher squares; the mask drops what wrapped
        # around from one edge to the other
        self.directions = ((1, not_first_column), (-1, not_last_column), (size, self.full), (-size, self.full),
                           (size + 1, not_first_column), (-size - 1, not_last_column),
                           (size - 1, not_last_column), (-size + 1, not_first_column))

        # The book's starting discs for 6x6 (first player on 14 and 21); the standard position for
        # 8x8 (black, who moves first, on d5 and e4)
        middle = size // 2
        if size == 6:
            self.start = (1 << 14 | 1 << 21, 1 << 15 | 1 << 20)
        else:
            self.start = (1 << (middle * size + middle - 1) | 1 << ((middle - 1) * size + middle),
                          1 << ((middle - 1) * size + middle - 1) | 1 << (middle * size + middle))

        # The 8 symmetries as (square permutation, action permutation); the pass maps to itself
        board = np.arange(self.squares).reshape(size, size)
        boards = [np.rot90(board, k) for k in range(4)]
        boards += [np.fliplr(b) for b in boards]
        self.symmetries = tuple((tuple(int(i) for i in b.reshape(-1)),
                                 tuple(int(i) for i in b.reshape(-1)) + (self.pass_action,)) for b in boards)

    def shifted(self, bits, shift, mask):
        return ((bits << shift) if shift > 0 else (bits >> -shift)) & mask

    # The squares where the side with `own` discs may play: next to a run of the other side's
    # discs that ends in one of its own, in some direction
    def move_bits(self, own, other):
        empty = self.full & ~(own | other)
        moves = 0
        for shift, mask in self.directions:
            run = self.shifted(own, shift, mask) & other
            for _ in range(self.size - 3):
                run |= self.shifted(run, shift, mask) & other
            moves |= self.shifted(run, shift, mask) & empty
        return moves

    # The discs that a move on `square_bit` turns over
    def flipped(self, square_bit, own, other):
        flips = 0
        for shift, mask in self.directions:
            run, x = 0, self.shifted(square_bit, shift, mask)
            while x & other:
                run |= x
                x = self.shifted(x, shift, mask)
            if x & own:
                flips |= run
        return flips

    def bits_to_squares(self, bits):
        return np.unpackbits(np.frombuffer(bits.to_bytes((self.squares + 7) // 8, 'little'), np.uint8),
                             bitorder='little')[:self.squares]


@functools.cache
def board(size):
    return Board(size)


# Game state
class State:
    BOARD = board(SIZE)  # a game on another board is a subclass with its own (games/othello6/game.py)

    # Initialise: the starting position unless bitboards are given; `depth` counts the plies
    # played (passes included), so that the side to move is known
    def __init__(self, pieces=None, enemy_pieces=None, depth=0):
        self.pieces = self.BOARD.start[0] if pieces is None else pieces
        self.enemy_pieces = self.BOARD.start[1] if enemy_pieces is None else enemy_pieces
        self.depth = depth
        self._moves = None

    # Number of discs on a bitboard
    def piece_count(self, pieces):
        return pieces.bit_count()

    # The side to move's legal squares as a bitboard (found once per state)
    def move_bits(self):
        if self._moves is None:
            self._moves = self.BOARD.move_bits(self.pieces, self.enemy_pieces)
        return self._moves

    # Game over: a full board, or neither side can move
    def is_done(self):
        return ((self.pieces | self.enemy_pieces) == self.BOARD.full
                or (not self.move_bits() and not self.BOARD.move_bits(self.enemy_pieces, self.pieces)))

    # Lost: the game is over and the side to move has fewer discs
    def is_lose(self):
        return self.is_done() and self.pieces.bit_count() < self.enemy_pieces.bit_count()

    # Draw: the game is over with as many discs each
    def is_draw(self):
        return self.is_done() and self.pieces.bit_count() == self.enemy_pieces.bit_count()

    # The state after `action`, seen from the new side to move
    def next(self, action):
        if action == self.BOARD.pass_action:
            return type(self)(self.enemy_pieces, self.pieces, self.depth + 1)
        square_bit = 1 << action
        flips = self.BOARD.flipped(square_bit, self.pieces, self.enemy_pieces)
        return type(self)(self.enemy_pieces & ~flips, self.pieces | flips | square_bit, self.depth + 1)

    # Legal squares in increasing order, or only the pass when there are none
    def legal_actions(self):
        bits = self.move_bits()
        actions = []
        while bits:
            low = bits & -bits
            actions.append(low.bit_length() - 1)
            bits ^= low
        return actions or [self.BOARD.pass_action]

    # The first player moves on even plies (the book's depth % 2 == 0)
    def is_first_player(self):
        return self.depth % 2 == 0

    # The network's input: (size, size, 2), plane 0 = side to move, plane 1 = opponent
    def planes(self):
        size = self.BOARD.size
        own, other = self.BOARD.bits_to_squares(self.pieces), self.BOARD.bits_to_squares(self.enemy_pieces)
        return np.stack([own, other], axis=-1).reshape(size, size, 2).astype(np.float32)

    # Squares by owner: +1 first player, -1 second player, 0 empty
    def cells(self):
        first, second = (self.pieces, self.enemy_pieces) if self.is_first_player() else (self.enemy_pieces, self.pieces)
        to_squares = self.BOARD.bits_to_squares
        return [int(v) for v in to_squares(first).astype(int) - to_squares(second).astype(int)]

    # Text board: o = first player, x = second player
    def __str__(self):
        marks = {1: 'o', -1: 'x', 0: '-'}
        cells, size = self.cells(), self.BOARD.size
        return '\n'.join(''.join(marks[cells[r * size + c]] for c in range(size)) for r in range(size))


# What the engine needs to know of the game (alphazero/game/contract.py)
NAME = 'othello8'
BOARD_SHAPE = (SIZE, SIZE)
INPUT_SHAPE = (SIZE, SIZE, 2)   # channels last: side to move, opponent
ACTION_COUNT = SIZE * SIZE + 1  # the squares, then the pass
PASS = SIZE * SIZE
SYMMETRIES = State.BOARD.symmetries
GTP_GAME = 'Othello'
# How it looks (the window and the page): black moves first
TITLE = {'en': 'Othello', 'ja': 'オセロ'}
STONE_COLORS, STONE_SHADES = ('black', 'white'), ('#111111', '#FAFAFA')
BOARD_COLOR, LINE_COLOR = '#2E7D32', '#1B4D1E'


# A click on a square plays that square (the pass has no square: human_play plays it for you)
def square_action(square):
    return square


# Heuristic for the fixed-depth alpha-beta opponents: the disc difference
def heuristic(state):
    return state.pieces.bit_count() - state.enemy_pieces.bit_count()


# The first player's discs minus the second player's (GTP's final_score)
def score(state):
    return heuristic(state) if state.is_first_player() else -heuristic(state)


MARGIN_SCALE = SIZE * SIZE  # every disc one colour

# The last empties searched to the end before each move, as Edax and Egaroucid do (they search 20 and
# more in C; in Python 10 empties take up to SOLVER_NODES positions, under a second): the exact margin
SOLVER_EMPTIES = 10
SOLVER_NODES = 50_000


def solve(state, nodes=SOLVER_NODES):
    """The exact final disc margin for the side to move and the move that gets it (Solved), with
    at most SOLVER_EMPTIES empty squares; None earlier, or when it takes more than `nodes` positions."""
    if state.is_done() or state.cells().count(0) > SOLVER_EMPTIES:
        return None
    return solve_margin(state, heuristic, nodes)


# The opponents of evaluate_best_player.py: random, and alpha-beta to depths 1, 2 and 4
def opponents():
    return {'VS_Random': random_action, **heuristic_opponents(heuristic, (1, 2, 4))}


# Play one random game when run alone
if __name__ == '__main__':
    import sys
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
