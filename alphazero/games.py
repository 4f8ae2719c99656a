"""The game registry: `--game` names to game modules, and where each game keeps its files.

A game module has the book's State interface plus NAME, BOARD_SHAPE, INPUT_SHAPE, ACTION_COUNT,
SYMMETRIES and State.planes(); see game.py. Adding a game means adding a module and a line here.
"""
import importlib
import os

GAMES = {
    'tictactoe': 'game',
}
DEFAULT_GAME = 'tictactoe'


def load_game(name=DEFAULT_GAME):
    """The module of the game called `name`."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    return importlib.import_module(GAMES[name])


def add_game_flag(parser):
    parser.add_argument('--game', default=DEFAULT_GAME, choices=sorted(GAMES),
                        help='which game to play and train (default: %(default)s)')


def model_dir(game):
    """Tic-tac-toe keeps the book's ./model; every other game gets runs/NAME/model."""
    return 'model' if game.NAME == 'tictactoe' else os.path.join('runs', game.NAME, 'model')


def data_dir(game):
    """Tic-tac-toe keeps the book's ./data; every other game gets runs/NAME/data."""
    return 'data' if game.NAME == 'tictactoe' else os.path.join('runs', game.NAME, 'data')


def model_path(game, name):
    """Path of a model file, for example model_path(game, 'best.h5')."""
    return os.path.join(model_dir(game), name)


def sample_positions(game, count, seed=0):
    """`count` unfinished positions from random games (for checks and benchmarks)."""
    import random
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = game.State()
        while not state.is_done() and len(positions) < count:
            positions.append(state)
            state = state.next(rng.choice(state.legal_actions()))
    return positions
