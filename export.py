# ====================
# Export a Keras model to ONNX (not in the book)
# ====================
# Self-play runs the network on onnxruntime, which is faster than Keras for the many small batches
# of a search. tf2onnx converts the model (jax2onnx on Keras with JAX, KERAS_BACKEND=jax);
# onnxruntime then checks that both give the same outputs.
#
# The conversion itself is alphazero/network/onnx_export.py's export(), which every stage that needs a
# current .onnx calls (ensure_onnx); this script runs it on the file you name. With --int8 it also
# writes the int8 twin (alphazero/network/quantize.py), which --backend int8 plays and self-plays with.

import os

from alphazero.cli.run import ArgumentParser, run
from alphazero.errors import UserError
from alphazero.files import check_output
from alphazero.game.registry import add_game_flag, load_game
from alphazero.game.paths import model_path
from alphazero.limits import file_path
from alphazero.network.onnx_export import PARITY_POSITIONS, export
from alphazero.network.quantize import CALIBRATION_POSITIONS, describe_check, int8_path, quantize


def parse_args(argv=None):
    parser = ArgumentParser(description='Convert a Keras model (.h5) to ONNX with tf2onnx (jax2onnx with '
                                        'KERAS_BACKEND=jax) and check that onnxruntime gives the same outputs.')
    add_game_flag(parser)
    parser.add_argument('model', nargs='?', type=file_path, help="the .h5 file (default: the game's best.h5)")
    parser.add_argument('--output', type=file_path, help='the .onnx file (default: beside the model, same name)')
    parser.add_argument('--int8', action='store_true',
                        help='also write the int8 twin (NAME.int8.onnx), calibrated on positions the model reaches in '
                             'games against itself, and say how it agrees with the float model on others')
    args = parser.parse_args(argv)
    game = load_game(args.game)
    args.model = args.model or model_path(game, 'best.h5')
    args.output = args.output or os.path.splitext(args.model)[0] + '.onnx'
    if not args.output.endswith('.onnx'):
        raise UserError(f'--output {args.output}: the ONNX file\'s name must end in .onnx')
    check_output(args.output, args.model)
    return args


def main():
    args = parse_args()
    h5_path, onnx_path = args.model, args.output
    game = load_game(args.game)
    difference = export(h5_path, onnx_path, game)
    print(f'wrote {onnx_path}: max |onnxruntime - Keras| = {difference:.2e} on {PARITY_POSITIONS} positions')
    if args.int8:
        check = quantize(onnx_path, game)
        print(f'wrote {int8_path(onnx_path)}: calibrated on {CALIBRATION_POSITIONS} positions; held back, '
              f'{describe_check(check)}')


if __name__ == '__main__':
    run(main)
