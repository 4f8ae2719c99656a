"""The review after a game, as KaTrain and lichess give one: the moves after which the mover's expected
score fell most are marked 悪手 (a bad move) or 疑問手 (a dubious move), each with the move the search
prefers and the line it expects. The page (web/app.js) marks the human's moves by the same rule."""
from dataclasses import dataclass

BAD_MOVE = 0.2       # a fall of the mover's expected score (0 lost .. 1 won) of this much or more: 悪手
DUBIOUS_MOVE = 0.1   # of this much or more: 疑問手


@dataclass(frozen=True)
class Mark:
    """A marked move: played from position `ply`, the mover's expected score before and after it,
    whether it is a bad move (else a dubious one), and the search's line from that position."""
    ply: int
    before: float
    after: float
    bad: bool
    line: list


def mark_moves(states, actions, marked, analyse):
    """The Marks of the moves actions[t] (played from states[t]; states has one more, the end) for
    which marked(t) holds. analyse(state) -> (value for the side to move, best line) of a position
    not over; each position is analysed once."""
    analysed = {}

    def expected(t):  # the expected score of the side to move at states[t]
        state = states[t]
        if state.is_done():
            return 0.0 if state.is_lose() else 0.5 if state.is_draw() else 1.0
        if t not in analysed:
            analysed[t] = analyse(state)
        return (analysed[t][0] + 1) / 2

    marks = []
    for t, _ in enumerate(actions):
        if not marked(t):
            continue
        before, after = expected(t), 1 - expected(t + 1)
        if before - after >= DUBIOUS_MOVE:
            marks.append(Mark(t, before, after, before - after >= BAD_MOVE, analysed[t][1]))
    return marks
