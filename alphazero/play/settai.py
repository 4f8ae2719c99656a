"""接待 (settai) mode: a player that aims for a close game rather than a win, without throwing it."""
import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from alphazero.game.solved import OutOfNodes, best_margin, exact_margin

SETTAI_FLOOR = 0.0   # settai mode never plays a move whose searched value for it is below this,


SETTAI_GIVE = 0.4    # nor one worse than its best move's by more than this


SETTAI_MIN_SIMS = 16  # simulations per move searched in settai mode, at least


SETTAI_DRIFT_CAP = 0.5  # and it lowers (or raises) its aim for a weaker (stronger) opponent by at most this


SETTAI_EXACT_EMPTIES = 10  # with at most this many empty squares it searches the final margins exactly,


SETTAI_EXACT_NODES = 50_000  # when that takes at most this many positions (else its search decides)


def settai_choice(legal_actions, visits, q, margins=None, aim=0.0, margin_aim=0.0):
    """接待 (settai): the move that keeps the game closest to even without throwing it. Among the
    searched moves whose value for the side to move is at least SETTAI_FLOOR and within SETTAI_GIVE
    of the best move's, the one whose final margin (a margin head's prediction, for the side to move)
    is nearest 0, or without margins the one whose value is nearest 0; the best searched move (then
    the most visited) when no move qualifies: the side to move is behind, and plays to catch up.
    `visits`, `q` (and `margins`) are indexed by action.

    The aims move "even": below 0 against an opponent weaker than the search expects, which gives
    value away with each reply (SettaiDrift), so that the game ends close all the same; there the
    floor and the window below the best move are lowered by as much. Above 0 against a stronger one."""
    searched = [a for a in legal_actions if visits[a] > 0]
    best = max((q[a] for a in searched), default=0.0)
    candidates = [a for a in searched if q[a] >= max(SETTAI_FLOOR + aim, best - SETTAI_GIVE + min(aim, 0.0))]
    if not candidates:
        return max(searched or legal_actions, key=lambda a: (q[a], visits[a]))
    closeness = (lambda a: abs(margins[a] - margin_aim)) if margins is not None else (lambda a: abs(q[a] - aim))
    return min(candidates, key=lambda a: (closeness(a), -visits[a]))


@dataclass(frozen=True)
class Settai:
    """Settai mode for one game (settai_for). A game that ends with a margin (Othello's discs) gives
    `final_margin(state)`, the side to move's margin in a finished game: a value near even still lets
    a weaker opponent lose by many, so the aims follow the opponent's drift (SettaiDrift), and near
    the end the margins are searched exactly (settai_endgame). Without one (a win, draw or loss) a
    value near even already is a close game, and aiming lower only hands the game over."""
    final_margin: Optional[Callable] = None


def settai_endgame(state, final_margin):
    """Settai's last moves, searched to the end: with at most SETTAI_EXACT_EMPTIES empty squares,
    the move whose final margin, both sides playing their best, is the smallest that is not a loss
    (a draw when there is one; the first such move on ties), or, when every move loses, the move
    that loses by least. None when that search needs more than SETTAI_EXACT_NODES positions.
    Margins count discs or points: whole numbers, so a window of (-closest, 1) tells them apart."""
    if state.cells().count(0) > SETTAI_EXACT_EMPTIES:
        return None
    nodes_left = [SETTAI_EXACT_NODES]
    try:
        # Each move's margin, wanted only when it is at least 0 and below the closest so far
        chosen, closest = None, math.inf
        for action in state.legal_actions():
            margin = -exact_margin(state.next(action), final_margin, -closest, 1, nodes_left)
            if 0 <= margin < closest:
                chosen, closest = action, margin
        if chosen is not None:
            return chosen
        return best_margin(state, final_margin, nodes_left)[0]  # every move loses: the one that loses by least
    except OutOfNodes:
        return None


class SettaiDrift:
    """What a settai player learns of its opponent during a game. The search expects the opponent to
    play as well as the model; a weaker one gives some value away with each reply, so that a game
    aimed at even ends in a win all the same. After each reply the drift is the network's value of
    the position now less its value of the position the settai player's move left (both for that
    player; the same for predicted margins): the network's values, not the search's, since the best
    of several searched values is biased upwards. The next move aims at minus the drifts' mean (at
    most SETTAI_DRIFT_CAP), so that a typical reply brings the game back to even. A position that
    does not follow the move chosen before starts a new game."""

    def __init__(self):
        self.games = {}  # game key -> {'chosen': child state, 'value': ..., 'margin': ..., 'drifts': [(dv, dm)]}

    def aims(self, key, state, value, margin):
        """(aim, margin_aim) for settai_choice at `state`, given the network's value (and margin) of it."""
        seen = self.games.get(key)
        if seen is None or not follows(seen['chosen'], state):
            self.games[key] = {'drifts': []}
            return 0.0, 0.0
        margin_drift = margin - seen['margin'] if margin is not None and seen['margin'] is not None else 0.0
        seen['drifts'].append((value - seen['value'], margin_drift))

        def capped_mean(k):  # summed in order, as web/mcts.js does, so that both aim alike
            mean = sum(drift[k] for drift in seen['drifts']) / len(seen['drifts'])
            return min(SETTAI_DRIFT_CAP, max(-SETTAI_DRIFT_CAP, mean))
        return -capped_mean(0), -capped_mean(1)

    def chose(self, key, child, value, margin):
        """The move played: the position it leaves, and the network's value (and margin) of it."""
        self.games[key].update(chosen=child, value=value, margin=margin)


def follows(previous, state):
    """Whether `state` is one move after `previous` (compared by their input planes)."""
    planes = state.planes()
    return not previous.is_done() and any(np.array_equal(previous.next(a).planes(), planes)
                                          for a in previous.legal_actions())


def settai_for(game, on=True):
    """MctsPlayer's settai for `game`: None when off, else a Settai with the side to move's final
    margin when the game has one (its score)."""
    if not on:
        return None
    if game.score is None:
        return Settai()
    return Settai(lambda state: game.score(state) if state.is_first_player() else -game.score(state))
