"""Model and history files: written atomically, read with checks that explain what is wrong."""
import contextlib
import datetime
import glob
import json
import os
import pickle
import re
import sys

import numpy as np

from alphazero.cli import UserError, quiet_keras


@contextlib.contextmanager
def atomic_output(path):
    """Yield a temporary path beside `path`; after the block, move it into place in one rename.

    An interrupted write leaves at worst a stray temporary file, never a half-written `path`.
    The temporary name keeps the extension because Keras picks the file format from it.
    """
    directory, name = os.path.split(path)
    stem, extension = os.path.splitext(name)
    if directory:
        os.makedirs(directory, exist_ok=True)
    temporary = os.path.join(directory, f'.{stem}.tmp{os.getpid()}{extension}')
    try:
        yield temporary
        with open(temporary, 'rb') as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def check_output(path, *inputs):
    """Refuse, before anything is written, an output path that is one of the inputs, a folder, or in
    a folder that cannot be written."""
    for given in inputs:
        if os.path.realpath(path) == os.path.realpath(given):
            raise UserError(f'{path} is an input of this command; writing it would destroy it: give another output path.')
    if os.path.isdir(path):
        raise UserError(f'{path} is a folder: give a file name for the output.')
    directory = os.path.dirname(path) or '.'
    existing = directory
    while not os.path.exists(existing):  # the folders still to be made go into the nearest existing one
        existing = os.path.dirname(existing) or '.'
    if not os.path.isdir(existing) or not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f'cannot write {path}: {existing} is not a folder this user can write to.')


def write_json(path, content, indent=None):
    """Write `content` as JSON (UTF-8, ending in a newline) through atomic_output."""
    with atomic_output(path) as temporary:
        with open(temporary, 'w', encoding='utf-8') as f:
            json.dump(content, f, indent=indent, ensure_ascii=False)
            f.write('\n')


# atomic_output's temporary files: .NAME.tmpPID.EXT
TEMPORARY_NAME = re.compile(r'^\..+\.tmp(\d+)(\.[^.]*)?$')


def held_results(path, settings, entries, kind):
    """What a benchmark's results file holds (None when there is no file at `path`), refused in one
    line when it is not such a file, or when it was measured with other `settings` (a dict of its
    keys), so that the figures of different settings never mix. `entries`: the key of its results,
    which must be a `kind` (list or dict)."""
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            content = json.load(f)
        held = {key: content[key] for key in settings}
        if not isinstance(content[entries], kind):
            raise TypeError(f'its "{entries}" is not a {kind.__name__}')
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UserError(f'{path} is not a results file of this benchmark ({error}): give another --out') from None
    different = next((key for key in settings if held[key] != settings[key]), None)
    if different is not None:
        raise UserError(f'{path} holds results with {different} {held[different]!r}, not {settings[different]!r}: '
                        'give another --out to measure other settings')
    return content


def remove_stale_temporaries(game):
    """Remove the temporary files that killed processes left in the game's model and data folders
    (those of running processes stay), and say so."""
    from alphazero.games import data_dir, model_dir
    for top in (model_dir(game), data_dir(game)):
        for directory, _, names in os.walk(top):
            for name in sorted(names):
                match = TEMPORARY_NAME.match(name)
                if match and not process_is_running(int(match.group(1))):
                    os.remove(os.path.join(directory, name))
                    print(f'removed {os.path.join(directory, name)}, left by an interrupted run', file=sys.stderr)


def process_is_running(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def model_advice(game, path, exists=True):
    """What to do about a missing or unusable model file: the run's own files are made again by a
    stage (once the bad one is moved away); any other file (given with --model) is the user's to replace."""
    from alphazero.games import game_flag, model_dir
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
    from alphazero.games import GAMES, load_game
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


def playing_sims(sims, path, default):
    """(simulations, why): the --sims given, else what the model records, else `default`."""
    if sims is not None:
        return sims, 'as asked'
    recorded = recorded_sims(path)
    if recorded:
        return recorded, f'as recorded in {os.path.basename(path)}'
    return default, 'the default; the model records none'


def copy_file(source, destination):
    """Copy a file atomically (the book's update_best_player copies latest.h5 over best.h5)."""
    with open(source, 'rb') as f:
        content = f.read()
    with atomic_output(destination) as temporary:
        with open(temporary, 'wb') as f:
            f.write(content)


# ----- self-play history -----
# The book pickles a list of [position, policies, value] records to data/YYYYMMDDHHMMSS.history.
# We keep the three fields as arrays in data/YYYYMMDDHHMMSS.npz, read with allow_pickle=False, so
# loading data can never run code.

def history_path(data_directory):
    """A new file name from the current time; a suffix keeps two files of the same second apart."""
    stamp = datetime.datetime.now().strftime('%Y%m%d%H%M%S')
    path = os.path.join(data_directory, f'{stamp}.npz')
    suffix = 1
    while os.path.exists(path):
        path = os.path.join(data_directory, f'{stamp}-{suffix}.npz')
        suffix += 1
    return path


def write_history(path, position, policy, value, sims=None, margin=None):
    """A history file; `margin`: the scaled final margins, for games that have one (a margin head's target)."""
    extra = {SIMS_KEY: np.int32(sims)} if sims else {}
    if margin is not None:
        extra['margin'] = margin.astype(np.float32)
    with atomic_output(path) as temporary:
        np.savez_compressed(temporary, position=position.astype(np.float32),
                            policy=policy.astype(np.float32), value=value.astype(np.float32), **extra)


def history_sims(path):
    """The simulations per move of the self-play that wrote a history file, or None."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return int(data[SIMS_KEY]) if SIMS_KEY in data.files else None
    except Exception:
        return None


def read_history(path, game):
    """The (position, policy, value) arrays of a history file, checked against the game."""
    try:
        with np.load(path, allow_pickle=False) as data:
            position, policy, value = data['position'], data['policy'], data['value']
    except Exception as error:
        raise UserError(f'{path} is not a readable history file ({type(error).__name__}: {error}). '
                        f'Delete it or move it away, then run `python self_play.py` to make new data.') from None
    arrays = {'positions': position, 'policies': policy, 'values': value}
    not_numbers = [name for name, array in arrays.items() if array.dtype.kind not in 'biuf']
    if not_numbers:
        raise UserError(f'{path} holds {" and ".join(not_numbers)} that are not numbers '
                        f'({", ".join(str(arrays[name].dtype) for name in not_numbers)}); it is not a history file. Move it away.')
    count = len(position) if position.ndim else 0
    if (position.shape[1:] != game.INPUT_SHAPE or policy.shape != (count, game.ACTION_COUNT)
            or value.shape != (count,) or count == 0):
        raise UserError(f'{path} holds positions {position.shape}, policies {policy.shape} and values '
                        f'{value.shape}; {game.NAME} needs (N, {", ".join(map(str, game.INPUT_SHAPE))}), '
                        f'(N, {game.ACTION_COUNT}) and (N,) with N > 0. Move it away.')
    if not (np.isfinite(position).all() and np.isfinite(policy).all() and np.isfinite(value).all()):
        raise UserError(f'{path} contains values that are not finite numbers; it is corrupt. Move it away.')
    return position, policy, value


def read_book_history(path, game):
    """Read the book's pickle format. Unpickling runs code: only for files the user trusts."""
    try:
        with open(path, 'rb') as f:
            records = pickle.load(f)
        position = np.stack([game.State(*record[0]).planes() for record in records])
        policy = np.array([record[1] for record in records], dtype=np.float32)
        value = np.array([record[2] for record in records], dtype=np.float32)
    except Exception as error:
        raise UserError(f'{path} is not a readable book-format history file ({type(error).__name__}: {error}).') from None
    return position, policy, value


def history_files(data_directory, trust_pickle=False):
    """History files, oldest first: .npz, and also the book's pickled .history when trust_pickle is set."""
    patterns = ['*.npz'] + (['*.history'] if trust_pickle else [])
    paths = [p for pattern in patterns for p in glob.glob(os.path.join(data_directory, pattern))
             if not os.path.basename(p).startswith('.')]
    if not paths:
        pickles = glob.glob(os.path.join(data_directory, '*.history'))
        if pickles:
            raise UserError(f'{data_directory} holds only book-format pickle files ({os.path.basename(pickles[0])}, ...). '
                            'Unpickling can run code: if you made them yourself, rerun with --trust-pickle.')
        raise UserError(f'no history file in {data_directory}/: run `python self_play.py` first.')
    return sorted(paths, key=lambda p: (os.path.basename(p).split('.')[0], p))


def read_margins(path):
    """The margin targets of a history file (N,), or None when it has none (the book's files, games
    without a margin, files of older versions); read after read_history checked the file."""
    if path.endswith('.history'):
        return None
    with np.load(path, allow_pickle=False) as data:
        if 'margin' not in data.files:
            return None
        margin, count = data['margin'], len(data['value'])
    if margin.dtype.kind != 'f' or margin.shape != (count,) or not np.isfinite(margin).all():
        raise UserError(f'{path} holds margins {margin.shape} {margin.dtype} that do not match its {count} positions; '
                        'it is corrupt. Move it away.')
    return margin


def load_history(path, game, margins=False):
    """(position, policy, value) of a history file, and with `margins` its margin targets (or None)."""
    arrays = read_book_history(path, game) if path.endswith('.history') else read_history(path, game)
    return (*arrays, read_margins(path)) if margins else arrays


# ----- measurements kept as they are played -----
# A long measurement (a ladder of levels, a match against a slow engine) keeps what it has played in
# a file as it goes, beside the settings it was made with and its openings, so that the same command
# run again after a stop goes on from there instead of playing everything again.

def read_kept(path, settings, field, parse):
    """(openings, parse(items)) that a stopped measurement kept in `path` under `field`, when it was
    made with the same `settings`; else (None, parse([])). The caller says how far it had got."""
    if not path or not os.path.exists(path):
        return None, parse([])
    try:
        with open(path, encoding='utf-8') as f:
            content = json.load(f)
        if content['settings'] != settings:
            print(f'{path} was kept for other settings ({", ".join(settings)}): starting afresh')
            return None, parse([])
        played = parse(content[field])
        openings = [[int(move) for move in opening] for opening in content['openings']]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise UserError(f'{path} is not a readable measurement ({error}): remove it, then measure again') from None
    return openings, played


def write_kept(path, settings, openings, field, items):
    """Keep a measurement's settings, openings and what it has played (`items` under `field`)."""
    content = {'settings': settings, 'openings': [[int(move) for move in opening] for opening in openings],
               field: items}
    write_json(path, content)
