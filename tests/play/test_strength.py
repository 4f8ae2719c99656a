"""The exact solver, the strength measures, the improvements beyond the book, and resuming a run."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import game
from alphazero.search.evaluator import Evaluator
from alphazero.search.search import search
from alphazero.play.exact import exact_strength, games_against_perfect, optimal_actions, position_key, solve
from alphazero.game.registry import sample_positions
from alphazero.network.runtimes import KerasNetwork
from alphazero.network.onnx_export import onnx_is_current
from alphazero.play.players import FunctionPlayer
from conftest import REPO, tiny_model
from alphazero.data.training import augment


@pytest.fixture(scope='module')
def table():
    return solve(game)


@pytest.mark.slow
def test_solver_reaches_every_position_and_agrees_with_alpha_beta(table):
    assert len(table) == 5478  # all legal tic-tac-toe positions
    assert table[position_key(game.State())][1] == 0
    for state in sample_positions(game, 200, seed=4):
        assert table[position_key(state)][1] == game.alpha_beta(state, -float('inf'), float('inf'))
    # In a won position only the winning moves are optimal
    from conftest import state_from
    assert optimal_actions(state_from([0, 1], [3, 4]), table) == [2]


def test_perfect_player_draws_with_itself_and_beats_a_random_player(table):
    perfect = FunctionPlayer(game.alpha_beta_action)
    for first in (True, False):
        results = games_against_perfect(game, table, perfect, first)
        assert set(results) == {'draw'}
    first_square = FunctionPlayer(lambda state: state.legal_actions()[0])
    results = games_against_perfect(game, table, first_square, True)
    assert results['loss'] > 0 and not results['win']


@pytest.mark.slow
def test_exact_strength_of_a_real_network(table):
    strength = exact_strength(game, KerasNetwork(tiny_model()), 30, table)
    assert strength['positions'] == 4520
    assert 0 < strength['optimal_move_accuracy'] < 1 and 0 <= strength['value_accuracy'] <= 1
    assert sum(strength['vs_perfect_first'].values()) > 0 and sum(strength['vs_perfect_second'].values()) > 0
    assert strength['perfect_play'] is False


def test_symmetries_keep_positions_and_policies_together():
    states = sample_positions(game, 20, seed=2)
    position = np.stack([s.planes() for s in states])
    policy = np.stack([np.isin(np.arange(9), s.legal_actions()) / len(s.legal_actions()) for s in states])
    policy[:, :] *= np.arange(1, 10)  # distinct weights, so a wrong permutation shows
    value = np.arange(20, dtype=np.float32)
    big_position, big_policy, big_value, big_margin = augment(game, position, policy, value, value / 40)
    np.testing.assert_array_equal(big_margin, big_value / 40)  # targets that do not turn are repeated alike
    assert big_position.shape == (160, 3, 3, 2) and big_policy.shape == (160, 9) and len(big_value) == 160
    # The identity comes first; every copy has policy only on its empty squares
    np.testing.assert_array_equal(big_position[:20], position)
    empty = big_position.sum(axis=3).reshape(160, 9) == 0
    assert not big_policy[~empty].any()
    # A quarter turn: the top-left corner's stone goes to the bottom-left (np.rot90 turns left)
    turned = augment(game, game.State().next(0).planes()[None], np.eye(9)[[0]], np.zeros(1))
    assert turned[0][1].reshape(9, 2)[6, 1] == 1 and turned[1][1, 6] == 1


def test_root_noise_changes_the_search_but_not_its_budget():
    network = KerasNetwork(tiny_model())
    positions = [game.State()] * 8
    plain = search(Evaluator(network), positions, 40)
    noisy = search(Evaluator(network), positions, 40, root_noise=(0.3, 0.25, np.random.default_rng(0)))
    assert (plain == plain[0]).all() and not (noisy == noisy[0]).all()
    assert (noisy.sum(axis=1) == 39).all()


def cycle_command(*extra):
    return [sys.executable, os.path.join(REPO, 'train_cycle.py'), '--cycles', '2', '--games', '8', '--sims', '8',
            '--epochs', '2', '--filters', '8', '--blocks', '1', '--eval-games', '2', '--best-games', '2', *extra]


@pytest.mark.slow
def test_a_killed_run_resumes_where_it_stopped(workdir):
    # Kill the run as soon as cycle 0 has finished its self-play stage
    process = subprocess.Popen(cycle_command(), cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    progress = workdir / 'model' / 'cycle.json'
    deadline = time.time() + 300
    while not progress.exists() and process.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    recorded = json.loads(progress.read_text())
    assert recorded['cycle'] == 0 and 'self_play' in recorded and not (workdir / 'model' / 'metrics.jsonl').exists()

    # The same command again finishes the run, reusing cycle 0's self-play data
    result = subprocess.run(cycle_command(), cwd=workdir, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    records = [json.loads(line) for line in (workdir / 'model' / 'metrics.jsonl').read_text().splitlines()]
    assert [r['cycle'] for r in records] == [1, 2]
    assert records[0]['positions'] == recorded['self_play']['positions']
    assert records[0]['seconds']['self_play'] == recorded['seconds']['self_play']  # not played again
    assert len(list((workdir / 'data').glob('*.npz'))) == 2
    assert onnx_is_current(str(workdir / 'model' / 'best.onnx'), str(workdir / 'model' / 'best.h5'))
    assert not progress.exists() and not list(workdir.rglob('.*tmp*'))

    # Once every cycle is done, the same command has nothing left to do
    again = subprocess.run(cycle_command(), cwd=workdir, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and '2 cycles done before' in again.stdout and 'Train' not in again.stdout


def test_presets_set_defaults_and_flags_still_win():
    from train_cycle import parse_args
    book = parse_args([])
    assert (book.filters, book.blocks, book.games, book.epochs, book.sims) == (128, 16, 500, 100, 50)
    assert book.gate and not book.symmetries and book.window == 1 and book.dirichlet == 0
    fast = parse_args(['--preset', 'fast', '--epochs', '7'])
    assert fast.filters == 32 and fast.symmetries and not fast.gate and fast.until_perfect
    assert fast.epochs == 7


def test_recipe_runs_are_measured_only_at_the_minutes_they_reached(tmp_path):
    import runpy
    from alphazero.game.registry import load_game
    bench = runpy.run_path(os.path.join(REPO, 'bench', 'compare_recipes.py'))
    model_dir = tmp_path / 'fpu-s2' / 'runs' / 'othello8' / 'model'
    (model_dir / 'kept').mkdir(parents=True)
    ends = [300, 590, 900, 1190, 1300]  # processor seconds at which cycles 1-5 ended: stopped at 21.7 minutes
    (model_dir / 'metrics.jsonl').write_text(''.join(
        json.dumps({'cycle': cycle, 'elapsed': 2 * end, 'cpu_elapsed': end}) + '\n' for cycle, end in enumerate(ends, 1)))
    for cycle in range(1, 6):
        (model_dir / 'kept' / f'best-cycle{cycle:04d}.h5').touch()
    models = bench['run_models'](str(tmp_path / 'fpu-s2'), load_game('othello8'), (10, 20, 30))
    assert {mark: (os.path.basename(path), cycles) for mark, (path, cycles, _, _) in models.items()} == {
        10: ('best-cycle0002.h5', 2), 20: ('best-cycle0004.h5', 4)}  # no 30: the run never got there
    assert bench['recipe_of'](str(tmp_path / 'fpu-s2')) == ('fpu', 2)
    # Runs timed by the wall clock are summarised apart from those timed in processor minutes
    mark = {'clock': 'elapsed', 'scores': {'GRhino level 1': 0.5}}
    processor = {**mark, 'clock': 'cpu_elapsed', 'scores': {'GRhino level 1': 0.25}}
    results = {'runs': {'fpu-s1': {'recipe': 'fpu', 'marks': {'10': mark}},
                        'fpu-s2': {'recipe': 'fpu', 'marks': {'10': processor}},
                        # and so are the runs of a batch made under another load
                        'fpu-s2, batch 2': {'recipe': 'fpu', 'batch': 'batch 2', 'marks': {'10': {**processor, 'scores': {'GRhino level 1': 0.75}}}}}}
    assert bench['summary'](results) == {'fpu': {'GRhino level 1': {10: [0.25]}},
                                         'fpu, wall-clock minutes': {'GRhino level 1': {10: [0.5]}},
                                         'fpu, batch 2': {'GRhino level 1': {10: [0.75]}}}


@pytest.mark.parametrize('held, message', [('{"game": "othello8", "sims": 50, "games": 40, "runs": {}}', "holds results with game 'othello8', not 'connect4'"),
                                           ('{broken', 'is not a results file'), ('{"game": "connect4", "sims": 50, "games": 40, "runs": []}',
                                                                                  'is not a dict')])
def test_recipe_results_of_other_settings_are_refused_not_mixed(workdir, monkeypatch, capsys, held, message):
    import runpy
    from alphazero.cli.run import run
    bench = runpy.run_path(os.path.join(REPO, 'bench', 'compare_recipes.py'))
    (workdir / 'results.json').write_text(held)
    monkeypatch.setattr(sys, 'argv', ['compare_recipes.py', '--game', 'connect4', '--out', 'results.json', 'base-s1'])
    with pytest.raises(SystemExit):
        run(bench['main'])
    assert message in capsys.readouterr().err
    assert (workdir / 'results.json').read_text() == held
