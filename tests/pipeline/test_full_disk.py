"""A full disk is one line that names the file, and leaves what a kill at that moment leaves: the
file before it intact, no temporary file, and the same command resumes once there is space."""
import errno
import json
import types

import numpy as np
import pytest

from alphazero.errors import UserError
from conftest import run_script, tiny_model

# Started by Python before the script (sitecustomize on PYTHONPATH): after FULL_AFTER checks of the
# free space, the disk reads as full, and every write of a file fails as a full disk makes it fail
FULL_DISK = '''
import builtins, errno, io, os, shutil
_checks, _usage, _open = [0], shutil.disk_usage, builtins.open
def _full():
    return _checks[0] > int(os.environ['FULL_AFTER'])
def disk_usage(path):
    _checks[0] += 1
    usage = _usage(path)
    return usage._replace(free=0) if _full() else usage
def refusing_open(file, mode='r', *args, **kwargs):
    if _full() and any(m in mode for m in 'wax') and isinstance(file, str) and '.tmp' in file:
        raise OSError(errno.ENOSPC, 'No space left on device', file)
    return _open(file, mode, *args, **kwargs)
shutil.disk_usage, builtins.open, io.open = disk_usage, refusing_open, refusing_open
'''


def full(*args):
    return OSError(errno.ENOSPC, 'No space left on device', *args)


def test_each_kind_of_write_is_one_line_and_leaves_the_file_before_it(workdir, monkeypatch):
    from alphazero.data.history import write_history
    from alphazero.files import write_json
    from alphazero.network.model_file import save_model
    (workdir / 'metrics.json').write_text('{"kept": 1}\n')

    def refuse(*args, **kwargs):
        raise full()
    monkeypatch.setattr(json, 'dump', refuse)
    with pytest.raises(UserError, match='no space left on the disk to write metrics.json: free some space'):
        write_json('metrics.json', {'new': 2})
    monkeypatch.setattr(np, 'savez_compressed', refuse)
    with pytest.raises(UserError, match='to write data/1.npz'):
        write_history('data/1.npz', np.zeros((1, 3, 3, 2)), np.zeros((1, 9)), np.zeros(1))
    monkeypatch.setattr('shutil.disk_usage', lambda path: types.SimpleNamespace(free=0))
    with pytest.raises(UserError, match='to write model/best.h5'):
        save_model(tiny_model(), 'model/best.h5')  # refused before HDF5 writes a byte
    assert json.loads((workdir / 'metrics.json').read_text()) == {'kept': 1}
    assert not (workdir / 'model' / 'best.h5').exists() and not (workdir / 'data' / '1.npz').exists()
    assert [p.name for p in workdir.rglob('*') if '.tmp' in p.name] == []


@pytest.mark.slow
def test_a_run_that_fills_the_disk_stops_in_one_line_and_resumes(workdir, tmp_path):
    (tmp_path / 'hooks').mkdir()
    (tmp_path / 'hooks' / 'sitecustomize.py').write_text(FULL_DISK)
    flags = ['--cycles', '2', '--games', '4', '--sims', '4', '--epochs', '1', '--filters', '8', '--blocks', '1',
             '--eval-games', '2', '--best-games', '1']
    # The disk fills after the first two models: the second cycle's training cannot save latest.h5
    stopped = run_script('train_cycle.py', *flags, cwd=workdir,
                         env={'PYTHONPATH': str(tmp_path / 'hooks'), 'FULL_AFTER': '2'})
    assert stopped.returncode == 2, stopped.stderr[-2000:]
    last = stopped.stderr.strip().splitlines()[-1]
    assert last.startswith('error: no space left on the disk to write ') and 'run the same command again' in last
    assert 'Traceback' not in stopped.stderr
    records = (workdir / 'model' / 'metrics.jsonl').read_text().splitlines()
    assert [json.loads(line)['cycle'] for line in records] == [1]
    # With space again, the same command goes on and finishes the second cycle once
    resumed = run_script('train_cycle.py', *flags, cwd=workdir)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    records = (workdir / 'model' / 'metrics.jsonl').read_text().splitlines()
    assert [json.loads(line)['cycle'] for line in records] == [1, 2]
    assert [p.name for p in workdir.rglob('*') if '.tmp' in p.name] == []
