"""Gumbel's root policy (Danihelka et al. 2022, as mctx's gumbel_muzero_policy, in numpy): the root
samples `considered` moves without replacement (Gumbel top-k), shares the simulations among them by
sequential halving and plays the move left; its policy target is softmax(logits + sigma(completed
Q)). Below the root the search stays PUCT.
"""
import math

import numpy as np

GUMBEL_VALUE_SCALE = 0.1    # sigma(q) = (GUMBEL_MAXVISIT_INIT + max N) x GUMBEL_VALUE_SCALE x q (mctx's defaults)
GUMBEL_MAXVISIT_INIT = 50.0


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


class GumbelRoot:
    """Sequential halving over min(considered, legal moves) moves of each root. noise: (scales, rng):
    each root's Gumbel noise is drawn from rng times its scale (1 samples a move as self-play does,
    0 chooses deterministically); None is no noise."""

    def __init__(self, tree, considered, simulations, noise=None):
        games, actions = tree.prior.shape[0], tree.prior.shape[2]
        self.legal = tree.legal[:, 0]
        self.logits = gumbel_logits(tree.prior[:, 0], self.legal)
        scales, rng = noise or (np.zeros(games), None)
        self.gumbel = np.zeros((games, actions)) if rng is None else rng.gumbel(size=(games, actions))
        self.gumbel *= np.asarray(scales, dtype=np.float64)[:, None]
        # Each root's schedule depends only on how many moves it considers: one row per count
        counts, self.schedule_row = np.unique(np.minimum(considered, self.legal.sum(axis=1)), return_inverse=True)
        self.schedule = np.array([considered_visit_sequence(m, simulations) for m in counts], dtype=np.int64)

    def sigma_q(self, tree):
        visits = tree.visits[:, 0]
        return completed_q(tree.node_value[:, 0], tree.root_q(), visits, tree.prior[:, 0], self.legal)

    def select(self, tree, simulation):
        visit = self.schedule[self.schedule_row, simulation][:, None]
        return gumbel_choice(visit, self.gumbel, self.logits, self.sigma_q(tree), tree.visits[:, 0], self.legal)

    def finish(self, tree, result):
        """The move to play (the most visited of the moves left) and the improved policy target."""
        visits, sigma_q = tree.visits[:, 0], self.sigma_q(tree)
        result.action = gumbel_choice(visits.max(axis=1)[:, None], self.gumbel, self.logits, sigma_q, visits, self.legal)
        result.target = gumbel_target(self.logits, sigma_q, self.legal)
