# ====================
# Supervised training on game records (beyond the book: as the articles of docs/sources.md do)
# ====================
# The network learns from games instead of its own play: the policy towards the move played, the
# value towards the game's result for the side to move (from the final disc count; in shogi from
# the end, or the resignation, the record states). The games are
# split into training and validation games (by game, so that no position of a validation game is
# ever trained on); each epoch trains on every training position once, each in a random one of the
# board's symmetries, then measures the validation games. Writes the game's best.h5 and its ONNX
# export, so that `train_cycle.py` continues from it with self-play. A stopped run goes on from its
# last checkpoint (records_checkpoint.json: after each epoch, and every 10 minutes inside one) when
# the same command is run again.
#
#   python train_records.py --game othello8 records/engines.wtb [more .wtb, .txt or .csv files]
#   python train_records.py --game shogi9 records/shogi9/*.csa [.kif, .usi files]

import dataclasses
from dataclasses import dataclass
import glob
import hashlib
import json
import os
import sys
import time

import numpy as np
from tqdm import tqdm

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.network.keras_setup import quiet_keras
from alphazero.files import atomic_output, write_json
from alphazero.network.model_file import save_model
from alphazero.cli.flags import add_settings_flags, settings_of
from alphazero.settings import NetworkSettings, PlaySettings
from alphazero.game.registry import load_game
from alphazero.game.paths import model_path
from alphazero.limits import MAX_BATCH, MAX_DEPTH, check_network, file_path, real_number, seed, whole_number
from alphazero.network.onnx_export import ensure_onnx
from alphazero.records.positions import read_games, records_to_arrays
from alphazero.cli.settings import parse_game_args
from alphazero.data.run_folder import hold_run_folder
from alphazero.data.training import (Anchor, EpochPlace, batch_of, compile_model, epoch_batches, has_margin_head,
                                     train_epoch)
from alphazero.network.load import load_network
from dual_network import build_network, deepened, describe_network
from train_network import RN_BATCH_SIZE

# Parameters
TR_EPOCHS = 5             # passes over the training positions (as 【オセロAIを作る①】)
TR_VALIDATION = 0.1       # share of the games kept for validation
TR_LEARNING_RATE = 0.001  # Adam's learning rate in the first epoch, times TR_DECAY every epoch (as 【オセロAIを作る①】)
TR_DECAY = 0.8
TR_SCORE_SHARE = 0.0      # share of a value target from the record's engine score (dlshogi's val_lambda: 0.333), the rest the result
TR_OPENING = 0            # moves at the start of each game not learned (make_records.py --opening plays them at random)
TR_ANCHOR = 0.0           # with --from-best: share of each target from the model it started from, against forgetting
RECORD_GAMES = ('othello8', 'othello8planes', 'shogi9')
METRICS_FILE = 'records_metrics.jsonl'
CHECKPOINT_FILE = 'records_checkpoint.json'  # the epochs done and the place in the next, and the model (with its optimizer) they made
CHECKPOINT_SECONDS = 600  # a checkpoint after each epoch, and in one every 10 minutes or so: a kill loses little more
CHART_FILE = 'chart_records.png'


# A game is a validation game when a hash of its moves falls in the first `validation` share: the
# same games for every run and every network, whatever the files' order (a game recorded twice stays
# on one side), so that networks trained on the same records are measured on the same games
def is_validation_game(moves, validation):
    # a byte per move where every action fits one (Othello: the split measured so far), else two (shogi)
    digest = hashlib.sha256(bytes(moves) if max(moves, default=0) < 256 else np.asarray(moves, '<u2').tobytes()).digest()
    return int.from_bytes(digest[:8], 'little') < validation * 2 ** 64


# Losses and accuracies of the model on a set of positions: policy accuracy = the most likely move
# is the move played; value accuracy = in the positions of won and lost games, the value's sign
# names the winner (a value near 0 early in a game is a fair guess, not a predicted draw)
def measure(model, game, data, batch_size=1024):
    policy_loss = value_loss = moves_right = results_right = decisive = 0.0
    # a bar when measuring takes more than a second (a tenth of ten million positions: minutes)
    for start in tqdm(range(0, len(data[2]), batch_size), desc='measure the validation games', unit='batch', delay=1,
                      leave=False):
        planes, policy, value = batch_of(game, data, np.arange(start, min(start + batch_size, len(data[2]))))
        predicted_policy, predicted_value = model.predict(planes, batch_size=batch_size, verbose=0)
        predicted_value = predicted_value.reshape(-1)
        policy_loss -= np.sum(policy * np.log(np.clip(predicted_policy, 1e-7, 1)))
        value_loss += np.sum((predicted_value - value) ** 2)
        moves_right += np.sum(predicted_policy.argmax(axis=1) == policy.argmax(axis=1))
        results_right += np.sum(np.sign(predicted_value[value != 0]) == np.sign(value[value != 0]))
        decisive += np.sum(value != 0)
    count = len(data[2])
    return {'policy_loss': float(policy_loss / count), 'value_loss': float(value_loss / count),
            'loss': float((policy_loss + value_loss) / count), 'policy_accuracy': float(moves_right / count),
            'value_accuracy': float(results_right / decisive) if decisive else float('nan')}


def plot_records(records, path):
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot
    from plot import save_figure
    figure, (losses, accuracies) = pyplot.subplots(1, 2, figsize=(12, 4.5))
    epochs = [r['epoch'] for r in records]
    for key, style in (('train_loss', 'o-'), ('loss', 's-'), ('policy_loss', 's--'), ('value_loss', 's:')):
        losses.plot(epochs, [r[key] for r in records], style,
                    label={'train_loss': 'training loss'}.get(key, 'validation ' + key.replace('_', ' ')))
    losses.set(title='Losses', xlabel='epoch', ylabel='loss')
    losses.legend()
    for key in ('policy_accuracy', 'value_accuracy'):
        accuracies.plot(epochs, [100 * r[key] for r in records], 'o-', label=key.replace('_', ' '))
    accuracies.set(title='Validation games: predicting the move and the result', xlabel='epoch', ylabel='%')
    accuracies.legend()
    figure.tight_layout()
    save_figure(figure, path)
    pyplot.close(figure)


# What a run is: its games (moves and results) and settings, so that a checkpoint is taken up only
# by the same run
def run_key(games, settings):
    digest = hashlib.sha256(json.dumps(settings).encode())
    for moves in games:
        digest.update(np.asarray([*moves, 1 << 16, (getattr(moves, 'result', None) or 0) + 1], '<u4').tobytes())
    return digest.hexdigest()


# The checkpoint: the model file as it was after E epochs and B batches of the next
# (records_checkpoint_E-B.keras), written whole before the JSON that names it, then the older one
# removed; a kill at any moment leaves a readable pair
def save_checkpoint(path, model, state):
    place = state['place']
    model_file = f'{os.path.splitext(path)[0]}_{len(state["records"])}-{place["batches"] if place else 0}.keras'
    with atomic_output(model_file) as temporary:
        model.save(temporary)
    write_json(path, {**state, 'model': model_file})
    for old in glob.glob(f'{glob.escape(os.path.splitext(path)[0])}_*.keras'):
        if old != model_file:
            os.remove(old)


def kept_checkpoint(path, run):
    """The checkpoint's state when it is of this run, else None (one of another run is said and left to be replaced)."""
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            state = json.load(f)
        if state['run'] == run and os.path.exists(state['model']) and {'place', 'seconds'} <= state.keys():
            return state
    except (OSError, ValueError, KeyError, TypeError):
        pass
    print(f'{path} is of another run (other games or settings): starting afresh', file=sys.stderr)
    return None


def remove_checkpoint(path):
    for old in [path, *glob.glob(f'{glob.escape(os.path.splitext(path)[0])}_*.keras')]:
        if os.path.exists(old):
            os.remove(old)


@dataclass(frozen=True)
class RecordsTraining:
    """How train_records.py trains: its passes over the games, batch, validation share, first step
    size, the share of the value targets that the records' engine scores make, the moves at the
    start of each game left out, and the share of each target that the model trained further keeps
    from itself as it was (the anchor)."""
    epochs: int = TR_EPOCHS
    batch_size: int = RN_BATCH_SIZE
    validation: float = TR_VALIDATION
    learning_rate: float = TR_LEARNING_RATE
    score_share: float = TR_SCORE_SHARE
    opening: int = TR_OPENING
    anchor: float = TR_ANCHOR


def train_records(game, games, network=NetworkSettings(), training=RecordsTraining(), play_sims=None, seed=None,
                  from_best=False, deepen=0):
    """Train best.h5 on the games of records (read_games'), which then records `play_sims`, the
    simulations the programs that play it search (with `from_best`, `deepen` residual blocks more
    than it had); returns the per-epoch metrics."""
    quiet_keras()
    import keras
    best = model_path(game, 'best.h5')
    if os.path.exists(best) and not from_best:
        raise UserError(f'{best} exists: move it away to train a new network, or add --from-best to train it further')
    if training.anchor and not from_best:
        raise UserError(f'--anchor {training.anchor:g} keeps a trained model near what it was: add --from-best to train '
                        f'{best} further, or leave --anchor out')
    if deepen and not from_best:
        raise UserError(f'--deepen {deepen} adds blocks to a trained model: add --from-best to deepen {best}, '
                        'or give a new network its --blocks')

    # The games, split by game
    rng = np.random.default_rng(seed)
    epochs, batch_size, validation = training.epochs, training.batch_size, training.validation
    held = [is_validation_game(moves, validation) for moves in games]
    valid_games = [moves for moves, held_out in zip(games, held) if held_out]
    if len(valid_games) == len(games):
        raise UserError(f'all {len(games)} games fell in the validation share: give more games or a smaller --validation')
    # the validation games are measured against their results alone, whatever the training's targets
    train = records_to_arrays(game, [moves for moves, held_out in zip(games, held) if not held_out],
                              training.score_share, training.opening)
    valid = records_to_arrays(game, valid_games, opening=training.opening) if valid_games else None
    print(f'{len(games) - len(valid_games)} training games ({len(train[2])} positions), '
          f'{len(valid_games)} validation games ({len(valid[2]) if valid else 0} positions)')

    # A run stopped goes on from its checkpoint; else the network: a new one of the chosen kind, or
    # best.h5 itself
    checkpoint = model_path(game, CHECKPOINT_FILE)
    run = run_key(games, [dataclasses.asdict(network), dataclasses.asdict(training), seed, from_best, deepen])
    kept = kept_checkpoint(checkpoint, run)
    if kept:
        model = keras.models.load_model(kept['model'])  # compiled, with the optimizer's state
        rng.bit_generator.state = kept['rng']
        place = kept['place'] and EpochPlace(**kept['place'])
        print(f'going on from {checkpoint}: {len(kept["records"])} of {epochs} epochs done'
              + (f', and {place.batches} of {epoch_batches(train, batch_size)} batches of the next' if place else ''))
    elif from_best:
        from alphazero.network.model_file import load_model
        model = load_model(best, game)
        if has_margin_head(model):
            raise UserError(f'{best} has a margin head, which records do not train (they give no margins): train it '
                            'with train_cycle.py, or move it away to train a new network on the records')
        if deepen:
            model = deepened(model, game, deepen)
    else:
        if seed is not None:
            keras.utils.set_random_seed(seed)
        model = build_network(game, network)
        print(f'a new network: {describe_network(network)}, {model.count_params():,} parameters')
    if not kept:
        compile_model(model)
        place = None
    # the anchor is best.h5 as the run found it (written over only at the end), on onnxruntime
    anchor = None
    if training.anchor:
        ensure_onnx(game)
        anchor = Anchor(load_network(best, game)[0], training.anchor)
        print(f'anchored: {training.anchor:g} of each target from {best} as it was')

    # Epochs: every training position once, in a random symmetry; then the validation games
    records, metrics_path = (kept['records'] if kept else []), model_path(game, METRICS_FILE)
    start = time.perf_counter() - (kept['seconds'] if kept else 0)
    saved = time.monotonic()

    def keep(place):  # every CHECKPOINT_SECONDS, and after each epoch but the last
        nonlocal saved
        if place is None or time.monotonic() - saved >= CHECKPOINT_SECONDS:
            save_checkpoint(checkpoint, model, {'run': run, 'records': records, 'rng': rng.bit_generator.state,
                                                'place': place and dataclasses.asdict(place),
                                                'seconds': time.perf_counter() - start})
            saved = time.monotonic()
    batches = epoch_batches(train, batch_size)
    with tqdm(total=epochs * batches, initial=len(records) * batches + (place.batches if place else 0),
              desc=f'train on records ({epochs} epochs)', unit='batch') as bar:
        for epoch in range(len(records), epochs):
            model.optimizer.learning_rate.assign(training.learning_rate * TR_DECAY ** epoch)
            train_loss = train_epoch(model, game, train, batch_size, place or EpochPlace.drawn(rng), bar, keep, anchor)
            place = None
            record = {'epoch': epoch + 1, 'seconds': time.perf_counter() - start, 'train_loss': train_loss}
            record.update(measure(model, game, valid) if valid else {})
            records.append(record)
            bar.set_postfix(epoch=epoch + 1, **{k: f'{v:.3f}' for k, v in record.items()
                                                if k in ('train_loss', 'loss', 'policy_accuracy')})
            if epoch + 1 < epochs:
                keep(None)

    # The result: best.h5 and its export, the metrics and their chart; the checkpoint goes
    save_model(model, best, play_sims)
    remove_checkpoint(checkpoint)
    ensure_onnx(game)
    with atomic_output(metrics_path) as temporary:
        with open(temporary, 'w') as f:
            f.writelines(json.dumps(r) + '\n' for r in records)
    if valid:
        plot_records(records, model_path(game, CHART_FILE))
        last = records[-1]
        print(f'validation: move predicted {last["policy_accuracy"]:.1%}, result predicted {last["value_accuracy"]:.1%}, '
              f'loss {last["loss"]:.3f} (policy {last["policy_loss"]:.3f}, value {last["value_loss"]:.3f})')
    flag = f' --game {game.NAME}'
    print(f'wrote {best}, its .onnx, {metrics_path} and {CHART_FILE}; continue with self-play: python train_cycle.py{flag}')
    return records


def parse_args(argv=None):
    parser = ArgumentParser(description='Train a network on game records (Othello: WTHOR .wtb, transcripts '
                                        'in .txt or .csv; full shogi: .csa, .kif, .usi) and write it as the game\'s '
                                        'best.h5.')
    parser.add_argument('files', nargs='+', metavar='FILE', type=file_path, help='record files')
    parser.add_argument('--game', choices=RECORD_GAMES, default='othello8',
                        help='othello8, othello8planes (8 input planes) or shogi9 (default: %(default)s)')
    parser.add_argument('--epochs', type=whole_number(1), default=TR_EPOCHS, help='passes over the training games (default: %(default)s)')
    parser.add_argument('--batch-size', type=whole_number(1, MAX_BATCH), default=RN_BATCH_SIZE, help='(default: %(default)s)')
    parser.add_argument('--validation', type=real_number(0, 0.99), default=TR_VALIDATION,
                        help='share of the games kept for validation (default: %(default)s)')
    parser.add_argument('--from-best', action='store_true', help="train the game's existing best.h5 further")
    parser.add_argument('--learning-rate', type=real_number(1e-7, 1), default=TR_LEARNING_RATE, metavar='LR',
                        help="Adam's learning rate in the first epoch, times %s every epoch; with --from-best a "
                             "smaller one changes the trained model less (default: %%(default)s)" % TR_DECAY)
    parser.add_argument('--score-share', type=real_number(0, 1), default=TR_SCORE_SHARE, metavar='SHARE',
                        help="share of each position's value target taken from the score its record's engine gave "
                             "it (CSA '** lines; dlshogi's val_lambda is 0.333), the rest from the game's result "
                             '(default: %(default)s)')
    parser.add_argument('--opening', type=whole_number(0, 60), default=TR_OPENING, metavar='K',
                        help='leave out the first K moves of each game, neither trained on nor measured: the random '
                             'opening of records made with make_records.py --opening K (default: %(default)s)')
    parser.add_argument('--anchor', type=real_number(0, 0.99), default=TR_ANCHOR, metavar='SHARE',
                        help='with --from-best: each target is SHARE of what best.h5 said of the position before this '
                             "run (its policy and value) and the rest the record's move and result, so that a larger "
                             '--learning-rate learns the records without unlearning what best.h5 knew (default: '
                             '%(default)s)')
    parser.add_argument('--deepen', type=whole_number(0, MAX_DEPTH), default=0, metavar='N',
                        help="with --from-best: add N residual blocks after best.h5's last, each starting as the "
                             'identity, so that the model plays as before and learns with more capacity (default: '
                             '%(default)s)')
    parser.add_argument('--seed', type=seed, help='random seed of the split, the network and the symmetries')
    parser.add_argument('--min-rating', type=real_number(-1e6, 1e6), metavar='R',
                        help="keep only the games whose two players a floodgate CSA file rates R or more (the shogi "
                             "Transformer article: 3800) (default: every game)")
    add_settings_flags(parser, NetworkSettings, only=('network', 'filters', 'blocks', 'width', 'layers', 'heads'))
    add_settings_flags(parser, PlaySettings)
    args = parse_game_args(parser, argv, ('network', 'play'))  # the game's network and play by default
    check_network(load_game(args.game), settings_of(NetworkSettings, args))
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    hold_run_folder(game)
    games = read_games(game, args.files, args.min_rating)
    training = RecordsTraining(args.epochs, args.batch_size, args.validation, args.learning_rate, args.score_share,
                               args.opening, args.anchor)
    train_records(game, games, settings_of(NetworkSettings, args), training, args.play_sims, args.seed, args.from_best,
                  args.deepen)


if __name__ == '__main__':
    run(main)
