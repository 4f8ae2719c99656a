"""Play many games at once: the loop behind self-play, both evaluations and matches against engines.

A player chooses moves for a list of live games at once: `choose(states, games)` returns one action
and one full-length move distribution (or None) per state, where games[i] is the LiveGame that
states[i] belongs to (its opening and the moves played since). All live games whose side to move is
the same player are answered in one call, so a search player evaluates the leaves of all of them
together, and an engine player lets its engine processes think at the same time.
"""
import dataclasses
import math
import re
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Optional

import numpy as np

from alphazero.batched_mcts import Evaluator, SearchOptions, search_roots, searched_value, visits_to_scores
from alphazero.cli import UserError
from alphazero.games import player_value, terminal_value, value_for
from alphazero.inference import load_network, set_margin_weight


DETERMINIZATIONS = 4  # samples of the hidden information searched per move (games that have some)
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


class OutOfNodes(Exception):
    """The exact search needed more positions than it may visit."""


def exact_margin(state, final_margin, alpha, beta, nodes_left):
    """The final margin for the side to move when both sides play their best (negamax with
    alpha-beta, moves in legal_actions() order): exact when it lies between alpha and beta, else a
    bound beyond the one it crossed. nodes_left: a one-item list, the positions it may still visit."""
    nodes_left[0] -= 1
    if nodes_left[0] < 0:
        raise OutOfNodes
    if state.is_done():
        return final_margin(state)
    best = -math.inf
    for action in state.legal_actions():
        best = max(best, -exact_margin(state.next(action), final_margin, -beta, -max(alpha, best), nodes_left))
        if best >= beta:
            break
    return best


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
        # Every move loses: the one that loses by least
        best = -math.inf
        for action in state.legal_actions():
            margin = -exact_margin(state.next(action), final_margin, -math.inf, -best, nodes_left)
            if margin > best:
                chosen, best = action, margin
        return chosen
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


class Searched(NamedTuple):
    """What a full search of a position teaches the network: the move distribution (the policy
    target) and the search's value of the position for its side to move (the visit-weighted mean Q
    of the root's moves), which self-play may mix into the value target (--q-ratio)."""
    policy: np.ndarray
    value: float


class MctsPlayer:
    """PV-MCTS over a batch of states, choosing by the visit counts at a temperature: choose()
    returns (action, Searched) per state. From ply `greedy_after` of a game on, it plays the most
    visited move (the move distribution it returns stays the one at the temperature).

    For a game with hidden information, `determinize(state, rng)` gives a state whose hidden part
    is drawn anew from what the player can see; the player then searches `samples` such states per
    move and adds up their visit counts, so it never uses what it cannot see.

    Beyond the book: `options` (alphazero/batched_mcts.py's SearchOptions) change the search; with
    Gumbel root search the move is the search's choice (sampled at a temperature above 0 before
    `greedy_after`) and the move distribution is its improved policy. `fast_sims` turns on playout
    cap randomization (KataGo): each move is searched in full with probability `full_share`, else
    with `fast_sims` simulations, no noise and no forced playouts, and returns None for its Searched,
    so that self-play does not train on it. `settai` (a Settai, from settai_for) plays a close game,
    not a win: settai_choice over every move's search, or settai_endgame near the end."""

    def __init__(self, evaluator, evaluate_count, temperature, rng, dirichlet_alpha=0.0, dirichlet_weight=0.25,
                 greedy_after=None, determinize=None, samples=DETERMINIZATIONS, options=SearchOptions(),
                 fast_sims=None, full_share=1.0, settai=None):
        if determinize is not None and (options.gumbel or options.forced_playouts or settai):
            raise UserError('Gumbel root search, forced playouts and settai mode need the whole position: this game '
                            'hides part of it (self-play may see it: leave out --no-peek)')
        if options.margin_weight:
            set_margin_weight(evaluator.network, options.margin_weight, 'the model')
        self.evaluator = evaluator
        self.evaluate_count = evaluate_count
        self.temperature = temperature
        self.rng = rng
        self.root_noise = (dirichlet_alpha, dirichlet_weight, rng) if dirichlet_alpha > 0 else None
        self.greedy_after = greedy_after
        self.determinize = determinize
        self.samples = samples
        self.options = options
        self.fast_sims = fast_sims
        self.full_share = full_share
        self.settai = settai
        self.settai_drift = SettaiDrift() if settai and settai.final_margin else None

    def visits(self, states):
        """The visit counts of a full search of each state (summed over the samples of what it hides)."""
        return self.search(states, [False] * len(states), fast=False).visits

    def search(self, states, greedy, fast):
        options = dataclasses.replace(self.options, forced_playouts=0.0) if fast else self.options
        count, noise = (self.fast_sims, None) if fast else (self.evaluate_count, self.root_noise)
        sample = self.temperature > 0 and not fast
        scales = [0.0 if g or not sample else 1.0 for g in greedy]
        if self.determinize is None:
            return search_roots(self.evaluator, states, count, options, noise, (scales, self.rng))
        drawn = [self.determinize(state, self.rng) for state in states for _ in range(self.samples)]
        result = search_roots(self.evaluator, drawn, count, options, noise)
        visits = result.visits.reshape(len(states), self.samples, -1)
        q = result.q.reshape(len(states), self.samples, -1)
        result.q = (visits * q).sum(axis=1) / np.maximum(visits.sum(axis=1), 1)  # each move's Q over all samples
        result.visits = result.target = visits.sum(axis=1)
        return result

    def choose(self, states, games=None):
        if self.settai:
            return self.settai_choices(states, games)
        greedy = [self.greedy_after is not None and games is not None and games[i].plies >= self.greedy_after
                  for i in range(len(states))]
        full = np.ones(len(states), dtype=bool) if self.fast_sims is None else self.rng.random(len(states)) < self.full_share
        choices = [None] * len(states)
        for fast in (False, True):
            chosen = np.flatnonzero(full != fast)
            if not len(chosen):
                continue
            result = self.search([states[i] for i in chosen], [greedy[i] for i in chosen], fast)
            for row, i in enumerate(chosen):
                choices[i] = self.choice(states[i], result, row, greedy[i], fast)
        return choices

    def choice(self, state, result, row, greedy, fast):
        """(action, Searched or None) from one root's search."""
        legal_actions = state.legal_actions()
        counts = result.visits[row]
        policy = np.zeros(len(counts), dtype=np.float32)
        if self.options.gumbel:
            action = int(result.action[row])
            policy[legal_actions] = result.target[row][legal_actions]
        else:
            policy[legal_actions] = visits_to_scores(result.target[row][legal_actions], self.temperature)
            if greedy:
                action = legal_actions[int(np.argmax(counts[legal_actions]))]
            else:
                scores = visits_to_scores(counts[legal_actions], self.temperature)
                action = self.rng.choice(legal_actions, p=scores)
        if fast:
            return int(action), None
        return int(action), Searched(policy, float(searched_value(counts, result.q[row])))

    def settai_choices(self, states, games=None):
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
        count = max(SETTAI_MIN_SIMS, self.evaluate_count)
        values = iter([])
        if open_children:  # each child's value for its side to move: the visit-weighted mean of its moves' Q
            result = search_roots(self.evaluator, open_children, count, self.options)
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
            key = games[i].index if games is not None else None
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


class PolicyPlayer:
    """The network's policy alone, no search (the weakest levels): its most likely legal move at
    temperature 0, else a legal move drawn from the policy's probabilities raised to 1/temperature.
    Returns (action, None) per state."""

    def __init__(self, evaluator, temperature, rng):
        self.evaluator = evaluator
        self.temperature = temperature
        self.rng = rng

    def choose(self, states, games=None):
        policies, _ = self.evaluator(states)
        return [(policy_choice(state, policy, self.temperature, self.rng), None) for state, policy in zip(states, policies)]


def policy_choice(state, policy, temperature, rng):
    """The move the policy alone plays: its most likely legal move at temperature 0, else one drawn
    from the legal moves' probabilities raised to 1/temperature."""
    legal_actions = state.legal_actions()
    scores = visits_to_scores(policy[legal_actions], temperature)
    return int(rng.choice(legal_actions, p=scores / scores.sum()))


def settai_for(game, on=True):
    """MctsPlayer's settai for `game`: None when off, else a Settai with the side to move's final
    margin when the game has one (its score)."""
    if not on:
        return None
    if game.score is None:
        return Settai()
    return Settai(lambda state: game.score(state) if state.is_first_player() else -game.score(state))


def level_player(evaluator, level, rng, determinize=None, settai=None, options=SearchOptions()):
    """The player of a level (alphazero/levels.py): its policy alone at 0 simulations, else its
    search (with `options`; in settai mode, settai_choice over searches of at least SETTAI_MIN_SIMS)."""
    if level.simulations == 0 and not settai:
        return PolicyPlayer(evaluator, level.temperature, rng)
    return MctsPlayer(evaluator, level.simulations, level.temperature, rng, determinize=determinize, options=options,
                      settai=settai)


class FunctionPlayer:
    """A book-style player (a function from a state to an action), one state at a time."""

    def __init__(self, action_function):
        self.action_function = action_function

    def choose(self, states, games=None):
        return [(self.action_function(state), None) for state in states]


@dataclass
class LiveGame:
    """A game being played: game `index` of the pairings, started from `start` by the `opening`
    moves (not recorded), then `moves` by the players; `records` holds (input planes, move
    distribution, ply, the search's value) per recorded player move. An engine may end a game by a
    claim instead of a move: 'resign' (the side to move of `state` resigned) or 'win' (it declared a
    win, which the engine player has checked)."""
    index: int
    state: object
    opening: tuple = ()
    moves: list = field(default_factory=list)
    records: list = field(default_factory=list)
    claim: Optional[str] = None
    start: object = None

    @property
    def plies(self):
        """Moves played by the players so far (the opening not counted)."""
        return len(self.moves)

    def over(self):
        return self.claim is not None or self.state.is_done()

    def value(self, first_player):
        """The result of the finished game for the first player (first_player=True) or the second."""
        if self.claim is None:
            return player_value(self.state, first_player)
        return value_for(self.state, 1 if self.claim == 'win' else -1, first_player)


def play_games(new_state, pairings, parallel=None, record=False, progress=None, openings=None, starts=None,
               finished=None):
    """Play len(pairings) games, each between pairings[i] = (first player, second player).

    Game i starts from starts[i] (default: new_state()) after the moves openings[i] (none by
    default). Up to `parallel`
    games are live at once (all of them by default); a finished game's place goes to the next one.
    Returns the finished LiveGames in order: final state, opening, moves, and the records (input
    planes, move distribution) of every player move when `record` is set. `finished(index, game)`,
    when given, hears of each game as it ends.
    """
    parallel = parallel or len(pairings)
    results = [None] * len(pairings)
    waiting = list(range(len(pairings)))[::-1]
    live = {}  # game index -> LiveGame
    moves_played, shown = 0, time.monotonic()
    while waiting or live:
        # Fill the free places with new games, each after its opening
        while waiting and len(live) < parallel:
            index = waiting.pop()
            opening = tuple(openings[index]) if openings else ()
            start = state = starts[index] if starts else new_state()
            for action in opening:
                state = state.next(action)
            live[index] = LiveGame(index, state, opening, start=start)

        # Group the live games by the player to move, and let each player answer its group at once;
        # engines (other processes) are asked first, so that they think while our search runs
        by_player = {}
        for index, game in live.items():
            player = pairings[index][0 if game.state.is_first_player() else 1]
            by_player.setdefault(id(player), (player, []))[1].append(game)
        asked = [(games, player.ask([game.state for game in games], games))
                 for player, games in by_player.values() if hasattr(player, 'ask')]
        chosen = [(games, player.choose([game.state for game in games], games))
                  for player, games in by_player.values() if not hasattr(player, 'ask')]
        chosen += [(games, read_answers()) for games, read_answers in asked]
        for games, choices in chosen:
            for game, (action, searched) in zip(games, choices):
                if isinstance(action, str):  # an engine's claim: 'resign' or 'win'
                    game.claim = action
                    continue
                if record and searched is not None:  # a move searched cheaply (playout cap) is not trained on
                    game.records.append((game.state.planes(), searched.policy, game.plies, searched.value))
                game.state = game.state.next(action)
                game.moves.append(action)
                moves_played += 1
        # Games played side by side end together: meanwhile the progress bar counts their moves
        if progress is not None and time.monotonic() - shown >= 1.0:
            progress.set_postfix_str(f'{moves_played} moves')
            shown = time.monotonic()

        # Retire the finished games
        for index in [i for i, game in live.items() if game.over()]:
            game = live.pop(index)
            results[index] = game
            if progress is not None:
                progress.update(1)
            if finished is not None:
                finished(index, game)
    return results


def elo(score):
    """The Elo difference that makes `score` (0 to 1) the expected score; infinite at 0 and 1."""
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def match_summary(points, z=1.96):
    """Wins, draws, losses, the score, and the Elo difference with a 95% interval.

    The interval is Wilson's for the score (a draw counts half), so it stays finite on the side
    away from a clean sweep. Unbounded ends are None (JSON has no infinity).
    """
    count = len(points)
    score = sum(points) / count
    centre = (score + z * z / (2 * count)) / (1 + z * z / count)
    half = z * math.sqrt(score * (1 - score) / count + z * z / (4 * count * count)) / (1 + z * z / count)
    finite = [elo(s) if math.isfinite(elo(s)) else None for s in (score, centre - half, centre + half)]
    return {'games': count, 'wins': points.count(1), 'draws': points.count(0.5), 'losses': points.count(0),
            'all': score, 'elo': finite[0], 'elo_low': finite[1], 'elo_high': finite[2]}


def describe_match(summary):
    """'won 12, drew 3, lost 25, Elo -115 (95%: -230 to -20)'."""
    def signed(value, unbounded):
        return unbounded if value is None else f'{round(value):+d}'
    elo_text = (f'Elo {signed(summary["elo"], "-inf" if summary["all"] == 0 else "+inf")} '
                f'(95%: {signed(summary["elo_low"], "-inf")} to {signed(summary["elo_high"], "+inf")})')
    return f'won {summary["wins"]}, drew {summary["draws"]}, lost {summary["losses"]}, {elo_text}'


# Turn finished games into arrays: the value target of each recorded move is the game's result for
# the side that made it (going back from the end, the side flips every ply; a pass is a ply too),
# beyond the book mixed with its search's value of the position: (1 - q_ratio) x result + q_ratio x value,
# or replaced by the exact result where `exact_value` (the game's, alphazero/contract.py) knows it
def games_to_arrays(results, q_ratio=0.0, exact_value=None):
    positions, policies, values = [], [], []
    for played in results:
        last_mover_value = -terminal_value(played.state)
        exact = exact_values(played, exact_value) if exact_value else {}
        for planes, policy, ply, search_value in played.records:
            result = last_mover_value * (-1) ** (played.plies - 1 - ply)
            if exact.get(ply) is not None:
                values.append(exact[ply])
            else:
                values.append((1 - q_ratio) * result + q_ratio * search_value if q_ratio else result)
            positions.append(planes)
            policies.append(policy)
    return np.stack(positions), np.stack(policies), np.array(values, dtype=np.float32)


# {ply: the exact result for the side to move, or None} of a self-play game's recorded positions,
# from the game's exact_value (the positions replayed from the start, through the opening)
def exact_values(played, exact_value):
    state = played.start
    for action in played.opening:
        state = state.next(action)
    recorded, exact = {ply for _, _, ply, _ in played.records}, {}
    for ply, action in enumerate(played.moves):
        if ply in recorded:
            exact[ply] = exact_value(state)
        state = state.next(action)
    return exact


# The margin target of each recorded move: the game's final margin (discs, points) for the side
# that made it, flipping every ply as the values do, as a share of the game's MARGIN_SCALE
def games_to_margins(results, game):
    margins = []
    for played in results:
        end = game.score(played.state) * (1 if played.state.is_first_player() else -1)  # for the side to move
        margins += [-end * (-1) ** (played.plies - 1 - ply) for _, _, ply, _ in played.records]
    return np.clip(np.array(margins, dtype=np.float32) / game.MARGIN_SCALE, -1, 1)


# The moves of a random opening: 0 to `max_moves` random moves (none of which decides the
# game), so that self-play also meets positions that its own good moves would never reach
def random_opening(game, max_moves, rng):
    return random_moves(game, rng.integers(max_moves + 1), rng)[0]


# A search player for a model file; in a game with hidden information it searches only what it can
# see (samples of the rest), as whenever it plays someone else
def mcts_player(path, game, evaluate_count, temperature, cache=True, backend='auto', seed=None,
                options=SearchOptions(), settai=False):
    network, _ = load_network(path, game, backend)
    return MctsPlayer(Evaluator(network, cache), evaluate_count, temperature, np.random.default_rng(seed),
                      determinize=game.determinize, options=options, settai=settai_for(game, settai))


def play_self_play(game, network, count, settings, rng, progress=None):
    """`count` self-play games of one network, all at once; returns the (position, policy, value,
    margin) arrays (margin None for a game without one) and the evaluator's counts. `settings`: sims, temperature, dirichlet_alpha,
    dirichlet_weight, greedy_after, opening_moves, peek, parallel, cache, options, fast_sims, full_share,
    q_ratio, exact_values (self_play.py's flags)."""
    evaluator = Evaluator(network, cache=settings['cache'])
    # In a game with hidden information the search may see it (peek), as the point-Othello page's self-play does
    determinize = None if settings['peek'] else game.determinize
    player = MctsPlayer(evaluator, settings['sims'], settings['temperature'], rng, settings['dirichlet_alpha'],
                        settings['dirichlet_weight'], settings['greedy_after'], determinize,
                        options=settings['options'], fast_sims=settings['fast_sims'] or None,
                        full_share=settings['full_share'])
    opening_moves = settings['opening_moves']
    openings = [random_opening(game, opening_moves, rng) for _ in range(count)] if opening_moves else None
    results = play_games(game.State, [(player, player)] * count, settings['parallel'], record=True, progress=progress,
                         openings=openings)
    if not any(played.records for played in results):
        raise UserError(f'no move of the {count} self-play games was searched in full, so none can be trained on: '
                        'play more games or raise --full-share')
    margins = games_to_margins(results, game) if game.MARGIN_SCALE else None
    exact_value = game.exact_value if settings['exact_values'] else None
    return (*games_to_arrays(results, settings['q_ratio'], exact_value), margins), {'evaluations': evaluator.evaluations, 'lookups': evaluator.lookups,
                                                  'hit_rate': evaluator.hit_rate}


def engine_player(command, game):
    """Another program as a player: a USI engine for a game whose ENGINE_PROTOCOL is 'usi' (shogi),
    a UCI engine for 'uci' (the book's simple shogi), else a GTP engine."""
    if game.ENGINE_PROTOCOL in ('usi', 'uci'):
        from alphazero.usi import UsiEnginePlayer
        return UsiEnginePlayer(command, game)
    from alphazero.gtp import EnginePlayer
    return EnginePlayer(command, game)


def engine_problem(game):
    """Why other programs cannot play `game` with us, or None when they can."""
    if game.ENGINE_PROTOCOL in ('usi', 'uci'):
        return None
    from alphazero.gtp import gtp_problem
    return gtp_problem(game)


def opponent_name(name):
    """How an opponent is named to people: 'alpha-beta depth 2' for VS_AlphaBeta2, 'GRhino level 2'
    for the command "/usr/games/gtp-rhino -l 2", 'Fairy-Stockfish depth 3' for
    "/usr/games/fairy-stockfish; go depth 3" ('Fairy-Stockfish skill -20 depth 5' when it sets its Skill
    Level); else the name as given."""
    fixed = {'VS_Random': 'random player', 'VS_AlphaBeta': 'alpha-beta (perfect)', 'VS_MCTS': 'Monte Carlo tree search',
             'VS_Greedy': 'greedy player'}
    patterns = ((r'VS_AlphaBeta(\d+)', 'alpha-beta depth {}'), (r'\S*gtp-rhino -l (\d)', 'GRhino level {}'),
                (r'\S*fairy-stockfish\s*;\s*go depth (\d+)', 'Fairy-Stockfish depth {}'),
                (r'\S*fairy-stockfish\s*;\s*setoption name Skill Level value (-?\d+)\s*;\s*go depth (\d+)',
                 'Fairy-Stockfish skill {} depth {}'))
    for pattern, text in patterns:
        match = re.fullmatch(pattern, name.strip())
        if match:
            return text.format(*match.groups())
    return fixed.get(name, name)


def match_pairings(player, opponent, game_count):
    """Games between `player` and `opponent`: `player` moves first in the even-numbered games."""
    return [(player, opponent) if i % 2 == 0 else (opponent, player) for i in range(game_count)]


def game_point(result, first_player):
    """The point (1 win, 0.5 draw, 0 loss) a finished game gave its first player, or its second."""
    return (result.value(first_player) + 1) / 2


def player_points(results):
    """The points, game by game, of the player who moved first in the even-numbered games."""
    return [game_point(game, i % 2 == 0) for i, game in enumerate(results)]


def play_match(game, player, opponent, count, progress=None, openings=None):
    """`count` games, colours alternating (the player first in even games), from the same deal in
    pairs when the game deals at random, game i after the moves openings[i] (none by default);
    returns the player's points, game by game."""
    results = play_games(game.State, match_pairings(player, opponent, count), progress=progress,
                         openings=openings, starts=duplicate_starts(game, count))
    return player_points(results)


def duplicate_starts(game, count):
    """For a game whose start is random (point-Othello's values): `count` starts in pairs, so that
    the two games of a pair (colours swapped) are dealt the same luck. None for other games."""
    if not game.RANDOM_START:
        return None
    starts = [game.State() for _ in range((count + 1) // 2)]
    return [starts[i // 2] for i in range(count)]


def random_moves(game, count, rng):
    """`count` random moves from the start, none of which decides the game: each leaves it unfinished
    and gives the reply no win at once (in shogi a random move can hang the lion). Fewer when no such
    move is left."""
    state, moves = game.State(), []
    for _ in range(count):
        children = {action: state.next(action) for action in state.legal_actions()}
        undecided = [action for action, child in children.items() if not decided(child)]
        if not undecided:
            break
        action = int(rng.choice(undecided))
        state = children[action]
        moves.append(action)
    return moves, state


# Over, or won by the side to move's next move
def decided(state):
    return state.is_done() or any(state.next(action).is_lose() for action in state.legal_actions())


def distinct_openings(game, plies, count, rng, tries=1000):
    """`count` openings of `plies` random moves, each leading to a different position as long as
    enough different ones turn up (a small game repeats them)."""
    openings, seen = [], set()
    for _ in range(tries):
        if len(openings) == count:
            break
        moves, state = random_moves(game, plies, rng)
        key = (state.planes().tobytes(), state.is_first_player())
        if key not in seen:
            seen.add(key)
            openings.append(moves)
    return [openings[i % len(openings)] for i in range(count)]


def paired_openings(game, plies, count, rng):
    """The openings of a `count`-game match: distinct ones of `plies` random moves, each played
    twice in a row (colours alternate, so once with each colour); `plies` 0 starts every game from
    the start."""
    if not plies:
        return [[] for _ in range(count)]
    openings = distinct_openings(game, plies, (count + 1) // 2, rng)
    return [openings[i // 2] for i in range(count)]
