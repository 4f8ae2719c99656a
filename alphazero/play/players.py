"""The players behind self-play, the evaluations and the levels: the search (MctsPlayer), the policy
alone (PolicyPlayer), the solver first (SolvingPlayer) and the book's functions (FunctionPlayer).
alphazero/play/agent.py puts the first three together into the AI that plays.

Each is a Player (alphazero/play/loop.py): choose(states, live_games) answers many live games at once."""
import time
from typing import NamedTuple

import numpy as np

from alphazero.errors import UserError
from alphazero.game.values import terminal_value
from alphazero.network.runtimes import set_margin_weight
from alphazero.play.loop import Player
from alphazero.play.settai import SETTAI_MIN_SIMS, SettaiDrift, settai_choice, settai_endgame
from alphazero.search.scores import searched_value, visits_to_scores
from alphazero.search.search import search_roots
from alphazero.settings import ExplorationSettings

DETERMINIZATIONS = 4  # samples of the hidden information searched per move (games that have some)


class Searched(NamedTuple):
    """What a full search of a position teaches the network: the move distribution (the policy
    target) and the search's value of the position for its side to move (the visit-weighted mean Q
    of the root's moves), which self-play may mix into the value target (--q-ratio); and, from a player
    made `with_lines`, the line the search expects (its principal line), which records keep beside the
    move."""
    policy: np.ndarray
    value: float
    line: tuple = ()


class MctsPlayer(Player):
    """PV-MCTS over a batch of states, choosing by the visit counts at a temperature: choose()
    returns (action, Searched) per state. From ply `greedy_after` of a game on, it plays the most
    visited move (the move distribution it returns stays the one at the temperature).

    For a game with hidden information, `determinize(state, rng)` gives a state whose hidden part
    is drawn anew from what the player can see; the player then searches DETERMINIZATIONS such
    states per move and adds up their visit counts, so it never uses what it cannot see.

    `search` (SearchSettings) says how it searches, and `exploration` (ExplorationSettings, self-play's)
    how it tries moves its network would not: root noise, and greedy_after. When the root policy
    chooses the move itself (Gumbel's, sampled at a temperature above 0 before greedy_after), the
    player plays it and the move distribution is the search's improved policy.
    `settai` (a Settai, from settai_for) plays a close game, not a win: settai_choice over every
    move's search, or settai_endgame near the end. `stop` (an engine's threading.Event) cuts a search
    short."""
    with_lines = False  # set: each Searched also holds the search's principal line (a record keeps it)

    def __init__(self, evaluator, search, temperature, rng, exploration=ExplorationSettings(), determinize=None,
                 settai=None, stop=None):
        if determinize is not None and (search.gumbel or settai):
            raise UserError('Gumbel root search and settai mode need the whole position: this game hides part of it '
                            '(self-play may see it: leave out --no-peek)')
        if search.margin_weight:
            set_margin_weight(evaluator.network, search.margin_weight, 'the model')
        self.evaluator = evaluator
        self.settings = search
        self.temperature = temperature
        self.rng = rng
        self.root_noise = (exploration.dirichlet, exploration.dirichlet_weight, rng) if exploration.dirichlet > 0 else None
        self.greedy_after = exploration.greedy_after
        self.determinize = determinize
        self.stop = stop
        self.settai = settai
        self.settai_drift = SettaiDrift() if settai and settai.final_margin else None

    def visits(self, states):
        """The visit counts of a search of each state (summed over the samples of what it hides)."""
        return self.search(states, [False] * len(states)).visits

    def search(self, states, greedy):
        sample = self.temperature > 0
        scales = [0.0 if g or not sample else 1.0 for g in greedy]
        if self.determinize is None:
            return search_roots(self.evaluator, states, self.settings, self.root_noise, (scales, self.rng),
                                stop=self.stop)
        drawn = [self.determinize(state, self.rng) for state in states for _ in range(DETERMINIZATIONS)]
        result = search_roots(self.evaluator, drawn, self.settings, self.root_noise, stop=self.stop)
        visits = result.visits.reshape(len(states), DETERMINIZATIONS, -1)
        q = result.q.reshape(len(states), DETERMINIZATIONS, -1)
        result.q = (visits * q).sum(axis=1) / np.maximum(visits.sum(axis=1), 1)  # each move's Q over all samples
        result.visits = result.target = visits.sum(axis=1)
        return result

    def choose(self, states, live_games=None):
        if self.settai:
            return self.settai_choices(states, live_games)
        greedy = [self.greedy_after is not None and live_games is not None and live_games[i].plies >= self.greedy_after
                  for i in range(len(states))]
        result = self.search(states, greedy)
        return [self.choice(state, result, row, greedy[row]) for row, state in enumerate(states)]

    def choice(self, state, result, row, greedy):
        """(action, Searched) from one root's search."""
        legal_actions = state.legal_actions()
        counts = result.visits[row]
        policy = np.zeros(len(counts), dtype=np.float32)
        if result.action is not None:  # the root policy chose (Gumbel's): its target is already a distribution
            action = int(result.action[row])
            policy[legal_actions] = result.target[row][legal_actions]
        else:
            policy[legal_actions] = visits_to_scores(result.target[row][legal_actions], self.temperature)
            if greedy:
                action = legal_actions[int(np.argmax(counts[legal_actions]))]
            else:
                scores = visits_to_scores(counts[legal_actions], self.temperature)
                action = self.rng.choice(legal_actions, p=scores)
        # a line of a drawn root (what the player cannot see, determinized) is no line of the game
        line = tuple(result.lines[row][0]) if self.with_lines and self.determinize is None else ()
        return int(action), Searched(policy, float(searched_value(counts, result.q[row])), line)

    def settai_choices(self, states, live_games=None):
        """Settai mode: near the end of a game with a margin, settai_endgame's move; else every legal
        move's position is searched on its own with the level's simulations (all in one batched search:
        a move costs as many searches as there are legal moves), so that each move has a value the
        search stands by, then settai_choice picks one, aimed by what the game has shown of the
        opponent (SettaiDrift). Returns (action, None) per state."""
        final_margin = self.settai.final_margin
        exact = [settai_endgame(state, final_margin) if final_margin else None for state in states]
        children = [[(a, state.next(a)) for a in state.legal_actions()] for state in states]
        open_children = [child for moves, known in zip(children, exact) if known is None
                         for _, child in moves if not child.is_done()]
        values = iter([])
        if open_children:  # each child's value for its side to move: the visit-weighted mean of its moves' Q
            result = search_roots(self.evaluator, open_children,
                                  self.settings.with_sims(max(SETTAI_MIN_SIMS, self.settings.sims)), stop=self.stop)
            values = iter(searched_value(result.visits, result.q))
        # The network's own values (and margins) of each position and of each move's, for the side to
        # move now: the drift's measure, and the margins settai_choice aims with
        planes = np.stack([state.planes() for state in states] + [child.planes() for moves in children for _, child in moves])
        _, raw_values, raw_margins = self.evaluator.network.outputs(planes)
        raw = [(float(v), None if raw_margins is None else float(m))
               for v, m in zip(raw_values, raw_margins if raw_margins is not None else raw_values)]
        after = iter(raw[len(states):])
        choices = []
        for i, moves in enumerate(children):
            own = {a: (-v, None if m is None else -m) for (a, _), (v, m) in zip(moves, after)}
            key = live_games[i].index if live_games is not None else None
            drift = self.settai_drift
            aim, margin_aim = drift.aims(key, states[i], *raw[i]) if drift else (0.0, 0.0)
            action = exact[i]
            if action is None:
                q = {a: -terminal_value(child) if child.is_done() else -next(values) for a, child in moves}
                margins = {a: m for a, (_, m) in own.items()} if raw_margins is not None else None
                action = settai_choice([a for a, _ in moves], dict.fromkeys(q, 1), q, margins, aim, margin_aim)
            if drift:
                drift.chose(key, dict(moves)[action], *own[action])
            choices.append((action, None))
        return choices


class PolicyPlayer(Player):
    """The network's policy alone, no search (the weakest levels): its most likely legal move at
    temperature 0, else a legal move drawn from the policy's probabilities raised to 1/temperature.
    Returns (action, None) per state."""

    def __init__(self, evaluator, temperature, rng):
        self.evaluator = evaluator
        self.temperature = temperature
        self.rng = rng

    def choose(self, states, live_games=None):
        policies, _ = self.evaluator(states)
        return [(policy_choice(state, policy, self.temperature, self.rng), None) for state, policy in zip(states, policies)]


def policy_choice(state, policy, temperature, rng):
    """The move the policy alone plays: its most likely legal move at temperature 0, else one drawn
    from the legal moves' probabilities raised to 1/temperature."""
    legal_actions = state.legal_actions()
    scores = visits_to_scores(policy[legal_actions], temperature)
    return int(rng.choice(legal_actions, p=scores / scores.sum()))


class SolvingPlayer(Player):
    """`player`, after the game's solver (the contract's `solve`: Othello's last empties, Connect
    Four's solver, a forced mate; as dlshogi runs df-pn before each search): a position it settles
    gets the solver's move and returns (action, the Solved), the others `player`'s choice. A loss
    without a margin (Connect Four: every move loses against perfect play) is left to `player`, whose
    move resists best."""

    def __init__(self, player, solve):
        self.player = player
        self.solve = solve

    def choose(self, states, live_games=None):
        solved = [self.solve(state) for state in states]
        settled = [s if s is not None and (s.value >= 0 or s.margin is not None) else None for s in solved]
        rest = [i for i, s in enumerate(settled) if s is None]
        searched = iter(self.player.choose([states[i] for i in rest], None if live_games is None else
                                           [live_games[i] for i in rest]) if rest else [])
        return [(s.line[0], s) if s is not None else next(searched) for s in settled]


class TimedPlayer(Player):
    """`player`, timed: `seconds` spent answering and `moves` answered, so that a match can say what a
    move cost each side (its games answered at once share a call, so this is the cost per move
    there, not one game's)."""

    def __init__(self, player):
        self.player = player
        self.seconds, self.moves = 0.0, 0

    def choose(self, states, live_games=None):
        start = time.perf_counter()
        choices = self.player.choose(states, live_games)
        self.seconds += time.perf_counter() - start
        self.moves += len(states)
        return choices

    def seconds_per_move(self):
        return self.seconds / self.moves if self.moves else None


class FunctionPlayer(Player):
    """A book-style player (a function from a state to an action), one state at a time."""

    def __init__(self, action_function):
        self.action_function = action_function

    def choose(self, states, live_games=None):
        return [(self.action_function(state), None) for state in states]
