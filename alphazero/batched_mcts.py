"""PV-MCTS for many games at once, as plain arrays (the book's search, batched).

Each call searches one root per game. Every simulation walks down all the trees together, gathers
the new leaves of all games and evaluates them in one network call. The rules are exactly those of
pv_mcts.py (the reference): PUCT with C_PUCT, terminal values -1 (lost) and 0 (draw), the value
negated at each level on the way back, first maximum on ties. tests/test_search.py checks that both
return the same visit counts.

Tree storage, per game g and node index i (node 0 is the root), per action a:
    child[g, i, a]        index of the child node, -1 until the child is first visited
    visits[g, i, a]       N of that child, value_sum[g, i, a] its W (from the child's side to move)
    prior[g, i, a]        P from the network, legal[g, i, a] whether the move is legal
    terminal[g, i]        the node's position is over; end_value[g, i] its value then
Every simulation adds at most one node, so a search of S simulations needs S nodes per game.

Beyond the book, each off unless SearchOptions asks for it (docs/strength.md says what each buys):
- first-play urgency reduction (Leela Zero, KataGo): an unvisited move's Q is its parent's network
  value less `fpu_reduction` x sqrt(the prior of the moves already visited), instead of 0;
- forced playouts and policy target pruning (KataGo): at the root every move is visited at least
  sqrt(k P N) times, and those extra visits are taken out of the policy target afterwards;
- Gumbel root search (Danihelka et al. 2022, as mctx's gumbel_muzero_policy): the root samples
  `gumbel_considered` moves without replacement (Gumbel top-k), shares the simulations among them by
  sequential halving and returns the move left, and the policy target softmax(logits + sigma(completed
  Q)); below the root the search stays PUCT.
"""
import hashlib
import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from alphazero.games import terminal_value

C_PUCT = 1.0  # weight of the prior in the PUCT rule (the book's pv_mcts.py)
CACHE_BYTES = 1 << 30  # the evaluator's cache of network outputs holds at most this much
CACHE_OVERHEAD = 200   # bytes per cached position besides its policy (key, value, dictionary)
GUMBEL_VALUE_SCALE = 0.1    # sigma(q) = (GUMBEL_MAXVISIT_INIT + max N) x GUMBEL_VALUE_SCALE x q (mctx's defaults)
GUMBEL_MAXVISIT_INIT = 50.0


@dataclass(frozen=True)
class SearchOptions:
    """How the search differs from the book's; the defaults are the book's search."""
    c_puct: float = C_PUCT
    fpu_reduction: Optional[float] = None  # None: an unvisited move's Q is 0, as in the book
    forced_playouts: float = 0.0           # KataGo's k (2 in the paper); 0 is off
    gumbel_considered: int = 0             # moves the Gumbel root search considers (16 in the paper); 0 is PUCT
    margin_weight: float = 0.0             # a margin head's share in the value of a position (inference.py)

    @property
    def gumbel(self):
        return self.gumbel_considered > 0


@dataclass
class SearchResult:
    """What a search of many roots returns, one row per root (A = the game's actions)."""
    visits: np.ndarray   # (G, A) visit counts of the root's moves
    prior: np.ndarray    # (G, A) the root's priors as searched (with any noise), 0 for illegal moves
    q: np.ndarray        # (G, A) each visited move's mean value for the root's side to move, else 0
    value: np.ndarray    # (G,) the network's value of each root
    target: np.ndarray   # (G, A) the policy target: the visits (pruned with forced playouts) or Gumbel's
    action: Optional[np.ndarray] = None  # (G,) the move Gumbel's root search chose
    lines: Optional[list] = None         # per root: (principal line, its value), when asked for


def searched_value(visits, q):
    """The value a search found for the side to move at its root: the root's moves' Q weighted by
    their visits (over the last axis, so one root or a row per root)."""
    return (visits * q).sum(axis=-1) / np.maximum(visits.sum(axis=-1), 1)


def legal_policy(policy, legal_actions):
    """The policy restricted to the legal moves, renormalised (both searches use this, so they
    compute bit-identical numbers)."""
    policies = np.asarray(policy, dtype=np.float64)[legal_actions]
    total = policies.sum()
    return policies / total if total > 0 else policies


def boltzman(xs, temperature):
    """The book's Boltzmann distribution: counts raised to 1 / temperature, normalised."""
    xs = np.asarray(xs, dtype=np.float64) ** (1 / temperature)
    return xs / xs.sum()


def visits_to_scores(visits, temperature):
    """Visit counts to move probabilities: the most visited move at temperature 0, else boltzman."""
    if temperature == 0:
        scores = np.zeros(len(visits))
        scores[int(np.argmax(visits))] = 1.0
        return scores
    return boltzman(visits, temperature)


class Evaluator:
    """A network plus an optional cache of its outputs, keyed by a hash of the exact input planes.

    The cache is valid for one network only: make a new Evaluator for every network. It holds at
    most CACHE_BYTES of outputs and starts again empty when full (a self-play stage of full shogi
    meets millions of positions).
    """

    def __init__(self, network, cache=True):
        self.network = network
        self.cache = {} if cache else None
        self.cache_entries = None  # how many outputs fit, known at the first call
        self.lookups = 0        # positions asked for
        self.evaluations = 0    # positions sent to the network
        self.calls = 0          # batched network calls

    @property
    def hit_rate(self):
        return 1 - self.evaluations / self.lookups if self.lookups else 0.0

    def __call__(self, states):
        """Policies (n, A) and values (n,) for a list of states."""
        planes = np.stack([state.planes() for state in states])
        self.lookups += len(states)
        if self.cache is None:
            return self._run(planes)

        keys = [hashlib.blake2b(p.tobytes(), digest_size=16).digest() for p in planes]
        known = {key: self.cache[key] for key in keys if key in self.cache}
        missing = {}
        for index, key in enumerate(keys):
            if key not in known and key not in missing:
                missing[key] = index
        if missing:
            policies, values = self._run(planes[list(missing.values())])
            self.cache_entries = self.cache_entries or max(1, CACHE_BYTES // (policies[0].nbytes + CACHE_OVERHEAD))
            if len(self.cache) + len(missing) > self.cache_entries:
                self.cache.clear()
            for row, key in enumerate(missing):
                known[key] = self.cache[key] = (policies[row].copy(), values[row])
        hits = [known[key] for key in keys]
        return np.stack([h[0] for h in hits]), np.array([h[1] for h in hits])

    def _run(self, planes):
        self.evaluations += len(planes)
        self.calls += 1
        return self.network(planes)


# ----- Gumbel root search (mctx's seq_halving.py and qtransforms.py, in numpy) -----
def considered_visit_sequence(max_considered, simulations):
    """The visit count that each simulation of sequential halving gives to the move it visits: the
    considered moves are visited in turn, each phase of the halving gets an equal share of the
    simulations, and half the moves (at least 2) stay for the next phase."""
    if max_considered <= 1:
        return tuple(range(simulations))
    phases = math.ceil(math.log2(max_considered))
    sequence, visits, considered = [], [0] * max_considered, max_considered
    while len(sequence) < simulations:
        for _ in range(max(1, simulations // (phases * considered))):
            sequence.extend(visits[:considered])
            visits[:considered] = [v + 1 for v in visits[:considered]]
        considered = max(2, considered // 2)
    return tuple(sequence[:simulations])


def mixed_value(raw_value, q, visits, prior):
    """The root's value estimate for unvisited moves: its network value mixed with the prior-weighted
    mean Q of the visited moves, weighted by their visits (Appendix D of the paper). Rows are roots."""
    total = visits.sum(axis=-1)
    visited = visits > 0
    weight = np.where(visited, np.maximum(prior, np.finfo(np.float64).tiny), 0.0)
    weighted_q = (weight * q).sum(axis=-1) / np.maximum(weight.sum(axis=-1), np.finfo(np.float64).tiny)
    return (raw_value + total * weighted_q) / (total + 1)


def completed_q(raw_value, q, visits, prior, legal):
    """sigma(completed Q): Q of the visited moves and the mixed value for the others, rescaled to
    [0, 1] over the legal moves, times (GUMBEL_MAXVISIT_INIT + max N) x GUMBEL_VALUE_SCALE."""
    completed = np.where(visits > 0, q, mixed_value(raw_value, q, visits, prior)[:, None])
    low = np.where(legal, completed, np.inf).min(axis=-1, keepdims=True)
    high = np.where(legal, completed, -np.inf).max(axis=-1, keepdims=True)
    rescaled = np.where(legal, (completed - low) / np.maximum(high - low, 1e-8), 0.0)
    return (GUMBEL_MAXVISIT_INIT + visits.max(axis=-1, keepdims=True)) * GUMBEL_VALUE_SCALE * rescaled


def gumbel_logits(prior, legal):
    """The log-priors of the legal moves, -inf for the others."""
    return np.where(legal, np.log(np.maximum(prior, np.finfo(np.float64).tiny)), -np.inf)


def gumbel_choice(considered_visit, gumbel, logits, sigma_q, visits, legal):
    """The move to visit (or, after the search, to play): among the legal moves whose visit count is
    `considered_visit`, the one with the largest gumbel + logit + sigma(Q)."""
    score = gumbel + logits - logits.max(axis=-1, keepdims=True) + sigma_q
    return np.where(legal & (visits == considered_visit), score, -np.inf).argmax(axis=-1)


def gumbel_target(logits, sigma_q, legal):
    """The improved policy softmax(logits + sigma(completed Q)) over the legal moves."""
    scores = np.where(legal, logits + sigma_q, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


# ----- forced playouts (KataGo) -----
def forced_visits(prior, total_visits, k):
    """How many visits forced playouts give each root move at least: sqrt(k P N)."""
    return np.sqrt(k * prior * total_visits[..., None])


def pruned_visits(visits, prior, q, c_puct, k):
    """The policy target after forced playouts: each move other than the most visited one loses the
    visits it was forced to take, as far as its PUCT stays below the most visited move's; a move
    left with a single visit is dropped. Rows are roots."""
    visits = np.asarray(visits, dtype=np.float64)
    total = visits.sum(axis=-1, keepdims=True)
    best = visits.argmax(axis=-1)[:, None]
    explore = c_puct * prior * np.sqrt(total)
    best_puct = np.take_along_axis(q + explore / (1 + visits), best, axis=-1)
    gap = best_puct - q
    # The fewest visits that keep the move's PUCT no higher than the best move's
    needed = np.where(gap > 0, np.ceil(explore / np.maximum(gap, 1e-12) - 1), visits)
    kept = np.maximum(visits - np.floor(forced_visits(prior, total[:, 0], k)), np.minimum(needed, visits))
    kept = np.where(kept <= 1, 0.0, kept)
    np.put_along_axis(kept, best, np.take_along_axis(visits, best, axis=-1), axis=-1)
    return kept


def search(evaluator, roots, evaluate_count, c_puct=C_PUCT, root_noise=None, with_lines=False):
    """Visit counts (len(roots), A) of each root's moves after `evaluate_count` simulations: the
    book's search (search_roots with the default options).

    root_noise: None (the book), or (alpha, weight, rng) to mix Dirichlet(alpha) noise into the
    roots' priors with that weight, as AlphaZero does in self-play to try more openings.
    with_lines: also return, per root, its principal line and value (see principal_line), which an
    engine reports to a GUI.
    """
    result = search_roots(evaluator, roots, evaluate_count, SearchOptions(c_puct=c_puct), root_noise,
                          with_lines=with_lines)
    return (result.visits, result.lines) if with_lines else result.visits


def search_roots(evaluator, roots, evaluate_count, options=SearchOptions(), root_noise=None, gumbel=None,
                 with_lines=False):
    """Search every root with `evaluate_count` simulations (the first evaluates the roots) and return
    a SearchResult. gumbel: with options.gumbel, (scales, rng): each root's Gumbel noise is drawn
    from rng times its scale (1 samples a move as self-play does, 0 chooses deterministically, the
    default)."""
    if evaluate_count < 1:
        raise ValueError('the search needs at least one simulation')
    games = len(roots)
    nodes = evaluate_count + 1
    policies, values = evaluator(roots)
    actions = policies.shape[1]

    child = np.full((games, nodes, actions), -1, dtype=np.int64)
    visits = np.zeros((games, nodes, actions), dtype=np.int64)
    value_sum = np.zeros((games, nodes, actions))
    prior = np.zeros((games, nodes, actions))
    legal = np.zeros((games, nodes, actions), dtype=bool)
    terminal = np.zeros((games, nodes), dtype=bool)
    end_value = np.zeros((games, nodes))
    node_value = np.zeros((games, nodes))  # the network's value of each expanded node
    node_value[:, 0] = values
    node_states = [[root] for root in roots]
    node_count = np.ones(games, dtype=np.int64)

    def expand(game, node, state, policy):
        moves = state.legal_actions()
        prior[game, node, moves] = legal_policy(policy, moves)
        legal[game, node, moves] = True

    # Simulation 1 evaluates every root and creates its children
    for game, root in enumerate(roots):
        expand(game, 0, root, policies[game])
        if root_noise:
            alpha, weight, rng = root_noise
            moves = root.legal_actions()
            noise = rng.dirichlet([alpha] * len(moves))
            prior[game, 0, moves] = (1 - weight) * prior[game, 0, moves] + weight * noise

    path_node = np.zeros((games, nodes), dtype=np.int64)
    path_action = np.zeros((games, nodes), dtype=np.int64)
    every_game = np.arange(games)
    simulations = evaluate_count - 1
    if options.gumbel:
        # Sequential halving over min(gumbel_considered, legal moves) moves of each root
        logits = gumbel_logits(prior[:, 0], legal[:, 0])
        scales, rng = gumbel or (np.zeros(games), None)
        gumbel = np.zeros((games, actions)) if rng is None else rng.gumbel(size=(games, actions))
        gumbel *= np.asarray(scales, dtype=np.float64)[:, None]
        # Each root's schedule depends only on how many moves it considers: one row per count
        counts, schedule_row = np.unique(np.minimum(options.gumbel_considered, legal[:, 0].sum(axis=1)), return_inverse=True)
        schedule = np.array([considered_visit_sequence(m, simulations) for m in counts], dtype=np.int64)

    def root_q():
        n, w = visits[:, 0], value_sum[:, 0]
        return np.where(n > 0, -w / np.maximum(n, 1), 0.0)

    for simulation in range(simulations):
        # Walk down all trees together, one level per step, until each reaches a new or finished node
        node = np.zeros(games, dtype=np.int64)
        length = np.zeros(games, dtype=np.int64)
        walking = every_game
        depth = 0
        while len(walking):
            at = node[walking]
            n = visits[walking, at]
            w = value_sum[walking, at]
            p = prior[walking, at]
            if depth == 0 and options.gumbel:
                sigma_q = completed_q(node_value[:, 0], root_q(), n, p, legal[:, 0])
                action = gumbel_choice(schedule[schedule_row, simulation][:, None], gumbel, logits, sigma_q, n, legal[:, 0])
            else:
                unvisited = 0.0
                if options.fpu_reduction is not None:
                    seen = np.sqrt(np.where(n > 0, p, 0.0).sum(axis=1))
                    unvisited = (node_value[walking, at] - options.fpu_reduction * seen)[:, None]
                q = np.where(n > 0, -w / np.maximum(n, 1), unvisited)
                u = options.c_puct * p * np.sqrt(n.sum(axis=1))[:, None] / (1 + n)
                score = np.where(legal[walking, at], q + u, -np.inf)
                if depth == 0 and options.forced_playouts:
                    forced = legal[:, 0] & (n < forced_visits(p, n.sum(axis=1), options.forced_playouts))
                    score = np.where(forced.any(axis=1)[:, None] & ~forced, -np.inf, score)
                action = score.argmax(axis=1)
            path_node[walking, depth] = at
            path_action[walking, depth] = action
            length[walking] = depth + 1
            below = child[walking, at, action]
            goes_on = (below >= 0) & ~terminal[walking, np.maximum(below, 0)]
            node[walking[goes_on]] = below[goes_on]
            walking = walking[goes_on]
            depth += 1

        # The value at the end of each path, for the side to move there
        last = length - 1
        parent = path_node[every_game, last]
        action = path_action[every_game, last]
        below = child[every_game, parent, action]
        leaf_value = np.zeros(games)
        to_evaluate = []
        for game in every_game:
            if below[game] >= 0:  # a finished position visited before
                leaf_value[game] = end_value[game, below[game]]
                continue
            state = node_states[game][parent[game]].next(int(action[game]))
            new = node_count[game]
            node_count[game] += 1
            child[game, parent[game], action[game]] = new
            node_states[game].append(state)
            if state.is_done():
                terminal[game, new] = True
                end_value[game, new] = leaf_value[game] = terminal_value(state)
            else:
                to_evaluate.append(game)
        if to_evaluate:
            policies, values = evaluator([node_states[g][-1] for g in to_evaluate])
            for row, game in enumerate(to_evaluate):
                expand(game, node_count[game] - 1, node_states[game][-1], policies[row])
                node_value[game, node_count[game] - 1] = leaf_value[game] = float(values[row])

        # Back up: the edge into the leaf gets its value, each edge above the negation of the one below
        for depth in range(int(length.max())):
            on_path = every_game[length > depth]
            sign = np.where((length[on_path] - 1 - depth) % 2 == 0, 1.0, -1.0)
            edge = (on_path, path_node[on_path, depth], path_action[on_path, depth])
            visits[edge] += 1
            value_sum[edge] += sign * leaf_value[on_path]

    # What the root's search found
    root_visits, root_prior = visits[:, 0], prior[:, 0]
    result = SearchResult(root_visits, root_prior, root_q(), node_value[:, 0], root_visits.astype(np.float64))
    if options.gumbel:
        sigma_q = completed_q(node_value[:, 0], result.q, root_visits, root_prior, legal[:, 0])
        result.action = gumbel_choice(root_visits.max(axis=1)[:, None], gumbel, logits, sigma_q, root_visits,
                                      legal[:, 0])
        result.target = gumbel_target(logits, sigma_q, legal[:, 0])
    elif options.forced_playouts:
        result.target = pruned_visits(root_visits, root_prior, result.q, options.c_puct, options.forced_playouts)
    if with_lines:
        result.lines = [principal_line(child[g], visits[g], value_sum[g]) for g in range(games)]
    return result


def principal_line(child, visits, value_sum):
    """(actions, value) of one tree: the most visited move at each level down from the root, and
    the first move's mean value for the side to move at the root."""
    line, node = [], 0
    while node >= 0 and visits[node].sum() > 0:
        action = int(visits[node].argmax())
        line.append(action)
        node = child[node, action]
    return line, float(-value_sum[0, line[0]] / visits[0, line[0]]) if line else 0.0  # W is the child's side's
