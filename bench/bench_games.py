"""Speed of each game's rules, beside the network they feed, measured in one run.

For every game:
    moves/s      one search expansion: next(action) then legal_actions() of the new position
    planes/s     the network input of a position (State.planes)
    games/s      full random games (legal_actions, next and is_done every ply)
    network/s    positions per second through onnxruntime at batch 128, for the game's default
                 network (its recipe, games/NAME/recipe.py; the book's 128x16 for tic-tac-toe)
    rules share  (1/moves + 1/planes) / (1/network): the rules' cost per evaluated leaf against the
                 network's; well below 1 means the network, not the rules, bounds self-play
Each figure is the median of --repeats runs. A game whose optional library is missing (full shogi
without cshogi) is left out, and said so.
Run: .venv/bin/python bench/bench_games.py [--repeats 5] [--out docs/speed/games.json]
"""
import argparse
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from alphazero.errors import UserError  # noqa: E402
from alphazero.network.model_file import save_model
from alphazero.files import write_json  # noqa: E402
from alphazero.cli.flags import settings_of  # noqa: E402
from alphazero.settings import NetworkSettings  # noqa: E402
from alphazero.game.registry import GAMES, load_game, sample_positions  # noqa: E402
from alphazero.network.runtimes import OnnxNetwork  # noqa: E402
from dual_network import build_network, describe_network, parse_args as network_flags  # noqa: E402
from export import export  # noqa: E402

BATCH = 128


def per_second(work, count, repeats):
    """Median of `repeats` timings of work(), as `count` items per second."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return count / statistics.median(times)


def random_games(game, count, rng):
    for _ in range(count):
        state = game.State()
        while not state.is_done():
            state = state.next(rng.choice(state.legal_actions()))


def network_rate(game, repeats):
    """Positions per second of the game's default network (what dual_network.py makes for it), and
    its size in words."""
    settings = settings_of(NetworkSettings, network_flags(['--game', game.NAME]))
    with tempfile.TemporaryDirectory() as folder:
        h5, onnx = os.path.join(folder, 'net.h5'), os.path.join(folder, 'net.onnx')
        save_model(build_network(game, settings), h5)
        export(h5, onnx, game)
        network = OnnxNetwork(onnx)
    planes = np.stack([s.planes() for s in sample_positions(game, BATCH)])
    network(planes)  # warm up
    return per_second(lambda: [network(planes) for _ in range(5)], 5 * BATCH, repeats), describe_network(settings)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeats', type=int, default=5)
    parser.add_argument('--games', type=int, default=50, help='random games per timing')
    parser.add_argument('--out', help='also write the figures to this JSON file (docs/make_tables.py makes the '
                                      'table of docs/speed.md from docs/speed/games.json)')
    args = parser.parse_args()

    print(f'{"game":14} {"moves/s":>10} {"planes/s":>10} {"games/s":>9} {"network/s":>10} {"rules share":>11}  network')
    rows = []
    for name in GAMES:
        try:
            game = load_game(name)
        except UserError as error:
            print(f'{name:14} left out: {error}')
            continue
        positions = sample_positions(game, 2000, seed=1)
        children = [(state, random.Random(i).choice(state.legal_actions())) for i, state in enumerate(positions)]
        moves = per_second(lambda: [state.next(action).legal_actions() for state, action in children],
                           len(children), args.repeats)
        planes = per_second(lambda: [state.planes() for state in positions], len(positions), args.repeats)
        games = per_second(lambda: random_games(game, args.games, random.Random(2)), args.games, args.repeats)
        network, size = network_rate(game, args.repeats)
        share = (1 / moves + 1 / planes) * network
        print(f'{name:14} {moves:10.0f} {planes:10.0f} {games:9.1f} {network:10.0f} {share:11.2f}  {size}')
        rows.append({'game': name, 'moves_per_second': round(moves), 'planes_per_second': round(planes),
                     'random_games_per_second': round(games, 1), 'network_positions_per_second': round(network),
                     'network': size, 'rules_share': round(share, 3)})
    if args.out:
        write_json(args.out, {'how': f'python bench/bench_games.py {" ".join(sys.argv[1:])}', 'repeats': args.repeats,
                              'batch': BATCH, 'games': rows}, indent=1)


if __name__ == '__main__':
    main()
