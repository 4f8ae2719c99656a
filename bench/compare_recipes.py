"""Strength against CPU-minutes of training runs made with different recipes (issue: more strength
per CPU-hour). Each run is a folder where `train_cycle.py --cpu-minutes M --keep-every 1 ...` (or
--minutes on a core of its own) ran, pinned to one core; its name is RECIPE-sSEED. At each minute
mark (processor minutes when the run recorded them, else wall-clock minutes) the model that run had
then (the last kept model whose cycle ended by the mark) is measured, if the run went on past the
mark (a run stopped early has no model for the marks it did not reach):
- othello8: 40 games (20 openings of 4 moves, each with both colours) against each GTP engine given;
- connect4: the share of bench/connect4_positions.json where its search keeps the solved result,
  and where its policy alone does.
Every model plays with the book's search (PUCT, temperature 0) at --sims, whatever its recipe, so
the figures compare networks. Results go to --out (JSON, kept across runs: a measured model is not
measured again) and a chart of strength against minutes per recipe to --chart.

Run: .venv/bin/python bench/compare_recipes.py --game othello8 --engine "/usr/games/gtp-rhino -l 1" \
        --out docs/recipes/othello8.json --chart docs/recipes/othello8.png RUN_DIR [RUN_DIR ...]
"""
import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))  # connect4_accuracy.py beside this file
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

from alphazero.errors import UserError
from alphazero.cli.run import run  # noqa: E402
from alphazero.files import atomic_output, write_json
from alphazero.play.resumable import held_results  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402
from alphazero.limits import engine_command  # noqa: E402
from alphazero.engines.players import opponent_name  # noqa: E402
from alphazero.settings import EvaluationSettings, SearchSettings  # noqa: E402

MARKS = (10, 20, 30)  # minutes of training at which each run's model is measured


def run_models(directory, game, marks):
    """{mark: (kept model path, cycles, minutes)} of a run folder: the model it had at each mark."""
    model_dir = os.path.join(directory, 'runs', game.NAME, 'model')
    try:
        with open(os.path.join(model_dir, 'metrics.jsonl')) as f:
            records = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as error:
        raise UserError(f'{directory} has no readable metrics.jsonl ({error}): is it a train_cycle.py run of {game.NAME}?') from None
    clock = 'cpu_elapsed' if records and all('cpu_elapsed' in r for r in records) else 'elapsed'
    models = {}
    for mark in marks:
        done = [r for r in records if r[clock] <= mark * 60 + 1e-9]
        if not done or records[-1][clock] < mark * 60:
            continue
        cycles = done[-1]['cycle']
        path = os.path.join(model_dir, 'kept', f'best-cycle{cycles:04d}.h5')
        if not os.path.exists(path):
            raise UserError(f'{path} is missing: the runs must keep every cycle\'s model (--keep-every 1)')
        models[mark] = (path, cycles, done[-1][clock] / 60, clock)
    return models


def recipe_of(directory):
    """(recipe, seed) from a run folder named RECIPE-sSEED."""
    match = re.fullmatch(r'(.+)-s(\d+)', os.path.basename(os.path.normpath(directory)))
    if not match:
        raise UserError(f'{directory}: name run folders RECIPE-sSEED, for example othello8-gumbel-s1')
    return match.group(1), int(match.group(2))


def measure(game, path, args):
    if game.NAME == 'connect4':
        from connect4_accuracy import accuracy, read_positions
        from alphazero.network.load import load_network
        network, _ = load_network(path, game)
        result = accuracy(network, read_positions(), args.sims)
        return {'solved positions kept (search)': result['search'], 'solved positions kept (policy)': result['policy']}
    from evaluate_best_player import evaluate_best_player
    evaluation = EvaluationSettings(games=1, engines=tuple(args.engine), engine_games=args.games, opponents=(),
                                    exact=False, opening=4)
    scores = evaluate_best_player(game, SearchSettings(sims=args.sims), evaluation, path=path)
    return {opponent_name(command): scores[command]['all'] for command in args.engine}


def summary(results):
    """{recipe: {measure: {mark: [values over seeds]}}}. Runs timed in wall-clock minutes (older runs,
    on a core shared with other work) are a recipe of their own: they had less processor time. So are
    the runs of each --batch: a processor minute does more work on a machine doing less else."""
    table = {}
    for entry in results['runs'].values():
        for mark, measured in entry['marks'].items():
            recipe = entry['recipe'] if measured['clock'] == 'cpu_elapsed' else f'{entry["recipe"]}, wall-clock minutes'
            if entry.get('batch'):
                recipe = f'{recipe}, {entry["batch"]}'
            for name, value in measured['scores'].items():
                table.setdefault(recipe, {}).setdefault(name, {}).setdefault(int(mark), []).append(value)
    return table


def draw(results, path):
    """One row of panels a batch, since recipes are compared only with the runs made beside them; in
    each row one panel a measure, one line a recipe (the median over its runs, every run faint)."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    runs_by_batch = {}
    for key, entry in results['runs'].items():
        runs_by_batch.setdefault(entry.get('batch', ''), {})[key] = entry
    batches = list(runs_by_batch)  # in the order they were measured
    tables = {batch: summary({'runs': runs}) for batch, runs in runs_by_batch.items()}
    names = sorted({name for table in tables.values() for recipe in table.values() for name in recipe})
    families = sorted({recipe.split(',')[0] for table in tables.values() for recipe in table})
    palette = plt.get_cmap('tab10' if len(families) <= 10 else 'tab20')  # one colour a recipe, never shared
    colours = {family: palette(i % palette.N) for i, family in enumerate(families)}
    figure, axes = plt.subplots(len(batches), len(names), figsize=(5 * len(names), 4 * len(batches)), squeeze=False)
    for row, batch in zip(axes, batches):
        clocks = {mark.get('clock') for entry in runs_by_batch[batch].values() for mark in entry['marks'].values()}
        for column, (axis, name) in enumerate(zip(row, names)):
            for recipe, measures in sorted(tables[batch].items()):
                marks = sorted(measures.get(name, {}))
                medians = [statistics.median(measures[name][m]) for m in marks]
                label = recipe.removesuffix(f', {batch}')
                line, = axis.plot(marks, medians, marker='o', label=label, color=colours[recipe.split(',')[0]],
                                  ls='--' if 'wall-clock' in recipe else '-')
                for m in marks:
                    axis.scatter([m] * len(measures[name][m]), measures[name][m], color=line.get_color(), alpha=0.3, s=12)
            axis.set_title(name if len(batches) == 1 else f'{name}, {batch or "first batch"}', fontsize=9)
            axis.set_ylim(-0.02, 1.02)
            axis.set_xlabel('processor minutes of training (one core)' if clocks == {'cpu_elapsed'}
                            else 'minutes of training (one core): processor, or wall-clock (dashed)')
            axis.set_ylabel('score' if results['game'] == 'othello8' else 'share of solved positions kept')
            axis.grid(alpha=0.3)
            if column == 0:
                axis.legend(fontsize=8)
    figure.tight_layout()
    with atomic_output(path) as temporary:
        figure.savefig(temporary, format='png', dpi=90)
    plt.close(figure)


def minute_marks(text):
    try:
        marks = tuple(int(part) for part in text.split(','))
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r}: give whole minutes separated by commas, for example 10,20,30') from None
    if not marks or min(marks) < 1:
        raise argparse.ArgumentTypeError(f'{text!r}: give whole minutes of at least 1, for example 10,20,30')
    return marks


def main():
    parser = argparse.ArgumentParser(description='Strength against training minutes of runs made with different recipes.')
    parser.add_argument('runs', nargs='+', help='run folders named RECIPE-sSEED')
    parser.add_argument('--game', choices=('othello8', 'connect4'), required=True)
    parser.add_argument('--engine', action='append', default=[], type=engine_command,
                        help='othello8: a GTP engine to play (repeatable)')
    parser.add_argument('--games', type=int, default=40, help='games per engine (default: %(default)s)')
    parser.add_argument('--sims', type=int, default=50, help='simulations per move (default: %(default)s)')
    parser.add_argument('--marks', type=minute_marks, default=MARKS,
                        help='minutes at which to measure, comma-separated (default: 10,20,30)')
    parser.add_argument('--batch', metavar='NAME',
                        help='runs made at another time or load than those in --out: compared only with each other')
    parser.add_argument('--out', required=True, help='results JSON (read first: measured models are kept)')
    parser.add_argument('--chart', help='chart PNG to draw')
    args = parser.parse_args()
    game = load_game(args.game)
    if game.NAME == 'othello8' and not args.engine:
        raise UserError('othello8 is measured against GTP engines: give --engine "/usr/games/gtp-rhino -l 1" and so on')

    settings = {'game': game.NAME, 'sims': args.sims, 'games': args.games}
    results = held_results(args.out, settings, 'runs', dict) or {**settings, 'runs': {}}
    for directory in args.runs:
        recipe, seed = recipe_of(directory)
        name = os.path.basename(os.path.normpath(directory)) + (f', {args.batch}' if args.batch else '')
        entry = results['runs'].setdefault(name, {'recipe': recipe, 'seed': seed, 'marks': {}})
        if args.batch:
            entry['batch'] = args.batch
        command = open(os.path.join(directory, 'command.txt')).read().strip() if os.path.exists(
            os.path.join(directory, 'command.txt')) else None
        entry['command'] = command
        for mark, (path, cycles, minutes, clock) in run_models(directory, game, args.marks).items():
            if str(mark) in entry['marks']:
                continue
            scores = measure(game, path, args)
            entry['marks'][str(mark)] = {'cycles': cycles, 'minutes': round(minutes, 2), 'clock': clock,
                                         'scores': scores}
            print(f'{directory} at {mark} min (cycle {cycles}): {scores}', flush=True)
            write_json(args.out, results, indent=1)
    for recipe, measures in sorted(summary(results).items()):
        for name, marks in measures.items():
            cells = ', '.join(f'{m} min {statistics.median(v):.3f} (worst {min(v):.3f}, {len(v)} runs)'
                              for m, v in sorted(marks.items()))
            print(f'{recipe:24} {name:28} {cells}')
    if args.chart:
        draw(results, args.chart)


if __name__ == '__main__':
    run(main)
