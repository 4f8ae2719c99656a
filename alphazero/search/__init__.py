"""The search, as parts over plain arrays (as mctx composes it): the book's PV-MCTS for many games
at once.

- tree.py: the trees of many roots as arrays, how a walk goes down them, expands and backs up;
- puct.py: the selection rule below the root (the book's PUCT);
- gumbel.py: Gumbel's root policy (sequential halving; Danihelka et al. 2022, as mctx);
- noise.py: Dirichlet noise on the roots' priors (AlphaZero's self-play);
- search.py: search_roots(), which puts them together, and the book's search();
- evaluator.py: the network behind a cache of its outputs;
- scores.py: from visit counts to move probabilities and values (the book's boltzman).

pv_mcts.py, the book's one-game search, is the reference: tests/search/test_search.py checks that
both return the same visit counts.
"""
