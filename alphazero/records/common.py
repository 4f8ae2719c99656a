"""What every record format shares: replaying its moves by our rules, and its result."""
import lzma

from alphazero.game.notation import action_names
from alphazero.game.values import player_value


class RecordError(Exception):
    """A file that cannot be read at all (the message names it and says why)."""


def replay(game, moves):
    """[(state, action)] of every move of a record, the implied passes included, and the final state.
    Raises ValueError naming the first move that is not legal. A record with a `start` (a handicap
    game's SFEN) is replayed from there."""
    start = getattr(moves, 'start', None)
    state, played = game.State(start) if start else game.State(), []
    for number, action in enumerate(moves, 1):
        if state.legal_actions() == [game.PASS]:
            played.append((state, game.PASS))
            state = state.next(game.PASS)
        if state.is_done() or action not in state.legal_actions():
            name = action_names(game)[action] if 0 <= action < game.ACTION_COUNT else repr(action)
            raise ValueError(f'move {number} ({name}) is illegal')
        played.append((state, action))
        state = state.next(action)
    return played, state


def record_value(moves, final, first_player):
    """A recorded game's result for the first player (first_player=True) or the second: the result
    the record states (a resigned shogi game), else the one its final position has."""
    stated = getattr(moves, 'result', None)
    if stated is None:
        return player_value(final, first_player)
    return stated if first_player else -stated


def keep_if_legal(game, moves, where, games, problems, unfinished=False):
    """Add a record to `games` when it replays to the end of the game (or only legally, with
    `unfinished`: a game to review), else a line to `problems` saying where and why."""
    try:
        _, final = replay(game, moves)
    except ValueError as error:
        problems.append(f'{where}: {error}; game skipped')
        return
    if not final.is_done() and not unfinished:
        problems.append(f'{where}: the game is not over after its {len(moves)} moves, so it has no result; game skipped')
        return
    games.append(moves)


def format_name(path):
    """The name that says a record file's format: without `.xz`, as any record file may be compressed
    with xz (records/shogi9/*.csa.xz)."""
    return path[:-3] if path.lower().endswith('.xz') else path


def read_bytes(path):
    """A record file's bytes, decompressed when its name ends in .xz."""
    try:
        with (lzma.open if path.lower().endswith('.xz') else open)(path, 'rb') as f:
            return f.read()
    except OSError as error:
        raise RecordError(f'{path}: cannot be read ({error.strerror})') from None
    except (lzma.LZMAError, EOFError) as error:
        raise RecordError(f'{path}: not a whole xz file ({error}); unpack it with xz -d to see what is left') from None
