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
# flags say so in one line (their results: docs/recipes.md; their code: commit 788faf1), and a flag
# whose technique came back in another form names its successor
REMOVED_FLAGS = {'--forced-playouts': "KataGo's forced playouts", '--fast-sims': 'playout cap randomization',
                 '--full-share': 'playout cap randomization', '--exact-values': 'exact value targets',
                 '--fpu': 'first-play urgency'}
SUCCESSORS = {'--fpu': "--first-play R (an untried move valued at its position's mean value less R)"}


class RemovedFlag(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        if option_string in SUCCESSORS:
            parser.error(f'{option_string} was removed with {REMOVED_FLAGS[option_string]} as it was then; use '
                         f'{SUCCESSORS[option_string]} (docs/recipes.md)')
        parser.error(f'{option_string} was removed with {REMOVED_FLAGS[option_string]}, which measured no gain '
                     '(docs/recipes.md): leave it out')


# argparse's own words, for a parser that speaks Japanese (a player's script run with --lang ja)
JAPANESE_FRAME = {'usage: ': '使い方: ', '\noptions:\n': '\nオプション:\n',
                  'show this help message and exit': 'このヘルプを表示して終了します'}


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, but a mistake on the command line is one line, like every other error of
    the scripts, that says what is wrong and points to --help (exit code 2), instead of the whole
    usage before it. A removed flag says what removed it. speak_japanese() turns its --help and its
    errors into Japanese."""

    def __init__(self, *args, formatter_class=SettingsHelp, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)
        self.lang = 'en'
        for flag in REMOVED_FLAGS:
            self.add_argument(flag, nargs='?', action=RemovedFlag, help=argparse.SUPPRESS)

    def speak_japanese(self, description, helps, groups=None):
        """--help in Japanese: the description, each flag's help by its dest (`helps`; a flag not
        named keeps its English), the groups' titles (`groups`: English title -> Japanese) and
        argparse's own words."""
        self.lang, self.description = 'ja', description
        for action in self._actions:
            action.help = helps.get(action.dest, action.help)
        for group in self._action_groups:
            group.title = (groups or {}).get(group.title, group.title)

    def format_help(self):
        text = super().format_help()
        if self.lang == 'ja':
            for english, japanese in JAPANESE_FRAME.items():
                text = text.replace(english, japanese)
        return text

    def error(self, message):
        shown = ''.join(c if c.isprintable() else repr(c)[1:-1] for c in message)  # the user's text on one line
        if self.lang == 'ja':
            self.exit(2, f'エラー: {shown}（{self.prog} --help でフラグの一覧を表示します）\n')
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
