"""The margin head (dual_network.py --margin-head): its targets from finished games, its output in
every network and in ONNX, its training, and the search's use of it (--margin-weight)."""
import os

import numpy as np
import pytest

from alphazero.errors import UserError
from alphazero.data.history import read_margins
from alphazero.network.model_file import save_model
from alphazero.settings import NETWORKS
from alphazero.game.paths import data_dir, model_path
from alphazero.game.registry import load_game, sample_positions
from alphazero.network.runtimes import KerasNetwork, OnnxNetwork, set_margin_weight
from alphazero.play.players import MctsPlayer
from alphazero.data.targets import games_to_arrays, games_to_margins
from alphazero.play.loop import play_games
from alphazero.search.evaluator import Evaluator
from alphazero.settings import NetworkSettings, SearchSettings, SelfPlaySettings, TrainingSettings
from alphazero.network.onnx_export import PARITY_TOLERANCE
from dual_network import build_network
from export import export
from train_network import train_network

TINY = {'filters': 8, 'blocks': 1, 'width': 16, 'layers': 1, 'heads': 2}


def test_margin_targets_are_each_movers_final_margin():
    rules = load_game('othello6')
    rng = np.random.default_rng(0)
    players = [MctsPlayer(Evaluator(KerasNetwork(build_network(rules, NetworkSettings('resnet', **TINY)))),
                          SearchSettings(sims=4), 1.0, rng)] * 2
    results = play_games(rules.State, [tuple(players)] * 6, record=True)
    for played in results:
        margins = games_to_margins([played], rules)
        _, _, values = games_to_arrays([played])
        final = rules.score(played.state)  # discs, for the first player
        state = rules.State()
        for ply, action in enumerate(played.moves):
            mover_margin = final if state.is_first_player() else -final
            assert margins[ply] == pytest.approx(mover_margin / rules.MARGIN_SCALE)
            assert np.sign(margins[ply]) == np.sign(values[ply])  # more discs is the win
            state = state.next(action)


@pytest.mark.slow
@pytest.mark.parametrize('network', NETWORKS)
def test_every_network_gets_a_margin_output_that_exports_and_trains(network, workdir):
    import keras
    rules = load_game('othello6')
    keras.utils.set_random_seed(0)
    save_model(build_network(rules, NetworkSettings(network, margin_head=True, **TINY)), model_path(rules, 'best.h5'))
    states = sample_positions(rules, 64, seed=1)
    planes = np.stack([s.planes() for s in states])
    policy = np.stack([np.isin(np.arange(rules.ACTION_COUNT), s.legal_actions()) / len(s.legal_actions()) for s in states])
    value = np.where(np.arange(64) % 2, 1.0, -1.0).astype(np.float32)
    from alphazero.data.history import write_history
    write_history(os.path.join(data_dir(rules), '1.npz'), planes, policy, value, margin=value * 0.5)
    losses = train_network(rules, TrainingSettings(epochs=2))
    assert 'margin_loss' in losses and np.isfinite(losses['margin_loss']).all()

    # ONNX has the third output and agrees with Keras on it
    assert export(model_path(rules, 'latest.h5'), game=rules) <= PARITY_TOLERANCE
    onnx = OnnxNetwork(model_path(rules, 'latest.onnx'))
    policies, values, margins = onnx.outputs(planes)
    assert onnx.has_margin and margins.shape == (64,) and np.all(np.abs(margins) <= 1)

    # The search sees the value alone, unless a margin weight mixes the margin in
    np.testing.assert_array_equal(onnx(planes)[1], values)
    set_margin_weight(onnx, 0.25, 'latest.onnx')
    np.testing.assert_allclose(onnx(planes)[1], 0.75 * values + 0.25 * margins, rtol=1e-6)


def test_a_margin_head_needs_margins_and_a_game_with_one(workdir):
    rules = load_game('othello6')
    with pytest.raises(UserError, match='no margin to learn'):
        build_network(load_game('connect4'), NetworkSettings('resnet', margin_head=True, **TINY))
    # History files without margins (older versions, the book's) cannot teach a margin head
    save_model(build_network(rules, NetworkSettings('resnet', margin_head=True, **TINY)), model_path(rules, 'best.h5'))
    from alphazero.data.history import write_history
    states = sample_positions(rules, 8, seed=1)
    path = os.path.join(data_dir(rules), '1.npz')
    write_history(path, np.stack([s.planes() for s in states]),
                  np.full((8, rules.ACTION_COUNT), 1 / rules.ACTION_COUNT), np.zeros(8))
    assert read_margins(path) is None
    with pytest.raises(UserError, match='no margin targets'):
        train_network(rules, TrainingSettings(epochs=1))
    # A search cannot weigh a margin the model does not have
    plain = KerasNetwork(build_network(rules, NetworkSettings('resnet', **TINY)))
    with pytest.raises(UserError, match='no margin head'):
        MctsPlayer(Evaluator(plain), SearchSettings(sims=4, margin_weight=0.5), 0.0, np.random.default_rng(0))


def test_self_play_records_margins_for_games_that_have_one(workdir):
    from self_play import self_play
    for name, has_margin in (('othello6', True), ('connect4', False)):
        rules = load_game(name)
        save_model(build_network(rules, NetworkSettings('resnet', **TINY)), model_path(rules, 'best.h5'))
        path, _ = self_play(rules, SelfPlaySettings(games=3), SearchSettings(sims=4), seed=0)
        margins = read_margins(path)
        assert (margins is not None) == has_margin
        if has_margin:
            assert np.all(np.abs(margins) <= 1) and len(margins) == len(np.load(path)['value'])
