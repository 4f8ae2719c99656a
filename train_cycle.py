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
import dataclasses
import json
import os
import time

from alphazero.cli.flags import add_engine_flag, add_run_flags, add_settings_flags, settings_of
from alphazero.cli.run import ArgumentParser, run
from alphazero.cli.settings import ALL_PURPOSES, parse_game_args
from alphazero.data.history import history_path
from alphazero.data.run_folder import hold_run_folder
from alphazero.errors import UserError
from alphazero.files import atomic_output, copy_file, write_json
from alphazero.game.paths import data_dir, model_path
from alphazero.game.registry import add_game_flag, game_flag, load_game
from alphazero.limits import check_network, check_samples, check_self_play, file_path
from alphazero.network.load import load_network
from alphazero.network.model_file import load_model
from alphazero.network.onnx_export import ensure_onnx, file_sha256
from alphazero.network.runtimes import use_device
from alphazero.play.workers import add_worker_flags, worker_pool
from alphazero.settings import (
    CycleSettings,
    EvaluationSettings,
    ExplorationSettings,
    NetworkSettings,
    PlaySettings,
    Run,
    RunContext,
    SearchSettings,
    SelfPlaySettings,
    TrainingSettings,
)
from dual_network import describe_network, dual_network
from evaluate_best_player import evaluate_best_player
from evaluate_network import KEEP_MESSAGE, evaluate_network, update_best_player
from plot import METRICS_FILE, plot_metrics, read_metrics
from self_play import self_play
from train_network import train_network

# Parameters
TC_CYCLES = CycleSettings.cycles  # training cycles: 10 (the rest of the cycle's: alphazero/settings.py's CycleSettings)
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


# --backend int8 is for self-play (quantized again each cycle); the gate and the evaluations judge
# the models in float32, as they are kept
def judged_on(backend):
    return 'auto' if backend == 'int8' else backend


def parse_args(argv=None):
    parser = ArgumentParser(description='Train an AlphaZero player: self-play, training and evaluation, '
                                        'cycle after cycle. With no flags it runs the book\'s settings; '
                                        'run the same command again to resume an interrupted run.')
    add_game_flag(parser)
    parser.add_argument('--preset', choices=sorted(PRESETS), default='book',
                        help='a set of defaults: book (the book\'s recipe) or fast (small network and the '
                             'improvements) (default: %(default)s)')
    parser.add_argument('--start-from', type=file_path, metavar='MODEL',
                        help='a new run starts from this Keras model (for example pretrained/othello8/best.h5, to '
                             'train the shipped model further) instead of a new network; a run that has its '
                             'best.h5 goes on from that')
    add_engine_flag(parser)
    add_run_flags(parser)
    add_worker_flags(parser)
    for settings_class in (CycleSettings, SelfPlaySettings, SearchSettings, ExplorationSettings, TrainingSettings,
                           NetworkSettings, PlaySettings):
        add_settings_flags(parser, settings_class)
    add_settings_flags(parser, EvaluationSettings, only=('opening', 'engine_games'))

    # The game's defaults and then the preset's replace the book's, then the command line is read over them
    args = parse_game_args(parser, argv, ALL_PURPOSES, PRESETS)
    if args.eval_games < (1 if args.gate else 0):
        raise UserError('--eval-games must be at least 1 (0 leaves them out, with --no-gate)')
    if args.backend == 'onnx':
        raise UserError('--backend onnx is chosen automatically here once best.onnx exists; use auto or keras')
    game = load_game(args.game)
    check_run_memory(game, run_settings(args))
    use_device(args.device)
    return args


def run_settings(args):
    """The run's settings objects, from the parsed flags."""
    return Run(settings_of(NetworkSettings, args), settings_of(SearchSettings, args),
               settings_of(SelfPlaySettings, args), settings_of(ExplorationSettings, args),
               settings_of(TrainingSettings, args), settings_of(PlaySettings, args),
               settings_of(EvaluationSettings, args, engines=tuple(args.engine), games=args.best_games,
                           parallel=EvaluationSettings.parallel, exact=False),
               settings_of(CycleSettings, args))


# What the run will hold in memory: its network, its self-play stage and its training samples
def check_run_memory(game, settings):
    check_network(game, settings.network)
    check_self_play(game, settings.self_play.games, settings.search.sims, settings.self_play.parallel)
    check_samples(game, settings.training.samples)


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
def run_cycle(game, context, settings, cycle, training, previous_exact=None):
    progress_path = model_path(game, PROGRESS_FILE)
    progress = read_progress(progress_path, cycle)
    seed, pool, backend = context.seed_of(cycle), context.pool, context.backend

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
        _, stats = self_play(game, settings.self_play, settings.search, settings.exploration, backend=backend,
                             seed=seed, pool=pool, path=pending)
        path = history_path(data_dir(game))
        print(f'{path}: {stats["positions"]} positions, {stats["positions_per_second"]:.0f} positions/s')
        return dict(stats, path=path)
    played = stage('self_play', play)
    if os.path.exists(pending):
        os.replace(pending, played['path'])

    # Train the network (the compiled model is kept from cycle to cycle in `training`)
    stage('train', lambda: train_network(game, settings.training, settings.play, seed=seed, keep=training))

    # Evaluate the new network against the best one (with the gate off, games that decide nothing
    # can be left out: --eval-games 0)
    def gate():
        if not settings.cycle.eval_games:
            return {'average': None, 'better': False}
        better, average = evaluate_network(game, settings.cycle.eval_games, settings.search, backend=judged_on(backend),
                                           seed=seed, update=False, pool=pool)
        if not settings.cycle.gate:
            print('the gate is off (--no-gate): the latest network becomes the best player whatever it scored')
        elif not better:
            print(KEEP_MESSAGE)
        return {'average': average, 'better': better}
    evaluation = stage('evaluate', gate)

    # When it is better (or with --no-gate, always): it becomes the best player, is exported, and
    # meets the fixed opponents (every --best-every cycles, and in the last)
    if evaluation['better'] or not settings.cycle.gate:
        def promote():
            if file_sha256(model_path(game, 'latest.h5')) != file_sha256(model_path(game, 'best.h5')):
                update_best_player(game)
            ensure_onnx(game)
            if (cycle + 1) % settings.cycle.best_every and cycle + 1 < settings.cycle.cycles:
                return None
            return evaluate_best_player(game, settings.search, settings.evaluation, backend=judged_on(backend), seed=seed,
                                        pool=pool)
        stage('best', promote)

    # The exact strength of the best player, every cycle, for games small enough to solve (measured
    # again only when the best player changed)
    if game.SOLVABLE:
        from alphazero.play.exact import describe

        def judge():
            if previous_exact and 'best' not in progress:
                return previous_exact
            from alphazero.play.exact import exact_strength
            network, _ = load_network(model_path(game, 'best.h5'), game, judged_on(backend))
            return exact_strength(game, network, settings.search.sims)
        print(describe(stage('exact', judge)))
    return progress


# What a killed run left behind besides its temporary files (hold_run_folder removes those): the
# progress of the cycle that metrics.jsonl recorded last (killed before its charts were drawn);
# returns True when the charts need drawing
def clean_up(progress_path, finished_cycles):
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


def check_start(game, source):
    """Refuse, before the run folder is touched, a --start-from that is not a Keras model of `game`."""
    if not source.endswith('.h5'):
        raise UserError(f'--start-from {source}: give the Keras model (.h5); training needs its weights, '
                        'which an ONNX export does not keep in a form Keras reads')
    load_model(source, game)  # a one-line error for a missing file or another game's model


# Why the run stops before its next cycle (--until-perfect, --minutes, --cpu-minutes), or None
def stop_reason(settings, records):
    if not records:
        return None
    last = records[-1]
    if settings.until_perfect and (last.get('exact') or {}).get('perfect_play'):
        return 'the best player plays perfectly: stopping (--until-perfect)'
    if settings.minutes and last['elapsed'] >= settings.minutes * 60:
        return f'{last["elapsed"] / 60:.1f} minutes of training done: stopping (--minutes {settings.minutes:g})'
    if settings.cpu_minutes and last.get('cpu_elapsed', 0.0) >= settings.cpu_minutes * 60:
        return (f'{last["cpu_elapsed"] / 60:.1f} processor minutes of training done: stopping '
                f'(--cpu-minutes {settings.cpu_minutes:g})')
    return None


def main():
    args = parse_args()
    settings = run_settings(args)
    game = load_game(args.game)
    best = model_path(game, 'best.h5')
    metrics_path = model_path(game, METRICS_FILE)
    progress_path = model_path(game, PROGRESS_FILE)
    if args.start_from and not os.path.exists(best):
        check_start(game, args.start_from)
    hold_run_folder(game)  # one run per folder

    # Create the dual network (or copy the model to start from), and its ONNX copy for fast self-play
    if os.path.exists(best):
        print(f'continuing from {best} (the network flags and --start-from apply only to a new run)')
    elif args.start_from:
        copy_file(args.start_from, best)  # the new run's first best player
        print(f'starting from {args.start_from} (copied to {best}); its network is kept, the network flags are not used')
    else:
        dual_network(game, settings.network)
        print(f'created {best} ({describe_network(settings.network)})')
    ensure_onnx(game)

    records = read_metrics(metrics_path)
    if clean_up(progress_path, len(records)):
        plot_metrics(records, os.path.dirname(metrics_path))
    training = {}  # the compiled model, kept from cycle to cycle
    if records:
        print(f'{len(records)} cycles done before (from {metrics_path})')
    cycles, window = settings.cycle.cycles, settings.training.window
    with worker_pool(args) or contextlib.nullcontext() as pool:  # Ray workers for self-play, with --workers
        for cycle in range(len(records), cycles):
            reason = stop_reason(settings.cycle, records)
            if reason:
                print(reason)
                break
            print(f'Train {cycle} (cycle {cycle + 1} of {cycles}) ====================')
            # A trained model would learn its first cycle's games by heart: that cycle fills the window
            this_cycle = settings
            if args.start_from and cycle == 0 and window > 1:
                games = settings.self_play.games
                this_cycle = dataclasses.replace(settings, self_play=dataclasses.replace(settings.self_play,
                                                                                         games=games * window))
                print(f'the run starts from a trained model: this cycle plays a whole window\'s games, {games * window} '
                      f'(--games {games} x --window {window})')
            progress = run_cycle(game, RunContext(args.backend, args.seed, args.device, pool), this_cycle, cycle,
                                 training, records[-1].get('exact') if records else None)

            # The cycle is done: record it, redraw the charts, forget its progress
            records.append(metrics_record(progress, records[-1]['elapsed'] if records else 0.0,
                                          records[-1].get('cpu_elapsed', 0.0) if records else 0.0, settings.cycle.gate))
            if settings.cycle.keep_every and len(records) % settings.cycle.keep_every == 0:
                keep_best(game, len(records))
            append_metrics(metrics_path, records[-1])
            plot_metrics(records, os.path.dirname(metrics_path))
            os.remove(progress_path)
            print('time: ' + ', '.join(f'{name} {seconds:.1f} s' for name, seconds in progress['seconds'].items()))

    # Where the results are, and how to use them
    flag = game_flag(game)
    print(f'\nbest model: {best} (Keras) and {best[:-3]}.onnx (ONNX); it records '
          f'{settings.play.play_sims or settings.search.sims} simulations per move, which the programs that play it '
          'use unless given --sims')
    print(f'metrics:    {metrics_path}, charts: {os.path.dirname(metrics_path)}/chart_*.png '
          f'(python plot.py{flag} redraws them)')
    if game.has_window:
        print(f'play it:    python human_play.py{flag}   (or --text in a terminal)')
    else:  # the terminal, or a shogi GUI
        print(f'play it:    python human_play.py{flag} --text   (or usi_engine.py{flag} in a shogi GUI: docs/shogi.md)')


def command():
    """The installed console command (pyproject.toml's [project.scripts]): main() with one-line errors."""
    run(main)


if __name__ == '__main__':
    command()
