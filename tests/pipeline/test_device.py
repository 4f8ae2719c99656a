"""Where the networks run: --device gpu refuses what would quietly run on the CPU, and Keras on
another backend than TensorFlow (KERAS_BACKEND=jax, the GPU's training in docs/scaling.md) trains
and exports with no TensorFlow installed, while what needs TensorFlow says so in one line."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from alphazero.network import runtimes
from alphazero.network.onnx_export import onnx_is_current
from alphazero.errors import UserError
from alphazero.network.model_file import load_model
from alphazero.game.registry import load_game, sample_positions
from alphazero.game.paths import model_path, pretrained_path

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_on_backend(backend, *argv, cwd):
    environment = dict(os.environ, KERAS_BACKEND=backend, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)


# Hides a package as if it were not installed
def without(package):
    return f"""
import sys
class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] == {package!r}:
            raise ModuleNotFoundError(f'No module named {{name!r}}')
sys.meta_path.insert(0, NotInstalled())
"""


WITHOUT_TENSORFLOW = without('tensorflow')


def test_a_gpu_session_that_fell_back_to_the_cpu_is_refused(monkeypatch):
    # onnxruntime without CUDA (or with CUDA's libraries missing) quietly runs a CUDA session on the CPU
    monkeypatch.setattr(runtimes, 'device', 'gpu')
    with pytest.raises(UserError, match='--device gpu: onnxruntime could not start CUDAExecutionProvider'):
        runtimes.OnnxNetwork(pretrained_path(load_game('othello8'), 'best.onnx'))


@pytest.mark.slow
@pytest.mark.parametrize('backend, installed, outcome', [('tensorflow', True, 'loaded'), ('jax', True, 'loaded'),
                                                         ('jax', False, 'not loaded'), ('tensorflow', False, 'error')])
def test_keras_needs_tensorflow_only_on_the_tensorflow_backend(tmp_path, backend, installed, outcome):
    code = ('import sys\n' + ('' if installed else WITHOUT_TENSORFLOW) +
            'from alphazero.network.keras_setup import quiet_keras\n'
            'try:\n    quiet_keras()\nexcept ModuleNotFoundError:\n    print("error")\n'
            'else:\n    print("loaded" if "tensorflow" in sys.modules else "not loaded")\n')
    result = run_on_backend(backend, '-c', code, cwd=tmp_path)
    assert result.stdout.strip() == outcome, result.stderr[-2000:]
    assert 'oneDNN' not in result.stderr and 'absl::InitializeLog' not in result.stderr  # quietly


def test_the_search_on_keras_says_it_needs_tensorflow_on_another_backend(tmp_path):
    model = tmp_path / 'runs' / 'othello8' / 'model'
    model.mkdir(parents=True)
    shutil.copy(pretrained_path(load_game('othello8'), 'best.h5'), model / 'best.h5')
    result = run_on_backend('jax', os.path.join(REPO, 'self_play.py'), '--game', 'othello8', '--games', '1',
                            '--backend', 'keras', cwd=tmp_path)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr[-2000:]
    assert 'needs Keras on TensorFlow: run it without KERAS_BACKEND=jax' in lines[0]
    assert os.listdir(tmp_path) == ['runs'] and sorted(os.listdir(model)) == ['.run.lock', 'best.h5']  # and its lock


# Each network's head, and the margin head, on three boards
MODELS_ON_JAX = [('tictactoe', ['--filters', '8', '--blocks', '1']),
                 ('othello8', ['--network', 'resnet', '--filters', '8', '--blocks', '1', '--margin-head']),
                 ('shogi', ['--network', 'transformer', '--width', '16', '--layers', '1', '--heads', '2'])]


def run_scripts_without(package, backend, runs, cwd):
    """Several scripts (each [script, *argv]) run one after another in one process with `package`
    hidden, as if each were run from the command line (JAX starts once, not once per script)."""
    code = without(package) + 'import runpy\n'
    for script, *argv in runs:
        path = os.path.join(REPO, script)
        code += f'sys.argv = {[path, *argv]!r}\nrunpy.run_path({path!r}, run_name="__main__")\n'
    return run_on_backend(backend, '-c', code, cwd=cwd)


@pytest.mark.slow
def test_keras_on_jax_exports_without_tensorflow_what_tensorflow_computes(tmp_path):
    # The models made and exported on JAX (jax2onnx), with TensorFlow hidden
    runs = [run for game, network in MODELS_ON_JAX
            for run in (['dual_network.py', '--game', game, *network], ['export.py', '--game', game])]
    result = run_scripts_without('tensorflow', 'jax', runs, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count('created') == result.stdout.count('wrote') == len(MODELS_ON_JAX)
    assert 'tensorflow' not in result.stderr.lower()

    # Each ONNX file gives what Keras on TensorFlow computes from the same .h5 file
    for game, network in MODELS_ON_JAX:
        rules = load_game(game)
        h5_path = str(tmp_path / model_path(rules, 'best.h5'))
        planes = np.stack([state.planes() for state in sample_positions(rules, 16, seed=5)])
        expected = runtimes.KerasNetwork(load_model(h5_path, rules), traced=False).outputs(planes)
        exported = runtimes.OnnxNetwork(os.path.splitext(h5_path)[0] + '.onnx')
        assert onnx_is_current(exported.path, h5_path)
        assert exported.has_margin == ('--margin-head' in network)
        for actual, wanted in zip(exported.outputs(planes), expected):
            if wanted is not None:
                np.testing.assert_allclose(actual, wanted, atol=1e-4)


@pytest.mark.slow
def test_train_cycle_runs_on_keras_with_jax_without_tensorflow(tmp_path):
    # The book's gated cycle: the latest model's evaluation runs on its conversion in memory
    result = run_scripts_without('tensorflow', 'jax', [['train_cycle.py', '--cycles', '2', '--games', '2', '--sims', '2',
                                                        '--epochs', '1', '--filters', '4', '--blocks', '1',
                                                        '--best-games', '2']], cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    metrics = (tmp_path / 'model' / 'metrics.jsonl').read_text().splitlines()
    assert len(metrics) == 2 and all('"gate_score": 0.5' in line for line in metrics)
    assert onnx_is_current(str(tmp_path / 'model' / 'best.onnx'), str(tmp_path / 'model' / 'best.h5'))
    assert os.listdir(tmp_path / 'data') and 'best model: model/best.h5' in result.stdout


def test_keras_on_jax_without_jax_says_how_to_install_it(tmp_path):
    shutil.copy(pretrained_path(load_game('othello8'), 'best.h5'), tmp_path / 'best.h5')
    result = run_scripts_without('jax', 'jax', [['export.py', 'best.h5', '--game', 'othello8']], cwd=tmp_path)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr[-2000:]
    assert lines[0] == ('error: KERAS_BACKEND=jax: JAX is not installed; install it with WITH_JAX=1 bash setup.sh '
                        '(docs/scaling.md), or run without KERAS_BACKEND')
    assert os.listdir(tmp_path) == ['best.h5']


def test_on_the_gpu_batches_are_padded_to_a_power_of_two(monkeypatch):
    # CUDA prepares every new batch shape once, slowly; the search asks for every count up to --parallel
    network = runtimes.OnnxNetwork(pretrained_path(load_game('othello8'), 'best.onnx'))
    planes = np.stack([state.planes() for state in sample_positions(load_game('othello8'), 37)])
    expected = network.outputs(planes)
    shapes, run = [], network.session.run
    monkeypatch.setattr(network.session, 'run', lambda names, feed: shapes.append(feed['input'].shape) or run(names, feed))
    monkeypatch.setattr(network, 'run_on', 'gpu')
    for count in (1, 5, 37):
        policies, values, _ = network.outputs(planes[:count])
        np.testing.assert_allclose(policies, expected[0][:count], atol=1e-6)
        np.testing.assert_allclose(values, expected[1][:count], atol=1e-6)
    assert [shape[0] for shape in shapes] == [1, 8, 64]
