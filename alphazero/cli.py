"""What every stage script shares on the command line: quiet TensorFlow and clear errors."""
import logging
import os
import sys

# TensorFlow prints pages of C++ notices at import; keep warnings and errors only.
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')


class UserError(Exception):
    """Something the user can fix: the message says what is wrong and what to do."""


class _DropLegacyH5Notice(logging.Filter):
    # The book's file format is .h5; Keras 3 logs a notice on every save that calls it legacy.
    def filter(self, record):
        return 'HDF5 file via `model.save()`' not in record.getMessage()


def quiet_keras():
    logging.getLogger('absl').addFilter(_DropLegacyH5Notice())


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
