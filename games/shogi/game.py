# ====================
# Simple shogi (the book's chapter 8 game; an animal-shogi-like game)
# ====================
# A board of 3 columns x 4 rows. Each side has a lion, a giraffe, an elephant and a chick:
# - chick (ひよこ): one step forward; elephant (ぞう): one step diagonally; giraffe (キリン): one
#   step orthogonally; lion (ライオン): one step in any direction;
# - a move onto an opponent's piece captures it into the mover's hand; a captured lion ends the game;
# - a piece in hand may be dropped on any empty square instead of moving;
# - a player who cannot move (every piece blocked, nothing in hand) has lost, as in shogi;
# - no promotion; a game still going after 300 plies is a draw.
# Each side starts with giraffe, lion and elephant on its back rank from its own left, and its chick
# in front of the lion.
#
# As in the book, a state is seen from the side to move: `pieces` and `enemy_pieces` are 15 numbers
# each, 12 squares (x + 3 * y, row 0 at the far end) and 3 hand counts (chick, elephant, giraffe),
# each side in its own orientation, so the opponent's square p is our square 11 - p.
# An action is destination * 11 + direction: directions 0-7 move the piece that stands one step back
# along that direction (0 = up, then clockwise), 8-10 drop a chick, an elephant or a giraffe.

import os
import sys

import numpy as np

from alphazero import REPO
from alphazero.game.notation import plain_japanese
from alphazero.game.solved import OutOfNodes, Solved
from alphazero.game.opponents import heuristic_opponents, mcts_action, random_action

# The network's view of the game
NAME = 'shogi'
# How it looks (the window and the page): a wooden board; the first player's side ▲, the second's ▽
TITLE = {'en': 'Simple shogi', 'ja': '簡易将棋'}
BOARD_COLOR, LINE_COLOR, MARKS = '#F3DFB0', '#8D6E63', ('▲', '▽')
COLUMNS, ROWS = 3, 4
SQUARES = COLUMNS * ROWS
BOARD_SHAPE = (ROWS, COLUMNS)
INPUT_SHAPE = (ROWS, COLUMNS, 14)  # per side: 4 piece planes, 3 hand flags; the side to move first
ACTION_COUNT = SQUARES * 11
DRAW_PLIES = 300

# Pieces (0: empty), and the directions each one moves in
CHICK, ELEPHANT, GIRAFFE, LION = 1, 2, 3, 4
PIECE_NAMES = {CHICK: {'en': 'chick', 'ja': 'ひよこ'}, ELEPHANT: {'en': 'elephant', 'ja': 'ぞう'},
               GIRAFFE: {'en': 'giraffe', 'ja': 'キリン'}, LION: {'en': 'lion', 'ja': 'ライオン'}}
DXY = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))  # up, then clockwise
DIRECTIONS = {CHICK: (0,), ELEPHANT: (1, 3, 5, 7), GIRAFFE: (0, 2, 4, 6), LION: tuple(range(8))}
DROP = 8  # direction 8 + (piece - 1): drop a chick, an elephant or a giraffe

# The start, from the side to move: chick in front of the lion; giraffe, lion, elephant from the left
START = (0, 0, 0,
         0, 0, 0,
         0, CHICK, 0,
         GIRAFFE, LION, ELEPHANT,
         0, 0, 0)

def square_of(x, y):
    return x + COLUMNS * y if 0 <= x < COLUMNS and 0 <= y < ROWS else None


# The steps of a piece from a square that stay on the board: (destination, action) in the order of
# its directions, worked out once for every piece and square
def steps_from(piece, source):
    for direction in DIRECTIONS[piece]:
        dx, dy = DXY[direction]
        destination = square_of(source % COLUMNS + dx, source // COLUMNS + dy)
        if destination is not None:
            yield destination, destination * 11 + direction


STEPS = {piece: [tuple(steps_from(piece, source)) for source in range(SQUARES)] for piece in DIRECTIONS}


# The square a piece moving in `direction` came from to reach `destination`
def source_of(destination, direction):
    dx, dy = DXY[direction]
    return square_of(destination % COLUMNS - dx, destination // COLUMNS - dy)


# Game state
class State:
    # Initialise: the starting position unless given; `depth` counts the plies played
    def __init__(self, pieces=None, enemy_pieces=None, depth=0):
        self.pieces = list(pieces or START)
        self.enemy_pieces = list(enemy_pieces or START)
        self.depth = depth

    # Lost: the side to move's lion was captured, or it cannot move at all (every piece blocked by
    # its own, nothing in hand): as in shogi, a player without a move has lost
    def is_lose(self):
        return LION not in self.pieces[:SQUARES] or next(self.actions(), None) is None

    # Draw: 300 plies played, and the side to move has not lost
    def is_draw(self):
        return self.depth >= DRAW_PLIES and not self.is_lose()

    # (the same as is_lose() or is_draw(), with one look for a move instead of two)
    def is_done(self):
        return self.is_lose() or self.depth >= DRAW_PLIES

    # The state after `action`, seen from the new side to move
    def next(self, action):
        pieces, enemy_pieces = self.pieces[:], self.enemy_pieces[:]
        destination, direction = divmod(action, 11)
        if direction < DROP:
            source = source_of(destination, direction)
            pieces[destination], pieces[source] = pieces[source], 0
            captured = enemy_pieces[SQUARES - 1 - destination]
            if captured:
                enemy_pieces[SQUARES - 1 - destination] = 0
                if captured != LION:  # a captured lion ends the game; it never goes to a hand
                    pieces[SQUARES + captured - 1] += 1
        else:
            piece = direction - DROP + 1
            pieces[SQUARES + piece - 1] -= 1
            pieces[destination] = piece
        return State(enemy_pieces, pieces, self.depth + 1)

    # Moves of the pieces on the board, then drops, in increasing order of action
    def legal_actions(self):
        return sorted(self.actions())

    # The same, one at a time as found (is_lose only needs to know whether there is one)
    def actions(self):
        for source, piece in enumerate(self.pieces[:SQUARES]):
            if piece:
                for destination, action in STEPS[piece][source]:
                    if not self.pieces[destination]:
                        yield action
        for piece in (CHICK, ELEPHANT, GIRAFFE):
            if self.pieces[SQUARES + piece - 1]:
                yield from (square * 11 + DROP + piece - 1 for square in range(SQUARES)
                            if not self.pieces[square] and not self.enemy_pieces[SQUARES - 1 - square])

    # The first player moves on even plies
    def is_first_player(self):
        return self.depth % 2 == 0

    # The network's input: (4, 3, 14). Per side, 4 planes of its pieces (chick, elephant, giraffe,
    # lion) and 3 planes filled with 1 when it holds that piece in hand; the side to move first.
    # Unlike the book, the opponent's pieces are turned into the side to move's view, so both sides'
    # planes show one board
    def planes(self):
        enemy = self.enemy_pieces[SQUARES - 1::-1] + self.enemy_pieces[SQUARES:]
        planes = np.zeros((SQUARES, 14), dtype=np.float32)
        for first_plane, pieces in ((0, self.pieces), (7, enemy)):
            # A 1 where each piece stands, on its kind's plane
            for square, piece in enumerate(pieces[:SQUARES]):
                if piece:
                    planes[square, first_plane + piece - 1] = 1
            # A hand plane is all 1 while that kind is held
            for i in range(3):
                if pieces[SQUARES + i]:
                    planes[:, first_plane + 4 + i] = 1
        return planes.reshape(INPUT_SHAPE)

    # Squares by owner in reading order, from the first player's side (row 0 at the second player's
    # end): +piece for the first player, -piece for the second, 0 empty
    def cells(self):
        mine = self.pieces[:SQUARES]
        theirs = [-p for p in self.enemy_pieces[SQUARES - 1::-1]]
        cells = [m or t for m, t in zip(mine, theirs)]
        return cells if self.is_first_player() else [-c for c in reversed(cells)]

    # The pieces in hand: ({piece: count} of the first player, of the second player)
    def hands(self):
        mine = {p: self.pieces[SQUARES + p - 1] for p in (CHICK, ELEPHANT, GIRAFFE)}
        theirs = {p: self.enemy_pieces[SQUARES + p - 1] for p in (CHICK, ELEPHANT, GIRAFFE)}
        return (mine, theirs) if self.is_first_player() else (theirs, mine)

    # Text board from the first player's side: capitals are the first player's pieces
    def __str__(self):
        letters = '.CEGL'
        cells = self.cells()
        rows = [' '.join(letters[abs(c)] if c >= 0 else letters[-c].lower() for c in cells[r * COLUMNS:(r + 1) * COLUMNS])
                for r in range(ROWS)]
        first, second = self.hands()

        def hand(counts, case):
            return ''.join(case(letters[p]) * n for p, n in counts.items()) or '-'
        return '\n'.join([f'hand: {hand(second, str.lower)}'] + rows + [f'hand: {hand(first, str.upper)}'])

    # The position as Fairy-Stockfish reads it (UCI, engines/variants.ini): FEN ranks from the second
    # player's end, the first player's pieces in capitals, the hands in brackets; no move list, so
    # that the engine applies no rule of its own about repetitions or quiet moves
    def uci_position(self):
        letters, cells, ranks = '.cegl', self.cells(), []
        for row in range(ROWS):
            rank, empty = '', 0
            for cell in cells[row * COLUMNS:(row + 1) * COLUMNS]:
                if cell:
                    rank += (str(empty) if empty else '') + (letters[cell].upper() if cell > 0 else letters[-cell])
                empty = 0 if cell else empty + 1
            ranks.append(rank + (str(empty) if empty else ''))
        first, second = self.hands()
        hands = ''.join(letters[p].upper() * n for p, n in first.items()) + ''.join(letters[p] * n for p, n in second.items())
        return f'fen {"/".join(ranks)}[{hands}] {"w" if self.is_first_player() else "b"} - - 0 {self.depth // 2 + 1}'

    # The action of a legal move in Fairy-Stockfish's notation (b2b3, C@a3), or ValueError
    def action_of_uci(self, text):
        for action in self.legal_actions():
            if uci_move(self, action) == text:
                return action
        raise ValueError(f'{text!r} is not a legal move here')


# Action names for people and the text game: a move as from-square to-square ('b3b2'), a drop as
# the piece's letter, '*' and the square ('C*a2'); squares are named from the first player's side,
# columns a-c from the left, rows 1-4 from the top
def square_name(square):
    return 'abc'[square % COLUMNS] + str(square // COLUMNS + 1)


def action_name(state, action):
    destination, direction = divmod(action, 11)
    turn = (lambda s: s) if state.is_first_player() else (lambda s: SQUARES - 1 - s)  # into the first player's view
    if direction >= DROP:
        return f'{"CEG"[direction - DROP]}*{square_name(turn(destination))}'
    return square_name(turn(source_of(destination, direction))) + square_name(turn(destination))


# A move in Fairy-Stockfish's notation (UCI): squares named as above but with the rows counted
# from the first player's end (b3b2 is b2b3), drops with @ (C*a2 is C@a3)
def uci_move(state, action):
    name = action_name(state, action)

    def square(text):
        return text[0] + str(ROWS + 1 - int(text[1]))
    return f'{name[0]}@{square(name[2:])}' if '*' in name else square(name[:2]) + square(name[2:])


# Where an action goes, for a board drawn from the first player's side: (source square or None for a
# drop, destination square, the piece dropped or 0)
# How the text player and the window explain the moves and the sides
MOVE_HELP = {
    'en': ("The board shows the first player's pieces in capitals, the second player's in small letters. Type a "
           'move as its square and the square it goes to (b3b2), or a drop as the piece, * and the square (C*a2); '
           'C chick, E elephant, G giraffe, L lion.'),
    'ja': ('盤の大文字が先手の駒、小文字が後手の駒です。指し手は棋譜の書き方 (２二ひよこ、１二キリン打)、または動かす駒の'
           'マスと行き先のマス (b3b2)、持ち駒を打つ手は駒の文字、*、マス (C*a2) で入力してください。'
           'C ひよこ、E ぞう、G キリン、L ライオン。筋は左から３・２・１、段は上から一～四です。'),
}
SIDE_NAMES = {'en': ('the light pieces, moving up the board', 'the dark pieces, moving down the board'),
              'ja': ('先手（明るい駒、盤の上へ進む）', '後手（暗い駒、盤の下へ進む）')}
PIECE_LETTERS = {CHICK: 'C', ELEPHANT: 'E', GIRAFFE: 'G', LION: 'L'}


def piece_letter(piece):
    return PIECE_LETTERS[piece]


def piece_steps(piece):
    """The (dx, dy) steps of a piece of the first player (y grows down the board)."""
    return [DXY[direction] for direction in DIRECTIONS[piece]]


def action_squares(state, action):
    destination, direction = divmod(action, 11)
    turn = (lambda s: s) if state.is_first_player() else (lambda s: SQUARES - 1 - s)
    if direction >= DROP:
        return None, turn(destination), direction - DROP + 1
    return turn(source_of(destination, direction)), turn(destination), 0


# A move as Japanese records write it, in KI2's way: the side (▲ first, △ second), the square
# (files 3-1 from the left, ranks 一-四 from the top, as the first player sees the board), the piece,
# 打 for a drop, and the square it left in KIF's way, (32), where two pieces of a kind could go there
RANKS = '一二三四'


def japanese_name(state, action):
    source, destination, dropped = action_squares(state, action)
    piece = dropped or abs(state.cells()[source])
    name = ('▲' if state.is_first_player() else '△') + japanese_square(destination) + PIECE_NAMES[piece]['ja']
    if dropped:
        return name + '打'
    rivals = [a for a in state.legal_actions() if a != action and action_squares(state, a)[1] == destination
              and action_squares(state, a)[0] is not None and abs(state.cells()[action_squares(state, a)[0]]) == piece]
    return name + (f'({COLUMNS - source % COLUMNS}{source // COLUMNS + 1})' if rivals else '')


def japanese_square(square):
    return '０１２３'[COLUMNS - square % COLUMNS] + RANKS[square // COLUMNS]


# How a game ended, as a record says it: 'まで31手で先手の勝ち' (the lion was taken, or the loser had
# no move) or 'まで300手で引き分け'; in English 'the first player wins after 31 moves'
def conclusion(state, resigned=False, lang='ja'):
    plies = state.depth
    if not state.is_done() and not resigned:
        return f'まで{plies}手で中断' if lang == 'ja' else f'stopped after {plies} moves'
    if state.is_draw():
        return f'まで{plies}手で引き分け' if lang == 'ja' else f'drawn after {plies} moves (the {DRAW_PLIES}-move limit)'
    first_won = not state.is_first_player()  # the side to move has lost (or resigned)
    if lang == 'ja':
        return f'まで{plies}手で{"先手" if first_won else "後手"}の勝ち' + ('（投了）' if resigned else '')
    return f'the {"first" if first_won else "second"} player wins after {plies} moves' + (' (resignation)' if resigned else '')


# The action a name stands for in this state (any case), or None: b3b2 or C*a2, or the Japanese
# name (２二ひよこ, ▲２二ひよこ, 22ひよこ, ２二ひよこ打; ひよこ also ヒヨコ, キリン also きりん)
def parse_action(state, text):
    names = {action_name(state, action).lower(): action for action in state.legal_actions()}
    typed = comparable(text)
    japanese = {comparable(japanese_name(state, action)): action for action in state.legal_actions()}
    found = names.get(text.strip().lower(), japanese.get(typed, japanese.get(typed + '打')))
    if found is None:  # the source square left out of a move that names it
        found = [a for name, a in japanese.items() if name.split('(')[0] == typed]
        found = found[0] if len(found) == 1 else None
    return found


def comparable(text):
    """Japanese text made comparable: ASCII digits (kanji ranks too), no side marks or spaces
    (plain_japanese), katakana piece names as hiragana."""
    return ''.join(chr(ord(c) - 0x60) if 'ァ' <= c <= 'ヶ' else c for c in plain_japanese(text))


# Symmetry: the left-right mirror, as (square permutation, action permutation)
def _symmetries():
    mirror = [square_of(COLUMNS - 1 - s % COLUMNS, s // COLUMNS) for s in range(SQUARES)]
    mirrored_direction = (0, 7, 6, 5, 4, 3, 2, 1, 8, 9, 10)
    actions = [mirror[a // 11] * 11 + mirrored_direction[a % 11] for a in range(ACTION_COUNT)]
    return (tuple(range(SQUARES)), tuple(range(ACTION_COUNT))), (tuple(mirror), tuple(actions))


SYMMETRIES = _symmetries()

# Material for the alpha-beta opponents (a lion is never captured but once, which ends the game)
# ----- mates: the lion taken (or the opponent left without a move) by force -----
MATE_PLIES = 7          # forced wins looked for up to this many plies (four moves of the side to move)
SOLVER_NODES = 20_000   # positions that search may visit before each move (a fraction of a second)


def solve(state, nodes=SOLVER_NODES):
    """A forced win within MATE_PLIES plies (Solved, with the line: the opponent's longest defence),
    the shortest first; None when there is none, or when it takes more than `nodes` positions."""
    if state.is_done():
        return None
    budget = [nodes]
    try:
        for plies in range(1, MATE_PLIES + 1, 2):
            line = forced_win(state, plies, budget)
            if line:
                return Solved(line, 1, mate=len(line))
    except OutOfNodes:
        return None
    return None


def forced_win(state, plies, budget):
    """A line by which the side to move wins within `plies` plies whatever the opponent replies (the
    longest reply line), or None. budget: a one-item list, the positions it may still visit."""
    for action in state.legal_actions():
        budget[0] -= 1
        if budget[0] < 0:
            raise OutOfNodes
        after = state.next(action)
        if after.is_lose():
            return [action]
        if plies < 3 or after.is_done():
            continue
        defences = []
        for reply in after.legal_actions():
            again = after.next(reply)
            line = None if again.is_done() else forced_win(again, plies - 2, budget)
            if not line:
                break
            defences.append([reply, *line])
        else:
            return [action, *max(defences, key=len)]
    return None


PIECE_VALUES = {CHICK: 1, ELEPHANT: 3, GIRAFFE: 3, LION: 0}


def heuristic(state):
    def material(pieces):
        return (sum(PIECE_VALUES.get(p, 0) for p in pieces[:SQUARES])
                + sum(PIECE_VALUES[p] * pieces[SQUARES + p - 1] for p in (CHICK, ELEPHANT, GIRAFFE)))
    return material(state.pieces) - material(state.enemy_pieces)


# The opponents of evaluate_best_player.py: random, alpha-beta on material to depths 1, 2 and 4, and
# the book's pure MCTS player (random playouts)
def opponents():
    return {'VS_Random': random_action, **heuristic_opponents(heuristic, (1, 2, 4)), 'VS_MCTS': mcts_action}


# A real opponent: Fairy-Stockfish, told the rules, over UCI (evaluate_best_player.py --game shogi
# --engine "/usr/games/fairy-stockfish; go depth 3")
ENGINE_PROTOCOL = 'uci'
ENGINE_OPTIONS = (f'setoption name VariantPath value {os.path.join(REPO, "engines", "variants.ini")}',
                  'setoption name UCI_Variant value simpleshogi')


# Play one random game when run alone
if __name__ == '__main__':
    from alphazero.game.registry import play_random_game
    play_random_game(sys.modules[__name__])
