"""The positions of game records as training data: every position where the side to move had a
choice, with the move played and the game's result for the side to move, or a blend of it with
the score the record's engine gave the position (train_records.py learns from them alone, a
training stage beside self-play's with TrainingSettings.records)."""
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
# and the moves and results kept as C arrays, so that making them needs little more memory than they take.
# With score_share, a position the record scores (an engine's centipawns: Record.scores) has as its
# value target that share of the score's winning chance and the rest of the result (as dlshogi's
# val_lambda mixes them: a deeper teacher's judgement of each position, not one result per game).
# The first `opening` moves of each game are left out: make_records.py --opening plays them at
# random, and a network taught them would learn random play in the first positions of every game
CHUNK = 10_000


def records_to_arrays(game, games, score_share=0.0, opening=0):
    chunks, positions, actions, values = [], [], array.array('i'), array.array('f')
    scores = array.array('f')  # the mover's centipawns, NaN where the record gives none
    for moves in tqdm(games, desc='positions of the games', unit='game', delay=1, leave=False):
        played, final = replay(game, moves)
        scored, index = getattr(moves, 'scores', {}), -1
        for state, action in played:
            if action == game.PASS:
                continue
            index += 1  # the index of the move among the record's (the passes replay adds are not in it)
            if index < opening:
                continue
            if game.packed_planes:
                positions.append(state.pack())
            else:
                planes = state.planes()
                as_bytes = planes.astype(np.uint8)
                positions.append(as_bytes if np.array_equal(as_bytes, planes) else planes)
            actions.append(action)
            values.append(record_value(moves, final, state.is_first_player()))
            score = scored.get(index)
            scores.append(np.nan if score is None else score if state.is_first_player() else -score)
            if len(positions) == CHUNK:
                chunks.append(np.stack(positions))
                positions = []
    if positions:
        chunks.append(np.stack(positions))
    if not chunks:
        raise UserError(f'the {len(games)} games have no move after their first {opening}: give a smaller --opening')
    values = np.array(values, np.float32)
    if score_share:
        values = blended_values(values, np.array(scores, np.float32), score_share)
    # bytes and floats together become floats, as one np.stack of them all would make them
    return np.concatenate(chunks), np.array(actions, np.int32), values


# Centipawns as winning chances: p = 1 / (1 + exp(-cp / scale)), each engine counting its centipawns
# its own way, so the scale is the one under which the games' own scores best predict their results
# (a mate, +-30000 in CSA files, is left out of the fit and reads as certain)
SCALES = np.geomspace(50, 5000, 231)  # 2% apart
MATE_SCORE = 30000


def fitted_scale(scores, results):
    """The scale of the most likely logistic fit of the decisive results to the scores (the mover's
    centipawns, NaN for none), or None when no decisive position has a score."""
    fitted = ~np.isnan(scores) & (results != 0) & (np.abs(scores) < MATE_SCORE)
    signed = np.where(results[fitted] > 0, scores[fitted], -scores[fitted])  # positive: the score named the winner
    if not signed.size:
        return None
    return float(SCALES[np.argmin([np.logaddexp(0, -signed / scale).sum() for scale in SCALES])])


def blended_values(results, scores, share):
    """Value targets: `share` of each scored position's winning chance (as a value, 2p - 1) and the
    rest of its result; a position without a score keeps its result."""
    scale = fitted_scale(scores, results)
    if scale is None:
        print('the records hold no engine scores: the value targets are the results alone', file=sys.stderr)
        return results
    scored = ~np.isnan(scores)
    print(f'value targets: {share:g} of the engines\' scores (winning chance 1 / (1 + exp(-cp / {scale:.0f})), '
          f'fitted to the results) and {1 - share:g} of the result, in {scored.mean():.0%} of the positions',
          file=sys.stderr)
    chance = np.tanh(np.where(scored, scores, 0) / (2 * scale))  # 2p - 1
    return np.where(scored, (1 - share) * results + share * chance, results).astype(np.float32)


READ = {}  # (game, record files, opening) -> their positions, the last files read in this process


def record_positions(game, paths, opening=0):
    """records_to_arrays of every game in the files `paths`, read once in a process (a training
    cycle draws from them every stage)."""
    key = (game.NAME, tuple(paths), opening)
    if key not in READ:
        READ.clear()  # one set of records at a time
        READ[key] = records_to_arrays(game, read_games(game, list(paths)), opening=opening)
    return READ[key]
