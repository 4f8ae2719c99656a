"""Shared fixtures and helpers: tests run in a temporary folder (the scripts write ./model and ./data
there) with tiny real networks (1 residual block, 8 filters)."""
import hashlib
import os
import random
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')
# The test workers share the cores: each worker's TensorFlow gets its share for its thread pools
# (read when TensorFlow starts), not a pool as large as the machine contending with the others'
_share = max(1, (os.cpu_count() or 1) // int(os.environ.get('PYTEST_XDIST_WORKER_COUNT', 1)))
for _pool in ('TF_NUM_INTRAOP_THREADS', 'TF_NUM_INTEROP_THREADS'):
    os.environ.setdefault(_pool, str(_share))
# Training without XLA: its compile (seconds a model) is most of a test's tiny training; the pinned
# numbers of the book's training keep it (the `with_xla` fixture), as users train
os.environ.setdefault('ALPHAZERO_XLA', '0')

import game  # noqa: E402
from forked import run_python  # noqa: E402


def need(available, what, how):
    """Skip when a tool is missing on a developer's machine; in CI it is an error (.ci/run installs it)."""
    if not available:
        if os.environ.get('CI'):
            pytest.fail(f'{what} is missing: .ci/run should have installed it')
        pytest.skip(f'{what} is missing ({how})')


def run_node(*args, timeout=300, input=None):
    """Run a script of web/test with Node.js and the npm packages (onnxruntime-web, tsshogi), with
    `input` typed."""
    node = shutil.which('node')
    need(node and os.path.isdir(os.path.join(REPO, 'node_modules', 'tsshogi')), 'node with the npm packages',
         'bash setup.sh installs the npm packages')
    return subprocess.run([node, *args], cwd=REPO, capture_output=True, text=True, timeout=timeout, input=input)


@pytest.fixture
def with_xla(monkeypatch):
    """Training compiled with XLA, as users train (alphazero/data/training.py's xla_wanted)."""
    monkeypatch.setenv('ALPHAZERO_XLA', '1')


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A fresh current directory: model/ and data/ are created inside it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def tiny_model(seed=0, filters=8, blocks=1, rules=game):
    import keras
    from dual_network import build_dual_network
    keras.utils.set_random_seed(seed)
    return build_dual_network(rules.INPUT_SHAPE, rules.ACTION_COUNT, filters, blocks)


def random_endgame(game, empties, rng):
    """A position of a random game with at most `empties` empty squares and a move to make, and the
    moves that led to it."""
    while True:
        state, moves = game.State(), []
        while not state.is_done() and state.cells().count(0) > empties:
            moves.append(int(rng.choice(state.legal_actions())))
            state = state.next(moves[-1])
        if not state.is_done():
            return state, moves


@pytest.fixture
def tiny_best(workdir):
    """model/best.h5 holding a tiny untrained network; returns the model."""
    from alphazero.network.model_file import save_model
    model = tiny_model()
    save_model(model, 'model/best.h5')
    return model


def stop_play_games(module, monkeypatch, stop_after, played):
    """Make `module` (the match runner) play its games with the real play_games, stopped by KeyboardInterrupt (as by
    Ctrl-C or a kill) once `stop_after` of a call's games have ended (None: never); the number of
    games of each call goes into `played`."""
    from alphazero.play.loop import play_games as real_play_games

    def play_games(state, pairings, *args, finished, **kwargs):
        played.append(len(pairings))
        ended = []

        def stopping(index, result):
            if len(ended) == stop_after:
                raise KeyboardInterrupt
            ended.append(index)
            finished(index, result)
        return real_play_games(state, pairings, *args, finished=stopping, **kwargs)
    monkeypatch.setattr(module, 'play_games', play_games)


def run_script(name, *args, cwd, timeout=600, env=None, input=None, fresh=False):
    """Run a stage script of the repository as a user would, as a process of its own, in `cwd`, with
    `input` typed (else no input), and `env`, when given, added to the environment; forked from a
    process that has imported TensorFlow already (tests/forked.py), or in a fresh interpreter with
    `fresh` (a test of what the script prints while it starts)."""
    return run_python([os.path.join(REPO, name), *args], cwd, {**os.environ, **(env or {})}, input, timeout, fresh)


def state_from(mine, theirs):
    """A tic-tac-toe position: the side to move holds `mine`, the other side `theirs`."""
    pieces, enemy = [0] * 9, [0] * 9
    for i in mine:
        pieces[i] = 1
    for i in theirs:
        enemy[i] = 1
    return game.State(pieces, enemy)


def write_tiny_model(directory, name):
    path = os.path.join(directory, f'{name}.h5')
    from alphazero.game.registry import load_game
    from alphazero.network.model_file import save_model
    save_model(tiny_model(rules=load_game(name)), path)
    return path


def tiny_exported_model(name, sims):
    """runs/NAME/model/best.h5, a tiny untrained network that records `sims`, and its ONNX export."""
    from alphazero.game.registry import load_game
    from alphazero.network.model_file import save_model
    from export import export
    game = load_game(name)
    save_model(tiny_model(0, rules=game), f'runs/{name}/model/best.h5', sims=sims)
    export(f'runs/{name}/model/best.h5', game=game)


def tree_digest(directory):
    """One hash of every file below `directory` (names and contents)."""
    digest = hashlib.sha256()
    for root, _, files in sorted(os.walk(directory)):
        for name in sorted(files):
            path = os.path.join(root, name)
            digest.update(path.encode())
            digest.update(open(path, 'rb').read())
    return digest.hexdigest()


def random_records(count, seed=0, choose=None, random_moves=60):
    """The moves (no passes) of `count` 8x8 Othello games: `random_moves` random ones, then `choose(state)`'s."""
    from alphazero.game.registry import load_game
    othello8 = load_game('othello8')
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        state, moves = othello8.State(), []
        while not state.is_done():
            action = rng.choice(state.legal_actions()) if len(moves) < random_moves else choose(state)
            if action != othello8.PASS:
                moves.append(action)
            state = state.next(action)
        games.append(moves)
    return games
