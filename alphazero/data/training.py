"""Training helpers every training stage shares (train_network.py, train_records.py, distill.py):
data augmentation by the board's symmetries, replay sampling, the compiled model, progress bars and
one epoch over a fixed set of positions."""
import math
import os
import time
from dataclasses import dataclass

import numpy as np
from tqdm import tqdm

from alphazero.network.keras_setup import keras_backend

STEPS_PER_EXECUTION = 16  # gradient steps per compiled call, so Python runs rarely (same training)


# The 8 symmetries of the board (or whatever the game has): every sample in every orientation. The
# targets that do not turn with the board (value, and the margin when there is one) are repeated
def augment(game, position, policy, value, margin=None):
    count = len(position)
    squares = position.reshape(count, -1, position.shape[-1])
    positions, policies = [], []
    for square_permutation, action_permutation in game.SYMMETRIES:
        positions.append(squares[:, list(square_permutation)].reshape(position.shape))
        policies.append(policy[:, list(action_permutation)])
    turns = len(game.SYMMETRIES)
    return (np.concatenate(positions), np.concatenate(policies), np.tile(value, turns),
            None if margin is None else np.tile(margin, turns))


# Beyond the book: `count` samples drawn at random from the window (replay), each in a random one of
# the board's symmetries, so that the samples trained per cycle are a setting of their own and not
# (epochs x window x symmetries)
def replay_sample(game, position, policy, value, count, rng, margin=None):
    rows = rng.integers(len(value), size=count)
    sampled_position, sampled_policy = position[rows], policy[rows]
    turn_randomly(game, sampled_position, sampled_policy, rng)
    return sampled_position, sampled_policy, value[rows], None if margin is None else margin[rows]


# Each sample (input planes and policy, changed in place) in a random one of the board's symmetries;
# each symmetry turns its own samples (one at a time: full shogi's samples are large)
def turn_randomly(game, position, policy, rng):
    count = len(position)
    symmetry = rng.integers(len(game.SYMMETRIES), size=count)
    squares = position.reshape(count, -1, position.shape[-1])
    for index, (square_permutation, action_permutation) in enumerate(game.SYMMETRIES):
        chosen = np.flatnonzero(symmetry == index)
        if index == 0 or not len(chosen):  # the identity comes first (alphazero/contract.py)
            continue
        squares[chosen] = squares[chosen][:, list(square_permutation)]
        policy[chosen] = policy[chosen][:, list(action_permutation)]


def xla_wanted():
    """Whether training compiles its step with XLA: about 4x faster a step on a CPU, after a compile of
    seconds that a tiny run (a test, a first try) never wins back; ALPHAZERO_XLA=0 leaves it out.
    Keras on JAX always compiles its step (without, it runs op by op)."""
    return keras_backend() == 'jax' or os.environ.get('ALPHAZERO_XLA', '1') != '0'


# The book's losses and optimizer (and for a margin head, mean squared error on the margin), the
# step compiled with XLA unless ALPHAZERO_XLA=0 (xla_wanted)
def compile_model(model, jit_compile=None, steps_per_execution=STEPS_PER_EXECUTION):
    losses = ['categorical_crossentropy', 'mse', 'mse'][:len(model.outputs)]
    model.compile(optimizer='adam', loss=losses, jit_compile=xla_wanted() if jit_compile is None else jit_compile,
                  steps_per_execution=steps_per_execution)


def has_margin_head(model):
    return len(model.outputs) == 3


# The targets of model.fit: policy and value, and the margin when the model has a margin head
def fit_targets(model, policy, value, margin):
    return [policy, value, margin] if has_margin_head(model) else [policy, value]


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


# The batches of an epoch over `data` (positions, policies, values)
def epoch_batches(data, batch_size):
    return math.ceil(len(data[2]) / batch_size)


# An anchor against forgetting: a network trained further on new games (train_records.py --from-best)
# learns, as each target, `share` of what the network it started from says of the position (its
# policy and value, a frozen copy) and the rest of the game's move and result. Its loss is then, on
# top of the new games', `share` times the cross-entropy to the old policy (the KL divergence from
# it, but for a constant) and the squared distance to the old value: the step may be larger without
# unlearning what the old games taught, when those games themselves are gone
@dataclass(frozen=True)
class Anchor:
    network: object  # network(planes) -> (policies (N, A), values (N,)), as the search calls it
    share: float

    def targets(self, planes, policy, value):
        old_policy, old_value = self.network(planes)
        return ((1 - self.share) * policy + self.share * old_policy.astype(np.float32),
                ((1 - self.share) * value + self.share * old_value.astype(np.float32)).astype(np.float32))


# A fixed set of positions, for the stages that train on one (train_records, distill), is `data` =
# (positions, policies, values): positions as input planes, or packed as the game packs them (full
# shogi: 32 bytes each, its features made again by game.packed_planes); policies as distributions
# (N, A) or as the moves played (N,). Its batches are made one at a time, so that millions of
# positions need only their compact form in memory.
def batch_of(game, data, rows, rng=None):
    """Input planes (float32), policy targets and values of the positions `rows`; each turned by a
    random symmetry of the board when `rng` is given."""
    positions, policies, values = data[:3]
    planes = game.packed_planes(positions[rows]) if positions.ndim == 2 else positions[rows].astype(np.float32)
    if policies.ndim == 2:
        policy = policies[rows].astype(np.float32)
    else:
        policy = np.zeros((len(rows), game.ACTION_COUNT), np.float32)
        policy[np.arange(len(rows)), policies[rows]] = 1
    if rng is not None:
        turn_randomly(game, planes, policy, rng)
    return planes, policy, values[rows]


# An epoch over a fixed set of positions is one fit call, as the end of each call waits on the
# input pipeline's teardown (about a minute on full shogi's records); every SEGMENT_BATCHES batches
# it may be kept, so that a long one (ten million positions take hours on a CPU) can go on from there
SEGMENT_BATCHES = 16 * STEPS_PER_EXECUTION


@dataclass
class EpochPlace:
    """How far an epoch over a fixed set of positions is: its seed, which fixes the order of the
    positions and each batch's symmetries, the batches trained and their positions' losses summed."""
    seed: int
    batches: int = 0
    loss_sum: float = 0.0

    @classmethod
    def drawn(cls, rng):
        return cls(int(rng.integers(2 ** 63)))


# The rest of the epoch at `place`: every position once, in the order of the epoch's seed, each in a
# random one of the board's symmetries (batch i's own draw), `bar` counting the batches; `keep(place)`
# every SEGMENT_BATCHES batches; `anchor` (an Anchor) mixes each batch's targets with what a fixed
# network says of its positions. Returns the epoch's training loss
def train_epoch(model, game, data, batch_size, place, bar, keep=None, anchor=None):
    import keras

    order = np.random.default_rng(place.seed).permutation(len(data[2]))
    total = epoch_batches(data, batch_size)
    first, loss_before, bar_before = place.batches, place.loss_sum, bar.n

    class Batches(keras.utils.PyDataset):
        def __len__(self):
            return total - first

        def __getitem__(self, index):
            number = first + index
            rng = np.random.default_rng([place.seed, number])
            planes, policy, value = batch_of(game, data, order[number * batch_size:(number + 1) * batch_size], rng)
            if anchor is not None:
                policy, value = anchor.targets(planes, policy, value)
            return planes, (policy, value)

    class Progress(keras.callbacks.Callback):
        # Keras reports the last batch of each run of steps_per_execution batches (which can run past
        # the epoch's end) and the mean loss over the positions of this call so far
        def on_train_batch_end(self, batch, logs=None):
            place.batches = min(first + batch + 1, total)
            positions = min(place.batches * batch_size, len(order)) - first * batch_size
            place.loss_sum = loss_before + float(logs['loss']) * positions
            bar.update(bar_before + place.batches - first - bar.n)
            if keep is not None and place.batches < total and place.batches % SEGMENT_BATCHES == 0:
                keep(place)
    # no shuffle of Keras's own: the order is the seed's alone, so that a run kept and taken up trains alike
    model.fit(Batches(), epochs=1, verbose=0, shuffle=False, callbacks=[Progress()])
    return place.loss_sum / len(order)
