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

from alphazero.cli.flags import add_run_flags, add_settings_flags, settings_of
from alphazero.cli.run import ArgumentParser, run
from alphazero.cli.settings import parse_game_args
from alphazero.data.history import history_path, write_history
from alphazero.data.run_folder import hold_run_folder
from alphazero.game.paths import data_dir, model_path
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.game.values import player_value
from alphazero.limits import check_self_play
from alphazero.network.load import load_network
from alphazero.network.onnx_export import ensure_onnx
from alphazero.network.quantize import ensure_int8
from alphazero.network.runtimes import use_device
from alphazero.play.self_play_games import play_self_play
from alphazero.play.workers import add_worker_flags, worker_pool
from alphazero.settings import ExplorationSettings, SearchSettings, SelfPlaySettings

# Parameters (the book's; with the rest of self-play's, they are the defaults of alphazero/settings.py's
# SelfPlaySettings and ExplorationSettings)
SP_GAME_COUNT = SelfPlaySettings.games              # games per self-play stage: 500 (the AlphaZero paper: 25000)
SP_TEMPERATURE = SelfPlaySettings.temperature       # Boltzmann temperature on the visit counts: 1.0


# The first player's result: 1 won, -1 lost, 0 draw
def first_player_value(ended_state):
    return player_value(ended_state, True)


# Self-play: returns the history file's path and the stage's statistics. Beyond the book, `plays`
# (SelfPlaySettings), `search` and `exploration` say how, all at once; `pool` plays on Ray workers
# and `path` names the history file
def self_play(game=None, plays=SelfPlaySettings(), search=SearchSettings(), exploration=ExplorationSettings(), *,
              backend='auto', seed=None, pool=None, path=None):
    game = as_game(game)

    # Play all games, many at a time (beyond the book: or on Ray workers, `pool`)
    start = time.perf_counter()
    if backend == 'int8':
        ensure_int8(game)  # quantized again whenever best.h5 changed
    if pool is None:
        network, description = load_network(model_path(game, 'best.h5'), game, backend)
        with tqdm(total=plays.games, desc=f'self-play ({description})', unit='game') as progress:
            (position, policy, value, margin), counts = play_self_play(game, network, plays, search, exploration,
                                                                       np.random.default_rng(seed), progress)
    else:
        ensure_onnx(game)
        onnx_path = model_path(game, 'best.int8.onnx' if backend == 'int8' else 'best.onnx')
        description = f'self-play ({onnx_path} on {pool.workers} Ray workers)'
        with tqdm(total=plays.games, desc=description, unit='game') as progress, pool.showing(progress):
            (position, policy, value, margin), counts = pool.self_play(game, onnx_path, plays, search, exploration, seed)
    seconds = time.perf_counter() - start

    # Save the records (beyond the book: to `path` when given)
    path = path or history_path(data_dir(game))
    write_history(path, position, policy, value, search.sims, margin)
    stats = {'games': plays.games, 'positions': len(value), 'seconds': seconds,
             'positions_per_second': len(value) / seconds, 'evaluations': counts['evaluations'],
             'cache_hit_rate': counts['hit_rate'] if search.cache else None}
    return path, stats


def parse_args(argv=None):
    parser = ArgumentParser(description='The best player plays itself; the games go to a new history file.')
    add_game_flag(parser)
    for settings_class in (SelfPlaySettings, SearchSettings, ExplorationSettings):
        add_settings_flags(parser, settings_class)
    add_run_flags(parser)
    add_worker_flags(parser)
    args = parse_game_args(parser, argv, ('search', 'self_play', 'exploration'))
    game = load_game(args.game)
    check_self_play(game, args.games, args.sims, args.parallel)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    hold_run_folder(game)
    use_device(args.device)
    with worker_pool(args) or contextlib.nullcontext() as pool:
        path, stats = self_play(game, settings_of(SelfPlaySettings, args), settings_of(SearchSettings, args),
                                settings_of(ExplorationSettings, args), backend=args.backend, seed=args.seed, pool=pool)
    cache = f', cache hit rate {stats["cache_hit_rate"]:.1%}' if args.cache else ''
    print(f'wrote {path}: {stats["positions"]} positions from {stats["games"]} games, '
          f'{stats["positions_per_second"]:.1f} positions/s, {stats["evaluations"]} network evaluations{cache}')


if __name__ == '__main__':
    run(main)
