# ====================
# The training cycle (the book's train_cycle.py)
# ====================
# Create the network, then repeat: self-play -> train -> evaluate against the best player (and, when
# the best player changed, export it to ONNX and evaluate it against the fixed opponents).

import argparse
import time

from alphazero.cli import UserError, run
from alphazero.games import add_game_flag, load_game, model_path
from dual_network import add_network_flags, check_network_flags, dual_network
from evaluate_best_player import EP_GAME_COUNT, evaluate_best_player
from evaluate_network import EN_GAME_COUNT, evaluate_network
from export import ensure_onnx
from pv_mcts import PV_EVALUATE_COUNT
from self_play import SP_GAME_COUNT, SP_PARALLEL, add_search_flags, check_positive, self_play
from train_network import RN_EPOCHS, train_network

# Parameters
TC_CYCLES = 10          # training cycles


def parse_args():
    parser = argparse.ArgumentParser(description='Train an AlphaZero player: self-play, training and evaluation, '
                                                 'cycle after cycle. With no flags it runs the book\'s settings.')
    add_game_flag(parser)
    parser.add_argument('--cycles', type=int, default=TC_CYCLES, help='training cycles (default: %(default)s)')
    parser.add_argument('--games', type=int, default=SP_GAME_COUNT, help='self-play games per cycle (default: %(default)s)')
    parser.add_argument('--epochs', type=int, default=RN_EPOCHS, help='training epochs per cycle (default: %(default)s)')
    parser.add_argument('--eval-games', type=int, default=EN_GAME_COUNT,
                        help='games of latest vs best per cycle (default: %(default)s)')
    parser.add_argument('--best-games', type=int, default=EP_GAME_COUNT,
                        help='games of best vs each fixed opponent (default: %(default)s)')
    parser.add_argument('--parallel', type=int, default=SP_PARALLEL, help='self-play games played at once (default: %(default)s)')
    add_network_flags(parser)
    add_search_flags(parser, PV_EVALUATE_COUNT)
    args = parser.parse_args()
    check_positive(args, 'cycles', 'games', 'epochs', 'eval_games', 'best_games', 'parallel', 'sims')
    check_network_flags(args)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    best = model_path(game, 'best.h5')
    if args.backend == 'onnx':
        raise UserError('--backend onnx is chosen automatically here once best.onnx exists; use auto or keras')

    # Create the dual network, and its ONNX copy for fast self-play
    if dual_network(game, args.filters, args.blocks):
        print(f'created {best} ({args.blocks} blocks, {args.filters} filters)')
    else:
        print(f'continuing from {best} (--filters and --blocks apply only to a new network)')
    ensure_onnx(game)

    for cycle in range(args.cycles):
        print(f'Train {cycle} ====================')
        times = {}

        # Self-play
        start = time.perf_counter()
        path, stats = self_play(game, args.games, args.sims, parallel=args.parallel, cache=args.cache,
                                backend=args.backend, seed=None if args.seed is None else args.seed + cycle)
        times['self-play'] = time.perf_counter() - start
        print(f'{path}: {stats["positions"]} positions, {stats["positions_per_second"]:.0f} positions/s')

        # Train the network
        start = time.perf_counter()
        train_network(game, args.epochs)
        times['train'] = time.perf_counter() - start

        # Evaluate the new network against the best one
        start = time.perf_counter()
        changed, _ = evaluate_network(game, args.eval_games, args.sims, cache=args.cache, backend=args.backend)
        times['evaluate'] = time.perf_counter() - start

        # When the best player changed: export it, and measure it against the fixed opponents
        if changed:
            start = time.perf_counter()
            ensure_onnx(game)
            evaluate_best_player(game, args.best_games, args.sims, cache=args.cache, backend=args.backend)
            times['export + best'] = time.perf_counter() - start
        print('time: ' + ', '.join(f'{name} {seconds:.1f} s' for name, seconds in times.items()))

    # Where the results are, and how to use them
    flag = '' if game.NAME == 'tictactoe' else f' --game {game.NAME}'
    print(f'\nbest model: {best} (Keras) and {best[:-3]}.onnx (ONNX)')
    print(f'play it:    python human_play.py{flag}   (or --text in a terminal)')


if __name__ == '__main__':
    run(main)
