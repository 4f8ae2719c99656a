# ====================
# Full shogi (本将棋, 9x9), as Tadao Yamaoka's 「大規模言語モデルで将棋AIを作る その2(入力特徴量)」 builds it
# ====================
# The rules come from the shogi world's own library, cshogi (dlshogi's C++ move generation: drops,
# promotion, the two-pawn rule and the pawn-drop-mate rule). It is GPL-3.0, so it is an optional
# extra: WITH_SHOGI=1 bash setup.sh installs it (docs/shogi.md).
#
# What this module adds to cshogi's board:
# - the end of a game as floodgate scores it: a side without a legal move has lost (checkmate); the
#   fourth occurrence of a position (same board, hands and side to move) is a draw (千日手), unless
#   one side gave check with every one of its moves since the first of them, and that side loses
#   (連続王手の千日手); a game still going after 256 plies is a draw. (cshogi's own is_draw() already
#   reports the second occurrence, as a search wants; a game result needs the fourth.)
# - the network's view: the input planes are dlshogi's features, exactly the words of the article's
#   96 tokens (see planes()); the policy is the article's 1496 classes (destination square x move
#   direction, impossible combinations removed), the action of a move.
import re
import sys

import numpy as np

try:
    import cshogi
    from cshogi.dlshogi import FEATURES1_NUM, FEATURES2_NUM, make_input_features, make_move_label
    from cshogi.KI2 import move_to_ki2
except ImportError:  # the optional extra is missing: say how to install it, in one line
    from alphazero.errors import UserError
    raise UserError('full shogi (--game shogi9) needs the cshogi library (GPL-3.0, an optional extra): '
                    'install it with `WITH_SHOGI=1 bash setup.sh` (or `pip install cshogi`)') from None

from alphazero.game.notation import plain_japanese
from alphazero.game.solved import Solved
from alphazero.game.opponents import random_action
from alphazero.game.shogi_endings import conclusion  # noqa: F401 (the end of a game as a record says it)

# The network's view of the game
NAME = 'shogi9'
TITLE = {'en': 'Shogi', 'ja': '本将棋'}
# How it looks on the page (web/shogi9.js has its rules): a wooden board, ▲ 先手 and △ 後手, pieces by
# their kanji (cshogi's kinds 1 pawn .. 14 dragon)
BOARD_COLOR, LINE_COLOR, MARKS = '#F3DFB0', '#8D6E63', ('▲', '△')
PIECE_NAMES = {kind: {'en': en, 'ja': ja} for kind, (en, ja) in enumerate((
    ('pawn', '歩兵'), ('lance', '香車'), ('knight', '桂馬'), ('silver', '銀将'), ('bishop', '角行'), ('rook', '飛車'),
    ('gold', '金将'), ('king', '玉将'), ('promoted pawn', 'と金'), ('promoted lance', '成香'),
    ('promoted knight', '成桂'), ('promoted silver', '成銀'), ('horse', '竜馬'), ('dragon', '竜王')), 1)}
PIECE_LETTERS = '歩香桂銀角飛金玉と杏圭全馬龍'
BOARD_SHAPE = (9, 9)
SQUARE_PLANES = FEATURES1_NUM   # 62 = per side (the side to move first): 14 piece kinds, the squares
                                # each kind attacks (14), attacked by at least 1, 2, 3 pieces (3)
HAND_PLANES = FEATURES2_NUM     # 57 = per side: pawns in hand >= 1 .. >= 8, lances, knights, silvers,
                                # golds >= 1 .. >= 4, bishops, rooks >= 1, >= 2 (28); in check (1)
INPUT_SHAPE = (9, 9, SQUARE_PLANES + HAND_PLANES)
# The article's 96 tokens: 81 squares (their 62 words), then 14 hands (each the words of one piece
# kind in one side's hand: pawns 8, lances, knights, silvers, golds 4, bishops, rooks 2), then check
HAND_WORDS = (8, 4, 4, 4, 4, 2, 2)
TOKENS = (SQUARE_PLANES, tuple((SQUARE_PLANES + sum((HAND_WORDS * 2)[:i]), count)
                               for i, count in enumerate(HAND_WORDS * 2)) + ((SQUARE_PLANES + HAND_PLANES - 1, 1),))
MAX_PLIES = 256                 # floodgate's move limit: a draw after 256 plies
REPETITIONS = 4                 # the fourth occurrence of a position ends the game

# ----- the 1496 move classes -----
# dlshogi labels a move by direction * 81 + destination square, in the mover's view (the second
# player's board turned round): 10 directions, the same 10 promoting, 7 drops, 2187 labels. Squares
# are file * 9 + rank (file 0 is the 1-file, rank 0 the far rank a). STEPS[d] is the (file, rank)
# step from source to destination of direction d; a knight jumps, the others may also slide.
STEPS = ((0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1), (1, 1), (-1, 1), (1, -2), (-1, -2))
KNIGHT_JUMPS = (8, 9)
PROMOTING = 10                  # directions 10-19: the same moves, promoting
DROPS = 20                      # directions 20-26: drop a pawn, lance, knight, silver, bishop, rook, gold
ZONE = 3                        # the promotion zone: the far three ranks


def _on_board(file, rank):
    return 0 <= file < 9 and 0 <= rank < 9


# Can some piece make the move of a label in some position? A label is impossible when no source
# square is on the board, when a piece could not stand there unpromoted (a knight on the far two
# ranks; a pawn or lance dropped on the far rank, a knight on the far two), or when a promotion
# neither starts nor ends in the zone
def label_is_possible(label):
    direction, square = divmod(label, 81)
    file, rank = divmod(square, 9)
    if direction >= DROPS:
        lowest_rank = {0: 1, 1: 1, 2: 2}.get(direction - DROPS, 0)  # pawn, lance: rank b on; knight: rank c on
        return rank >= lowest_rank
    promote, direction = direction >= PROMOTING, direction % PROMOTING
    step_file, step_rank = STEPS[direction]
    distances = (1,) if direction in KNIGHT_JUMPS else range(1, 9)
    sources = [(file - k * step_file, rank - k * step_rank) for k in distances
               if _on_board(file - k * step_file, rank - k * step_rank)]
    if not sources:
        return False
    if not promote:
        return direction not in KNIGHT_JUMPS or rank >= 2
    return rank < ZONE or any(source_rank < ZONE for _, source_rank in sources)


# The classes: every possible label, in label order; ACTION_OF_LABEL maps the 2187 labels to them
LABELS = np.array([label for label in range(27 * 81) if label_is_possible(label)])
ACTION_COUNT = len(LABELS)      # 1496, as the article counts
ACTION_OF_LABEL = np.full(27 * 81, -1)
ACTION_OF_LABEL[LABELS] = np.arange(ACTION_COUNT)
ACTION_OF_LABEL = ACTION_OF_LABEL.tolist()  # a list, not an array: looked up for every legal move, it is twice as fast

# Shogi's rules are not left-right symmetric in their records (the files are named), and the
# article trains without mirroring: the identity only
SYMMETRIES = ((tuple(range(81)), tuple(range(ACTION_COUNT))),)


# ----- positions in SFEN -----
# cshogi aborts the whole process on some malformed SFEN strings, so a position from outside (a USI
# GUI, a record) is checked here first
PIECE_COUNTS = {'p': 18, 'l': 4, 'n': 4, 's': 4, 'g': 4, 'b': 2, 'r': 2, 'k': 2}  # both sides together
SFEN_RANK = re.compile(r'(?:[1-9]|\+?[plnsbrPLNSBR]|[gkGK])+')
SFEN_HANDS = re.compile(r'(?:(?:1[0-8]|[1-9])?[plnsgbrPLNSGBR])+')


def sfen_problem(sfen):
    """Why `sfen` is not a position to play from (board, side to move, hands, move number), or None."""
    fields = sfen.split()
    if len(fields) != 4:
        return f'an SFEN has 4 fields (board, side to move, hands, move number), not {len(fields)}'
    board, turn, hands, number = fields
    ranks = board.split('/')
    if len(ranks) != 9 or not all(SFEN_RANK.fullmatch(rank) for rank in ranks):
        return 'the board is not 9 ranks of pieces (PLNSGBRK, lower case for the second player, + promoted) and digits'
    counts = dict.fromkeys(PIECE_COUNTS, 0)
    for number_of_rank, rank in enumerate(ranks):
        width, promoted = 0, False
        for char in rank:
            if char.isdigit():
                width += int(char)
            elif char == '+':
                promoted = True
                continue
            else:
                width += 1
                counts[char.lower()] += 1
                # A pawn, lance or knight that could never move again (the far ranks, unpromoted)
                far = number_of_rank if char.isupper() else 8 - number_of_rank
                if not promoted and (far < {'p': 1, 'l': 1, 'n': 2}.get(char.lower(), 0)):
                    return f'an unpromoted {char} on rank {"abcdefghi"[number_of_rank]} could never move'
            promoted = False
        if width != 9:
            return f'rank {"abcdefghi"[number_of_rank]} has {width} squares, not 9'
    if turn not in ('b', 'w'):
        return f'the side to move is b or w, not {turn!r}'
    if hands != '-':
        if not SFEN_HANDS.fullmatch(hands):
            return f'the hands {hands!r} are not counts and pieces (2P, b, -)'
        for count, piece in re.findall(r'(\d*)([a-zA-Z])', hands):
            counts[piece.lower()] += int(count or 1)
    if board.count('K') != 1 or board.count('k') != 1:
        return 'each side needs exactly one king'
    too_many = [piece for piece, most in PIECE_COUNTS.items() if counts[piece] > most]
    if too_many:
        return f'more {too_many[0].upper()} than the game has'
    if not number.isdigit() or not 1 <= int(number) <= 1_000_000:
        return f'the move number is a whole number from 1, not {number!r}'
    return None


def sfen_problem_on(board):
    """What the rules forbid in a position that sfen_problem() lets through, or None."""
    fields = board.sfen().split()
    fields[1] = 'w' if fields[1] == 'b' else 'b'
    if cshogi.Board(' '.join(fields)).is_check():
        return 'the side not to move is in check'
    return None


# Game state: a cshogi board, the plies played and the positions since the start (for repetition)
class State:
    # Initialise: the start position, or a position in SFEN (a USI GUI's `position sfen ...`;
    # ValueError saying what is wrong with a bad one)
    def __init__(self, sfen=None, board=None, parent=None):
        if board is None:
            board = cshogi.Board()
            if sfen is not None:
                problem = sfen_problem(sfen)
                if problem is None:
                    board.set_sfen(sfen)
                    problem = sfen_problem_on(board)
                if problem:
                    raise ValueError(f'bad SFEN {sfen!r}: {problem}')
        self.board = board
        self.sfen = sfen if parent is None else parent.sfen  # the game's start, None for the usual one
        self.parent = parent
        self.key = board.zobrist_hash()
        self.in_check = board.is_check()
        self._moves = None
        self._ending = None

    # The legal moves as {action: cshogi move}; cshogi already leaves out the pawn-drop mate
    def moves(self):
        if self._moves is None:
            turn = self.board.turn
            self._moves = {ACTION_OF_LABEL[make_move_label(move, turn)]: move for move in self.board.legal_moves}
        return self._moves

    def legal_actions(self):
        return sorted(self.moves())

    # The state after `action`
    def next(self, action):
        board = self.board.copy()
        board.push(self.moves()[action])
        return State(board=board, parent=self)

    # The action of a legal move in USI notation (7g7f, P*5e, 8h2b+), or ValueError
    def action_of_usi(self, text):
        move = self.board.move_from_usi(text) if isinstance(text, str) and text.isascii() else 0
        if not move or move not in self.moves().values():
            raise ValueError(f'{text!r} is not a legal move here')
        return self.action_of_move(move)

    def action_of_move(self, move):
        return ACTION_OF_LABEL[make_move_label(move, self.board.turn)]

    # The game so far as a USI position command's argument: 'startpos moves 7g7f 3c3d'
    def usi_position(self):
        start = 'startpos' if self.sfen is None else f'sfen {self.sfen}'
        moves = [cshogi.move_to_usi(move) for move in self.board.history]
        return start + (' moves ' + ' '.join(moves) if moves else '')

    def plies(self):
        return self.board.move_number - 1

    # How the game ended for the side to move: 'lose', 'win', 'draw', or None while it goes on
    def ending(self):
        if self._ending is None:
            self._ending = self._find_ending() or ''
        return self._ending or None

    def _find_ending(self):
        if not self.moves():
            return 'lose'
        repetition = self.repetition()
        if repetition:
            return repetition
        return 'draw' if self.plies() >= MAX_PLIES else None

    # The fourth occurrence of this position: 'draw', or the result for the side to move when one
    # side checked with every move since the first occurrence ('win' when the opponent did)
    def repetition(self):
        if self.board.is_draw() == cshogi.NOT_REPETITION:  # cshogi's scan, in C++: no earlier occurrence at all
            return None
        history, state = [], self
        while state is not None:
            history.append(state)
            state = state.parent
        occurrences = [i for i, s in enumerate(history) if s.key == self.key]
        if len(occurrences) < REPETITIONS:
            return None
        cycle = history[:occurrences[REPETITIONS - 1]]  # this state back to just after the first occurrence
        # cycle[0], cycle[2], ... were reached by the opponent's moves; cycle[1], ... by ours
        if all(s.in_check for s in cycle[0::2]):
            return 'win'
        if all(s.in_check for s in cycle[1::2]):
            return 'lose'
        return 'draw'

    def is_lose(self):
        return self.ending() == 'lose'

    def is_draw(self):
        return self.ending() == 'draw'

    def is_done(self):
        return self.ending() is not None

    def is_first_player(self):
        return self.board.turn == cshogi.BLACK

    # The network's input, (9, 9, 119): dlshogi's features, which are the words of the article's
    # tokens. Planes 0-61 hold, square by square, the words of that square's token (the piece on it,
    # one word per kind of piece attacking it, the attack count 1, 2, 3 as cumulative words); planes
    # 62-118 are the same on every square: the words of the 14 hand tokens and of the check token.
    # A ResNet reads them as planes; the Transformer (dual_network.py) makes its 96 tokens from them
    def planes(self):
        square_words = np.zeros((SQUARE_PLANES, 9, 9), np.float32)
        hand_words = np.zeros((HAND_PLANES, 9, 9), np.float32)
        make_input_features(self.board, square_words, hand_words)
        return np.concatenate([square_words, hand_words]).transpose(1, 2, 0)

    # The position packed as cshogi's HuffmanCodedPos (32 bytes: board, hands, side to move), as
    # dlshogi keeps its training positions: millions of them fit where their planes would not
    def pack(self):
        packed = np.zeros(32, np.uint8)
        self.board.to_hcp(packed)
        return packed

    # Squares in reading order from the first player's side (row 0 is rank a, column 0 the 9-file):
    # the piece kind (cshogi's 1 pawn .. 14 dragon), + first player's, - second player's, 0 empty
    def cells(self):
        pieces = self.board.pieces
        cells = []
        for rank in range(9):
            for file in range(8, -1, -1):
                piece = pieces[file * 9 + rank]
                cells.append(0 if piece == 0 else (piece & 15) * (1 if piece < 16 else -1))
        return cells

    # The board in the shogi world's usual form (BOD, as KIF files print it)
    def __str__(self):
        return self.board.to_bod().rstrip()


def piece_letter(kind):
    return PIECE_LETTERS[kind - 1]


# The page marks no steps on the pieces: their kanji say how they move
def piece_steps(kind):
    return []


# The input planes of packed positions (State.pack's), (N, 9, 9, 119): made by cshogi in C++, a
# batch at a time while training (train_records.py)
def packed_planes(packed):
    board = cshogi.Board()
    square_words = np.zeros((len(packed), SQUARE_PLANES, 9, 9), np.float32)
    hand_words = np.zeros((len(packed), HAND_PLANES, 9, 9), np.float32)
    for i, row in enumerate(packed):
        board.set_hcp(np.ascontiguousarray(row))
        make_input_features(board, square_words[i], hand_words[i])
    return np.concatenate([square_words, hand_words], axis=1).transpose(0, 2, 3, 1)


# A move's name: USI notation (7g7f, P*5e, 8h2b+)
def action_name(state, action):
    return cshogi.move_to_usi(state.moves()[action])


# ----- mate search, as dlshogi does: cshogi's df-pn before the network's search -----
MATE_NODES = 10_000             # positions df-pn may visit for a mate before each move (a few ms)


def mate_search(state, nodes=MATE_NODES):
    """(the actions of a forced mate for the side to move that cshogi's df-pn proves within `nodes`
    positions, or None; the positions it visited). In check, df-pn tries the evasions that check. Each
    mate is checked against our rules: it ends in checkmate before the move limit."""
    if state.is_done():
        return None, 0
    dfpn = cshogi.DfPn()
    dfpn.set_max_search_node(nodes)
    moves = dfpn.get_pv(state.board) if dfpn.search(state.board) else []
    actions, walked = [], state
    for move in moves:
        if walked.is_done() or move not in walked.moves().values():
            return None, dfpn.searched_node
        actions.append(walked.action_of_move(move))
        walked = walked.next(actions[-1])
    return (actions if actions and walked.is_lose() and not walked.legal_actions() else None), dfpn.searched_node


def solve(state, nodes=MATE_NODES):
    """A forced mate df-pn proves (Solved, with the mating line), else None."""
    line, _ = mate_search(state, nodes)
    return Solved(line, 1, mate=len(line)) if line else None


# The value of a leaf the search need not ask the network for: the side to move mates in one (cshogi's
# mate search in one ply, which dlshogi uses at its leaves; out of check, where it is exact)
def known_value(state):
    return 1.0 if not state.in_check and not state.is_done() and state.board.mate_move_in_1ply() else None


# A move as KI2 writes it (▲７六歩, △同　銀, ▲５八金右): what the players show in Japanese
def japanese_name(state, action):
    return move_to_ki2(state.moves()[action], state.board)


# Japanese notation (KI2: ▲７六歩, △同　銀, ５八金右, ２二角成) made comparable: digits as ASCII and no
# side marks or spaces (plain_japanese), one spelling per piece
PIECE_SPELLINGS = str.maketrans({'王': '玉', '竜': '龍'})


# Promoted silver, knight and lance are written two ways (成銀 or 全, 成桂 or 圭, 成香 or 杏): one of them
PROMOTED_SPELLINGS = (('成銀', '全'), ('成桂', '圭'), ('成香', '杏'))
# A KIF move names the square it left: ７六歩(77), 同　銀(22), ２二角成(88)
KIF_SOURCE = re.compile(r'^(.+?)\(([1-9])([1-9])\)$')


def comparable(text):
    """A move in Japanese made comparable: digits as ASCII, 王 as 玉, 竜 as 龍, no ▲△ or spaces, and one
    spelling of each promoted piece."""
    text = plain_japanese(text).translate(PIECE_SPELLINGS)
    for long, short in PROMOTED_SPELLINGS:
        text = text.replace(long, short)
    return text


def written_forms(state, action):
    """The ways a move may be written in Japanese, made comparable: as KI2 writes it, and with
    同 (the previous move's square) spelt out as the square."""
    name = comparable(move_to_ki2(state.moves()[action], state.board))
    usi = cshogi.move_to_usi(state.moves()[action])
    square = usi[2] + str('abcdefghi'.index(usi[3]) + 1)
    return {name, name.replace('同', square)}


def kif_action(state, typed):
    """The action of a KIF move (made comparable), whose source square in brackets says which piece
    moves: the move from that square to the one named (or 同) that promotes when it ends in 成; None
    when it is not such a move, or not legal."""
    match = KIF_SOURCE.match(typed)
    if not match:
        return None
    body, source = match.group(1), match.group(2) + 'abcdefghi'[int(match.group(3)) - 1]
    if body.startswith('同'):
        if not state.board.history:
            return None
        destination = cshogi.move_to_usi(state.board.history[-1])[2:4]
    elif re.fullmatch('[1-9][1-9]', body[:2]):
        destination = body[0] + 'abcdefghi'[int(body[1]) - 1]
    else:
        return None
    promotes = body.endswith('成') and not body.endswith('不成')
    piece = (body[1:] if body.startswith('同') else body[2:]).removesuffix('成').removesuffix('不')
    try:
        action = state.action_of_usi(source + destination + ('+' if promotes else ''))
    except ValueError:
        return None
    return action if piece and any(piece in name for name in written_forms(state, action)) else None


# The action a typed move stands for: USI notation (7g7f), Japanese (７六歩, 76歩, 同銀, ４四成銀 or ４四全)
# or KIF with its source square (７六歩(77)), or None
def parse_action(state, text):
    try:
        return state.action_of_usi(text.strip())
    except ValueError:
        pass
    typed = comparable(text)
    if KIF_SOURCE.match(typed):
        return kif_action(state, typed)
    found = [a for a in state.legal_actions() if typed in written_forms(state, a)]
    if not found:  # 打 (a drop) typed where KI2 leaves it out, or left out where KI2 needs it
        drops = [a for a in state.legal_actions() if '*' in cshogi.move_to_usi(state.moves()[a])]
        found = [a for a in drops if typed.removesuffix('打') in written_forms(state, a)
                 or typed + '打' in written_forms(state, a)]
    return found[0] if len(found) == 1 else None


def refusal(state, text, lang='ja'):
    """Why a move typed in Japanese (parse_action found none) cannot be played: two legal moves fit
    it (which piece: 右, 左, 上, 引, 寄, 直; or 成 or 不成), a pawn dropped on a file that has one of
    ours (二歩), a pawn drop that mates (打ち歩詰め); None when none of these."""
    typed = comparable(text)
    match = re.fullmatch(r'(同|[1-9][1-9])(.+?)(打)?', typed)
    if not match or state.is_done():
        return None
    square, piece = match.group(1), match.group(2)
    forms = {a: written_forms(state, a) for a in state.legal_actions()}
    fitting = sorted({move_to_ki2(state.moves()[a], state.board)[1:]  # KI2 less its ▲ or △
                      for a, f in forms.items() if any(form.startswith(square + piece) for form in f)})
    if len(fitting) > 1:
        promotion = all(name.endswith('成') for name in fitting)
        if lang == 'ja':
            return ('成るか成らないかを付けてください: ' if promotion else 'どの駒か決まりません: ') + '、'.join(fitting)
        return ('say whether it promotes: ' if promotion else 'more than one piece can go there: ') + ', '.join(fitting)
    if piece != '歩' or square == '同':
        return None
    file, rank = int(square[0]), int(square[1])
    turn = state.board.turn
    if not state.board.pieces_in_hand[turn][cshogi.HPAWN]:
        return None
    piece_at = lambda r: state.board.piece(cshogi.SQUARES[(file - 1) * 9 + r - 1])  # noqa: E731 (rank r of the file)
    if any(piece_at(r) == (cshogi.BPAWN if turn == cshogi.BLACK else cshogi.WPAWN) for r in range(1, 10)):
        return f'二歩です（{file}筋に歩があります）' if lang == 'ja' else f'two pawns on file {file} (nifu)'
    last_rank, ahead = (1, -1) if turn == cshogi.BLACK else (9, 1)
    if rank == last_rank:
        return (f'歩は{"一" if rank == 1 else "九"}段目に打てません（行き所のない駒）' if lang == 'ja'
                else 'a pawn may not be dropped where it could never move')
    # a drop on an empty square, out of check, that cshogi still refuses in front of the king: it mates
    king = cshogi.WKING if turn == cshogi.BLACK else cshogi.BKING
    if not piece_at(rank) and not state.in_check and 1 <= rank + ahead <= 9 and piece_at(rank + ahead) == king:
        return '打ち歩詰めです' if lang == 'ja' else 'a pawn drop may not mate (uchifuzume)'
    return None


MOVE_HELP = {
    'en': ('Type a move in USI notation: the square it leaves and the square it reaches, files 1-9 from the '
           'right and ranks a-i from the top (7g7f), + to promote (8h2b+), or a drop as the piece letter, * and '
           'the square (P*5e; P L N S G B R); or in Japanese: ７六歩, 76歩, ２二角成, 同銀, ５八金右, ５五角打, ４四成銀 '
           '(or ４四全), or as a KIF record writes it, ７六歩(77).'),
    'ja': ('指し手は日本語の棋譜 (７六歩、76歩、２二角成、同銀、５八金右、５五角打、４四成銀 または ４四全、KIF の ７六歩(77)) '
           'か、USI 形式 (7g7f、成りは 8h2b+、'
           '打つ手は P*5e; P 歩 L 香 N 桂 S 銀 G 金 B 角 R 飛) で入力してください。'),
}
ENGINE_PROTOCOL = 'usi'
SIDE_NAMES = {'en': ('sente (先手, moving up the board)', 'gote (後手, moving down the board)'),
              'ja': ('先手（盤の上へ進む）', '後手（盤の下へ進む）')}


# The fixed player of evaluate_best_player.py (the real opponents are USI engines: docs/shogi.md)
def opponents():
    return {'VS_Random': random_action}


# Play one random game when run alone
if __name__ == '__main__':
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
