"""The positions of game records as training data: every position where the side to move had a
choice, with the move played and the game's result for the side to move (train_records.py learns
from them alone, a training stage beside self-play's with TrainingSettings.records)."""
import array
import sys

import numpy as np
from tqdm import tqdm

from alphazero.errors import UserError
from alphazero.records.common import RecordError, record_value, replay
from alphazero.records.read import read_records


# The games of record files; a bad game is reported and skipped, a file with no usable game is an
# error. With min_rating, only the games whose two players a floodgate CSA file rates at least that
# high are kept (as the shogi Transformer article trained on floodgate's games of R3800 and more)
def read_games(game, paths, min_rating=None):
    games, said = [], []
    # tens of thousands of games take minutes: a bar when reading takes more than a second
    with tqdm(paths, desc='read the records', unit='file', delay=1, leave=False) as files:
        for path in files:
            try:
                found, problems = read_records(path, game)
            except RecordError as error:
                raise UserError(str(error)) from None
            said += [f'skipped: {problem}' for problem in problems]
            if problems:
                said.append(f'{path}: {len(found)} games read, {len(problems)} problems')
            games += found
            files.set_postfix_str(f'{len(games)} games', refresh=False)
    for line in said:
        print(line, file=sys.stderr)
    if not games:
        raise UserError(f'no readable {game.NAME} game in {", ".join(paths)}')
    if min_rating is not None:
        rated = [g for g in games if getattr(g, 'ratings', None) and min(g.ratings) >= min_rating]
        print(f'{len(rated)} of {len(games)} games between players rated {min_rating:g} or more', file=sys.stderr)
        if not rated:
            raise UserError(f'no game in {", ".join(paths)} is between players rated {min_rating:g} or more (only '
                            "floodgate's CSA files rate them, in 'black_rate and 'white_rate lines): lower --min-rating "
                            'or leave it out')
        games = rated
    return games


# Every position where the side to move had a choice (a pass teaches nothing): the position, the
# move played and the game's result for the side to move. A game that packs its positions (full
# shogi: 32 bytes each, as dlshogi keeps them) keeps them packed, its planes made a batch at a time
# while training, so that ten million positions take a few hundred MB; other games keep their
# planes, those of 0/1 as bytes (a quarter of the memory). The positions are stacked CHUNK at a time
# and the moves and results kept as C arrays, so that making them needs little more memory than they take
CHUNK = 10_000


def records_to_arrays(game, games):
    chunks, positions, actions, values = [], [], array.array('i'), array.array('f')
    for moves in tqdm(games, desc='positions of the games', unit='game', delay=1, leave=False):
        played, final = replay(game, moves)
        for state, action in played:
            if action == game.PASS:
                continue
            if game.packed_planes:
                positions.append(state.pack())
            else:
                planes = state.planes()
                as_bytes = planes.astype(np.uint8)
                positions.append(as_bytes if np.array_equal(as_bytes, planes) else planes)
            actions.append(action)
            values.append(record_value(moves, final, state.is_first_player()))
            if len(positions) == CHUNK:
                chunks.append(np.stack(positions))
                positions = []
    if positions:
        chunks.append(np.stack(positions))
    # bytes and floats together become floats, as one np.stack of them all would make them
    return np.concatenate(chunks), np.array(actions, np.int32), np.array(values, np.float32)


READ = {}  # (game, record files) -> their positions, the last files read in this process


def record_positions(game, paths):
    """records_to_arrays of every game in the files `paths`, read once in a process (a training
    cycle draws from them every stage)."""
    key = (game.NAME, tuple(paths))
    if key not in READ:
        READ.clear()  # one set of records at a time
        READ[key] = records_to_arrays(game, read_games(game, list(paths)))
    return READ[key]
