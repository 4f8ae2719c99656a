# ====================
# Othello (the book's 6x6 game of chapter 8, and the standard 8x8 board)
# ====================
# An action is a square (row * size + column), or `size * size` to pass, legal only when no other
# move exists. The game ends when neither side can move (after two passes in a row, or on a full
# board); the side with more discs wins.
#
# Boards are bitboards (square = bit), so finding the legal moves is a few shifts and masks per
# direction instead of a walk from every square. This module holds the rules for any even size;
# `variant(6)` and `variant(8)` are the two games of the registry.

import functools
import types

import numpy as np

from alphazero.opponents import heuristic_opponents, random_action

# Training defaults suited to each board on a small CPU (train_cycle.py; flags override them), and
# engine matches from openings of 4 random moves (244 different positions on 8x8).
# 6x6: the resnet network (4 blocks) and 24,576 replay samples per cycle from a window of 10 files, no
# gate games: at equal CPU time (20 minutes on one core) it beat one epoch over the 8 symmetries 30-0-10.
# 8x8: the resnet network and 28,672 replay samples per cycle (8 per new position) from a window of
# 10 files, no gate games, the fixed opponents every 5 cycles: at equal time (30 minutes) it beat the
# book's network with epochs over the symmetries 38-0-2 (README, "Networks and the training recipe").
DEFAULTS = {
    6: {'network': 'resnet', 'filters': 64, 'blocks': 4, 'games': 100, 'sims': 50, 'samples': 24576, 'window': 10,
        'dirichlet': 1.0, 'random_opening': 2, 'greedy_after': 10, 'gate': False, 'eval_games': 0, 'best_every': 5,
        'cycles': 100, 'keep_every': 10, 'opening': 4},
    8: {'network': 'resnet', 'filters': 64, 'blocks': 5, 'games': 60, 'sims': 50, 'samples': 28672, 'window': 10,
        'dirichlet': 0.8, 'random_opening': 2, 'greedy_after': 16, 'gate': False, 'eval_games': 0, 'best_every': 5,
        'cycles': 100, 'keep_every': 10, 'opening': 4},
}


# Input encodings: 'book' is the book's 2 planes (the side to move's discs, the opponent's); 'seed004'
# is the 8 planes of seed 004 (own discs, opponent discs, empty squares, legal moves, how many discs
# each legal move turns over, the corner/C/X squares, a plane of ones, a plane of zeros)
ENCODINGS = {'book': 2, 'seed004': 8}


@functools.cache
def variant(size, encoding='book'):
    """The game module of Othello on a size x size board, with the input planes of `encoding`."""
    squares = size * size
    full = (1 << squares) - 1
    pass_action = squares
    not_first_column = sum(1 << (r * size + c) for r in range(size) for c in range(1, size))
    not_last_column = sum(1 << (r * size + c) for r in range(size) for c in range(size - 1))
    # (shift, mask): a positive shift moves towards higher squares; the mask drops what wrapped
    # around from one edge to the other
    directions = ((1, not_first_column), (-1, not_last_column), (size, full), (-size, full),
                  (size + 1, not_first_column), (-size - 1, not_last_column),
                  (size - 1, not_last_column), (-size + 1, not_first_column))

    def shifted(bits, shift, mask):
        return ((bits << shift) if shift > 0 else (bits >> -shift)) & mask

    # The squares where the side with `own` discs may play: next to a run of the other side's
    # discs that ends in one of its own, in some direction
    def move_bits(own, other):
        empty = full & ~(own | other)
        moves = 0
        for shift, mask in directions:
            run = shifted(own, shift, mask) & other
            for _ in range(size - 3):
                run |= shifted(run, shift, mask) & other
            moves |= shifted(run, shift, mask) & empty
        return moves

    # The discs that a move on `square_bit` turns over
    def flipped(square_bit, own, other):
        flips = 0
        for shift, mask in directions:
            run, x = 0, shifted(square_bit, shift, mask)
            while x & other:
                run |= x
                x = shifted(x, shift, mask)
            if x & own:
                flips |= run
        return flips

    def bits_to_squares(bits):
        return np.unpackbits(np.frombuffer(bits.to_bytes((squares + 7) // 8, 'little'), np.uint8),
                             bitorder='little')[:squares]

    # The book's starting discs for 6x6 (first player on 14 and 21); the standard position for 8x8
    # (black, who moves first, on d5 and e4)
    middle = size // 2
    if size == 6:
        start = (1 << 14 | 1 << 21, 1 << 15 | 1 << 20)
    else:
        start = (1 << (middle * size + middle - 1) | 1 << ((middle - 1) * size + middle),
                 1 << ((middle - 1) * size + middle - 1) | 1 << (middle * size + middle))

    class State:
        # Initialise: the starting position unless bitboards are given; `depth` counts the plies
        # played (passes included), so that the side to move is known
        def __init__(self, pieces=None, enemy_pieces=None, depth=0):
            self.pieces = start[0] if pieces is None else pieces
            self.enemy_pieces = start[1] if enemy_pieces is None else enemy_pieces
            self.depth = depth
            self._moves = None

        # Number of discs on a bitboard
        def piece_count(self, pieces):
            return pieces.bit_count()

        # The side to move's legal squares as a bitboard (found once per state)
        def move_bits(self):
            if self._moves is None:
                self._moves = move_bits(self.pieces, self.enemy_pieces)
            return self._moves

        # Game over: a full board, or neither side can move
        def is_done(self):
            return ((self.pieces | self.enemy_pieces) == full
                    or (not self.move_bits() and not move_bits(self.enemy_pieces, self.pieces)))

        # Lost: the game is over and the side to move has fewer discs
        def is_lose(self):
            return self.is_done() and self.pieces.bit_count() < self.enemy_pieces.bit_count()

        # Draw: the game is over with as many discs each
        def is_draw(self):
            return self.is_done() and self.pieces.bit_count() == self.enemy_pieces.bit_count()

        # The state after `action`, seen from the new side to move
        def next(self, action):
            if action == pass_action:
                return State(self.enemy_pieces, self.pieces, self.depth + 1)
            square_bit = 1 << action
            flips = flipped(square_bit, self.pieces, self.enemy_pieces)
            return State(self.enemy_pieces & ~flips, self.pieces | flips | square_bit, self.depth + 1)

        # Legal squares in increasing order, or only the pass when there are none
        def legal_actions(self):
            bits = self.move_bits()
            actions = []
            while bits:
                low = bits & -bits
                actions.append(low.bit_length() - 1)
                bits ^= low
            return actions or [pass_action]

        # The first player moves on even plies (the book's depth % 2 == 0)
        def is_first_player(self):
            return self.depth % 2 == 0

        # The network's input: (size, size, 2), plane 0 = side to move, plane 1 = opponent; or
        # seed 004's 8 planes
        def planes(self):
            own, other = bits_to_squares(self.pieces), bits_to_squares(self.enemy_pieces)
            if encoding == 'book':
                return np.stack([own, other], axis=-1).reshape(size, size, 2).astype(np.float32)
            legal, flips = np.zeros(squares, np.float32), np.zeros(squares, np.float32)
            for action in self.legal_actions():
                if action != pass_action:
                    legal[action] = 1
                    flips[action] = flipped(1 << action, self.pieces, self.enemy_pieces).bit_count()
            planes = [own, other, 1 - own - other, legal, flips, CORNER_C_X, np.ones(squares), np.zeros(squares)]
            return np.stack(planes, axis=-1).reshape(size, size, 8).astype(np.float32)

        # Squares by owner: +1 first player, -1 second player, 0 empty
        def cells(self):
            first, second = (self.pieces, self.enemy_pieces) if self.is_first_player() else (self.enemy_pieces, self.pieces)
            return [int(v) for v in bits_to_squares(first).astype(int) - bits_to_squares(second).astype(int)]

        # Text board: o = first player, x = second player
        def __str__(self):
            marks = {1: 'o', -1: 'x', 0: '-'}
            cells = self.cells()
            return '\n'.join(''.join(marks[cells[r * size + c]] for c in range(size)) for r in range(size))

    # Seed 004's plane of the corners and the squares next to them (C on the edges, X on the diagonal)
    near = (0, 1, size - 2, size - 1)
    CORNER_C_X = np.array([float(r in near and c in near) for r in range(size) for c in range(size)])

    # The board's 8 symmetries as (square permutation, action permutation); the pass maps to itself
    board = np.arange(squares).reshape(size, size)
    boards = [np.rot90(board, k) for k in range(4)]
    boards += [np.fliplr(b) for b in boards]
    symmetries = tuple((tuple(int(i) for i in b.reshape(-1)), tuple(int(i) for i in b.reshape(-1)) + (pass_action,))
                       for b in boards)

    # A click on a square plays that square (the pass has no square: human_play plays it for you)
    def square_action(square):
        return square

    # Heuristic for the fixed-depth alpha-beta opponents: the disc difference
    def heuristic(state):
        return state.pieces.bit_count() - state.enemy_pieces.bit_count()

    # The first player's discs minus the second player's (GTP's final_score)
    def score(state):
        return heuristic(state) if state.is_first_player() else -heuristic(state)

    # The opponents of evaluate_best_player.py: random, and alpha-beta to depths 1, 2 and 4
    def opponents():
        return {'VS_Random': random_action, **heuristic_opponents(heuristic, (1, 2, 4))}

    return types.SimpleNamespace(
        NAME=f'othello{size}' + ('' if encoding == 'book' else 'planes'), BOARD_SHAPE=(size, size),
        INPUT_SHAPE=(size, size, ENCODINGS[encoding]), ACTION_COUNT=squares + 1,
        PASS=pass_action, SYMMETRIES=symmetries, DEFAULTS=DEFAULTS[size], GTP_GAME='Othello',
        STONE_COLORS=('black', 'white'), BOARD_COLOR='#2E7D32',  # human_play.py's window
        State=State, square_action=square_action, heuristic=heuristic, score=score, random_action=random_action,
        opponents=opponents,
        flipped=flipped, bits_to_squares=bits_to_squares)  # for games built on these rules (pointothello.py)


# Play one random game on the 8x8 board when run alone
if __name__ == '__main__':
    from alphazero.games import play_random_game
    play_random_game(variant(8))
