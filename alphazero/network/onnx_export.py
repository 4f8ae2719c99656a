"""Keras models to ONNX (export.py is the stage; everything that needs a current .onnx calls this).

Self-play runs the network on onnxruntime, which is faster than Keras for the many small batches
of a search. tf2onnx converts the model (jax2onnx when Keras runs on JAX, which needs no TensorFlow);
onnxruntime then checks that both give the same outputs.

The ONNX file has one input and two outputs (three with a margin head), all with a dynamic batch size:
  input  'input'  float32 (batch, H, W, C)  the game's input planes (tic-tac-toe: 3, 3, 2)
  output 'pi'     float32 (batch, moves)    policy, a softmax over all moves
  output 'v'      float32 (batch, 1)        value for the side to move, in [-1, 1]
  output 'margin' float32 (batch, 1)        final margin for the side to move / MARGIN_SCALE, in [-1, 1]
"""
import hashlib
import os

import numpy as np

from alphazero.errors import UserError
from alphazero.files import atomic_output
from alphazero.game.paths import model_path
from alphazero.game.registry import as_game, sample_positions
from alphazero.network.keras_setup import keras_backend, quiet_keras
from alphazero.network.model_file import SIMS_KEY, check_model_file, load_model, recorded_sims
from alphazero.network.runtimes import (
    INPUT_NAME,
    MARGIN_NAME,
    OUTPUT_NAMES,
    SOURCE_KEY,
    KerasNetwork,
    OnnxNetwork,
    full_float32,
)


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            digest.update(block)
    return digest.hexdigest()


def onnx_is_current(onnx_path, h5_path):
    """True when onnx_path exists and was exported from exactly the file at h5_path."""
    if not os.path.exists(onnx_path):
        return False
    import onnx
    try:
        model = onnx.load(onnx_path, load_external_data=False)
    except Exception:
        return False
    source = {p.key: p.value for p in model.metadata_props}.get(SOURCE_KEY)
    return source == file_sha256(h5_path)


ONNX_OPSET = 17


JAX_ONNX_OPSET = 18     # jax2onnx writes ReduceMean's axes as an input, which ONNX allows from opset 18


PARITY_POSITIONS = 64   # real positions on which Keras and onnxruntime must agree


PARITY_TOLERANCE = 1e-4


# tf2onnx has no converter for TensorFlow's Erfc, which the exact GELU of the Transformer uses:
# erfc(x) = 1 - erf(x), and ONNX has Erf
def convert_erfc(ctx, node, name, args):
    from tf2onnx import utils
    node.type = 'Erf'
    one = ctx.make_const(utils.make_name('one'), np.array(1, dtype=np.float32))
    ctx.insert_new_node_on_output('Sub', node.output[0], inputs=[one.output[0], node.output[0]])


# The model as an ONNX graph with named input and outputs and a free batch dimension, by tf2onnx
def convert_tensorflow(model, game):
    import tensorflow as tf
    import tf2onnx
    signature = (tf.TensorSpec((None, *game.INPUT_SHAPE), tf.float32, name=INPUT_NAME),)

    @tf.function(input_signature=signature)
    def forward(planes):
        return dict(zip((*OUTPUT_NAMES, MARGIN_NAME), model(planes, training=False)))

    onnx_model, _ = tf2onnx.convert.from_function(forward, input_signature=signature, opset=ONNX_OPSET,
                                                  custom_op_handlers={'Erfc': (convert_erfc, [])})
    return onnx_model


# The same by jax2onnx, for Keras on JAX (KERAS_BACKEND=jax)
def convert_jax(model, game):
    import jax
    try:
        import jax2onnx
    except ModuleNotFoundError:
        raise UserError('the ONNX export on Keras with JAX needs jax2onnx: install it with WITH_JAX=1 bash setup.sh '
                        '(docs/scaling.md), or run without KERAS_BACKEND=jax') from None
    planes = jax.ShapeDtypeStruct(('batch', *game.INPUT_SHAPE), np.float32)
    return jax2onnx.to_onnx(lambda x: tuple(model(x, training=False)), inputs=[planes], opset=JAX_ONNX_OPSET,
                            input_names=[INPUT_NAME], output_names=[*OUTPUT_NAMES, MARGIN_NAME][:len(model.outputs)])


CONVERTERS = {'tensorflow': convert_tensorflow, 'jax': convert_jax}


# The last conversion, by the SHA-256 of its .h5 file: the book's gated cycle converts latest.h5 to
# search with it on JAX, and exports the same file again when it becomes best.h5
last_conversion = {}


# The model of h5_path as the bytes of an ONNX file, checked against Keras on real positions (a
# difference beyond the tolerance raises, saying `failure`); returns them and the largest difference
def converted(h5_path, game, failure):
    quiet_keras()
    convert = CONVERTERS.get(keras_backend())
    if convert is None:
        raise UserError(f'the ONNX export needs Keras on TensorFlow or JAX, not KERAS_BACKEND={keras_backend()}')
    source = (file_sha256(h5_path), game.NAME, keras_backend())
    if source in last_conversion:
        return last_conversion[source]
    model = load_model(h5_path, game)

    # Convert, and remember which .h5 file this came from
    onnx_model = convert(model, game)
    entry = onnx_model.metadata_props.add()
    entry.key, entry.value = SOURCE_KEY, source[0]
    sims = recorded_sims(h5_path)
    if sims:
        entry = onnx_model.metadata_props.add()
        entry.key, entry.value = SIMS_KEY, str(sims)
    data = onnx_model.SerializeToString()

    # The conversion is checked, not the device: both sides in full float32, onnxruntime on the CPU
    planes = np.stack([state.planes() for state in sample_positions(game, PARITY_POSITIONS)])
    with full_float32():
        expected = KerasNetwork(model, traced=False).outputs(planes)
    actual = OnnxNetwork(data, run_on='cpu').outputs(planes)
    difference = max(float(np.abs(e - a).max()) for e, a in zip(expected, actual) if e is not None)
    if difference > PARITY_TOLERANCE:
        raise UserError(f'ONNX outputs differ from Keras by {difference:.2e} (> {PARITY_TOLERANCE}) on '
                        f'{PARITY_POSITIONS} positions; {failure}.')
    last_conversion.clear()
    last_conversion[source] = data, difference
    return data, difference


# Convert h5_path to onnx_path; returns the largest difference between Keras and onnxruntime
def export(h5_path=None, onnx_path=None, game=None):
    game = as_game(game)
    h5_path = h5_path or model_path(game, 'best.h5')
    onnx_path = onnx_path or os.path.splitext(h5_path)[0] + '.onnx'
    data, difference = converted(h5_path, game, f'{onnx_path} was not written')
    with atomic_output(onnx_path) as temporary:
        with open(temporary, 'wb') as f:
            f.write(data)
    return difference


# Export the game's best.h5 (or another of its models) unless its .onnx is already the current
# conversion; returns True when it exported
def ensure_onnx(game=None, name='best.h5'):
    game = as_game(game)
    h5_path = model_path(game, name)
    check_model_file(h5_path, game)
    if onnx_is_current(os.path.splitext(h5_path)[0] + '.onnx', h5_path):
        return False
    difference = export(h5_path, game=game)
    print(f'exported {h5_path} to ONNX (max |onnxruntime - Keras| = {difference:.2e})')
    return True
