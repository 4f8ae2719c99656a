"""Where a setting's value comes from, in one place: the book's constant (the default of its settings
object, alphazero/settings.py), then the game's recipe (games/NAME/recipe.py), then a preset of
train_cycle.py (--preset), then the flag typed.

A recipe is a Python file of dicts, one per purpose; a stage script reads only the purposes it
serves (self_play.py: search, self_play and exploration; train_cycle.py: all). A key that no purpose
has, or that the script has no flag for, is an error that names it: a typo never passes silently.
"""
import argparse
import os
import runpy
import sys

import games
from alphazero.errors import UserError
from alphazero.game.registry import GAMES
from alphazero.settings import (
    CycleSettings,
    EvaluationSettings,
    ExplorationSettings,
    NetworkSettings,
    PlaySettings,
    SearchSettings,
    SelfPlaySettings,
    TrainingSettings,
    flagged,
)



# The purposes of a recipe, each the settings object it fills (alphazero/settings.py); a recipe may
# set each of its flagged fields
PURPOSES = {
    'network': NetworkSettings,          # dual_network.py
    'search': SearchSettings,            # every search
    'self_play': SelfPlaySettings,       # self_play.py
    'exploration': ExplorationSettings,  # self_play.py
    'training': TrainingSettings,        # train_network.py
    'play': PlaySettings,                # what a saved model records
    'evaluation': EvaluationSettings,    # evaluate_best_player.py
    'cycle': CycleSettings,              # train_cycle.py
    'student': NetworkSettings,          # distill.py's student
}


def allowed(purpose):
    return [item.name for item in flagged(PURPOSES[purpose])]


ALL_PURPOSES = tuple(purpose for purpose in PURPOSES if purpose != 'student')  # what train_cycle.py trains with


def recipe_path(name):
    """games/NAME/recipe.py, in the first games/ folder on Python's path that has one (None: none)."""
    paths = [os.path.join(folder, name, 'recipe.py') for folder in games.__path__]
    return next((path for path in paths if os.path.isfile(path)), None)


def read_recipe(name):
    """{purpose: {setting: value}} of the game's recipe.py ({} when it has none), checked."""
    path = recipe_path(name)
    if path is None:
        return {}
    recipe = {key: value for key, value in runpy.run_path(path).items() if not key.startswith('_')}
    for purpose, values in recipe.items():
        if purpose not in PURPOSES:
            raise UserError(f'{path}: {purpose!r} is not a purpose of a recipe; use {", ".join(PURPOSES)}')
        check_settings(values, allowed(purpose), f'{path}: {purpose}')
    return recipe


def check_settings(values, allowed, where):
    if not isinstance(values, dict):
        raise UserError(f'{where} is not a dict of settings')
    unknown = [key for key in values if key not in allowed]
    if unknown:
        raise UserError(f'{where}: {", ".join(map(repr, unknown))} is not one of its settings ({", ".join(allowed)})')


def recipe_defaults(name, purposes, preset=None):
    """The defaults that the game's recipe (and a preset, {setting: value}) give for these purposes."""
    recipe = read_recipe(name)
    defaults = {key: value for purpose in purposes for key, value in recipe.get(purpose, {}).items()}
    if preset:
        check_settings(preset, [key for purpose in purposes for key in allowed(purpose)], 'the preset')
        defaults.update(preset)
    return defaults


def parse_game_args(parser, argv=None, purposes=(), presets=None):
    """Parse the command line over the defaults of the chosen game's recipe for `purposes` and of the
    chosen --preset (`presets`: {name: {setting: value}}); the flags typed always win, and --help
    shows the defaults that apply to the game named with it."""
    # The game and the preset are read first, alone, so that the help printed next shows the
    # game's defaults; a mistake there is left for the full parser to report
    argv = sys.argv[1:] if argv is None else argv
    first = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    first.error = refuse
    first.add_argument('--game', default=parser.get_default('game'))
    first.add_argument('--preset', default=parser.get_default('preset'))
    try:
        chosen = first.parse_known_args(argv)[0]
    except argparse.ArgumentError:
        chosen = argparse.Namespace(game=None, preset=None)
    preset = (presets or {}).get(chosen.preset)
    defaults = recipe_defaults(chosen.game, purposes, preset) if chosen.game in GAMES else {}
    flags = {action.dest for action in parser._actions}
    missing = [key for key in defaults if key not in flags]
    if missing:
        raise UserError(f'{parser.prog} has no flag for the settings {", ".join(missing)} of its purposes {purposes}')
    parser.set_defaults(**defaults)
    return parser.parse_args(argv)


def refuse(message):
    raise argparse.ArgumentError(None, message)
