"""A move's share of a game clock, for the engines (USI's go, GTP's time_settings and time_left): the
time left shared over MOVES_TO_GO moves, plus the byoyomi or the increment each move has, never more
than can be spent now, less a margin for the GUI and the pipe (USI's ByoyomiMargin option, GTP's
--byoyomi-margin)."""
MARGIN_MS = 250        # ms of each move left for the GUI and the pipe, by default
MOVES_TO_GO = 40       # a move may take the time left / this, besides its byoyomi or increment
SHORTEST_MOVE = 0.02   # seconds: the least a search gets, however short the clock


def move_seconds(left, byoyomi=0.0, increment=0.0, margin=MARGIN_MS / 1000):
    """Seconds for a move with `left` seconds of main time, `byoyomi` seconds a move after it and an
    `increment` after each move (Fischer), `margin` seconds less. The increment comes after the
    move, so it is spent only from the time left; a sudden-death clock (no byoyomi, no increment)
    never runs out: its share shrinks with what is left."""
    share = left / MOVES_TO_GO + byoyomi + increment
    return max(SHORTEST_MOVE, min(share, left + byoyomi) - margin)
