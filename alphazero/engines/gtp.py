"""GTP, the Go Text Protocol (version 2), for any game: move names, and other programs as players.

GTP is how game programs talk to GUIs and to each other: one command per line on the engine's
standard input (`genmove black`, `play white d3`), one answer per command on its standard output
(`= d3` or `? illegal move`, then an empty line). Othello programs such as GRhino speak it too.

Move names (vertices) come from the game's board alone: a square is its column letter and its row
number, row 1 at the top (`a1` is the top-left square; Othello's d3 is row 3, column d). An action
that a click on any square of a column means (Connect Four's drop) is named by the column's letter;
an action without a square (Othello's pass) is `pass`. Black is the first player.

EnginePlayer is a player for alphazero/match.py that runs a GTP engine as a child process per live
game: it tells the engine the moves played, asks it for its own, and checks them against our rules.
"""
import os
import select
import shlex
import subprocess
import tempfile
import time

from alphazero.errors import UserError
from alphazero.game.notation import action_names, parse_move
from alphazero.play.loop import RemotePlayer

COLORS = ('black', 'white')  # the first player, the second player


ENGINE_TIMEOUT = 300         # seconds an engine may take for one answer


def gtp_problem(game):
    """Why a game cannot be played over GTP, or None when it can."""
    if game.RANDOM_START:
        return 'the protocol cannot tell the values dealt to a game'
    if game.square_action is None:
        return ('its moves (from a square to a square, drops) are not the board points GTP names; '
                'play it with human_play.py or play_web.py')
    return None


def parse_color(text):
    """0 for black (the first player), 1 for white, None for anything else."""
    return {'b': 0, 'black': 0, 'w': 1, 'white': 1}.get(text.lower())


def color_to_move(state):
    return 0 if state.is_first_player() else 1


# ----- another program as a player -----
class EngineError(UserError):
    pass


class EngineProcess:
    """Another program running as a child process that talks in lines on its standard input and
    output (a GTP or USI engine): `write` a line, read its output with `read_until`; `fail` ends the
    match with the engine's last words on stderr."""

    def __init__(self, command, example='"/usr/games/gtp-rhino -l 1"'):
        self.command = command
        self.stderr = tempfile.TemporaryFile()  # kept for the error message if the engine fails
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=self.stderr)
        except (OSError, ValueError) as error:
            raise EngineError(f'cannot start the engine {command!r} ({error}); give its full command line, '
                              f'for example --engine {example}') from None
        self.buffer = b''

    def write(self, line):
        try:
            self.process.stdin.write(line.encode() + b'\n')
            self.process.stdin.flush()
        except OSError:
            self.fail(f'stopped before {line!r}')

    def read_until(self, separator, what, timeout=None):
        """The engine's output up to `separator` (bytes; carriage returns dropped), waiting at most
        `timeout` seconds (ENGINE_TIMEOUT by default) for it; `what` names the command answered."""
        deadline = time.monotonic() + (timeout or ENGINE_TIMEOUT)
        while separator not in self.buffer.replace(b'\r', b''):
            if not select.select([self.process.stdout], [], [], max(0, deadline - time.monotonic()))[0]:
                self.fail(f'gave no answer to {what!r} in {timeout or ENGINE_TIMEOUT} s (too many engine games at once '
                          f'for the cores? --parallel N plays fewer)')
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                self.fail(f'stopped while answering {what!r}')
            self.buffer += chunk
        text = self.buffer.replace(b'\r', b'')
        answer, rest = text.split(separator, 1)
        self.buffer = rest
        return answer.decode(errors='replace')

    def fail(self, what):
        self.close()
        self.stderr.seek(0)
        last = self.stderr.read().decode(errors='replace').strip().splitlines()[-3:]
        said = f'; its last words on stderr: {" / ".join(last)[:300]}' if last else ''
        raise EngineError(f'the engine {self.command!r} {what}{said}')

    def close(self):
        if self.process.poll() is None:
            try:
                self.process.stdin.write(b'quit\n')
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


class GtpProcess(EngineProcess):
    """A GTP engine; `send` commands, then `receive` their answers in order."""

    def __init__(self, command):
        super().__init__(command)
        self.pending = []    # commands sent, not yet answered

    def send(self, command):
        self.pending.append(command)
        self.write(command)

    def receive(self):
        """(True, answer) or (False, error message) for the oldest command sent."""
        command = self.pending.pop(0)
        answer = self.read_until(b'\n\n', command)
        if answer[:1] not in ('=', '?'):
            self.fail(f'answered {command!r} with {answer[:80]!r}, which is not GTP')
        return answer[0] == '=', answer[1:].lstrip('0123456789').strip()

    def ask(self, command):
        """The answer to one command; an error answer ends the match."""
        self.send(command)
        ok, answer = self.receive()
        if not ok:
            raise EngineError(f'the engine {self.command!r} refused {command!r}: {answer}')
        return answer


class EngineGame:
    """One engine process, the game it plays, and what it has been told of it."""

    def __init__(self, engine, live_game, state):
        self.engine = engine
        self.live_game = live_game
        self.state = state  # the position after the moves told
        self.told = 0       # moves told (the engine's own included)


class EnginePlayer(RemotePlayer):
    """A GTP engine as a player of play_games: one engine process per live game.

    Before each genmove the engine is told the moves it has not seen yet (the opening and the
    opponent's moves). Passes are sent as `play COLOR pass`; an engine that skips passes by itself
    (as GRhino does) may refuse that, which is fine. Every move the engine answers is checked
    against our rules: an illegal or unreadable one ends the match with a message saying so.
    """

    def __init__(self, command, game):
        self.command = command
        self.game = game
        self.names = action_names(game)
        self.games = {}   # id(LiveGame) -> EngineGame

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        for engine_game in self.games.values():
            engine_game.engine.close()
        self.games = {}

    def start(self):
        """A new engine process, set to the game's board size."""
        engine = GtpProcess(self.command)
        columns = self.game.BOARD_SHAPE[1]
        engine.send(f'boardsize {columns}')
        ok, answer = engine.receive()
        if not ok:
            engine.close()
            raise EngineError(f'the engine {self.command!r} does not play {self.game.NAME} (boardsize {columns}: {answer})')
        return engine

    def engine_game(self, live_game):
        """The engine of a live game: a new game takes over the process of a finished one. Games are
        told apart by the LiveGame itself, not its number: the numbers of every play_games call
        start at 0, and the same player may meet the games of several calls (evaluate_levels.py)."""
        key = id(live_game)  # unique while the entry holds the game
        if key not in self.games:
            finished = [k for k, g in self.games.items() if g.live_game.state.is_done()]
            engine = self.games.pop(finished[0]).engine if finished else self.start()
            engine.ask('clear_board')
            self.games[key] = EngineGame(engine, live_game, self.game.State())
        return self.games[key]

    def ask(self, states, live_games):
        """Tell every engine the moves it has not seen and ask for its move; they all think at once,
        in their own processes, until the returned function reads their answers."""
        asked = []
        for live_game in live_games:
            engine_game = self.engine_game(live_game)
            plays = []
            for action in [*live_game.opening, *live_game.moves][engine_game.told:]:
                plays.append(f'play {COLORS[color_to_move(engine_game.state)]} {self.names[action]}')
                engine_game.engine.send(plays[-1])
                engine_game.state = engine_game.state.next(action)
                engine_game.told += 1
            engine_game.engine.send(f'genmove {COLORS[color_to_move(engine_game.state)]}')
            asked.append((engine_game, plays))
        return lambda: self.answers(asked, states)

    def answers(self, asked, states):
        # Our moves must be accepted, the engine's own must be legal
        choices = []
        for (engine_game, plays), state in zip(asked, states):
            number = engine_game.live_game.index + 1
            for play in plays:
                ok, answer = engine_game.engine.receive()
                if not ok and not play.endswith(' pass'):
                    raise EngineError(f'the engine {self.command!r} refused {play!r} in game {number}: {answer} '
                                      '(its rules disagree with ours)')
            ok, answer = engine_game.engine.receive()
            action = parse_move(self.game, answer) if ok else None
            if action not in state.legal_actions():
                legal = ' '.join(self.names[a] for a in state.legal_actions())
                raise EngineError(f'the engine {self.command!r} answered {answer!r} to '
                                  f'\'genmove {COLORS[color_to_move(state)]}\' in game {number} after '
                                  f'{engine_game.told} moves; the legal moves there are: {legal}')
            engine_game.state = state.next(action)
            engine_game.told += 1
            choices.append((action, None))
        return choices
