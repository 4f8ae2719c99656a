"""Self-play speed on Ray workers against the single-process engine, side by side in one run.

For each game (its training defaults: network, simulations, exploration), a fresh untrained
network of the default size plays the same number of self-play games:
    (a) in this process, as self_play.py without --workers
    (b) on 1 Ray worker, (c) on 2, ... up to --max-workers (default: the machine's cores)
and the script prints positions/s of each and its ratio to (a). Ray's start-up is not counted;
each worker count gets a warm-up stage first (sessions created, the model sent).
Run: .venv/bin/python bench/bench_workers.py [--games 64] [--game connect4 --game othello8]
"""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from alphazero.network.model_file import save_model  # noqa: E402
from alphazero.cli.flags import settings_of  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402
from alphazero.network.runtimes import OnnxNetwork  # noqa: E402
from alphazero.play.self_play_games import play_self_play  # noqa: E402
from alphazero.play.workers import WorkerPool  # noqa: E402
from dual_network import build_network, parse_args as network_flags  # noqa: E402
from export import export  # noqa: E402
from alphazero.settings import (ExplorationSettings, NetworkSettings, SearchSettings,  # noqa: E402
                                SelfPlaySettings)
from self_play import parse_args as self_play_flags  # noqa: E402


def default_model(game, directory):
    """An untrained network of the game's default kind and size (what dual_network.py makes for
    it), exported to ONNX."""
    path = os.path.join(directory, f'{game.NAME}.h5')
    save_model(build_network(game, settings_of(NetworkSettings, network_flags(['--game', game.NAME]))), path)
    export(path, game=game)
    return os.path.splitext(path)[0] + '.onnx'


def self_play_settings(game):
    """The game's (search, exploration) settings of self-play, as self_play.py reads them from its recipe."""
    args = self_play_flags(['--game', game.NAME])
    return settings_of(SearchSettings, args), settings_of(ExplorationSettings, args)


def timed(play):
    start = time.perf_counter()
    (position, *_), _ = play()
    return len(position) / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--game', action='append', help='(default: connect4 and othello8)')
    parser.add_argument('--games', type=int, default=64, help='self-play games per measurement (default: %(default)s)')
    parser.add_argument('--max-workers', type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        for name in args.game or ['connect4', 'othello8']:
            game = load_game(name)
            onnx_path, (search, exploration) = default_model(game, directory), self_play_settings(game)
            local = OnnxNetwork(onnx_path)
            rng = np.random.default_rng(0)
            plays = SelfPlaySettings(games=args.games)
            play_self_play(game, local, SelfPlaySettings(games=4), search, exploration, rng)  # warm-up
            single = timed(lambda: play_self_play(game, local, plays, search, exploration, rng))
            print(f'{name}: in one process {single:.0f} positions/s ({search.sims} simulations, {args.games} games)')
            for workers in range(1, args.max_workers + 1):
                with WorkerPool(workers) as pool:
                    pool.self_play(game, onnx_path, SelfPlaySettings(games=2 * workers), search, exploration,
                                   seed=0)  # warm-up
                    rate = timed(lambda: pool.self_play(game, onnx_path, plays, search, exploration, seed=1))
                print(f'{name}: {workers} Ray worker(s) x {pool.threads} thread(s): {rate:.0f} positions/s, '
                      f'{rate / single:.2f} x one process')


if __name__ == '__main__':
    main()
