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
"""
import hashlib

import numpy as np

from alphazero.games import terminal_value

C_PUCT = 1.0  # weight of the prior in the PUCT rule (the book's pv_mcts.py)
CACHE_BYTES = 1 << 30  # the evaluator's cache of network outputs holds at most this much
CACHE_OVERHEAD = 200   # bytes per cached position besides its policy (key, value, dictionary)


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


def search(evaluator, roots, evaluate_count, c_puct=C_PUCT, root_noise=None, with_lines=False):
    """Visit counts (len(roots), A) of each root's moves after `evaluate_count` simulations.

    root_noise: None (the book), or (alpha, weight, rng) to mix Dirichlet(alpha) noise into the
    roots' priors with that weight, as AlphaZero does in self-play to try more openings.
    with_lines: also return, per root, its principal line and value (see principal_line), which an
    engine reports to a GUI.
    """
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
    for _ in range(evaluate_count - 1):
        # Walk down all trees together, one level per step, until each reaches a new or finished node
        node = np.zeros(games, dtype=np.int64)
        length = np.zeros(games, dtype=np.int64)
        walking = every_game
        depth = 0
        while len(walking):
            at = node[walking]
            n = visits[walking, at]
            w = value_sum[walking, at]
            q = np.where(n > 0, -w / np.maximum(n, 1), 0.0)
            u = c_puct * prior[walking, at] * np.sqrt(n.sum(axis=1))[:, None] / (1 + n)
            action = np.where(legal[walking, at], q + u, -np.inf).argmax(axis=1)
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
                leaf_value[game] = float(values[row])

        # Back up: the edge into the leaf gets its value, each edge above the negation of the one below
        for depth in range(int(length.max())):
            on_path = every_game[length > depth]
            sign = np.where((length[on_path] - 1 - depth) % 2 == 0, 1.0, -1.0)
            edge = (on_path, path_node[on_path, depth], path_action[on_path, depth])
            visits[edge] += 1
            value_sum[edge] += sign * leaf_value[on_path]

    if with_lines:
        return visits[:, 0, :], [principal_line(child[g], visits[g], value_sum[g]) for g in range(games)]
    return visits[:, 0, :]


def principal_line(child, visits, value_sum):
    """(actions, value) of one tree: the most visited move at each level down from the root, and
    the first move's mean value for the side to move at the root."""
    line, node = [], 0
    while node >= 0 and visits[node].sum() > 0:
        action = int(visits[node].argmax())
        line.append(action)
        node = child[node, action]
    return line, float(-value_sum[0, line[0]] / visits[0, line[0]]) if line else 0.0  # W is the child's side's
