"""Self-play's history files: where they go, how they are written and read (the book's pickles too)."""
import datetime
import glob
import os
import pickle

import numpy as np

from alphazero.errors import UserError
from alphazero.files import atomic_output
from alphazero.network.model_file import SIMS_KEY


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
