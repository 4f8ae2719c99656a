"""Exact strength of a player, for games small enough to solve (tic-tac-toe: 5,478 positions).

solve() runs minimax with a memo over every position reachable from the start. exact_strength()
then judges a search player against the truth:
- optimal-move accuracy: the share of all reachable unfinished positions where its move (search at
  temperature 0) keeps the game-theoretic value;
- value accuracy: the share where the value head's output, rounded to the nearest of -1, 0 and 1,
  equals the true value;
- games against a perfect player, from every opening: the perfect player tries every optimal move,
  so each line of play it allows is one game; the model as first and as second player.
"""
from collections import Counter

import numpy as np

from alphazero.game.values import player_value, terminal_value
from alphazero.play.agent import Agent
from alphazero.settings import SearchSettings

RESULT_NAMES = {1: 'win', 0: 'draw', -1: 'loss'}


def position_key(state):
    return state.planes().tobytes()


def solve(game):
    """{position key: (state, value for the side to move)} for every reachable position."""
    table = {}

    def value(state):
        key = position_key(state)
        if key not in table:
            if state.is_done():
                result = terminal_value(state)
            else:
                result = max(-value(state.next(action)) for action in state.legal_actions())
            table[key] = (state, result)
        return table[key][1]

    value(game.State())
    return table


def optimal_actions(state, table):
    best = table[position_key(state)][1]
    return [a for a in state.legal_actions() if -table[position_key(state.next(a))][1] == best]


def games_against_perfect(game, table, player, model_first):
    """Counter of 'win', 'draw', 'loss' (the model's view) over every line the perfect player allows."""
    results = Counter()
    frontier = [game.State()]
    while frontier:
        model_turn = [s for s in frontier if s.is_first_player() == model_first]
        following = [s.next(action) for s, (action, _) in zip(model_turn, player.choose(model_turn) if model_turn else [])]
        following += [s.next(a) for s in frontier if s.is_first_player() != model_first for a in optimal_actions(s, table)]
        frontier = []
        for state in following:
            if not state.is_done():
                frontier.append(state)
            else:
                results[RESULT_NAMES[player_value(state, model_first)]] += 1
    return results


def exact_strength(game, network, sims, table=None):
    table = table or solve(game)
    player = Agent(game, network, SearchSettings(sims=sims, solver=False), rng=np.random.default_rng(0))
    evaluator = player.evaluator
    positions = [state for state, _ in table.values() if not state.is_done()]
    truth = np.array([table[position_key(s)][1] for s in positions])

    # The search's move in every position
    actions = [action for action, _ in player.choose(positions)]
    optimal = [-table[position_key(s.next(a))][1] == v for s, a, v in zip(positions, actions, truth)]

    # The value head's verdict in every position
    _, values = evaluator(positions)
    value_correct = np.clip(np.round(values), -1, 1) == truth

    first = games_against_perfect(game, table, player, True)
    second = games_against_perfect(game, table, player, False)
    return {'positions': len(positions), 'optimal_move_accuracy': float(np.mean(optimal)),
            'value_accuracy': float(np.mean(value_correct)),
            'vs_perfect_first': dict(first), 'vs_perfect_second': dict(second),
            'perfect_play': bool(np.all(optimal)) and not first['loss'] and not second['loss']}


def describe(strength):
    def games(results):
        return ', '.join(f'{results.get(k, 0)} {k}' for k in ('win', 'draw', 'loss'))
    wrong = round(strength['positions'] * (1 - strength['optimal_move_accuracy']))
    return (f'optimal-move accuracy {strength["optimal_move_accuracy"]:.2%} ({wrong} of {strength["positions"]} '
            f'positions get a move that gives away the game-theoretic value), '
            f'value accuracy {strength["value_accuracy"]:.1%}\n'
            f'vs perfect player: as first {games(strength["vs_perfect_first"])}; '
            f'as second {games(strength["vs_perfect_second"])}')
