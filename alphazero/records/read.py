"""Any record file, by its format: Othello transcripts and WTHOR, shogi CSA, KIF and USI."""
import os

from alphazero.records.common import RecordError, format_name
from alphazero.records.othello import read_transcripts, read_wtb
from alphazero.records.shogi import EXTENSIONS, is_shogi_record, read_shogi_records


def read_records(path, game, unfinished=False):
    """(games, problems) of a record file: Othello's .wtb, .csv or text transcripts, shogi's .csa, .kif,
    .ki2 or .usi (alphazero/records/shogi.py), any of them compressed with xz (NAME.csa.xz); RecordError
    when unreadable. `unfinished`: keep the games with no result too (to review them, not to learn)."""
    if not os.path.isfile(path):
        raise RecordError(f'{path}: ' + ('a folder, not a record file' if os.path.isdir(path) else 'no such file'))
    shogi = game.ENGINE_PROTOCOL == 'usi'
    if is_shogi_record(path) != shogi:
        raise RecordError(f'{path}: {game.NAME} reads ' + (', '.join(EXTENSIONS) if shogi else '.wtb, .txt and .csv')
                          + ' record files')
    games, problems = (read_shogi_records if shogi else read_wtb if format_name(path).lower().endswith('.wtb')
                       else read_transcripts)(path, game, unfinished)
    if not games and not problems:
        problems.append(f'{path}: no games in the file')
    return games, problems
