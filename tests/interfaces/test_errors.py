"""Bad input gets a clear message and loses nothing."""
import os
import pickle

import numpy as np
import pytest

import game
from alphazero.errors import UserError
from alphazero.files import atomic_output
from alphazero.data.history import history_files, read_history, write_history
from alphazero.network.model_file import load_model, save_model
from conftest import run_script, tiny_model
from alphazero.game.registry import as_game, load_game
from human_play import ask_action
from train_network import load_data


def test_missing_model_names_the_command_that_creates_it(workdir):
    result = run_script('self_play.py', '--games', '1', cwd=workdir)
    assert result.returncode == 2
    assert 'model/best.h5 not found' in result.stderr and 'python dual_network.py' in result.stderr
    assert 'Traceback' not in result.stderr


def test_model_for_another_board_is_refused_with_the_expected_shapes(workdir):
    import keras
    from dual_network import build_dual_network
    keras.utils.set_random_seed(0)
    save_model(build_dual_network((4, 4, 2), 16, 8, 1), 'model/best.h5')
    with pytest.raises(UserError) as error:
        load_model('model/best.h5', game)
    message = str(error.value)
    assert message.startswith('model/best.h5 takes input (4, 4, 2), but tictactoe needs (3, 3, 2): move it away, then')
    assert '--game' not in message  # no game takes 4 x 4 planes


@pytest.mark.slow
def test_a_model_of_another_game_names_the_game_it_fits(workdir):
    from alphazero.game.registry import load_game
    othello8 = load_game('othello8')
    save_model(tiny_model(rules=othello8), 'other.h5')
    result = run_script('export.py', 'other.h5', cwd=workdir)
    assert result.returncode != 0 and 'Traceback' not in result.stderr
    assert 'other.h5 takes input (8, 8, 2), but tictactoe needs (3, 3, 2)' in result.stderr
    assert result.stderr.strip().endswith('if it is a model of othello8, add --game othello8.')


@pytest.mark.parametrize('content', ['truncated', 'text'])
def test_damaged_model_file_is_reported_by_name(workdir, content):
    save_model(tiny_model(), 'model/best.h5')
    data = open('model/best.h5', 'rb').read()
    with open('model/best.h5', 'wb') as f:
        f.write(data[:len(data) // 2] if content == 'truncated' else b'this is not a model\n')
    with pytest.raises(UserError) as error:
        load_model('model/best.h5', game)
    assert 'model/best.h5 is not a readable Keras model' in str(error.value)
    assert 'python dual_network.py' in str(error.value)


@pytest.mark.slow
def test_damaged_model_through_the_command_line_has_no_traceback(workdir):
    os.makedirs('model')
    with open('model/best.h5', 'w') as f:
        f.write('garbage')
    result = run_script('evaluate_best_player.py', '--games', '1', cwd=workdir)
    assert result.returncode == 2 and 'model/best.h5 is not a readable Keras model' in result.stderr
    assert 'Traceback' not in result.stderr


@pytest.mark.parametrize('script, args', [('train_cycle.py', ['--cycles', 'many']),
                                          ('self_play.py', ['--frobnicate']),
                                          ('human_play.py', ['--game', 'chess']),
                                          ('train_cycle.py', ['--dirichlet', '-0.3'])])
def test_nonsense_flags_are_one_line_that_points_to_the_help(workdir, script, args):
    result = run_script(script, *args, cwd=workdir)
    [line] = result.stderr.splitlines()
    assert result.returncode == 2 and line.startswith('error: ') and line.endswith(f'({script} --help lists the flags)')


def test_out_of_range_flags_are_explained(workdir):
    result = run_script('self_play.py', '--games', '0', cwd=workdir)
    assert result.returncode == 2
    assert result.stderr.startswith('error: argument --games: 0 is out of range: give 1 to 10,000,000 (self_play.py')


def test_illegal_or_malformed_human_moves_are_asked_again(capsys):
    state = game.State().next(4)
    answers = iter(['', 'four', '4', 'j9', 'b2', ' A1 '])  # b2 is taken; squares by column and row
    assert ask_action(state, lambda prompt: next(answers), as_game(game)) == 0
    assert capsys.readouterr().out.count('is not a legal move') == 5
    assert ask_action(state, lambda prompt: (_ for _ in ()).throw(EOFError), as_game(game)) is None


def test_human_text_game_against_the_ai(tiny_best, capsys):
    from human_play import play_text
    from pv_mcts import pv_mcts_action
    answers = iter('b2 a1 b1 c1 a2 c2 a3 b3 c3'.split() * 3)
    ended = play_text(game, pv_mcts_action(tiny_best, 0.0, 10), True, lambda prompt: next(answers))
    assert ended.is_done()
    assert capsys.readouterr().out.strip().splitlines()[-1] in ('You win', 'You lose', 'Draw')


def test_corrupt_history_file_is_reported_by_name_and_skipped(workdir, capsys):
    state = game.State()
    write_history('data/20260101000000.npz', state.planes()[None], np.full((1, 9), 1 / 9), np.ones(1))
    with open('data/20260102000000.npz', 'wb') as f:
        f.write(b'PK\x03\x04 truncated zip')
    position, _, value = load_data()
    assert len(position) == 1 and value[0] == 1  # the older, readable file
    assert 'data/20260102000000.npz is not a readable history file' in capsys.readouterr().err
    os.remove('data/20260101000000.npz')
    with pytest.raises(UserError, match='no readable history file'):
        load_data()
    write_history('data/20260101000001.npz', np.zeros((2, 3, 3, 2)), np.zeros((2, 7)), np.zeros(2))
    with pytest.raises(UserError, match=r'data/20260101000001.npz holds .* \(N, 9\)'):
        read_history('data/20260101000001.npz', game)


def test_book_pickle_history_is_read_only_when_trusted(workdir):
    os.makedirs('data')
    state = game.State().next(4)
    record = [[state.pieces, state.enemy_pieces], [0.5, 0.5] + [0] * 7, -1]
    with open('data/20260101000000.history', 'wb') as f:
        pickle.dump([record], f)
    with pytest.raises(UserError, match='--trust-pickle'):
        load_data()
    position, policy, value = load_data(trust_pickle=True)
    np.testing.assert_array_equal(position[0], state.planes())
    assert policy[0, 0] == 0.5 and value[0] == -1
    assert history_files('data', trust_pickle=True)[-1].endswith('.history')


def test_interrupted_write_leaves_the_old_file(workdir):
    with open('best.h5', 'w') as f:
        f.write('old')
    with pytest.raises(RuntimeError):
        with atomic_output('best.h5') as temporary:
            with open(temporary, 'w') as f:
                f.write('half')
            raise RuntimeError('killed while writing')
    assert open('best.h5').read() == 'old'
    assert os.listdir('.') == ['best.h5']


def test_missing_latest_model_names_the_stage_that_writes_it(tiny_best):
    result = run_script('evaluate_network.py', '--games', '2', cwd='.')
    assert result.returncode == 2
    assert result.stderr.strip() == 'error: model/latest.h5 not found: `python train_network.py` writes it.'


def test_a_model_given_by_the_user_is_never_to_be_deleted(workdir):
    with open('mine.h5', 'w') as f:
        f.write('not a model')
    with pytest.raises(UserError) as error:
        load_model('mine.h5', game)
    message = str(error.value)
    assert 'mine.h5 is not a readable Keras model' in message and 'give a model of tictactoe' in message
    assert 'elete' not in message and 'move it away' not in message


def test_an_onnx_model_plays_where_an_h5_does(tiny_best):
    from alphazero.network.runtimes import OnnxNetwork
    from alphazero.network.load import load_network
    from export import export
    export('model/best.h5', 'exported.onnx')
    network, description = load_network('exported.onnx', game)
    assert isinstance(network, OnnxNetwork) and description == 'exported.onnx on onnxruntime'
    result = run_script('human_play.py', '--text', '--model', 'exported.onnx', cwd='.', timeout=120)
    assert 'AI: exported.onnx on onnxruntime' in result.stderr and 'Traceback' not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize('argv', [['evaluate_network.py'], ['human_play.py', '--text', '--game', 'connect4', '--model', 'model/best.h5'],
                                  ['gtp_engine.py', '--model', 'nothere.onnx'], ['self_play.py', '--sims', '0'],
                                  ['train_network.py'],
                                  ['bench/settai_margins.py', '--game', 'connect4', '--opponent', 'alpha-beta 4', '--out', 'x.json'],
                                  ['bench/settai_margins.py', '--game', 'connect4', '--engines-only', '--out', 'x.json'],
                                  ['distill.py', '--teacher', 'model/best.h5', '--sims', '8', '--fast-sims', '8'],
                                  ['self_play.py', '--exact-values']])
def test_errors_are_one_short_line(tiny_best, argv):
    result = run_script(*argv, cwd='.', timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and lines[0].startswith('error: ') and len(lines[0]) <= 220, lines


@pytest.mark.slow
@pytest.mark.parametrize('model, said', [
    ('nothere.h5', 'エラー: nothere.h5 がありません: tictactoe のモデル（best.h5、または export.py が書き出す best.onnx）を指定してください。'),
    ('model', 'エラー: model はフォルダーです。中のモデルのファイル（たとえば model/best.h5）を指定してください。'),
    ('connect4.h5', 'エラー: connect4.h5 の入力は (6, 7, 2) ですが、tictactoe には (3, 3, 2) が必要です: tictactoe のモデル'
                    '（best.h5、または export.py が書き出す best.onnx）を指定してください。connect4 のモデルなら --game connect4 を付けてください。'),
    ('broken.onnx', 'エラー: broken.onnx は読み込める ONNX のモデルではありません（'),
])
def test_the_players_errors_in_japanese(tiny_best, model, said):
    """human_play.py --lang ja says what is wrong with a model in Japanese, in one line (エラー: ...)."""
    save_model(tiny_model(0, rules=load_game('connect4')), 'connect4.h5')
    open('broken.onnx', 'wb').write(b'not a model')
    result = run_script('human_play.py', '--text', '--lang', 'ja', '--model', model, cwd='.', timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and lines[0].startswith(said), lines


@pytest.mark.parametrize('script', ['self_play.py', 'train_network.py', 'train_cycle.py', 'evaluate_best_player.py'])
def test_device_gpu_without_a_gpu_says_so_in_one_line(workdir, script):
    result = run_script(script, '--device', 'gpu', cwd=workdir, timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and len(lines) == 1
    assert lines[0].startswith('error: --device gpu: onnxruntime finds no CUDA GPU here')
