"""What a GPU buys, side by side in one run.

    (a) network evaluations/s of a model on onnxruntime at batch sizes 1 to 1024, on the CPU and,
        with onnxruntime-gpu, on CUDA (self-play asks for one batch of up to --parallel positions,
        128 by default, per simulation)
    (b) training samples/s of train_network's compiled model.fit, on the CPU and on the GPU when
        Keras sees one (TensorFlow, or JAX with KERAS_BACKEND=jax)

Prints each rate and its ratio to the CPU's; without a GPU it measures the CPU alone.
Run: .venv/bin/python bench/bench_device.py [--game othello8] [--model pretrained/othello8/best.onnx]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from alphazero.network import runtimes  # noqa: E402
from alphazero.cli.run import ArgumentParser, run
from alphazero.network.keras_setup import keras_backend, quiet_keras  # noqa: E402
from alphazero.cli.flags import add_settings_flags  # noqa: E402
from alphazero.settings import NetworkSettings  # noqa: E402
from alphazero.game.registry import add_game_flag, load_game, sample_positions
from alphazero.game.paths import pretrained_path  # noqa: E402
from alphazero.cli.settings import parse_game_args  # noqa: E402
from alphazero.data.training import STEPS_PER_EXECUTION  # noqa: E402
from bench_train import fit_rate, training_data  # noqa: E402
from train_network import RN_BATCH_SIZE  # noqa: E402

BATCH_SIZES = (1, 8, 32, 128, 512, 1024)
SECONDS_PER_RATE = 1.0  # each rate is timed over at least this long


# Each device onnxruntime has here: the CPU, and CUDA when onnxruntime-gpu is installed
def onnx_devices():
    import onnxruntime
    return ['cpu', 'gpu'] if 'CUDAExecutionProvider' in onnxruntime.get_available_providers() else ['cpu']


def keras_devices():
    return ['cpu', 'gpu'] if runtimes.keras_finds_gpu() else ['cpu']


def main():
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    add_game_flag(parser)
    parser.add_argument('--model', help='the .onnx file to evaluate (default: the game\'s shipped model)')
    add_settings_flags(parser, NetworkSettings, only=('network', 'filters', 'blocks', 'width', 'layers', 'heads'))
    parser.add_argument('--samples', type=int, default=8192, help='training samples per timed epoch')
    parser.add_argument('--epochs', type=int, default=3, help='timed epochs (after one warm-up epoch)')
    parser.add_argument('--batch-size', type=int, default=RN_BATCH_SIZE, help='training samples per step')
    args = parse_game_args(parser, None, ('network',))
    game = load_game(args.game)
    model = args.model or pretrained_path(game, 'best.onnx')
    print(f'{game.NAME}; {os.cpu_count()} CPUs; Keras on {keras_backend()}')

    # (a) The network on onnxruntime, batch by batch, on each device
    positions = np.stack([state.planes() for state in sample_positions(game, max(BATCH_SIZES))])
    rates = {}
    for device in onnx_devices():
        runtimes.use_device(device)
        network = runtimes.OnnxNetwork(model)
        rates[device] = [runtimes.evaluation_rate(network, positions[:size], SECONDS_PER_RATE) for size in BATCH_SIZES]
    runtimes.use_device('cpu')
    print(f'(a) {model}: network evaluations/s on onnxruntime')
    for index, size in enumerate(BATCH_SIZES):
        cpu = rates['cpu'][index]
        gpu = f'   cuda {rates["gpu"][index]:9.0f}  {rates["gpu"][index] / cpu:5.1f}x' if 'gpu' in rates else ''
        print(f'    batch {size:5d}: cpu {cpu:9.0f}{gpu}')

    # (b) The compiled training step on each device Keras sees
    quiet_keras()
    import keras
    data = training_data(game, args.samples)
    print(f'(b) {args.network} network, batch {args.batch_size}, {STEPS_PER_EXECUTION} steps per compiled call: '
          f'training samples/s on Keras')
    train_rates = {}
    for device in keras_devices():
        with keras.device(f'{device}:0'):
            train_rates[device] = fit_rate(game, args, data, True, STEPS_PER_EXECUTION, args.batch_size)
    ratio = f'  ({train_rates["gpu"] / train_rates["cpu"]:.1f}x)' if 'gpu' in train_rates else ''
    print('    ' + '   '.join(f'{device} {rate:8.0f}' for device, rate in train_rates.items()) + ratio)


if __name__ == '__main__':
    run(main)
