"""Dirichlet noise on the roots' priors, as AlphaZero's self-play tries more openings with it."""


def add_dirichlet_noise(tree, alpha, weight, rng):
    """Mix Dirichlet(alpha) noise into each root's priors of its legal moves, with that weight."""
    for game, root in enumerate(tree.roots):
        moves = root.legal_actions()
        noise = rng.dirichlet([alpha] * len(moves))
        tree.prior[game, 0, moves] = (1 - weight) * tree.prior[game, 0, moves] + weight * noise
