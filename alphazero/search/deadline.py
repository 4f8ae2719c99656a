"""A search's stop that a clock sets, as an engine's time control asks: what search_roots checks
before each simulation."""
import time


class Deadline:
    """Set at `at` (time.monotonic()), or when `event` (a GUI's stop, or None) is."""

    def __init__(self, event, at):
        self.event, self.at = event, at

    def is_set(self, ahead=0.0):
        """Set now, or `ahead` seconds from now."""
        return (self.event is not None and self.event.is_set()) or time.monotonic() + ahead >= self.at


def stopped(stop, tree):
    """Whether the search of `tree` stops before its next simulation: when `stop` (None, a
    threading.Event or a Deadline) is set, and at a Deadline also when the tree's doubling, which
    the next simulation would make, would end after it (a doubling of a large tree takes tenths of a
    second, more than a GUI's margin)."""
    if stop is None:
        return False
    if isinstance(stop, Deadline):
        return stop.is_set(tree.growth_seconds())
    return stop.is_set()
