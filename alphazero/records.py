"""Othello game records in and out: WTHOR .wtb files and text transcripts.

A record is the list of a game's moves as actions of the game module, without passes (neither
format writes them: a side with no move passes, and replaying a record plays those passes).

- WTHOR (.wtb, the French Othello federation's database): a 16-byte header (creation date, the
  number of games, the year of the games, the board size) and then 68 bytes per game: tournament,
  black player and white player numbers, black's final disc count, the theoretical score, and 60
  move bytes coded 10 x row + column (a1 = 11), 0 after the last move.
- Transcripts (.txt): one game per line as the moves' names, `f5d6c3d3c4...`; a .csv file with a
  `transcript` column holds the same (the form 【オセロAIを作る①】 reads).

Readers return the games they could replay to their end and a list of problems, one line each
naming the file and the game; a bad game (an illegal move, or a record that stops before the game
is over, whose result would be made up) is skipped and nothing else is lost.
"""
import csv
import datetime
import io
import os
import struct

from alphazero.files import atomic_output
from alphazero.games import player_value
from alphazero.gtp import action_names

WTB_HEADER = struct.Struct('<4BIHH4B')   # century, year, month, day, games, records, year of games,
                                        # board size, game type, depth, reserved
WTB_GAME = struct.Struct('<3H2B60s')     # tournament, black player, white player, black's discs,
                                        # theoretical score, moves


CSV_FIELD_LIMIT = 1 << 24  # a field may be this long (a transcript is at most 120 characters, but a
                           # longer field is a bad game to skip, not a reason to stop reading)


class RecordError(Exception):
    """A file that cannot be read at all (the message names it and says why)."""


def replay(game, moves):
    """[(state, action)] of every move of a record, the implied passes included, and the final state.
    Raises ValueError naming the first move that is not legal."""
    state, played = game.State(), []
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


def keep_if_legal(game, moves, where, games, problems):
    """Add a record to `games` when it replays to the end of the game, else a line to `problems`
    saying where and why."""
    try:
        _, final = replay(game, moves)
    except ValueError as error:
        problems.append(f'{where}: {error}; game skipped')
        return
    if not final.is_done():
        problems.append(f'{where}: the game is not over after its {len(moves)} moves, so it has no result; game skipped')
        return
    games.append(moves)


def black_discs(game, moves):
    """Black's (the first player's) discs at the end of a record."""
    _, final = replay(game, moves)
    return sum(cell == 1 for cell in final.cells())


# ----- WTHOR -----
def wtb_move(action, size=8):
    return 10 * (action // size + 1) + action % size + 1


def read_wtb(path, game):
    size = game.BOARD_SHAPE[0]
    data = read_bytes(path)
    if len(data) < WTB_HEADER.size:
        raise RecordError(f'{path}: {len(data)} bytes, shorter than the 16-byte WTHOR header; not a .wtb file')
    *_, count, _, _, board_size, _, _, _ = WTB_HEADER.unpack_from(data)
    if board_size not in (0, size):
        raise RecordError(f'{path}: the header says a {board_size}x{board_size} board; {game.NAME} is {size}x{size}')
    whole = (len(data) - WTB_HEADER.size) // WTB_GAME.size
    problems = [] if whole >= count else [f'{path}: truncated: the header says {count} games, the file holds {whole}']
    games = []
    for index in range(min(count, whole)):
        fields = WTB_GAME.unpack_from(data, WTB_HEADER.size + index * WTB_GAME.size)
        moves = []
        for byte in fields[-1]:
            if byte == 0:
                break
            row, column = divmod(byte, 10)
            moves.append((row - 1) * size + column - 1 if 1 <= row <= size and 1 <= column <= size else -1)
        keep_if_legal(game, moves, f'{path}: game {index + 1}', games, problems)
    return games, problems


def write_wtb(path, games, game, year=None):
    today = datetime.date.today()
    year = year or today.year
    with atomic_output(path) as temporary:
        with open(temporary, 'wb') as f:
            f.write(WTB_HEADER.pack(year // 100, year % 100, today.month, today.day, len(games), 0, year,
                                    game.BOARD_SHAPE[0], 0, 0, 0))
            for moves in games:
                discs = black_discs(game, moves)
                f.write(WTB_GAME.pack(0, 0, 0, discs, discs, bytes(wtb_move(a) for a in moves).ljust(60, b'\0')))


# ----- transcripts -----
def parse_transcript(text, game):
    """The actions of a transcript like 'f5d6c3', or ValueError."""
    names = {name: action for action, name in enumerate(action_names(game)) if name != 'pass'}
    text = text.strip().lower()
    moves, position = [], 0
    while position < len(text):
        name = next((n for n in (text[position:position + 3], text[position:position + 2]) if n in names), None)
        if name is None:
            raise ValueError(f'{text[position:position + 3]!r} at character {position + 1} is not a square')
        moves.append(names[name])
        position += len(name)
    return moves


def read_bytes(path):
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as error:
        raise RecordError(f'{path}: cannot be read ({error.strerror})') from None


def read_transcripts(path, game):
    # UTF-8, with or without a byte-order mark; bytes that are not UTF-8 make their game unreadable
    text = read_bytes(path).decode('utf-8-sig', errors='replace')
    if path.lower().endswith('.csv'):
        csv.field_size_limit(max(csv.field_size_limit(), CSV_FIELD_LIMIT))
        reader = csv.DictReader(io.StringIO(text, newline=''))
        try:
            if 'transcript' not in (reader.fieldnames or []):
                raise RecordError(f'{path}: no "transcript" column (columns: {", ".join(map(repr, reader.fieldnames or []))})')
            lines = [(reader.line_num, row['transcript'] or '') for row in reader]
        except csv.Error as error:
            raise RecordError(f'{path}: line {reader.line_num}: not CSV ({error})') from None
    else:
        lines = list(enumerate(text.splitlines(), 1))
    games, problems = [], []
    for number, line in lines:
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        try:
            moves = parse_transcript(line, game)
        except ValueError as error:
            problems.append(f'{path}:{number}: {error}; game skipped')
            continue
        keep_if_legal(game, moves, f'{path}:{number}', games, problems)
    return games, problems


def write_transcripts(path, games, game):
    names = action_names(game)
    with atomic_output(path) as temporary:
        with open(temporary, 'w') as f:
            for moves in games:
                f.write(''.join(names[a] for a in moves) + '\n')


def read_records(path, game):
    """(games, problems) of a record file: Othello's .wtb, .csv or text transcripts, shogi's .csa,
    .kif or .usi (alphazero/shogi_records.py); RecordError when unreadable."""
    from alphazero.shogi_records import EXTENSIONS, is_shogi_record, read_shogi_records
    if not os.path.isfile(path):
        raise RecordError(f'{path}: ' + ('a folder, not a record file' if os.path.isdir(path) else 'no such file'))
    shogi = game.ENGINE_PROTOCOL == 'usi'
    if is_shogi_record(path) != shogi:
        raise RecordError(f'{path}: {game.NAME} reads ' + (', '.join(EXTENSIONS) if shogi else '.wtb, .txt and .csv')
                          + ' record files')
    games, problems = (read_shogi_records if shogi else read_wtb if path.lower().endswith('.wtb')
                       else read_transcripts)(path, game)
    if not games and not problems:
        problems.append(f'{path}: no games in the file')
    return games, problems
