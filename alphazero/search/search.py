"""search_roots(): PV-MCTS for many games at once, put together from the parts of this package.

Each call searches one root per game. Every simulation walks down all the trees together, gathers
the new leaves of all games and evaluates them in one network call. The rules are exactly those of
pv_mcts.py (the reference): PUCT with C_PUCT, terminal values -1 (lost) and 0 (draw), the value
negated at each level on the way back, first maximum on ties.

Beyond the book, off unless SearchSettings (alphazero/settings.py) ask for it (docs/recipes.md says
what it buys): Gumbel's root policy (gumbel.py). A review searches the move played as well (played.py).
"""
from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import numpy as np

from alphazero.search.deadline import stopped
from alphazero.search.gumbel import GumbelRoot
from alphazero.search.noise import add_dirichlet_noise
from alphazero.search.played import PlayedMoveRoot
from alphazero.search.puct import PuctRoot, puct_selection
from alphazero.search.tree import Tree
from alphazero.settings import C_PUCT, SearchSettings


def root_policy(settings, tree, simulations, gumbel_noise=None):
    """The root policy: Gumbel's when it considers some moves, else PUCT's as below the root."""
    if settings.gumbel:
        return GumbelRoot(tree, settings.gumbel, simulations, gumbel_noise)
    return PuctRoot(puct_selection(settings.c_puct, settings.first_play))


@dataclass
class SearchResult:
    """What a search of many roots returns, one row per root (A = the game's actions)."""
    visits: np.ndarray   # (G, A) visit counts of the root's moves
    prior: np.ndarray    # (G, A) the root's priors as searched (with any noise), 0 for illegal moves
    q: np.ndarray        # (G, A) each visited move's mean value for the root's side to move, else 0
    value: np.ndarray    # (G,) the network's value of each root
    target: np.ndarray   # (G, A) the policy target: the visits, or Gumbel's improved policy
    action: Optional[np.ndarray] = None  # (G,) the move the root policy chose (Gumbel's), else None
    tree: Optional[Tree] = None          # the searched tree (more lines: tree.principal_line)

    @cached_property
    def lines(self):
        """Per root: (principal line, its value), walked down the tree when first asked for (self-play
        never asks)."""
        return [self.tree.principal_line(g) for g in range(len(self.tree.roots))]


def search_roots(evaluator, roots, settings=SearchSettings(), root_noise=None, gumbel_noise=None, stop=None,
                 progress=None, played=None):
    """Search every root with settings.sims simulations (the first evaluates the roots) and return a
    SearchResult. root_noise: None (the book), or (alpha, weight, rng) for Dirichlet noise on the
    roots' priors. gumbel_noise: with Gumbel's root policy, (scales, rng) (gumbel.py's GumbelRoot).
    stop: an event (threading.Event) that ends the search after the simulation under way, as an
    engine's GUI asks with stop or quit, or a Deadline (deadline.py), which the clock sets as well;
    the result is that of the simulations made. progress: called
    as progress(tree, simulations) after each simulation (an engine's info lines during a long search).
    played: per root, a move that gets at least played.PLAYED_SHARE of the simulations (a review's)."""
    sims = settings.sims
    if sims < 1:
        raise ValueError('the search needs at least one simulation')
    policies, values = evaluator(roots)
    tree = Tree(roots, policies, values, nodes=sims + 1)
    if root_noise:
        add_dirichlet_noise(tree, *root_noise)
    select_below = puct_selection(settings.c_puct, settings.first_play)
    root = root_policy(settings, tree, sims - 1, gumbel_noise)
    if played is not None:
        root = PlayedMoveRoot(root, played)

    for simulation in range(sims - 1):
        if stopped(stop, tree):
            break
        path = tree.walk(lambda: root.select(tree, simulation),
                         lambda games, nodes: select_below(tree, games, nodes))
        tree.back_up(path, tree.expand_leaves(evaluator, path))
        if progress is not None:
            progress(tree, simulation + 2)  # the roots' evaluation was the first

    root_visits = tree.visits[:, 0]
    result = SearchResult(root_visits, tree.prior[:, 0], tree.root_q(), tree.node_value[:, 0],
                          root_visits.astype(np.float64), tree=tree)
    root.finish(tree, result)
    return result


def search(evaluator, roots, sims, c_puct=C_PUCT, root_noise=None, with_lines=False):
    """Visit counts (len(roots), A) of each root's moves after `sims` simulations: the
    book's search (search_roots with the book's settings). with_lines: also return, per root, its
    principal line and value (Tree.principal_line), which an engine reports to a GUI."""
    result = search_roots(evaluator, roots, SearchSettings(sims=sims, c_puct=c_puct), root_noise)
    return (result.visits, result.lines) if with_lines else result.visits
