"""The game contract: everything the engine, the scripts, the window and GTP may ask of a game.

A game is one folder, games/NAME/, whose game.py is the game's module (the book's tic-tac-toe,
game.py at the top, is the model to copy). The registry (alphazero/game/registry.py) finds it,
loads it, checks it against this contract and hands out a `Game`: the module's required names, and
every optional capability as a field that is always there, with the default below when the module
leaves it out. Nothing outside a game module asks which game it holds; the window and the page
draw a game with what it says here of how it looks.

Required
--------
NAME            str: the --game name; models and data go to runs/NAME/
BOARD_SHAPE     (rows, columns) of the board as drawn
INPUT_SHAPE     (rows, columns, planes): what State.planes() returns, the network's input
ACTION_COUNT    int: actions are 0 .. ACTION_COUNT - 1, the network's policy outputs
SYMMETRIES      tuple of (square permutation, action permutation) pairs, the identity first: the
                board's symmetries that leave the rules unchanged, used to augment training data
State           the book's class: State() is the start position, seen from the side to move, with
                legal_actions() (a list of actions), next(action) (a new State), is_lose(),
                is_draw(), is_done(), is_first_player(), planes() (an INPUT_SHAPE float32 array),
                cells() (per square: 1 first player's, -1 second player's, 0 empty; for shogi the
                piece kind, signed the same way) and __str__()
opponents()     {name: function(state) -> action}: the fixed players evaluate_best_player.py meets

Optional capabilities
---------------------
The fields of Game after the required ones: each has a default (None: the game does not have
that capability) and a comment that says what it is for. OPTIONAL maps their names to the defaults.
"""
import dataclasses
import difflib
import types
from typing import Callable, Optional

from alphazero.errors import UserError

REQUIRED = ('NAME', 'BOARD_SHAPE', 'INPUT_SHAPE', 'ACTION_COUNT', 'SYMMETRIES', 'State', 'opponents')


@dataclasses.dataclass(frozen=True)
class Game:
    """A game module checked against the contract. Its other names (a heuristic, extra players) stay
    reachable as attributes, for the tests and for the game's own opponents."""
    module: types.ModuleType
    NAME: str
    BOARD_SHAPE: tuple
    INPUT_SHAPE: tuple
    ACTION_COUNT: int
    SYMMETRIES: tuple
    State: type
    opponents: Callable

    # ----- optional capabilities -----
    # square_action(square) -> action: what a click on a square means (Connect Four: any square of a
    # column drops in that column). None: moves are not single squares (shogi moves a piece from a
    # square to a square), so the window picks a piece, and GTP cannot name the moves.
    square_action: Optional[Callable] = None
    # The action without a square (Othello's pass), or None when the game has none
    PASS: Optional[int] = None
    # Small enough for alphazero/play/exact.py to solve: the exact strength is measured every cycle
    SOLVABLE: bool = False
    # Each game is dealt random values at its start (point-Othello): matches play duplicate games
    # (each deal with both colours), and GTP, which cannot tell a deal, is not offered
    RANDOM_START: bool = False
    # determinize(state, rng) -> state: the hidden information redrawn as the side to move could
    # believe it (point-Othello's future values), so that search plays fair. None: nothing hidden
    determinize: Optional[Callable] = None
    # score(state) -> the first player's margin at the end (discs, points), for GTP's final_score
    score: Optional[Callable] = None
    # With score: about the largest margin of a game, which scales the target of the network's
    # optional margin head (dual_network.py --margin-head) into -1..1
    MARGIN_SCALE: Optional[float] = None
    # status(state, names, lang) -> a line under the board, in English or Japanese (point-Othello: the
    # scores and the values to come); names: the players' marks or colours
    status: Optional[Callable] = None
    # stone_label(state, square) -> text written on a stone, or '' (point-Othello: its value)
    stone_label: Optional[Callable] = None
    # action_name(state, action) -> text and parse_action(state, text) -> action or None: moves by
    # name in the terminal (shogi: b3b2, C*a2). None: moves are typed as the numbers shown
    action_name: Optional[Callable] = None
    parse_action: Optional[Callable] = None
    # refusal(state, text, lang) -> why a typed move that parse_action refused cannot be played, in
    # the player's language ('en' or 'ja'), or None when it can say nothing more (shogi: 二歩, which
    # 金 moves, 成 or 不成)
    refusal: Optional[Callable] = None
    # With named moves: how to type one (a sentence for the player) and what each side plays
    # (shogi: the capitals, moving up the board). Either may instead be a dict of one per language,
    # {'en': ..., 'ja': ...}, for the players' --lang (alphazero/words.py)
    # japanese_name(state, action) -> a move as Japanese records write it (shogi: KI2's ▲７六歩,
    # △同　銀), which the players show in Japanese; conclusion(state, resigned, lang) -> the end of
    # a game (or its interruption) as a record says it, 'まで95手で先手の勝ち（詰み）'
    japanese_name: Optional[Callable] = None
    conclusion: Optional[Callable] = None
    MOVE_HELP: Optional[str | dict] = None
    SIDE_NAMES: Optional[tuple | dict] = None
    # action_squares(state, action) -> (from square or None, to square, piece dropped or None), and
    # how to draw a piece: piece_letter(piece) and piece_steps(piece) (the (dx, dy) it may step, for
    # the first player); State.hands() gives each player's {piece: count} in hand: the window of games
    # whose pieces move and drop (shogi)
    action_squares: Optional[Callable] = None
    piece_letter: Optional[Callable] = None
    piece_steps: Optional[Callable] = None
    # How the game looks, in the window and on the page (play_web.py serves it): its usual name,
    # {'en': ..., 'ja': ...}; the colours of the board and of its grid lines; the stones of the
    # first and the second player by the names of their colours ('red', 'yellow': the words the
    # players read), drawn in STONE_SHADES ('#rrggbb'; None: the named colours themselves), or,
    # with no stones, the players' MARKS (the book's o and x); the names of the pieces of a game
    # whose pieces move, {piece: {'en': ..., 'ja': ...}}
    TITLE: Optional[dict] = None
    BOARD_COLOR: str = '#00A0FF'
    LINE_COLOR: str = '#0077BB'
    STONE_COLORS: Optional[tuple] = None
    STONE_SHADES: Optional[tuple] = None
    MARKS: tuple = ('o', 'x')
    PIECE_NAMES: Optional[dict] = None
    # mate_search(state, nodes) -> (the actions of a forced win for the side to move that a solver
    # proves within `nodes` positions, or None; the positions it visited) (full shogi: cshogi's df-pn):
    # the engines play it without searching, and `go mate` answers with it
    mate_search: Optional[Callable] = None
    # solve(state) -> Solved (alphazero/game/solved.py): the exact result for the side to move and its
    # move, where the game's solver settles the position within its budget (Othello's last empties,
    # Connect Four from 20 stones, a forced mate in either shogi), else None: players and engines play
    # it before searching, and say it ('wins by 6', 'mate in 7')
    solve: Optional[Callable] = None
    # packed_planes(packed) -> the input planes (N, *INPUT_SHAPE) of positions packed by State.pack()
    # (full shogi: cshogi's 32-byte HuffmanCodedPos): a game with them keeps its training records
    # packed, and makes their planes a batch at a time
    packed_planes: Optional[Callable] = None
    # known_value(state) -> the value of a position for its side to move that the game knows without
    # the network, or None (full shogi: 1 when it mates in one): the search's leaves take it, with
    # the mate search
    known_value: Optional[Callable] = None
    # The game's name for GTP's list_games and set_game (GUIs such as Quarry ask for it)
    GTP_GAME: Optional[str] = None
    # The Transformer's tokens: (square planes, ((first plane, count), ...)): the first planes are
    # read square by square as the squares' tokens, and each group of the other planes (the same on
    # every square) is one more token (full shogi: the 14 hands and the check). None: every square
    # is one token of all its planes
    TOKENS: Optional[tuple] = None
    # How other programs of this game talk, as opponents and record makers: 'gtp' (Othello programs
    # such as GRhino), 'usi' (shogi engines; the game's State then has usi_position() and
    # action_of_usi(text), alphazero/usi.py) or 'uci' (the same with uci_position() and
    # action_of_uci(text)). It also names the records' formats: the shogi world's CSA, KIF and USI
    # move lists for 'usi' (alphazero/shogi_records.py), else Othello's
    ENGINE_PROTOCOL: str = 'gtp'
    # USI/UCI lines every engine of the game is sent after its handshake (the book's simple shogi:
    # where Fairy-Stockfish reads the rules of the variant)
    ENGINE_OPTIONS: tuple = ()

    @property
    def has_window(self):
        """Whether human_play.py's window can show the moves: a click on a square, or a piece picked
        and moved (action_squares)."""
        return self.square_action is not None or self.action_squares is not None

    def __getattr__(self, name):
        return getattr(self.module, name)


OPTIONAL = {field.name: field.default for field in dataclasses.fields(Game)
            if field.name not in REQUIRED and field.name != 'module'}


class ContractError(UserError):
    """A game module that does not keep the contract (the message names what is missing)."""


def check_game(module):
    """The Game of a module; ContractError naming what is missing or wrong, in one line."""
    name = getattr(module, 'NAME', getattr(module, '__name__', '?'))
    missing = [field for field in REQUIRED if not hasattr(module, field)]
    if missing:
        raise ContractError(f'the game module {name} lacks {", ".join(missing)}: '
                            'see alphazero/contract.py')
    state = module.State
    methods = [m for m in ('legal_actions', 'next', 'is_lose', 'is_draw', 'is_done', 'is_first_player', 'planes',
                           'cells') if not callable(getattr(state, m, None))]
    if methods:
        raise ContractError(f'{name}: State lacks {", ".join(methods)}: see alphazero/contract.py')
    rows, columns = module.BOARD_SHAPE
    if tuple(module.INPUT_SHAPE[:2]) != (rows, columns) or len(module.INPUT_SHAPE) != 3:
        raise ContractError(f'{name}: INPUT_SHAPE {module.INPUT_SHAPE} is not (rows, columns, planes) of BOARD_SHAPE '
                            f'{module.BOARD_SHAPE}')
    for key in vars(module):  # a misspelt capability would silently be its default
        close = difflib.get_close_matches(key, [*REQUIRED, *OPTIONAL], n=1, cutoff=0.85)
        if close and close[0] != key:
            raise ContractError(f'{name}: {key} is not in the contract; did you mean {close[0]}?')
    if getattr(module, 'MARGIN_SCALE', None) and not callable(getattr(module, 'score', None)):
        raise ContractError(f'{name}: MARGIN_SCALE needs score(state), the margin it scales: see alphazero/contract.py')
    for field in ('MOVE_HELP', 'SIDE_NAMES', 'TITLE'):
        text = getattr(module, field, None)
        if isinstance(text, dict) and 'en' not in text:
            raise ContractError(f'{name}: {field} in several languages needs an English one, under "en"')
    fields = {field: getattr(module, field) for field in (*REQUIRED, *OPTIONAL) if hasattr(module, field)}
    return Game(module=module, **fields)
