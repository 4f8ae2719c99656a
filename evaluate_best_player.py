# ====================
# Evaluate the best player (the book's evaluate_best_player.py)
# ====================
# The best network, searching at temperature 0, plays a random player, an alpha-beta player (perfect
# at tic-tac-toe) and a pure Monte Carlo tree search player, taking turns at moving first.
# For a game small enough to solve, it is also judged exactly against the solved game.

import argparse

from tqdm import tqdm

from alphazero.cli import run
from alphazero.exact import describe, exact_strength
from alphazero.games import add_game_flag, load_game, model_path, parse_game_args
from alphazero.match import FunctionPlayer, play_games
from evaluate_network import match_pairings, mcts_player, player_points
from pv_mcts import PV_EVALUATE_COUNT
from self_play import add_search_flags, check_positive

# Parameters
EP_GAME_COUNT = 10      # games against each opponent


# An average, or None for no games
def mean(points):
    return sum(points) / len(points) if points else None


# Play the best player against every opponent; returns {name: {'all', 'first', 'second': average point}}
# and, for a solvable game, {'exact': its exact strength}
def evaluate_best_player(game=None, game_count=EP_GAME_COUNT, evaluate_count=PV_EVALUATE_COUNT,
                         cache=True, backend='auto', seed=None, exact=True):
    game = game or load_game()
    best = mcts_player(model_path(game, 'best.h5'), game, evaluate_count, 0.0, cache, backend, seed)

    # All games against all opponents at once, so that the best player's searches share network calls
    opponents = game.opponents()
    names = list(opponents)
    pairings = []
    for action in opponents.values():
        pairings += match_pairings(best, FunctionPlayer(action), game_count)
    with tqdm(total=len(pairings), desc='evaluate best player', unit='game') as progress:
        results = play_games(game.State, pairings, progress=progress)

    # Average points per opponent: over all games, and as first (even games) and second player (odd)
    scores = {}
    for i, name in enumerate(names):
        points = player_points(results[i * game_count:(i + 1) * game_count])
        scores[name] = {'all': mean(points), 'first': mean(points[0::2]), 'second': mean(points[1::2])}
        print(f'{name} {scores[name]["all"]} (as first {scores[name]["first"]}, as second {scores[name]["second"]})')

    # Judged against the solved game
    if exact and getattr(game, 'SOLVABLE', False):
        scores['exact'] = exact_strength(game, best.evaluator, evaluate_count)
        print(describe(scores['exact']))
    return scores


def main():
    parser = argparse.ArgumentParser(description='Play the best player against random, alpha-beta and MCTS players.')
    add_game_flag(parser)
    parser.add_argument('--games', type=int, default=EP_GAME_COUNT,
                        help='games against each opponent, EP_GAME_COUNT (default: %(default)s)')
    add_search_flags(parser)
    args = parse_game_args(parser)
    check_positive(args, 'games', 'sims')
    evaluate_best_player(load_game(args.game), args.games, args.sims, args.cache, args.backend, args.seed)


if __name__ == '__main__':
    run(main)
