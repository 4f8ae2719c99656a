"""The game registry: `--game` names to game modules, each checked against the contract (contract.py).

A game is one folder, games/NAME/: its rules (game.py), its training recipe (recipe.py) and what
else it needs (Connect Four's solver.py); the registry finds every folder that holds a game.py, in
every games/ folder on Python's path (docs/adding-a-game.md). Tic-tac-toe's rules stay where the
book has them, game.py at the top, with its recipe in games/tictactoe/."""
import argparse
import importlib
import os
import random

import games
from alphazero.game.contract import Game, check_game

BOOK_GAME = {'tictactoe': 'game'}  # the book's tic-tac-toe: game.py at the top


def find_games():
    """{name: module} of every game: the book's, then each games/NAME/game.py in name order."""
    folders = {name for folder in games.__path__ for name in os.listdir(folder)
               if os.path.isfile(os.path.join(folder, name, 'game.py'))}
    return {**BOOK_GAME, **{name: f'games.{name}.game' for name in sorted(folders)}}


GAMES = find_games()
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
