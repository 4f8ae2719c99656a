"""From a search's counts to move probabilities and a value (both searches use these, so they
compute bit-identical numbers)."""
import numpy as np


def legal_policy(policy, legal_actions):
    """The policy restricted to the legal moves, renormalised."""
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


def searched_value(visits, q):
    """The value a search found for the side to move at its root: the root's moves' Q weighted by
    their visits (over the last axis, so one root or a row per root)."""
    return (visits * q).sum(axis=-1) / np.maximum(visits.sum(axis=-1), 1)
