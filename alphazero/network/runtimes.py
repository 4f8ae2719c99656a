"""One inference interface, two backends.

A network is a callable: a batch of input planes (N, H, W, C) float32 in, policies (N, A) and
values (N,) out, both float32 NumPy arrays. Every search calls only that.
- OnnxNetwork runs the file export.py writes, on onnxruntime (the fast path).
- KerasNetwork runs a Keras model through one tf.function traced for any batch size.

A model with a margin head (dual_network.py --margin-head) has a third output, the final margin;
`outputs(planes)` returns all three, and the value a network returns is its value head's unless
its `margin_weight` W is set: then (1 - W) x value + W x margin (set_margin_weight).
"""
import os
import time
from contextlib import contextmanager

import numpy as np

from alphazero.errors import UserError
from alphazero.network.keras_setup import keras_backend, quiet_keras

INPUT_NAME = 'input'                 # ONNX input: (batch, H, W, C) float32


OUTPUT_NAMES = ('pi', 'v')           # ONNX outputs: policy (batch, A) softmax, value (batch, 1) tanh


MARGIN_NAME = 'margin'               # and with a margin head: margin (batch, 1) tanh


SOURCE_KEY = 'source_sha256'         # ONNX metadata: hash of the .h5 file it was converted from


# The device the networks run on, chosen once per process with --device (docs/scaling.md)
PROVIDERS = {'cpu': ['CPUExecutionProvider'], 'gpu': ['CUDAExecutionProvider', 'CPUExecutionProvider']}


# cuDNN's convolutions chosen by its heuristic: trying each one for every new batch shape took minutes
PROVIDER_OPTIONS = {'CUDAExecutionProvider': {'cudnn_conv_algo_search': 'HEURISTIC'}}


device = 'cpu'


def use_device(name):
    """Run onnxruntime on 'cpu', the default, or 'gpu', and then check that Keras can train there."""
    global device
    if name == 'gpu':
        import onnxruntime
        # onnxruntime-gpu finds the CUDA and cuDNN of the nvidia-* pip packages only when told to
        if hasattr(onnxruntime, 'preload_dlls'):
            onnxruntime.preload_dlls()
        if 'CUDAExecutionProvider' not in onnxruntime.get_available_providers():
            raise UserError('--device gpu: onnxruntime finds no CUDA GPU here; on a machine with an NVIDIA GPU '
                            'install the GPU builds (docs/scaling.md), or leave out --device')
        if not keras_finds_gpu():
            advice = ('run with KERAS_BACKEND=jax' if keras_backend() == 'tensorflow' else
                      'install its CUDA build with WITH_GPU=1 bash setup.sh')
            raise UserError(f'--device gpu: Keras on {keras_backend()} finds no GPU: {advice} (docs/scaling.md)')
    device = name


def keras_finds_gpu():
    """Whether the backend Keras runs on (TensorFlow, or JAX with KERAS_BACKEND=jax) sees a GPU."""
    if keras_backend() == 'jax':
        import jax
        return any(d.platform == 'gpu' for d in jax.devices())
    quiet_keras()
    import tensorflow as tf
    return bool(tf.config.list_physical_devices('GPU'))


def add_device_flag(parser):
    parser.add_argument('--device', choices=sorted(PROVIDERS), default='cpu',
                        help='where the networks run: cpu, or gpu (an NVIDIA GPU with the GPU builds; docs/scaling.md) '
                             '(default: %(default)s)')


class Network:
    """What both backends share: the value the search sees, from the outputs of `outputs(planes)`."""
    margin_weight = 0.0
    has_margin = False

    def __call__(self, planes):
        policies, values, margins = self.outputs(planes)
        if self.margin_weight:
            values = (1 - self.margin_weight) * values + self.margin_weight * margins
        return policies, values


def set_margin_weight(network, weight, path):
    """Let the search value positions partly by the margin head (weight 0: by the value alone)."""
    if weight and not network.has_margin:
        raise UserError(f'--margin-weight {weight:g}: {path} has no margin head (train one with --margin-head)')
    network.margin_weight = weight
    return network


class KerasNetwork(Network):
    def __init__(self, model, traced=True):
        self.model = model
        self.has_margin = len(model.outputs) == 3
        # One trace serves every batch size, so the search never pays Keras' per-call overhead; a
        # network asked once (the export's check) runs eagerly, on any backend, since tracing it
        # would cost more and a trace every cycle makes TensorFlow warn of retracing
        forward = lambda planes: model(planes, training=False)  # noqa: E731
        if traced:
            import tensorflow as tf
            signature = [tf.TensorSpec((None, *model.input_shape[1:]), tf.float32)]
            forward = tf.function(forward, input_signature=signature)
        self._forward = forward

    def outputs(self, planes):
        """Policies (N, A), values (N,) and margins (N,) or None."""
        outputs = self._forward(np.asarray(planes, dtype=np.float32))
        policies, values, *margins = (np.asarray(output) for output in outputs)
        return policies, values.reshape(-1), margins[0].reshape(-1) if margins else None


@contextmanager
def full_float32():
    """Keras computes in full float32 inside: a GPU multiplies in TF32 by default, about 1e-3 off."""
    if keras_backend() == 'jax':
        import jax
        with jax.default_matmul_precision('float32'):
            yield
        return
    import tensorflow as tf
    enabled = tf.config.experimental.tensor_float_32_execution_enabled()
    tf.config.experimental.enable_tensor_float_32_execution(False)
    try:
        yield
    finally:
        tf.config.experimental.enable_tensor_float_32_execution(enabled)


class OnnxNetwork(Network):
    """An exported model on onnxruntime: `path` is the .onnx file (or its bytes, as Ray workers get it)."""

    def __init__(self, path, advice='move it away; `python export.py` writes it again from the .h5 file', threads=None,
                 run_on=None):
        import onnxruntime
        run_on = run_on or device
        options = onnxruntime.SessionOptions()
        # The CPUs this process may use (`taskset -c 0 python ...` gives it one), as TensorFlow counts them
        usable = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count() or 1
        options.intra_op_num_threads = threads or usable
        name = path if isinstance(path, str) else 'the model sent'
        try:
            self.session = onnxruntime.InferenceSession(
                path, options, providers=PROVIDERS[run_on],
                provider_options=[PROVIDER_OPTIONS.get(provider, {}) for provider in PROVIDERS[run_on]])
        except Exception as error:
            raise UserError(f'{name} is not a readable ONNX model ({str(error).splitlines()[0][:80]}): {advice}.') from None
        # onnxruntime falls back to the CPU when CUDA's libraries do not load; --device gpu must not
        if PROVIDERS[run_on][0] not in self.session.get_providers():
            raise UserError(f'--device {run_on}: onnxruntime could not start {PROVIDERS[run_on][0]} for {name} '
                            '(its messages above name the library it missed); see docs/scaling.md')
        self.path, self.run_on = path, run_on
        names = ([i.name for i in self.session.get_inputs()], [o.name for o in self.session.get_outputs()])
        if names[0] != [INPUT_NAME] or sorted(names[1]) not in (sorted(OUTPUT_NAMES), sorted([*OUTPUT_NAMES, MARGIN_NAME])):
            raise UserError(f'{name} has inputs/outputs {names}, not {[INPUT_NAME]} and {list(OUTPUT_NAMES)} '
                            f'(and {MARGIN_NAME!r}): {advice}.')
        self.has_margin = MARGIN_NAME in names[1]
        self.output_names = [*OUTPUT_NAMES, MARGIN_NAME] if self.has_margin else list(OUTPUT_NAMES)
        self.metadata = self.session.get_modelmeta().custom_metadata_map
        self.input_shape = tuple(self.session.get_inputs()[0].shape[1:])

    def outputs(self, planes):
        """Policies (N, A), values (N,) and margins (N,) or None."""
        planes = np.asarray(planes, dtype=np.float32)
        count = len(planes)
        if self.run_on == 'gpu':  # a few batch shapes, not one per count: CUDA prepares each shape it sees once, slowly
            padding = (1 << (count - 1).bit_length()) - count
            planes = np.concatenate([planes, np.zeros((padding, *planes.shape[1:]), np.float32)])
        policies, values, *margins = self.session.run(self.output_names, {INPUT_NAME: planes})
        return policies[:count], values.reshape(-1)[:count], margins[0].reshape(-1)[:count] if margins else None


def evaluation_rate(network, planes, seconds):
    """Positions a network evaluates per second, called on the same batch `planes` again and again
    for `seconds` after three calls of warm-up."""
    for _ in range(3):
        network(planes)
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        network(planes)
        calls += 1
    return calls * len(planes) / (time.perf_counter() - start)
