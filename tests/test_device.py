"""Where the networks run: --device gpu refuses what would quietly run on the CPU, and Keras on
another backend than TensorFlow (KERAS_BACKEND=jax, the GPU's training in docs/scaling.md) needs no
TensorFlow installed, while what needs TensorFlow says so in one line."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from alphazero import inference
from alphazero.cli import UserError
from alphazero.games import load_game, pretrained_path, sample_positions

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_on_backend(backend, *argv, cwd):
    environment = dict(os.environ, KERAS_BACKEND=backend, PYTHONPATH=REPO)
    return subprocess.run([sys.executable, *argv], cwd=cwd, env=environment, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def test_a_gpu_session_that_fell_back_to_the_cpu_is_refused(monkeypatch):
    # onnxruntime without CUDA (or with CUDA's libraries missing) quietly runs a CUDA session on the CPU
    monkeypatch.setattr(inference, 'device', 'gpu')
    with pytest.raises(UserError, match='--device gpu: onnxruntime could not start CUDAExecutionProvider'):
        inference.OnnxNetwork(pretrained_path(load_game('othello8'), 'best.onnx'))


# Hides TensorFlow as if it were not installed
WITHOUT_TENSORFLOW = """
import sys
class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] == 'tensorflow':
            raise ModuleNotFoundError(f'No module named {name!r}')
sys.meta_path.insert(0, NotInstalled())
"""


@pytest.mark.parametrize('backend, installed, outcome', [('tensorflow', True, 'loaded'), ('jax', True, 'loaded'),
                                                         ('jax', False, 'not loaded'), ('tensorflow', False, 'error')])
def test_keras_needs_tensorflow_only_on_the_tensorflow_backend(tmp_path, backend, installed, outcome):
    code = ('import sys\n' + ('' if installed else WITHOUT_TENSORFLOW) +
            'from alphazero.cli import quiet_keras\n'
            'try:\n    quiet_keras()\nexcept ModuleNotFoundError:\n    print("error")\n'
            'else:\n    print("loaded" if "tensorflow" in sys.modules else "not loaded")\n')
    result = run_on_backend(backend, '-c', code, cwd=tmp_path)
    assert result.stdout.strip() == outcome, result.stderr[-2000:]
    assert 'oneDNN' not in result.stderr and 'absl::InitializeLog' not in result.stderr  # quietly


@pytest.mark.parametrize('argv', [['export.py', 'best.h5', '--game', 'othello8'],
                                  ['self_play.py', '--game', 'othello8', '--games', '1', '--backend', 'keras']])
def test_what_needs_tensorflow_says_so_on_another_backend(tmp_path, argv):
    model = tmp_path / 'runs' / 'othello8' / 'model'
    model.mkdir(parents=True)
    shutil.copy(pretrained_path(load_game('othello8'), 'best.h5'), model / 'best.h5')
    shutil.copy(model / 'best.h5', tmp_path / 'best.h5')
    result = run_on_backend('jax', os.path.join(REPO, argv[0]), *argv[1:], cwd=tmp_path)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1, result.stderr[-2000:]
    assert 'needs Keras on TensorFlow: run it without KERAS_BACKEND=jax' in lines[0]
    assert sorted(os.listdir(tmp_path)) == ['best.h5', 'runs'] and os.listdir(model) == ['best.h5']


def test_on_the_gpu_batches_are_padded_to_a_power_of_two(monkeypatch):
    # CUDA prepares every new batch shape once, slowly; the search asks for every count up to --parallel
    network = inference.OnnxNetwork(pretrained_path(load_game('othello8'), 'best.onnx'))
    planes = np.stack([state.planes() for state in sample_positions(load_game('othello8'), 37)])
    expected = network.outputs(planes)
    shapes, run = [], network.session.run
    monkeypatch.setattr(network.session, 'run', lambda names, feed: shapes.append(feed['input'].shape) or run(names, feed))
    monkeypatch.setattr(inference, 'device', 'gpu')
    for count in (1, 5, 37):
        policies, values, _ = network.outputs(planes[:count])
        np.testing.assert_allclose(policies, expected[0][:count], atol=1e-6)
        np.testing.assert_allclose(values, expected[1][:count], atol=1e-6)
    assert [shape[0] for shape in shapes] == [1, 8, 64]
