"""How often a Connect Four model's move keeps the game-theoretic result, on solved positions.

The positions (bench/connect4_positions.json, made by bench/connect4_solver.py) come from play
between 14 and 34 stones, and each has at least one move that is worse than the best, so every
position tests something. For each model it prints:
- search: the share where the move of the search (temperature 0) keeps the best result;
- policy: the same for the network's own first choice, without search;
- value: the share where the value head, rounded to -1, 0 or 1, equals the exact result.
Run: .venv/bin/python bench/connect4_accuracy.py [--sims 50] MODEL.h5 [MODEL.h5 ...]
(with no model: the game's own best.h5, else the shipped one)
One position is 0.17 points of the 600 shipped, and two models' shares can differ by more than
half a point on them by chance (0.7 between twins of one model): to tell half a point, label more
positions with another seed (bench/connect4_solver.py --positions 2400 --seed 1 --out FILE) and
pass --positions FILE.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

import numpy as np  # noqa: E402

from games.connect4 import game as connect4  # noqa: E402
from alphazero.search.evaluator import Evaluator  # noqa: E402
from alphazero.errors import UserError  # noqa: E402
from alphazero.cli.run import run  # noqa: E402
from alphazero.game.paths import playing_model_path  # noqa: E402
from alphazero.network.load import load_network  # noqa: E402
from alphazero.play.players import MctsPlayer  # noqa: E402
from alphazero.settings import SearchSettings  # noqa: E402

POSITIONS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'connect4_positions.json')


def read_positions(path=POSITIONS_FILE):
    """[(state, {column: exact result after it})] from a labelled file."""
    try:
        with open(path) as f:
            labelled = json.load(f)['positions']
    except (OSError, ValueError, KeyError) as error:
        raise UserError(f'cannot read {path} ({error}); make it with bench/connect4_solver.py') from None
    positions = []
    for entry in labelled:
        state = connect4.State()
        for column in entry['moves']:
            state = state.next(int(column))
        positions.append((state, {int(c): r for c, r in entry['results'].items()}))
    return positions


def accuracy(network, positions, sims):
    states = [state for state, _ in positions]
    best = np.array([max(results.values()) for _, results in positions])

    def keeps(actions):
        return float(np.mean([results[a] == b for (_, results), a, b in zip(positions, actions, best)]))

    evaluator = Evaluator(network)
    policies, values = evaluator(states)
    prior_actions = [max(s.legal_actions(), key=lambda a: p[a]) for s, p in zip(states, policies)]
    player = MctsPlayer(evaluator, SearchSettings(sims=sims), 0.0, np.random.default_rng(0))
    search_actions = [action for action, _ in player.choose(states)]
    return {'positions': len(states), 'search': keeps(search_actions), 'policy': keeps(prior_actions),
            'value': float(np.mean(np.clip(np.round(values), -1, 1) == best))}


def main():
    parser = argparse.ArgumentParser(description='Share of solved Connect Four positions where a model keeps the result.')
    parser.add_argument('models', nargs='*', help='model files (default: the game\'s best.h5, else the shipped one)')
    parser.add_argument('--sims', type=int, default=50, help='simulations per move of the search (default: %(default)s)')
    parser.add_argument('--positions', default=POSITIONS_FILE, help='labelled positions (default: %(default)s)')
    args = parser.parse_args()
    positions = read_positions(args.positions)
    for path in args.models or [playing_model_path(connect4)]:
        network, description = load_network(path, connect4)
        result = accuracy(network, positions, args.sims)
        print(f'{description}: keeps the result in {result["search"]:.1%} of {result["positions"]} positions '
              f'with {args.sims} simulations, {result["policy"]:.1%} by its policy alone; '
              f'value right in {result["value"]:.1%}')


if __name__ == '__main__':
    run(main)
