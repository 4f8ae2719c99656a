"""Pinned numbers: with the same --seed, self-play, training and evaluation give the same games and
numbers as when these values were recorded. A change that alters them on purpose records them
again (run this file with PIN_PRINT=1 to print the new values); a refactoring must leave them be.
"""
import hashlib
import os

import numpy as np
import pytest

from alphazero.network.model_file import save_model
from alphazero.settings import (
    EvaluationSettings,
    ExplorationSettings,
    SearchSettings,
    SelfPlaySettings,
    TrainingSettings,
)
from alphazero.game.registry import load_game
from alphazero.game.paths import model_path
from conftest import tiny_model

SELF_PLAY = {  # game: sha256 of the seeded self-play stage's positions, policies and values (first 16)
    'tictactoe': '4b922062a2604a93', 'connect4': 'fac2a60c5968d021', 'othello6': '2565ff524d44f642',
    'othello8planes': '0a2c6a726e05edb7', 'pointothello': '8479d6b84991a91d', 'shogi': 'f9ceacf0fa81110b',
}
TRAINING_LOSS = [4.0018, 3.9559]  # tic-tac-toe: the loss after two seeded epochs on seeded self-play data
EVALUATION = {'VS_Random': 0.75, 'VS_AlphaBeta': 0.0, 'VS_MCTS': 0.0}  # tic-tac-toe: seeded scores of the tiny model


def digest(*arrays):
    hashed = hashlib.sha256()
    for array in arrays:
        hashed.update(np.ascontiguousarray(array, dtype=np.float32).tobytes())
    return hashed.hexdigest()[:16]


def check(name, value, expected):
    if os.environ.get('PIN_PRINT') or expected is None:
        print(f'PIN {name} = {value!r}')
    if expected is not None:
        assert value == expected, name


@pytest.mark.parametrize('name', sorted(SELF_PLAY))
def test_seeded_self_play_plays_the_pinned_games(name, workdir):
    from alphazero.data.history import read_history
    from self_play import self_play
    game = load_game(name)
    save_model(tiny_model(seed=3, rules=game), model_path(game, 'best.h5'))
    path, _ = self_play(game, SelfPlaySettings(games=6, parallel=4), SearchSettings(sims=8),
                        ExplorationSettings(dirichlet=0.3, random_opening=2), seed=11, backend='keras')
    check(f'self-play {name}', digest(*read_history(path, game)), SELF_PLAY[name])


@pytest.mark.slow
def test_seeded_training_and_evaluation_give_the_pinned_numbers(workdir, with_xla):
    import game
    from evaluate_best_player import evaluate_best_player
    from self_play import self_play
    from train_network import train_network
    save_model(tiny_model(seed=3), 'model/best.h5')
    self_play(game, SelfPlaySettings(games=20), SearchSettings(sims=8), seed=11, backend='keras')
    losses = train_network(game, TrainingSettings(epochs=2), seed=5)
    check('training loss', [round(x, 4) for x in losses['loss']], TRAINING_LOSS)
    scores = evaluate_best_player(game, SearchSettings(sims=8), EvaluationSettings(games=4, exact=False),
                                  backend='keras', seed=13)
    check('evaluation', {name: round(s['all'], 4) for name, s in scores.items()}, EVALUATION)
