"""The tables of measured figures in the pages, made from the files that hold them: the shipped
models in README.md, README.ja.md, docs/strength.md and in Japanese in docs/ja/strength.md, their levels of
play in docs/strength.md and in Japanese in docs/ja/strength.md and docs/ja/playing.md (pretrained/*/model.json), settai mode in docs/lab/settai.md
(docs/settai/*.json), full shogi's mate search in docs/lab/mate-search.md (docs/lab/mate-search.json,
with pretrained/shogi9/model.json), full shogi's comparison of networks in docs/shogi.md, the recipes
in docs/lab/recipes-at-equal-time.md (docs/recipes/*.json), a GPU against the CPUs in
docs/scaling.md (docs/scaling/gpu.json), the speed of each game's rules in docs/speed.md
(docs/speed/games.json). Run `python docs/make_tables.py` after a model or its measurements change;
tests/quality/test_docs.py fails when a page's table and its source disagree."""
import argparse
import functools
import glob
import json
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from alphazero.files import atomic_output  # noqa: E402

BEGIN = '<!-- the table below is made by docs/make_tables.py from pretrained/*/model.json -->'
END = '<!-- end of the table -->'
ORDER = ('tictactoe', 'connect4', 'othello6', 'othello8', 'pointothello', 'shogi', 'shogi9', 'gomoku')
JAPANESE_NAMES = {'tictactoe': '三目並べ', 'connect4': '四目並べ', 'othello6': '6x6 オセロ', 'othello8': '8x8 オセロ',
                  'pointothello': '点数制リバーシ', 'shogi': '簡易将棋', 'gomoku': '五目並べ', 'shogi9': '本将棋'}


def measured_in(*parts):
    """The figures of a JSON file under docs/."""
    with open(os.path.join(ROOT, 'docs', *parts), encoding='utf-8') as f:
        return json.load(f)


def shipped():
    """{game: model.json} of every shipped model, in the order the pages list them."""
    models = {}
    for path in glob.glob(os.path.join(ROOT, 'pretrained', '*', 'model.json')):
        with open(path, encoding='utf-8') as f:
            model = json.load(f)
        models[model['game']] = model
    return {name: models[name] for name in sorted(models, key=lambda n: ORDER.index(n) if n in ORDER else len(ORDER))}


def network(model, japanese=False):
    n = model['network']
    kind = ('本書の型' if japanese else "the book's") if n['kind'] == 'book' else n['kind']
    distilled = ('（蒸留）' if japanese else ', distilled') if 'distillation' in model['trained'] else ''
    return f"{kind}{',' if n['kind'] == 'book' and not japanese else ''} {n['filters']} x {n['blocks']}{distilled}"


def trained(model, japanese=False):
    t = model['trained']
    if 'distillation' in t:
        teacher, student = t['teacher'], t['distillation']
        if japanese:
            return (f"教師 {teacher['cycles']} サイクル・{round(teacher['seconds'] / 60)} 分、"
                    f"蒸留 {round(student['seconds'] / 60)} 分")
        return (f"a teacher of {teacher['cycles']} cycles, {round(teacher['seconds'] / 60)} min; "
                f"distilled in {round(student['seconds'] / 60)} min")
    if not t['cycles']:  # learned from records only
        return f"棋譜から、{round(t['seconds'] / 60)} 分" if japanese else f"from records, {round(t['seconds'] / 60)} min"
    return f"{t['cycles']} サイクル、{round(t['seconds'] / 60)} 分" if japanese else f"{t['cycles']} cycles, {round(t['seconds'] / 60)} min"


def table(page):
    """The shipped models: briefly in the READMEs, in full in docs/strength.md; in Japanese on a Japanese page,
    which links the Japanese twin docs/ja/strength.md."""
    models = shipped()
    if page == 'README.ja.md':
        rows = ['| ゲーム | ネットワーク | 代表的な計測値（詳細は `model.json` と [docs/ja/strength.md](docs/ja/strength.md)） |',
                '|---|---|---|']
        rows += [f'| {JAPANESE_NAMES[name]} | {network(m, True)} | {m["headline"]["ja"]} |' for name, m in models.items()]
    elif page.startswith(os.path.join('docs', 'ja')):
        rows = ['| ゲーム | ネットワーク | パラメータ数 | 学習 | 代表的な計測値（ほかは `model.json`） |', '|---|---|---|---|---|']
        rows += [f'| {JAPANESE_NAMES[name]} | {network(m, True)} | {m["network"]["parameters"]:,} | {trained(m, True)} | '
                 f'{m["headline"]["ja"]} |' for name, m in models.items()]
    elif page == 'README.md':
        rows = ['| game | network | one headline figure (the rest: its `model.json`, [docs/strength.md](docs/strength.md)) |',
                '|---|---|---|']
        rows += [f'| {name} | {network(m)} | {m["headline"]["en"]} |' for name, m in models.items()]
    else:
        rows = ['| game | network | parameters | trained | headline (the rest: its `model.json`) |', '|---|---|---|---|---|']
        rows += [f'| {name} | {network(m)} | {m["network"]["parameters"]:,} | {trained(m)} | {m["headline"]["en"]} |'
                 for name, m in models.items()]
    return '\n'.join(rows)


# The shogi-Transformer article's table at CPU size (docs/shogi.md), from the comparison that
# pretrained/shogi9/model.json records beside the article's own figures
SHOGI_BEGIN = '<!-- the table below is made by docs/make_tables.py from pretrained/shogi9/model.json -->'
SHOGI_ROWS = (('parameters', 'parameters', '{:,}'), ('training positions', 'training_positions', '{:,}'),
              ('training time', 'training_time', '{}'), ('training loss', 'train_loss', '{:.3f}'),
              ('validation loss', 'validation_loss', '{:.3f}'), ('policy accuracy', 'policy_accuracy', '{:.1%}'),
              ('value accuracy', 'value_accuracy', '{:.1%}'))


def shogi_table(page):
    comparison = shipped()['shogi9']['records_comparison']
    columns = comparison['columns']
    rows = ['| | ' + ' | '.join(c['name'] for c in columns) + ' |', '|---' * (len(columns) + 1) + '|']
    for label, key, form in SHOGI_ROWS:
        rows.append(f'| {label} | ' + ' | '.join(form.format(c[key]) if c.get(key) is not None else '-'
                                                 for c in columns) + ' |')
    return '\n'.join(rows)


# The equal-time comparison of recipes (docs/lab/recipes-at-equal-time.md), from bench/compare_recipes.py's files
RECIPES_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/recipes/*.json -->'


def recipes_table(page):
    sys.path.insert(0, os.path.join(ROOT, 'bench'))
    from compare_recipes import summary
    files = []
    for path in sorted(glob.glob(os.path.join(ROOT, 'docs', 'recipes', '*.json'))):
        with open(path, encoding='utf-8') as f:
            results = json.load(f)
        files.append((results, summary(results)))
    # One column a minute mark that any run reached; a run that stopped before a mark shows '-'
    marks = sorted({m for _, table in files for measures in table.values() for by_mark in measures.values()
                    for m in by_mark})
    rows = ['| game | recipe | measure | runs | ' + ' | '.join(f'{m} min: median (worst)' for m in marks) + ' |',
            '|---' * (4 + len(marks)) + '|']
    for results, table in files:
        # The comparisons play every model at 50 simulations; a file measured at more says so
        played = '' if results['sims'] == 50 else f', played at {results["sims"]} simulations'
        for recipe, measures in sorted(table.items()):
            for name, by_mark in sorted(measures.items()):
                cells = [f'{statistics.median(by_mark[m]):.3f} ({min(by_mark[m]):.3f})' if m in by_mark else '-'
                         for m in marks]
                runs = max(len(v) for v in by_mark.values())
                rows.append(f'| {results["game"]} | {recipe} | {name}{played} | {runs} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(rows)


# The levels of play of every shipped model that has a measured ladder (docs/strength.md; in Japanese
# docs/ja/strength.md and docs/ja/playing.md)
LEVELS_BEGIN = '<!-- the table below is made by docs/make_tables.py from the levels in pretrained/*/model.json -->'


def levels_table(page):
    """The ladder of every shipped model; on a Japanese page (docs/ja/) in Japanese, as the players say it."""
    sys.path.insert(0, ROOT)
    from alphazero.play.levels import Level
    from alphazero.cli.words import said_text, setting_text, words
    japanese = page.startswith(os.path.join('docs', 'ja'))
    said = words('ja' if japanese else 'en')
    if japanese:
        rows = ['| ゲーム | レベル | 指し方 | Elo（ランダムが 0） | 最も近い計測済みの相手（Elo の差、リサンプルした当てはめの 90% の範囲） | 計測に使った相手 |',
                '|---|---|---|---|---|---|']
    else:
        rows = ['| game | level | plays with | Elo (random player 0) | nearest measured opponent (the difference; 90% of resampled fits) | opponents on the ladder |',
                '|---|---|---|---|---|---|']
    for name, model in shipped().items():
        ladder = model.get('levels')
        if not ladder:
            continue
        opponents = '、'.join(f'{said_text(o, said)} {elo}' for o, elo in ladder['opponents'].items()) if japanese else \
            ', '.join(f'{opponent} {elo}' for opponent, elo in ladder['opponents'].items())
        for entry in ladder['levels']:
            level = Level(**entry)
            if japanese:
                near = (f'{said_text(level.near, said)}（{level.near_difference:+d}、90%: {level.near_low:+d} ～ '
                        f'{level.near_high:+d}）')
            else:
                near = f'{level.near} ({level.near_difference:+d}; 90%: {level.near_low:+d} to {level.near_high:+d})'
            rows.append(f'| {JAPANESE_NAMES[name] if japanese else name} | {level.number} | {setting_text(level, said)} | '
                        f'{level.elo} | {near} | {opponents if level.number == 1 else ""} |')
    return '\n'.join(rows)


# Settai mode against opponents of different strength (docs/lab/settai.md), from bench/settai_margins.py's files
SETTAI_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/settai/*.json -->'


def settai_table(page):
    rows = ['| model | simulations | games per opponent | opponent | normal: won-drew-lost | normal: median | '
            'settai: won-drew-lost | settai: median (the run farthest from even) | settai: quartiles of all games |',
            '|---|---|---|---|---|---|---|---|---|']
    for path in sorted(glob.glob(os.path.join(ROOT, 'docs', 'settai', '*.json'))):
        with open(path, encoding='utf-8') as f:
            results = json.load(f)
        for opponent, modes in results['summary'].items():
            normal, settai = modes['normal'], modes['settai']
            farthest = f' ({settai["farthest"]:+g})' if len(results['runs']) > 1 else ''
            games = f'{len(results["runs"])} runs of {results["games"]}' if len(results['runs']) > 1 else results['games']
            rows.append(f'| {results["label"]} | {results["simulations"]} | {games} | {opponent} | '
                        f'{normal["won"]}-{normal["drew"]}-{normal["lost"]} | {normal["median"]:+g} | '
                        f'{settai["won"]}-{settai["drew"]}-{settai["lost"]} | {settai["median"]:+g}{farthest} | '
                        f'{settai["quartiles"][0]:+g} to {settai["quartiles"][1]:+g} |')
    return '\n'.join(rows)


# Full shogi's mate search, with and without (docs/lab/mate-search.md), from docs/lab/mate-search.json: the
# first model shipped, then the shipped model, whose runs with the mate search are its model.json's
MATE_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/lab/mate-search.json -->'
MATE_SHIPPED_BEGIN = ('<!-- the table below is made by docs/make_tables.py from docs/lab/mate-search.json and '
                      'pretrained/shogi9/model.json -->')


def mate_rows(groups, moves=True):
    """A table's rows, one per (mate search on, opponent, runs), with the moves a game when `moves`."""
    rows = ['| mate search | opponent | runs of 40 games | scores | median | worst | won-drew-lost in all |'
            + (' moves a game |' if moves else ''),
            '|---|---|---|---|---|---|---|' + ('---|' if moves else '')]
    for mode, opponent, runs in groups:
        scores, total = scores_and_total(runs)
        row = (f'| {"on" if mode else "off"} | {opponent} | {len(runs)} | {", ".join(f"{x:.3f}" for x in scores)} | '
               f'{statistics.median(scores):.3f} | {min(scores):.3f} | {"-".join(map(str, total))} |')
        if moves:
            row += f' {statistics.median(run["moves"] / 40 for run in runs if run["moves"]):.0f} |'
        rows.append(row)
    return '\n'.join(rows)


def chosen_runs(runs, mode, opponent):
    return [run for run in runs if run['mate_search'] == mode and run['opponent'] == opponent]


def mate_table(page):
    runs = measured_in('lab', 'mate-search.json')['runs']
    groups = [(mode, opponent, chosen_runs(runs, mode, opponent))
              for mode in (True, False) for opponent in sorted({run['opponent'] for run in runs})]
    return mate_rows([group for group in groups if group[2]])


def mate_shipped_table(page):
    runs = measured_in('lab', 'mate-search.json')['shipped']['runs']
    opponents = [f'Fairy-Stockfish depth {depth}' for depth in (1, 3)]
    return mate_rows([(mode, opponent, chosen_runs(runs, mode, opponent)) for mode in (True, False)
                      for opponent in opponents], moves=False)


# Each run's score (wins and half the draws over its games) and the won-drew-lost of all runs; `keys`
# name a run's wins, draws and losses
def scores_and_total(runs, keys=('won', 'drew', 'lost')):
    won, drew, lost = keys
    scores = [(run[won] + run[drew] / 2) / (run[won] + run[drew] + run[lost]) for run in runs]
    return scores, [sum(run[key] for run in runs) for key in keys]


# What a GPU bought, against the same machine's CPUs (docs/scaling.md), from docs/scaling/gpu.json
GPU_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/scaling/gpu.json -->'


def gpu_table(page):
    gpu = measured_in('scaling', 'gpu.json')
    rows = ['| what | how | CPU | GPU | GPU / CPU |', '|---|---|---|---|---|']
    runs = gpu['self_play']['runs']
    for run in runs:
        if run['device'] != 'gpu':
            continue
        cpu = next(r for r in runs if r['device'] == 'cpu' and r['parallel'] == run['parallel'])
        rate = run['positions_per_second']
        shown, ratio = (f'{rate:g}', f'{rate / cpu["positions_per_second"]:.2f} x') if rate else (run['note'], '-')
        rows.append(f'| self-play, {run["games"]} games, {run["parallel"]} at once (positions/s) | {run["search"]} | '
                    f'{cpu["positions_per_second"]:g} | {shown} | {ratio} |')
    evaluations = gpu['evaluations']
    for batch, cpu, device in zip(evaluations['batch'], evaluations['cpu'], evaluations['gpu']):
        rows.append(f'| network evaluations/s, batch {batch} | onnxruntime | {cpu:,} | {device:,} | {device / cpu:.1f} x |')
    for run in gpu['training']['runs']:
        rows.append(f'| training samples/s | {run["what"]} | {run["cpu"]:,} | {run["gpu"]:,} | {run["gpu"] / run["cpu"]:.1f} x |')
    return '\n'.join(rows)


# A whole training cycle on the GPU and on the same machine's CPUs (docs/scaling.md), from
# docs/scaling/gpu-cycle.json: each cycle's figure, and how many times faster the GPU's median is
GPU_CYCLE_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/scaling/gpu-cycle.json -->'


def gpu_cycle_table(page):
    measured = measured_in('scaling', 'gpu-cycle.json')
    rows = ['| what | CPU, 16 cores | GPU | GPU faster by |', '|---|---|---|---:|']
    for stage in measured['stages']:
        cpu, gpu = statistics.median(stage['cpu']), statistics.median(stage['gpu'])
        faster = cpu / gpu if stage['what'].endswith('(s)') else gpu / cpu  # times, or rates
        rows.append(f'| {stage["what"]} | {" / ".join(f"{x:,g}" for x in stage["cpu"])} | '
                    f'{" / ".join(f"{x:,g}" for x in stage["gpu"])} | {faster:.2f} x |')
    return '\n'.join(rows)


# The speed of each game's rules beside its network (docs/speed.md), from bench/bench_games.py --out
GAMES_SPEED_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/speed/games.json -->'


def games_speed_table(page):
    measured = measured_in('speed', 'games.json')
    rows = ['| game | moves/s | planes/s | random games/s | network positions/s | network | rules / network |',
            '|---|---:|---:|---:|---:|---|---:|']
    for game in measured['games']:
        rows.append(f'| {game["game"]} | {game["moves_per_second"]:,} | {game["planes_per_second"]:,} | '
                    f'{game["random_games_per_second"]:,.0f} | {game["network_positions_per_second"]:,} | '
                    f'{game["network"]} | {game["rules_share"]:.2f} |')
    return '\n'.join(rows)


# int8 against float32 for every shipped network (docs/speed.md), from bench/bench_int8.py --out: on a
# processor with VNNI (int8.json) and on one with AVX2 only (int8-avx2.json)
INT8_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/speed/int8.json -->'
INT8_AVX2_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/speed/int8-avx2.json -->'


def int8_table(page, name='int8.json'):
    measured = measured_in('speed', name)
    batches = measured['batches']
    rows = [f'Processor: {measured["processor"]}, with {", ".join(measured["features"])}.', '',
            '| model | same top move | mean abs value error | '
            + ' | '.join(f'batch {b}: float32, int8 (positions/s), ratio' for b in batches) + ' |',
            '|---|---:|---:|' + '---:|' * len(batches)]
    for model, figures in measured['models'].items():
        cells = []
        for b in batches:
            rates = [statistics.median(figures['rates'][kind][str(b)]) for kind in ('float', 'int8')]
            cells.append(f'{rates[0]:,.0f}, {rates[1]:,.0f}, **{rates[1] / rates[0]:.2f}**')
        rows.append(f'| {model} | {100 * figures["top_move_agreement"]:.1f}% | {figures["value_error"]:.3f} | '
                    + ' | '.join(cells) + ' |')
    for model, run in measured['self_play'].items():
        rates = [statistics.median(run[kind]) for kind in ('float', 'int8')]
        rows.append(f'\nSelf-play of {model}, {run["games"]} games at once, {run["sims"]} simulations a move, one core: '
                    f'{rates[0]:,.1f} moves/s on float32 (slowest {min(run["float"]):,.1f}), {rates[1]:,.1f} on int8 '
                    f'(slowest {min(run["int8"]):,.1f}): **{rates[1] / rates[0]:.2f}x**.')
    return '\n'.join(rows)


# Each shipped model's int8 twin against its float self (docs/lab/int8.md), from docs/lab/int8.json
INT8_STRENGTH_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/lab/int8.json -->'


def int8_strength_table(page):
    measured = measured_in('lab', 'int8.json')
    rows = ['| model | simulations | runs of 40 games | int8\'s scores | mean | median | worst | won-drew-lost in all (int8) |',
            '|---|---:|---:|---|---:|---:|---:|---|']
    for game in measured['games']:  # a game measured at two simulation counts has a row for each
        runs = [run for run in measured['runs'] if (run['game'], run['simulations']) == (game['game'], game['simulations'])]
        scores, total = scores_and_total(runs, ('int8_won', 'drew', 'int8_lost'))
        worst = max(scores, key=lambda s: abs(s - 0.5))
        rows.append(f'| {game["game"]} | {game["simulations"]} | {len(runs)} | {", ".join(f"{s:.3f}" for s in scores)} | '
                    f'{statistics.mean(scores):.3f} | {statistics.median(scores):.3f} | {worst:.3f} | {"-".join(map(str, total))} |')
    return '\n'.join(rows)


# The int8 twins against their float selves at equal time (docs/lab/int8.md), from docs/lab/int8.json
INT8_EQUAL_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/lab/int8.json (equal time) -->'


def int8_equal_time_table(page):
    measured = measured_in('lab', 'int8.json')['equal_time']
    rows = ['| model | simulations: float, int8 | time a move: float, int8 (ms, medians) | runs of 40 games | int8\'s scores | '
            'median | worst | won-drew-lost in all (int8) |', '|---|---|---|---:|---|---:|---:|---|']
    for game in measured['games']:
        runs = [run for run in measured['runs'] if run['game'] == game['game']]
        scores, total = scores_and_total(runs, ('int8_won', 'drew', 'int8_lost'))
        times = [statistics.median(run[key] for run in runs) for key in ('float_ms', 'int8_ms')]
        rows.append(f'| {game["game"]} | {game["float_simulations"]}, {game["int8_simulations"]} | '
                    f'{times[0]:.1f}, {times[1]:.1f} | {len(runs)} | {", ".join(f"{s:.3f}" for s in scores)} | '
                    f'{statistics.median(scores):.3f} | {min(scores):.3f} | {"-".join(map(str, total))} |')
    return '\n'.join(rows)


# Our self-play beside pgx + mctx (bench/bench_peer.py), from docs/speed/peer.json
PEER_BEGIN = '<!-- the table below is made by docs/make_tables.py from docs/speed/peer.json -->'


def peer_table(page):
    measured = measured_in('speed', 'peer.json')
    peer = statistics.median(measured['runs']['pgx + mctx (JAX, XLA)'])
    rows = [f'8x8 Othello, {measured["network"]} (random weights), {measured["sims"]} simulations a move, '
            f'{measured["games"]} games at once, {measured["cpus"]} CPUs ({measured["processor"]}); '
            + ', '.join(f'{name} {version}' for name, version in measured['versions'].items()) + '.', '',
            '| self-play | positions/s, median | slowest | to pgx + mctx |', '|---|---:|---:|---:|']
    for name, rates in measured['runs'].items():
        rows.append(f'| {name} | {statistics.median(rates):,.1f} | {min(rates):,.1f} | '
                    f'**{statistics.median(rates) / peer:.2f}x** |')
    return '\n'.join(rows)


PAGES = {'README.md': [(BEGIN, table)], 'README.ja.md': [(BEGIN, table)],
         os.path.join('docs', 'strength.md'): [(BEGIN, table), (LEVELS_BEGIN, levels_table)],
         os.path.join('docs', 'ja', 'strength.md'): [(BEGIN, table), (LEVELS_BEGIN, levels_table)],
         os.path.join('docs', 'ja', 'playing.md'): [(LEVELS_BEGIN, levels_table)],
         os.path.join('docs', 'lab', 'settai.md'): [(SETTAI_BEGIN, settai_table)],
         os.path.join('docs', 'lab', 'mate-search.md'): [(MATE_BEGIN, mate_table),
                                                     (MATE_SHIPPED_BEGIN, mate_shipped_table)],
         os.path.join('docs', 'lab', 'int8.md'): [(INT8_STRENGTH_BEGIN, int8_strength_table),
                                                (INT8_EQUAL_BEGIN, int8_equal_time_table)],
         os.path.join('docs', 'shogi.md'): [(SHOGI_BEGIN, shogi_table)],
         os.path.join('docs', 'lab', 'recipes-at-equal-time.md'): [(RECIPES_BEGIN, recipes_table)],
         os.path.join('docs', 'scaling.md'): [(GPU_BEGIN, gpu_table), (GPU_CYCLE_BEGIN, gpu_cycle_table)],
         os.path.join('docs', 'speed.md'): [(GAMES_SPEED_BEGIN, games_speed_table), (INT8_BEGIN, int8_table),
                                             (INT8_AVX2_BEGIN, functools.partial(int8_table, name='int8-avx2.json')),
                                             (PEER_BEGIN, peer_table)]}


def regenerated(page):
    """The page's text with its tables made again."""
    with open(os.path.join(ROOT, page), encoding='utf-8') as f:
        text = f.read()
    for begin, make in PAGES[page]:
        before, rest = text.split(begin + '\n', 1)
        _, after = rest.split(END, 1)
        text = f'{before}{begin}\n{make(page)}\n{END}{after}'
    return text


if __name__ == '__main__':
    argparse.ArgumentParser(description='Make the tables of measured figures in the pages again from the files '
                                        'that hold them (pretrained/*/model.json, docs/*/*.json).').parse_args()
    for page in PAGES:
        text = regenerated(page)
        with atomic_output(os.path.join(ROOT, page)) as temporary:
            with open(temporary, 'w', encoding='utf-8') as f:
                f.write(text)
        print(f'wrote the table of {page}', file=sys.stderr)
