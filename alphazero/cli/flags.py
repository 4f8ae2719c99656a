"""The command line's flags. Those of the settings objects (alphazero/settings.py) are made from
their fields, with the defaults the stage script passes in (its book constants, or the game's
recipe: alphazero/cli/settings.py); the rest belong to how a script runs, not to a purpose."""
import argparse
import re
from dataclasses import fields

from alphazero.game.shogi_handicaps import handicap_named
from alphazero.limits import engine_command, seed, whole_number
from alphazero.network.runtimes import add_device_flag
from alphazero.play.agent import AgentSpec
from alphazero.settings import SearchSettings, flagged


def add_settings_flags(parser, settings_class, only=None, **defaults):
    """A flag per field of `settings_class` (only those named in `only`, when given), in a group of
    the --help; `defaults` replace the class's."""
    words = re.sub(r'(?<!^)(?=[A-Z])', '-', settings_class.__name__.removesuffix('Settings')).lower()
    group = parser.add_argument_group(f'{words} settings (alphazero/settings.py\'s {settings_class.__name__})')
    for item in flagged(settings_class):
        if only is not None and item.name not in only:
            continue
        default = defaults.get(item.name, item.default)
        meta, dashed = item.metadata, item.name.replace('_', '-')
        if isinstance(item.default, bool):  # a switch: --name turns it on, --no-name off
            action = group.add_argument(f'--no-{dashed}' if item.default else f'--{dashed}', dest=item.name,
                                        action='store_false' if item.default else 'store_true', help=meta['help'])
            action.default = default
            continue
        if isinstance(item.default, tuple):  # a list: each use of the flag adds one
            group.add_argument(f'--{dashed}', dest=item.name, action='append', type=meta['check'],
                               metavar=meta['metavar'], help=meta['help'] + ' (repeatable) (default: none)')
            continue
        action = group.add_argument(f'--{dashed}', dest=item.name, type=meta['check'], default=default,
                                    metavar=meta['metavar'], choices=meta['choices'],
                                    help=meta['help'] + ' (default: %(default)s)')
        action.unset = meta['unset']  # said instead of None (SettingsHelp)


def settings_of(settings_class, args, **replaced):
    """The settings object of the parsed flags (the class's default where a script has no flag)."""
    given = {}
    for item in fields(settings_class):
        if not hasattr(args, item.name):
            continue
        value = getattr(args, item.name)
        if isinstance(item.default, tuple):  # a repeatable flag: a list, or None when never given
            if value is None:
                continue
            value = tuple(value)
        given[item.name] = value
    return settings_class(**{**given, **replaced})


def agent_spec(args, **replaced):
    """The AgentSpec (alphazero/play/agent.py) of a player's flags: --model, --sims (None: load_agent
    resolves it), --level, --settai, --backend and the search settings."""
    given = {key: getattr(args, key) for key in ('model', 'sims', 'level', 'settai', 'backend') if hasattr(args, key)}
    search = settings_of(SearchSettings, args, sims=args.sims or SearchSettings.sims)
    return AgentSpec(**{**given, 'search': search, **replaced})


def handicap_flag(text):
    """A handicap (駒落ち) as a flag names it, in Japanese or English: its KIF name."""
    try:
        return handicap_named(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_run_flags(parser):
    """How a script that searches runs: its inference backend, random seed and device."""
    add_backend_flag(parser)
    parser.add_argument('--seed', type=seed, help='random seed for reproducible games')
    add_device_flag(parser)


def add_backend_flag(parser):
    parser.add_argument('--backend', choices=('auto', 'onnx', 'int8', 'keras'), default='auto',
                        help='inference: onnxruntime when best.onnx is current, else Keras; int8: the int8 twin that '
                             '`export.py --int8` writes, several times as fast on CPUs with VNNI or AMX '
                             '(docs/scaling.md) (default: %(default)s)')


def add_level_flag(parser):
    parser.add_argument('--level', type=whole_number(1, 10), metavar='N',
                        help='play at level N, 1 the weakest: the policy alone up to four times the model\'s simulations '
                             '(their measured strength: docs/strength.md) (default: the model\'s own simulations)')


def add_settai_flag(parser):
    parser.add_argument('--settai', action='store_true',
                        help='settai mode (接待): the AI aims for a close result, not a win, without playing a move its '
                             'search sees as losing (docs/recipes.md)')


def add_engine_flag(parser):
    """Other programs as opponents: GTP engines, USI engines for full shogi."""
    parser.add_argument('--engine', action='append', default=[], metavar='COMMAND', type=engine_command,
                        help='also play this GTP engine, for example --engine "/usr/games/gtp-rhino -l 1", or for '
                             'full shogi a USI engine and its go line, "/usr/games/fairy-stockfish; go depth 3" '
                             '(repeat the flag for several engines)')
