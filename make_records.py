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
# deterministic.

import contextlib
import itertools
import os
import sys

import numpy as np
from tqdm import tqdm

from alphazero.cli.run import ArgumentParser, run
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


def make_records(game, engines, game_count=MR_GAME_COUNT, opening=MR_OPENING, parallel=MR_PARALLEL, seed=None):
    """Play `game_count` engine games; returns each game's moves (the opening included, no passes), as
    a Record whose result is the one an engine's resignation or declared win gave, with what USI
    engines said of their moves (their score and line, which the CSA file keeps)."""
    rng = np.random.default_rng(seed)
    with contextlib.ExitStack() as stack:
        players = [stack.enter_context(engine_player(command, game)) for command in engines]
        # Every pair of engines (and each engine against itself) in a match of its share of the
        # games; two engines play each opening twice, once with each colour
        pairs = list(itertools.combinations_with_replacement(range(len(players)), 2))
        shares = [game_count // len(pairs) + (k < game_count % len(pairs)) for k in range(len(pairs))]
        matches = []
        for (a, b), share in zip(pairs, shares):
            repeat = 1 if a == b else 2
            openings = distinct_openings(game, opening, -(-share // repeat), rng)
            matches.append(Match((a, b), players[a], players[b], [openings[i // repeat] for i in range(share)]))
        played = {}

        def finished(match, i, result):
            played[match.key, i] = result
        with tqdm(total=game_count, desc='engine games', unit='game') as progress:
            play_matches(game, [match for match in matches if match.games], parallel, progress, finished=finished)
    return [Record([a for a in (*g.opening, *g.moves) if a != game.PASS], g.value(True) if g.claim else None, g.evaluations)
            for _, g in sorted(played.items())]


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
                        help='writes PREFIX.txt and PREFIX.wtb (shogi: PREFIX.csa and PREFIX.usi) (default: %(default)s)')
    parser.add_argument('--seed', type=seed, help='random seed of the openings')
    args = parser.parse_args(argv)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    games = make_records(game, args.engine, args.games, args.opening, args.parallel, args.seed)  # engine problems: one line
    if game.ENGINE_PROTOCOL == 'usi':
        write_csa(args.out + '.csa', games, game)
        write_usi(args.out + '.usi', games, game)
        suffixes = ('.csa', '.usi')
    else:
        write_transcripts(args.out + '.txt', games, game)
        write_wtb(args.out + '.wtb', games, game)
        suffixes = ('.txt', '.wtb')
    print(f'wrote {len(games)} games to {args.out}{suffixes[0]} and {args.out}{suffixes[1]} '
          f'({sum(map(len, games)) / len(games):.1f} moves per game, {len(set(map(tuple, games)))} different)',
          file=sys.stderr)


if __name__ == '__main__':
    run(main)
