"""The game registry: `--game` names to game modules, and where each game keeps its files.

A game module has the book's State interface (legal_actions, next, is_lose, is_draw, is_done,
is_first_player, __str__) plus what the engine needs: NAME, BOARD_SHAPE, INPUT_SHAPE, ACTION_COUNT,
SYMMETRIES, State.planes(), State.cells(), square_action(square) (the action a click on a square
means) and opponents() (the fixed players of evaluate_best_player.py). Optional: DEFAULTS (training
defaults), PASS (the action without a square), score(state) (the first player's margin, for GTP's
final_score) and GTP_GAME (the game's name for GTP GUIs). See game.py. Adding a game means adding a module and a line here; 'module:N' names
the variant N of a module that holds several (othello.variant(N)), 'module:N:E' its variant N with
the input encoding E (othello.variant(8, 'seed004')).
"""
import argparse
import importlib
import os
import random
import sys

GAMES = {
    'tictactoe': 'game',
    'connect4': 'connect4',
    'othello6': 'othello:6',
    'othello8': 'othello:8',
    'othello8planes': 'othello:8:seed004',   # 8x8 Othello with seed 004's 8 input planes
    'pointothello': 'pointothello',         # seed 000's point-scoring Othello
    'shogi': 'shogi',                       # the book's simple shogi (chapter 8)
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
    value = terminal_value(ended_state)
    return value if ended_state.is_first_player() == first_player else -value


def load_game(name=DEFAULT_GAME):
    """The game called `name`, checked against the contract (alphazero/contract.py)."""
    from alphazero.contract import check_game
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    if name not in LOADED:
        module_name, *variant = GAMES[name].split(':')
        module = importlib.import_module(module_name)
        LOADED[name] = check_game(module.variant(int(variant[0]), *variant[1:]) if variant else module)
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


def refuse(message):
    raise argparse.ArgumentError(None, message)


def parse_game_args(parser, argv=None, presets=None, keep=()):
    """Parse the command line, with the chosen game's DEFAULTS over the parser's own defaults, then
    the chosen --preset's (`presets`: {name: defaults}) over those; the flags typed always win. The
    flags named in `keep` keep the parser's default (the playing scripts' --sims: what the model
    records, not the training's). --help shows the defaults so chosen."""
    # The game and the preset first, read alone (the script's required arguments may be missing when
    # --help is asked), so that the help printed next shows the game's defaults; an unknown name is
    # left for the full parser to report. A default of a flag the script lacks is a harmless attribute.
    argv = sys.argv[1:] if argv is None else argv
    first = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    first.error = refuse  # a mistake here is the full parser's to report
    first.add_argument('--game', default=parser.get_default('game'))
    first.add_argument('--preset', default=parser.get_default('preset'))
    try:
        chosen = first.parse_known_args(argv)[0]
    except argparse.ArgumentError:
        chosen = argparse.Namespace(game=None, preset=None)
    defaults = dict(getattr(load_game(chosen.game), 'DEFAULTS', {})) if chosen.game in GAMES else {}
    defaults.update(presets.get(chosen.preset, {}) if presets else {})
    parser.set_defaults(**{name: value for name, value in defaults.items() if name not in keep})
    return parser.parse_args(argv)


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
