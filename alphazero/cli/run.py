"""How every stage script starts and fails: its argument parser, and run(), which turns a mistake the
user can fix into one line."""
import argparse
import sys

from alphazero.errors import UserError


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, but a mistake on the command line is one line, like every other error of
    the scripts, that says what is wrong and points to --help (exit code 2), instead of the whole
    usage before it."""

    def error(self, message):
        shown = ''.join(c if c.isprintable() else repr(c)[1:-1] for c in message)  # the user's text on one line
        self.exit(2, f'error: {shown} ({self.prog} --help lists the flags)\n')


def run(main):
    """Run a script's main(); a UserError or Ctrl-C ends it with a one-line message, not a traceback."""
    try:
        main()
    except UserError as error:
        print(f'error: {error}', file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print('\ninterrupted', file=sys.stderr)
        sys.exit(130)
