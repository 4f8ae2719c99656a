"""How every stage script starts and fails: its argument parser, and run(), which turns a mistake the
user can fix into one line."""
import argparse
import sys

from alphazero.errors import UserError
from alphazero.files import FULL_DISK, no_space


class SettingsHelp(argparse.HelpFormatter):
    """--help says what a default of None means ("what the model records") instead of None."""

    def _get_help_string(self, action):
        text = super()._get_help_string(action)
        if action.default is None and getattr(action, 'unset', None):
            return text.replace('%(default)s', action.unset)
        return text


# Techniques that no recipe or shipped model used and that measured no gain left the code; their
# flags say so in one line (their results: docs/recipes.md; their code: commit 788faf1)
REMOVED_FLAGS = {'--forced-playouts': "KataGo's forced playouts", '--fast-sims': 'playout cap randomization',
                 '--full-share': 'playout cap randomization', '--exact-values': 'exact value targets',
                 '--fpu': 'first-play urgency'}


class RemovedFlag(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        parser.error(f'{option_string} was removed with {REMOVED_FLAGS[option_string]}, which measured no gain '
                     '(docs/recipes.md): leave it out')


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, but a mistake on the command line is one line, like every other error of
    the scripts, that says what is wrong and points to --help (exit code 2), instead of the whole
    usage before it. A removed flag says what removed it."""

    def __init__(self, *args, formatter_class=SettingsHelp, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)
        for flag in REMOVED_FLAGS:
            self.add_argument(flag, nargs='?', action=RemovedFlag, help=argparse.SUPPRESS)

    def error(self, message):
        shown = ''.join(c if c.isprintable() else repr(c)[1:-1] for c in message)  # the user's text on one line
        self.exit(2, f'error: {shown} ({self.prog} --help lists the flags)\n')


def run(main):
    """Run a script's main(); a UserError, a full disk or Ctrl-C ends it with a one-line message, not a
    traceback."""
    try:
        main()
    except UserError as error:
        print(f'{"エラー" if error.lang == "ja" else "error"}: {error}', file=sys.stderr)
        sys.exit(2)
    except OSError as error:
        if error.errno not in FULL_DISK:
            raise
        print(f'error: {no_space(error.filename or "a file")}', file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print('\ninterrupted', file=sys.stderr)
        sys.exit(130)
