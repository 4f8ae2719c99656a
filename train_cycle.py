# ====================
# The training cycle (the book's train_cycle.py)
# ====================
# Create the network, then repeat: self-play -> train -> evaluate against the best player (and, when
# the best player changed, export it to ONNX and evaluate it against the fixed opponents).
#
# Beyond the book: each finished stage is recorded in cycle.json, so running the same command again
# after an interruption continues where it stopped; each finished cycle appends one record to
# metrics.jsonl and redraws the charts (both beside best.h5). A kill at any moment leaves what an
# uninterrupted run leaves: a stage's files go into place only after cycle.json records it.

import contextlib
import json
import os
import time

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.files import atomic_output, copy_file, write_json
from alphazero.data.history import history_path
from alphazero.network.model_file import load_model
from alphazero.data.run_folder import remove_stale_temporaries
from alphazero.cli.flags import (add_engine_flags, add_exploration_flags, add_network_flags, add_play_flag, add_search_flags, add_training_flags, check_network_flags, network_arguments, search_options)
from alphazero.game.registry import add_game_flag, game_flag, load_game
from alphazero.game.paths import data_dir, model_path
from alphazero.network.onnx_export import file_sha256
from alphazero.network.load import load_network
from alphazero.network.runtimes import use_device
from alphazero.limits import (MAX_GAMES, MAX_PARALLEL, check_network, check_samples, check_self_play, file_path, real_number, whole_number)
from alphazero.network.onnx_export import ensure_onnx
from alphazero.cli.settings import ALL_PURPOSES, parse_game_args
from alphazero.data.training import STEPS_PER_EXECUTION
from alphazero.play.workers import add_worker_flags, worker_pool
from dual_network import (DN_FILTERS, DN_HEADS, DN_LAYERS, DN_NETWORK, DN_RESIDUAL_NUM, DN_WIDTH, describe_network,
                          dual_network)
from evaluate_best_player import EP_ENGINE_GAME_COUNT, EP_GAME_COUNT, EP_OPENING, evaluate_best_player
from evaluate_network import EN_GAME_COUNT, KEEP_MESSAGE, evaluate_network, update_best_player
from plot import METRICS_FILE, plot_metrics, read_metrics
from pv_mcts import PV_EVALUATE_COUNT
from self_play import (SP_DIRICHLET_ALPHA, SP_DIRICHLET_WEIGHT, SP_GAME_COUNT, SP_GREEDY_AFTER, SP_PARALLEL,
                       SP_RANDOM_OPENING, self_play)
from train_network import RN_EPOCHS, RN_LEARNING_RATE, RN_SAMPLES, RN_WINDOW, train_network

# Parameters
TC_CYCLES = 10          # training cycles
PROGRESS_FILE = 'cycle.json'  # the unfinished cycle's finished stages
KEPT_DIR = 'kept'       # beside best.h5: copies of the best model every --keep-every cycles

# Presets: named sets of defaults; flags given on the command line still win
PRESETS = {
    'book': {},
    # A small network with root noise, symmetries, a window of recent data and no gate (docs/strength.md:
    # what it reaches and how fast)
    'fast': {'filters': 32, 'blocks': 3, 'games': 200, 'epochs': 5, 'sims': 400, 'dirichlet': 0.3,
             'random_opening': 6, 'greedy_after': 2, 'symmetries': True, 'window': 4, 'gate': False,
             'cycles': 20, 'until_perfect': True},
}


def parse_args(argv=None):
    parser = ArgumentParser(description='Train an AlphaZero player: self-play, training and evaluation, '
                                        'cycle after cycle. With no flags it runs the book\'s settings; '
                                        'run the same command again to resume an interrupted run.')
    add_game_flag(parser)
    parser.add_argument('--preset', choices=sorted(PRESETS), default='book',
                        help='a set of defaults: book (the book\'s recipe) or fast (small network and the '
                             'improvements) (default: %(default)s)')
    parser.add_argument('--cycles', type=whole_number(1), default=TC_CYCLES, help='cycles in all, counting finished ones (default: %(default)s)')
    parser.add_argument('--minutes', type=real_number(0.01, 1e6), metavar='M',
                        help='also stop once the finished cycles took M minutes in all, counting resumed runs '
                             '(the cycle under way is finished first)')
    parser.add_argument('--cpu-minutes', type=real_number(0.01, 1e6), metavar='M',
                        help='the same in processor time used by this process, which other programs on a busy '
                             'machine do not count against it (for comparing recipes at equal CPU time)')
    parser.add_argument('--games', type=whole_number(1, MAX_GAMES), default=SP_GAME_COUNT, help='self-play games per cycle (default: %(default)s)')
    parser.add_argument('--epochs', type=whole_number(1), default=RN_EPOCHS, help='training epochs per cycle (default: %(default)s)')
    parser.add_argument('--eval-games', type=whole_number(0, MAX_GAMES), default=EN_GAME_COUNT,
                        help='games of latest vs best per cycle; 0 leaves them out when the gate is off '
                             '(default: %(default)s)')
    parser.add_argument('--best-games', type=whole_number(1, MAX_GAMES), default=EP_GAME_COUNT,
                        help='games of best vs each fixed opponent (default: %(default)s)')
    parser.add_argument('--best-every', type=whole_number(1), default=1, metavar='K',
                        help='play the fixed opponents every K cycles and in the last one (default: %(default)s)')
    add_engine_flags(parser, EP_ENGINE_GAME_COUNT, EP_OPENING)
    add_worker_flags(parser)
    parser.add_argument('--parallel', type=whole_number(1, MAX_PARALLEL), default=SP_PARALLEL, help='self-play games played at once (default: %(default)s)')
    parser.add_argument('--no-gate', dest='gate', action='store_false',
                        help='the latest network always becomes the best player, as in the AlphaZero paper '
                             '(the gate games are still played and recorded)')
    parser.add_argument('--keep-every', type=whole_number(0), default=0, metavar='K',
                        help=f'keep a copy of the best model every K cycles ({KEPT_DIR}/best-cycleNNNN.h5 beside '
                             'best.h5), to measure later what more training gained; 0 keeps none (default: %(default)s)')
    parser.add_argument('--start-from', type=file_path, metavar='MODEL',
                        help='a new run starts from this Keras model (for example pretrained/othello8/best.h5, to '
                             'train the shipped model further) instead of a new network; a run that has its '
                             'best.h5 goes on from that')
    parser.add_argument('--until-perfect', action='store_true',
                        help='stop once the best player plays perfectly (games small enough to solve)')
    add_network_flags(parser, DN_NETWORK, DN_FILTERS, DN_RESIDUAL_NUM, DN_WIDTH, DN_LAYERS, DN_HEADS, margin_head=True)
    add_search_flags(parser, PV_EVALUATE_COUNT, PV_EVALUATE_COUNT)
    add_exploration_flags(parser, SP_DIRICHLET_ALPHA, SP_RANDOM_OPENING, SP_GREEDY_AFTER, SP_DIRICHLET_WEIGHT)
    add_training_flags(parser, RN_WINDOW, RN_SAMPLES, RN_LEARNING_RATE, STEPS_PER_EXECUTION)
    add_play_flag(parser)

    # The game's defaults and then the preset's replace the book's, then the command line is read over them
    args = parse_game_args(parser, argv, ALL_PURPOSES, PRESETS)
    if args.eval_games < (1 if args.gate else 0):
        raise UserError('--eval-games must be at least 1 (0 leaves them out, with --no-gate)')
    check_network_flags(args)
    if args.backend == 'onnx':
        raise UserError('--backend onnx is chosen automatically here once best.onnx exists; use auto or keras')
    game = load_game(args.game)
    check_run_memory(game, args)
    use_device(args.device)
    return args


# What the run will hold in memory: its network, its self-play stage and its training samples
def check_run_memory(game, args):
    check_network(game, args)
    check_self_play(game, args.games, args.sims, args.parallel)
    check_samples(game, args.samples)


# ----- what survives an interruption -----
def read_progress(path, cycle):
    """The finished stages of `cycle` ({'cycle': cycle} when the file is missing or belongs to another cycle)."""
    try:
        with open(path) as f:
            progress = json.load(f)
    except FileNotFoundError:
        return {'cycle': cycle}
    except (OSError, ValueError) as error:
        raise UserError(f'{path} is damaged ({error}); delete it to redo the unfinished cycle from its start.') from None
    if not isinstance(progress, dict):
        raise UserError(f'{path} is not a record of finished stages; delete it to redo the unfinished cycle from its start.')
    return progress if progress.get('cycle') == cycle else {'cycle': cycle}


def append_metrics(path, record):
    """Add a line to the metrics file by rewriting it whole, so a kill never leaves half a line."""
    old = open(path).read() if os.path.exists(path) else ''
    with atomic_output(path) as temporary:
        with open(temporary, 'w') as f:
            f.write(old + json.dumps(record) + '\n')


# ----- one cycle, stage by stage; a finished stage is skipped when resuming -----
def run_cycle(game, args, cycle, progress_path, training, games, previous_exact=None, pool=None):
    progress = read_progress(progress_path, cycle)
    seed = None if args.seed is None else args.seed + cycle

    def stage(name, work):
        if name not in progress:
            start, processor_start = time.perf_counter(), time.process_time()
            progress[name] = work()
            progress.setdefault('seconds', {})[name] = time.perf_counter() - start
            progress.setdefault('cpu_seconds', {})[name] = time.process_time() - processor_start
            write_json(progress_path, progress)
        return progress[name]

    # Self-play, into a hidden file that becomes the cycle's history file once cycle.json records
    # the stage (a kill before that leaves a hidden file that the cycle's self-play writes again,
    # never a second copy in the training window)
    pending = os.path.join(data_dir(game), f'.cycle{cycle + 1:04d}.pending.npz')

    def play():
        _, stats = self_play(game, games, args.sims, parallel=args.parallel, cache=args.cache,
                             backend=args.backend, seed=seed, dirichlet_alpha=args.dirichlet,
                             opening_moves=args.random_opening, greedy_after=args.greedy_after, peek=args.peek,
                             pool=pool, path=pending, options=search_options(args), q_ratio=args.q_ratio)
        path = history_path(data_dir(game))
        print(f'{path}: {stats["positions"]} positions, {stats["positions_per_second"]:.0f} positions/s')
        return dict(stats, path=path)
    played = stage('self_play', play)
    if os.path.exists(pending):
        os.replace(pending, played['path'])

    # Train the network (the compiled model is kept from cycle to cycle in `training`)
    stage('train', lambda: train_network(game, args.epochs, window=args.window, symmetries=args.symmetries,
                                         samples=args.samples, learning_rate=args.learning_rate, seed=seed,
                                         keep=training, play_sims=args.play_sims))

    # Evaluate the new network against the best one (with the gate off, games that decide nothing
    # can be left out: --eval-games 0)
    def gate():
        if not args.eval_games:
            return {'average': None, 'better': False}
        better, average = evaluate_network(game, args.eval_games, args.sims, cache=args.cache, backend=args.backend,
                                           seed=seed, update=False, pool=pool, options=search_options(args))
        if not args.gate:
            print('the gate is off (--no-gate): the latest network becomes the best player whatever it scored')
        elif not better:
            print(KEEP_MESSAGE)
        return {'average': average, 'better': better}
    evaluation = stage('evaluate', gate)

    # When it is better (or with --no-gate, always): it becomes the best player, is exported, and
    # meets the fixed opponents (every --best-every cycles, and in the last)
    if evaluation['better'] or not args.gate:
        def promote():
            if file_sha256(model_path(game, 'latest.h5')) != file_sha256(model_path(game, 'best.h5')):
                update_best_player(game)
            ensure_onnx(game)
            if (cycle + 1) % args.best_every and cycle + 1 < args.cycles:
                return None
            return evaluate_best_player(game, args.best_games, args.sims, cache=args.cache, backend=args.backend,
                                        seed=seed, exact=False,
                                        engines=args.engine, engine_game_count=args.engine_games,
                                        opening=args.opening, pool=pool, options=search_options(args))
        stage('best', promote)

    # The exact strength of the best player, every cycle, for games small enough to solve (measured
    # again only when the best player changed)
    if game.SOLVABLE:
        from alphazero.play.exact import describe

        def judge():
            if previous_exact and 'best' not in progress:
                return previous_exact
            from alphazero.search.evaluator import Evaluator
            from alphazero.play.exact import exact_strength
            network, _ = load_network(model_path(game, 'best.h5'), game, args.backend)
            return exact_strength(game, Evaluator(network), args.sims)
        print(describe(stage('exact', judge)))
    return progress


# What a killed run left behind: temporary files, and the progress of the cycle that metrics.jsonl
# recorded last (killed before its charts were drawn); returns True when the charts need drawing
def clean_up(game, progress_path, finished_cycles):
    remove_stale_temporaries(game)
    last = finished_cycles - 1
    if finished_cycles and read_progress(progress_path, last) != {'cycle': last}:
        os.remove(progress_path)
        return True
    return False


# A copy of the best model as it was after `cycles` cycles (--keep-every)
def keep_best(game, cycles):
    kept = model_path(game, os.path.join(KEPT_DIR, f'best-cycle{cycles:04d}.h5'))
    copy_file(model_path(game, 'best.h5'), kept)
    print(f'kept a copy of the best model: {kept}')


def metrics_record(progress, seconds_before, cpu_seconds_before, gate):
    stats, train, evaluation = progress['self_play'], progress['train'], progress['evaluate']
    return {
        'cycle': progress['cycle'] + 1,
        'seconds': progress['seconds'],
        'elapsed': seconds_before + sum(progress['seconds'].values()),
        # processor time of this process (all its threads), which a busy machine does not inflate
        'cpu_elapsed': cpu_seconds_before + sum(progress.get('cpu_seconds', {}).values()),
        'games': stats['games'], 'positions': stats['positions'],
        'positions_per_second': stats['positions_per_second'], 'cache_hit_rate': stats['cache_hit_rate'],
        'samples': train['samples'], 'loss': train['loss'], 'policy_loss': train['pi_loss'], 'value_loss': train['v_loss'],
        'margin_loss': train.get('margin_loss'), 'learning_rate': train.get('learning_rate'),
        'gate_score': evaluation['average'], 'gate': gate, 'best_changed': 'best' in progress,
        'scores': progress.get('best'), 'exact': progress.get('exact'),
    }


def start_from(game, source, best):
    """Copy a trained Keras model of `game` into place as the new run's first best player."""
    if not source.endswith('.h5'):
        raise UserError(f'--start-from {source}: give the Keras model (.h5); training needs its weights, '
                        'which an ONNX export does not keep in a form Keras reads')
    load_model(source, game)  # a one-line error for a missing file or another game's model
    copy_file(source, best)


def main():
    args = parse_args()
    game = load_game(args.game)
    best = model_path(game, 'best.h5')
    metrics_path = model_path(game, METRICS_FILE)
    progress_path = model_path(game, PROGRESS_FILE)

    # Create the dual network (or copy the model to start from), and its ONNX copy for fast self-play
    if os.path.exists(best):
        print(f'continuing from {best} (the network flags and --start-from apply only to a new run)')
    elif args.start_from:
        start_from(game, args.start_from, best)
        print(f'starting from {args.start_from} (copied to {best}); its network is kept, the network flags are not used')
    else:
        dual_network(game, **network_arguments(args))
        print(f'created {best} ({describe_network(**network_arguments(args))})')
    ensure_onnx(game)

    records = read_metrics(metrics_path)
    if clean_up(game, progress_path, len(records)):
        plot_metrics(records, os.path.dirname(metrics_path))
    training = {}  # the compiled model, kept from cycle to cycle
    if records:
        print(f'{len(records)} cycles done before (from {metrics_path})')
    with worker_pool(args) or contextlib.nullcontext() as pool:  # Ray workers for self-play, with --workers
        for cycle in range(len(records), args.cycles):
            if args.until_perfect and records and (records[-1].get('exact') or {}).get('perfect_play'):
                print('the best player plays perfectly: stopping (--until-perfect)')
                break
            if args.minutes and records and records[-1]['elapsed'] >= args.minutes * 60:
                print(f'{records[-1]["elapsed"] / 60:.1f} minutes of training done: stopping (--minutes {args.minutes:g})')
                break
            if args.cpu_minutes and records and records[-1].get('cpu_elapsed', 0.0) >= args.cpu_minutes * 60:
                print(f'{records[-1]["cpu_elapsed"] / 60:.1f} processor minutes of training done: stopping '
                      f'(--cpu-minutes {args.cpu_minutes:g})')
                break
            print(f'Train {cycle} (cycle {cycle + 1} of {args.cycles}) ====================')
            # A trained model would learn its first cycle's games by heart: that cycle fills the window
            games = args.games
            if args.start_from and cycle == 0 and args.window > 1:
                games = args.games * args.window
                print(f'the run starts from a trained model: this cycle plays a whole window\'s games, {games} '
                      f'(--games {args.games} x --window {args.window})')
            progress = run_cycle(game, args, cycle, progress_path, training, games,
                                 records[-1].get('exact') if records else None, pool)

            # The cycle is done: record it, redraw the charts, forget its progress
            records.append(metrics_record(progress, records[-1]['elapsed'] if records else 0.0,
                                          records[-1].get('cpu_elapsed', 0.0) if records else 0.0, args.gate))
            if args.keep_every and len(records) % args.keep_every == 0:
                keep_best(game, len(records))
            append_metrics(metrics_path, records[-1])
            plot_metrics(records, os.path.dirname(metrics_path))
            os.remove(progress_path)
            print('time: ' + ', '.join(f'{name} {seconds:.1f} s' for name, seconds in progress['seconds'].items()))

    # Where the results are, and how to use them
    flag = game_flag(game)
    print(f'\nbest model: {best} (Keras) and {best[:-3]}.onnx (ONNX); it records {args.play_sims or args.sims} '
          f'simulations per move, which the programs that play it use unless given --sims')
    print(f'metrics:    {metrics_path}, charts: {os.path.dirname(metrics_path)}/chart_*.png '
          f'(python plot.py{flag} redraws them)')
    if game.has_window:
        print(f'play it:    python human_play.py{flag}   (or --text in a terminal)')
    else:  # the terminal, or a shogi GUI
        print(f'play it:    python human_play.py{flag} --text   (or usi_engine.py{flag} in a shogi GUI: docs/shogi.md)')


if __name__ == '__main__':
    run(main)
