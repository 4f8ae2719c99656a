"""Shipped models: used, and announced, when a game has no model of its own. (That training never
writes to them is checked by test_pipeline's whole run.)"""
import os

import pytest

from alphazero.settings import EvaluationSettings, SearchSettings
from alphazero.network.model_file import save_model
from alphazero.game.registry import load_game
from alphazero.game.paths import model_path, playing_model_path
from conftest import REPO, tiny_model, tree_digest


@pytest.fixture
def shipped(tmp_path, monkeypatch, workdir):
    """A tiny 'shipped' othello6 model in a pretrained/ folder of its own."""
    import alphazero.game.paths
    monkeypatch.setattr(alphazero.game.paths, 'PRETRAINED_DIR', str(tmp_path / 'pretrained'))
    game = load_game('othello6')
    save_model(tiny_model(rules=game), str(tmp_path / 'pretrained' / 'othello6' / 'best.h5'))
    return game, tmp_path / 'pretrained'


def test_the_shipped_model_plays_when_there_is_none_of_your_own(shipped, capsys):
    from evaluate_best_player import evaluate_best_player
    game, directory = shipped
    before = tree_digest(directory)
    assert playing_model_path(game) == str(directory / 'othello6' / 'best.h5')
    assert 'playing the shipped' in capsys.readouterr().err
    scores = evaluate_best_player(game, SearchSettings(sims=2), EvaluationSettings(games=2))
    assert scores['VS_Random']['games'] == 2
    assert 'no model of your own at runs/othello6/model/best.h5: playing the shipped' in capsys.readouterr().err
    assert tree_digest(directory) == before


def test_your_own_model_comes_first(shipped, capsys):
    game, _ = shipped
    save_model(tiny_model(rules=game), model_path(game, 'best.h5'))
    assert playing_model_path(game) == model_path(game, 'best.h5')
    assert capsys.readouterr().err == ''


@pytest.mark.slow
def test_the_book_api_example_of_the_docs_plays_the_shipped_othello_model(workdir):
    import re
    from forked import run_python
    readme = open(os.path.join(REPO, 'docs', 'book.md')).read()
    example = re.search(r"```python\n(from alphazero\.game\.paths import playing_model_path\n.*?)```", readme, re.S).group(1)
    (workdir / 'example.py').write_text(example)
    result = run_python([str(workdir / 'example.py')], workdir, dict(os.environ, PYTHONPATH=REPO), timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert 'no model of your own at runs/othello8/model/best.h5: playing the shipped' in result.stderr
    board = result.stdout.split()
    assert len(board) == 8 and ''.join(board).count('o') == 4 and ''.join(board).count('x') == 1  # one move played


@pytest.mark.parametrize('name', sorted(os.listdir(os.path.join(REPO, 'pretrained'))))
def test_every_shipped_model_loads_and_its_onnx_is_its_current_export(name):
    # model.json describes the files beside it, and the page plays the .onnx exported from exactly this .h5
    import json
    from alphazero.network.model_file import load_model
    from alphazero.network.onnx_export import onnx_is_current
    directory = os.path.join(REPO, 'pretrained', name)
    description = json.load(open(os.path.join(directory, 'model.json')))
    game = load_game(description['game'])
    assert game.NAME == name
    model = load_model(os.path.join(directory, 'best.h5'), game)
    assert model.count_params() == description['network']['parameters']
    assert onnx_is_current(os.path.join(directory, 'best.onnx'), os.path.join(directory, 'best.h5'))
