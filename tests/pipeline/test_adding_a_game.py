"""A game is one folder (docs/adding-a-game.md): a new games/NAME/ with its game.py and recipe.py,
here a throwaway one outside the clone on Python's path, is found by the registry, and every stage
trains and plays it with no edit anywhere else."""
import json

import pytest

from conftest import run_script

# Three in a row on a strip of five squares: a game small enough to write here in full
STRIP = '''
import numpy as np

from alphazero.game.opponents import random_action

NAME = 'strip'
TITLE = {'en': 'Three on a strip', 'ja': '一列三目'}
BOARD_SHAPE = (1, 5)
INPUT_SHAPE = (1, 5, 2)
ACTION_COUNT = 5
SYMMETRIES = ((tuple(range(5)), tuple(range(5))), (tuple(range(4, -1, -1)), tuple(range(4, -1, -1))))
STONE_COLORS = ('red', 'yellow')


class State:
    def __init__(self, pieces=(0,) * 5, enemy_pieces=(0,) * 5):
        self.pieces, self.enemy_pieces = tuple(pieces), tuple(enemy_pieces)

    def is_lose(self):
        return any(all(self.enemy_pieces[start:start + 3]) for start in range(3))

    def is_draw(self):
        return sum(self.pieces) + sum(self.enemy_pieces) == 5 and not self.is_lose()

    def is_done(self):
        return self.is_lose() or self.is_draw()

    def next(self, action):
        pieces = list(self.pieces)
        pieces[action] = 1
        return State(self.enemy_pieces, pieces)

    def legal_actions(self):
        return [i for i in range(5) if not self.pieces[i] and not self.enemy_pieces[i]]

    def is_first_player(self):
        return sum(self.pieces) == sum(self.enemy_pieces)

    def planes(self):
        return np.array([self.pieces, self.enemy_pieces], np.float32).T.reshape(INPUT_SHAPE)

    def cells(self):
        sign = 1 if self.is_first_player() else -1
        return [sign * (mine - theirs) for mine, theirs in zip(self.pieces, self.enemy_pieces)]

    def __str__(self):
        marks = {1: 'x', -1: 'o', 0: '-'}
        return ''.join(marks[cell] for cell in self.cells())


def square_action(square):
    return square


def opponents():
    return {'VS_Random': random_action}
'''
RECIPE = '''
network = dict(network='resnet', filters=8, blocks=1)
search = dict(sims=8)
self_play = dict(games=8)
training = dict(epochs=2)
cycle = dict(cycles=1, gate=False, eval_games=0, best_games=4)
'''


@pytest.mark.slow
def test_a_new_game_folder_is_found_trained_and_played_with_no_edit_elsewhere(workdir, tmp_path):
    folder = tmp_path / 'my-games' / 'games' / 'strip'
    folder.mkdir(parents=True)
    (folder / 'game.py').write_text(STRIP)
    (folder / 'recipe.py').write_text(RECIPE)
    path = {'PYTHONPATH': str(tmp_path / 'my-games')}

    # train_cycle.py knows it, and its recipe: one cycle of 8 self-play games, then 4 against the random player
    result = run_script('train_cycle.py', '--game', 'strip', cwd=workdir, env=path)
    assert result.returncode == 0, result.stderr[-3000:]
    model = workdir / 'runs' / 'strip' / 'model'
    assert (model / 'best.h5').exists() and (model / 'best.onnx').exists()
    record = json.loads((model / 'metrics.jsonl').read_text().splitlines()[0])
    assert record['games'] == 8 and record['scores']['VS_Random']['games'] == 4

    # The other stages and players know it too
    result = run_script('evaluate_best_player.py', '--game', 'strip', '--games', '2', cwd=workdir, env=path)
    assert result.returncode == 0 and 'VS_Random' in result.stdout, result.stderr[-2000:]
    assert 'strip' in run_script('gtp_engine.py', '--help', cwd=workdir, env=path).stdout
    assert 'strip' not in run_script('gtp_engine.py', '--help', cwd=workdir).stdout  # not without its folder
