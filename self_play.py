# ====================
# Self-play (the book's self_play.py)
# ====================
# The best player plays itself and records, for every move, the position, the search's move
# distribution (the policy target) and the game's final result from that move's side (the value
# target). Unlike the book, all games are played at once: each search step evaluates the new
# leaves of every live game in one network call.

import contextlib
import time

import numpy as np
from tqdm import tqdm

from alphazero.cli.run import ArgumentParser, run
from alphazero.data.history import history_path, write_history
from alphazero.data.run_folder import remove_stale_temporaries
from alphazero.search.search import SearchOptions
from alphazero.cli.flags import add_exploration_flags, add_search_flags, search_options
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.game.paths import data_dir, model_path
from alphazero.game.values import player_value
from alphazero.network.load import load_network
from alphazero.network.runtimes import use_device
from alphazero.limits import MAX_GAMES, MAX_PARALLEL, check_self_play, real_number, whole_number
from alphazero.play.self_play_games import play_self_play
from alphazero.network.onnx_export import ensure_onnx
from alphazero.cli.settings import parse_game_args
from alphazero.play.workers import add_worker_flags, worker_pool
from pv_mcts import PV_EVALUATE_COUNT

# Parameters
SP_GAME_COUNT = 500     # games per self-play stage (the AlphaZero paper: 25000)
SP_TEMPERATURE = 1.0    # Boltzmann temperature on the visit counts
SP_PARALLEL = 128     # games played at once (their new leaves share one network call)
SP_DIRICHLET_ALPHA = 0.0    # Dirichlet noise at the root: 0 is off, as in the book
SP_DIRICHLET_WEIGHT = 0.25  # its share of the root's priors when on (the AlphaZero paper)
SP_RANDOM_OPENING = 0   # games start after 0 to N random moves, not recorded: 0 is off, as in the book
SP_GREEDY_AFTER = None  # from this ply on, play the most visited move: None is never, as in the book
SP_Q_RATIO = 0.0        # the search's share in the value target: 0 is the game's result alone, as in the book


# The first player's result: 1 won, -1 lost, 0 draw
def first_player_value(ended_state):
    return player_value(ended_state, True)


# How self-play plays, as alphazero/play/self_play_games.py's play_self_play takes it (distill.py's teacher plays so too)
# (beyond the book: `options` change the search, `q_ratio` mixes the search's value of each position
# into its value target)
def self_play_settings(evaluate_count=PV_EVALUATE_COUNT, *, temperature=SP_TEMPERATURE, dirichlet_alpha=SP_DIRICHLET_ALPHA,
                       opening_moves=SP_RANDOM_OPENING, greedy_after=SP_GREEDY_AFTER, peek=True, parallel=SP_PARALLEL,
                       cache=True, options=SearchOptions(), q_ratio=SP_Q_RATIO):
    return {'sims': evaluate_count, 'temperature': temperature, 'dirichlet_alpha': dirichlet_alpha,
            'dirichlet_weight': SP_DIRICHLET_WEIGHT, 'greedy_after': greedy_after, 'opening_moves': opening_moves,
            'peek': peek, 'parallel': parallel, 'cache': cache, 'options': options, 'q_ratio': q_ratio}


# The settings that the search and exploration flags (over the game's recipe) give, at the book's
# temperature: how distill.py's teacher and bench/bench_workers.py play a game's self-play
def self_play_settings_of_flags(args):
    return self_play_settings(args.sims, dirichlet_alpha=args.dirichlet, opening_moves=args.random_opening,
                              greedy_after=args.greedy_after, peek=args.peek,
                              options=search_options(args), q_ratio=args.q_ratio)


# Self-play: returns the history file's path and the stage's statistics
def self_play(game=None, game_count=SP_GAME_COUNT, evaluate_count=PV_EVALUATE_COUNT, *,
              temperature=SP_TEMPERATURE, parallel=SP_PARALLEL, cache=True, backend='auto', seed=None,
              dirichlet_alpha=SP_DIRICHLET_ALPHA, opening_moves=SP_RANDOM_OPENING, greedy_after=SP_GREEDY_AFTER,
              peek=True, pool=None, path=None, options=SearchOptions(), q_ratio=SP_Q_RATIO):
    game = as_game(game)
    settings = self_play_settings(evaluate_count, temperature=temperature, dirichlet_alpha=dirichlet_alpha,
                                  opening_moves=opening_moves, greedy_after=greedy_after, peek=peek, parallel=parallel,
                                  cache=cache, options=options, q_ratio=q_ratio)

    # Play all games, many at a time (beyond the book: or on Ray workers, `pool`)
    start = time.perf_counter()
    if pool is None:
        network, description = load_network(model_path(game, 'best.h5'), game, backend)
        with tqdm(total=game_count, desc=f'self-play ({description})', unit='game') as progress:
            (position, policy, value, margin), counts = play_self_play(game, network, game_count, settings,
                                                                       np.random.default_rng(seed), progress)
    else:
        ensure_onnx(game)
        (position, policy, value, margin), counts = pool.self_play(game, model_path(game, 'best.onnx'), game_count,
                                                                   settings, seed)
    seconds = time.perf_counter() - start

    # Save the records (beyond the book: to `path` when given)
    path = path or history_path(data_dir(game))
    write_history(path, position, policy, value, evaluate_count, margin)
    stats = {'games': game_count, 'positions': len(value), 'seconds': seconds,
             'positions_per_second': len(value) / seconds, 'evaluations': counts['evaluations'],
             'cache_hit_rate': counts['hit_rate'] if cache else None}
    return path, stats


def parse_args(argv=None):
    parser = ArgumentParser(description='The best player plays itself; the games go to a new history file.')
    add_game_flag(parser)
    parser.add_argument('--games', type=whole_number(1, MAX_GAMES), default=SP_GAME_COUNT, help='games to play, SP_GAME_COUNT (default: %(default)s)')
    add_search_flags(parser, PV_EVALUATE_COUNT, PV_EVALUATE_COUNT)
    parser.add_argument('--temperature', type=real_number(0, 100), default=SP_TEMPERATURE,
                        help='Boltzmann temperature on the visit counts (default: %(default)s)')
    parser.add_argument('--parallel', type=whole_number(1, MAX_PARALLEL), default=SP_PARALLEL, help='games played at once (default: %(default)s)')
    add_exploration_flags(parser, SP_DIRICHLET_ALPHA, SP_RANDOM_OPENING, SP_GREEDY_AFTER, SP_DIRICHLET_WEIGHT)
    add_worker_flags(parser)
    args = parse_game_args(parser, argv, ('search', 'self_play', 'exploration'))
    game = load_game(args.game)
    check_self_play(game, args.games, args.sims, args.parallel)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    remove_stale_temporaries(game)
    use_device(args.device)
    with worker_pool(args) or contextlib.nullcontext() as pool:
        path, stats = self_play(game, args.games, args.sims, temperature=args.temperature, parallel=args.parallel,
                                cache=args.cache, backend=args.backend, seed=args.seed, dirichlet_alpha=args.dirichlet,
                                opening_moves=args.random_opening, greedy_after=args.greedy_after, peek=args.peek,
                                pool=pool, options=search_options(args), q_ratio=args.q_ratio)
    cache = f', cache hit rate {stats["cache_hit_rate"]:.1%}' if args.cache else ''
    print(f'wrote {path}: {stats["positions"]} positions from {stats["games"]} games, '
          f'{stats["positions_per_second"]:.1f} positions/s, {stats["evaluations"]} network evaluations{cache}')


if __name__ == '__main__':
    run(main)
