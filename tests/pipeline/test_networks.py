"""The networks (book, resnet, transformer, transformer-dense) for every game, the replay sampler, and training
that keeps its compiled model from cycle to cycle."""
import os
import subprocess
import sys

import numpy as np
import pytest

from alphazero.settings import NetworkSettings, TrainingSettings
from alphazero.network.model_file import load_model, save_model
from alphazero.data.history import write_history
from alphazero.settings import NETWORKS
from alphazero.game.registry import GAMES, load_game, sample_positions
from alphazero.game.paths import data_dir, model_path
from alphazero.network.runtimes import KerasNetwork, OnnxNetwork
from alphazero.network.onnx_export import PARITY_TOLERANCE
from alphazero.data.training import replay_sample
from dual_network import build_network
from export import export
from conftest import REPO
from train_network import train_network

TINY = {'filters': 8, 'blocks': 1, 'width': 16, 'layers': 1, 'heads': 2}


def uniform_policies(game, states):
    return np.stack([np.isin(np.arange(game.ACTION_COUNT), s.legal_actions()) / len(s.legal_actions())
                     for s in states]).astype(np.float32)


def write_tiny_history(game, states):
    value = np.where(np.arange(len(states)) % 2, 1.0, -1.0).astype(np.float32)
    write_history(os.path.join(data_dir(game), '1.npz'), np.stack([s.planes() for s in states]),
                  uniform_policies(game, states), value)


# A network's code is the same for every game: only its input planes and its number of moves change.
# So every game builds one network and every network is built for several games, each of the four
# networks meeting small and large boards, few and many planes, and full shogi's 1,496 moves (the
# shipped model's resnet and the article's transformer); all 36 pairs took 8 minutes of a core
PAIRS = [('tictactoe', 'book'), ('connect4', 'resnet'), ('othello6', 'transformer'), ('othello8', 'transformer-dense'),
         ('othello8planes', 'resnet'), ('pointothello', 'book'), ('gomoku', 'transformer'),
         ('shogi', 'transformer-dense'), ('shogi9', 'resnet'), ('shogi9', 'transformer')]


def test_the_pairs_cover_every_game_and_every_network():
    assert {name for name, _ in PAIRS} == set(GAMES)
    assert all(sum(network == n for _, n in PAIRS) >= 2 for network in NETWORKS)


@pytest.mark.slow
@pytest.mark.parametrize('name, network', PAIRS)
def test_every_network_trains_exports_and_reloads(name, network, workdir):
    import keras
    game = load_game(name)
    keras.utils.set_random_seed(0)
    save_model(build_network(game, NetworkSettings(network, **TINY)), model_path(game, 'best.h5'))

    # A training epoch on real positions saves latest.h5
    states = sample_positions(game, 64, seed=1)
    write_tiny_history(game, states)
    losses = train_network(game, TrainingSettings(epochs=1))
    assert np.isfinite(losses['loss'][0])

    # A plain load_model reads it without being told what it is, and ONNX agrees with Keras
    import tensorflow as tf
    reloaded = tf.keras.models.load_model(model_path(game, 'latest.h5'), compile=False)
    assert reloaded.input_shape == (None, *game.INPUT_SHAPE)
    assert export(model_path(game, 'latest.h5'), game=game) <= PARITY_TOLERANCE
    planes = np.stack([s.planes() for s in states])
    policies, values = OnnxNetwork(model_path(game, 'latest.onnx'))(planes)
    assert policies.shape == (64, game.ACTION_COUNT) and np.allclose(policies.sum(axis=1), 1, atol=1e-5)
    assert values.shape == (64,) and np.all(np.abs(values) <= 1)
    np.testing.assert_allclose(KerasNetwork(load_model(model_path(game, 'latest.h5'), game))(planes)[1], values,
                               atol=PARITY_TOLERANCE)


@pytest.mark.parametrize('name', ['tictactoe', 'connect4', 'othello6'])
def test_the_replay_sampler_draws_the_asked_number_in_valid_symmetries(name):
    game = load_game(name)
    states = sample_positions(game, 50, seed=2)
    position = np.stack([s.planes() for s in states])
    policy = uniform_policies(game, states) * np.arange(1, game.ACTION_COUNT + 1)  # distinct weights show a wrong permutation
    value = np.arange(50, dtype=np.float32)
    sampled_position, sampled_policy, sampled_value, _ = replay_sample(game, position, policy, value, 300,
                                                                    np.random.default_rng(0))
    assert sampled_position.shape == (300, *game.INPUT_SHAPE) and sampled_policy.shape == (300, game.ACTION_COUNT)
    used = set()
    for p, q, v in zip(sampled_position, sampled_policy, sampled_value):
        row = int(v)  # the value names the source row
        squares = position[row].reshape(-1, position.shape[-1])
        matches = [i for i, (squares_of, actions_of) in enumerate(game.SYMMETRIES)
                   if np.array_equal(squares[list(squares_of)].reshape(game.INPUT_SHAPE), p)
                   and np.array_equal(policy[row, list(actions_of)], q)]
        assert matches, 'a sample is no symmetry of its source'
        if len(matches) == 1:
            used.add(matches[0])
    assert len(used) > 1  # a random symmetry per sample, not always the same


@pytest.mark.slow
def test_training_keeps_its_compiled_model_and_starts_each_cycle_from_best(workdir):
    import keras
    game = load_game('connect4')
    keras.utils.set_random_seed(0)
    save_model(build_network(game, NetworkSettings('resnet', **TINY)), model_path(game, 'best.h5'))
    write_tiny_history(game, sample_positions(game, 64, seed=3))
    keep = {}
    first = train_network(game, TrainingSettings(samples=100, batch_size=16), seed=0, keep=keep)
    model = keep['model']
    second = train_network(game, TrainingSettings(samples=100, batch_size=16), seed=0, keep=keep)
    assert keep['model'] is model  # no new model, so no new compile
    assert first['samples'] == second['samples'] == 256  # whole calls of 16 batches of 16
    # best.h5 did not change, and the optimizer started afresh: the same data gives the same losses
    assert second['loss'] == pytest.approx(first['loss'], rel=1e-4)


@pytest.mark.slow
def test_a_smaller_learning_rate_moves_the_weights_less(workdir):
    import keras
    game = load_game('connect4')
    keras.utils.set_random_seed(0)
    save_model(build_network(game, NetworkSettings('resnet', **TINY)), model_path(game, 'best.h5'))
    write_tiny_history(game, sample_positions(game, 64, seed=3))

    def trained(name):  # what the optimizer moves (batch normalization's statistics move without it)
        return [v.numpy() for v in load_model(model_path(game, name), game).trainable_weights]

    def step_taken(learning_rate):
        train_network(game, TrainingSettings(samples=100, batch_size=16, learning_rate=learning_rate), seed=0)
        return np.sqrt(sum(float(np.sum((a - b) ** 2)) for a, b in zip(trained('latest.h5'), trained('best.h5'))))

    book, tenth = step_taken(0.001), step_taken(0.0001)
    assert 0.03 * book < tenth < 0.3 * book  # Adam's steps scale with the rate


def test_a_bad_network_name_is_named_with_the_choices(workdir):
    result = subprocess.run([sys.executable, os.path.join(REPO, 'dual_network.py'), '--network', 'mlp'],
                            capture_output=True, text=True, cwd=workdir)
    assert result.returncode == 2 and "invalid choice: 'mlp' (choose from 'book', 'resnet', 'transformer', 'transformer-dense')" in result.stderr


def test_onnxruntime_uses_only_the_cpus_the_process_may_use():
    # `taskset -c 0 python train_cycle.py ...` runs one training per core; more threads than cores would
    # make onnxruntime's spinning threads fight over it
    allowed = os.sched_getaffinity(0)
    try:
        os.sched_setaffinity(0, {min(allowed)})
        network = OnnxNetwork(os.path.join(REPO, 'pretrained', 'connect4', 'best.onnx'))
    finally:
        os.sched_setaffinity(0, allowed)
    assert network.session.get_session_options().intra_op_num_threads == 1


@pytest.mark.slow
def test_records_stay_in_the_training_data_beside_self_play(workdir):
    """--records: each stage trains on the self-play window and on positions drawn from the records,
    --records-share of the whole; the flags of train_cycle.py carry the files (repeatable), the share and
    the opening left out."""
    from alphazero.records.othello import write_transcripts
    from conftest import random_records
    from train_cycle import parse_args
    import keras
    game = load_game('othello8')
    keras.utils.set_random_seed(0)
    save_model(build_network(game, NetworkSettings('resnet', **TINY)), model_path(game, 'best.h5'))
    write_tiny_history(game, sample_positions(game, 60, seed=3))
    write_transcripts('records.txt', random_records(5, seed=4), game)
    losses = train_network(game, TrainingSettings(epochs=1, records=('records.txt',), records_share=0.25), seed=0)
    assert losses['samples'] == 60 + 20  # a quarter of 80
    # --records-opening leaves out each record game's first moves, and only they
    from alphazero.records.positions import record_positions
    whole = len(record_positions(game, ('records.txt',))[2])
    assert len(record_positions(game, ('records.txt',), 4)[2]) == whole - 4 * 5
    args = parse_args(['--game', 'othello8', '--records', 'a.txt', '--records', 'b.wtb', '--records-share', '0.3',
                       '--records-opening', '6'])
    from alphazero.cli.flags import settings_of
    training = settings_of(TrainingSettings, args)
    assert training.records == ('a.txt', 'b.wtb') and training.records_share == 0.3 and training.records_opening == 6
    assert settings_of(TrainingSettings, parse_args(['--game', 'othello8'])).records == ()
