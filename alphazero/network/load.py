"""The network to play with: onnxruntime when the exported .onnx is current, else Keras (load_network)."""
import os

from alphazero.errors import UserError
from alphazero.network.keras_setup import keras_backend, require_tensorflow
from alphazero.network.model_file import (
    check_model_file,
    check_shapes,
    load_model,
    model_advice,
)
from alphazero.network.onnx_export import converted, onnx_is_current
from alphazero.network.quantize import int8_path
from alphazero.network.runtimes import KerasNetwork, OnnxNetwork


def load_onnx(path, game):
    """An exported model on onnxruntime, checked against the game."""
    check_model_file(path, game)
    network = OnnxNetwork(path, model_advice(game, path))
    check_shapes(game, path, network.input_shape, [o.shape[1:] for o in network.session.get_outputs()])
    return network


def load_network(h5_path, game, backend='auto'):
    """The network of a model file: onnxruntime when its .onnx export is current, else Keras (on
    Keras with JAX, onnxruntime on the model converted in memory). An .onnx file given directly
    runs on onnxruntime.

    backend: 'auto', 'onnx' (the export must be current), 'int8' (its int8 twin, which
    `export.py --int8` writes, must be current) or 'keras'.
    Returns (network, description) so that scripts can say what they run.
    """
    if h5_path.endswith('.onnx'):
        return load_onnx(h5_path, game), f'{h5_path} on onnxruntime'
    onnx_path = os.path.splitext(h5_path)[0] + '.onnx'
    if backend == 'int8':
        quantized = int8_path(onnx_path)
        if not (os.path.exists(h5_path) and onnx_is_current(quantized, h5_path)):
            raise UserError(f'{quantized} is missing or older than {h5_path}: run `python export.py {h5_path} --int8` first.')
        return load_onnx(quantized, game), f'{quantized} (int8) on onnxruntime'
    if backend in ('auto', 'onnx') and os.path.exists(h5_path) and onnx_is_current(onnx_path, h5_path):
        network = OnnxNetwork(onnx_path)
        if network.input_shape[-len(game.INPUT_SHAPE):] == tuple(game.INPUT_SHAPE):
            return network, f'{onnx_path} on onnxruntime'
    if backend == 'onnx':
        raise UserError(f'{onnx_path} is missing or older than {h5_path}: run `python export.py` first.')
    if backend == 'auto' and keras_backend() != 'tensorflow':  # Keras' search needs TensorFlow's trace
        data, _ = converted(h5_path, game, f'{h5_path} cannot run on onnxruntime')
        return OnnxNetwork(data), f'{h5_path} converted to ONNX, on onnxruntime'
    require_tensorflow(f'the search on Keras ({h5_path} has no current .onnx export, or --backend keras)')
    return KerasNetwork(load_model(h5_path, game)), f'{h5_path} on Keras'
