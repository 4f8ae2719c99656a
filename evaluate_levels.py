# ====================
# Measure the levels of play (beyond the book)
# ====================
# A model plays at several levels (alphazero/play/levels.py): its policy alone, then searches of more
# and more simulations. Here each level plays the next one up, the weakest plays the random player,
# and each of the game's other opponents (alpha-beta players, GTP/USI engines) plays the levels
# around its own strength. One Elo ladder is fitted to all these matches, the random player being
# 0, so that every level has a rating and a known opponent of about its strength. With --write it
# goes into the model.json beside the model, where the window, the text player and the page read it;
# the games played so far are kept beside it too, so that a measurement stopped part way (a ladder
# with a strong engine takes hours) goes on from there when run again with the same settings.

import contextlib
import json
import os
import sys

from tqdm import tqdm

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.network.model_file import playing_sims
from alphazero.play.resumable import KeptMatches
from alphazero.files import write_json
from alphazero.cli.flags import add_engine_flag, add_settings_flags
from alphazero.settings import EvaluationSettings, SearchSettings
from alphazero.game.registry import add_game_flag, load_game
from alphazero.game.paths import playing_model_path
from alphazero.network.onnx_export import file_sha256
from alphazero.play.levels import (ANCHOR, Level, first_play_words, fit_ratings, ladder_entry, ladder_path, level_name,
                                   rated_levels, resampled_fits, standard_levels)
from alphazero.limits import MAX_GAMES, MAX_PARALLEL, check_search, file_path, seed, whole_number
from alphazero.play.agent import AgentSpec, load_agent
from alphazero.play.players import FunctionPlayer
from alphazero.play.elo import describe_match, match_summary
from alphazero.play.openings import paired_openings
from alphazero.engines.players import engine_player, opponent_name
from alphazero.play.matches import Match, play_matches
from alphazero.cli.words import level_text, words
from evaluate_best_player import check_engines

# Parameters
LV_GAME_COUNT = 40    # games per match
LV_OPENING = 2        # random moves before each game; each opening is played with both colours
LV_PARALLEL = 64      # games played at once
EVEN = (0.25, 0.75)   # a match scored in this range places an opponent; else it meets the next level


# The next level for an opponent after a match against level i: down when the level won easily, up
# when it lost, none once the match was even or the ladder ends (or that level was met already)
def next_level(i, score, count, tried):
    step = -1 if score > EVEN[1] else 1 if score < EVEN[0] else 0
    following = i + step
    return following if step and 0 <= following < count and following not in tried else None


# The ladder's matches: LV_GAME_COUNT games each, from openings of LV_OPENING moves, LV_PARALLEL at once
LADDER = EvaluationSettings(games=LV_GAME_COUNT, opening=LV_OPENING, parallel=LV_PARALLEL)


def measure_levels(game, path, agent, evaluation=LADDER, kept=None):
    """The levels of `agent` (load_agent's, of the model at `path`) rated: (levels, ratings, matches),
    from matches as `evaluation` (EvaluationSettings: games, opening, parallel, engines) says. With
    `kept` (a file) the matches are kept there as they are played, and those it holds for the same
    settings are not played again."""
    games, opening, engines = evaluation.games, evaluation.opening, evaluation.engines
    sims = agent.search.sims
    levels = standard_levels(sims)
    kept = KeptMatches(kept, {'model_sha256': file_sha256(path), 'sims': sims, 'first_play': agent.search.first_play,
                              'games': games, 'opening': opening, 'engines': list(engines)})
    kept.openings = kept.openings or paired_openings(game, opening, games, agent.rng)
    # Each level as the programs play it: its search after the game's solver (a policy level alone)
    players = {level_name(level): agent.replaced(level=level) for level in levels}
    with contextlib.ExitStack() as stack:
        opponents = {opponent_name(name): FunctionPlayer(action) for name, action in game.opponents().items()}
        for command in engines:
            opponents[opponent_name(command)] = stack.enter_context(engine_player(command, game))
        if ANCHOR not in opponents:
            raise UserError(f'{game.NAME} has no random player to anchor the ladder on')
        players.update(opponents)
        with tqdm(desc='level matches', unit='game') as progress:
            def play(pairs):
                progress.total = (progress.total or 0) + len(pairs) * games
                matches = [Match(pair, players[pair[0]], players[pair[1]], kept.openings) for pair in pairs]
                points = play_matches(game, matches, evaluation.parallel, progress, kept.done, kept.keep)
                return [(player, opponent, points[player, opponent]) for player, opponent in pairs]
            # The ladder itself: the random player against level 1, each level against the next
            matches = play([(level_name(levels[0]), ANCHOR)] + [(level_name(upper), level_name(lower))
                                                               for lower, upper in zip(levels, levels[1:])])
            # Each other opponent, from the middle level up or down until a match is even
            place = {name: len(levels) // 2 for name in opponents if name != ANCHOR}
            tried = {name: set() for name in place}
            while place:
                played = play([(level_name(levels[i]), name) for name, i in place.items()])
                matches += played
                following = {}
                for (_, name, points), i in zip(played, place.values()):
                    tried[name].add(i)
                    step = next_level(i, sum(points) / len(points), len(levels), tried[name])
                    if step is not None:
                        following[name] = step
                place = following
    return (*rate(levels, matches, list(opponents)), matches)


# The levels rated by the matches [(player, opponent, points game by game)], each with how far the
# same matches played again could move it from its nearest opponent: (levels, ratings)
def rate(levels, matches, opponents):
    ratings = fit_ratings([(player, opponent, sum(points), len(points)) for player, opponent, points in matches])
    fits = resampled_fits([(player, opponent, points.count(1), points.count(0.5), points.count(0))
                           for player, opponent, points in matches])
    return rated_levels(levels, ratings, opponents, fits), ratings


# The ladder of a model.json fitted again to the matches it holds, none played: (levels, ratings, matches)
def refit(target, content):
    entry = content.get('levels')
    if not entry:
        raise UserError(f'{target} holds no ladder to fit again: measure one with --write')
    try:
        levels = [Level(level['number'], level['simulations'], level['temperature']) for level in entry['levels']]
        matches = [(m['player'], m['opponent'], [1.0] * m['won'] + [0.5] * m['drew'] + [0.0] * m['lost'])
                   for m in entry['matches']]
        opponents = list(entry['opponents'])
    except (KeyError, TypeError) as error:
        raise UserError(f'{target}: its "levels" entry is not a ladder ({error}): measure it again with --write') from None
    return (*rate(levels, matches, opponents), matches)


# Print the ladder and the matches it was fitted to
def print_ladder(levels, ratings, matches):
    for level in levels:
        print(level_text(level, words()))
    print('opponents: ' + ', '.join(f'{name} {rating:.0f}' for name, rating in sorted(ratings.items(), key=lambda i: i[1])
                                    if not name.startswith('level ')))
    for player, opponent, points in matches:
        print(f'{player} vs {opponent}: {describe_match(match_summary(points))}')


# The model.json beside the model that the ladder goes into, as it is now (a new one holds just the
# game), checked before any game is played
def ladder_file(game, path):
    target = ladder_path(path)
    content = {'game': game.NAME}
    if os.path.exists(target):
        try:
            with open(target, encoding='utf-8') as f:
                content = json.load(f)
        except (OSError, ValueError) as error:
            raise UserError(f'{target} is not readable JSON ({error}): fix or remove it, then measure again') from None
        if not isinstance(content, dict) or content.get('game', game.NAME) != game.NAME:
            raise UserError(f'{target} is not the model.json of a {game.NAME} model: is --model right?')
    return target, content


def write_ladder(target, content, entry):
    content['levels'] = entry
    write_json(target, content, indent=2)
    print(f'wrote the ladder into {target}')


def parse_args(argv=None):
    parser = ArgumentParser(description='Measure the levels of play of a model as an Elo ladder anchored on the '
                                        'random player, and place the game\'s opponents and engines on it.')
    add_game_flag(parser)
    parser.add_argument('--model', type=file_path, help="the model, .h5 or .onnx (default: the game's best.h5, or the "
                                                        "shipped one when there is none)")
    parser.add_argument('--sims', type=whole_number(1), help='simulations per move of the strongest level (default: '
                                                             f'what the model records, else {SearchSettings.sims})')
    parser.add_argument('--games', type=whole_number(2, MAX_GAMES), default=LV_GAME_COUNT,
                        help='games per match, LV_GAME_COUNT (default: %(default)s)')
    add_engine_flag(parser)
    add_settings_flags(parser, EvaluationSettings, only=('opening',), opening=LV_OPENING)
    parser.add_argument('--parallel', type=whole_number(1, MAX_PARALLEL), default=LV_PARALLEL,
                        help='games played at once (default: %(default)s)')
    parser.add_argument('--seed', type=seed, help='random seed for reproducible matches')
    parser.add_argument('--write', action='store_true', help='write the ladder into the model.json beside the model '
                                                             '(and keep the games in model.json.matches as they are '
                                                             'played: a stopped run goes on from there)')
    parser.add_argument('--refit', action='store_true', help='fit the ladder in the model.json beside the model again '
                                                             'to the matches it holds, playing none, and write it')
    args = parser.parse_args(argv)
    game = load_game(args.game)
    check_engines(game, args.engine, args.parallel)
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    path = args.model or playing_model_path(game)
    if args.refit:
        target, content = ladder_file(game, path)
        levels, ratings, matches = refit(target, content)
        print_ladder(levels, ratings, matches)
        write_ladder(target, content, ladder_entry(levels, ratings, matches, content['levels']['how']))
        return
    sims, why = playing_sims(args.sims, path)
    check_search(game, sims, args.parallel)
    agent = load_agent(game, AgentSpec(path, sims, seed=args.seed))
    first_play = agent.search.first_play
    print(f'levels of {path}: the model\'s own search is {sims} simulations per move ({why}){first_play_words(first_play)}')
    target, content = ladder_file(game, path) if args.write else (None, None)
    kept = target + '.matches' if args.write else None
    evaluation = EvaluationSettings(games=args.games, opening=args.opening, parallel=args.parallel,
                                    engines=tuple(args.engine))
    levels, ratings, matches = measure_levels(game, path, agent, evaluation, kept)
    print_ladder(levels, ratings, matches)
    if args.write:
        how = (f'python evaluate_levels.py {" ".join(sys.argv[1:])}: {args.games} games per match, colours alternating, '
               f'from openings of {args.opening} random moves each played with both colours; the random player against '
               'level 1, each level against the next, each other opponent from the middle level up or down until a '
               f'match scores {EVEN[0]}-{EVEN[1]}; Elo fitted to all matches (each moved half a game towards even); '
               + ('the levels search as the book does' if first_play is None
                  else f'the levels search with a first-play reduction of {first_play:g} (its model.json\'s)'))
        write_ladder(target, content, ladder_entry(levels, ratings, matches, how))
        os.remove(kept)


if __name__ == '__main__':
    run(main)
