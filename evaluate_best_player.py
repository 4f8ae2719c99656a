# ====================
# Evaluate the best player (the book's evaluate_best_player.py)
# ====================
# The best network, searching at temperature 0, plays a random player, an alpha-beta player (perfect
# at tic-tac-toe) and a pure Monte Carlo tree search player, taking turns at moving first.
# For a game small enough to solve, it is also judged exactly against the solved game.
# Beyond the book: it also plays any program that speaks GTP (--engine), and plays every opponent
# from varied openings when asked (--opening): from the start, a deterministic best player and a
# deterministic opponent would play the same few games again and again.

import contextlib
import dataclasses
import os

import numpy as np
from tqdm import tqdm

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.play.exact import describe, exact_strength
from alphazero.files import check_output
from alphazero.network.model_file import model_advice, playing_sims
from alphazero.play.resumable import read_kept, write_kept
from alphazero.search.search import SearchOptions
from alphazero.cli.flags import add_engine_flags, add_search_flags, add_settai_flag, search_options
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.game.paths import model_path, playing_model_path
from alphazero.network.onnx_export import file_sha256, onnx_is_current
from alphazero.network.runtimes import use_device
from alphazero.limits import MAX_ENGINES, MAX_GAMES, MAX_PARALLEL, check_search, file_path, whole_number
from alphazero.play.players import FunctionPlayer, mcts_player
from alphazero.play.elo import describe_match, match_summary
from alphazero.play.openings import duplicate_starts, paired_openings
from alphazero.engines.players import engine_player, engine_problem
from alphazero.play.matches import game_point, match_pairings
from alphazero.play.loop import play_games
from alphazero.network.onnx_export import ensure_onnx
from alphazero.cli.settings import parse_game_args
from alphazero.play.workers import add_worker_flags, worker_pool
from pv_mcts import PV_EVALUATE_COUNT

# Parameters
EP_GAME_COUNT = 10      # games against each opponent
EP_ENGINE_GAME_COUNT = 40   # games against each GTP engine
EP_OPENING = 0          # random moves before each game (0: from the start, as the book); each opening is played with both colours
EP_PARALLEL = 32        # games played at once (each engine game runs its own engine process)


# An average, or None for no games
def mean(points):
    return sum(points) / len(points) if points else None


# Play the best player against every opponent and engine; returns {name: {'all', 'first', 'second':
# average point, 'wins', 'draws', 'losses', 'elo', ...}} and, for a solvable game, {'exact': ...}
# evaluate_count None: the simulations the model records, else PV_EVALUATE_COUNT; opponents: the names
# of the game's fixed opponents to play (None: all of them); path: the model file (None: the game's best);
# parallel: games at once (each engine game runs its own engine, so a slow engine wants fewer);
# versus: other model files, each playing game_count games with the same search; kept: a file that
# keeps each game's points as the game ends, so that the same call after a stop plays only the rest
def evaluate_best_player(game=None, game_count=EP_GAME_COUNT, evaluate_count=PV_EVALUATE_COUNT, *,
                         cache=True, backend='auto', seed=None, exact=True, engines=(),
                         engine_game_count=EP_ENGINE_GAME_COUNT, opening=EP_OPENING, pool=None, opponents=None,
                         path=None, parallel=EP_PARALLEL, versus=(), options=SearchOptions(), settai=False,
                         kept=None):
    game = as_game(game)
    fixed = {name: action for name, action in game.opponents().items() if opponents is None or name in opponents}
    path = path or playing_model_path(game)
    if evaluate_count is None:
        evaluate_count, why = playing_sims(None, path, PV_EVALUATE_COUNT)
        print(f'the best player searches {evaluate_count} simulations per move ({why})')

    # The openings: the same ones against every opponent, each once with each colour (or those of
    # the games kept from a stopped run with the same settings, which are not played again)
    settings = None
    if kept:
        settings = {'game': game.NAME, 'model_sha256': file_sha256(path), 'sims': evaluate_count, 'games': game_count,
                    'opponents': list(fixed), 'versus': [file_sha256(other) for other in versus],
                    'engines': list(engines), 'engine_games': engine_game_count, 'opening': opening, 'seed': seed,
                    'options': dataclasses.asdict(options), 'settai': settai}
    openings, done = read_kept(kept, settings, 'games', lambda games: {int(i): float(p) for i, p in games})
    if openings:
        print(f'going on from {kept}: {len(done)} games played already')
    rng = np.random.default_rng(seed)
    openings = openings or paired_openings(game, opening, max(game_count, engine_game_count if engines else 0), rng)

    # The game's fixed players on Ray workers (with `pool`), from the model's ONNX export
    points = {}
    if pool is not None:
        onnx_path = os.path.splitext(path)[0] + '.onnx'
        if path == model_path(game, 'best.h5'):
            ensure_onnx(game)
        elif not path.endswith('.onnx') and not onnx_is_current(onnx_path, path):
            raise UserError(f'the workers play from ONNX and {onnx_path} is missing or older than {path}: '
                            f'run `python export.py {path}` first')
        for name in fixed:
            points[name] = pool.match(game, onnx_path, name, game_count, evaluate_count, 0.0, seed,
                                      openings[:game_count], options)

    with contextlib.ExitStack() as stack:
        # The opponents here: the game's fixed players (unless on workers), other models, and each engine
        matches = [(name, FunctionPlayer(action), game_count, openings[:game_count])
                   for name, action in fixed.items() if name not in points]
        other_seed = None if seed is None else seed + 1
        for other in versus:
            matches.append((other, mcts_player(other, game, evaluate_count, 0.0, cache, backend, other_seed, options), game_count,
                            openings[:game_count]))
        for command in engines:
            matches.append((command, stack.enter_context(engine_player(command, game)), engine_game_count,
                            openings[:engine_game_count]))

        # All games at once, so that the best player's searches share network calls (the network is
        # loaded here only when it plays or is judged here)
        judged = exact and game.SOLVABLE
        best = (mcts_player(path, game, evaluate_count, 0.0, cache, backend, seed, options, settai)
                if matches or judged else None)
        pairings = [pair for _, opponent, count, _ in matches for pair in match_pairings(best, opponent, count)]
        match_openings = [moves for *_, moves_of_match in matches for moves in moves_of_match]
        # A game dealt at random (point-Othello's values) is played twice per deal, colours swapped
        starts = [duplicate_starts(game, count) for _, _, count, _ in matches]
        starts = None if not starts or starts[0] is None else [start for match_starts in starts for start in match_starts]
        # The best player's points game by game, each kept as its game ends
        todo = [i for i in range(len(pairings)) if i not in done]

        def finished(index, result):
            i = todo[index]
            done[i] = game_point(result, pairings[i][0] is best)
            if kept:
                write_kept(kept, settings, openings, 'games', sorted(done.items()))
        with tqdm(total=len(pairings), initial=len(pairings) - len(todo), desc='evaluate best player',
                  unit='game') as progress:
            play_games(game.State, [pairings[i] for i in todo], parallel, progress=progress,
                       openings=[match_openings[i] for i in todo], starts=starts and [starts[i] for i in todo],
                       finished=finished)
        played = [done[i] for i in range(len(pairings))]
        for name, _, count, _ in matches:
            points[name], played = played[:count], played[count:]

    # Points per opponent: over all games, and as first (even games) and second player (odd)
    scores = {}
    for name in [*fixed, *versus, *engines]:
        scores[name] = dict(match_summary(points[name]), first=mean(points[name][0::2]), second=mean(points[name][1::2]))
        sides = ', '.join(f'as {side} {round(scores[name][side], 3)}' for side in ('first', 'second')
                          if scores[name][side] is not None)  # one game: no game as second
        print(f'{name} {round(scores[name]["all"], 3)} ({sides}): {describe_match(scores[name])}')

    # Judged against the solved game
    if judged:
        scores['exact'] = exact_strength(game, best.evaluator, evaluate_count)
        print(describe(scores['exact']))
    return scores


# Engines play over GTP (over USI for shogi), one process per game at once: refuse a game they
# cannot play, and more processes than a machine runs
def check_engines(game, engines, parallel):
    problem = engine_problem(game)
    if engines and problem:
        raise UserError(f'--engine: {game.NAME} cannot be played over GTP ({problem})')
    if engines and parallel > MAX_ENGINES:
        raise UserError(f'--parallel {parallel} would start {parallel} engine processes at once: give at most {MAX_ENGINES}')


# --opponent NAME: a fixed opponent's name as printed (VS_AlphaBeta4) or short (alphabeta4), or none
def chosen_opponents(game, names):
    if not names:
        return None
    known = {name.lower().removeprefix('vs_'): name for name in game.opponents()}
    chosen = []
    for name in names:
        short = name.lower().removeprefix('vs_')
        if short not in known and short != 'none':
            raise UserError(f'--opponent {name}: {game.NAME} has the opponents {", ".join(known)} (or none)')
        chosen += [known[short]] if short in known else []
    return chosen


def parse_args(argv=None):
    parser = ArgumentParser(description='Play the best player against random, alpha-beta and MCTS players, '
                                        'and against GTP engines.')
    add_game_flag(parser)
    parser.add_argument('--games', type=whole_number(1, MAX_GAMES), default=EP_GAME_COUNT,
                        help='games against each opponent, EP_GAME_COUNT (default: %(default)s)')
    parser.add_argument('--model', type=file_path, help="the model to evaluate, .h5 or .onnx (default: the game's best.h5, or the "
                                        "shipped one when there is none)")
    parser.add_argument('--versus', action='append', default=[], metavar='MODEL', type=file_path,
                        help='also play this model file (.h5 or .onnx), --games games with the same search: two '
                             'models head to head in any game (repeatable)')
    parser.add_argument('--opponent', action='append', default=[], metavar='NAME',
                        help='play only this fixed opponent, e.g. random or alphabeta4 (repeatable; none: only the '
                             'engines and --versus models) (default: every opponent of the game)')
    add_engine_flags(parser, EP_ENGINE_GAME_COUNT, EP_OPENING)
    parser.add_argument('--parallel', type=whole_number(1, MAX_PARALLEL), default=EP_PARALLEL,
                        help='games played at once; each engine game runs its own copy of the engine, so give a slow '
                             'engine about as many as there are cores (default: %(default)s)')
    add_search_flags(parser, None, PV_EVALUATE_COUNT)
    add_settai_flag(parser)
    parser.add_argument('--keep', type=file_path, metavar='FILE',
                        help="keep each game's result in FILE as the game ends: the same command run again after a "
                             'stop plays only the games FILE lacks, and once all are there prints the result again '
                             '(default: keep nothing)')
    add_worker_flags(parser)
    args = parse_game_args(parser, argv, ('evaluation',))
    game = load_game(args.game)
    check_engines(game, args.engine, args.parallel)
    check_search(game, args.sims or PV_EVALUATE_COUNT, args.parallel)
    for flag in ('settai', 'keep'):
        if getattr(args, flag) and args.workers:
            raise UserError(f'--{flag} works on the games played in this process only: leave out --workers')
    args.opponents = chosen_opponents(game, args.opponent)
    if args.opponents == [] and not args.engine and not args.versus:
        raise UserError('--opponent none leaves nothing to play: add an --engine or a --versus model, or name an opponent')
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    for model in [args.model, *args.versus]:
        if model and not os.path.exists(model):
            raise UserError(f'{model} not found: {model_advice(game, model, exists=False)}.')
    if args.keep:
        check_output(args.keep, args.model or playing_model_path(game), *args.versus)
    use_device(args.device)
    with worker_pool(args) or contextlib.nullcontext() as pool:
        evaluate_best_player(game, args.games, args.sims, cache=args.cache, backend=args.backend, seed=args.seed,
                             engines=args.engine, engine_game_count=args.engine_games,
                             opening=args.opening, pool=pool, opponents=args.opponents, path=args.model,
                             parallel=args.parallel, versus=args.versus, options=search_options(args),
                             settai=args.settai, kept=args.keep)


if __name__ == '__main__':
    run(main)
