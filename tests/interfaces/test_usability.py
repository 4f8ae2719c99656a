"""What a newcomer meets first: quiet start-up, --help everywhere, clear charts and messages, and
the search a model was trained with used to play it."""
import os
import re
import subprocess
import sys

import matplotlib
import pytest

from alphazero.network.model_file import recorded_sims, save_model
from conftest import REPO, run_script, tiny_model

matplotlib.use('Agg')


@pytest.mark.slow
def test_tensorflow_start_up_notices_are_not_shown(workdir):
    result = run_script('dual_network.py', '--filters', '8', '--blocks', '1', cwd=workdir, fresh=True)
    assert result.returncode == 0, result.stderr
    assert 'absl::InitializeLog' not in result.stderr and 'oneDNN' not in result.stderr
    assert 'created model/best.h5' in result.stdout


@pytest.mark.parametrize('command', [['game.py'], ['pv_mcts.py'], *(['-m', f'games.{name}.game'] for name in
                                                                  ('connect4', 'othello8', 'pointothello', 'shogi'))])
def test_help_prints_usage_instead_of_playing(workdir, command):
    # a game module plays a random game when run alone: python game.py, python -m games.NAME.game
    result = subprocess.run([sys.executable, *command, '--help'], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith('usage:')
    assert len(result.stdout.splitlines()) < 10  # no board printed


@pytest.mark.parametrize('script', ['distill.py', 'train_records.py', 'make_records.py'])
def test_help_needs_none_of_the_required_arguments(workdir, script):
    result = run_script(script, '--game', 'othello8', '--help', cwd=workdir, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith('usage:'), result.stderr[-500:]


def test_help_shows_the_defaults_of_the_chosen_game_and_preset(capsys):
    from train_cycle import parse_args
    for argv, shown in [(['--game', 'connect4'], ['(default: resnet)', 'K     each game', '(default: 2)']),
                        (['--preset', 'fast'], ['(default: 400)', '(default: 0.3)'])]:
        with pytest.raises(SystemExit):
            parse_args([*argv, '--help'])
        text = ' '.join(capsys.readouterr().out.split())
        assert all(' '.join(s.split()) in text for s in shown), (argv, text)


@pytest.mark.parametrize('port', ['99999', '-1'])
def test_play_web_refuses_a_port_out_of_range_in_one_line(workdir, port):
    result = run_script('play_web.py', '--port', port, cwd=workdir, timeout=60)
    assert result.returncode == 2 and 'Traceback' not in result.stderr
    assert result.stderr.strip().splitlines() == [f'error: argument --port: {port} is out of range: give 0 to 65,535 '
                                                  '(play_web.py --help lists the flags)']


@pytest.mark.slow
def test_one_game_match_reports_only_the_side_played(tiny_best):
    result = run_script('evaluate_best_player.py', '--games', '1', '--sims', '4', cwd='.')
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line for line in result.stdout.splitlines() if line.startswith('VS_')]
    assert lines and all('(as first ' in line and 'second' not in line and 'None' not in line for line in lines)


@pytest.mark.slow
def test_players_search_with_the_simulations_the_model_records(workdir):
    save_model(tiny_model(), 'model/best.h5', sims=37)
    assert recorded_sims('model/best.h5') == 37
    gtp = [sys.executable, f'{REPO}/gtp_engine.py']
    said = subprocess.run(gtp, input='quit\n', capture_output=True, text=True, timeout=120).stderr
    assert '37 simulations per move at full strength (as recorded in best.h5)' in said
    said = subprocess.run(gtp + ['--sims', '5'], input='quit\n', capture_output=True, text=True, timeout=120).stderr
    assert '5 simulations per move at full strength (as asked)' in said
    result = run_script('evaluate_best_player.py', '--games', '2', cwd=workdir)
    assert 'searches 37 simulations per move (as recorded in best.h5)' in result.stdout
    # A game whose training defaults name a number of simulations plays with the model's all the same
    from alphazero.game.registry import load_game
    save_model(tiny_model(rules=load_game('othello8')), 'runs/othello8/model/best.h5', sims=23)
    said = subprocess.run(gtp + ['--game', 'othello8'], input='quit\n', capture_output=True, text=True, timeout=120).stderr
    assert '23 simulations per move at full strength (as recorded in best.h5)' in said


def test_export_carries_the_recorded_simulations(workdir):
    from export import export
    save_model(tiny_model(), 'model/best.h5', sims=400)
    export()
    assert recorded_sims('model/best.onnx') == 400
    save_model(tiny_model(), 'model/best.h5')
    export()
    assert recorded_sims('model/best.onnx') is None


@pytest.mark.slow
def test_exporting_every_cycle_does_not_make_tensorflow_warn_of_retracing(workdir, caplog):
    from export import export
    for _ in range(6):  # TensorFlow warns from the fifth trace of one function on
        save_model(tiny_model(), 'model/best.h5')
        export()
    assert not [record for record in caplog.records if 'retracing' in record.getMessage()]


def gate_record(cycle, score, gate, changed):
    return {'cycle': cycle, 'gate_score': score, 'gate': gate, 'best_changed': changed}


def legend(figure, axes=0):
    return [text.get_text() for text in figure.axes[axes].get_legend().get_texts()]


def test_gate_chart_says_when_the_gate_is_off():
    from matplotlib import pyplot

    from plot import plot_gate
    off = plot_gate([gate_record(1, 0.45, False, True), gate_record(2, 0.6, False, True)], pyplot)
    assert '(gate off' in off.axes[0].get_title()
    assert legend(off) == ['gate off: latest became the best player whatever its score', '0.5 (the gate is off)']
    on = plot_gate([gate_record(1, 0.45, True, False), gate_record(2, 0.6, True, True)], pyplot)
    assert legend(on) == ['latest beat the bar and became the best player', 'best player kept',
                          'the gate: latest must score more than 0.5']
    pyplot.close('all')


def test_strength_chart_counts_wrong_positions_on_a_log_scale():
    from matplotlib import pyplot

    from plot import plot_strength
    exact = [{'positions': 4520, 'optimal_move_accuracy': a, 'value_accuracy': 0.9} for a in (0.99, 0.9995, 1.0)]
    records = [{'cycle': c + 1, 'exact': e, 'scores': None} for c, e in enumerate(exact)]
    figure = plot_strength(records, pyplot)
    axes = figure.axes[0]
    assert axes.get_yscale() == 'symlog'
    assert list(axes.get_lines()[0].get_ydata()) == [45, 2, 0]   # the last wrong positions stay visible
    assert 'of 4,520' in axes.get_title()
    pyplot.close('all')


@pytest.mark.slow
def test_evaluate_best_player_plays_only_the_opponents_named(tiny_best):
    result = run_script('evaluate_best_player.py', '--games', '2', '--sims', '2', '--opponent', 'random',
                        '--opponent', 'VS_MCTS', cwd='.')
    assert result.returncode == 0, result.stderr[-2000:]
    played = sorted(line.split()[0] for line in result.stdout.splitlines() if line.startswith('VS_'))
    assert played == ['VS_MCTS', 'VS_Random']
    result = run_script('evaluate_best_player.py', '--opponent', 'alphabeta9', cwd='.')
    assert result.returncode == 2 and 'Traceback' not in result.stderr
    assert result.stderr.strip() == 'error: --opponent alphabeta9: tictactoe has the opponents random, alphabeta, mcts (or none)'


@pytest.mark.slow
def test_evaluate_best_player_evaluates_the_model_given(tiny_best):
    os.rename('model/best.h5', 'other.h5')   # no best.h5 of its own: without --model the shipped one would play
    result = run_script('evaluate_best_player.py', '--model', 'other.h5', '--games', '2', '--sims', '2',
                        '--opponent', 'random', '--parallel', '1', cwd='.')
    assert result.returncode == 0, result.stderr[-2000:]
    assert 'shipped' not in result.stderr and 'VS_Random' in result.stdout
    # --versus: two models head to head, in this process (GTP cannot carry every game)
    result = run_script('evaluate_best_player.py', '--model', 'other.h5', '--versus', 'other.h5', '--opponent', 'none',
                        '--games', '4', '--sims', '2', cwd='.')
    assert result.returncode == 0, result.stderr[-2000:]
    [line] = [line for line in result.stdout.splitlines() if line.startswith('other.h5 ')]
    won, drew, lost = map(int, re.search(r'won (\d+), drew (\d+), lost (\d+)', line).groups())
    assert won + drew + lost == 4 and not any(line.startswith('VS_') for line in result.stdout.splitlines())
    # --versus-sims: the other model searches more (an int8 twin at equal time), and each side's time a move is said
    result = run_script('evaluate_best_player.py', '--model', 'other.h5', '--versus', 'other.h5', '--versus-sims', '8',
                        '--opponent', 'none', '--games', '2', '--sims', '2', cwd='.')
    assert result.returncode == 0, result.stderr[-2000:]
    costs = re.search(r'thinking time a move, .*: the best player ([\d.]+) ms, other.h5 ([\d.]+) ms', result.stdout)
    assert costs and all(float(ms) > 0 for ms in costs.groups())
    result = run_script('evaluate_best_player.py', '--versus-sims', '8', '--opponent', 'random', cwd='.')
    assert result.returncode == 2 and result.stderr.strip().startswith('error: --versus-sims sets the search of --versus')
    result = run_script('evaluate_best_player.py', '--parallel', '0', cwd='.')
    assert result.returncode == 2 and 'argument --parallel: 0 is out of range' in result.stderr
    result = run_script('evaluate_best_player.py', '--model', 'missing.h5', cwd='.')
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith('error: missing.h5 not found')


def test_progress_of_games_that_end_together_counts_their_moves(monkeypatch):
    """Games played side by side all end near the end of a match: until then the bar shows moves."""
    import io

    from tqdm import tqdm

    import alphazero.play.loop as loop
    import game
    from alphazero.game.opponents import random_action
    from alphazero.play.players import FunctionPlayer
    clock = iter(range(0, 10_000, 2))  # each look at the clock: two seconds later
    monkeypatch.setattr(loop.time, 'monotonic', lambda: next(clock))
    player = FunctionPlayer(random_action)
    progress = tqdm(total=2, file=io.StringIO())
    played = loop.play_games(game.State, [(player, player)] * 2, progress=progress)
    assert progress.postfix == f'{sum(len(g.moves) for g in played)} moves'
    assert re.search(r'\d+ moves', progress.fp.getvalue())
