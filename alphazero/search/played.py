"""A root that also searches the move a player played: what a review needs from one search.

A review asks how much a played move lost against the move the search prefers. Two separate searches
(before the move and after it) disagree by their noise alone, enough to mark good moves; a move the
search barely visited has no value worth quoting. This root selects as the book's PUCT does, except
that the played move gets at least PLAYED_SHARE of the simulations, so one tree values both moves.
"""
import numpy as np

PLAYED_SHARE = 0.25  # of the root's simulations that the played move is given at least


class PlayedMoveRoot:
    """Wraps a root policy: at each game's root, the played move (`played[g]`) is selected while it has
    fewer than PLAYED_SHARE of the simulations made, else what `inner` selects."""

    def __init__(self, inner, played):
        self.inner, self.played = inner, np.asarray(played, dtype=np.int64)

    def select(self, tree, simulation):
        chosen = self.inner.select(tree, simulation)
        played_visits = tree.visits[tree.every_game, 0, self.played]
        behind = played_visits < PLAYED_SHARE * (simulation + 1)
        return np.where(behind, self.played, chosen)

    def finish(self, tree, result):
        self.inner.finish(tree, result)
