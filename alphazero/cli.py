"""What every stage script shares on the command line: quiet TensorFlow and clear errors; and what
the engines that talk on standard input and output (GTP, USI) share."""
import argparse
import io
import logging
import os
import sys
import tempfile

# TensorFlow prints pages of C++ notices at import; keep warnings and errors only.
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')


class UserError(Exception):
    """Something the user can fix: the message says what is wrong and what to do."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, but a mistake on the command line is one line, like every other error of
    the scripts, that says what is wrong and points to --help (exit code 2), instead of the whole
    usage before it."""

    def error(self, message):
        shown = ''.join(c if c.isprintable() else repr(c)[1:-1] for c in message)  # the user's text on one line
        self.exit(2, f'error: {shown} ({self.prog} --help lists the flags)\n')


class _DropLegacyH5Notice(logging.Filter):
    # The book's file format is .h5; Keras 3 logs a notice on every save that calls it legacy.
    def filter(self, record):
        return 'HDF5 file via `model.save()`' not in record.getMessage()


# TensorFlow 2.21's native code prints these at import whatever TF_CPP_MIN_LOG_LEVEL says, twice
TENSORFLOW_NOTICES = ('All log messages before absl::InitializeLog()', 'oneDNN custom operations are on')


def keras_backend():
    """The backend Keras runs on: TensorFlow, the book's, unless KERAS_BACKEND names another (docs/scaling.md)."""
    return os.environ.get('KERAS_BACKEND', 'tensorflow')


def require_tensorflow(what):
    """Refuse, in one line, what only Keras on TensorFlow can do (the ONNX export, the Keras search)."""
    if keras_backend() != 'tensorflow':
        raise UserError(f'{what} needs Keras on TensorFlow: run it without KERAS_BACKEND={keras_backend()} '
                        '(docs/scaling.md)')


def quiet_keras():
    """Import TensorFlow without its start-up notices (anything else it prints still shows), and
    drop Keras' legacy-format notice. Call before the first `import keras` of a stage."""
    logging.getLogger('absl').addFilter(_DropLegacyH5Notice())
    if keras_backend() == 'jax':
        try:
            import jax  # noqa: F401
        except ModuleNotFoundError:
            raise UserError('KERAS_BACKEND=jax: JAX is not installed; install it with WITH_JAX=1 bash setup.sh '
                            '(docs/scaling.md), or run without KERAS_BACKEND') from None
    if 'tensorflow' in sys.modules:
        return
    # The notices come from C++, so catch file descriptor 2 itself while TensorFlow loads. Keras on
    # another backend (KERAS_BACKEND=jax) needs no TensorFlow, but loads it to read .h5 files where
    # it is installed
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as captured:
        os.dup2(captured.fileno(), 2)
        try:
            import tensorflow  # noqa: F401
        except ModuleNotFoundError:
            if keras_backend() == 'tensorflow':
                raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            captured.seek(0)
            for line in captured.read().decode(errors='replace').splitlines(keepends=True):
                if not any(notice in line for notice in TENSORFLOW_NOTICES):
                    sys.stderr.write(line)


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


def protocol_streams():
    """For an engine that talks on standard input and output (GTP, USI): (the lines it reads, the
    file it answers on). Only the protocol goes to standard output: fd 1 is sent to stderr, so that
    nothing a library prints can reach the GUI. Lines end at LF only (a CR is not a line break), and
    bytes that are not UTF-8 become replacement characters for the protocol to refuse."""
    answers = os.fdopen(os.dup(1), 'w')
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return io.TextIOWrapper(sys.stdin.buffer, errors='replace', newline='\n'), answers


def serve(lines, output, reply, finished):
    """Write reply(line) (text, or None for nothing) on `output` for every line of `lines`, until
    finished() says so, the input ends, or the reader closes the output (then the rest is dropped
    quietly)."""
    for line in lines:
        answer = reply(line)
        if answer is None:
            continue
        try:
            output.write(answer)
            output.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), output.fileno())  # nothing more to flush at exit
            return
        if finished():
            break
