# ====================
# Gomoku (五目並べ) on a 7x7 board: the worked example of docs/adding-a-game.md
# ====================
# Two players take turns placing a stone on an empty square; five (or more) of one's own stones in a
# row, across, down or diagonally, wins, and a full board without one is a draw. The module keeps the
# game contract (alphazero/game/contract.py): the book's State, written like game.py's, plus what the
# network and the engine need. Its training recipe is games/gomoku/recipe.py.

import numpy as np

from alphazero.game.opponents import heuristic_opponents, random_action

SIZE = 7                   # squares per side
ROW = 5                    # stones in a row that win

# What the engine needs to know of the game
NAME = 'gomoku'
BOARD_SHAPE = (SIZE, SIZE)          # rows, columns
INPUT_SHAPE = (SIZE, SIZE, 2)       # channels last: side to move, opponent
ACTION_COUNT = SIZE * SIZE          # one action per square, square = row * SIZE + column
# How it looks (the window and the page): black moves first
TITLE = {'en': 'Gomoku (7x7)', 'ja': '五目並べ（7x7）'}
STONE_COLORS, STONE_SHADES = ('black', 'white'), ('#111111', '#F5F5F5')
BOARD_COLOR, LINE_COLOR = '#DEB887', '#8B5A2B'
GTP_GAME = 'Gomoku'


# Every run of ROW squares: across, down, and both diagonals
def _lines():
    lines = []
    for row in range(SIZE):
        for column in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_column = row + dr * (ROW - 1), column + dc * (ROW - 1)
                if end_row < SIZE and 0 <= end_column < SIZE:
                    lines.append(tuple((row + dr * i) * SIZE + column + dc * i for i in range(ROW)))
    return tuple(lines)


LINES = _lines()


# Game state, seen from the side to move: `pieces` are its stones, `enemy_pieces` the opponent's
class State:
    # Initialise: an empty board unless stone lists are given
    def __init__(self, pieces=None, enemy_pieces=None):
        self.pieces = pieces if pieces is not None else [0] * ACTION_COUNT
        self.enemy_pieces = enemy_pieces if enemy_pieces is not None else [0] * ACTION_COUNT

    # Number of stones in a list
    def piece_count(self, pieces):
        return sum(pieces)

    # Lost: the opponent has five in a row
    def is_lose(self):
        return any(all(self.enemy_pieces[i] for i in line) for line in LINES)

    # Draw: the board is full and nobody has five in a row
    def is_draw(self):
        return self.piece_count(self.pieces) + self.piece_count(self.enemy_pieces) == ACTION_COUNT and not self.is_lose()

    # Game over
    def is_done(self):
        return self.is_lose() or self.is_draw()

    # The state after `action`, seen from the new side to move (the two lists swap)
    def next(self, action):
        pieces = self.pieces.copy()
        pieces[action] = 1
        return State(self.enemy_pieces, pieces)

    # Empty squares, in increasing order
    def legal_actions(self):
        return [i for i in range(ACTION_COUNT) if self.pieces[i] == 0 and self.enemy_pieces[i] == 0]

    # The first player is to move when both sides have as many stones
    def is_first_player(self):
        return self.piece_count(self.pieces) == self.piece_count(self.enemy_pieces)

    # The network's input: plane 0 the side to move's stones, plane 1 the opponent's
    def planes(self):
        return np.array([self.pieces, self.enemy_pieces], dtype=np.float32).T.reshape(INPUT_SHAPE)

    # Squares by owner: +1 first player, -1 second player, 0 empty
    def cells(self):
        first, second = (self.pieces, self.enemy_pieces) if self.is_first_player() else (self.enemy_pieces, self.pieces)
        return [a - b for a, b in zip(first, second)]

    # Text board: o = first player, x = second player
    def __str__(self):
        marks = {1: 'o', -1: 'x', 0: '-'}
        cells = self.cells()
        return '\n'.join(''.join(marks[cells[r * SIZE + c]] for c in range(SIZE)) for r in range(SIZE))


# The board's 8 symmetries (rotations and reflections), as (square permutation, action permutation)
def _symmetries():
    board = np.arange(ACTION_COUNT).reshape(SIZE, SIZE)
    boards = [np.rot90(board, k) for k in range(4)]
    boards += [np.fliplr(b) for b in boards]
    return tuple((tuple(int(i) for i in b.reshape(-1)),) * 2 for b in boards)


SYMMETRIES = _symmetries()


# A click on a square plays that square
def square_action(square):
    return square


# Heuristic for the fixed-depth alpha-beta opponents, for the side to move: every run of five that
# holds stones of one side only counts for that side, steeply more with more stones in it
LINE_WEIGHTS = (0, 1, 4, 16, 64, 0)


def heuristic(state):
    score = 0
    for line in LINES:
        mine = sum(state.pieces[i] for i in line)
        theirs = sum(state.enemy_pieces[i] for i in line)
        if not theirs:
            score += LINE_WEIGHTS[mine]
        elif not mine:
            score -= LINE_WEIGHTS[theirs]
    return score


# The opponents of evaluate_best_player.py: random, and alpha-beta to depths 1 and 2
def opponents():
    return {'VS_Random': random_action, **heuristic_opponents(heuristic, (1, 2))}


# Play one random game when run alone
if __name__ == '__main__':
    import sys
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
