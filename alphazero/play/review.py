"""The review after a game, as KaTrain and lichess give one: the moves that lost most of the mover's
expected score are marked 悪手 (a bad move) or 疑問手 (a dubious move), each with the move the review
prefers and the line it expects.

One search per position (positions searched together) values both moves: the played move gets its
share of that search (alphazero/search/played.py), and the loss is the value of the best other move
(the most visited) minus the played move's, from the same tree, so that the noise between two
searches marks nothing.
Where the game's solver settles a position (a mate that df-pn proves, Othello's last empties,
Connect Four), its exact result replaces the search's. The preferred move is never marked.
"""
from dataclasses import dataclass

from alphazero.game.values import terminal_value
from alphazero.search.search import search_roots

BAD_MOVE = 0.2       # a loss of the mover's expected score (0 lost .. 1 won) of this much or more: 悪手
DUBIOUS_MOVE = 0.1   # of this much or more: 疑問手
ROOTS_AT_ONCE = 16   # positions searched together (a full-shogi tree of 300 simulations takes about 25 MB)


@dataclass(frozen=True)
class Judged:
    """A reviewed move, played from position `ply`: the mover's expected score with the preferred move
    (`before`) and with the move played (`after`), the preferred line from that position (empty when
    the move played is the preferred one), and whether a solver's exact result decided a side of it."""
    ply: int
    before: float
    after: float
    line: list
    exact: bool = False

    @property
    def loss(self):
        return self.before - self.after


@dataclass(frozen=True)
class Mark(Judged):
    """A marked move: a Judged whose loss is DUBIOUS_MOVE or more; `bad`: BAD_MOVE or more (悪手)."""
    bad: bool = False


def expected_score(value):
    """A value for the side to move (-1 lost .. 1 won) as its expected score (0 .. 1)."""
    return (value + 1) / 2


def review_moves(evaluator, search, states, actions, reviewed, solve=None):
    """The Marks of the moves actions[t] (played from states[t]; states has one more, the end) for
    which reviewed(t) holds: those of judge_moves that lost DUBIOUS_MOVE or more."""
    return [Mark(**vars(judged), bad=judged.loss >= BAD_MOVE)
            for judged in judge_moves(evaluator, search, states, actions, reviewed, solve) if judged.loss >= DUBIOUS_MOVE]


def judge_moves(evaluator, search, states, actions, reviewed, solve=None):
    """A Judged for each move actions[t] for which reviewed(t) holds. Each such position is searched
    with `search` (SearchSettings), the played move given its share; solve(state) -> Solved or None,
    when given, settles positions exactly (before the move: the mover's best; after it: the opponent's)."""
    plies = [t for t in range(len(actions)) if reviewed(t) and not states[t].is_done()]
    known = {}  # t -> the solver's result at states[t]: a position is the one after a move and the one before the next

    def solved(t):
        if t not in known:
            known[t] = solve(states[t]) if solve and not states[t].is_done() else None
        return known[t]
    judged = []
    for first in range(0, len(plies), ROOTS_AT_ONCE):
        batch = plies[first:first + ROOTS_AT_ONCE]
        result = search_roots(evaluator, [states[t] for t in batch], search, played=[actions[t] for t in batch])
        judged += [judge(t, states, actions[t], best_other(result, row, actions[t]), float(result.q[row, actions[t]]),
                         solved) for row, t in enumerate(batch)]
    return judged


def best_other(result, row, played):
    """(line, value) of the most visited root move other than the played one (whose visits the review
    forced), or ([], -inf) when the search visited no other move."""
    visits = result.visits[row].copy()
    visits[played] = -1
    other = int(visits.argmax())
    return result.tree.principal_line(row, other) if visits[other] > 0 else ([], -float('inf'))


def judge(t, states, played, other_line, played_value, solved):
    """The Judged of the move `played` from states[t]: the best other move's line and value against
    the played move's value, each replaced by an exact result where the solver (solved(t): the
    Solved of states[t], or None) or the rules give one. The played move is the preferred one when no
    other move is worth more."""
    line, best_value = other_line
    before_solved = solved(t)
    if before_solved is not None:
        line, best_value = before_solved.line, before_solved.value
    after = states[t + 1]
    after_solved = solved(t + 1)
    if after.is_done():
        played_value = -terminal_value(after)
    elif after_solved is not None:
        played_value = -after_solved.value
    exact = before_solved is not None or after.is_done() or after_solved is not None
    if not line or line[0] == played or best_value <= played_value:  # the preferred move: never marked
        return Judged(t, expected_score(played_value), expected_score(played_value), [], exact)
    return Judged(t, expected_score(best_value), expected_score(played_value), list(line), exact)
