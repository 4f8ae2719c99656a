"""The stages with tiny real networks: self-play records, training, the gate, ONNX export, a whole run."""
import json
import os
import re
import sys

import numpy as np
import pytest

import evaluate_network as evaluate_network_module
import game
from alphazero.settings import ExplorationSettings, PlaySettings, SearchSettings, SelfPlaySettings, TrainingSettings
from alphazero.search.evaluator import Evaluator
from alphazero.search.search import search_roots
from alphazero.data.history import history_sims, read_history, write_history
from alphazero.network.model_file import recorded_sims, save_model
from alphazero.network.runtimes import KerasNetwork, OnnxNetwork
from alphazero.network.load import load_network
from alphazero.network.onnx_export import onnx_is_current
from alphazero.play.loop import LiveGame, play_games
from alphazero.play.players import MctsPlayer
from alphazero.data.targets import games_to_arrays
from alphazero.play.matches import game_point
import alphazero.play.matches as match_runner
from conftest import run_script, stop_play_games, tiny_model
from evaluate_network import average_point, evaluate_network, first_player_point, update_best_player
from export import export
from self_play import first_player_value, self_play
from train_network import train_network


def test_self_play_records_positions_policies_and_alternating_values(tiny_best):
    player = MctsPlayer(Evaluator(KerasNetwork(tiny_best)), SearchSettings(sims=20), 1.0, np.random.default_rng(0))
    results = play_games(game.State, [(player, player)] * 12, parallel=5, record=True)
    for played in results:
        ended, records = played.state, played.records
        assert ended.is_done() and len(played.moves) == len(records)
        # One record per ply: replay the game from the records
        state = game.State()
        for ply, (planes, policy, recorded_ply, searched_value) in enumerate(records):
            assert recorded_ply == ply and -1 <= searched_value <= 1
            np.testing.assert_array_equal(planes, state.planes())
            legal = state.legal_actions()
            assert policy.shape == (9,) and policy.sum() == pytest.approx(1)
            assert policy[legal].sum() == pytest.approx(1)
            following = records[ply + 1][0] if ply + 1 < len(records) else ended.planes()
            moves = [a for a in legal if np.array_equal(state.next(a).planes(), following)]
            assert len(moves) == 1 and policy[moves[0]] > 0  # the move played had probability
            state = state.next(moves[0])
        assert state.is_done()

        # Values: the first player's result, flipping sign every ply
        _, _, value = games_to_arrays([played])
        assert len(value) == len(records)
        assert value[0] == first_player_value(ended)
        assert all(value[i + 1] == -value[i] for i in range(len(value) - 1))
        assert value[-1] == (1 if ended.is_lose() else 0)  # the last mover won, or it is a draw


def test_the_q_ratio_mixes_the_search_value_of_each_position_into_its_value_target(tiny_best):
    player = MctsPlayer(Evaluator(KerasNetwork(tiny_best)), SearchSettings(sims=20), 1.0, np.random.default_rng(1))
    for played in play_games(game.State, [(player, player)] * 6, record=True):
        _, _, result = games_to_arrays([played])
        _, _, searched = games_to_arrays([played], q_ratio=1.0)
        _, _, mixed = games_to_arrays([played], q_ratio=0.25)
        np.testing.assert_allclose(mixed, 0.75 * result + 0.25 * searched, rtol=1e-6)
        # The search's value is the visit-weighted mean Q of the root's moves, for the side to move:
        # the same search again (its network outputs from the evaluator's cache) gives it
        state = game.State()
        for action, value in zip(played.moves, searched):
            again = search_roots(player.evaluator, [state], SearchSettings(sims=20))
            assert value == pytest.approx((again.visits[0] * again.q[0]).sum() / again.visits[0].sum())
            state = state.next(action)
        assert set(searched) - {-1.0, 0.0, 1.0} and -1 <= searched.min() and searched.max() <= 1
    # self_play.py's way in: the history file holds the searches' values
    path, _ = self_play(plays=SelfPlaySettings(games=2), search=SearchSettings(sims=8), exploration=ExplorationSettings(q_ratio=1.0), seed=1)
    assert set(np.unique(read_history(path, game)[2])) - {-1, 0, 1}


def test_self_play_writes_a_history_file_that_loads_without_pickle(tiny_best):
    path, stats = self_play(plays=SelfPlaySettings(games=6), search=SearchSettings(sims=8), seed=1)
    assert path.startswith('data' + os.sep) and path.endswith('.npz')
    position, policy, value = read_history(path, game)
    assert len(position) == stats['positions'] >= 6 * 5
    assert position.shape[1:] == (3, 3, 2) and policy.shape == (len(position), 9)
    np.testing.assert_allclose(policy.sum(axis=1), 1, rtol=1e-6)
    assert set(np.unique(value)) <= {-1, 0, 1}
    with np.load(path, allow_pickle=False) as data:
        assert sorted(data.files) == ['alphazero_sims', 'policy', 'position', 'value']
    assert history_sims(path) == 8  # the search that made the data, for the model trained on it


@pytest.mark.slow
def test_a_trained_model_records_the_search_it_plays_with(tiny_best):
    self_play(plays=SelfPlaySettings(games=2), search=SearchSettings(sims=8), seed=1)
    train_network(training=TrainingSettings(epochs=1))
    assert recorded_sims('model/latest.h5') == 8  # its self-play's, by default
    train_network(training=TrainingSettings(epochs=1), play=PlaySettings(play_sims=300))
    assert recorded_sims('model/latest.h5') == 300


@pytest.mark.slow
def test_training_lowers_the_loss_on_fixed_data(tiny_best):
    rng = np.random.default_rng(0)
    states = [game.State()]
    while len(states) < 256:  # positions from random games, with fixed targets
        state = states[-1]
        states.append(game.State() if state.is_done() else state.next(int(rng.choice(state.legal_actions()))))
    states = [s for s in states if not s.is_done()]
    position = np.stack([s.planes() for s in states])
    policy = np.zeros((len(states), 9), np.float32)
    for row, s in enumerate(states):
        policy[row, s.legal_actions()[0]] = 1
    value = rng.choice([-1.0, 1.0], len(states)).astype(np.float32)
    write_history('data/20260101000000.npz', position, policy, value)
    losses = train_network(training=TrainingSettings(epochs=20))
    assert len(losses['loss']) == 20
    assert losses['loss'][-1] < 0.9 * losses['loss'][0]
    assert losses['pi_loss'][-1] < 0.9 * losses['pi_loss'][0]
    assert os.path.exists('model/latest.h5')


def test_first_player_point_and_average_point():
    first_won = game.State().next(0).next(3).next(1).next(4).next(2)
    assert first_won.is_lose() and first_player_point(first_won) == 1
    second_won = game.State().next(8).next(0).next(3).next(1).next(4).next(2)
    assert first_player_point(second_won) == 0
    # A game's point for its first player, or its second
    assert [game_point(LiveGame(0, first_won), first) for first in (True, False)] == [1, 0]
    assert [game_point(LiveGame(0, second_won), first) for first in (True, False)] == [0, 1]
    assert average_point([1, 0]) == 0.5


@pytest.mark.parametrize('average, replaced', [(0.5, False), (0.45, False), (0.55, True), (1.0, True)])
def test_evaluate_network_replaces_best_only_above_half(tiny_best, monkeypatch, capsys, average, replaced):
    save_model(tiny_model(seed=5), 'model/latest.h5')
    before = open('model/best.h5', 'rb').read()
    latest = open('model/latest.h5', 'rb').read()
    # The games are real; only their average is set, to test the gate at and around 0.5
    monkeypatch.setattr(evaluate_network_module, 'average_point', lambda points: average)
    changed, _ = evaluate_network(game_count=2, search=SearchSettings(sims=5))
    assert changed == replaced
    assert open('model/best.h5', 'rb').read() == (latest if replaced else before)
    said = capsys.readouterr().out
    assert ('Change BestPlayer' in said) == replaced and ('Keep BestPlayer' in said) != replaced


def test_onnx_export_matches_keras(tiny_best):
    difference = export()
    assert difference < 1e-4
    assert onnx_is_current('model/best.onnx', 'model/best.h5')
    network, description = load_network('model/best.h5', game)
    assert isinstance(network, OnnxNetwork) and 'onnxruntime' in description
    planes = np.stack([s.planes() for s in [game.State(), game.State().next(4), game.State().next(0).next(8)]])
    for onnx_out, keras_out in zip(network(planes), KerasNetwork(tiny_best)(planes)):
        np.testing.assert_allclose(onnx_out, keras_out, atol=1e-5)
    # Once best.h5 changes, the export is stale and Keras is used until it is exported again
    save_model(tiny_model(seed=9), 'model/best.h5')
    assert not onnx_is_current('model/best.onnx', 'model/best.h5')
    assert isinstance(load_network('model/best.h5', game)[0], KerasNetwork)


@pytest.mark.slow
def test_a_model_copied_to_another_name_is_converted_once(tiny_best, monkeypatch):
    # The book's cycle on JAX converts latest.h5 to search with it, then exports its copy best.h5
    from alphazero.network import onnx_export
    conversions = []
    convert = onnx_export.CONVERTERS['tensorflow']
    monkeypatch.setitem(onnx_export.CONVERTERS, 'tensorflow', lambda *a: conversions.append(a) or convert(*a))
    save_model(tiny_model(seed=5), 'model/latest.h5')
    data, _ = onnx_export.converted('model/latest.h5', game, 'not converted')
    update_best_player()
    export()
    assert len(conversions) == 1
    assert open('model/best.onnx', 'rb').read() == data
    assert onnx_is_current('model/best.onnx', 'model/best.h5')
    # Other weights are converted again
    save_model(tiny_model(seed=9), 'model/best.h5')
    export()
    assert len(conversions) == 2 and onnx_is_current('model/best.onnx', 'model/best.h5')


@pytest.mark.slow
def test_a_stopped_evaluation_goes_on_from_the_games_it_kept(tiny_best, workdir, monkeypatch, capsys):
    """--keep FILE: each game's points go into FILE as the game ends; the same command after a stop
    plays only the games FILE lacks, other settings start afresh, and a finished FILE is printed again."""
    import evaluate_best_player
    played = []

    def evaluate(*flags, stop_after=None):
        played.clear()
        stop_play_games(match_runner, monkeypatch, stop_after, played)
        monkeypatch.setattr(sys, 'argv', ['evaluate_best_player.py', '--games', '6', '--opponent', 'random',
                                          '--opponent', 'alphabeta', '--sims', '4', '--opening', '1', '--keep',
                                          'kept.json', *flags])
        evaluate_best_player.main()
        return capsys.readouterr().out

    def kept():  # {(opponent, game number): the best player's point}
        matches = json.loads((workdir / 'kept.json').read_text())['matches']
        return {(opponent, i): p for _, opponent, points in matches for i, p in enumerate(points) if p is not None}

    with pytest.raises(KeyboardInterrupt):
        evaluate(stop_after=5)
    assert played == [12] and len(kept()) == 5
    # Other settings start afresh (and keep their own games instead)
    with pytest.raises(KeyboardInterrupt):
        evaluate('--sims', '8', stop_after=2)
    assert 'kept for other settings' in capsys.readouterr().out and len(kept()) == 2
    # So does a first-play reduction the model's model.json gained after the stop
    (workdir / 'model' / 'model.json').write_text(json.dumps({'search': {'first_play': 0.2}}))
    with pytest.raises(KeyboardInterrupt):
        evaluate(stop_after=1)
    assert 'kept for other settings' in capsys.readouterr().out and len(kept()) == 1
    (workdir / 'model' / 'model.json').unlink()
    with pytest.raises(KeyboardInterrupt):
        evaluate(stop_after=3)
    before = kept()
    # The same settings again: only the other 9 games are played, and the kept ones count as they were
    out = evaluate()
    assert 'going on from kept.json: 3 games played already' in out and played == [9]
    after = kept()
    assert len(after) == 12 and all(after[i] == points for i, points in before.items())
    results = [line for line in out.splitlines() if line.startswith('VS_')]
    assert [line.split()[0] for line in results] == ['VS_Random', 'VS_AlphaBeta']
    counts = [re.search(r'won (\d+), drew (\d+), lost (\d+)', line).groups() for line in results]
    assert all(sum(map(int, games)) == 6 for games in counts)
    # Run once more, nothing is played and the same result is printed
    assert [line for line in evaluate().splitlines() if line.startswith('VS_')] == results and played == []


def test_a_kept_file_that_is_not_a_measurement_or_is_an_input_is_refused(tiny_best, workdir):
    (workdir / 'kept.json').write_text('{not json')
    flags = ['--games', '2', '--opponent', 'random', '--sims', '2']
    result = run_script('evaluate_best_player.py', *flags, '--keep', 'kept.json', cwd=workdir)
    assert result.returncode == 2 and 'Traceback' not in result.stderr
    assert 'kept.json is not a readable measurement' in result.stderr and 'remove it' in result.stderr
    assert (workdir / 'kept.json').read_text() == '{not json'  # left as it was
    result = run_script('evaluate_best_player.py', *flags, '--keep', 'model/best.h5', cwd=workdir)
    assert result.returncode == 2 and 'is an input of this command' in result.stderr


@pytest.mark.slow
def test_train_cycle_end_to_end(workdir):
    from alphazero.game.paths import PRETRAINED_DIR
    from conftest import tree_digest
    shipped = tree_digest(PRETRAINED_DIR)
    result = run_script('train_cycle.py', '--cycles', '2', '--games', '8', '--sims', '8', '--epochs', '2',
                        '--filters', '8', '--blocks', '1', '--eval-games', '4', '--best-games', '2',
                        '--keep-every', '2', '--learning-rate', '0.0005', '--play-sims', '30', cwd=workdir)
    assert result.returncode == 0, result.stderr[-3000:]
    assert (workdir / 'model' / 'best.h5').exists() and (workdir / 'model' / 'best.onnx').exists()
    assert (workdir / 'model' / 'latest.h5').exists()
    # --keep-every 2: a copy of the best model after the second cycle, and none after the first
    kept = workdir / 'model' / 'kept'
    assert sorted(p.name for p in kept.iterdir()) == ['best-cycle0002.h5']
    assert (kept / 'best-cycle0002.h5').read_bytes() == (workdir / 'model' / 'best.h5').read_bytes()
    assert len(list((workdir / 'data').glob('*.npz'))) == 2
    assert onnx_is_current(str(workdir / 'model' / 'best.onnx'), str(workdir / 'model' / 'best.h5'))
    assert 'Train 1 (cycle 2 of 2) ====' in result.stdout and 'python human_play.py' in result.stdout
    # The model records the search it is to play with, and its export too
    assert recorded_sims(str(workdir / 'model' / 'latest.h5')) == 30 and 'it records 30 simulations' in result.stdout
    # One metrics record per cycle, and the charts
    records = [json.loads(line) for line in (workdir / 'model' / 'metrics.jsonl').read_text().splitlines()]
    assert [r['cycle'] for r in records] == [1, 2]
    for record in records:
        assert len(record['policy_loss']) == len(record['value_loss']) == 2 and record['learning_rate'] == 0.0005
        assert set(record['seconds']) >= {'self_play', 'train', 'evaluate', 'exact'}
        assert record['games'] == 8 and record['positions'] >= 8 * 5 and 0 <= record['gate_score'] <= 1
        assert 0 < record['exact']['optimal_move_accuracy'] <= 1
        assert (record['scores'] is not None) == record['best_changed']
        assert record['gate'] is True and ('Keep BestPlayer' in result.stdout) != all(r['best_changed'] for r in records)
    if any(r['best_changed'] for r in records):
        assert recorded_sims(str(workdir / 'model' / 'best.h5')) == recorded_sims(str(workdir / 'model' / 'best.onnx')) == 30
    if not records[1]['best_changed']:  # the same best player is not judged twice
        assert records[1]['exact'] == records[0]['exact'] and records[1]['seconds']['exact'] < 0.5
    for chart in ('chart_losses.png', 'chart_gate.png', 'chart_strength.png'):
        assert (workdir / 'model' / chart).read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    # No file is left under a temporary name, and the shipped models are untouched
    assert not [p for p in workdir.rglob('.*tmp*')]
    assert tree_digest(PRETRAINED_DIR) == shipped


@pytest.mark.slow
def test_train_cycle_starts_a_new_run_from_a_trained_model(workdir, monkeypatch, capsys):
    from games.connect4 import game as connect4
    from alphazero.cli.run import run
    import train_cycle
    save_model(tiny_model(seed=3, filters=4), 'start/trained.h5')
    save_model(tiny_model(filters=4, rules=connect4), 'start/connect4.h5')
    given = (workdir / 'start' / 'trained.h5').read_bytes()

    # Another game's model, an ONNX file or a missing one: one line, and no run is begun
    for source, message in (('start/connect4.h5', 'tictactoe needs'), ('start/trained.onnx', 'give the Keras model'),
                            ('start/missing.h5', 'not found')):
        monkeypatch.setattr(sys, 'argv', ['train_cycle.py', '--cycles', '1', '--start-from', source])
        with pytest.raises(SystemExit):
            run(train_cycle.main)
        assert message in capsys.readouterr().err
        assert not (workdir / 'model').exists()

    # The run begins from the given network (4 filters, not the 8 asked of a new one) and trains it
    flags = ['--cycles', '1', '--games', '4', '--sims', '4', '--epochs', '1', '--filters', '8', '--blocks', '1',
             '--eval-games', '2', '--best-games', '2', '--window', '3', '--start-from', 'start/trained.h5']
    result = run_script('train_cycle.py', *flags, cwd=workdir)
    assert result.returncode == 0, result.stderr[-3000:]
    assert 'starting from start/trained.h5' in result.stdout
    import keras
    latest = keras.models.load_model(workdir / 'model' / 'latest.h5', compile=False)
    assert latest.count_params() == tiny_model(filters=4).count_params() != tiny_model(filters=8).count_params()
    assert (workdir / 'start' / 'trained.h5').read_bytes() == given
    # Run again, it goes on from its own best.h5; only the first cycle filled the window (3 x 4 games)
    result = run_script('train_cycle.py', *flags[:1], '2', *flags[2:], cwd=workdir)
    assert result.returncode == 0, result.stderr[-3000:]
    assert 'continuing from model/best.h5' in result.stdout and '1 cycles done before' in result.stdout
    records = [json.loads(line) for line in (workdir / 'model' / 'metrics.jsonl').read_text().splitlines()]
    assert [record['games'] for record in records] == [12, 4]
