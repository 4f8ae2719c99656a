"""Levels of play: settings of the AI whose strength is measured, not guessed.

A level is a number of simulations per move and a temperature. At 0 simulations the AI plays its
network's policy alone (sampled at the temperature, or its most likely move at 0); above, it
searches and plays the most visited move. evaluate_levels.py measures the levels of a model as an
Elo ladder anchored on the random player (Elo 0): matches between adjacent levels, and against the
game's other opponents (alpha-beta, GRhino, Fairy-Stockfish) to say what each level is like. The
ladder goes into the `levels` entry of the model.json beside the model file; the players (window,
text, page) read it from there.
"""
import json
import math
import os
from dataclasses import asdict, dataclass
from typing import Optional

import numpy as np

from alphazero.errors import UserError

MIN_SEARCH = 8  # simulations: below, the book's search barely differs from its policy


NEAR = 75  # Elo: a level this close to an opponent is "about" it


ANCHOR = 'random player'


RANGE_DRAWS = 200  # resampled fits behind each Elo's range


RANGE_SHARE = 90   # percent of them that the range holds


@dataclass(frozen=True)
class Level:
    number: int
    simulations: int       # 0: the network's policy alone
    temperature: float     # 0: the best move; above: sampled (only the policy levels)
    elo: Optional[float] = None   # measured, the random player being 0
    near: Optional[str] = None    # the measured opponent nearest in Elo
    near_difference: Optional[float] = None  # elo - that opponent's
    near_low: Optional[float] = None   # the range of near_difference over the matches resampled
    near_high: Optional[float] = None  # (resampled_fits)


def standard_levels(sims):
    """The levels of a model that searches `sims` simulations per move as trained: its policy
    sampled, its policy's best move, then searches of a quarter of `sims` (at least MIN_SEARCH), of
    `sims` (the model's own strength, the players' default) and of four times `sims` (fewer when
    `sims` is too small for a quarter of it to differ)."""
    searches = sorted({max(min(MIN_SEARCH, sims), sims // 4), sims, 4 * sims})
    settings = [(0, 1.0), (0, 0.0)] + [(count, 0.0) for count in searches]
    return [Level(number, count, temperature) for number, (count, temperature) in enumerate(settings, 1)]


def full_strength(levels, sims):
    """The level that searches `sims` simulations: what the players play unless asked for a level."""
    return next(level for level in levels if level.simulations == sims)


def ladder_path(model_path):
    """Where a model's measured ladder is kept: the model.json beside it."""
    return os.path.join(os.path.dirname(os.path.abspath(model_path)), 'model.json')


def model_entry(model_path, key):
    """An entry of the model.json beside a model (`levels`, `handicaps`), or None when it has none."""
    path = ladder_path(model_path)
    try:
        with open(path, encoding='utf-8') as f:
            return json.load(f).get(key)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, AttributeError) as error:
        raise UserError(f'{path} is not a readable model.json ({error}): restore it from the repository') from None


def read_ladder(model_path):
    """The measured levels of a model (its model.json's `levels`), or None when it has none."""
    entry = model_entry(model_path, 'levels')
    if entry is None:
        return None
    try:
        return [Level(**level) for level in entry['levels']]
    except (KeyError, TypeError) as error:
        raise UserError(f'{ladder_path(model_path)}: its "levels" entry is not a ladder ({error}): measure it again '
                        'with evaluate_levels.py') from None


def handicap_worth(model_path):
    """What each handicap (駒落ち) the model gives costs it, in Elo, as its model.json's `handicaps`
    entry measured it (bench/usi_match.py --handicap: the model against a fixed opponent giving each
    handicap, and the even game): {name: Elo}, {} when not measured. The Elo of the AI giving a
    handicap is about its level's Elo less that cost."""
    entry = model_entry(model_path, 'handicaps') or {}
    return {name: result['elo_given'] for name, result in entry.get('games', {}).items()}


def measured_first_play(model_path):
    """The first-play reduction (SearchSettings.first_play) measured best for a model, as its
    model.json's `search` entry holds it, or None (a draw, as in the book) when it holds none."""
    entry = model_entry(model_path, 'search') or {}
    reduction = entry.get('first_play')
    if reduction is not None and not (isinstance(reduction, (int, float)) and 0 <= reduction <= 2):
        raise UserError(f'{ladder_path(model_path)}: its "search" entry\'s first_play is {reduction!r}, not a number '
                        'from 0 to 2: restore it from the repository')
    return reduction


def first_play_words(reduction):
    """How a search's description says its first-play reduction: nothing for the book's draw."""
    return '' if reduction is None else f', first-play reduction {reduction:g}'


def levels_for(model_path, sims):
    """The levels offered for a model that searches `sims` simulations as trained: the measured
    ladder when it was measured for these simulations, else the standard levels, unmeasured."""
    ladder, standard = read_ladder(model_path), standard_levels(sims)
    settings = [(level.number, level.simulations, level.temperature) for level in standard]
    if ladder and [(level.number, level.simulations, level.temperature) for level in ladder] == settings:
        return ladder
    return standard


def choose_level(levels, number):
    """The level numbered `number` (1 is the weakest), or a one-line error naming the choices."""
    for level in levels:
        if level.number == number:
            return level
    raise UserError(f'--level {number}: this model has levels 1 to {len(levels)}')


def playing_level(model_path, sims, number=None):
    """(the level a player plays: level `number` of the model's levels, else its full strength;
    all the model's levels)."""
    levels = levels_for(model_path, sims)
    return (choose_level(levels, number) if number else full_strength(levels, sims)), levels


def fit_ratings(matches, anchor=ANCHOR, iterations=500):
    """Elo ratings from matches [(player, opponent, points of player, games)], the `anchor` at 0.

    The maximum likelihood of the Elo model (Bradley-Terry), each match's score moved half a game
    towards even so that a clean sweep gives a large but finite gap. Newton steps, player by player,
    until no rating moves by a thousandth of a point."""
    names = sorted({name for a, b, _, _ in matches for name in (a, b)})
    if anchor not in names:
        raise ValueError(f'the anchor {anchor!r} played no match')
    ratings = dict.fromkeys(names, 0.0)
    scale = math.log(10) / 400
    for _ in range(iterations):
        largest_step = 0.0
        for name in names:
            if name == anchor:
                continue
            gradient = curvature = 0.0
            for a, b, points, games in matches:
                if name not in (a, b):
                    continue
                score = (points + 0.5) / (games + 1)
                own, other, won = (a, b, score) if name == a else (b, a, 1 - score)
                expected = 1 / (1 + 10 ** ((ratings[other] - ratings[own]) / 400))
                gradient += games * (won - expected)
                curvature += games * expected * (1 - expected)
            step = gradient / (scale * curvature) if curvature else 0.0
            ratings[name] += step
            largest_step = max(largest_step, abs(step))
        if largest_step < 1e-3:
            break
    shift = ratings[anchor]
    return {name: rating - shift for name, rating in ratings.items()}


def resampled_fits(matches, draws=RANGE_DRAWS, seed=0):
    """What the same matches played again could give: the ratings fitted to `draws` resamples of the
    matches [(player, opponent, won, drew, lost)], each match's games drawn again with its own shares
    of wins, draws and losses (a parametric bootstrap; seeded, so that the same matches give the same
    ranges)."""
    rng = np.random.default_rng(seed)
    fits = []
    for _ in range(draws):
        resampled = []
        for player, opponent, won, drew, lost in matches:
            games = won + drew + lost
            w, d, _ = rng.multinomial(games, [won / games, drew / games, lost / games])
            resampled.append((player, opponent, w + d / 2, games))
        fits.append(fit_ratings(resampled))
    return fits


def rated_levels(levels, ratings, opponents, fits):
    """The levels with their Elo and nearest opponent (among `opponents`, rated too), and the range
    of RANGE_SHARE percent of the differences between the two over the resampled `fits`."""
    rated, tail = [], (100 - RANGE_SHARE) / 2
    for level in levels:
        name = level_name(level)
        nearest = min(opponents, key=lambda opponent: abs(ratings[opponent] - ratings[name]))
        low, high = np.percentile([fit[name] - fit[nearest] for fit in fits], [tail, 100 - tail])
        rated.append(Level(level.number, level.simulations, level.temperature, round(ratings[name]), nearest,
                           round(ratings[name] - ratings[nearest]), round(low), round(high)))
    return rated


def level_name(level):
    return f'level {level.number}'


def ladder_entry(levels, ratings, matches, how):
    """The `levels` entry of a model.json; `matches`: [(player, opponent, its points game by game)]."""
    return {'how': how, 'anchor': f'the {ANCHOR} is Elo 0',
            'ranges': f'near_low to near_high holds {RANGE_SHARE}% of the differences to the nearest opponent fitted to '
                      f'{RANGE_DRAWS} resamples of the matches (each match\'s games drawn again with its own shares of '
                      'wins, draws and losses)',
            'levels': [asdict(level) for level in levels],
            'opponents': {name: round(rating) for name, rating in sorted(ratings.items(), key=lambda item: item[1])
                          if not name.startswith('level ')},
            'matches': [{'player': a, 'opponent': b, 'won': points.count(1), 'drew': points.count(0.5), 'lost': points.count(0)}
                        for a, b, points in matches]}
