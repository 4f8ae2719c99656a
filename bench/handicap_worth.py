"""What each handicap (駒落ち) costs the model that gives it, in Elo, from bench/usi_match.py's runs.

Each run is the model giving one handicap as 上手 to the same opponent (`usi_match.py --handicap
NAME`); the even game's score against that opponent is given (--even). A handicap costs the Elo
between the two scores, each moved half a game towards even first (as evaluate_levels.py fits its
ladder), so that a clean sweep stays finite. Prints the table, and with --write puts it into the
model's model.json as its `handicaps` entry, which play_web.py hands to the page (the handicap list
says what each costs; the player's rating suggests one).
Run: .venv/bin/python bench/handicap_worth.py RUN.json ... --even 0.775 --even-how "..." [--write pretrained/shogi9/model.json]
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from alphazero.cli.run import ArgumentParser, run  # noqa: E402
from alphazero.errors import UserError  # noqa: E402
from alphazero.files import atomic_output  # noqa: E402
from alphazero.game.shogi_handicaps import HANDICAPS  # noqa: E402
from alphazero.limits import file_path, real_number  # noqa: E402


def elo_of(score, games):
    """The Elo difference a score over `games` games stands for, moved half a game towards even."""
    shrunk = (score * games + 0.5) / (games + 1)
    return 400 * math.log10(shrunk / (1 - shrunk))


def worth(runs, even, even_games=40):
    """{name: {won_drew_lost, score, elo_given}} of usi_match.py's handicap runs, in HANDICAPS' order."""
    games = {}
    for result in runs:
        points = result['points']
        games[result['handicap']] = {'won_drew_lost': result['won_drew_lost'], 'score': result['score'],
                                     'elo_given': round(elo_of(even, even_games) - elo_of(result['score'], len(points)))}
    return {name: games[name] for name in HANDICAPS if name in games}


def main():
    parser = ArgumentParser(description='What each handicap costs a model, from usi_match.py --handicap runs.')
    parser.add_argument('runs', nargs='+', type=file_path, help="usi_match.py's JSON files, one per handicap")
    parser.add_argument('--even', type=real_number(0.0, 1.0), required=True,
                        help='the even game\'s score against the same opponent')
    parser.add_argument('--even-how', default='', help='where the even score comes from')
    parser.add_argument('--write', type=file_path, help='a model.json to put the handicaps entry into')
    args = parser.parse_args()
    runs = []
    for path in args.runs:
        with open(path, encoding='utf-8') as f:
            runs.append(json.load(f))
    if any(not run_.get('handicap') for run_ in runs) or len({tuple(run_['engines']) for run_ in runs}) != 1:
        raise UserError('give runs of usi_match.py --handicap, all with the same two engines')
    games = worth(runs, args.even)
    for name, result in games.items():
        print(f'{name}: {"-".join(map(str, result["won_drew_lost"]))}, score {result["score"]:.3f}, '
              f'{result["elo_given"]:+d} Elo given')
    if args.write:
        entry = {'how': f'bench/usi_match.py --handicap NAME, the model giving each handicap as 上手: '
                        f'{runs[0]["engines"][0]} against {runs[0]["engines"][1]}, {len(runs[0]["points"])} games '
                        f'each from openings of {runs[0]["opening"]} random moves; the even game scores {args.even} '
                        f'against it ({args.even_how}); elo_given: the Elo between the two scores, each moved half a '
                        'game towards even (bench/handicap_worth.py)',
                 'opponent': runs[0]['opponent'], 'even_score': args.even, 'games': games}
        with open(args.write, encoding='utf-8') as f:
            model = json.load(f)
        model['handicaps'] = entry
        with atomic_output(args.write) as temporary:
            with open(temporary, 'w', encoding='utf-8') as f:
                json.dump(model, f, indent=2, ensure_ascii=False)
                f.write('\n')


if __name__ == '__main__':
    run(main)
