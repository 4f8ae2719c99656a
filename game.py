# ====================
# Tic-tac-toe (the book's game.py)
# ====================
# The state is seen from the side to move: `pieces` are its stones, `enemy_pieces` the opponent's.
# Besides the book's State and players, this module carries what the network and the engine need
# (INPUT_SHAPE, ACTION_COUNT, State.planes, SYMMETRIES); nothing outside a game module knows its rules.

import numpy as np

from alphazero.game.opponents import mcts_action, random_action  # the book's players, shared by every game

# The network's view of the game
NAME = 'tictactoe'
TITLE = {'en': 'Tic-tac-toe', 'ja': '三目並べ'}  # beyond the book: the window's and the page's name for it
SOLVABLE = True            # small enough for alphazero/play/exact.py to solve (5,478 positions)
BOARD_SHAPE = (3, 3)        # rows, columns
INPUT_SHAPE = (3, 3, 2)     # channels last: side to move, opponent
ACTION_COUNT = 9            # one action per square, square = x + 3 * y

# The eight lines that win
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),
         (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


# Game state
class State:
    # Initialise: an empty board unless stone lists are given
    def __init__(self, pieces=None, enemy_pieces=None):
        self.pieces = pieces if pieces is not None else [0] * 9
        self.enemy_pieces = enemy_pieces if enemy_pieces is not None else [0] * 9

    # Number of stones in a list
    def piece_count(self, pieces):
        return sum(pieces)

    # Lost: the opponent has three in a row
    def is_lose(self):
        return any(all(self.enemy_pieces[i] for i in line) for line in LINES)

    # Draw: the board is full and nobody has won (the book checks only the full board and relies on
    # its callers asking is_lose() first; every game here answers each on its own)
    def is_draw(self):
        return self.piece_count(self.pieces) + self.piece_count(self.enemy_pieces) == 9 and not self.is_lose()

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
        return [i for i in range(9) if self.pieces[i] == 0 and self.enemy_pieces[i] == 0]

    # The first player is to move when both sides have as many stones
    def is_first_player(self):
        return self.piece_count(self.pieces) == self.piece_count(self.enemy_pieces)

    # The network's input: (3, 3, 2), plane 0 = side to move, plane 1 = opponent
    def planes(self):
        return np.array([self.pieces, self.enemy_pieces], dtype=np.float32).reshape(2, 3, 3).transpose(1, 2, 0)

    # Squares by owner: +1 first player, -1 second player, 0 empty (for boards and tests)
    def cells(self):
        first, second = (self.pieces, self.enemy_pieces) if self.is_first_player() else (self.enemy_pieces, self.pieces)
        return [first[i] - second[i] for i in range(9)]

    # Text board: o = first player, x = second player
    def __str__(self):
        marks = {1: 'o', -1: 'x', 0: '-'}
        cells = self.cells()
        return '\n'.join(''.join(marks[cells[y * 3 + x]] for x in range(3)) for y in range(3))


# The board's 8 symmetries, each as (square permutation, action permutation): the symmetric
# position has at square i what the original has at square perm[i] (here actions are squares)
def _symmetries():
    squares = np.arange(9).reshape(3, 3)
    boards = [np.rot90(squares, k) for k in range(4)]
    boards += [np.fliplr(b) for b in boards]
    permutations = [tuple(int(i) for i in b.reshape(-1)) for b in boards]
    return tuple((perm, perm) for perm in permutations)


SYMMETRIES = _symmetries()


# A click on a square plays that square
def square_action(square):
    return square


# Alpha-beta search (negamax): the value of `state` for the side to move
def alpha_beta(state, alpha, beta):
    # Lost: -1, draw: 0
    if state.is_lose():
        return -1
    if state.is_draw():
        return 0

    # Search every legal move, cutting off when the window closes
    for action in state.legal_actions():
        score = -alpha_beta(state.next(action), -beta, -alpha)
        if score > alpha:
            alpha = score
        if alpha >= beta:
            return alpha
    return alpha


# Alpha-beta player: the first move with the best value
def alpha_beta_action(state):
    best_action = 0
    alpha = -float('inf')
    for action in state.legal_actions():
        score = -alpha_beta(state.next(action), -float('inf'), -alpha)
        if score > alpha:
            best_action = action
            alpha = score
    return best_action


# The opponents of evaluate_best_player.py, by the names the book prints
def opponents():
    return {'VS_Random': random_action, 'VS_AlphaBeta': alpha_beta_action, 'VS_MCTS': mcts_action}


# Play one random game against itself when run alone
if __name__ == '__main__':
    import argparse
    argparse.ArgumentParser(description='Play one game of random moves and print each position.').parse_args()
    state = State()
    while not state.is_done():
        state = state.next(random_action(state))
        print(state)
        print()
