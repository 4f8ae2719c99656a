"""Othello records: WTHOR database files (.wtb) and text transcripts (f5d6c3...)."""
import csv
import datetime
import io
import struct

from alphazero.files import atomic_output
from alphazero.game.notation import action_names
from alphazero.records.common import RecordError, format_name, keep_if_legal, read_bytes, replay

WTB_HEADER = struct.Struct('<4BIHH4B')   # century, year, month, day, games, records, year of games,


WTB_GAME = struct.Struct('<3H2B60s')     # tournament, black player, white player, black's discs,


CSV_FIELD_LIMIT = 1 << 24  # a field may be this long (a transcript is at most 120 characters, but a


def black_discs(game, moves):
    """Black's (the first player's) discs at the end of a record."""
    _, final = replay(game, moves)
    return sum(cell == 1 for cell in final.cells())


# ----- WTHOR -----
def wtb_move(action, size=8):
    return 10 * (action // size + 1) + action % size + 1


def read_wtb(path, game, unfinished=False):
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
        keep_if_legal(game, moves, f'{path}: game {index + 1}', games, problems, unfinished)
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


def read_transcripts(path, game, unfinished=False):
    # UTF-8, with or without a byte-order mark; bytes that are not UTF-8 make their game unreadable
    text = read_bytes(path).decode('utf-8-sig', errors='replace')
    if format_name(path).lower().endswith('.csv'):
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
        keep_if_legal(game, moves, f'{path}:{number}', games, problems, unfinished)
    return games, problems


def write_transcripts(path, games, game, evaluations=None):
    """Games as transcripts, one a line (f5d6c3..., passes left out). `evaluations`, one per game
    ({ply: (value, line)}, plies counting passes), adds after a game's line a comment for each
    evaluated move: `# 12 d3 +0.35 d3 c4 e3`, the move's number and name, the AI's value for the side
    that made it (-1 lost .. 1 won) and the line it expected (a pass has none); transcript readers skip
    such lines."""
    names = action_names(game)
    with atomic_output(path) as temporary:
        with open(temporary, 'w') as f:
            for i, moves in enumerate(games):
                f.write(''.join(names[a] for a in moves if a != game.PASS) + '\n')
                for ply, (value, line) in sorted((evaluations[i] or {}).items() if evaluations else []):
                    if moves[ply] == game.PASS:  # the line leaves passes out, and so do its comments
                        continue
                    f.write(f'# {ply + 1} {names[moves[ply]]} {value:+.2f} {" ".join(names[a] for a in line)}\n')
