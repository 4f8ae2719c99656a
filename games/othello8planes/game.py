# ====================
# 8x8 Othello with 8 input planes
# ====================
# The rules are games/othello8/game.py's; the network reads 8 planes instead of the book's 2, as in
# 「【オセロAIを作る①】SLポリシーネットワーク」 (docs/sources.md): own discs, opponent discs, empty
# squares, legal moves, how many discs each legal move turns over, the corner, C and X squares, a
# plane of ones and a plane of zeros.

import numpy as np

from games.othello8 import game as othello

SIZE = othello.SIZE

# The corners and the squares next to them (C on the edges, X on the diagonal)
NEAR = (0, 1, SIZE - 2, SIZE - 1)
CORNER_C_X = np.array([float(r in NEAR and c in NEAR) for r in range(SIZE) for c in range(SIZE)])


# Game state: othello.State with the 8 planes
class State(othello.State):
    def planes(self):
        board = self.BOARD
        own, other = board.bits_to_squares(self.pieces), board.bits_to_squares(self.enemy_pieces)
        legal, flips = np.zeros(board.squares, np.float32), np.zeros(board.squares, np.float32)
        for action in self.legal_actions():
            if action != board.pass_action:
                legal[action] = 1
                flips[action] = board.flipped(1 << action, self.pieces, self.enemy_pieces).bit_count()
        planes = [own, other, 1 - own - other, legal, flips, CORNER_C_X, np.ones(board.squares), np.zeros(board.squares)]
        return np.stack(planes, axis=-1).reshape(SIZE, SIZE, 8).astype(np.float32)


# What the engine needs to know of the game (alphazero/game/contract.py); the rest is games/othello8/game.py's
NAME = 'othello8planes'
BOARD_SHAPE = othello.BOARD_SHAPE
INPUT_SHAPE = (SIZE, SIZE, 8)
ACTION_COUNT, PASS, SYMMETRIES = othello.ACTION_COUNT, othello.PASS, othello.SYMMETRIES
GTP_GAME, STONE_COLORS, STONE_SHADES = othello.GTP_GAME, othello.STONE_COLORS, othello.STONE_SHADES
BOARD_COLOR, LINE_COLOR = othello.BOARD_COLOR, othello.LINE_COLOR
TITLE = {'en': 'Othello (8 input planes)', 'ja': 'オセロ（入力 8 面）'}
square_action, heuristic, score, opponents = othello.square_action, othello.heuristic, othello.score, othello.opponents
solve = othello.solve
MARGIN_SCALE = othello.MARGIN_SCALE


# Play one random game when run alone
if __name__ == '__main__':
    import sys
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
