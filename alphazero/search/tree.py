"""The search trees of many roots (one per game) as plain arrays, and the three steps of a
simulation on all of them at once: walk down, expand the new leaves, back up.

Per game g and node index i (node 0 is the root), per action a:
    child[g, i, a]        index of the child node, 0 until the child is first visited (node 0, the
                          root, is no node's child)
    visits[g, i, a]       N of that child, value_sum[g, i, a] its W (from the child's side to move)
    prior[g, i, a]        P from the network, legal[g, i, a] whether the move is legal
    terminal[g, i]        the node's position is over; end_value[g, i] its value then
    node_value[g, i]      the network's value of an expanded node
Every simulation adds at most one node, so a search of S simulations needs S nodes per game; the
arrays start with room for a few and double as the trees grow, so that a search asked for more
simulations than it gets to make (an engine stopped by its GUI) takes only the memory it uses. Every
array starts at zero, so that a larger one costs only the copy of what is filled (the system hands
out zeroed memory as it is first written); a doubling still takes time (up to 0.3 s at 2,048 full
shogi nodes), so a search with a deadline asks growth_seconds() before a doubling that could miss it.
"""
import time
from typing import NamedTuple

import numpy as np

from alphazero.game.values import terminal_value
from alphazero.search.scores import legal_policy

FIRST_NODES = 256  # room for nodes at the start; it doubles as the trees need more
GROWTH_RATE = 5e8  # bytes a second a doubling is counted to make at most (full shogi's 2,048 to 4,096 nodes: 200 MB in up to 0.3 s here)
ARRAYS = ('child', 'visits', 'value_sum', 'prior', 'legal', 'terminal', 'end_value', 'node_value')


def with_room(array, nodes):
    """A (games, nodes, ...) array of zeros holding `array`'s nodes first."""
    larger = np.zeros((array.shape[0], nodes, *array.shape[2:]), dtype=array.dtype)
    larger[:, :array.shape[1]] = array
    return larger


class Path(NamedTuple):
    """Where each game's walk went: node and action at each depth, and how deep it went."""
    node: np.ndarray     # (G, nodes)
    action: np.ndarray   # (G, nodes)
    length: np.ndarray   # (G,)


class Tree:
    def __init__(self, roots, policies, values, nodes):
        games, actions = len(roots), policies.shape[1]
        self.roots = roots
        self.most = nodes  # the nodes a game's tree may reach
        nodes = min(nodes, FIRST_NODES)
        self.every_game = np.arange(games)
        self.child = np.zeros((games, nodes, actions), dtype=np.int64)
        self.visits = np.zeros((games, nodes, actions), dtype=np.int64)
        self.value_sum = np.zeros((games, nodes, actions))
        self.prior = np.zeros((games, nodes, actions))
        self.legal = np.zeros((games, nodes, actions), dtype=bool)
        self.terminal = np.zeros((games, nodes), dtype=bool)
        self.end_value = np.zeros((games, nodes))
        self.node_value = np.zeros((games, nodes))
        self.states = [[root] for root in roots]  # per game, the position of each node
        self.node_count = np.ones(games, dtype=np.int64)
        self.growth_rate = GROWTH_RATE  # bytes a second of the slowest doubling so far, at most GROWTH_RATE
        for game, root in enumerate(roots):
            self.expand(game, 0, policies[game], values[game])

    def full(self):
        """The next simulation's new nodes need more room than the arrays have."""
        return self.node_count.max() >= self.terminal.shape[1]

    def growth_bytes(self):
        """The bytes of the arrays after the next doubling."""
        rows = self.terminal.shape[1]
        return sum(getattr(self, name).nbytes for name in ARRAYS) * min(self.most, 2 * rows) // rows

    def growth_seconds(self):
        """At most how long the next simulation's doubling takes, 0.0 when it needs none: its bytes at
        the slowest rate seen (a doubling's time grows faster than its bytes once they outgrow the
        processor's caches, so the last doubling's time alone says too little)."""
        return self.growth_bytes() / self.growth_rate if self.full() else 0.0

    def grow(self):
        """Twice the room for nodes in every array (up to self.most), the new nodes empty."""
        start, rows, size = time.perf_counter(), self.terminal.shape[1], self.growth_bytes()
        for name in ARRAYS:
            setattr(self, name, with_room(getattr(self, name), min(self.most, 2 * rows)))
        self.growth_rate = min(self.growth_rate, size / max(time.perf_counter() - start, 1e-9))

    def expand(self, game, node, policy, value):
        moves = self.states[game][node].legal_actions()
        self.prior[game, node, moves] = legal_policy(policy, moves)
        self.legal[game, node, moves] = True
        self.node_value[game, node] = value

    def q(self, games, nodes):
        """Each move's mean value for the side to move at these nodes (0 for an unvisited one)."""
        n, w = self.visits[games, nodes], self.value_sum[games, nodes]
        return np.where(n > 0, -w / np.maximum(n, 1), 0.0)

    def root_q(self):
        return self.q(self.every_game, 0)

    def walk(self, select_at_root, select_below):
        """Walk down all trees together, one level per step, until each reaches a new or finished
        node: select_at_root() gives every game's move at its root, select_below(games, nodes) the
        move at those games' nodes."""
        games, nodes = self.terminal.shape
        path = Path(np.zeros((games, nodes), dtype=np.int64), np.zeros((games, nodes), dtype=np.int64),
                    np.zeros(games, dtype=np.int64))
        node = np.zeros(games, dtype=np.int64)
        walking, depth = self.every_game, 0
        while len(walking):
            at = node[walking]
            action = select_at_root() if depth == 0 else select_below(walking, at)
            path.node[walking, depth] = at
            path.action[walking, depth] = action
            path.length[walking] = depth + 1
            below = self.child[walking, at, action]
            goes_on = (below > 0) & ~self.terminal[walking, below]
            node[walking[goes_on]] = below[goes_on]
            walking = walking[goes_on]
            depth += 1
        return path

    def expand_leaves(self, evaluator, path):
        """Add the node at the end of each path and return its value for its side to move: a finished
        position's result, else the network's value (all new positions in one call)."""
        if self.full():
            self.grow()
        last = path.length - 1
        parent = path.node[self.every_game, last]
        action = path.action[self.every_game, last]
        below = self.child[self.every_game, parent, action]
        leaf_value = np.zeros(len(self.every_game))
        to_evaluate = []
        for game in self.every_game:
            if below[game]:  # a finished position visited before
                leaf_value[game] = self.end_value[game, below[game]]
                continue
            state = self.states[game][parent[game]].next(int(action[game]))
            new = self.node_count[game]
            self.node_count[game] += 1
            self.child[game, parent[game], action[game]] = new
            self.states[game].append(state)
            if state.is_done():
                self.terminal[game, new] = True
                self.end_value[game, new] = leaf_value[game] = terminal_value(state)
            else:
                to_evaluate.append(game)
        if to_evaluate:
            policies, values = evaluator([self.states[g][-1] for g in to_evaluate])
            for row, game in enumerate(to_evaluate):
                self.expand(game, self.node_count[game] - 1, policies[row], float(values[row]))
                leaf_value[game] = float(values[row])
        return leaf_value

    def back_up(self, path, leaf_value):
        """The edge into the leaf gets its value, each edge above the negation of the one below."""
        for depth in range(int(path.length.max())):
            on_path = self.every_game[path.length > depth]
            sign = np.where((path.length[on_path] - 1 - depth) % 2 == 0, 1.0, -1.0)
            edge = (on_path, path.node[on_path, depth], path.action[on_path, depth])
            self.visits[edge] += 1
            self.value_sum[edge] += sign * leaf_value[on_path]

    def principal_line(self, game, first=None):
        """(actions, value) of one tree: the most visited move at each level down from the root (from
        the root move `first` when given: an engine's line for each candidate), and the first move's
        mean value for the side to move at the root."""
        child, visits, value_sum = self.child[game], self.visits[game], self.value_sum[game]
        line, node = ([], 0) if first is None else ([first], child[0, first])
        while (node or not line) and visits[node].sum() > 0:  # below the root, node 0 is no child yet
            action = int(visits[node].argmax())
            line.append(action)
            node = child[node, action]
        return line, float(-value_sum[0, line[0]] / visits[0, line[0]]) if line else 0.0  # W is the child's side's
