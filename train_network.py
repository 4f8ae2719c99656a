# ====================
# Train the network (the book's train_network.py)
# ====================
# Fit the best player's network to the newest self-play data: the policy head to the search's move
# distributions (cross-entropy), the value head to the game results (mean squared error). The
# result is saved as latest.h5; evaluate_network.py decides whether it becomes the best player.

import sys

import numpy as np

from alphazero.cli.flags import add_settings_flags, settings_of
from alphazero.cli.run import ArgumentParser, run
from alphazero.cli.settings import parse_game_args
from alphazero.data.history import history_files, history_sims, load_history
from alphazero.data.run_folder import hold_run_folder
from alphazero.data.training import (
    STEPS_PER_EXECUTION,
    augment,
    batch_of,
    compile_model,
    fit_targets,
    has_margin_head,
    progress_callback,
    replay_sample,
)
from alphazero.errors import UserError
from alphazero.game.paths import data_dir, model_path
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.limits import check_samples
from alphazero.network.keras_setup import quiet_keras
from alphazero.network.model_file import load_model, save_model
from alphazero.network.runtimes import add_device_flag, use_device
from alphazero.records.positions import record_positions
from alphazero.settings import PlaySettings, TrainingSettings

# Parameters (the book's; with the rest of training's, they are the defaults of alphazero/settings.py's
# TrainingSettings)
RN_EPOCHS = TrainingSettings.epochs                 # training epochs per cycle: 100
RN_BATCH_SIZE = TrainingSettings.batch_size         # samples per gradient step: 128
RN_WINDOW = TrainingSettings.window                 # history files to train on: the book uses only the newest
RN_LEARNING_RATE = TrainingSettings.learning_rate   # the step schedule's first rate: 0.001


# The training data, as (positions, policies, values): the newest `window` readable history files.
# A damaged file is reported by name and skipped. With `margins` (beyond the book), a fourth array:
# the margin targets, which every file of the window must have
def load_data(game=None, trust_pickle=False, window=RN_WINDOW, margins=False):
    game = as_game(game)
    parts = []
    for path in reversed(history_files(data_dir(game), trust_pickle)):
        try:
            parts.append(load_history(path, game, margins))
        except UserError as error:
            print(f'skipping a history file: {error}', file=sys.stderr)
            continue
        if margins and parts[-1][3] is None:
            raise UserError(f'{path} has no margin targets, which the margin head learns: it was made before '
                            'self-play recorded them, or by the book\'s code; move it away')
        if len(parts) == window:
            break
    if not parts:
        raise UserError(f'no readable history file in {data_dir(game)}/: run `python self_play.py` first.')
    return tuple(np.concatenate(arrays) for arrays in zip(*parts))


# Beyond the book: positions of records (--records) beside the self-play window, drawn anew each
# stage to make --records-share of the training positions, so that what the records taught stays
def beside_records(game, data, training, rng):
    records = record_positions(game, training.records, training.records_opening)
    count = round(len(data[2]) * training.records_share / (1 - training.records_share))
    planes, policy, value = batch_of(game, records, rng.choice(len(records[2]), count, replace=count > len(records[2])))
    return (np.concatenate([data[0], planes.astype(data[0].dtype)]), np.concatenate([data[1], policy.astype(data[1].dtype)]),
            np.concatenate([data[2], value.astype(data[2].dtype)]))


# Learning rate: 0.001, halved at epoch 50 and again at epoch 80 (book schedule). Beyond the book,
# `first` starts it lower: a run that has stopped improving goes on at a smaller step
def step_decay(epoch, first=RN_LEARNING_RATE):
    x = first
    if epoch >= 50:
        x = first / 2
    if epoch >= 80:
        x = first / 4
    return x


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
# `training` and `play` (alphazero/settings.py) say how and what the model records (beyond the book)
def train_network(game=None, training=TrainingSettings(), play=PlaySettings(), *, trust_pickle=False, seed=None,
                  keep=None):
    quiet_keras()
    import keras
    game = as_game(game)

    # Load the best player's network and compile it
    model = best_for_training(game, keep.get('model') if keep is not None else None)

    # Load the training data (beyond the book: several files, the board's symmetries, or a number
    # of samples drawn from them in whole calls of the compiled train step; the margins for a margin head)
    epochs, batch_size, rng = training.epochs, training.batch_size, np.random.default_rng(seed)
    data = load_data(game, trust_pickle, training.window, margins=has_margin_head(model))
    position, policy, value = data[:3]
    margin = data[3] if has_margin_head(model) else None
    if training.records:
        if margin is not None:
            raise UserError('--records: records have no margin targets, which the margin head learns: train a '
                            'model without one on them')
        position, policy, value = beside_records(game, (position, policy, value), training, rng)
    if training.samples:
        call = batch_size * STEPS_PER_EXECUTION
        position, policy, value, margin = replay_sample(game, position, policy, value,
                                                        -(-training.samples // call) * call, rng, margin)
        epochs = 1
    elif training.symmetries:
        position, policy, value, margin = augment(game, position, policy, value, margin)

    # Train, with the step-decay learning rate
    history = model.fit(position, fit_targets(model, policy, value, margin), batch_size=batch_size, epochs=epochs, verbose=0,
                        callbacks=[keras.callbacks.LearningRateScheduler(lambda epoch: step_decay(epoch, training.learning_rate)),
                                   progress_callback(epochs, len(value))])

    # Save the result as the latest player, with the search it plays at: play_sims if given, else
    # the search of its newest self-play data
    newest = history_files(data_dir(game), trust_pickle)[-1]
    save_model(model, model_path(game, 'latest.h5'), play.play_sims or history_sims(newest))
    if keep is None:
        keras.backend.clear_session()
    else:
        keep['model'] = model
    losses = {name: [float(x) for x in history.history[name]] for name in ('loss', 'pi_loss', 'v_loss', 'margin_loss')
              if name in history.history}
    losses['samples'], losses['learning_rate'] = len(value), training.learning_rate
    return losses


def parse_args(argv=None):
    parser = ArgumentParser(description='Train the best network on the newest self-play data; '
                                        'the result is saved as latest.h5.')
    add_game_flag(parser)
    add_settings_flags(parser, TrainingSettings)
    add_settings_flags(parser, PlaySettings)
    parser.add_argument('--trust-pickle', action='store_true',
                        help="also read the book's pickled .history files (unpickling runs code: only your own files)")
    add_device_flag(parser)
    args = parse_game_args(parser, argv, ('training', 'play'))
    use_device(args.device)
    game = load_game(args.game)
    check_samples(game, args.samples)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    hold_run_folder(game)
    losses = train_network(game, settings_of(TrainingSettings, args), settings_of(PlaySettings, args),
                           trust_pickle=args.trust_pickle)
    print(f'wrote {model_path(game, "latest.h5")}: loss {losses["loss"][0]:.3f} -> {losses["loss"][-1]:.3f}')


if __name__ == '__main__':
    run(main)
