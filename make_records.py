# ====================
# Game records from other programs (beyond the book)
# ====================
# Engines play each other (or themselves) from varied openings, and the games are written in the
# formats train_records.py reads: for Othello (GTP engines) text transcripts (PREFIX.txt, one game
# per line: f5d6c3...) and a WTHOR file (PREFIX.wtb); for full shogi (USI engines) a CSA file
# (PREFIX.csa) and USI move lists (PREFIX.usi). This makes records where no database can be downloaded.
#
#   python make_records.py --engine "gtp-rhino -l 3 -r 2" --games 2000
#   python make_records.py --game shogi9 --engine "/usr/games/fairy-stockfish; go depth 3" --games 2000
#
# With one engine it plays itself; with several, every pair of them (and each one against itself)
# plays a match, colours alternating. Each game starts after --opening random moves (two engines
# play each opening once with each colour), so the games differ even when the engines are
# deterministic. Each game is kept as it ends (PREFIX.playing.jsonl): stopped, the same command
# goes on with the games it lacks.

import contextlib
import fcntl
import itertools
import json
import os
import sys

import numpy as np
from tqdm import tqdm

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.game.registry import load_game
from alphazero.limits import MAX_ENGINES, MAX_GAMES, engine_command, file_path, seed, whole_number
from alphazero.play.openings import distinct_openings
from alphazero.engines.players import engine_player
from alphazero.play.matches import Match, play_matches
from alphazero.records.othello import write_transcripts, write_wtb
from alphazero.records.shogi import Record, write_csa, write_usi

# Parameters
MR_GAME_COUNT = 1000      # games to record
MR_OPENING = 4            # random moves before the engines take over
MR_PARALLEL = os.cpu_count() or 1  # games (engine processes) at once
RECORD_GAMES = ('othello8', 'othello8planes', 'shogi9')  # the games the record formats hold
KEPT_SUFFIX = '.playing.jsonl'  # PREFIX.playing.jsonl keeps the games of a run under way


def make_records(game, engines, game_count=MR_GAME_COUNT, opening=MR_OPENING, parallel=MR_PARALLEL, seed=None,
                 kept=None):
    """Play `game_count` engine games; returns each game's moves (the opening included, no passes), as
    a Record whose result is the one an engine's resignation or declared win gave, with what USI
    engines said of their moves (their score and line, which the CSA file keeps). `kept`: a file
    (KeptGames) that keeps each game as it ends, so that the same call after a stop plays only the rest."""
    rng = np.random.default_rng(seed)
    settings = {'game': game.NAME, 'engines': list(engines), 'games': game_count, 'opening': opening, 'seed': seed}
    with contextlib.ExitStack() as stack:
        kept = stack.enter_context(KeptGames(kept, settings))
        players = [stack.enter_context(engine_player(command, game)) for command in engines]
        # Every pair of engines (and each engine against itself) in a match of its share of the
        # games; two engines play each opening twice, once with each colour
        pairs = list(itertools.combinations_with_replacement(range(len(players)), 2))
        shares = [game_count // len(pairs) + (k < game_count % len(pairs)) for k in range(len(pairs))]
        if kept.openings is None:  # drawn anew, unless kept from a stopped run
            kept.openings = [[[int(move) for move in moves]
                              for moves in distinct_openings(game, opening, -(-share // (1 if a == b else 2)), rng)]
                             for (a, b), share in zip(pairs, shares)]
        matches = []
        for (a, b), share, openings in zip(pairs, shares, kept.openings):
            repeat = 1 if a == b else 2
            matches.append(Match((a, b), players[a], players[b], [openings[i // repeat] for i in range(share)]))

        def finished(match, i, live_game):
            kept.add(match.key, i, Record([a for a in (*live_game.opening, *live_game.moves) if a != game.PASS],
                                          live_game.value(True) if live_game.claim else None, live_game.evaluations))
        with tqdm(total=game_count, desc='engine games', unit='game') as progress:
            play_matches(game, [match for match in matches if match.games], parallel, progress, kept.done(matches),
                         finished=finished)
        games = [kept.games[key] for key in sorted(kept.games)]
    return games


class KeptGames:
    """The games of a make_records run kept as they end, one JSON line each after a first line of the
    run's settings and openings, so that the same command after a stop (a kill, a full disk) plays
    only the games the file lacks; a file kept for other settings is refused. The file is locked
    while a run adds to it (one run at a time), and removed once the records are written. No path:
    nothing is kept."""

    def __init__(self, path, settings):
        self.path, self.settings = path, json.loads(json.dumps(settings))
        self.openings, self.games, self.file = None, {}, None
        if path and os.path.exists(path):
            self.read()

    def read(self):
        try:
            with open(self.path, encoding='utf-8') as f:
                lines = f.read().split('\n')
            head = json.loads(lines[0])
            if head['settings'] != self.settings:
                raise UserError(f'{self.path} keeps the games of a run with other settings ({head["settings"]}): '
                                'run that command again to finish it, or remove the file to start afresh')
            self.openings = head['openings']
            for line in lines[1:]:
                try:
                    entry = json.loads(line)
                except ValueError:  # the last line of a killed run may be cut short: that game is played again
                    continue
                self.games[tuple(entry['match']), entry['game']] = Record(
                    entry['moves'], entry['result'], {int(ply): (value, line) for ply, (value, line) in entry['evaluations'].items()})
        except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
            raise UserError(f'{self.path} is not a file of kept games ({error}): remove it, then run again') from None
        print(f'going on from {self.path}: {len(self.games)} games played already', file=sys.stderr)

    def __enter__(self):
        if self.path:
            os.makedirs(os.path.dirname(self.path) or '.', exist_ok=True)
            self.file = open(self.path, 'a', encoding='utf-8')
            try:
                fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self.file.close()
                raise UserError(f'{self.path} is being written by another make_records.py: one run at a time makes '
                                'these records; wait for it to end (or stop it)') from None
        return self

    def __exit__(self, *_):
        if self.file:
            self.file.close()

    def done(self, matches):
        """play_matches' `done`: a point for each game kept (which one does not matter), None for the rest."""
        return {match.key: [0.5 if (match.key, i) in self.games else None for i in range(match.games)]
                for match in matches}

    def add(self, key, i, record):
        self.games[key, i] = record
        if self.file:
            if self.file.tell() == 0:
                self.file.write(json.dumps({'settings': self.settings, 'openings': self.openings}) + '\n')
            self.file.write(json.dumps({'match': list(key), 'game': i, 'moves': [int(a) for a in record],
                                        'result': record.result, 'evaluations': {
                                            ply: (float(value), [int(a) for a in line])
                                            for ply, (value, line) in record.evaluations.items()}}) + '\n')
            self.file.flush()


def parse_args(argv=None):
    parser = ArgumentParser(description='Have engines play from varied openings and write the games as records: '
                                        'GTP engines playing Othello as transcripts (.txt) and a WTHOR file (.wtb), USI '
                                        'engines playing full shogi as CSA (.csa) and USI move lists (.usi).')
    parser.add_argument('--game', choices=RECORD_GAMES, default='othello8', help='(default: %(default)s)')
    parser.add_argument('--engine', action='append', required=True, metavar='COMMAND', type=engine_command,
                        help='an engine\'s command line (repeatable): GTP, e.g. "/usr/games/gtp-rhino -l 3 -r 2", or for '
                             'shogi USI, then optionally "; go ..." for its search, e.g. '
                             '"/usr/games/fairy-stockfish; go depth 3"')
    parser.add_argument('--games', type=whole_number(1, MAX_GAMES), default=MR_GAME_COUNT, help='games to record (default: %(default)s)')
    parser.add_argument('--opening', type=whole_number(0, 60), default=MR_OPENING, metavar='K',
                        help='random moves before the engines take over (default: %(default)s)')
    parser.add_argument('--parallel', type=whole_number(1, MAX_ENGINES), default=MR_PARALLEL, help='games at once (default: %(default)s)')
    parser.add_argument('--out', type=file_path, default=os.path.join('records', 'engines'), metavar='PREFIX',
                        help='writes PREFIX.txt and PREFIX.wtb (shogi: PREFIX.csa and PREFIX.usi); PREFIX.playing.jsonl '
                             'keeps the games of a run under way, so that the same command after a stop plays only '
                             'the rest (default: %(default)s)')
    parser.add_argument('--seed', type=seed, help='random seed of the openings')
    args = parser.parse_args(argv)
    return args


def distinct_positions(game, games, opening):
    """(positions, distinct positions) of the games after their openings: the positions a network
    would learn from, and how many of them differ (deterministic engines repeat themselves)."""
    positions, seen = 0, set()
    for actions in games:
        state = game.State()
        for ply, action in enumerate(actions):
            if ply >= opening:
                positions += 1
                seen.add(state.pack().tobytes() if game.packed_planes else (state.planes().tobytes(), state.is_first_player()))
            state = state.next(action)
    return positions, len(seen)


def main():
    args = parse_args()
    game = load_game(args.game)
    kept = args.out + KEPT_SUFFIX
    games = make_records(game, args.engine, args.games, args.opening, args.parallel, args.seed, kept)  # engine problems: one line
    if game.ENGINE_PROTOCOL == 'usi':
        write_csa(args.out + '.csa', games, game)
        write_usi(args.out + '.usi', games, game)
        suffixes = ('.csa', '.usi')
    else:
        write_transcripts(args.out + '.txt', games, game)
        write_wtb(args.out + '.wtb', games, game)
        suffixes = ('.txt', '.wtb')
    os.remove(kept)  # the records hold every game now
    positions, distinct = distinct_positions(game, games, args.opening)
    print(f'wrote {len(games)} games to {args.out}{suffixes[0]} and {args.out}{suffixes[1]} '
          f'({sum(map(len, games)) / len(games):.1f} moves per game, {len(set(map(tuple, games)))} different; '
          f'{positions} positions after the openings, {distinct} different)', file=sys.stderr)


if __name__ == '__main__':
    run(main)
