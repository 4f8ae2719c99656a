"""Training speed, side by side in one run, on the book's default network (128 filters, 16 blocks).

    (a) train_network's model.fit as the book calls it, without XLA (Keras' default here)
    (b) train_network's model.fit as compiled here: XLA, 16 steps per call
    (c) a bare loop of the same compiled train step over ready-made batches (the network's own cost)

Prints samples/s of each (median over epochs after a warm-up epoch) and the ratios b/a and b/c:
b/c near 1 means the input pipeline costs nothing next to the train step.
Run: .venv/bin/python bench/bench_train.py [--samples 3840 --epochs 3]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

import game  # noqa: E402
from alphazero.games import sample_positions  # noqa: E402
from dual_network import DN_FILTERS, DN_RESIDUAL_NUM, build_dual_network  # noqa: E402
from train_network import RN_BATCH_SIZE, compile_model  # noqa: E402


def training_data(samples):
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


def fit_rate(filters, blocks, data, epochs, jit_compile, steps_per_execution):
    import keras
    keras.utils.set_random_seed(0)
    model = build_dual_network(game.INPUT_SHAPE, game.ACTION_COUNT, filters, blocks)
    compile_model(model, jit_compile, steps_per_execution)
    timer = EpochTimer()
    position, policy, value = data
    model.fit(position, [policy, value], batch_size=RN_BATCH_SIZE, epochs=epochs + 1, verbose=0,
              callbacks=[timer.callback])
    return len(value) / statistics.median(timer.times[1:])


def bare_loop_rate(filters, blocks, data, epochs):
    import keras
    import tensorflow as tf
    keras.utils.set_random_seed(0)
    model = build_dual_network(game.INPUT_SHAPE, game.ACTION_COUNT, filters, blocks)
    optimizer = keras.optimizers.Adam(0.001)
    cross_entropy, squared_error = keras.losses.CategoricalCrossentropy(), keras.losses.MeanSquaredError()

    @tf.function(jit_compile=True)
    def train_step(x, p, v):
        with tf.GradientTape() as tape:
            p_out, v_out = model(x, training=True)
            loss = cross_entropy(p, p_out) + squared_error(v, v_out) + tf.add_n(model.losses)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss

    position, policy, value = data
    batches = [tuple(tf.constant(a[i:i + RN_BATCH_SIZE]) for a in (position, policy, value[:, None]))
               for i in range(0, len(value), RN_BATCH_SIZE)]
    times = []
    for _ in range(epochs + 1):
        start = time.perf_counter()
        for batch in batches:
            train_step(*batch)
        float(train_step(*batches[0]))  # wait for the last step
        times.append(time.perf_counter() - start)
    return len(value) / statistics.median(times[1:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--samples', type=int, default=3840, help='about one default self-play stage')
    parser.add_argument('--epochs', type=int, default=3, help='timed epochs (after one warm-up epoch)')
    parser.add_argument('--filters', type=int, default=DN_FILTERS)
    parser.add_argument('--blocks', type=int, default=DN_RESIDUAL_NUM)
    args = parser.parse_args()
    data = training_data(args.samples)
    print(f'network: {args.blocks} blocks, {args.filters} filters; {args.samples} samples, batch {RN_BATCH_SIZE}; '
          f'{os.cpu_count()} CPUs')
    a = fit_rate(args.filters, args.blocks, data, args.epochs, False, 1)
    print(f'(a) model.fit, no XLA (the book)          {a:8.0f} samples/s')
    b = fit_rate(args.filters, args.blocks, data, args.epochs, True, 16)
    print(f'(b) model.fit, XLA, 16 steps per call      {b:8.0f} samples/s')
    c = bare_loop_rate(args.filters, args.blocks, data, args.epochs)
    print(f'(c) bare loop of XLA train steps           {c:8.0f} samples/s')
    print(f'b/a: {b / a:.1f}x   b/c: {b / c:.2f}')
    print(f'one default training stage ({args.samples} samples x 100 epochs) at (b): {args.samples * 100 / b / 60:.1f} min')


if __name__ == '__main__':
    main()
