"""Engines obey their GUI during a search of any size: USI's stop answers with bestmove and isready
with readyok at once (and a long search sends info lines as it goes), during a mate search too, and
quit ends the process at once, for USI and GTP alike (a search asked for more than memory holds is
capped, with an info string that says so)."""
import importlib.util
import os
import queue
import subprocess
import sys
import threading
import time

import pytest

from conftest import REPO

HUGE = 10 ** 12   # nodes no machine holds
LONG_MATE_SEARCH = '4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1'  # df-pn needs some 300,000 positions (seconds)


class Engine:
    """An engine as a subprocess (its shipped model), its answers read on a thread of their own."""

    def __init__(self, cwd, *command):
        self.process = subprocess.Popen([sys.executable, os.path.join(REPO, command[0]), *command[1:]], cwd=cwd,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)
        self.lines = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line.rstrip('\n')) for line in self.process.stdout],
                         daemon=True).start()

    def send(self, line):
        self.process.stdin.write(line + '\n')
        self.process.stdin.flush()

    def answer(self, prefix, seconds, before=None):
        """The first line that starts with `prefix` within `seconds`, and how long it took; the lines
        before it go into the list `before`."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            try:
                line = self.lines.get(timeout=0.05)
            except queue.Empty:
                continue
            if line.startswith(prefix):
                return line, time.monotonic() - start
            if before is not None:
                before.append(line)
        pytest.fail(f'no answer starting {prefix!r} within {seconds} s')

    def quit_within(self, seconds, line='quit'):
        start = time.monotonic()
        self.send(line)
        self.process.wait(timeout=seconds + 10)
        return time.monotonic() - start


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec('cshogi') is None and not os.environ.get('CI'), reason='cshogi missing')
def test_usi_stop_isready_and_quit_are_heard_during_a_search_of_any_size(workdir):
    engine = Engine(workdir, 'usi_engine.py')
    engine.send('usi')
    engine.answer('usiok', 120)
    engine.send('position startpos')
    engine.send(f'go nodes {HUGE}')
    time.sleep(3.5)
    engine.send('isready')
    streamed = []
    assert engine.answer('readyok', 5, streamed)[1] < 1
    # a long search says where it stands at least once a second: its principal line so far
    nodes = [int(line.split(' nodes ')[1].split()[0]) for line in streamed if line.startswith('info depth')]
    assert len(nodes) >= 2 and nodes == sorted(nodes) and all(' score cp ' in line and ' pv ' in line
                                                                for line in streamed if line.startswith('info depth')), streamed
    engine.send('stop')
    said = []
    best, seconds = engine.answer('bestmove', 5, said)
    assert seconds < 1 and len(best.split()) in (2, 4)  # bestmove M [ponder R]
    assert any(f'nodes {HUGE} capped at' in line and 'memory' in line for line in said), said
    engine.send('go infinite')  # held until stop
    time.sleep(1)
    engine.send('stop')
    assert engine.answer('bestmove', 5)[1] < 1
    # df-pn holds the GIL, so go mate runs it in a process of its own: isready and stop are heard within 0.2 s
    engine.send(f'position sfen {LONG_MATE_SEARCH}')
    engine.send('go mate infinite')
    time.sleep(0.5)
    engine.send('isready')
    assert engine.answer('readyok', 5)[1] < 0.2
    engine.send('stop')
    answer, seconds = engine.answer('checkmate', 5)
    assert answer == 'checkmate timeout' and seconds < 0.2
    engine.send('go mate infinite')
    time.sleep(0.5)
    assert engine.quit_within(1) < 0.2 + 0.5 and engine.process.returncode == 0


@pytest.mark.slow
def test_gtp_quit_ends_a_genmove_search_at_once(workdir):
    engine = Engine(workdir, 'gtp_engine.py', '--game', 'othello8', '--sims', '1000000')
    engine.send('0 name')
    engine.answer('=0', 120)  # the model is loaded and the engine listens
    engine.send('1 genmove b')
    time.sleep(2)  # the search runs
    assert engine.quit_within(1, '2 quit') < 1 + 0.5 and engine.process.returncode == 0
    assert engine.answer('=2', 5)  # quit was answered, after the move the stopped search chose
