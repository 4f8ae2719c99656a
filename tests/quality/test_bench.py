"""The benchmarks measure what the stage scripts run: each game's recipe (games/NAME/recipe.py), not a
copy of it that could drift."""
import os
import runpy

from alphazero.game.registry import load_game
from conftest import REPO


def bench(name):
    return runpy.run_path(os.path.join(REPO, 'bench', f'{name}.py'))


def test_bench_games_times_the_network_of_the_games_recipe():
    rate, network = bench('bench_games')['network_rate'](load_game('connect4'), 1)
    assert network == 'resnet: 5 blocks, 64 filters'  # games/connect4/recipe.py
    assert rate > 0


def test_bench_workers_plays_with_the_games_self_play_settings():
    search, exploration = bench('bench_workers')['self_play_settings'](load_game('connect4'))
    # games/connect4/recipe.py: search, exploration
    assert (search.sims, search.gumbel, exploration.dirichlet, exploration.random_opening, exploration.greedy_after,
            exploration.q_ratio) == (16, 8, 0, 2, 10, 0.5)
