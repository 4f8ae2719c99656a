"""A training run killed at any moment and run again leaves exactly what an uninterrupted run leaves.

Every file a run writes goes into place by one os.replace, so the moments that matter are just
before and just after each rename. The runs here are real train_cycle.py processes, each killed
with SIGKILL at the first rename whose destination matches its kill point; the same command then
goes on from there, and the next kill point is met further along.
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO, tiny_model
from forked import run_python

# A real run, made to kill itself with SIGKILL just before or after the first rename to a path
# that matches the pattern (KILL_WHEN and KILL_AT in the environment)
KILLER = f'''
import os, re, runpy, signal, sys
when, pattern, real = os.environ['KILL_WHEN'], re.compile(os.environ['KILL_AT']), os.replace
def replace(source, destination):
    hit = pattern.search(str(destination))
    if hit and when == 'before':
        os.kill(os.getpid(), signal.SIGKILL)
    real(source, destination)
    if hit and when == 'after':
        os.kill(os.getpid(), signal.SIGKILL)
os.replace = replace
sys.path.insert(0, {REPO!r})
sys.argv = ['train_cycle.py'] + sys.argv[1:]
runpy.run_path({os.path.join(REPO, 'train_cycle.py')!r}, run_name='__main__')
'''
FLAGS = ['--cycles', '2', '--games', '4', '--sims', '4', '--epochs', '1', '--parallel', '4', '--eval-games', '2',
         '--best-games', '2', '--no-gate', '--keep-every', '1', '--seed', '7']
STAMP = r'\d{14}(-\d+)?\.npz$'   # a history file's name

# Along the run: (before or after, the rename's destination); cycle.json records a stage after
# the stage's file is in place, so "after" a file is the moment between the two
KILL_POINTS = [
    ('after', r'best\.onnx$'),                      # the first export
    ('after', r'\.cycle0001\.pending\.npz$'),       # self-play's file written, cycle.json not yet told
    ('before', STAMP),                              # cycle.json told, the file not yet named
    ('after', r'latest\.h5$'),                      # trained, not recorded
    ('after', r'best\.h5$'),                        # promoted, not exported
    ('after', r'best-cycle0001\.h5$'),              # kept, metrics not written
    ('after', r'metrics\.jsonl$'),                  # cycle 1 recorded, charts not drawn
    ('before', r'chart_gate\.png$'),
    ('after', r'metrics\.jsonl$'),                  # the last cycle recorded, charts not drawn
    ('after', r'chart_strength\.png$'),             # charts drawn, cycle.json not removed
]


def start(folder):
    os.makedirs(folder / 'model')
    shutil.copy(folder.parent / 'best.h5', folder / 'model' / 'best.h5')


def run(folder, when=None, at=None):
    killer = folder.parent / 'killer.py'
    killer.write_text(KILLER)
    environment = dict(os.environ, KILL_WHEN=when or 'never', KILL_AT=at or '$^')
    return run_python([str(killer), *FLAGS], folder, environment)


def files(folder):
    """Every file under the folder, relative, with history files' time stamps replaced."""
    names = [os.path.relpath(p, folder) for p in glob.glob(str(folder / '**'), recursive=True) if os.path.isfile(p)]
    return sorted(re.sub(STAMP, 'STAMP.npz', name) for name in names)


@pytest.mark.slow
def test_a_run_killed_at_every_kind_of_moment_ends_as_an_uninterrupted_one(tmp_path):
    from alphazero.network.model_file import save_model
    save_model(tiny_model(), str(tmp_path / 'best.h5'))
    whole, killed = tmp_path / 'whole', tmp_path / 'killed'
    start(whole)
    start(killed)
    result = run(whole)
    assert result.returncode == 0, result.stderr[-3000:]

    for when, at in KILL_POINTS:
        result = run(killed, when, at)
        assert result.returncode == -signal.SIGKILL, f'{when} {at} was never reached: {result.stderr[-2000:]}'
        assert 'Traceback' not in result.stderr
    result = run(killed)
    assert result.returncode == 0, result.stderr[-3000:]

    # The same files, no temporary or progress file, one history file per cycle, each different
    assert files(killed) == files(whole)
    assert files(whole).count('data/STAMP.npz') == 2 and not any('/.' in f or 'cycle.json' in f for f in files(whole))
    histories = [np.load(p)['position'] for p in sorted(glob.glob(str(killed / 'data' / '*.npz')))]
    assert not np.array_equal(histories[0], histories[1])
    records = [json.loads(line) for line in open(killed / 'model' / 'metrics.jsonl')]
    assert [r['cycle'] for r in records] == [1, 2]

    # The first cycle's games are the same games (same model, same seed): nothing was played twice
    first = sorted(glob.glob(str(whole / 'data' / '*.npz')))[0]
    assert np.array_equal(np.load(first)['position'], histories[0])


def test_only_the_temporary_files_of_processes_that_are_gone_are_removed(workdir, capsys):
    from alphazero.data.run_folder import remove_stale_temporaries
    import game
    gone = subprocess.run([sys.executable, '-c', 'import os; print(os.getpid())'], capture_output=True, text=True)
    os.makedirs('model/kept')
    os.makedirs('data')
    names = [f'model/.best.tmp{gone.stdout.strip()}.h5', f'model/kept/.best-cycle0001.tmp{gone.stdout.strip()}.h5',
             f'data/.20260101000000.tmp{gone.stdout.strip()}.npz', f'model/.best.tmp{os.getpid()}.onnx',
             'model/.hidden.h5', 'data/.cycle0001.pending.npz']
    for name in names:
        open(name, 'w').close()
    remove_stale_temporaries(game)
    assert [os.path.exists(name) for name in names] == [False, False, False, True, True, True]
    assert capsys.readouterr().err.count('left by an interrupted run') == 3
