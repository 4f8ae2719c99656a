"""Shogi game records in and out: CSA, KIF and USI move lists (for full shogi, --game shogi9).

- CSA (.csa), the computer-shogi format floodgate's archives use: a header, then one move per line
  (+7776FU), then how the game ended (%TORYO: the side to move resigned); several games in one file
  are separated by a line holding `/`.
- KIF (.kif, .kifu), the format of shogi GUIs and databases, in Japanese (cshogi reads it); KI2
  (.ki2), its shorter form without source squares, whose moves are read as a player types them.
- USI move lists (.usi): one game per line, as a USI GUI sends it, `startpos moves 7g7f 3c3d ...`
  (`position ` in front is allowed), then optionally how it ended: `resign` (the side to move
  resigned), `win` (it declared a win) or `draw`.

A game's result comes from the rules when its moves end it (checkmate, repetition, the move limit),
else from its stated ending when that is about the position (a resignation, a declared win, a
draw); a game that was interrupted, lost on time or by an illegal move, or that starts from
another position than the usual start or a handicap's (駒落ち) is skipped and named in the problems.
"""
import datetime
import os
import re

from alphazero.files import atomic_output
from alphazero.game.notation import line_names
from alphazero.game.shogi_endings import KIF_ENDINGS, how_it_ended, kif_result
from alphazero.game.shogi_handicaps import HANDICAPS, handicap_of, side_names
from alphazero.game.values import centipawns, value_for
from alphazero.records.common import format_name, read_bytes, replay

DRAW_ENDINGS = ('%SENNICHITE', '%HIKIWAKE', '%JISHOGI', '%MAX_MOVES')


SIDE_TO_MOVE_LOST = ('%TORYO', '%TSUMI')  # resigned, or mated


SIDE_TO_MOVE_WON = ('%KACHI',)            # declared a win (入玉宣言)


USI_ENDINGS = {'resign': '%TORYO', 'win': '%KACHI', 'draw': '%HIKIWAKE'}


EXTENSIONS = ('.csa', '.kif', '.kifu', '.ki2', '.usi')


class Record(list):
    """A game's actions, and its result for the first player (1, 0 or -1) when the record states one
    that its moves do not reach by the rules (a resignation); None otherwise. `evaluations`: what the
    players said of their moves, {index of the move: (value for its mover, the line of actions it
    expected)}, as LiveGame keeps them. `ratings`: the players' ratings (先手, 後手) that a floodgate
    CSA file states, else None. `start`: the SFEN of a handicap game's start (駒落ち), else None.
    `scores`: what a CSA file's engines said of their moves, {index of the move: centipawns for 先手}
    (floodgate's `'** 296` lines), in each engine's own units."""

    def __init__(self, actions, result=None, evaluations=None, ratings=None, start=None, scores=None):
        super().__init__(actions)
        self.result = result
        self.evaluations = evaluations or {}
        self.ratings = ratings
        self.start = start
        self.scores = scores or {}


def stated_result(final, ending):
    """The first player's result that a record's ending states at its final position, or None when
    the ending says nothing about the position."""
    if ending in DRAW_ENDINGS:
        return 0
    side_to_move = -1 if ending in SIDE_TO_MOVE_LOST else 1 if ending in SIDE_TO_MOVE_WON else None
    return None if side_to_move is None else value_for(final, side_to_move, True)


def to_record(game, start_sfen, moves, ending, where, games, problems, unfinished=False):
    """Replay one game (cshogi moves, or USI texts) and add it to `games` as a Record, or a line to
    `problems` saying why it was skipped; with `unfinished`, a game whose result is unknown is kept
    too (a game to review), its result None."""
    import cshogi
    handicap = start_sfen not in (None, cshogi.STARTING_SFEN)
    if handicap and handicap_of(start_sfen) is None:
        problems.append(f'{where}: starts from a position that is neither the usual start nor a handicap\'s; skipped')
        return
    state, actions = game.State(start_sfen) if handicap else game.State(), []
    for number, move in enumerate(moves, 1):
        try:
            if state.is_done():
                raise ValueError('the game was already over')
            action = state.action_of_usi(move if isinstance(move, str) else cshogi.move_to_usi(move))
        except ValueError as error:
            problems.append(f'{where}: move {number} is illegal ({error}); game skipped')
            return
        actions.append(action)
        state = state.next(action)
    start = start_sfen if handicap else None
    if state.is_done():
        games.append(Record(actions, start=start))
        return
    result = stated_result(state, ending)
    if result is None and not unfinished:
        said = f'ends with {ending}' if ending else 'has no ending'
        problems.append(f'{where}: {said} after {len(actions)} moves, which says nothing about the position; skipped')
        return
    games.append(Record(actions, result, start=start))


def read_text(path):
    data = read_bytes(path)
    for encoding in ('utf-8-sig', 'cp932'):  # KIF files are often in Shift_JIS
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            pass
    return data.decode('utf-8', errors='replace')


# A CSA move (+7776FU), several of which a line may hold between commas (+7776FU,T12)
CSA_MOVE = re.compile(r'[+-]\d{4}[A-Z]{2}')
CSA_SCORE = re.compile(r"'\*\*\s*(-?\d+)")


def csa_scores(text):
    """Each game's scores in a CSA text (games separated by `/` lines): {index of the move: the
    centipawns of the `'** N ...` line after it}, the engine's score from 先手's side."""
    games, scores, moves = [], {}, 0
    for line in text.splitlines():
        line = line.strip()
        if line == '/':
            games.append(scores)
            scores, moves = {}, 0
        elif CSA_SCORE.match(line):
            if moves:
                scores[moves - 1] = int(CSA_SCORE.match(line).group(1))
        elif not line.startswith("'"):
            moves += sum(bool(CSA_MOVE.fullmatch(part)) for part in line.split(','))
    return games + [scores]


def read_csa_or_kif(path, game, unfinished=False):
    import cshogi.CSA
    import cshogi.KIF
    text = read_text(path)
    games, problems = [], []
    is_kif = not format_name(path).lower().endswith('.csa')
    try:
        parsed = cshogi.KIF.Parser.parse_str(text) if is_kif else cshogi.CSA.Parser.parse_str(text)
    except Exception as error:  # cshogi's parsers raise many kinds of error on bad text
        problems.append(f'{path}: not a readable {"KIF" if is_kif else "CSA"} file ({str(error)[:100]}); skipped')
        return games, problems
    parsed = parsed if isinstance(parsed, list) else [parsed]
    scores = csa_scores(text) if not is_kif else []
    for number, record in enumerate(parsed, 1):
        read = len(games)
        to_record(game, record.sfen, record.moves, record.endgame, f'{path}: game {number}', games, problems,
                  unfinished)
        if len(games) == read:
            continue
        ratings = getattr(record, 'ratings', None)  # floodgate's 'black_rate / 'white_rate lines (CSA)
        if ratings and all(ratings):
            games[-1].ratings = tuple(float(r) for r in ratings)
        if len(scores) == len(parsed):  # else the games were split otherwise than by `/` lines
            games[-1].scores = {i: cp for i, cp in scores[number - 1].items() if i < len(games[-1])}
    return games, problems


def read_usi(path, game, unfinished=False):
    games, problems = [], []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith('#'):
            continue
        words = words[1:] if words[0] == 'position' else words
        if words[:1] != ['startpos'] or (len(words) > 1 and words[1] != 'moves'):
            problems.append(f'{path}:{number}: not "startpos moves ..." (other starts are not read); skipped')
            continue
        moves, ending = words[2:], None
        if moves and moves[-1] in USI_ENDINGS:
            ending = USI_ENDINGS[moves.pop()]
        to_record(game, None, moves, ending, f'{path}:{number}', games, problems, unfinished)
    return games, problems


# KI2: the moves as players write them (▲７六歩 △３四歩 ▲２六歩 △同　歩), no source squares; a
# 手合割 line names a handicap, and the result line says who won (まで77手で先手の勝ち)
KI2_MOVE = re.compile(r'[▲△☗☖](同[\s\u3000]*[^\s▲△☗☖]+|[^\s▲△☗☖]+)')
KI2_RESULT = re.compile(r'まで\d+手で(?:(先手|後手|下手|上手)の勝ち|(千日手|持将棋))')


def read_ki2(path, game, unfinished=False):
    """The game of a KI2 file: each move read as a player types it (games/shogi9's parse_action)."""
    games, problems = [], []
    start, texts, result = None, [], None
    for line in read_text(path).splitlines():
        if line.startswith('手合割：') and line[4:].strip() not in ('平手', ''):
            if line[4:].strip() not in HANDICAPS:
                problems.append(f'{path}: 手合割 {line[4:].strip()} is not a handicap we know; skipped')
                return games, problems
            start = HANDICAPS[line[4:].strip()]
        elif line.startswith('▲') or line.startswith('△') or line.startswith('☗') or line.startswith('☖'):
            texts += [match.group(0) for match in KI2_MOVE.finditer(line)]
        elif KI2_RESULT.match(line):
            result = KI2_RESULT.match(line)
    state = game.State(start) if start else game.State()
    moves = []
    for number, text in enumerate(texts, 1):
        action = None if state.is_done() else game.parse_action(state, text)
        if action is None:
            problems.append(f'{path}: move {number} ({text}) is not a legal move there; game skipped')
            return games, problems
        moves.append(game.action_name(state, action))
        state = state.next(action)
    to_record(game, start, moves, ki2_ending(state, result), path, games, problems, unfinished)
    return games, problems


def ki2_ending(final, result):
    """The CSA ending that a KI2 result line states at the final position: who won, or a draw."""
    if result is None:
        return None
    if result.group(2):
        return '%HIKIWAKE'
    first_won = result.group(1) in ('先手', '下手')
    return '%KACHI' if first_won == final.is_first_player() else '%TORYO'


def read_shogi_records(path, game, unfinished=False):
    kind = os.path.splitext(format_name(path).lower())[1]
    return {'.usi': read_usi, '.ki2': read_ki2}.get(kind, read_csa_or_kif)(path, game, unfinished)


# ----- writing -----
def ending_of(state, result):
    """The CSA ending of a game: from the rules when its moves end it (how_it_ended), else from its
    stated result."""
    how = how_it_ended(state)
    mover, other = ('+', '-') if state.is_first_player() else ('-', '+')
    # a mated side to move ends as one that resigned: %TORYO, which cshogi and floodgate read as its
    # loss (%TSUMI, a tsume problem's end, reads as no winner)
    rules = {'mate': '%TORYO', 'perpetual_check': f'%{mover}ILLEGAL_ACTION',
             'opponent_perpetual_check': f'%{other}ILLEGAL_ACTION', 'repetition': '%SENNICHITE',
             'move_limit': '%MAX_MOVES'}
    if how in rules:
        return rules[how]
    return '%HIKIWAKE' if result == 0 else '%TORYO' if value_for(state, result, True) < 0 else '%KACHI'


def write_csa(path, games, game, names=('', '')):
    """Every game in one CSA file, separated by `/` lines."""
    import cshogi
    with atomic_output(path) as temporary:
        with open(temporary, 'w', encoding='utf-8') as f:
            for index, actions in enumerate(games):
                f.write('/\n' if index else '')
                f.write(f'V2.2\nN+{names[0]}\nN-{names[1]}\nPI\n+\n')
                state = game.State()
                for index, action in enumerate(actions):
                    sign = '+' if state.is_first_player() else '-'
                    f.write(sign + cshogi.move_to_csa(state.moves()[action]) + '\n')
                    if index in getattr(actions, 'evaluations', {}):
                        f.write(csa_evaluation(state, *actions.evaluations[index]) + '\n')
                    state = state.next(action)
                f.write(ending_of(state, getattr(actions, 'result', None)) + '\n')


def csa_evaluation(state, value, line):
    """The comment floodgate keeps after a move, `'** 35 -3334FU +2726FU`: the mover's value (for the
    side to move at `state`) in centipawns from 先手's side, and the line it expected in CSA."""
    import cshogi
    moves = line_names(state, line, lambda s, a: ('+' if s.is_first_player() else '-') + cshogi.move_to_csa(s.moves()[a]))
    return f"'** {centipawns(value if state.is_first_player() else -value)} {' '.join(moves)}".rstrip()


def write_usi(path, games, game):
    """One game per line: `startpos moves ...`, then `resign`, `win` or `draw` when the moves do not end it."""
    endings = {'%TORYO': 'resign', '%KACHI': 'win', '%HIKIWAKE': 'draw'}
    with atomic_output(path) as temporary:
        with open(temporary, 'w', encoding='utf-8') as f:
            for actions in games:
                state = replay(game, actions)[1]
                stated = '' if state.is_done() else ' ' + endings[ending_of(state, actions.result)]
                f.write(state.usi_position() + stated + '\n')


def write_kif(path, actions, game, names=('', ''), resigned=False, started=None, evaluations=None, start=None):
    """One game as KIF, the record shogi GUIs read (ShogiHome, 将棋所, ShogiGUI): Shift_JIS for .kif,
    UTF-8 for .kifu, as those programs expect. It starts from `start` (a State: the usual start when
    None, or a handicap's, named in 手合割 with the sides as 下手 and 上手) and ends in how the game
    ended and the record's result line (まで95手で先手の勝ち). `names`: black's player, then white's.
    `evaluations` ({ply: (value for the mover, line)}) adds after each evaluated move the comments
    ShogiHome writes for an engine: `*#評価値=` (centipawns, from 先手's side, as its evaluation graph
    reads them) and `*#読み筋=` (the expected line in KI2)."""
    from cshogi.KIF import move_to_kif
    evaluations = evaluations or {}
    state, previous = start or game.State(), None
    sides = side_names(state.sfen)
    lines = [f'開始日時：{(started or datetime.datetime.now()).strftime("%Y/%m/%d %H:%M:%S")}',
             f'手合割：{handicap_of(state.sfen) or "平手"}', f'{sides[0]}：{names[0]}', f'{sides[1]}：{names[1]}',
             '手数----指手---------消費時間--']
    for number, action in enumerate(actions, 1):
        move = state.moves()[action]
        lines.append(f'{number:>4} {move_to_kif(move, previous)}')
        if number - 1 in evaluations:
            lines.extend(evaluation_comments(state, *evaluations[number - 1], game))
        state, previous = state.next(action), move
    how = how_it_ended(state, resigned)
    lines.append(f'{state.plies() + 1:>4} {KIF_ENDINGS[how][0]}')
    lines.append(kif_result(state, how))
    encoding = 'utf-8' if path.lower().endswith('.kifu') else 'cp932'
    with atomic_output(path) as temporary:
        with open(temporary, 'w', encoding=encoding, newline='\r\n') as f:
            f.write('\n'.join(lines) + '\n')


def evaluation_comments(state, value, line, game):
    """KIF comments of a move's evaluation, as ShogiHome writes them: the value (for the side to move
    at `state`) in centipawns from 先手's side, and the line from `state` in KI2."""
    score = centipawns(value if state.is_first_player() else -value)
    names = line_names(state, line, game.japanese_name)
    return [f'*#評価値={score}'] + ([f'*#読み筋={"".join(names)}'] if names else [])


def is_shogi_record(path):
    return os.path.splitext(format_name(path).lower())[1] in EXTENSIONS
