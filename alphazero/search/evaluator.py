"""The network as the search calls it: many positions at once, behind a cache of its outputs."""
import hashlib

import numpy as np

CACHE_BYTES = 1 << 30  # the cache of network outputs holds at most this much
CACHE_OVERHEAD = 200   # bytes per cached position besides its policy (key, value, dictionary)


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


class KnownValues:
    """`evaluator`, except where the game knows a position's value without the network:
    `known_value(state)` gives it, or None (full shogi: 1 when the side to move mates in one, as
    dlshogi values such leaves), so that the search sees a move that allows a mate as lost."""

    def __init__(self, evaluator, known_value):
        self.evaluator = evaluator
        self.known_value = known_value

    def __call__(self, states):
        policies, values = self.evaluator(states)
        values = np.array(values)  # a copy: the cache keeps the network's
        for row, state in enumerate(states):
            known = self.known_value(state)
            if known is not None:
                values[row] = known
        return policies, values

    def __getattr__(self, name):  # the network, the cache's counts: the wrapped evaluator's
        return getattr(self.evaluator, name)
