# ====================
# The AI as a GTP engine (not in the book)
# ====================
# GTP (the Go Text Protocol) is how game programs talk to GUIs and to other programs: this script
# reads commands on its standard input and answers on its standard output, so that a GUI such as
# Quarry can show our AI, and match programs can set it against other engines. Moves are named as
# in alphazero/engines/gtp.py (Othello: a1-h8, row 1 at the top, black first, `pass`). Only GTP goes to
# standard output; everything else (TensorFlow's notices, our log) goes to standard error.
#
# A clock: `time_settings` and `time_left` (GTP's byoyomi in stones, or sudden death) give each genmove
# its share of the time, and the search stops by then, less --byoyomi-margin; at full strength it
# searches until then. Beyond play: `lz-analyze` and `kata-analyze` stream the search's candidate moves (visits, win rate,
# prior, line) as Leela Zero and KataGo do, for Sabaki and Lizzie; the `gogui-rules_*` commands let a
# generic board-game GUI (GoGui) host a game on a square board, as Egaroucid's console does.

import dataclasses
import inspect
import re
import sys
import threading
import time
import unicodedata

import numpy as np

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.engines.protocol import protocol_streams, serve
from alphazero.cli.flags import add_backend_flag, add_level_flag, add_settai_flag, add_settings_flags, agent_spec
from alphazero.settings import SearchSettings
from alphazero.game.registry import add_game_flag, load_game
from alphazero.game.values import player_value
from alphazero.engines.gtp import COLORS, color_to_move, gtp_problem, parse_color
from alphazero.game.notation import action_names, line_vertices, parse_move
from alphazero.limits import file_path, largest_search, whole_number
from alphazero.engines.clock import MARGIN_MS, move_seconds
from alphazero.play.agent import load_agent
from alphazero.search.deadline import Deadline
from alphazero.cli.words import level_text, words

# Parameters
ENGINE_NAME = 'AlphaZero-book'
ENGINE_VERSION = '1.0'
MARKS = {1: 'X', -1: 'O', 0: '.'}  # showboard and gogui-rules_board: black (the first player), white, empty
ANALYSIS_INTERVAL = 100            # centiseconds between analysis lines when the GUI gives none
ANALYZE_COMMANDS = ('lz-analyze', 'kata-analyze')


class GtpError(Exception):
    """A command that cannot be carried out: answered with `? message`."""


class LineWaiting:
    """Set once the GUI has sent a line after the one being answered: what ends an analysis."""

    def __init__(self, session):
        self.session = session

    def is_set(self):
        return self.session.heard > self.session.answered


class GtpSession:
    """The state of one GTP conversation: the game so far, and the commands that change or show it.
    `choose_action(state, deadline)`: the engine's move, its search ended by `deadline`
    (time.monotonic(), None: no clock); `margin`: seconds of each move's share left for the GUI.
    `stop`: the event that cuts choose_action's search short, which quit sets as soon as it arrives.
    `analyze(state, stop, progress)`: a search of `state` until `stop` is set, calling
    progress(tree, simulations) after each simulation, or the position's Solved where the game's
    solver settles it (the analysis commands; None: none)."""

    def __init__(self, game, choose_action, log=lambda text: None, stop=None, analyze=None, margin=MARGIN_MS / 1000):
        self.game = game
        self.choose_action = choose_action   # (state, deadline) -> action
        self.margin = margin
        self.clock = None                    # (main time, byoyomi time, byoyomi stones) of time_settings
        self.time_left = {}                  # colour: (seconds, stones) of time_left, stones 0 in main time
        self.log = log
        self.stop = stop
        self.analyze = analyze
        self.emit = None                     # writes to the GUI while a command runs (protocol.serve's writer)
        self.heard = self.answered = 0       # lines heard and lines being answered: an analysis runs until another comes
        self.names = action_names(game)
        self.pass_action = game.PASS
        self.history = [game.State()]        # the position after each play or genmove; undo drops one
        self.commands = {
            'protocol_version': lambda: '2',
            'name': lambda: ENGINE_NAME,
            'version': lambda: ENGINE_VERSION,
            'known_command': lambda name: 'true' if name in self.commands else 'false',
            'list_commands': lambda: '\n'.join(self.commands),
            'list_games': lambda: self.game_title(),
            'set_game': self.set_game,
            'boardsize': self.boardsize,
            'clear_board': self.clear_board,
            'play': self.play,
            'genmove': self.genmove,
            'time_settings': self.time_settings,
            'time_left': self.time_left_of,
            'undo': self.undo,
            'showboard': self.showboard,
            'final_score': self.final_score,
            'quit': self.quit,
        }
        rows, columns = game.BOARD_SHAPE
        if rows == columns:  # GoGui's generic board games are square
            self.commands.update({
                'gogui-rules_game_id': self.game_title,
                'gogui-rules_board_size': lambda: str(columns),
                'gogui-rules_board': self.rules_board,
                'gogui-rules_legal_moves': self.rules_legal_moves,
                'gogui-rules_side_to_move': lambda: COLORS[color_to_move(self.state)],
                'gogui-rules_final_result': self.rules_final_result,
            })
        if analyze is not None:
            self.commands.update(dict.fromkeys(ANALYZE_COMMANDS))  # answered by analysis()
        self.finished = False                # after quit

    # ----- the protocol: one line in, one answer out -----
    def stream_to(self, write):
        """protocol.serve hands over its writer: an analysis writes as it goes."""
        self.emit = write

    def interrupt(self, line):
        """Heard as each line arrives, before the lines ahead of it are answered (protocol.serve):
        quit ends a genmove's search at once, and any line ends an analysis. True for quit."""
        self.heard += 1
        words = line.split('#', 1)[0].split()
        if words and re.fullmatch('[0-9]+', words[0]):
            words = words[1:]
        ending = [word.lower() for word in words] == ['quit']  # `quit x` is an error answered, not an end
        if ending and self.stop is not None:
            self.stop.set()
        return ending

    def execute(self, line):
        """The answer to one line of input ('=... \\n\\n' or '?... \\n\\n'), or None for a line with no command."""
        self.answered += 1
        # GTP 2's input rules: control characters other than HT and LF removed, HT as a space,
        # comments after #, words separated by spaces; an id is ASCII digits
        line = ''.join(c for c in line if c in '\t\n' or unicodedata.category(c) != 'Cc').replace('\t', ' ')
        words = [word for word in line.split('#', 1)[0].strip('\n').split(' ') if word]
        if not words:
            return None
        number = words.pop(0) if re.fullmatch('[0-9]+', words[0]) else ''
        if not words:
            return f'?{number} no command after the id\n\n'
        name, arguments = words[0].lower(), words[1:]
        try:
            if name not in self.commands:
                raise GtpError('unknown command')
            if name in ANALYZE_COMMANDS:
                return self.analysis(name, number, arguments)
            command = self.commands[name]
            wanted = len(inspect.signature(command).parameters)
            if len(arguments) != wanted:
                raise GtpError(f'{name} takes {wanted} argument{"" if wanted == 1 else "s"}')
            answer = command(*arguments)
        except GtpError as error:
            return f'?{number} {error}\n\n'
        return f'={number} {answer}'.rstrip(' ') + '\n\n'

    @property
    def state(self):
        return self.history[-1]

    # ----- the commands -----
    def game_title(self):
        return self.game.GTP_GAME or self.game.NAME

    def set_game(self, title):
        if title.lower() != self.game_title().lower():
            raise GtpError(f'unsupported game (this engine plays {self.game_title()})')
        return ''

    def boardsize(self, size):
        rows, columns = self.game.BOARD_SHAPE
        if size != str(columns):
            raise GtpError(f'unacceptable size ({self.game.NAME} is played on {columns} columns)')
        return self.clear_board()

    def clear_board(self):
        self.history = [self.game.State()]
        return ''

    def to_move(self, color):
        """The position with `color` to move: when the other side can only pass, its pass is implied
        (GUIs and engines such as GRhino skip passes)."""
        wanted = parse_color(color)
        if wanted is None:
            raise GtpError(f'invalid color {color!r}: use black or white')
        state = self.state
        if state.is_done():
            raise GtpError('the game is over')
        if color_to_move(state) != wanted:
            if state.legal_actions() != [self.pass_action] or self.pass_action is None:
                raise GtpError(f'it is {COLORS[color_to_move(state)]}\'s turn')
            state = state.next(self.pass_action)
            if state.is_done():
                raise GtpError('the game is over')
        return state

    def play(self, color, vertex):
        action = parse_move(self.game, vertex)
        if action is None:
            raise GtpError(f'invalid vertex {vertex!r}')
        state = self.to_move(color)
        if action not in state.legal_actions():
            raise GtpError('illegal move')
        self.history.append(state.next(action))
        return ''

    def time_settings(self, main_time, byo_yomi_time, byo_yomi_stones):
        numbers = [parse_seconds(word) for word in (main_time, byo_yomi_time, byo_yomi_stones)]
        self.clock, self.time_left = tuple(numbers), {}
        return ''

    def time_left_of(self, color, seconds, stones):
        if parse_color(color) is None:
            raise GtpError('invalid color')
        self.time_left[COLORS[parse_color(color)]] = (parse_seconds(seconds), parse_seconds(stones))
        return ''

    def seconds_for(self, state):
        """The seconds this move may take by the clock (None: no clock): in byoyomi, its time shared
        by the stones still to play; in main time, the clock's share (alphazero/engines/clock.py)."""
        if self.clock is None:
            return None
        main, byoyomi, stones = self.clock
        if byoyomi > 0 and stones == 0:  # GTP: no time limit
            return None
        left, stones_left = self.time_left.get(COLORS[color_to_move(state)], (main, 0))
        if stones_left > 0:  # in byoyomi: what is left for the stones still to play
            return move_seconds(0.0, left / stones_left, margin=self.margin)
        return move_seconds(left, byoyomi / stones if stones else 0.0, margin=self.margin)

    def genmove(self, color):
        if self.state.is_done() and self.pass_action is not None and parse_color(color) is not None:
            return 'pass'  # nothing left to play
        state = self.to_move(color)
        start = time.perf_counter()
        seconds = self.seconds_for(state)
        action = self.choose_action(state, None if seconds is None else time.monotonic() + seconds)
        self.history.append(state.next(action))
        self.log(f'{COLORS[color_to_move(state)]} {self.names[action]} ({time.perf_counter() - start:.2f} s)')
        return self.names[action]

    def quit(self):
        self.finished = True
        return ''

    def undo(self):
        if len(self.history) == 1:
            raise GtpError('cannot undo')
        self.history.pop()
        return ''

    def showboard(self):
        rows, columns = self.game.BOARD_SHAPE
        cells = self.state.cells()
        lines = ['   ' + ' '.join(chr(ord('a') + x) for x in range(columns))]
        for y in range(rows):
            lines.append(f'{y + 1:2d} ' + ' '.join(MARKS[cells[y * columns + x]] for x in range(columns)))
        if self.state.is_done():
            lines.append(f'game over: {self.final_score()}')
        else:
            lines.append(f'{COLORS[color_to_move(self.state)]} to move')
        return '\n' + '\n'.join(lines)

    # ----- analysis, as Leela Zero's lz-analyze and KataGo's kata-analyze -----
    def analysis(self, name, number, arguments):
        """`lz-analyze [color] [interval | interval N]` (and kata-analyze, whose other key-value pairs
        are ignored): `=`, then every `interval` centiseconds one line of the root's candidate moves,
        most visited first, until the GUI sends another line; the answer ends with an empty line."""
        color = arguments[0] if arguments and parse_color(arguments[0]) is not None else None
        interval = next((int(word) for word in arguments if word.isdigit()), 0) or ANALYSIS_INTERVAL
        state = self.to_move(color) if color is not None else self.state
        if state.is_done() or self.emit is None:
            return f'={number}\n\n'
        self.emit(f'={number}\n')
        stop, said, searched = LineWaiting(self), time.perf_counter(), None

        def progress(tree, simulations):
            nonlocal said, searched
            searched = tree
            if time.perf_counter() - said >= interval / 100:
                said = time.perf_counter()
                self.emit(candidates(self.vertices(state), tree, name == 'kata-analyze') + '\n')
        solved = self.analyze(state, stop, progress)
        if solved is not None:  # the exact result, said once: the search could add nothing
            self.log(f'solved: {solved.says()}, {" ".join(self.vertices(state)(solved.line))}')
            self.emit(solved_candidate(self.vertices(state), solved, name == 'kata-analyze') + '\n')
        elif searched is not None:
            self.emit(candidates(self.vertices(state), searched, name == 'kata-analyze') + '\n')
        while not stop.is_set():  # the tree is as large as memory allows: wait for the GUI
            time.sleep(0.01)
        return '\n'

    def vertices(self, state):
        """vertices(line): the GTP vertices of a line of moves from `state`, a drop by its landing square."""
        return lambda line: line_vertices(self.game, state, line, self.names)

    # ----- GoGui's rules commands: the game hosted by a generic board-game GUI -----
    def rules_board(self):
        """The board as GoGui reads it: X, O and . for each row, the highest-numbered first (GoGui
        numbers rows from the bottom, so that its vertices are ours)."""
        rows, columns = self.game.BOARD_SHAPE
        cells = self.state.cells()
        return '\n' + '\n'.join(' '.join(MARKS[cells[y * columns + x]] for x in range(columns))
                                for y in reversed(range(rows)))

    def rules_legal_moves(self):
        """The side to move's legal moves, `pass` when it must pass, nothing once the game is over."""
        return '' if self.state.is_done() else ' '.join(self.names[a] for a in self.state.legal_actions())

    def rules_final_result(self):
        return self.final_score() if self.state.is_done() else 'unknown'

    def final_score(self):
        if not self.state.is_done():
            raise GtpError('cannot score: the game is not over')
        winner = player_value(self.state, True)
        margin = abs(self.game.score(self.state)) if self.game.score else 1
        return '0' if winner == 0 else f'{"B" if winner > 0 else "W"}+{margin}'


def candidates(vertices, tree, kata):
    """One analysis line: `info move M visits N winrate W prior P order K pv M ...` for each visited
    root move (`vertices(line)` names a line's moves), most visited first; the win rate and
    prior for the side to move, in ten-thousandths (lz-analyze) or as fractions (kata-analyze)."""
    visits, prior, q = tree.visits[0, 0], tree.prior[0, 0], tree.root_q()[0]
    scale = (lambda x: f'{x:.6f}') if kata else (lambda x: str(round(10000 * x)))
    parts = []
    for order, action in enumerate(sorted(np.flatnonzero(visits), key=lambda a: -visits[a])):
        line, _ = tree.principal_line(0, int(action))
        named = vertices(line)
        parts.append(f'info move {named[0]} visits {visits[action]} winrate {scale((q[action] + 1) / 2)} '
                     f'prior {scale(prior[action])} order {order} pv {" ".join(named)}')
    return ' '.join(parts)


def solved_candidate(vertices, solved, kata):
    """The analysis line of a solved position: its best move alone, with the win rate of the exact
    result (1, 0.5 or 0) and, for kata-analyze, the final margin as KataGo's scoreLead."""
    rate = (solved.value + 1) / 2
    lead = f' scoreLead {solved.margin}' if kata and solved.margin is not None else ''
    named = vertices(solved.line)
    return (f'info move {named[0]} visits 1 winrate {f"{rate:.6f}" if kata else round(10000 * rate)}'
            f'{lead} prior {"1.000000" if kata else 10000} order 0 pv {" ".join(named)}')


def parse_seconds(word):
    if not re.fullmatch('[0-9]+', word):
        raise GtpError('syntax error: give whole numbers')
    return int(word)


def parse_args(argv=None):
    parser = ArgumentParser(description='Play the best model as a GTP engine on standard input and output '
                                        '(for GUIs such as Quarry, and for matches against other engines).')
    add_game_flag(parser)
    parser.add_argument('--model', type=file_path, help="a model file, .h5 or .onnx (default: the game's best.h5, on onnxruntime when its export is current)")
    add_level_flag(parser)
    add_backend_flag(parser)
    add_settings_flags(parser, SearchSettings, sims=None)
    add_settai_flag(parser)
    parser.add_argument('--byoyomi-margin', type=whole_number(0, 10000), default=MARGIN_MS, metavar='MS',
                        help='with a clock (time_settings), the milliseconds of each move left for the GUI and the '
                             'pipe (default: %(default)s)')
    args = parser.parse_args(argv)
    problem = gtp_problem(load_game(args.game))
    if problem:
        raise UserError(f'{args.game} cannot be played over GTP: {problem}')
    return args


def main():
    args = parse_args()

    lines, answers = protocol_streams()  # standard output carries GTP only

    game = load_game(args.game)
    stop = threading.Event()  # set by quit, which the engine hears during a search (protocol.serve)
    agent = load_agent(game, agent_spec(args, seed=0), stop)
    print(f'{ENGINE_NAME}: {game.NAME}, {agent.description}, {agent.sims} simulations per move at full strength '
          f'({agent.why}); playing at {level_text(agent.level, words())}', file=sys.stderr)
    analyst = agent.replaced(level=None, settai=False)  # analysis searches at full strength, as long as asked
    # With a clock, full strength searches until the move's time is spent (a level, or --sims, its own number)
    full_strength = not agent.sims_asked and agent.level.simulations == agent.sims
    clocked = agent.replaced(level=dataclasses.replace(agent.level, simulations=largest_search(game))) \
        if full_strength else agent

    def choose(state, deadline):
        mover = agent if deadline is None else clocked.replaced(stop=Deadline(stop, deadline))
        return mover.choose([state])[0][0]

    def analyze(state, stop, progress):  # the solver first, as before a move
        return analyst.analyse(state, largest_search(game), stop, progress).solved  # as large as memory holds
    session = GtpSession(game, choose, log=lambda text: print(text, file=sys.stderr, flush=True), stop=stop,
                         analyze=analyze, margin=args.byoyomi_margin / 1000)
    serve(lines, answers, session.execute, lambda: session.finished, session.interrupt, stream_to=session.stream_to)


def command():
    """The installed console command (pyproject.toml's [project.scripts]): main() with one-line errors."""
    run(main)


if __name__ == '__main__':
    command()
