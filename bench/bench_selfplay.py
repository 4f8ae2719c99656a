"""Self-play speed, side by side in one run, on the book's default network (128 filters, 16 blocks).

    (a) the book's loop: the reference search calling model.predict for every leaf
    (a2) the same loop as pv_mcts.py runs it now: one traced TensorFlow call per leaf
    (b) the batched engine on onnxruntime, no cache
    (c) the batched engine on onnxruntime, with the evaluation cache
    (d) raw batched onnxruntime inference of the same network (the limit for (b))

Prints positions/s (moves played) and network evaluations/s of each, and the ratios b/a, c/a, b/d.
Run: .venv/bin/python bench/bench_selfplay.py [--book-games 2 --games 256 --parallel 64 --cache-games 500]
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

import game  # noqa: E402
from alphazero.search.evaluator import Evaluator  # noqa: E402
from alphazero.network.model_file import save_model  # noqa: E402
from alphazero.network.runtimes import KerasNetwork, OnnxNetwork  # noqa: E402
from alphazero.play.players import MctsPlayer
from alphazero.play.loop import play_games  # noqa: E402
from alphazero.settings import SearchSettings  # noqa: E402
from dual_network import DN_FILTERS, DN_RESIDUAL_NUM, build_dual_network  # noqa: E402
from export import export  # noqa: E402
from pv_mcts import PV_EVALUATE_COUNT, pv_mcts_scores  # noqa: E402


class CountingNetwork:
    """A network that counts the positions it evaluates; `predict` chooses the book's model.predict."""

    def __init__(self, model, predict):
        self.model = model
        self.network = None if predict else KerasNetwork(model)
        self.evaluations = 0

    def __call__(self, planes):
        self.evaluations += len(planes)
        if self.network:
            return self.network(planes)
        policies, values = self.model.predict(planes, verbose=0)
        return policies, values.reshape(-1)


def book_loop(model, games, sims, predict=True):
    network = CountingNetwork(model, predict)
    positions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.State()
        while not state.is_done():
            scores = pv_mcts_scores(network, state, 1.0, sims)
            state = state.next(int(np.random.choice(state.legal_actions(), p=scores)))
            positions += 1
    return positions, network.evaluations, time.perf_counter() - start


def engine(network, games, sims, cache, parallel=None):
    evaluator = Evaluator(network, cache)
    player = MctsPlayer(evaluator, SearchSettings(sims=sims), 1.0, np.random.default_rng(0))
    start = time.perf_counter()
    results = play_games(game.State, [(player, player)] * games, parallel, record=True)
    seconds = time.perf_counter() - start
    return sum(len(game.records) for game in results), evaluator.evaluations, seconds, evaluator


def raw_inference(network, batch, seconds=5.0):
    from alphazero.game.registry import sample_positions
    planes = np.stack([s.planes() for s in sample_positions(game, batch)])
    network(planes)
    times = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        start = time.perf_counter()
        network(planes)
        times.append(time.perf_counter() - start)
    return batch / statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--book-games', type=int, default=2)
    parser.add_argument('--games', type=int, default=256, help='games for (b)')
    parser.add_argument('--parallel', type=int, default=64, help='games of (b) played at once, the batch of (d)')
    parser.add_argument('--cache-games', type=int, default=500, help='games for (c), as in one self-play stage')
    parser.add_argument('--sims', type=int, default=PV_EVALUATE_COUNT)
    parser.add_argument('--filters', type=int, default=DN_FILTERS)
    parser.add_argument('--blocks', type=int, default=DN_RESIDUAL_NUM)
    args = parser.parse_args()

    import keras
    keras.utils.set_random_seed(0)
    model = build_dual_network(game.INPUT_SHAPE, game.ACTION_COUNT, args.filters, args.blocks)
    folder = tempfile.mkdtemp()
    save_model(model, os.path.join(folder, 'best.h5'))
    export(os.path.join(folder, 'best.h5'), os.path.join(folder, 'best.onnx'), game)
    onnx = OnnxNetwork(os.path.join(folder, 'best.onnx'))
    print(f'network: {args.blocks} blocks, {args.filters} filters; {args.sims} simulations per move; '
          f'{os.cpu_count()} CPUs')

    rows = {}
    positions, evaluations, seconds = book_loop(model, args.book_games, args.sims)
    rows['a'] = ('book loop, model.predict per leaf', args.book_games, positions, evaluations, seconds, '')
    positions, evaluations, seconds = book_loop(model, args.book_games, args.sims, predict=False)
    rows['a2'] = ('book loop, traced call per leaf', args.book_games, positions, evaluations, seconds, '')
    positions, evaluations, seconds, _ = engine(onnx, args.games, args.sims, False, args.parallel)
    rows['b'] = (f'batched, onnxruntime, no cache, {args.parallel} live', args.games, positions, evaluations, seconds, '')
    positions, evaluations, seconds, evaluator = engine(onnx, args.cache_games, args.sims, cache=True)
    rows['c'] = ('batched, onnxruntime, cache', args.cache_games, positions, evaluations, seconds,
                 f'hit rate {evaluator.hit_rate:.1%}')
    raw = raw_inference(onnx, args.parallel)

    print(f'{"":5}{"what":40}{"games":>7}{"positions":>11}{"evals":>9}{"seconds":>9}{"positions/s":>13}{"evals/s":>10}')
    rate = {}
    for key, (what, games, positions, evaluations, seconds, note) in rows.items():
        rate[key] = (positions / seconds, evaluations / seconds)
        print(f'{"(" + key + ")":4} {what:40}{games:>7}{positions:>11}{evaluations:>9}{seconds:>9.1f}'
              f'{rate[key][0]:>13.1f}{rate[key][1]:>10.0f}  {note}')
    print(f'(d)  {"raw onnxruntime inference, batch " + str(args.parallel):40}{"":>49}{raw:>10.0f}')
    print(f'a2/a positions/s: {rate["a2"][0] / rate["a"][0]:.0f}x   b/a: {rate["b"][0] / rate["a"][0]:.0f}x   '
          f'c/a: {rate["c"][0] / rate["a"][0]:.0f}x   b/d evals/s: {rate["b"][1] / raw:.2f}')


if __name__ == '__main__':
    main()
