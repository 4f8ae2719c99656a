"""Training speed, side by side in one run, on a game's network (default: the book's 128 x 16).

    (a) train_network's model.fit as the book calls it, without XLA (Keras' default here)
    (b) train_network's model.fit as compiled here: XLA, 16 steps per call
    (c) a bare loop of the same compiled train step over ready-made batches (the network's own cost)
    (d) the machine's float32 matrix-multiply rate, against the train step's arithmetic
    (e) the first training stage of a run (XLA compiles the train step), and a later one that
        reuses the compiled model as train_cycle does

Prints samples/s of each (median over epochs after a warm-up epoch) and the ratios b/a and b/c:
b/c near 1 means the input pipeline costs nothing next to the train step.
Run: .venv/bin/python bench/bench_train.py [--game othello8 --network resnet --filters 64 --blocks 5]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from alphazero.network.model_file import save_model  # noqa: E402
from alphazero.cli.flags import add_settings_flags, settings_of  # noqa: E402
from alphazero.settings import NetworkSettings, TrainingSettings  # noqa: E402
from alphazero.game.registry import GAMES, load_game, sample_positions
from alphazero.game.paths import model_path  # noqa: E402
from alphazero.data.training import compile_model  # noqa: E402
from dual_network import build_network  # noqa: E402
from train_network import RN_BATCH_SIZE, train_network  # noqa: E402


def training_data(game, samples):
    rng = np.random.default_rng(0)
    states = sample_positions(game, samples)
    position = np.stack([s.planes() for s in states])
    policy = np.zeros((samples, game.ACTION_COUNT), np.float32)
    for row, state in enumerate(states):
        policy[row, state.legal_actions()] = rng.dirichlet(np.ones(len(state.legal_actions())))
    value = rng.choice([-1.0, 0.0, 1.0], samples).astype(np.float32)
    return position, policy, value


class EpochTimer:
    def __init__(self):
        import keras
        self.times = []
        timer = self

        class Callback(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                timer.start = time.perf_counter()

            def on_epoch_end(self, epoch, logs=None):
                timer.times.append(time.perf_counter() - timer.start)
        self.callback = Callback()


def new_model(game, args):
    import keras
    keras.utils.set_random_seed(0)
    return build_network(game, settings_of(NetworkSettings, args))


def fit_rate(game, args, data, jit_compile, steps_per_execution, batch_size=RN_BATCH_SIZE):
    model = new_model(game, args)
    compile_model(model, jit_compile, steps_per_execution)
    timer = EpochTimer()
    position, policy, value = data
    model.fit(position, [policy, value], batch_size=batch_size, epochs=args.epochs + 1, verbose=0,
              callbacks=[timer.callback])
    return len(value) / statistics.median(timer.times[1:])


def bare_loop_rate(game, args, data):
    import keras
    import tensorflow as tf
    model = new_model(game, args)
    optimizer = keras.optimizers.Adam(0.001)
    cross_entropy, squared_error = keras.losses.CategoricalCrossentropy(), keras.losses.MeanSquaredError()

    @tf.function(jit_compile=True)
    def train_step(x, p, v):
        with tf.GradientTape() as tape:
            p_out, v_out = model(x, training=True)
            loss = cross_entropy(p, p_out) + squared_error(v, v_out) + tf.add_n(model.losses or [0.0])
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    position, policy, value = data
    batches = [tuple(tf.constant(a[i:i + RN_BATCH_SIZE]) for a in (position, policy, value[:, None]))
               for i in range(0, len(value), RN_BATCH_SIZE)]
    times = []
    for _ in range(args.epochs + 1):
        start = time.perf_counter()
        for batch in batches:
            train_step(*batch)
        float(train_step(*batches[0]))  # wait for the last step
        times.append(time.perf_counter() - start)
    return len(value) / statistics.median(times[1:])


def forward_flops(game, args):
    """Floating-point operations of one forward pass of one position (TensorFlow's profiler)."""
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    model = new_model(game, args)
    forward = tf.function(lambda x: model(x, training=False)).get_concrete_function(
        tf.TensorSpec((1, *game.INPUT_SHAPE), tf.float32))
    graph = convert_variables_to_constants_v2(forward).graph
    options = tf.compat.v1.profiler.ProfileOptionBuilder.float_operation()
    options['output'] = 'none'
    return tf.compat.v1.profiler.profile(graph, options=options).total_float_ops


def matmul_rate(size=1024, repeats=20):
    """The machine's float32 matrix-multiply rate in FLOP/s (TensorFlow, all cores)."""
    import tensorflow as tf
    a = tf.random.normal((size, size))

    @tf.function
    def product(x):
        for _ in range(repeats):
            x = tf.matmul(a, x) * 1e-3
        return x
    product(a).numpy()
    times = []
    for _ in range(3):
        start = time.perf_counter()
        product(a).numpy()
        times.append(time.perf_counter() - start)
    return 2 * size ** 3 * repeats / statistics.median(times)


def stage_seconds(game, args):
    """Seconds of the first training stage of a run and of the next one, as train_cycle runs them
    (replay samples, the compiled model kept from one stage to the next)."""
    from alphazero.data.history import write_history
    from alphazero.game.paths import data_dir
    keep, seconds = {}, []
    with tempfile.TemporaryDirectory() as directory:
        current = os.getcwd()
        os.chdir(directory)
        try:
            save_model(new_model(game, args), model_path(game, 'best.h5'))
            position, policy, value = training_data(game, args.samples)
            write_history(os.path.join(data_dir(game), '1.npz'), position, policy, value)
            for _ in range(2):
                start = time.perf_counter()
                train_network(game, TrainingSettings(samples=args.samples), seed=0, keep=keep)
                seconds.append(time.perf_counter() - start)
        finally:
            os.chdir(current)
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--game', choices=sorted(GAMES), default='tictactoe')
    add_settings_flags(parser, NetworkSettings, only=('network', 'filters', 'blocks', 'width', 'layers', 'heads'))
    parser.add_argument('--samples', type=int, default=3840, help='about one default self-play stage')
    parser.add_argument('--epochs', type=int, default=3, help='timed epochs (after one warm-up epoch)')
    args = parser.parse_args()
    game = load_game(args.game)
    data = training_data(game, args.samples)
    parameters = new_model(game, args).count_params()
    print(f'{game.NAME}, {args.network} network ({parameters:,} parameters); {args.samples} samples, '
          f'batch {RN_BATCH_SIZE}; {os.cpu_count()} CPUs')
    a = fit_rate(game, args, data, False, 1)
    print(f'(a) model.fit, no XLA (the book)          {a:8.0f} samples/s')
    b = fit_rate(game, args, data, True, 16)
    print(f'(b) model.fit, XLA, 16 steps per call      {b:8.0f} samples/s')
    c = bare_loop_rate(game, args, data)
    print(f'(c) bare loop of XLA train steps           {c:8.0f} samples/s')
    print(f'b/a: {b / a:.1f}x   b/c: {b / c:.2f}')
    flops, rate = forward_flops(game, args), matmul_rate()
    print(f'(d) matrix multiply: {rate / 1e9:.1f} GFLOP/s; a train step is about 3 forward passes of '
          f'{flops / 1e6:.2f} MFLOP per sample, so (b) runs at {3 * flops * b / rate:.0%} of that rate')
    first, later = stage_seconds(game, args)
    print(f'(e) a training stage of {args.samples} replay samples: first {first:.1f} s, with the kept compiled '
          f'model {later:.1f} s (XLA compile about {first - later:.1f} s saved per cycle)')


if __name__ == '__main__':
    main()
