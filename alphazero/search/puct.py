"""The selection rule below the root: the book's PUCT, the arc value (アーク評価値) Q + U with
U = C_PUCT x P x sqrt(sum N) / (1 + N), an unvisited move's Q being 0 (a draw), first maximum on ties.
With a first-play reduction R (Leela Chess Zero's and KataGo's first-play urgency), an unvisited
move's Q is instead its node's mean value less R: an untried move is taken to be a little worse than
the moves tried, in a won position and a lost one alike.
"""
import numpy as np

from alphazero.settings import C_PUCT


def puct_selection(c_puct=C_PUCT, first_play=None):
    """select(tree, games, nodes): the move of highest Q + U at each of those games' nodes; an
    unvisited move's Q is 0, or its node's mean value less `first_play` when that is given."""
    def select(tree, games, nodes):
        n, w, p = tree.visits[games, nodes], tree.value_sum[games, nodes], tree.prior[games, nodes]
        if first_play is None:
            untried = 0.0
        else:  # the node's mean value for its side to move: its network value and every value backed up through it
            mean = (tree.node_value[games, nodes] - w.sum(axis=1)) / (1 + n.sum(axis=1))
            untried = mean[:, None] - first_play
        q = np.where(n > 0, -w / np.maximum(n, 1), untried)
        u = c_puct * p * np.sqrt(n.sum(axis=1))[:, None] / (1 + n)
        return np.where(tree.legal[games, nodes], q + u, -np.inf).argmax(axis=1)
    return select


class PuctRoot:
    """The book's root policy: the root selects as every node does, and the search's policy target
    is the root's visit counts (its move is chosen from them by whoever asked)."""

    def __init__(self, select_below):
        self.select_below = select_below

    def select(self, tree, simulation):
        return self.select_below(tree, tree.every_game, np.zeros(len(tree.every_game), dtype=np.int64))

    def finish(self, tree, result):
        """The target is the visit counts, which the result already holds."""
