"""int8 against float32, side by side in one run, for every shipped network (pretrained/NAME/).

For each model: its int8 twin (pretrained/NAME/best.int8.onnx, else quantized here), how often it
ranks the same legal move first as the float model and its value error on positions the model
reaches against itself (held back from the calibration), then positions a second of both on one
core at the batch sizes play (1: one game's search evaluates one leaf at a time) and self-play (64,
256 games at once) use, in alternating rounds, median and slowest of the rounds, and the ratio of
the medians. Last, self-play positions (moves played) a second of a whole batched stage with each
network, on one core. The processor's vector features decide how much int8 gains: VNNI and AMX
have int8 dot products; with AVX2 alone the gain is smaller.

Run: .venv/bin/python bench/bench_int8.py [--rounds 3 --seconds 2 --games 64 --sims 32 --out FILE.json]
(docs/speed/int8.json holds the run docs/speed.md shows; docs/make_tables.py makes its table.)
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from alphazero.game.registry import load_game  # noqa: E402
from alphazero.network.quantize import compare, int8_path, model_positions, quantize  # noqa: E402
from alphazero.network.runtimes import OnnxNetwork, evaluation_rate  # noqa: E402
from alphazero.play.loop import play_games  # noqa: E402
from alphazero.play.players import MctsPlayer  # noqa: E402
from alphazero.search.evaluator import Evaluator  # noqa: E402
from alphazero.settings import SearchSettings  # noqa: E402

PRETRAINED = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'pretrained')
BATCHES = (1, 64, 256)
VECTOR_FEATURES = ('avx2', 'avx512f', 'avx512_vnni', 'avx_vnni', 'amx_int8')


def processor():
    """The processor's name and which of VECTOR_FEATURES it has."""
    name, flags = 'unknown', set()
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name') and name == 'unknown':
                    name = line.split(':', 1)[1].strip()
                if line.startswith('flags'):
                    flags = set(line.split(':', 1)[1].split())
    except OSError:
        pass
    return name, [feature for feature in VECTOR_FEATURES if feature in flags]


def self_play_rate(network, game, games, sims):
    """Moves a second of `games` games of self-play at once, `sims` simulations a move."""
    player = MctsPlayer(Evaluator(network), SearchSettings(sims=sims), 1.0, np.random.default_rng())
    start = time.perf_counter()
    results = play_games(game.State, [(player, player)] * games)
    return sum(len(r.moves) for r in results) / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--seconds', type=float, default=2.0, help='per batch size and network in each round')
    parser.add_argument('--games', type=int, default=64, help='self-play games at once (0: leave self-play out)')
    parser.add_argument('--sims', type=int, default=32, help='self-play simulations per move')
    parser.add_argument('--only', action='append', help='only this shipped model (repeatable)')
    parser.add_argument('--out', help='also write the figures to this JSON file')
    args = parser.parse_args()
    name, features = processor()
    report = {'processor': name, 'features': features, 'rounds': args.rounds, 'seconds': args.seconds,
              'batches': list(BATCHES), 'models': {}, 'self_play': {}}
    print(f'processor: {name}; features: {", ".join(features) or "none of " + ", ".join(VECTOR_FEATURES)}; one core')
    print(f'{"model":14} {"top move":>8} {"|dv|":>6} ' + ' '.join(f'{"b" + str(b) + " float":>10} {"int8":>7} {"ratio":>5}'
                                                             for b in BATCHES))
    stage = []
    for model in sorted(args.only or os.listdir(PRETRAINED)):
        onnx_path = os.path.join(PRETRAINED, model, 'best.onnx')
        if not os.path.exists(onnx_path):
            continue
        try:
            game = load_game(model)
        except Exception as error:  # full shogi without cshogi
            print(f'{model:14} skipped ({str(error)[:60]})')
            continue
        with tempfile.TemporaryDirectory() as folder:
            quantized = int8_path(onnx_path)
            if not os.path.exists(quantized):
                quantized = os.path.join(folder, 'best.int8.onnx')
                quantize(onnx_path, game, quantized)
            float_network, int8_network = OnnxNetwork(onnx_path, threads=1), OnnxNetwork(quantized, threads=1)
            check = compare(float_network, int8_network, model_positions(float_network, game, 512, np.random.default_rng()))
            planes = np.stack([s.planes() for s in model_positions(float_network, game, max(BATCHES), np.random.default_rng())])
            rates = {(b, kind): [] for b in BATCHES for kind in ('float', 'int8')}
            for _ in range(args.rounds):
                for b in BATCHES:
                    for kind, network in (('float', float_network), ('int8', int8_network)):
                        rates[b, kind].append(evaluation_rate(network, planes[:b], args.seconds))
            cells = []
            for b in BATCHES:
                f, q = statistics.median(rates[b, 'float']), statistics.median(rates[b, 'int8'])
                cells.append(f'{f:>10,.0f} {q:>7,.0f} {q / f:>5.2f}')
            report['models'][model] = {'top_move_agreement': check.top_move_agreement, 'value_error': check.value_error,
                                       'positions': check.positions,
                                       'rates': {kind: {str(b): rates[b, kind] for b in BATCHES} for kind in ('float', 'int8')}}
            print(f'{model:14} {100 * check.top_move_agreement:>7.1f}% {check.value_error:>6.3f} ' + ' '.join(cells)
                  + '   (slowest: ' + ', '.join(f'b{b} {min(rates[b, "float"]):,.0f}/{min(rates[b, "int8"]):,.0f}'
                                                 for b in BATCHES) + ')')
            if args.games and model in ('othello8', 'connect4'):
                float_rates, int8_rates = [], []
                for _ in range(args.rounds):
                    float_rates.append(self_play_rate(float_network, game, args.games, args.sims))
                    int8_rates.append(self_play_rate(int8_network, game, args.games, args.sims))
                stage.append((model, float_rates, int8_rates))
    for model, float_rates, int8_rates in stage:
        report['self_play'][model] = {'games': args.games, 'sims': args.sims, 'float': float_rates, 'int8': int8_rates}
        f, q = statistics.median(float_rates), statistics.median(int8_rates)
        print(f'self-play {model}, {args.games} games at once, {args.sims} simulations a move: float {f:,.1f} '
              f'(slowest {min(float_rates):,.1f}), int8 {q:,.1f} (slowest {min(int8_rates):,.1f}) moves/s; ratio {q / f:.2f}')

    if args.out:
        with open(args.out, 'w') as f:
            json.dump(report, f, indent=1)
            f.write('\n')


if __name__ == '__main__':
    main()
