"""A run folder (runs/NAME/, or the book's ./model and ./data): one run at a time holds it, and what a
killed run left behind is removed when the next one takes it."""
import fcntl
import os
import re
import sys

from alphazero.errors import UserError
from alphazero.game.paths import data_dir, model_dir, run_dir

LOCK_NAME = '.run.lock'  # in the model folder: the OS lock on it dies with the process that holds it
# atomic_output's temporary files: .NAME.tmpPID.EXT
TEMPORARY_NAME = re.compile(r'^\..+\.tmp(\d+)(\.[^.]*)?$')

HELD = {}  # lock path: its open file, kept open (and so locked) until this process ends


def hold_run_folder(game):
    """Take the game's run folder for this process, then remove what killed runs left in it. A second
    run that writes there (train_cycle.py in another terminal, a forgotten background job) stops at
    once with one line naming the process that holds it; the players, which only read, never ask."""
    folder = model_dir(game)
    os.makedirs(folder, exist_ok=True)
    path = os.path.abspath(os.path.join(folder, LOCK_NAME))
    if path in HELD:
        return
    lock = open(path, 'a+', encoding='utf-8')
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or 'another process'
        lock.close()
        raise UserError(f'{run_dir(game) or "this folder (./model, ./data)"} is in use by {holder}: one run at a time works in a run '
                        'folder; wait for it to end (or stop it), then run this command again') from None
    lock.seek(0)
    lock.truncate()
    lock.write(f'process {os.getpid()} ({" ".join(os.path.basename(arg) if i == 0 else arg for i, arg in enumerate(sys.argv))})')
    lock.flush()
    HELD[path] = lock
    remove_stale_temporaries(game)


def remove_stale_temporaries(game):
    """Remove the temporary files that killed processes left in the game's model and data folders
    (those of running processes stay), and say so."""
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
