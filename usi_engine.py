# ====================
# The AI as a USI engine (not in the book)
# ====================
# USI (the Universal Shogi Interface) is how shogi programs talk to GUIs such as ShogiHome
# (electron-shogi), 将棋所 (Shogidokoro) and ShogiGUI, and to each other: this script reads commands
# on its standard input and answers on its standard output, so that a GUI can show our full-shogi
# AI and set it against other engines (docs/shogi.md says how to add it). Only USI goes to standard
# output; everything else (TensorFlow's notices, our log) goes to standard error.
#
#   python usi_engine.py --game shogi9 [--model PATH] [--sims N] [--level N]
#
# Each move is a PV-MCTS search. Given a clock (byoyomi, Fischer increments, sudden death or
# movetime), the search at full strength runs until its share of the time is spent, less the
# ByoyomiMargin option (the GUI's and the pipe's delay), and stops there whatever it planned; at a
# weaker level (--level, or the GUI's Level option: alphazero/play/levels.py), or with the number of
# simulations asked for (--sims, the Simulations option), it searches that many unless the clock
# stops it first, or plays the policy alone. `go nodes N` searches N; `go infinite` and `go ponder`
# search until stop (or ponderhit), as deep as memory holds. A GUI's malformed command is
# answered with an `info string` saying what is wrong, and the engine goes on.

import sys
import threading
import time

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.engines.apart import run_apart
from alphazero.engines.protocol import protocol_streams, serve
from alphazero.game.notation import line_names
from alphazero.game.values import centipawns
from alphazero.cli.flags import add_backend_flag, add_level_flag, add_settai_flag, add_settings_flags, agent_spec
from alphazero.settings import SearchSettings
from alphazero.game.registry import load_game
from alphazero.play.levels import choose_level
from alphazero.limits import MAX_SIMS, check_search, file_path, largest_search
from alphazero.engines.clock import MARGIN_MS, SHORTEST_MOVE, move_seconds
from alphazero.play.agent import load_agent
from alphazero.cli.words import WORDS, level_text

# Parameters
ENGINE_NAME = 'AlphaZero-book'
ENGINE_AUTHOR = 'the AlphaZero book reimplementation'
USI_GAMES = ('shogi9',)      # the games USI GUIs play
MAX_MULTIPV = 20             # the most root moves a search reports (MultiPV)
INFO_SECONDS = 1.0           # a long search says where it stands at least this often (an info line)
MATE_NODES_AT_ONCE = 10_000  # df-pn's positions go mate searches before it needs a process of its own (ms)
MATE_NODES_MOST = 10_000_000  # the most it searches, whatever the time (minutes)


class UsiSession:
    """One USI conversation: the position the GUI set, the options, and the answers to each command.
    `agent` (alphazero/play/agent.py) analyses each position at the level played (the Level option,
    among the agent's levels), in settai mode or not (the Settai option, --settai): the principal line
    of a search of `sims` simulations (cut short once `stop` is set) and the next root moves up to
    `multipv` (the MultiPV option), or at a level without simulations the policy's move. A search runs
    while the GUI is still heard (protocol.serve): stop and quit end it at once, isready is answered
    during it."""

    def __init__(self, game, agent, sims, log=lambda text: None, settai=False):
        self.game = game
        self.settai = settai         # 接待（接戦）モード: a close game, never throwing a won one
        self.solver = agent.search.solver  # df-pn before each search (--no-solver: off)
        self.multipv = 1             # the lines each search reports (the MultiPV option)
        self.agent = agent
        self.sims = sims
        self.log = log
        self.levels = agent.levels
        self.level = agent.level
        self.sims_asked = agent.sims_asked  # --sims or the Simulations option: search that many
        self.margin = MARGIN_MS      # ms (the ByoyomiMargin option)
        self.state = game.State()
        self.held = None             # the bestmove line of a `go infinite` or `go ponder`, until stop
        self.stop = threading.Event()       # set by stop and quit, read by the search under way
        self.searching = threading.Event()  # set while a search runs: isready is answered at once
        self.finished = False
        self.emit = None             # writes a line to the GUI while a search runs (protocol.serve's writer)
        self.commands = {'usi': self.usi, 'isready': lambda words: ['readyok'], 'setoption': self.setoption,
                         'usinewgame': lambda words: [], 'position': self.position, 'go': self.go,
                         'stop': self.release, 'ponderhit': self.release, 'gameover': lambda words: [],
                         'quit': self.quit}

    def stream_to(self, write):
        """protocol.serve hands over its writer: info lines go out while a search runs."""
        self.emit = lambda text: write(text + '\n')

    def interrupt(self, line):
        """Heard as each line arrives, before the lines ahead of it are answered (protocol.serve): stop,
        ponderhit and quit end the search under way, and a go starts with no stop pending. True for quit."""
        word = line.split()[:1]
        if word in (['stop'], ['ponderhit'], ['quit']):
            self.stop.set()
        elif word == ['go']:
            self.stop.clear()
        return word == ['quit']

    def at_once(self, line):
        """isready during a search: readyok at once, out of turn."""
        return 'readyok\n' if line.split()[:1] == ['isready'] and self.searching.is_set() else None

    def execute(self, line):
        """The lines to print for one line of input."""
        words = line.split()
        if not words:
            return []
        command = self.commands.get(words[0])
        if command is None:
            return [f'info string unknown command {words[0][:40]!r}']
        try:
            return command(words[1:])
        except ValueError as error:
            return [f'info string {words[0]}: {error}']

    def usi(self, words):
        level = [f'option name Level type spin default {self.level.number} min 1 max {len(self.levels)}'] if self.levels else []
        return [f'id name {ENGINE_NAME}', f'id author {ENGINE_AUTHOR}',
                f'option name Simulations type spin default {self.sims} min 1 max {MAX_SIMS}', *level,
                f'option name Settai type check default {str(self.settai).lower()}',
                f'option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}',
                f'option name ByoyomiMargin type spin default {MARGIN_MS} min 0 max 10000', 'usiok']

    def setoption(self, words):
        # setoption name NAME [value VALUE]; GUIs also send USI_Hash and USI_Ponder, which need nothing
        if words[:1] != ['name'] or len(words) < 2:
            raise ValueError('give "setoption name NAME value VALUE"')
        name = words[1]
        value = words[words.index('value') + 1] if 'value' in words[:-1] else None
        if name == 'Simulations':
            if value is None or not value.isdigit() or not 1 <= int(value) <= MAX_SIMS:
                raise ValueError(f'Simulations is a whole number from 1 to {MAX_SIMS}')
            try:
                check_search(self.game, int(value))
            except UserError as error:  # more than the memory holds: say so, keep the old value
                raise ValueError(str(error)) from None
            self.sims, self.sims_asked = int(value), True
        elif name == 'ByoyomiMargin':
            if value is None or not value.isdigit() or int(value) > 10000:
                raise ValueError('ByoyomiMargin is a whole number of milliseconds from 0 to 10000')
            self.margin = int(value)
        elif name == 'Level' and self.levels:
            if value is None or not value.isdigit() or not 1 <= int(value) <= len(self.levels):
                raise ValueError(f'Level is a whole number from 1 to {len(self.levels)}')
            self.level = choose_level(self.levels, int(value))
            self.sims = self.level.simulations or self.sims
            self.log(f'playing at {level_text(self.level, WORDS["en"])}')
        elif name == 'MultiPV':
            if value is None or not value.isdigit() or not 1 <= int(value) <= MAX_MULTIPV:
                raise ValueError(f'MultiPV is a whole number from 1 to {MAX_MULTIPV}')
            self.multipv = int(value)
        elif name == 'Settai':
            if value not in ('true', 'false'):
                raise ValueError('Settai is true or false')
            self.settai = value == 'true'
            self.log(WORDS['en']['settai'] if self.settai else 'settai mode off')
        return []

    def position(self, words):
        # position startpos [moves M...] | position sfen BOARD TURN HANDS NUMBER [moves M...]
        moves_at = words.index('moves') if 'moves' in words else len(words)
        start, moves = words[:moves_at], words[moves_at + 1:]
        if start == ['startpos']:
            state = self.game.State()
        elif start[:1] == ['sfen']:
            state = self.game.State(' '.join(start[1:]))
        else:
            raise ValueError('give "position startpos [moves ...]" or "position sfen SFEN [moves ...]"')
        for number, move in enumerate(moves, 1):
            if state.is_done():
                raise ValueError(f'move {number} ({move[:12]}) comes after the end of the game; position unchanged')
            try:
                state = state.next(state.action_of_usi(move))
            except ValueError:
                raise ValueError(f'move {number} ({move[:12]}) is not legal; position unchanged') from None
        self.state = state
        return []

    def go(self, words):
        # go [ponder] [btime B wtime W] [byoyomi T | binc B winc W] [nodes N] [movetime T] [infinite]
        settings, flags, said = {}, set(), []
        for i, word in enumerate(words):
            if word in ('ponder', 'infinite'):
                flags.add(word)
            elif word == 'mate' and words[i + 1:i + 2] == ['infinite']:
                continue  # go mate infinite: no limit but stop
            elif word in ('btime', 'wtime', 'byoyomi', 'binc', 'winc', 'nodes', 'movetime', 'mate'):
                value = words[i + 1] if i + 1 < len(words) else ''
                if value.isdigit():
                    settings[word] = int(value)
                elif word == 'mate':
                    raise ValueError('mate needs a whole number of milliseconds, or infinite')
                else:  # a move is still owed: say what was wrong and search without it
                    said.append(f'info string go: {word} needs a whole number, not {value[:12]!r}; left out')
        if 'mate' in words:  # a mate search, not a move
            return [self.mate(settings.get('mate'))]
        sims, seconds, bounded = self.budget(settings, flags)
        if settings.get('nodes', 0) > sims:
            said.append(f'info string nodes {settings["nodes"]} capped at {sims}, the most this machine\'s memory holds')
        self.searching.set()
        try:
            lines, best = self.search(sims, None if seconds is None else time.monotonic() + seconds, bounded)
        finally:
            self.searching.clear()
        lines = said + lines
        if flags:  # the GUI wants the answer only after stop (or ponderhit)
            self.held = best
            return lines
        return lines + [best]

    def budget(self, settings, flags):
        """(simulations, seconds, whether memory bounds the search) for this move: `nodes` alone;
        until stop for infinite and ponder, as deep as memory holds (limits.largest_search); with a
        clock, the level's (or the asked) simulations or, at full strength, as many as the clock
        allows, within the seconds the clock gives (go_seconds); else the level's simulations, with
        no clock."""
        deepest = largest_search(self.game)
        if 'nodes' in settings:
            return max(1, min(settings['nodes'], deepest)), None, settings['nodes'] >= deepest
        if flags:
            return deepest, None, True
        seconds = go_seconds(settings, 'b' if self.state.is_first_player() else 'w', self.margin / 1000)
        if seconds is None:
            return self.sims, None, False
        full_strength = not self.sims_asked and self.level.simulations == self.agent.sims
        return (deepest if full_strength else self.sims), seconds, full_strength

    def search(self, sims, deadline=None, bounded=False):
        """info lines and the bestmove line for the current position, from a search of at most `sims`
        simulations that ends at `deadline` (time.monotonic()), if any, at the latest; `bounded`: sims
        is what memory holds, and the info lines say how full the tree is (hashfull)."""
        state = self.state
        if state.is_done() or not state.legal_actions():
            return [], 'bestmove resign' if state.ending() != 'win' else 'bestmove win'
        if state.board.is_nyugyoku():  # a won king's entry (入玉宣言): declare it
            return [], 'bestmove win'
        started = time.perf_counter()
        searches = self.level.simulations or self.settai
        capacity = sims if bounded and searches else None  # the tree's most simulations, for hashfull
        mate, mate_nodes = (self.game.mate_search(state) if searches and self.solver and self.game.mate_search
                            else (None, 0))
        if mate:  # a forced mate df-pn proved: played without the network, as dlshogi does
            lines, sims = [(mate, 1.0)], mate_nodes
        else:
            progress = self.progress(state, started, capacity)
            agent = self.agent.replaced(level=self.level, settai=self.settai)
            lines = agent.analyse(state, sims, self.stop, lambda tree, done: progress(*tree.principal_line(0), done),
                                  self.multipv, solve=False, deadline=deadline).lines
            sims = progress.done or 1  # fewer when stopped, one evaluation when the search stopped at once
        seconds = max(time.perf_counter() - started, 1e-3)
        if not searches:
            sims = 1  # the policy alone: one evaluation
        infos = [self.info(state, *self.mate_known(state, line, bool(mate)), value, sims, seconds,
                           number if self.multipv > 1 else None, None if mate else capacity)
                 for number, (line, value) in enumerate(lines, 1)]
        line = lines[0][0]
        best = self.game.action_name(state, line[0])
        self.log(f'{best}: {infos[0]}')
        after = state.next(line[0])
        if len(line) > 1 and not after.is_done():  # the reply the line expects: what a GUI ponders on
            return infos, f'bestmove {best} ponder {self.game.action_name(after, line[1])}'
        return infos, f'bestmove {best}'

    def progress(self, state, started, capacity):
        """progress(line, value, simulations) for a search: keeps in progress.done the simulations made,
        and says an info line of the principal line each INFO_SECONDS, so that a GUI shows a long search
        as it goes (with hashfull when `capacity`, the most simulations memory holds, is given)."""
        said = started

        def progress(line, value, simulations):
            nonlocal said
            progress.done = simulations
            now = time.perf_counter()
            if self.emit is not None and line and now - said >= INFO_SECONDS:
                said = now
                self.emit(self.info(state, None, line, value, simulations, now - started, capacity=capacity))
        progress.done = 0
        return progress

    def mate_known(self, state, line, forced):
        """(the plies to a mate the line leads to, or None; the line): USI's score mate N for the side
        to move (`forced`: the line is a mate df-pn proved), or mate -N when the line's first move
        allows the opponent a mate df-pn proves (then the line is that move and the mate)."""
        after = state.next(line[0])
        if forced or after.is_lose():
            return (len(line) if forced else 1), line
        if not (self.solver and self.game.mate_search) or after.is_done():
            return None, line
        against, _ = self.game.mate_search(after)
        return (-(len(against) + 1), [line[0], *against]) if against else (None, line)

    def info(self, state, mate, line, value, sims, seconds, multipv=None, capacity=None):
        """The info line of one line (`mate`: the plies to a mate, negative when mated, or None):
        `info [multipv I] depth D nodes N time T nps S [hashfull H] score cp X|mate N pv ...`, hashfull
        the permille of the tree's `capacity` (its most simulations) used, when the search has one."""
        names = line_names(state, line, self.game.action_name)
        score = f'cp {centipawns(value)}' if mate is None else f'mate {mate}'
        number = f'multipv {multipv} ' if multipv else ''
        full = f'hashfull {round(1000 * sims / capacity)} ' if capacity else ''
        return (f'info {number}depth {len(names)} nodes {sims} time {round(seconds * 1000)} nps {round(sims / seconds)} '
                f'{full}score {score} pv {" ".join(names)}')

    def mate(self, milliseconds):
        """go mate T|infinite: cshogi's df-pn for a forced mate within T ms: checkmate MOVES, checkmate
        nomate (none exists), or checkmate timeout (none found in the time, or stopped). A search
        that MATE_NODES_AT_ONCE positions do not settle goes on in a process of its own (df-pn holds
        the GIL), so that isready is answered and stop or quit end it at once."""
        if not self.game.mate_search:
            return 'checkmate notimplemented'
        state, mate_search, started = self.state, self.game.mate_search, time.monotonic()
        line, searched = mate_search(state, MATE_NODES_AT_ONCE)
        if not line and searched >= MATE_NODES_AT_ONCE:
            self.searching.set()
            try:
                found = run_apart(lambda: mate_search(state, MATE_NODES_MOST), self.stop,
                                  None if milliseconds is None else milliseconds / 1000 - (time.monotonic() - started))
            finally:
                self.searching.clear()
            if found is None or not found[0] and found[1] >= MATE_NODES_MOST:
                return 'checkmate timeout'
            line = found[0]
        if line:
            return 'checkmate ' + ' '.join(line_names(state, line, self.game.action_name))
        return 'checkmate nomate'

    def release(self, words):
        held, self.held = self.held, None
        return [held] if held else []

    def quit(self, words):
        self.finished = True
        return []


def go_seconds(settings, mine, margin):
    """The seconds a move may take by the clock of `go` (`settings`: its numbers in milliseconds; `mine`:
    'b' or 'w'), `margin` seconds less, or None without a clock: movetime, else the clock's share
    (alphazero/engines/clock.py)."""
    if 'movetime' in settings:
        return max(SHORTEST_MOVE, settings['movetime'] / 1000 - margin)
    left, byoyomi, increment = (settings.get(key, 0) / 1000 for key in (f'{mine}time', 'byoyomi', f'{mine}inc'))
    if not (f'{mine}time' in settings or byoyomi or increment):
        return None
    return move_seconds(left, byoyomi, increment, margin)


def parse_args(argv=None):
    parser = ArgumentParser(description='Play the best model of full shogi as a USI engine on standard input and '
                                        'output (for GUIs such as ShogiHome or Shogidokoro, and for matches).')
    parser.add_argument('--game', choices=USI_GAMES, default='shogi9', help='(default: %(default)s)')
    parser.add_argument('--model', type=file_path, help="a model file, .h5 or .onnx (default: the game's best.h5, "
                                                         'else the shipped one)')
    add_level_flag(parser)
    add_backend_flag(parser)
    add_settings_flags(parser, SearchSettings, sims=None)
    add_settai_flag(parser)
    return parser.parse_args(argv)


def main():
    args = parse_args()

    lines, answers = protocol_streams()  # standard output carries USI only

    game = load_game(args.game)
    agent = load_agent(game, agent_spec(args))
    print(f'{ENGINE_NAME}: {game.NAME}, {agent.description}, {agent.sims} simulations per move at full strength '
          f'({agent.why}); playing at {level_text(agent.level, WORDS["en"])}', file=sys.stderr)
    session = UsiSession(game, agent, agent.level.simulations or agent.sims,
                         lambda text: print(text, file=sys.stderr, flush=True), args.settai)
    serve(lines, answers, lambda line: ''.join(answer + '\n' for answer in session.execute(line)),
          lambda: session.finished, session.interrupt, session.at_once, session.stream_to)


def command():
    """The installed console command (pyproject.toml's [project.scripts]): main() with one-line errors."""
    run(main)


if __name__ == '__main__':
    command()
