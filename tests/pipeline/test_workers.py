"""Self-play on Ray workers: optional, reproducible, and a dead worker loses no game."""
import subprocess
import sys
import threading

import numpy as np
import pytest

from alphazero.settings import EvaluationSettings, ExplorationSettings, SearchSettings, SelfPlaySettings
from alphazero.network.model_file import save_model
from alphazero.game.registry import load_game
from alphazero.game.paths import model_path
from conftest import REPO, need, tiny_model

connect4 = load_game('connect4')
SEARCH = SearchSettings(sims=60)
EXPLORATION = ExplorationSettings(dirichlet=0.3, random_opening=2)


def test_without_the_flag_ray_is_never_imported(tmp_path):
    code = ('import sys, self_play, train_cycle, evaluate_best_player, evaluate_network; '
            'self_play.worker_pool(self_play.parse_args([])); '
            'print("ray" in sys.modules)')
    result = subprocess.run([sys.executable, '-c', code], cwd=tmp_path, capture_output=True, text=True,
                            env={'PYTHONPATH': REPO, 'PATH': '/usr/bin:/bin'}, timeout=120)
    assert result.stdout.strip() == 'False', result.stderr[-2000:]


def need_ray():
    try:
        import ray  # noqa: F401
    except ImportError:
        need(False, 'Ray', 'WITH_RAY=1 bash setup.sh installs it')


@pytest.fixture(scope='module')
def onnx_model(tmp_path_factory):
    need_ray()
    from export import export
    directory = tmp_path_factory.mktemp('model')
    save_model(tiny_model(0, rules=connect4), str(directory / 'best.h5'))
    export(str(directory / 'best.h5'), game=connect4)
    return str(directory / 'best.onnx')


@pytest.fixture(scope='module')
def pool(onnx_model):
    from alphazero.play.workers import WorkerPool
    with WorkerPool(2) as workers:
        yield workers


@pytest.mark.slow
def test_the_same_seed_and_workers_play_the_same_games(pool, onnx_model):
    first, counts = pool.self_play(connect4, onnx_model, SelfPlaySettings(games=6), SEARCH, EXPLORATION, seed=5)
    again, _ = pool.self_play(connect4, onnx_model, SelfPlaySettings(games=6), SEARCH, EXPLORATION, seed=5)
    other, _ = pool.self_play(connect4, onnx_model, SelfPlaySettings(games=6), SEARCH, EXPLORATION, seed=6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert not np.array_equal(first[1], other[1])
    assert len(first[2]) > 6 * 5 and counts['evaluations'] > 0


class Bar:
    """What a progress bar is told: the games counted, and with each note the count it was shown with."""

    def __init__(self):
        self.n, self.shown = 0, []

    def update(self, games):
        self.n += games

    def set_postfix_str(self, text):
        self.shown.append((self.n, int(text.split()[0])))


@pytest.mark.slow
def test_a_worker_killed_mid_stage_has_its_games_replayed_by_another(onnx_model, monkeypatch):
    from alphazero.play import workers as module
    from alphazero.play.workers import WorkerPool
    monkeypatch.setattr(module, 'PROGRESS_SECONDS', 0.2)  # the bar is asked often in a stage of seconds
    with WorkerPool(2) as workers:
        bar = Bar()
        with workers.showing(bar):
            expected, _ = workers.self_play(connect4, onnx_model, SelfPlaySettings(games=8), SEARCH.with_sims(300),
                                            EXPLORATION, seed=7)
        # The bar moved while the workers played: moves before every game was over, then all 8 games
        assert any(games < 8 and moves > 0 for games, moves in bar.shown), bar.shown
        assert bar.n == 8
        pid = workers.ray.get(workers.actors[0].pid.remote())
        # One second into the stage, the first worker's process is killed
        killer = threading.Timer(1.0, lambda: subprocess.run(['kill', '-9', str(pid)]))
        killer.start()
        bar = Bar()
        with workers.showing(bar):
            got, _ = workers.self_play(connect4, onnx_model, SelfPlaySettings(games=8), SEARCH.with_sims(300), EXPLORATION,
                                       seed=7)
        killer.join()
        assert len(workers.actors) == 1   # the dead worker was noticed in the stage, not before it
    # Its games were played again with the same seed: none lost, none twice, none counted twice
    assert all(np.array_equal(a, b) for a, b in zip(expected, got))
    assert bar.n == 8


@pytest.mark.slow
def test_self_play_script_with_workers_writes_a_history_file(workdir):
    need_ray()
    save_model(tiny_model(0, rules=connect4), model_path(connect4, 'best.h5'))
    from conftest import run_script
    result = run_script('self_play.py', '--game', 'connect4', '--games', '4', '--sims', '5', '--workers', '2', '--seed', '1',
                        cwd=workdir, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert 'from 4 games' in result.stdout and (workdir / 'runs' / 'connect4' / 'model' / 'best.onnx').exists()
    assert '4/4 [' in result.stderr   # the progress bar counts the workers' games
    assert 'Ray cluster' not in result.stderr and 'ignored by default' not in result.stderr  # Ray's notes to no one


@pytest.mark.slow
def test_evaluations_on_workers_score_as_in_one_process(workdir, monkeypatch):
    need_ray()
    import evaluate_best_player as stage
    from alphazero.play.workers import WorkerPool
    from evaluate_best_player import evaluate_best_player
    from evaluate_network import evaluate_network
    save_model(tiny_model(0, rules=connect4), model_path(connect4, 'best.h5'), sims=4)
    save_model(tiny_model(1, rules=connect4), model_path(connect4, 'latest.h5'), sims=4)
    with WorkerPool(2) as workers:
        better, average = evaluate_network(connect4, 6, SearchSettings(sims=4), temperature=1.0, seed=3, update=False,
                                  pool=workers)
        again = evaluate_network(connect4, 6, SearchSettings(sims=4), temperature=1.0, seed=3, update=False,
                                  pool=workers)
        # Every game on the workers: the learner does not load the network itself
        monkeypatch.setattr(stage, 'load_agent', lambda *args: pytest.fail('the network was loaded locally'))
        scores, scores_again = (evaluate_best_player(connect4, SearchSettings(sims=4),
                                                     EvaluationSettings(games=4, opening=2, exact=False), seed=3,
                                                     pool=workers) for _ in range(2))
    assert 0 <= average <= 1 and again == (better, average)          # reproducible with the seed
    assert scores == scores_again
    assert (workdir / 'runs' / 'connect4' / 'model' / 'latest.onnx').exists()
    assert set(scores) == set(connect4.opponents())
    for s in scores.values():  # four games each, their points adding up to the score
        assert s['games'] == s['wins'] + s['draws'] + s['losses'] == 4
        assert s['all'] == (s['wins'] + s['draws'] / 2) / 4 and s['first'] + s['second'] == 2 * s['all']


@pytest.mark.slow
def test_a_missing_model_is_one_line_on_workers_too(workdir):
    need_ray()
    from conftest import run_script
    result = run_script('self_play.py', '--game', 'connect4', '--games', '2', '--workers', '2', cwd=workdir, timeout=300)
    assert result.returncode == 2 and 'Traceback' not in result.stderr
    assert result.stderr.splitlines()[-1].startswith('error: runs/connect4/model/best.h5 not found: `python dual_network.py')
