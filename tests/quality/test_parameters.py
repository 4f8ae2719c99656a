"""Settings travel whole (alphazero/settings.py): no function of the package or of the stage scripts
takes more than eight parameters, so a new option is a field of a settings object, not one more
parameter threaded through every call on its way."""
import ast
import glob
import os

from conftest import REPO

MAX_PARAMETERS = 8


def parameter_counts():
    paths = glob.glob(os.path.join(REPO, 'alphazero', '**', '*.py'), recursive=True) + glob.glob(os.path.join(REPO, '*.py'))
    for path in paths:
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                arguments = node.args
                names = [a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]]
                count = len(names) - (names[:1] == ['self']) + bool(arguments.vararg) + bool(arguments.kwarg)
                yield f'{os.path.relpath(path, REPO)}: {node.name}', count


def test_no_function_takes_more_than_eight_parameters():
    assert [name for name, count in parameter_counts() if count > MAX_PARAMETERS] == []
