# ====================
# Othello on the book's 6x6 board (chapter 8)
# ====================
# The rules are games/othello8/game.py's; only the board differs: 6x6, with the book's starting discs.

from games.othello8 import game as othello

SIZE = 6


# Game state: othello.State on the 6x6 board
class State(othello.State):
    BOARD = othello.board(SIZE)


# What the engine needs to know of the game (alphazero/game/contract.py); the rest is games/othello8/game.py's
NAME = 'othello6'
BOARD_SHAPE = (SIZE, SIZE)
INPUT_SHAPE = (SIZE, SIZE, 2)   # channels last: side to move, opponent
ACTION_COUNT = SIZE * SIZE + 1  # the squares, then the pass
PASS = SIZE * SIZE
SYMMETRIES = State.BOARD.symmetries
GTP_GAME, STONE_COLORS, STONE_SHADES = othello.GTP_GAME, othello.STONE_COLORS, othello.STONE_SHADES
BOARD_COLOR, LINE_COLOR = othello.BOARD_COLOR, othello.LINE_COLOR
TITLE = {'en': 'Othello (6x6)', 'ja': 'オセロ（6x6）'}
square_action, heuristic, score, opponents = othello.square_action, othello.heuristic, othello.score, othello.opponents
solve = othello.solve
MARGIN_SCALE = SIZE * SIZE


# Play one random game when run alone
if __name__ == '__main__':
    import sys
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
