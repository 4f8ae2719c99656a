"""The game registry: `--game` names to game modules, each checked against the contract (contract.py).

Adding a game is its module, its training recipe (config/NAME.py) and a line in GAMES
(docs/adding-a-game.md)."""
import argparse
import importlib
import random

from alphazero.game.contract import Game, check_game

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


def load_game(name=DEFAULT_GAME):
    """The game called `name`, checked against the contract (alphazero/contract.py)."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    if name not in LOADED:
        LOADED[name] = check_game(importlib.import_module(GAMES[name]))
    return LOADED[name]


LOADED = {}  # name: its Game, checked once per process


def as_game(game=None):
    """The Game to work on: the default game for None (the book's calls, self_play()), a Game as it
    is, and a game module (`import game`) checked against the contract."""
    if game is None:
        return load_game()
    return game if isinstance(game, Game) else check_game(game)


def add_game_flag(parser):
    parser.add_argument('--game', default=DEFAULT_GAME, choices=sorted(GAMES),
                        help='which game to play and train (default: %(default)s)')


def game_flag(game):
    """The --game flag that names `game` in a command shown to the user ('' for the default game)."""
    return '' if game.NAME == DEFAULT_GAME else f' --game {game.NAME}'


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
