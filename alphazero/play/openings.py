"""Varied openings: random moves that decide nothing, distinct ones, each played with both colours."""


# The moves of a random opening: 0 to `max_moves` random moves (none of which decides the
# game), so that self-play also meets positions that its own good moves would never reach
def random_opening(game, max_moves, rng):
    return random_moves(game, rng.integers(max_moves + 1), rng)[0]


def duplicate_starts(game, count):
    """For a game whose start is random (point-Othello's values): `count` starts in pairs, so that
    the two games of a pair (colours swapped) are dealt the same luck. None for other games."""
    if not game.RANDOM_START:
        return None
    starts = [game.State() for _ in range((count + 1) // 2)]
    return [starts[i // 2] for i in range(count)]


def random_moves(game, count, rng, start=None):
    """`count` random moves from `start` (a State; default: the game's start), none of which decides
    the game: each leaves it unfinished and gives the reply no win at once (in shogi a random move can
    hang the lion). Fewer when no such move is left."""
    state, moves = start if start is not None else game.State(), []
    for _ in range(count):
        children = {action: state.next(action) for action in state.legal_actions()}
        undecided = [action for action, child in children.items() if not decided(child)]
        if not undecided:
            break
        action = int(rng.choice(undecided))
        state = children[action]
        moves.append(action)
    return moves, state


# Over, or won by the side to move's next move
def decided(state):
    return state.is_done() or any(state.next(action).is_lose() for action in state.legal_actions())


def distinct_openings(game, plies, count, rng, tries=None, start=None):
    """`count` openings of `plies` random moves (from `start`, default the game's start), each leading
    to a different position as long as enough different ones turn up in `tries` draws (default: ten
    for each, at least 1000; a small game repeats them)."""
    openings, seen = [], set()
    for _ in range(tries or max(1000, 10 * count)):
        if len(openings) == count:
            break
        moves, state = random_moves(game, plies, rng, start)
        key = (state.planes().tobytes(), state.is_first_player())
        if key not in seen:
            seen.add(key)
            openings.append(moves)
    return [openings[i % len(openings)] for i in range(count)]


def paired_openings(game, plies, count, rng):
    """The openings of a `count`-game match: distinct ones of `plies` random moves, each played
    twice in a row (colours alternate, so once with each colour); `plies` 0 starts every game from
    the start."""
    if not plies:
        return [[] for _ in range(count)]
    openings = distinct_openings(game, plies, (count + 1) // 2, rng)
    return [openings[i // 2] for i in range(count)]
