"""Model files (.h5): loaded with a clear line when they do not fit the game, saved with the simulations
they record."""
import os

from alphazero.errors import UserError
from alphazero.files import atomic_output, check_space
from alphazero.game.paths import model_dir
from alphazero.game.registry import GAMES, game_flag, load_game
from alphazero.settings import SearchSettings
from alphazero.network.keras_setup import quiet_keras


def model_advice(game, path, exists=True):
    """What to do about a missing or unusable model file: the run's own files are made again by a
    stage (once the bad one is moved away); any other file (given with --model) is the user's to replace."""
    flag = game_flag(game)
    if os.path.abspath(os.path.dirname(path)) != os.path.abspath(model_dir(game)):
        return f'give a model of {game.NAME} (its best.h5, or the best.onnx that export.py writes)'
    first = 'move it away, then ' if exists else ''
    if os.path.basename(path) == 'latest.h5':
        return f'{first}`python train_network.py{flag}` writes it'
    if path.endswith('.onnx'):
        return f'{first}`python export.py{flag}` writes it'
    return f'{first}`python dual_network.py{flag}` creates a new one, `python train_cycle.py{flag}` trains it'


def check_model_file(path, game):
    """Raise a UserError when `path` is missing or a folder."""
    if not os.path.exists(path):
        raise UserError(f'{path} not found: {model_advice(game, path, exists=False)}.')
    if os.path.isdir(path):
        raise UserError(f'{path} is a folder, not a model file: give the model inside it, for example '
                        f'{os.path.join(path, "best.h5")}.')


def games_taking(input_shape):
    """The games whose networks take input planes of this shape (what a refused model may be for)."""
    names = []
    for name in GAMES:
        try:
            if tuple(load_game(name).INPUT_SHAPE) == tuple(input_shape):
                names.append(name)
        except Exception:  # a game whose optional library is not installed (full shogi's cshogi)
            continue
    return names


def check_shapes(game, path, input_shape, output_shapes):
    """Raise a UserError unless a model's input and output shapes (without the batch) fit `game`."""
    if tuple(input_shape) != tuple(game.INPUT_SHAPE):
        fitting = games_taking(input_shape)
        other_game = f'; if it is a model of {" or ".join(fitting)}, add --game {fitting[0]}' if fitting else ''
        raise UserError(f'{path} takes input {tuple(input_shape)}, but {game.NAME} needs {tuple(game.INPUT_SHAPE)}: '
                        f'{model_advice(game, path)}{other_game}.')
    shapes = [tuple(shape) for shape in output_shapes]
    if shapes[:2] != [(game.ACTION_COUNT,), (1,)] or shapes[2:] not in ([], [(1,)]):
        raise UserError(f'{path} has outputs {shapes}, but {game.NAME} needs [({game.ACTION_COUNT},), (1,)] (and '
                        f'(1,) for a margin head): {model_advice(game, path)}.')


def load_model(path, game):
    """Load a Keras dual network, checked against the game (uncompiled, as the book loads it)."""
    check_model_file(path, game)
    quiet_keras()
    import keras
    try:
        model = keras.models.load_model(path, compile=False)
    except Exception as error:  # h5py and Keras raise many kinds of errors for a damaged file
        reason = str(error).splitlines()[0][:80] if str(error) else type(error).__name__
        raise UserError(f'{path} is not a readable Keras model ({reason}): {model_advice(game, path)}.') from None
    outputs = model.output_shape if isinstance(model.output_shape, list) else [model.output_shape]
    check_shapes(game, path, model.input_shape[1:], [shape[1:] for shape in outputs])
    return model


# The search a model was trained with (simulations per move of its self-play), kept in its .h5
# file's attributes, its ONNX export's metadata and each history file, so the programs that play it
# search as it was trained and judged unless told otherwise
SIMS_KEY = 'alphazero_sims'


def save_model(model, path, sims=None):
    """Save a Keras model to an .h5 file atomically, with the simulations it was trained with."""
    quiet_keras()
    check_space(path, 3 * 4 * model.count_params() + 2 ** 20)  # the weights, Adam's two moments, the rest
    with atomic_output(path) as temporary:
        model.save(temporary)
        if sims:
            import h5py
            with h5py.File(temporary, 'a') as f:
                f.attrs[SIMS_KEY] = int(sims)


def recorded_sims(path):
    """The simulations per move a model file (.h5 or .onnx) records, or None."""
    try:
        if path.endswith('.onnx'):
            import onnx
            metadata = {p.key: p.value for p in onnx.load(path, load_external_data=False).metadata_props}
            value = metadata.get(SIMS_KEY)
        else:
            import h5py
            with h5py.File(path, 'r') as f:
                value = f.attrs.get(SIMS_KEY)
        return int(value) if value is not None else None
    except Exception:  # a missing or damaged file is reported by whoever loads the model
        return None


def playing_sims(sims, path):
    """(simulations, why): the --sims given, else what the model records, else the book's
    PV_EVALUATE_COUNT (SearchSettings.sims): the one place that settles a player's simulations."""
    if sims is not None:
        return sims, 'as asked'
    recorded = recorded_sims(path)
    if recorded:
        return recorded, f'as recorded in {os.path.basename(path)}'
    return SearchSettings.sims, 'the default; the model records none'
