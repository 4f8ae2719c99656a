"""One run per folder: a run holds its folder with an OS lock that dies with its process; a second
run that writes there stops at once with one line naming the first, and the players are not held."""
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import REPO, run_script, tiny_model
from alphazero.network.model_file import save_model


def wait_for(condition, seconds=120):
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, 'timed out'
        time.sleep(0.2)


@pytest.mark.slow
def test_a_second_run_in_the_same_folder_stops_at_once_and_the_first_goes_on(workdir):
    lock = workdir / 'model' / '.run.lock'
    first = subprocess.Popen([sys.executable, os.path.join(REPO, 'train_cycle.py'), '--cycles', '50', '--games', '4',
                              '--sims', '4', '--epochs', '1', '--filters', '8', '--blocks', '1', '--eval-games', '2',
                              '--best-games', '1'], cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, text=True)
    try:
        wait_for(lambda: lock.exists() and f'process {first.pid}' in lock.read_text())
        for script in ('train_cycle.py', 'self_play.py', 'train_network.py', 'dual_network.py'):
            started = time.monotonic()
            second = run_script(script, cwd=workdir, timeout=120)
            assert second.returncode == 2 and time.monotonic() - started < 30, second.stderr[-1000:]
            assert second.stderr.count('\n') == 1 and f'process {first.pid} (train_cycle.py' in second.stderr
            assert 'one run at a time' in second.stderr and 'Traceback' not in second.stderr
        # A player only reads: it plays while the run trains
        wait_for(lambda: (workdir / 'model' / 'best.h5').exists())
        player = run_script('evaluate_best_player.py', '--games', '2', '--sims', '2', '--opponent', 'random',
                            cwd=workdir, timeout=300)
        assert player.returncode == 0, player.stderr[-1000:]
        assert first.poll() is None  # the first run was not disturbed
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    # Killed, its lock is gone with it: the same command goes on
    again = run_script('train_cycle.py', '--cycles', '1', '--games', '4', '--sims', '4', '--epochs', '1',
                       '--eval-games', '2', '--best-games', '1', cwd=workdir, timeout=600)
    assert again.returncode == 0 and 'in use by' not in again.stderr, again.stderr[-2000:]


def test_the_same_process_may_hold_its_folder_twice(tiny_best):
    # The stages of one train_cycle.py run each take the folder they already hold, and hold it still
    from alphazero.data.run_folder import HELD, LOCK_NAME, hold_run_folder
    from alphazero.game.registry import load_game
    game = load_game('tictactoe')
    hold_run_folder(game)
    hold_run_folder(game)
    lock = os.path.abspath(os.path.join('model', LOCK_NAME))
    assert lock in HELD and open(lock).read().startswith(f'process {os.getpid()} ')
    try:
        other = subprocess.run([sys.executable, '-c', 'import game; from alphazero.data.run_folder import '
                                'hold_run_folder; hold_run_folder(game)'], capture_output=True, text=True,
                               env={**os.environ, 'PYTHONPATH': REPO}, timeout=60)
        assert other.returncode != 0 and f'is in use by process {os.getpid()} ' in other.stderr
        save_model(tiny_model(), 'model/best.h5')
    finally:
        HELD.pop(lock).close()  # the lock of this test's folder dies with the test
