"""Settai mode (接待) measured: how close the games end, normal mode beside settai mode, against
opponents of clearly different strength.

The model plays --games games against each opponent in each mode (colours alternating, openings of
--opening random moves each played with both colours): the game's fixed opponents (random,
alpha-beta) and any GTP engine given (GRhino levels for Othello). For a game with a margin (Othello:
discs) each game's final margin from the model's side is kept; for the others its result. Results go
to --out (JSON) and a chart of the margins per opponent and mode to --chart; docs/make_tables.py
turns the JSON into the table of docs/strength.md. Run it again with the same settings and --out and
the new run is added to the file: the table quotes the median of the runs' medians and the run that
ended farthest from even, since a 40-game median moves by a few discs from run to run.

Run: .venv/bin/python bench/settai_margins.py --game othello8 --sims 50 \\
        --engine "/usr/games/gtp-rhino -l 1" --engine "/usr/games/gtp-rhino -l 2" --engine "/usr/games/gtp-rhino -l 3" \\
        --out docs/settai/othello8.json --chart docs/settai/othello8.png
"""
import argparse
import contextlib
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from alphazero.search.evaluator import Evaluator  # noqa: E402
from alphazero.errors import UserError
from alphazero.cli.run import run  # noqa: E402
from alphazero.files import atomic_output, write_json
from alphazero.play.resumable import held_results
from alphazero.network.model_file import playing_sims  # noqa: E402
from alphazero.game.registry import load_game
from alphazero.game.paths import playing_model_path  # noqa: E402
from alphazero.network.onnx_export import file_sha256
from alphazero.network.load import load_network  # noqa: E402
from alphazero.limits import engine_command, whole_number  # noqa: E402
from alphazero.play.players import FunctionPlayer, MctsPlayer
from alphazero.engines.players import engine_player, opponent_name
from alphazero.play.matches import Match, play_matches
from alphazero.play.openings import paired_openings
from alphazero.play.settai import settai_for
from alphazero.settings import SearchSettings  # noqa: E402

MODES = ('normal', 'settai')


def final_margins(game, results):
    """The model's final margin (its side's discs less the other's) or result (1, 0, -1) per game;
    the model moved first in the even-numbered games."""
    outcomes = []
    for index, played in enumerate(results):
        first = index % 2 == 0
        if game.score is not None:
            outcomes.append(int(game.score(played.state)) * (1 if first else -1))
        else:
            outcomes.append(int(played.value(first)))
    return outcomes


def measure(game, path, sims, commands, games, opening, seed, fixed=None):
    """{mode: {opponent: [margin or result per game]}}, every game of both modes at once; `fixed`: the
    game's fixed opponents to play (None: all)."""
    network, _ = load_network(path, game)
    rng = np.random.default_rng(seed)
    openings = paired_openings(game, opening, games, rng)
    models = {mode: MctsPlayer(Evaluator(network), SearchSettings(sims=sims), 0.0, rng,
                             settai=settai_for(game, mode == 'settai'))
              for mode in MODES}
    with contextlib.ExitStack() as stack:
        opponents = {opponent_name(name): FunctionPlayer(action) for name, action in game.opponents().items()
                     if fixed is None or opponent_name(name) in fixed}
        for command in commands:
            opponents[opponent_name(command)] = stack.enter_context(engine_player(command, game))
        matches = [Match((mode, name), models[mode], opponents[name], openings) for mode in MODES for name in opponents]
        results = {}

        def finished(match, i, result):
            results[match.key, i] = result
        with tqdm(total=games * len(matches), desc='normal and settai games', unit='game') as progress:
            play_matches(game, matches, progress=progress, finished=finished)
    outcomes = {mode: {} for mode in MODES}
    for match in matches:
        mode, name = match.key
        outcomes[mode][name] = final_margins(game, [results[match.key, i] for i in range(games)])
    return outcomes


def summary(runs):
    """Per opponent and mode over all the runs: wins, draws and losses, each run's median margin, the
    median of those and the run median farthest from even, and the quartiles of all the games."""
    table = {}
    for mode in MODES:
        for name in runs[0][mode]:
            margins = [m for run in runs for m in run[mode][name]]
            medians = [statistics.median(run[mode][name]) for run in runs]
            quartiles = statistics.quantiles(margins, n=4) if len(margins) > 1 else [margins[0]] * 3
            table.setdefault(name, {})[mode] = {
                'won': sum(m > 0 for m in margins), 'drew': sum(m == 0 for m in margins), 'lost': sum(m < 0 for m in margins),
                'run_medians': medians, 'median': statistics.median(medians), 'farthest': max(medians, key=abs),
                'quartiles': [quartiles[0], quartiles[2]], 'mean_absolute': sum(abs(m) for m in margins) / len(margins)}
    return table


def draw(content, path):
    """Othello: each game's final margin per opponent and mode (boxes and points); a game without a
    margin: its wins, draws and losses per opponent and mode (stacked bars)."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    names = list(content['runs'][0]['normal'])
    figure, axis = plt.subplots(figsize=(max(6.0, 1.8 * len(names) + 2), 4))
    for offset, mode, colour in ((-0.18, 'normal', '#1565c0'), (0.18, 'settai', '#e65100')):
        data = [[m for run in content['runs'] for m in run[mode][name]] for name in names]
        positions = [i + offset for i in range(len(names))]
        if content['margin'] is None:
            bottom = np.zeros(len(names))
            for result, shade in ((1, 1.0), (0, 0.55), (-1, 0.25)):
                counts = np.array([values.count(result) for values in data])
                axis.bar(positions, counts, 0.32, bottom=bottom, color=colour, alpha=shade, edgecolor='white',
                         label=f'{mode}: {"won" if result > 0 else "drew" if result == 0 else "lost"}')
                bottom += counts
            continue
        parts = axis.boxplot(data, positions=positions, widths=0.3, patch_artist=True, manage_ticks=False)
        for box in parts['boxes']:
            box.set(facecolor=colour, alpha=0.35)
        for i, values in enumerate(data):
            axis.scatter(np.full(len(values), i + offset) + np.random.default_rng(i).uniform(-0.07, 0.07, len(values)),
                         values, s=8, color=colour, alpha=0.6, label=mode if i == 0 else None)
    if content['margin'] is not None:
        axis.axhline(0, color='#555', lw=1, ls='--')
    axis.set_xticks(range(len(names)), names, rotation=15)
    axis.set_ylabel('final margin for the AI' if content['margin'] else 'games (won, drew, lost from the bottom)')
    runs = len(content['runs'])
    axis.set_title(f'{content["game"]}: normal and settai mode\n{runs * content["games"]} games per opponent'
                   + (f' ({runs} runs of {content["games"]})' if runs > 1 else ''), fontsize=10)
    axis.legend(fontsize=7, ncol=2)
    axis.grid(alpha=0.3, axis='y')
    figure.tight_layout()
    with atomic_output(path) as temporary:
        figure.savefig(temporary, format='png', dpi=90)
    plt.close(figure)


def main():
    parser = argparse.ArgumentParser(description='Final margins of normal and settai mode against several opponents.')
    parser.add_argument('--game', required=True)
    parser.add_argument('--model', help="the model (default: the game's best.h5, else the shipped one)")
    parser.add_argument('--sims', type=whole_number(1, 100000), help='simulations per move (default: what the model records)')
    parser.add_argument('--engine', action='append', default=[], type=engine_command, metavar='COMMAND')
    parser.add_argument('--games', type=whole_number(2, 1000), default=40, help='games per opponent and mode (default: %(default)s)')
    parser.add_argument('--opening', type=whole_number(0, 20), default=4, help='random moves before each game (default: %(default)s)')
    parser.add_argument('--opponent', action='append', metavar='NAME',
                        help='play only this fixed opponent, as the table names it ("alpha-beta depth 2"; repeatable) '
                             '(default: all of the game\'s)')
    parser.add_argument('--engines-only', action='store_true', help='play only the --engine programs, none of the fixed opponents')
    parser.add_argument('--label', help='how the table names the model (default: the game)')
    parser.add_argument('--seed', type=int)
    parser.add_argument('--out', required=True, help='results JSON')
    parser.add_argument('--chart', help='chart PNG')
    args = parser.parse_args()
    game = load_game(args.game)
    names = [opponent_name(name) for name in game.opponents()]
    unknown = [name for name in args.opponent or [] if name not in names]
    if unknown:
        raise UserError(f'{game.NAME} has no opponent named {unknown[0]!r}: choose from ' + ', '.join(names))
    if args.engines_only and (args.opponent or not args.engine):
        raise UserError('--engines-only plays only the --engine programs: give at least one --engine and no --opponent')
    fixed = [] if args.engines_only else args.opponent
    path = args.model or playing_model_path(game)
    sims, _ = playing_sims(args.sims, path)
    if game.determinize is not None:
        raise UserError(f'{game.NAME} hides part of the position: settai mode needs all of it')
    # The model by its contents too: a new model at the same path (a shipped one replaced) is other settings
    settings = {'game': game.NAME, 'model': path, 'model_sha256': file_sha256(path), 'simulations': sims,
                'games': args.games, 'opening': args.opening,
                'opponents': [name for name in names if fixed is None or name in fixed] + [opponent_name(c) for c in args.engine]}
    runs = (held_results(args.out, settings, 'runs', list) or {'runs': []})['runs']
    runs.append(measure(game, path, sims, args.engine, args.games, args.opening, args.seed, fixed))
    content = {**settings, 'label': args.label or game.NAME, 'margin': 'final margin' if game.score is not None else None,
               'how': f'python bench/settai_margins.py {" ".join(sys.argv[1:])}', 'runs': runs, 'summary': summary(runs)}
    write_json(args.out, content, indent=1)
    for name, modes in content['summary'].items():
        print(name + ': ' + '; '.join(f'{mode} {m["won"]}-{m["drew"]}-{m["lost"]}, median margin {m["median"]:+g}'
                                      f' (runs: {", ".join(f"{r:+g}" for r in m["run_medians"])})'
                                      for mode, m in modes.items()))
    if args.chart:
        draw(content, args.chart)


if __name__ == '__main__':
    run(main)
