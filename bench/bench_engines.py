"""Matches against another program: the engine thinking while our search runs, side by side.

Plays the same games against a GTP (or USI) engine in two ways, alternately, --repeats times:
    overlapped      as match.play_games plays them: the engine is asked first and thinks in its own
                    process while our search answers the games where it is our move
    one at a time   the engine can only answer when asked, so our search waits for it and it for us
Both play the same openings, our search at temperature 0. Prints each run's wall-clock seconds, the
medians and their ratio. A fresh player per run: the cache starts empty.
Run: .venv/bin/python bench/bench_engines.py [--game othello8] [--engine "/usr/games/gtp-rhino -l 3"]
     [--games 8] [--parallel 4] [--sims 200] [--repeats 3]
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from alphazero.cli.run import ArgumentParser, run  # noqa: E402
from alphazero.game.registry import add_game_flag, load_game
from alphazero.game.paths import pretrained_path  # noqa: E402
from alphazero.limits import MAX_ENGINES, MAX_GAMES, file_path, whole_number  # noqa: E402
from alphazero.engines.players import engine_player
from alphazero.play.loop import Player
from alphazero.play.matches import Match, play_matches
from alphazero.play.agent import AgentSpec, load_agent
from alphazero.play.openings import paired_openings

OPENING = 4  # random moves before each game, each opening played with both colours


class OneAtATime(Player):
    """An engine that answers only when asked, as players did before engines were asked first."""

    def __init__(self, engine):
        self.engine = engine

    def choose(self, states, live_games=None):
        return self.engine.choose(states, live_games)


def match_seconds(game, model, engine_command, openings, parallel, sims, overlapped):
    player = load_agent(game, AgentSpec(model, sims))
    start = time.perf_counter()
    with engine_player(engine_command, game) as engine:
        opponent = engine if overlapped else OneAtATime(engine)
        play_matches(game, [Match(('player', 'engine'), player, opponent, openings)], parallel)
    return time.perf_counter() - start


def main():
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    add_game_flag(parser)
    parser.set_defaults(game='othello8')
    parser.add_argument('--model', type=file_path, help="the model (default: the game's shipped best.onnx)")
    parser.add_argument('--engine', default='/usr/games/gtp-rhino -l 3', help='the engine command (default: %(default)s)')
    parser.add_argument('--games', type=whole_number(2, MAX_GAMES), default=8, help='games per match (default: %(default)s)')
    parser.add_argument('--parallel', type=whole_number(1, MAX_ENGINES), default=4, help='games at once (default: %(default)s)')
    parser.add_argument('--sims', type=whole_number(1), default=200, help='our simulations per move (default: %(default)s)')
    parser.add_argument('--repeats', type=whole_number(1, 100), default=3, help='runs of each way (default: %(default)s)')
    args = parser.parse_args()
    game = load_game(args.game)
    model = args.model or pretrained_path(game, 'best.onnx')
    openings = paired_openings(game, OPENING, args.games, np.random.default_rng(0))
    seconds = {True: [], False: []}
    for repeat in range(args.repeats):
        for overlapped in (True, False):
            seconds[overlapped].append(match_seconds(game, model, args.engine, openings, args.parallel, args.sims,
                                                     overlapped))
            print(f'run {repeat + 1}, {"overlapped" if overlapped else "one at a time"}: '
                  f'{seconds[overlapped][-1]:.1f} s', flush=True)
    overlapped, one_at_a_time = (statistics.median(seconds[way]) for way in (True, False))
    print(f'{args.games} games against {args.engine!r} at {args.sims} simulations, {args.parallel} at once, on '
          f'{os.cpu_count()} cores: overlapped {overlapped:.1f} s, one at a time {one_at_a_time:.1f} s (medians of '
          f'{args.repeats}): {one_at_a_time / overlapped:.2f}x')


if __name__ == '__main__':
    run(main)
