"""The package's import graph keeps the shape alphazero/__init__.py draws: wings that import only
their own or lower wings, no import circle, and no import hidden inside a function except of the
optional or heavy libraries that a stage may never need."""
import ast
import glob
import os

import pytest

from conftest import REPO

# From the bottom up: a module may import its own wing and the wings before it
WINGS = ('base', 'game', 'search', 'network', 'data', 'records', 'play', 'engines', 'cli')
BASE = ('alphazero', 'alphazero.errors', 'alphazero.files', 'alphazero.limits', 'alphazero.settings')
# Imported where they are needed: optional extras (Ray, cshogi, JAX and its ONNX converter, the GPU
# builds) and the libraries a stage that plays with onnxruntime never loads (TensorFlow, Keras, ONNX)
LAZY = {'ray', 'cshogi', 'jax', 'jax2onnx', 'tensorflow', 'keras', 'tf2onnx', 'onnx', 'onnxruntime', 'h5py'}


def modules(folder='alphazero'):
    found = {}
    for path in glob.glob(os.path.join(REPO, folder, '**', '*.py'), recursive=True):
        name = os.path.relpath(path, REPO)[:-3].replace(os.sep, '.').removesuffix('.__init__')
        with open(path, encoding='utf-8') as f:
            found[name] = ast.parse(f.read())
    return found


def wing(module):
    return 'base' if module in BASE else module.split('.')[1]


def imported(tree):
    """(module imported, at the top level or not) for each import of the package in `tree`."""
    top = set(map(id, tree.body))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, id(node) in top
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, id(node) in top


def test_every_module_is_in_a_wing():
    assert all(wing(name) in WINGS for name in modules())


def test_wings_import_only_their_own_or_lower_wings():
    upward = [f'{name} ({wing(name)}) imports {other} ({wing(other)})'
              for name, tree in modules().items() for other, _ in imported(tree)
              if other.startswith('alphazero') and WINGS.index(wing(other)) > WINGS.index(wing(name))]
    assert not upward, upward


@pytest.mark.parametrize('folder', ['alphazero', 'games'])
def test_no_import_circle(folder):
    found = modules(folder)
    graph = {name: {other for other, _ in imported(tree) if other in found} for name, tree in found.items()}
    state = {}

    def visit(name, path):
        if state.get(name) == 'open':
            raise AssertionError('import circle: ' + ' -> '.join(path[path.index(name):] + [name]))
        if state.get(name) is None:
            state[name] = 'open'
            for other in graph[name]:
                visit(other, path + [name])
            state[name] = 'done'
    for name in graph:
        visit(name, [])


def test_imports_inside_functions_are_only_of_lazy_libraries():
    hidden = [f'{name}: {other}' for name, tree in modules().items() for other, top in imported(tree)
              if not top and other.split('.')[0] not in LAZY]
    assert not hidden, hidden


def test_games_import_only_the_base_and_the_game_wing():
    """A game is rules and a contract: it may use the package's base and game wing, never the players,
    records or engines built on top of games."""
    upward = [f'{name} imports {other}' for name, tree in modules('games').items() for other, _ in imported(tree)
              if other.startswith('alphazero') and wing(other) not in ('base', 'game')]
    assert not upward, upward
