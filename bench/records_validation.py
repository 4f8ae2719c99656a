"""Models measured side by side on the validation games of record files, as train_records.py splits them.

The same games train_records.py holds out of every run on these files (a hash of each game's moves), so
a model trained on any of the files is measured on games it never saw, and models trained on
different subsets of them compare on the same positions. Prints each model's loss (policy + value),
moves predicted and results predicted, and writes them to --out (JSON).
Run: .venv/bin/python bench/records_validation.py --game shogi9 --opening 6 --model A.h5 --model B.h5 \
         records/shogi9/*.csa.xz [--validation 0.1] [--out results.json]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault('TF_CPP_MIN_LOG_LEVEL', '2')

from alphazero.cli.run import ArgumentParser, run  # noqa: E402
from alphazero.errors import UserError  # noqa: E402
from alphazero.files import write_json  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402
from alphazero.limits import file_path, real_number, whole_number  # noqa: E402
from alphazero.network.model_file import load_model  # noqa: E402
from alphazero.records.positions import read_games, records_to_arrays  # noqa: E402
from train_records import RECORD_GAMES, TR_VALIDATION, is_validation_game, measure  # noqa: E402


def records_validation(game, games, models, validation, opening):
    """{model path: measure()'s figures} on the validation games among `games`."""
    held = [moves for moves in games if is_validation_game(moves, validation)]
    if not held:
        raise UserError(f'none of the {len(games)} games falls in the validation share: give more games')
    data = records_to_arrays(game, held, opening=opening)
    print(f'{len(held)} validation games of {len(games)} ({len(data[2])} positions)')
    return {'games': len(held), 'positions': len(data[2]),
            'models': {path: measure(load_model(path, game), game, data) for path in models}}


def main():
    parser = ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('files', nargs='+', metavar='FILE', type=file_path, help='record files')
    parser.add_argument('--game', choices=RECORD_GAMES, default='shogi9', help='(default: %(default)s)')
    parser.add_argument('--model', action='append', required=True, type=file_path, help='a model (.h5); repeatable')
    parser.add_argument('--validation', type=real_number(0, 0.99), default=TR_VALIDATION,
                        help="the share train_records.py held out (default: %(default)s)")
    parser.add_argument('--opening', type=whole_number(0, 60), default=0, metavar='K',
                        help='leave out the first K moves of each game, as train_records.py --opening K (default: 0)')
    parser.add_argument('--out', help='write the figures here (JSON)')
    args = parser.parse_args()
    game = load_game(args.game)
    result = records_validation(game, read_games(game, args.files), args.model, args.validation, args.opening)
    print('| model | loss (policy + value) | move predicted | result predicted |\n|---|---|---:|---:|')
    for path, m in result['models'].items():
        print(f"| {path} | {m['loss']:.3f} ({m['policy_loss']:.3f} + {m['value_loss']:.3f}) | "
              f"{100 * m['policy_accuracy']:.1f}% | {100 * m['value_accuracy']:.1f}% |")
    if args.out:
        write_json(args.out, {'files': args.files, 'opening': args.opening, 'validation': args.validation, **result}, indent=1)


if __name__ == '__main__':
    run(main)
