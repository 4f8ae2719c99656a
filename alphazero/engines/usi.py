"""USI, the Universal Shogi Interface: other shogi programs as players, the counterpart of gtp.py.
The same code speaks UCI, chess's protocol from which USI was made (the same lines, with `uci`,
`uciok` and `ucinewgame`), for games whose engines speak it: Fairy-Stockfish playing the book's
simple shogi as a variant it is told (the game's ENGINE_OPTIONS).

A USI engine reads commands on its standard input and answers in lines: `usi` (it names itself and
its options, then `usiok`), `setoption name N value V`, `isready` (`readyok` when it is),
`usinewgame`, `position startpos moves 7g7f 3c3d ...`, `go ...` (it may print `info` lines, then
`bestmove 2g2f`, `bestmove resign` or `bestmove win`, a claim of a won king's entry).

An engine is given as its command line, optionally followed by USI commands after semicolons:
setoption lines sent once at the start, and the `go` line that asks for each move (by default
`go btime 0 wtime 0 byoyomi 1000`, a second per move), for example

    "/usr/games/fairy-stockfish; go depth 3"
    "/usr/games/gpsusi; setoption name LimitDepth value 4; go btime 0 wtime 0 byoyomi 100"

UsiEnginePlayer is a player for alphazero/match.py: one engine process per live game, all thinking
at once; every move it answers is checked against our rules.
"""
from alphazero.engines.gtp import EngineError, EngineProcess
from alphazero.game.values import CP_LIMIT, value_of_centipawns
from alphazero.play.loop import RemotePlayer

DEFAULT_GO = 'go btime 0 wtime 0 byoyomi 1000'


HANDSHAKE_TIMEOUT = 30  # seconds for `usiok` and `readyok`


RESIGN, DECLARE_WIN = 'resign', 'win'  # what an engine may answer instead of a move


def parse_engine(text):
    """(command line, [setoption lines], go line) of an engine given as 'COMMAND; setoption ...; go ...'."""
    command, *extra = [part.strip() for part in text.split(';')]
    options = [line for line in extra if line.split()[:1] == ['setoption']]
    go = [line for line in extra if line.split()[:1] == ['go']]
    others = [line for line in extra if line and line not in options + go]
    if others or len(go) > 1 or not command:
        raise ValueError(f'{text!r}: give the command line, then optionally "; setoption name N value V" and one '
                         '"; go ..." (for example "/usr/games/fairy-stockfish; go depth 3")')
    return command, options, go[0] if go else DEFAULT_GO


class UsiProcess(EngineProcess):
    """A USI (or UCI) engine process, ready for a game: `usiok` and `readyok` received, the game's
    options then the engine string's set."""

    def __init__(self, text, protocol='usi', game_options=()):
        command, options, self.go = parse_engine(text)
        super().__init__(command, example='"/usr/games/fairy-stockfish; go depth 3"')
        self.said = None  # (score, line) of the last move's search
        self.protocol = protocol
        self.write(protocol)
        self.lines_until(protocol + 'ok', protocol, HANDSHAKE_TIMEOUT)
        for option in [*game_options, *options]:
            self.write(option)
        self.ready()

    def read_line(self, what, timeout=None):
        return self.read_until(b'\n', what, timeout).strip()

    def lines_until(self, last, what, timeout=None):
        """The lines the engine prints before a line that starts with `last` (that line last)."""
        lines = []
        while True:
            lines.append(self.read_line(what, timeout))
            if lines[-1].split()[:1] == [last]:
                return lines

    def ready(self):
        self.write('isready')
        self.lines_until('readyok', 'isready', HANDSHAKE_TIMEOUT)

    def ask_move(self, position):
        """Send the game so far ('startpos moves 7g7f ...') and `go`."""
        self.write('position ' + position)
        self.write(self.go)

    def best_move(self):
        """The word after `bestmove`: a move in USI notation, 'resign' or 'win'. What the engine last
        said of its search before it goes into `said` (score_said's)."""
        lines = self.lines_until('bestmove', self.go)
        words = lines[-1].split()
        if len(words) < 2:
            self.fail(f'answered {self.go!r} with {" ".join(words)!r}, which names no move')
        self.said = next((said for said in map(score_said, reversed(lines[:-1])) if said), None)
        return words[1]


def score_said(line):
    """(centipawns for the side to move, [the pv's moves]) of an `info ... score cp X|mate N ... pv ...`
    line (a mate as +-CP_LIMIT), or None for another line."""
    words = line.split()
    if words[:1] != ['info'] or 'score' not in words[:-2]:
        return None
    kind, value = words[words.index('score') + 1:words.index('score') + 3]
    try:
        if kind == 'cp':
            score = int(value)
        elif kind == 'mate':
            score = -CP_LIMIT if value.startswith('-') else CP_LIMIT
        else:
            return None
    except ValueError:
        return None
    return score, words[words.index('pv') + 1:] if 'pv' in words else []


class UsiEnginePlayer(RemotePlayer):
    """A USI (or UCI) engine as a player of play_games: one engine process per live game (a
    finished game's process plays the next game after `usinewgame`). An answer that is not a legal
    move ends the match with a message saying so; `resign` and a valid `win` end the game. The
    game's State tells the engine the game (usi_position(), or uci_position() for UCI) and reads its
    answer (action_of_usi(text), action_of_uci(text))."""

    def __init__(self, text, game):
        parse_engine(text)  # a malformed engine string is reported before any process starts
        self.text = text
        self.game = game
        self.protocol = game.ENGINE_PROTOCOL
        self.engines = {}   # id(LiveGame) -> (UsiProcess, LiveGame)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()

    def close(self):
        for engine, _ in self.engines.values():
            engine.close()
        self.engines = {}

    def engine(self, live_game):
        """The process of a live game: a new game takes over the process of a finished one. Games are
        told apart by the LiveGame itself, not its number: the numbers of every play_games call
        start at 0, and the same player may meet the games of several calls (evaluate_levels.py)."""
        key = id(live_game)  # unique while the entry holds the game
        if key not in self.engines:
            finished = [k for k, (_, g) in self.engines.items() if g.over()]
            engine = (self.engines.pop(finished[0])[0] if finished
                      else UsiProcess(self.text, self.protocol, self.game.ENGINE_OPTIONS))
            engine.write(self.protocol + 'newgame')
            self.engines[key] = (engine, live_game)
        return self.engines[key][0]

    def ask(self, states, live_games):
        """Every engine is told its game and starts thinking, in its own process, until the returned
        function reads the answers."""
        for state, live_game in zip(states, live_games):
            self.engine(live_game).ask_move(state.usi_position() if self.protocol == 'usi' else state.uci_position())
        return lambda: self.answers(states, live_games)

    def line_of(self, state, pv):
        """The actions of an engine's pv from `state`, as far as its moves are legal."""
        line = []
        for text in pv:
            try:
                action = state.action_of_usi(text) if self.protocol == 'usi' else state.action_of_uci(text)
            except ValueError:
                break
            line.append(action)
            state = state.next(action)
            if state.is_done():
                break
        return line

    def answers(self, states, live_games):
        choices = []
        for state, live_game in zip(states, live_games):
            engine = self.engine(live_game)
            answer = engine.best_move()
            if engine.said:  # its score and line, which records keep (make_records.py's CSA)
                score, pv = engine.said
                live_game.evaluations[live_game.ply] = (value_of_centipawns(score), self.line_of(state, pv))
            if self.protocol == 'usi' and (answer == RESIGN or (answer == DECLARE_WIN and state.board.is_nyugyoku())):
                choices.append((answer, None))
                continue
            try:
                choices.append((state.action_of_usi(answer) if self.protocol == 'usi' else state.action_of_uci(answer), None))
            except ValueError:
                legal = ' '.join(self.game.action_name(state, a) for a in state.legal_actions())
                raise EngineError(f'the engine {self.text!r} answered bestmove {answer!r} in game {live_game.index + 1} '
                                  f'after {state.plies()} plies, which is not legal there; the legal moves '
                                  f'are: {legal}') from None
        return choices
