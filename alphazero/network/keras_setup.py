"""Keras as the stages use it: which backend it runs on, and TensorFlow imported without its start-up notices."""
import logging
import os
import sys
import tempfile

from alphazero.errors import UserError


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
