"""int8 models: onnxruntime's static quantization of an exported model, calibrated on positions of the
game that the model itself reaches, and checked on others held back.

On a CPU the network bounds self-play and play, and int8 arithmetic runs several times as many
positions a second as float32 where the processor has VNNI or AMX (bench/bench_int8.py measures it).
The format is onnxruntime's QDQ with int8 weights per output channel and uint8 activations, their
ranges calibrated (min-max) on real positions. Where quantizing the first convolution, which reads
the input planes, costs the twin its agreement with the float model (point-Othello's, whose planes
hold the squares' point values: 42% of top moves the same, 91% with that convolution in float32),
that convolution stays float32. The int8 model carries the float model's metadata
(the .h5 file's hash, the simulations it records), so that `--backend int8` uses it only while it is
current.
"""
import contextlib
import logging
import os
import tempfile
from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from alphazero.errors import UserError
from alphazero.files import atomic_output
from alphazero.game.paths import model_path
from alphazero.network.onnx_export import ensure_onnx, onnx_is_current
from alphazero.network.runtimes import INPUT_NAME, OnnxNetwork

CALIBRATION_POSITIONS = 512   # positions whose activations set the int8 ranges
CHECK_POSITIONS = 512         # other positions on which the int8 model is compared with the float one
CALIBRATION_BATCH = 32
GAMES_AT_ONCE = 32            # games the model plays against itself at once to reach its positions
MIN_AGREEMENT = 0.9           # below this share of the same top moves, the first convolution stays float32
CALIBRATION_SEED = 0          # the games that reach the positions: fixed, so two exports of one model write one twin


@contextlib.contextmanager
def quiet_root_logger():
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        yield
    finally:
        root.setLevel(level)


def int8_path(onnx_path):
    """Where the int8 twin of an exported model lives: best.onnx -> best.int8.onnx."""
    return os.path.splitext(onnx_path)[0] + '.int8.onnx'


@dataclass(frozen=True)
class Int8Check:
    """How the int8 model compares with the float one on held-back positions."""
    positions: int
    top_move_agreement: float     # share of positions where both rank the same legal move first
    value_error: float            # mean |value int8 - value float|
    value_error_most: float       # the largest
    fully_quantized_agreement: Optional[float] = None  # set when the first convolution stayed float32: the
                                                       # top-move agreement of the twin without it


def model_positions(network, game, count, rng):
    """`count` unfinished positions of games `network` plays against itself, each move drawn from its
    policy over the legal moves: the positions self-play meets, without the cost of its search."""
    states, positions = [game.State() for _ in range(GAMES_AT_ONCE)], []
    while len(positions) < count:
        policies, _ = network(np.stack([state.planes() for state in states]))
        for i, state in enumerate(states):
            positions.append(state)
            legal = state.legal_actions()
            weights = np.asarray(policies[i][legal], dtype=np.float64) + 1e-9
            state = state.next(int(rng.choice(legal, p=weights / weights.sum())))
            states[i] = game.State() if state.is_done() else state
    return positions[:count]


def compare(float_network, int8_network, positions):
    planes = np.stack([state.planes() for state in positions])
    float_policies, float_values = float_network(planes)
    int8_policies, int8_values = int8_network(planes)
    agree = [int(np.argmax(f[s.legal_actions()])) == int(np.argmax(q[s.legal_actions()]))
             for s, f, q in zip(positions, float_policies, int8_policies)]
    errors = np.abs(np.asarray(float_values) - np.asarray(int8_values))
    return Int8Check(len(positions), float(np.mean(agree)), float(errors.mean()), float(errors.max()))


def quantize(onnx_path, game, output=None, seed=CALIBRATION_SEED):
    """Write the int8 twin of the exported model `onnx_path` (to `output`, else int8_path) and return
    its Int8Check on positions held back from the calibration."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    import onnx
    output = output or int8_path(onnx_path)
    float_network = OnnxNetwork(onnx_path)
    positions = model_positions(float_network, game, CALIBRATION_POSITIONS + CHECK_POSITIONS, np.random.default_rng(seed))
    order = np.random.default_rng(seed).permutation(len(positions))
    calibration = [positions[i] for i in order[:CALIBRATION_POSITIONS]]
    held_back = [positions[i] for i in order[CALIBRATION_POSITIONS:]]

    class Positions(CalibrationDataReader):
        def __init__(self):
            planes = np.stack([state.planes() for state in calibration]).astype(np.float32)
            self.batches = iter([{INPUT_NAME: planes[i:i + CALIBRATION_BATCH]}
                                 for i in range(0, len(planes), CALIBRATION_BATCH)])

        def get_next(self):
            return next(self.batches, None)

    source = onnx.load(onnx_path, load_external_data=False)
    properties = {p.key: p.value for p in source.metadata_props}
    first_conv = next((node.name for node in source.graph.node if node.op_type == 'Conv'), None)

    def write(temporary, excluded):
        try:  # the quantizer logs advice to pre-process on every call: not a warning for our users
            with quiet_root_logger():
                quantize_static(onnx_path, temporary, Positions(), quant_format=QuantFormat.QDQ, per_channel=True,
                                weight_type=QuantType.QInt8, activation_type=QuantType.QUInt8, nodes_to_exclude=excluded)
        except Exception as error:  # an operator the quantizer cannot handle, a damaged model
            raise UserError(f'{onnx_path} could not be quantized ({str(error).splitlines()[0][:120]})') from None
        model = onnx.load(temporary)
        onnx.helper.set_model_props(model, properties)  # the source .h5's hash and the simulations it records
        onnx.save(model, temporary)
        return compare(float_network, OnnxNetwork(temporary), held_back)

    with atomic_output(output) as temporary:
        check = write(temporary, [])
        if check.top_move_agreement < MIN_AGREEMENT and first_conv:
            with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(temporary))) as folder:
                retried_path = os.path.join(folder, 'first-conv-float32.onnx')
                retried = write(retried_path, [first_conv])
                if retried.top_move_agreement > check.top_move_agreement:
                    os.replace(retried_path, temporary)
                    check = replace(retried, fully_quantized_agreement=check.top_move_agreement)
    return check


def ensure_int8(game, name='best.h5'):
    """Quantize the game's model (exported to ONNX first when needed) unless its int8 twin is current,
    as self-play with --backend int8 needs each cycle; returns True when it wrote one."""
    ensure_onnx(game, name)
    h5 = model_path(game, name)
    onnx_path = os.path.splitext(h5)[0] + '.onnx'
    if onnx_is_current(int8_path(onnx_path), h5):
        return False
    check = quantize(onnx_path, game)
    print(f'quantized {onnx_path} to int8 ({describe_check(check)})')
    return True


def describe_check(check):
    """How a twin agrees with its float model, in words."""
    words = (f'on {check.positions} positions the same top move as float32 in {100 * check.top_move_agreement:.1f}%, '
             f'|value int8 - float32| {check.value_error:.3f} on average (at most {check.value_error_most:.3f})')
    if check.fully_quantized_agreement is not None:
        words += (f'; its first convolution stays float32, as with it in int8 the top moves agreed in only '
                  f'{100 * check.fully_quantized_agreement:.1f}%')
    return words
