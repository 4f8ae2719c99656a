# ====================
# Charts of a training run (not in the book)
# ====================
# train_cycle.py appends one record per cycle to metrics.jsonl beside best.h5 and redraws these
# charts after every cycle; `python plot.py` redraws them from the file.
#   chart_losses.png    training losses, epoch by epoch, and at the end of each cycle
#   chart_gate.png      latest vs best score per cycle, and when the best player changed
#   chart_strength.png  exact accuracy (solvable games) and scores against the fixed opponents

import json
import os

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.files import atomic_output
from alphazero.game.registry import add_game_flag, load_game
from alphazero.game.paths import model_path

METRICS_FILE = 'metrics.jsonl'


# What every record must hold for the charts and for resuming: a name and a test of its value
def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_numbers(value):
    return isinstance(value, list) and len(value) > 0 and all(map(is_number, value))


RECORD_FIELDS = {
    'cycle': lambda v: is_number(v) and v >= 1,
    'elapsed': is_number,
    'loss': is_numbers, 'policy_loss': is_numbers, 'value_loss': is_numbers,
    'gate_score': lambda v: v is None or is_number(v),
    'best_changed': lambda v: isinstance(v, bool),
}


def read_metrics(path):
    """The records of a metrics file ([] when there is none yet)."""
    if not os.path.exists(path):
        return []
    records = []
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f'{path} cannot be read ({error}); move it away to start the charts afresh.') from None
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except ValueError:
            raise UserError(f'{path} line {number} is not valid JSON; fix or delete that line.') from None
        wrong = [name for name, valid in RECORD_FIELDS.items()
                 if not isinstance(record, dict) or name not in record or not valid(record[name])]
        if wrong:
            raise UserError(f'{path} line {number} is not a cycle\'s record (missing or wrong: {", ".join(wrong)}); '
                            'fix or delete that line.')
        records.append(record)
    return records


def save_figure(figure, path):
    with atomic_output(path) as temporary:
        figure.savefig(temporary, dpi=100)


def plot_losses(records, pyplot):
    figure, (by_epoch, by_cycle) = pyplot.subplots(1, 2, figsize=(12, 4.5))
    epoch = 0
    for record in records:
        epochs = range(epoch + 1, epoch + 1 + len(record['loss']))
        by_epoch.plot(epochs, record['policy_loss'], color='tab:blue', label='policy (cross-entropy)' if epoch == 0 else None)
        by_epoch.plot(epochs, record['value_loss'], color='tab:orange', label='value (squared error)' if epoch == 0 else None)
        epoch += len(record['loss'])
        by_epoch.axvline(epoch + 0.5, color='lightgray', linewidth=0.8)
    by_epoch.set(title='Training loss, epoch by epoch (gray lines: end of a cycle)', xlabel='epoch, counted over all cycles',
                 ylabel='loss on the training data')
    by_epoch.legend()
    cycles = [r['cycle'] for r in records]
    by_cycle.plot(cycles, [r['policy_loss'][-1] for r in records], 'o-', label='policy (cross-entropy)')
    by_cycle.plot(cycles, [r['value_loss'][-1] for r in records], 'o-', label='value (squared error)')
    by_cycle.set(title='Loss at the end of each cycle', xlabel='cycle', ylabel='loss on the training data')
    by_cycle.legend()
    figure.tight_layout()
    return figure


def plot_gate(records, pyplot):
    figure, axes = pyplot.subplots(figsize=(7, 4.5))
    played = [r for r in records if r['gate_score'] is not None]  # none with --no-gate --eval-games 0
    cycles = [r['cycle'] for r in played]
    scores = [r['gate_score'] for r in played]
    axes.plot(cycles, scores, '-', color='gray')
    # With the gate off (metrics record 'gate': false) the score decides nothing
    gated = [r.get('gate', True) for r in played]
    marks = (('o', 'tab:green', True, True, 'latest beat the bar and became the best player'),
             ('x', 'tab:red', True, False, 'best player kept'),
             ('o', 'tab:blue', False, True, 'gate off: latest became the best player whatever its score'))
    for marker, color, gate, changed, label in marks:
        points = [(c, s) for c, s, r, g in zip(cycles, scores, played, gated) if g == gate and r['best_changed'] == changed]
        if points:
            axes.plot(*zip(*points), marker, color=color, label=label)
    axes.axhline(0.5, linestyle='--', color='black', linewidth=0.8,
                 label='the gate: latest must score more than 0.5' if any(gated) else '0.5 (the gate is off)')
    axes.set(title='Latest network vs best player' + ('' if any(gated) else ' (gate off: the score is only recorded)'),
             xlabel='cycle', ylabel='average point of the latest network', ylim=(-0.05, 1.05))
    axes.legend()
    figure.tight_layout()
    return figure


def plot_strength(records, pyplot):
    figure, (exact, scores) = pyplot.subplots(1, 2, figsize=(12, 4.5))
    cycles = [r['cycle'] for r in records]
    judged = [(c, r['exact']) for c, r in zip(cycles, records) if r.get('exact')]
    # Counts of wrong positions on a log scale (linear near 0, so that 0, perfect play, shows): the
    # last few wrong positions a run waits for stay visible
    if judged:
        def wrong(e, key):
            return round(e['positions'] * (1 - e[key]))
        exact.plot([c for c, _ in judged], [wrong(e, 'optimal_move_accuracy') for _, e in judged], 'o-',
                   label='its move gives away the game-theoretic value')
        exact.plot([c for c, _ in judged], [wrong(e, 'value_accuracy') for _, e in judged], 's-',
                   label='its value head is wrong about win / draw / loss')
        exact.set_yscale('symlog', linthresh=1)
        exact.set_ylim(bottom=-0.1)
        exact.legend()
        title = f'Positions the best player gets wrong (of {judged[-1][1]["positions"]:,})'
    else:
        exact.text(0.5, 0.5, 'this game is too large to solve exactly', ha='center', transform=exact.transAxes)
        title = 'Exact accuracy of the best player'
    exact.set(title=title, xlabel='cycle', ylabel='positions (0 = perfect)')
    # Every opponent the game has, in the order they were first met
    names = dict.fromkeys(name for r in records for name in (r.get('scores') or {}) if name != 'exact')
    for name in names:
        points = [(c, r['scores'][name]['all']) for c, r in zip(cycles, records) if r.get('scores') and name in r['scores']]
        if points:
            scores.plot(*zip(*points), 'o-', label=name)
    scores.set(title='Best player vs fixed opponents and GTP engines', xlabel='cycle',
               ylabel='average point (1 win, 0.5 draw)', ylim=(-0.05, 1.05))
    if scores.get_legend_handles_labels()[0]:
        scores.legend()
    figure.tight_layout()
    return figure


def plot_metrics(records, directory):
    """Write the three charts into `directory`; returns their paths."""
    import matplotlib
    matplotlib.use('Agg')
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator
    paths = []
    for name, draw in (('chart_losses.png', plot_losses), ('chart_gate.png', plot_gate),
                       ('chart_strength.png', plot_strength)):
        figure = draw(records, pyplot)
        for axes in figure.axes:  # cycles and epochs are whole numbers
            axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        paths.append(os.path.join(directory, name))
        save_figure(figure, paths[-1])
        pyplot.close(figure)
    return paths


def parse_args(argv=None):
    parser = ArgumentParser(description="Redraw a training run's charts from its metrics file.")
    add_game_flag(parser)
    args = parser.parse_args(argv)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    path = model_path(game, METRICS_FILE)
    records = read_metrics(path)
    if not records:
        raise UserError(f'{path} has no finished cycle yet: run `python train_cycle.py` first.')
    for chart in plot_metrics(records, os.path.dirname(path)):
        print(f'wrote {chart}')


if __name__ == '__main__':
    run(main)
