"""The benchmarks measure what the stage scripts run: each game's recipe (games/NAME/recipe.py), not a
copy of it that could drift."""
import os
import runpy

import pytest

from alphazero.game.registry import load_game
from conftest import REPO


def bench(name):
    return runpy.run_path(os.path.join(REPO, 'bench', f'{name}.py'))


@pytest.mark.slow
def test_bench_games_times_the_network_of_the_games_recipe():
    rate, network = bench('bench_games')['network_rate'](load_game('connect4'), 1)
    assert network == 'resnet: 5 blocks, 64 filters'  # games/connect4/recipe.py
    assert rate > 0


def test_bench_workers_plays_with_the_games_self_play_settings():
    search, exploration = bench('bench_workers')['self_play_settings'](load_game('connect4'))
    # games/connect4/recipe.py: search, exploration
    assert (search.sims, search.gumbel, exploration.dirichlet, exploration.random_opening, exploration.greedy_after,
            exploration.q_ratio) == (16, 8, 0, 2, 10, 0.5)


@pytest.mark.slow
def test_the_peer_benchmark_runs_the_same_network_shape_as_ours():
    """bench_peer.py's plain-JAX network has the layers of our ResNet, kernel for kernel (the batch
    normalisation folded into biases), and both sides of the benchmark play."""
    import pytest
    pytest.importorskip('pgx')
    import keras
    import numpy as np
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    peer = bench('bench_peer')
    game = load_game('othello8')
    ours = [tuple(layer.kernel.shape) for layer in build_network(game, NetworkSettings('resnet', filters=8, blocks=2)).layers
            if isinstance(layer, (keras.layers.Conv2D, keras.layers.Dense))]
    params = peer['peer_network'](8, 2, np.random.default_rng(0))
    theirs = [params['stem'][0].shape, *[w[0].shape for block in params['blocks'] for w in block],
              params['policy_planes'][0].shape, params['value_plane'][0].shape, params['policy'][0].shape,
              params['value_hidden'][0].shape, params['value'][0].shape]
    assert sorted(ours) == sorted(tuple(shape) for shape in theirs)
    assert peer['peer_self_play'](8, 2, 4, 4, 2)(1) > 0
