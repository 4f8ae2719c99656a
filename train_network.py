# ====================
# Train the network (the book's train_network.py)
# ====================
# Fit the best player's network to the newest self-play data: the policy head to the search's move
# distributions (cross-entropy), the value head to the game results (mean squared error). The
# result is saved as latest.h5; evaluate_network.py decides whether it becomes the best player.

import math
import sys
import time

import numpy as np
from tqdm import tqdm

from alphazero.cli import ArgumentParser, UserError, quiet_keras, run
from alphazero.files import history_files, history_sims, load_history, load_model, remove_stale_temporaries, save_model
from alphazero.games import add_game_flag, data_dir, load_game, model_path, parse_game_args
from alphazero.inference import add_device_flag, use_device
from alphazero.limits import MAX_BATCH, MAX_SAMPLES, check_samples, whole_number

# Parameters
RN_EPOCHS = 100         # training epochs per cycle
RN_BATCH_SIZE = 128     # samples per gradient step
RN_STEPS_PER_EXECUTION = 16  # gradient steps per compiled call, so Python runs rarely (same training)
RN_WINDOW = 1           # history files to train on: the book uses only the newest
RN_SAMPLES = 0          # beyond the book: train on this many samples drawn from the window instead
                        # of epochs over every sample (0: epochs, as in the book)


# The training data, as (positions, policies, values): the newest `window` readable history files.
# A damaged file is reported by name and skipped.
def load_data(game=None, trust_pickle=False, window=RN_WINDOW):
    game = game or load_game()
    parts = []
    for path in reversed(history_files(data_dir(game), trust_pickle)):
        try:
            parts.append(load_history(path, game))
        except UserError as error:
            print(f'skipping a history file: {error}', file=sys.stderr)
            continue
        if len(parts) == window:
            break
    if not parts:
        raise UserError(f'no readable history file in {data_dir(game)}/: run `python self_play.py` first.')
    return tuple(np.concatenate(arrays) for arrays in zip(*parts))


# The 8 symmetries of the board (or whatever the game has): every sample in every orientation
def augment(game, position, policy, value):
    count = len(position)
    squares = position.reshape(count, -1, position.shape[-1])
    positions, policies = [], []
    for square_permutation, action_permutation in game.SYMMETRIES:
        positions.append(squares[:, list(square_permutation)].reshape(position.shape))
        policies.append(policy[:, list(action_permutation)])
    return np.concatenate(positions), np.concatenate(policies), np.tile(value, len(game.SYMMETRIES))


# Beyond the book: `count` samples drawn at random from the window (replay), each in a random one of
# the board's symmetries, so that the samples trained per cycle are a setting of their own and not
# (epochs x window x symmetries)
def replay_sample(game, position, policy, value, count, rng):
    rows = rng.integers(len(value), size=count)
    symmetry = rng.integers(len(game.SYMMETRIES), size=count)
    squares = position[rows].reshape(count, -1, position.shape[-1])
    square_permutations = np.array([s for s, _ in game.SYMMETRIES])[symmetry]
    action_permutations = np.array([a for _, a in game.SYMMETRIES])[symmetry]
    sampled_position = np.take_along_axis(squares, square_permutations[:, :, None], axis=1).reshape(count, *position.shape[1:])
    sampled_policy = np.take_along_axis(policy[rows], action_permutations, axis=1)
    return sampled_position, sampled_policy, value[rows]


# Learning rate: 0.001, halved at epoch 50 and again at epoch 80 (book schedule)
def step_decay(epoch):
    x = 0.001
    if epoch >= 50:
        x = 0.0005
    if epoch >= 80:
        x = 0.00025
    return x


# The book's losses and optimizer; XLA makes the CPU train step about 4x faster
def compile_model(model, jit_compile=True, steps_per_execution=RN_STEPS_PER_EXECUTION):
    model.compile(optimizer='adam', loss=['categorical_crossentropy', 'mse'], jit_compile=jit_compile,
                  steps_per_execution=steps_per_execution)


# A progress bar over the epochs, with the losses and the training speed
def progress_callback(epochs, samples):
    import keras

    class Progress(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            self.bar = tqdm(total=epochs, desc='train', unit='epoch')
            self.start = time.perf_counter()

        def on_epoch_end(self, epoch, logs=None):
            rate = samples * (epoch + 1) / (time.perf_counter() - self.start)
            self.bar.set_postfix(loss=f'{logs["loss"]:.3f}', pi=f'{logs["pi_loss"]:.3f}',
                                 v=f'{logs["v_loss"]:.3f}', samples_per_s=f'{rate:.0f}')
            self.bar.update(1)

        def on_train_end(self, logs=None):
            self.bar.close()
    return Progress()


# A callback that moves `bar` by one for every training batch of an epoch of `steps` batches, across
# separate fit calls (Keras reports the last batch of each run of steps_per_execution batches, which
# can run past the end of the epoch)
def batch_progress(bar, steps):
    import keras

    class Progress(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            self.done_before = bar.n

        def on_train_batch_end(self, batch, logs=None):
            bar.update(self.done_before + min(batch + 1, steps) - bar.n)
    return Progress()


# The batches of an epoch over `data` (planes, policies, values)
def epoch_batches(data, batch_size):
    return math.ceil(len(data[2]) / batch_size)


# One epoch over a fixed set of positions, for the stages that train on one (train_records, distill):
# every position once, each in a random one of the board's symmetries, `bar` counting the batches.
# Returns the epoch's training loss
def train_epoch(model, game, data, batch_size, rng, bar):
    position, policy, value = replay_sample(game, *data, len(data[2]), rng)
    history = model.fit(position, [policy, value], batch_size=batch_size, epochs=1, verbose=0,
                        callbacks=[batch_progress(bar, epoch_batches(data, batch_size))])
    return float(history.history['loss'][-1])


# The best player's network, compiled for training. A model compiled before for the same network
# (train_cycle keeps one) only takes best's weights and a fresh optimizer, as a new compile would
# give it, so that XLA does not compile the train step again every cycle
def best_for_training(game, model=None):
    best = load_model(model_path(game, 'best.h5'), game)
    if model is None:
        compile_model(best)
        return best
    model.set_weights(best.get_weights())
    for variable in model.optimizer.variables:
        variable.assign(np.zeros(variable.shape, variable.dtype))
    return model


# Train the best network on the newest data and save it as latest.h5; returns the per-epoch losses.
# keep: a dict that keeps the compiled model from one call to the next (beyond the book)
def train_network(game=None, epochs=RN_EPOCHS, batch_size=RN_BATCH_SIZE, trust_pickle=False,
                  window=RN_WINDOW, symmetries=False, samples=RN_SAMPLES, seed=None, keep=None):
    quiet_keras()
    import keras
    game = game or load_game()

    # Load the training data (beyond the book: several files, the board's symmetries, or a number
    # of samples drawn from them in whole calls of the compiled train step)
    position, policy, value = load_data(game, trust_pickle, window)
    if samples:
        call = batch_size * RN_STEPS_PER_EXECUTION
        position, policy, value = replay_sample(game, position, policy, value, -(-samples // call) * call,
                                                np.random.default_rng(seed))
        epochs = 1
    elif symmetries:
        position, policy, value = augment(game, position, policy, value)

    # Load the best player's network and compile it
    model = best_for_training(game, keep.get('model') if keep is not None else None)

    # Train, with the step-decay learning rate
    history = model.fit(position, [policy, value], batch_size=batch_size, epochs=epochs, verbose=0,
                        callbacks=[keras.callbacks.LearningRateScheduler(step_decay),
                                   progress_callback(epochs, len(value))])

    # Save the result as the latest player, with the search of its newest self-play data
    newest = history_files(data_dir(game), trust_pickle)[-1]
    save_model(model, model_path(game, 'latest.h5'), history_sims(newest))
    if keep is None:
        keras.backend.clear_session()
    else:
        keep['model'] = model
    losses = {name: [float(x) for x in history.history[name]] for name in ('loss', 'pi_loss', 'v_loss')}
    losses['samples'] = len(value)
    return losses


def add_training_flags(parser):
    parser.add_argument('--window', type=whole_number(1), default=RN_WINDOW,
                        help='train on the newest K history files (default: %(default)s, the book)')
    parser.add_argument('--symmetries', action='store_true',
                        help="also train on every symmetric copy of each position (not in the book)")
    parser.add_argument('--samples', type=whole_number(0, MAX_SAMPLES), default=RN_SAMPLES, metavar='N',
                        help='train on N samples drawn from the window, each in a random symmetry, instead of '
                             f'epochs (rounded up to whole calls of {RN_STEPS_PER_EXECUTION} batches); 0 trains '
                             'epochs, as in the book (default: %(default)s)')


def parse_args(argv=None):
    parser = ArgumentParser(description='Train the best network on the newest self-play data; '
                                                 'the result is saved as latest.h5.')
    add_game_flag(parser)
    parser.add_argument('--epochs', type=whole_number(1), default=RN_EPOCHS, help='training epochs, RN_EPOCHS (default: %(default)s)')
    parser.add_argument('--batch-size', type=whole_number(1, MAX_BATCH), default=RN_BATCH_SIZE, help='samples per step (default: %(default)s)')
    add_training_flags(parser)
    parser.add_argument('--trust-pickle', action='store_true',
                        help="also read the book's pickled .history files (unpickling runs code: only your own files)")
    add_device_flag(parser)
    args = parse_game_args(parser, argv)
    use_device(args.device)
    game = load_game(args.game)
    check_samples(game, args.samples)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    remove_stale_temporaries(game)
    losses = train_network(game, args.epochs, args.batch_size, args.trust_pickle, args.window, args.symmetries,
                           args.samples)
    print(f'wrote {model_path(game, "latest.h5")}: loss {losses["loss"][0]:.3f} -> {losses["loss"][-1]:.3f}')


if __name__ == '__main__':
    run(main)
