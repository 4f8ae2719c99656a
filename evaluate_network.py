# ====================
# Evaluate the new network (the book's evaluate_network.py)
# ====================
# The latest network plays the best one; it becomes the best player only when it scores strictly
# more than half the points. Both search at EN_TEMPERATURE, taking turns at moving first.

import contextlib

from tqdm import tqdm

from alphazero.cli.flags import add_run_flags, add_settings_flags, settings_of
from alphazero.cli.run import ArgumentParser, run
from alphazero.cli.settings import parse_game_args
from alphazero.data.run_folder import hold_run_folder
from alphazero.files import copy_file
from alphazero.game.paths import model_path
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.limits import MAX_GAMES, check_search, real_number, whole_number
from alphazero.network.onnx_export import ensure_onnx
from alphazero.network.runtimes import use_device
from alphazero.play.matches import play_match
from alphazero.play.agent import AgentSpec, load_agent
from alphazero.play.workers import add_worker_flags, worker_pool
from alphazero.settings import SearchSettings
from self_play import first_player_value

# Parameters
EN_GAME_COUNT = 10      # games per evaluation (the AlphaZero paper: 400)
EN_TEMPERATURE = 1.0    # Boltzmann temperature of both players
KEEP_MESSAGE = 'Keep BestPlayer (the latest network must score more than 0.5)'  # beyond the book, which says nothing


# The first player's points: 1 won, 0 lost, 0.5 draw
def first_player_point(ended_state):
    value = first_player_value(ended_state)
    return (value + 1) / 2


# The average of a player's points
def average_point(points):
    return sum(points) / len(points)


# Replace the best player with the latest one
def update_best_player(game=None):
    game = as_game(game)
    copy_file(model_path(game, 'latest.h5'), model_path(game, 'best.h5'))
    print('Change BestPlayer')


# Evaluate latest against best; returns whether latest is better (then, with `update`, it replaced
# best) and the average point. Beyond the book: `search` (SearchSettings) says how both search
def evaluate_network(game=None, game_count=EN_GAME_COUNT, search=SearchSettings(), *, temperature=EN_TEMPERATURE,
                     backend='auto', seed=None, update=True, pool=None):
    game = as_game(game)

    # Play the games, all at once (beyond the book: or on Ray workers, `pool`, from the ONNX exports)
    if pool is not None:
        for name in ('latest.h5', 'best.h5'):
            ensure_onnx(game, name)
        description = f'evaluate latest vs best (on {pool.workers} Ray workers)'
        with tqdm(total=game_count, desc=description, unit='game') as progress, pool.showing(progress):
            points = pool.match(game, model_path(game, 'latest.onnx'), model_path(game, 'best.onnx'), game_count,
                                search, temperature, seed)
    else:
        latest, best = (load_agent(game, AgentSpec(model_path(game, name), search.sims, search=search,
                                                   temperature=temperature, backend=backend, seed=model_seed))
                        for name, model_seed in (('latest.h5', seed), ('best.h5', None if seed is None else seed + 1)))
        with tqdm(total=game_count, desc='evaluate latest vs best', unit='game') as progress:
            points = play_match(game, latest, best, game_count, progress)
    average = average_point(points)
    print('AveragePoint', average)

    # Replace the best player when the latest one scored more than half
    if average > 0.5:
        if update:
            update_best_player(game)
        return True, average
    if update:
        print(KEEP_MESSAGE)
    return False, average


def parse_args(argv=None):
    parser = ArgumentParser(description='Play latest.h5 against best.h5; latest becomes best when it '
                                        'scores more than 0.5 on average.')
    add_game_flag(parser)
    parser.add_argument('--games', type=whole_number(1, MAX_GAMES), default=EN_GAME_COUNT, help='games to play, EN_GAME_COUNT (default: %(default)s)')
    add_settings_flags(parser, SearchSettings)
    add_run_flags(parser)
    parser.add_argument('--temperature', type=real_number(0, 100), default=EN_TEMPERATURE,
                        help='Boltzmann temperature of both players (default: %(default)s)')
    add_worker_flags(parser)
    args = parse_game_args(parser, argv, ('search',))
    use_device(args.device)
    game = load_game(args.game)
    check_search(game, args.sims, args.games)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    hold_run_folder(game)
    with worker_pool(args) or contextlib.nullcontext() as pool:
        changed, _ = evaluate_network(game, args.games, settings_of(SearchSettings, args), temperature=args.temperature,
                                      backend=args.backend, seed=args.seed, pool=pool)
    if changed:
        ensure_onnx(game)


if __name__ == '__main__':
    run(main)
