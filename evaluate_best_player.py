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
import re

import numpy as np
from tqdm import tqdm

from alphazero.cli.flags import add_engine_flag, add_run_flags, add_settai_flag, add_settings_flags, settings_of
from alphazero.cli.run import ArgumentParser, run
from alphazero.cli.settings import parse_game_args
from alphazero.engines.players import engine_player, engine_problem
from alphazero.errors import UserError
from alphazero.files import check_output
from alphazero.game.paths import model_path, playing_model_path
from alphazero.game.registry import add_game_flag, as_game, load_game
from alphazero.limits import MAX_ENGINES, MAX_GAMES, check_search, file_path, whole_number
from alphazero.network.model_file import model_advice, playing_sims
from alphazero.network.onnx_export import ensure_onnx, file_sha256, onnx_is_current
from alphazero.network.runtimes import use_device
from alphazero.play.elo import describe_match, match_summary
from alphazero.play.exact import describe, exact_strength
from alphazero.play.matches import Match, play_matches
from alphazero.play.openings import paired_openings
from alphazero.play.agent import AgentSpec, load_agent, playing_search
from alphazero.play.levels import first_play_words
from alphazero.play.players import FunctionPlayer, TimedPlayer
from alphazero.play.resumable import KeptMatches
from alphazero.play.workers import add_worker_flags, worker_pool
from alphazero.records.write import record_extension, write_record
from alphazero.settings import EvaluationSettings, SearchSettings

# Parameters (the book's; with the rest of the evaluation's, they are the defaults of alphazero/settings.py's
# EvaluationSettings)
EP_GAME_COUNT = EvaluationSettings.games                # games against each opponent: 10
EP_ENGINE_GAME_COUNT = EvaluationSettings.engine_games  # games against each engine: 40
EP_OPENING = EvaluationSettings.opening                 # random moves before each game: 0, from the start as the book


# An average, or None for no games
def mean(points):
    return sum(points) / len(points) if points else None


# Play the best player against every opponent and engine; returns {name: {'all', 'first', 'second':
# average point, 'wins', 'draws', 'losses', 'elo', ...}} and, for a solvable game, {'exact': ...}.
# Beyond the book: `search` (SearchSettings) says how the best player searches and `evaluation` (EvaluationSettings) what it plays; path: the model file (None:
# the game's best); kept: a file that keeps each game's points as the game ends, so that the same
# call after a stop plays only the rest
def evaluate_best_player(game=None, search=SearchSettings(), evaluation=EvaluationSettings(), *, backend='auto',
                         seed=None, pool=None, path=None, kept=None):
    game = as_game(game)
    fixed = {name: action for name, action in game.opponents().items()
             if evaluation.opponents is None or name in evaluation.opponents}
    path = path or playing_model_path(game)
    best_search = playing_search(search, path)  # with the model's own first-play reduction unless one is asked
    games, engines = evaluation.games, evaluation.engines
    engine_games = evaluation.engine_games if engines else 0

    # The openings: the same ones against every opponent, each once with each colour (or those of
    # the games kept from a stopped run with the same settings, which are not played again)
    measured = {}
    if kept:  # what the games depend on (not how many run at once); the models by content and how they search
        measured = dataclasses.asdict(dataclasses.replace(evaluation, opponents=list(fixed), parallel=None, exact=None,
                                                                  save_to=None))
        measured.update(game=game.NAME, model_sha256=file_sha256(path), seed=seed,
                        search=dataclasses.asdict(best_search),
                        versus=[{'sha256': file_sha256(model), 'first_play': playing_search(search, model).first_play}
                                for model in evaluation.versus])
    kept = KeptMatches(kept, measured)
    rng = np.random.default_rng(seed)
    kept.openings = kept.openings or paired_openings(game, evaluation.opening, max(games, engine_games), rng)
    openings = kept.openings

    # The game's fixed players on Ray workers (with `pool`), from the model's ONNX export
    points = {}
    if pool is not None:
        onnx_path = os.path.splitext(path)[0] + '.onnx'
        if path == model_path(game, 'best.h5'):
            ensure_onnx(game)
        elif not path.endswith('.onnx') and not onnx_is_current(onnx_path, path):
            raise UserError(f'the workers play from ONNX and {onnx_path} is missing or older than {path}: '
                            f'run `python export.py {path}` first')
        description = f'evaluate best player (on {pool.workers} Ray workers)'
        with tqdm(total=games * len(fixed), desc=description, unit='game') as progress, pool.showing(progress):
            for name in fixed:
                points[name] = pool.match(game, onnx_path, name, games, best_search, 0.0, seed,
                                          openings[:games])

    with contextlib.ExitStack() as stack:
        # The opponents here: the game's fixed players (unless on workers), other models, and each engine
        opponents = [(name, FunctionPlayer(action), games) for name, action in fixed.items() if name not in points]
        other_seed = None if seed is None else seed + 1
        lines = evaluation.save_to is not None  # the searches say their lines, which the records keep
        other_search = search.with_sims(evaluation.versus_sims or search.sims)
        opponents += [(other, TimedPlayer(load_agent(game, AgentSpec(other, other_search.sims, search=other_search,
                                                                     backend=backend, seed=other_seed,
                                                                     with_lines=lines))), games)
                      for other in evaluation.versus]
        opponents += [(command, stack.enter_context(engine_player(command, game)), engine_games) for command in engines]

        # All games at once, so that the best player's searches share network calls (the network is
        # loaded here only when it plays or is judged here)
        judged = evaluation.exact and game.SOLVABLE
        searcher = (load_agent(game, AgentSpec(path, search.sims, settai=evaluation.settai, search=search,
                                               backend=backend, seed=seed, with_lines=lines))
                    if opponents or judged else None)
        best = TimedPlayer(searcher)
        timed = {name: player for name, player, _ in opponents if isinstance(player, TimedPlayer)}
        matches = [Match(('best', name), best, opponent, openings[:count]) for name, opponent, count in opponents]
        written = record_writer(game, evaluation.save_to) if lines else None
        with tqdm(total=sum(match.games for match in matches), desc='evaluate best player', unit='game') as progress:
            played = play_matches(game, matches, evaluation.parallel, progress, kept.done, kept.keep, written)
        points.update({name: played['best', name] for name, _, _ in opponents})
    if timed:  # models head to head: what a move cost each, to compare them at equal time
        costs = [f'{name} {1000 * player.seconds_per_move():.1f} ms' for name, player in
                 [('the best player', best), *timed.items()] if player.moves]
        print(f'thinking time a move, its games answered at once: {", ".join(costs)}')

    # Points per opponent: over all games, and as first (even games) and second player (odd)
    scores, names = {}, [*fixed, *evaluation.versus, *engines]
    if names:  # the book's lines name the opponent: say whose points they are
        print("the best player's points against each opponent (won, drew, lost: the best player's games):")
    for name in names:
        scores[name] = dict(match_summary(points[name]), first=mean(points[name][0::2]), second=mean(points[name][1::2]))
        sides = ', '.join(f'as {side} {round(scores[name][side], 3)}' for side in ('first', 'second')
                          if scores[name][side] is not None)  # one game: no game as second
        print(f'{name} {round(scores[name]["all"], 3)} ({sides}): {describe_match(scores[name])}')

    # Judged against the solved game
    if judged:
        scores['exact'] = exact_strength(game, searcher.network, search.sims)
        print(describe(scores['exact']))
    return scores


# finished(match, i, live_game) for play_matches: each game as a record in `folder` as it ends
# (FOLDER/fairy-stockfish-go-depth-3-007.kif: the opponent, then the game's number), with what the
# searches said of their moves
def record_writer(game, folder):
    def finished(match, i, live_game):
        opponent = match.key[1]
        stem = re.sub(r'[^0-9A-Za-z]+', '-', opponent.replace('\\', '/').split('/')[-1]).strip('-') or 'opponent'
        names = ('AlphaZero', opponent) if i % 2 == 0 else (opponent, 'AlphaZero')
        write_record(os.path.join(folder, f'{stem}-{i + 1:03}{record_extension(game)}'), game,
                     [*live_game.opening, *live_game.moves], live_game.evaluations, names, live_game.claim == 'resign')
    return finished


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
    parser = ArgumentParser(description='Play the best player against the game\'s fixed opponents, other models '
                                        'and against GTP engines.')
    add_game_flag(parser)
    parser.add_argument('--games', type=whole_number(1, MAX_GAMES), default=EP_GAME_COUNT,
                        help='games against each opponent, EP_GAME_COUNT (default: %(default)s)')
    parser.add_argument('--model', type=file_path, help="the model to evaluate, .h5 or .onnx (default: the game's best.h5, or the "
                                        "shipped one when there is none)")
    parser.add_argument('--versus', action='append', default=[], metavar='MODEL', type=file_path,
                        help='also play this model file (.h5 or .onnx), --games games with the same search (or '
                             '--versus-sims): two models head to head in any game (repeatable)')
    parser.add_argument('--opponent', action='append', default=[], metavar='NAME',
                        help='play only this fixed opponent, e.g. random or alphabeta4 (repeatable; none: only the '
                             'engines and --versus models) (default: every opponent of the game)')
    add_engine_flag(parser)
    add_settings_flags(parser, EvaluationSettings)
    add_settings_flags(parser, SearchSettings, sims=None)
    add_run_flags(parser)
    add_settai_flag(parser)
    parser.add_argument('--keep', type=file_path, metavar='FILE',
                        help="keep each game's result in FILE as the game ends: the same command run again after a "
                             'stop plays only the games FILE lacks, and once all are there prints the result again '
                             '(default: keep nothing)')
    add_worker_flags(parser)
    args = parse_game_args(parser, argv, ('evaluation',))
    game = load_game(args.game)
    check_engines(game, args.engine, args.parallel)
    check_search(game, max(args.sims or SearchSettings.sims, args.versus_sims or 0), args.parallel)
    if args.versus_sims and not args.versus:
        raise UserError('--versus-sims sets the search of --versus models: add a --versus MODEL or leave it out')
    if args.save_to and record_extension(game) is None:
        raise UserError(f'--save-to: {game.NAME} has no record format (full shogi writes KIF, the games of squares '
                        'transcripts): leave out --save-to')
    for flag in ('settai', 'keep', 'save_to'):
        if getattr(args, flag) and args.workers:
            raise UserError(f'--{flag.replace("_", "-")} works on the games played in this process only: leave out --workers')
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
    evaluation = settings_of(EvaluationSettings, args, engines=tuple(args.engine), versus=tuple(args.versus),
                             opponents=None if args.opponents is None else tuple(args.opponents))
    sims, why = playing_sims(args.sims, args.model or playing_model_path(game))
    search = settings_of(SearchSettings, args, sims=sims)  # each model's own first-play reduction: load_agent's
    first_play = playing_search(search, args.model or playing_model_path(game)).first_play
    print(f'the best player searches {sims} simulations per move ({why}){first_play_words(first_play)}')
    with worker_pool(args) or contextlib.nullcontext() as pool:
        evaluate_best_player(game, search, evaluation, backend=args.backend,
                             seed=args.seed, pool=pool, path=args.model, kept=args.keep)


def command():
    """The installed console command (pyproject.toml's [project.scripts]): main() with one-line errors."""
    run(main)


if __name__ == '__main__':
    command()
