"""The game registry: `--game` names to game modules, and where each game keeps its files.

Each game is one module that keeps the contract of alphazero/contract.py; load_game checks it and
hands out its Game. Adding a game is its module, its training recipe (config/NAME.py) and a line
in GAMES (docs/adding-a-game.md).
"""
import argparse
import importlib
import os
import random
import sys

GAMES = {
    'tictactoe': 'game',
    'connect4': 'connect4',
    'gomoku': 'gomoku',                     # the worked example of docs/adding-a-game.md
    'othello6': 'othello6',                 # the book's chapter 8 board
    'othello8': 'othello',
    'othello8planes': 'othello8planes',     # 8x8 Othello with 8 input planes
    'pointothello': 'pointothello',         # point-scoring Othello (点数制リバーシ)
    'shogi': 'shogi',                       # the book's simple shogi (chapter 8)
    'shogi9': 'shogi9',                     # full shogi (needs the optional cshogi: WITH_SHOGI=1)
}
DEFAULT_GAME = 'tictactoe'


def terminal_value(ended_state):
    """The result of a finished game for the side to move: 1 won, 0 draw, -1 lost. (In tic-tac-toe
    and Connect Four the side to move never wins, but an Othello game can end with it ahead.)"""
    if ended_state.is_lose():
        return -1
    return 0 if ended_state.is_draw() else 1


def player_value(ended_state, first_player):
    """The result of a finished game for the first player (first_player=True) or the second."""
    return value_for(ended_state, terminal_value(ended_state), first_player)


def value_for(state, value, first_player):
    """`value`, a result for the side to move of `state`, for the first player (first_player=True)
    or the second."""
    return value if state.is_first_player() == first_player else -value


def load_game(name=DEFAULT_GAME):
    """The game called `name`, checked against the contract (alphazero/contract.py)."""
    from alphazero.contract import check_game
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    if name not in LOADED:
        LOADED[name] = check_game(importlib.import_module(GAMES[name]))
    return LOADED[name]


LOADED = {}  # name: its Game, checked once per process


def as_game(game=None):
    """The Game to work on: the default game for None (the book's calls, self_play()), a Game as it
    is, and a game module (`import game`) checked against the contract."""
    from alphazero.contract import Game, check_game
    if game is None:
        return load_game()
    return game if isinstance(game, Game) else check_game(game)


def add_game_flag(parser):
    parser.add_argument('--game', default=DEFAULT_GAME, choices=sorted(GAMES),
                        help='which game to play and train (default: %(default)s)')


def run_dir(game):
    """The book's game (tic-tac-toe) keeps the book's ./model and ./data; every other game runs/NAME/."""
    return '' if game.NAME == DEFAULT_GAME else os.path.join('runs', game.NAME)


def model_dir(game):
    return os.path.join(run_dir(game), 'model')


def data_dir(game):
    return os.path.join(run_dir(game), 'data')


def game_flag(game):
    """The --game flag that names `game` in a command shown to the user ('' for the default game)."""
    return '' if game.NAME == DEFAULT_GAME else f' --game {game.NAME}'


def model_path(game, name):
    """Path of a model file, for example model_path(game, 'best.h5')."""
    return os.path.join(model_dir(game), name)


# Trained models shipped with the code, one folder per game; training never writes there
PRETRAINED_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'pretrained')


def pretrained_path(game, name):
    """Path of a shipped model file, for example pretrained/othello8/best.h5."""
    return os.path.join(PRETRAINED_DIR, game.NAME, name)


def playing_model_path(game, name='best.h5'):
    """The model to play with: the game's own trained one, else the shipped one (said in one line)."""
    own, shipped = model_path(game, name), pretrained_path(game, name)
    if not os.path.exists(own) and os.path.exists(shipped):
        shown = os.path.relpath(shipped) if not os.path.relpath(shipped).startswith('..') else shipped
        print(f'no model of your own at {own}: playing the shipped {shown}', file=sys.stderr)
        return shipped
    return own


def play_random_game(game):
    """The demo of a game module run alone (and its --help): one game of random moves, every position printed."""
    argparse.ArgumentParser(description=f'Play one {game.NAME} game of random moves and print each position.').parse_args()
    state = game.State()
    while not state.is_done():
        state = state.next(random.choice(state.legal_actions()))
        print(state, end='\n\n')


def sample_positions(game, count, seed=0):
    """`count` unfinished positions from random games (for checks and benchmarks)."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.State()
        while not state.is_done() and len(positions) < count:
            positions.append(state)
            state = state.next(rng.choice(state.legal_actions()))
    return positions
