"""A match between two USI engines, each with its own `go`: how strong a clock makes our engine.

Our engine at a GUI's byoyomi (`usi_engine.py; go btime 0 wtime 0 byoyomi 1000`) against another
program at a fixed depth (`/usr/games/fairy-stockfish; go depth 8`), refereed by our rules: each
opening of --opening random moves is played twice, once with each colour. Prints the first engine's
won-drew-lost and score, and writes them with each game's points and length to --out (JSON). With
--handicap NAME (香落ち, 角落ち, ...) every game starts from that handicap, the first engine giving it as
上手 and moving first, and the openings are all different.
Run: .venv/bin/python bench/usi_match.py --engine "A; go ..." --engine "B; go ..." [--games 40]
     [--opening 6] [--handicap NAME] [--parallel 1] [--seed S] [--out results.json]
(pin it to a core with `taskset -c 0` to measure two settings side by side)
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from alphazero.cli.run import ArgumentParser, run  # noqa: E402
from alphazero.engines.players import engine_player, opponent_name  # noqa: E402
from alphazero.files import atomic_output  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402
from alphazero.cli.flags import handicap_flag  # noqa: E402
from alphazero.limits import MAX_ENGINES, MAX_GAMES, engine_command, whole_number  # noqa: E402
from alphazero.play.matches import Match, play_matches  # noqa: E402
from alphazero.play.openings import distinct_openings, paired_openings  # noqa: E402
from alphazero.game.shogi_handicaps import HANDICAPS  # noqa: E402


def usi_match(game, commands, games, opening, parallel, seed, handicap=None):
    """{'points': the first engine's point of each game, 'moves': each game's length}; from the start
    of `handicap` (a name) when given, the first engine giving it."""
    rng = np.random.default_rng(seed)
    if handicap:
        start = game.State(HANDICAPS[handicap])
        openings = distinct_openings(game, opening, games, rng, start=start)
    else:
        start, openings = None, paired_openings(game, opening, games, rng)
    lengths = [0] * games
    with engine_player(commands[0], game) as first, engine_player(commands[1], game) as second:
        def finished(match, i, live_game):
            lengths[i] = len(live_game.opening) + len(live_game.moves)
        with tqdm(total=games, desc='games', unit='game') as progress:
            points = play_matches(game, [Match(('first',), first, second, openings, start)], parallel, progress,
                                  finished=finished)[('first',)]
    return {'points': points, 'moves': lengths}


def main():
    parser = ArgumentParser(description='Play two USI engines against each other, refereed by our rules.')
    parser.add_argument('--engine', type=engine_command, action='append', required=True,
                        help='an engine\'s command line, then "; go ..." (twice: the first is measured)')
    parser.add_argument('--games', type=whole_number(2, MAX_GAMES), default=40)
    parser.add_argument('--opening', type=whole_number(0, 40), default=6, help='random moves before the engines take over')
    parser.add_argument('--handicap', type=handicap_flag, metavar='NAME',
                        help='start every game from this handicap (駒落ち), which the first engine gives')
    parser.add_argument('--parallel', type=whole_number(1, MAX_ENGINES), default=1, help='games at once')
    parser.add_argument('--seed', type=int)
    parser.add_argument('--out', help='a JSON file for the results')
    args = parser.parse_args()
    if len(args.engine) != 2:
        parser.error('give --engine twice: the engine measured, then its opponent')
    game = load_game('shogi9')
    result = usi_match(game, args.engine, args.games, args.opening, args.parallel, args.seed, args.handicap)
    points = result['points']
    won, drew = points.count(1.0), points.count(0.5)
    summary = {'engines': args.engine, 'opponent': opponent_name(args.engine[1]), 'opening': args.opening,
               'handicap': args.handicap, 'seed': args.seed, 'won_drew_lost': [won, drew, len(points) - won - drew],
               'score': sum(points) / len(points), 'median_moves': statistics.median(result['moves']), **result}
    print(f'{summary["won_drew_lost"][0]}-{drew}-{summary["won_drew_lost"][2]} (score {summary["score"]:.3f}) '
          f'against {summary["opponent"]}, a median of {summary["median_moves"]} moves a game')
    if args.out:
        with atomic_output(args.out) as temporary:
            with open(temporary, 'w') as f:
                json.dump(summary, f, indent=1)


if __name__ == '__main__':
    run(main)
