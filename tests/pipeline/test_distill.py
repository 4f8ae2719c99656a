"""Distillation: a teacher's self-play games teach a fresh, smaller student."""
import json
import re
import types

import numpy as np
import pytest

import game
from alphazero.network.model_file import recorded_sims, save_model
from alphazero.game.registry import sample_positions
from alphazero.network.runtimes import OnnxNetwork
from conftest import run_script, tiny_model


@pytest.mark.slow
def test_the_student_learns_what_it_is_shown():
    from distill import agreement, train_student
    from alphazero.network.runtimes import KerasNetwork
    # A teacher that always plays the first legal square: the student should learn to agree
    states = sample_positions(game, 400, seed=1)
    position = np.stack([s.planes() for s in states])
    policy = np.zeros((len(states), 9), np.float32)
    policy[np.arange(len(states)), [s.legal_actions()[0] for s in states]] = 1
    value = np.zeros(len(states), np.float32)
    from alphazero.settings import NetworkSettings
    network = NetworkSettings('resnet', filters=16, blocks=1)
    # The first legal square is not symmetric: train without turning the board (one symmetry)
    identity = types.SimpleNamespace(INPUT_SHAPE=game.INPUT_SHAPE, ACTION_COUNT=game.ACTION_COUNT, SYMMETRIES=game.SYMMETRIES[:1])
    student = train_student(identity, network, (position, policy, value), 30, 32, np.random.default_rng(0), seed=0)
    assert agreement(KerasNetwork(student), position, policy) > 0.8


@pytest.mark.slow
def test_distill_writes_a_student_and_measures_it_against_its_teacher(workdir):
    save_model(tiny_model(filters=16, blocks=2), 'model/best.h5')
    result = run_script('distill.py', '--teacher', 'model/best.h5', '--games', '20', '--sims', '8', '--epochs', '2',
                        '--match-games', '4', '--opening', '1', '--filters', '8', '--blocks', '1', '--seed', '0',
                        '--play-sims', '30', cwd=workdir)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads((workdir / 'model' / 'student.json').read_text())
    assert report['student'] == 'book: 1 blocks, 8 filters' and report['teacher_games'] == 20 and report['opening'] == 1
    assert 0 <= report['agreement'] <= 1 and report['agreement_positions'] > 0
    assert report['vs_teacher']['games'] == 4 and report['file_bytes']['student'] < report['file_bytes']['teacher']
    assert OnnxNetwork(str(workdir / 'model' / 'student.onnx')).input_shape == (3, 3, 2)
    assert recorded_sims(str(workdir / 'model' / 'student.h5')) == 30  # what it is to play with
    assert 'agrees with the teacher' in result.stdout and 'student vs teacher at 8 simulations' in result.stdout
    # The closing line says how to play the student, in a window and in the browser, with files that exist
    played = re.findall(r'(human_play|play_web)\.py --model (\S+?),?\s', result.stdout)
    assert [script for script, _ in played] == ['human_play', 'play_web'], result.stdout
    assert all((workdir / path).exists() for _, path in played), played


@pytest.mark.slow
def test_the_teacher_plays_as_the_self_play_flags_say(workdir):
    # The search and exploration flags reach the teacher's self-play
    save_model(tiny_model(filters=16, blocks=2), 'model/best.h5')
    result = run_script('distill.py', '--teacher', 'model/best.h5', '--games', '20', '--sims', '8', '--epochs', '1',
                        '--match-games', '0', '--q-ratio', '0.5', '--gumbel', '4', '--filters', '8', '--blocks', '1', '--seed', '0', cwd=workdir)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads((workdir / 'model' / 'student.json').read_text())
    played = report['teacher_self_play']
    assert played['exploration']['q_ratio'] == 0.5 and played['search']['gumbel'] == 4
    # 18 games learned from (2 kept for the match), each of at least 5 moves
    assert report['positions_learned'] >= 18 * 5


def test_a_game_with_hidden_information_refuses_gumbel_before_the_teacher_plays(workdir):
    result = run_script('distill.py', '--game', 'pointothello', '--teacher', 'model/best.h5', '--gumbel', '4', cwd=workdir)
    assert result.returncode == 2 and '--gumbel: pointothello hides part of the position' in result.stderr
    assert not (workdir / 'runs').exists()
