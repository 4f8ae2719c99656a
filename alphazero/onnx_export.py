"""Keras models to ONNX (export.py is the stage; everything that needs a current .onnx calls this).

Self-play runs the network on onnxruntime, which is faster than Keras for the many small batches
of a search. tf2onnx converts the model; onnxruntime then checks that both give the same outputs.

The ONNX file has one input and two outputs (three with a margin head), all with a dynamic batch size:
  input  'input'  float32 (batch, H, W, C)  the game's input planes (tic-tac-toe: 3, 3, 2)
  output 'pi'     float32 (batch, moves)    policy, a softmax over all moves
  output 'v'      float32 (batch, 1)        value for the side to move, in [-1, 1]
  output 'margin' float32 (batch, 1)        final margin for the side to move / MARGIN_SCALE, in [-1, 1]
"""
import os

import numpy as np

from alphazero.cli import UserError, quiet_keras, require_tensorflow
from alphazero.files import SIMS_KEY, atomic_output, load_model, recorded_sims
from alphazero.games import as_game, model_path, sample_positions
from alphazero.inference import (INPUT_NAME, MARGIN_NAME, OUTPUT_NAMES, SOURCE_KEY, KerasNetwork, OnnxNetwork,
                                 file_sha256)

ONNX_OPSET = 17
PARITY_POSITIONS = 64   # real positions on which Keras and onnxruntime must agree
PARITY_TOLERANCE = 1e-4


# tf2onnx has no converter for TensorFlow's Erfc, which the exact GELU of the Transformer uses:
# erfc(x) = 1 - erf(x), and ONNX has Erf
def convert_erfc(ctx, node, name, args):
    from tf2onnx import utils
    node.type = 'Erf'
    one = ctx.make_const(utils.make_name('one'), np.array(1, dtype=np.float32))
    ctx.insert_new_node_on_output('Sub', node.output[0], inputs=[one.output[0], node.output[0]])


# Convert h5_path to onnx_path; returns the largest difference between Keras and onnxruntime
def export(h5_path=None, onnx_path=None, game=None):
    require_tensorflow('the ONNX export')
    quiet_keras()
    import tensorflow as tf
    import tf2onnx
    game = as_game(game)
    h5_path = h5_path or model_path(game, 'best.h5')
    onnx_path = onnx_path or os.path.splitext(h5_path)[0] + '.onnx'
    model = load_model(h5_path, game)

    # Trace the model with named input and outputs and a free batch dimension
    signature = (tf.TensorSpec((None, *game.INPUT_SHAPE), tf.float32, name=INPUT_NAME),)

    @tf.function(input_signature=signature)
    def forward(planes):
        return dict(zip((*OUTPUT_NAMES, MARGIN_NAME), model(planes, training=False)))

    # Convert, and remember which .h5 file this came from
    onnx_model, _ = tf2onnx.convert.from_function(forward, input_signature=signature, opset=ONNX_OPSET,
                                                  custom_op_handlers={'Erfc': (convert_erfc, [])})
    entry = onnx_model.metadata_props.add()
    entry.key, entry.value = SOURCE_KEY, file_sha256(h5_path)
    sims = recorded_sims(h5_path)
    if sims:
        entry = onnx_model.metadata_props.add()
        entry.key, entry.value = SIMS_KEY, str(sims)

    # Check the outputs on real positions before the file goes into place
    with atomic_output(onnx_path) as temporary:
        with open(temporary, 'wb') as f:
            f.write(onnx_model.SerializeToString())
        planes = np.stack([state.planes() for state in sample_positions(game, PARITY_POSITIONS)])
        expected = KerasNetwork(model, traced=False).outputs(planes)
        actual = OnnxNetwork(temporary).outputs(planes)
        difference = max(float(np.abs(e - a).max()) for e, a in zip(expected, actual) if e is not None)
        if difference > PARITY_TOLERANCE:
            raise UserError(f'ONNX outputs differ from Keras by {difference:.2e} (> {PARITY_TOLERANCE}) on '
                            f'{PARITY_POSITIONS} positions; {onnx_path} was not written.')
    return difference


# Export the game's best.h5 (or another of its models) unless its .onnx is already the current
# conversion; returns True when it exported
def ensure_onnx(game=None, name='best.h5'):
    from alphazero.inference import onnx_is_current
    game = as_game(game)
    h5_path = model_path(game, name)
    if onnx_is_current(os.path.splitext(h5_path)[0] + '.onnx', h5_path):
        return False
    difference = export(h5_path, game=game)
    print(f'exported {h5_path} to ONNX (max |onnxruntime - Keras| = {difference:.2e})')
    return True
