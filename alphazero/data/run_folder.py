"""A run folder after a kill: the temporary files a killed process left behind, removed."""
import os
import re
import sys

from alphazero.game.paths import data_dir, model_dir

# atomic_output's temporary files: .NAME.tmpPID.EXT
TEMPORARY_NAME = re.compile(r'^\..+\.tmp(\d+)(\.[^.]*)?$')


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
