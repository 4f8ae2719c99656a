"""Play many games at once: the loop behind self-play and both evaluations.

A player chooses moves for a list of states at once (`choose(states, plies)` returns one action
and one full-length move distribution, or None, per state; plies[i] counts the moves played in
states[i]'s game so far). All live games whose side to move is the same
player are answered in one call, so a search player evaluates the leaves of all of them together.
"""
import numpy as np

from alphazero.batched_mcts import search
from pv_mcts import visits_to_scores


class MctsPlayer:
    """PV-MCTS over a batch of states, choosing by the visit counts at a temperature; from ply
    `greedy_after` of a game on, it plays the most visited move (the move distribution it returns
    stays the one at the temperature)."""

    def __init__(self, evaluator, evaluate_count, temperature, rng, dirichlet_alpha=0.0, dirichlet_weight=0.25,
                 greedy_after=None):
        self.evaluator = evaluator
        self.evaluate_count = evaluate_count
        self.temperature = temperature
        self.rng = rng
        self.root_noise = (dirichlet_alpha, dirichlet_weight, rng) if dirichlet_alpha > 0 else None
        self.greedy_after = greedy_after

    def choose(self, states, plies=None):
        visits = search(self.evaluator, states, self.evaluate_count, root_noise=self.root_noise)
        choices = []
        for i, (state, counts) in enumerate(zip(states, visits)):
            legal_actions = state.legal_actions()
            scores = visits_to_scores(counts[legal_actions], self.temperature)
            policy = np.zeros(len(counts), dtype=np.float32)
            policy[legal_actions] = scores
            if self.greedy_after is not None and plies is not None and plies[i] >= self.greedy_after:
                action = legal_actions[int(np.argmax(counts[legal_actions]))]
            else:
                action = self.rng.choice(legal_actions, p=scores)
            choices.append((int(action), policy))
        return choices


class FunctionPlayer:
    """A book-style player (a function from a state to an action), one state at a time."""

    def __init__(self, action_function):
        self.action_function = action_function

    def choose(self, states, plies=None):
        return [(self.action_function(state), None) for state in states]


def play_games(new_state, pairings, parallel=None, record=False, progress=None):
    """Play len(pairings) games, each between pairings[i] = (first player, second player).

    Up to `parallel` games are live at once (all of them by default); a finished game's place goes
    to the next one. Returns, per game in order, (final state, records), where records lists
    (input planes, move distribution) for every ply when `record` is set.
    """
    parallel = parallel or len(pairings)
    results = [None] * len(pairings)
    waiting = list(range(len(pairings)))[::-1]
    live = {}  # game index -> [state, records, plies played]
    while waiting or live:
        # Fill the free places with new games
        while waiting and len(live) < parallel:
            live[waiting.pop()] = [new_state(), [], 0]

        # Group the live games by the player to move, and let each player answer its group at once
        by_player = {}
        for index, (state, _, _) in live.items():
            player = pairings[index][0 if state.is_first_player() else 1]
            by_player.setdefault(id(player), (player, []))[1].append(index)
        for player, indices in by_player.values():
            choices = player.choose([live[i][0] for i in indices], [live[i][2] for i in indices])
            for index, (action, policy) in zip(indices, choices):
                state, records, plies = live[index]
                if record:
                    records.append((state.planes(), policy))
                live[index][0] = state.next(action)
                live[index][2] = plies + 1

        # Retire the finished games
        for index in [i for i, (state, _, _) in live.items() if state.is_done()]:
            results[index] = tuple(live.pop(index)[:2])
            if progress is not None:
                progress.update(1)
    return results

