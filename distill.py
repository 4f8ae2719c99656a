# ====================
# Distillation (beyond the book: as the point-Othello page distils its network for the browser)
# ====================
# A big network plays well but slowly. Here it teaches a small one: the teacher plays --games
# self-play games with its search, and a fresh, smaller student learns the teacher's move
# distributions and the games' results (the student never plays). The point-Othello page does this to run a
# 5-block network in the browser after training a 10-block one.
#
#   python distill.py --game othello8 --teacher runs/othello8/model/best.h5 --blocks 2 --filters 32 --games 500
#
# Writes the student as runs/NAME/model/student.h5 and .onnx (play it with --model), and
# student.json: how it was made and how it measured against its teacher (its agreement with the
# teacher's move on held-out games, a duplicate match at equal simulations, sizes and speeds).

import dataclasses
from dataclasses import replace
import os
import tempfile

import numpy as np
from tqdm import tqdm

from alphazero.cli.flags import add_settings_flags, settings_of
from alphazero.cli.run import ArgumentParser, run
from alphazero.cli.settings import parse_game_args
from alphazero.data.run_folder import hold_run_folder
from alphazero.data.training import EpochPlace, compile_model, epoch_batches, train_epoch
from alphazero.errors import UserError
from alphazero.files import write_json
from alphazero.game.paths import model_path
from alphazero.game.registry import add_game_flag, game_flag, load_game
from alphazero.limits import MAX_GAMES, check_network, check_self_play, file_path, seed, whole_number
from alphazero.network.keras_setup import quiet_keras
from alphazero.network.load import load_network
from alphazero.network.model_file import save_model
from alphazero.network.onnx_export import export
from alphazero.network.runtimes import OnnxNetwork, evaluation_rate
from alphazero.play.elo import match_summary
from alphazero.play.matches import play_match
from alphazero.play.openings import paired_openings
from alphazero.play.agent import Agent
from alphazero.play.self_play_games import play_self_play
from alphazero.settings import (
    EvaluationSettings,
    ExplorationSettings,
    NetworkSettings,
    PlaySettings,
    SearchSettings,
    SelfPlaySettings,
)
from dual_network import build_network, describe_network
from train_network import RN_BATCH_SIZE

# Parameters
DS_GAME_COUNT = 500       # teacher self-play games
DS_EPOCHS = 10            # passes over the teacher's positions
DS_HELD_OUT = 0.1         # share of the games kept to measure the student's agreement with the teacher
DS_MATCH_GAMES = 40       # student vs teacher games at equal simulations (duplicate pairs where dealt)
DS_NETWORK = NetworkSettings.network  # the student's network unless the game's recipe or --network says otherwise
DS_FILTERS, DS_BLOCKS = 32, 2  # the student's size unless --filters and --blocks say otherwise
SPEED_BATCH = 128         # positions per network call when timing the two networks
SPEED_SECONDS = 3.0       # and how long each is timed


# The student learns the teacher's distributions and the results, each position in a random symmetry
def train_student(game, network, data, epochs, batch_size, rng, seed=None):  # network: NetworkSettings
    quiet_keras()
    import keras
    if seed is not None:
        keras.utils.set_random_seed(seed)
    model = build_network(game, network)
    compile_model(model)
    with tqdm(total=epochs * epoch_batches(data, batch_size), desc=f'train the student ({epochs} epochs)',
              unit='batch') as bar:
        for epoch in range(epochs):
            loss = train_epoch(model, game, data, batch_size, EpochPlace.drawn(rng), bar)
            bar.set_postfix(epoch=epoch + 1, loss=f'{loss:.3f}')
    return model


# The share of positions where the student's most likely move is the teacher's most visited one
def agreement(student, position, policy):
    predicted, _ = student(position)
    return float(np.mean(predicted.argmax(axis=1) == policy.argmax(axis=1)))


def parse_args(argv=None):
    parser = ArgumentParser(description='Distill a trained network (the teacher) into a smaller one (the '
                                        'student) from the teacher\'s self-play games.')
    add_game_flag(parser)
    parser.add_argument('--teacher', required=True, type=file_path, help='the teacher model (.h5 or .onnx)')
    add_settings_flags(parser, SelfPlaySettings, only=('games',), games=DS_GAME_COUNT)
    add_settings_flags(parser, SearchSettings)
    parser.add_argument('--epochs', type=whole_number(1), default=DS_EPOCHS, help='passes over the teacher\'s positions (default: %(default)s)')
    parser.add_argument('--match-games', type=whole_number(0, MAX_GAMES), default=DS_MATCH_GAMES,
                        help='student vs teacher games at equal simulations (default: %(default)s)')
    add_settings_flags(parser, EvaluationSettings, only=('opening',))
    parser.add_argument('--seed', type=seed, help='random seed of the games, the split and the student')
    add_settings_flags(parser, ExplorationSettings)
    add_settings_flags(parser, NetworkSettings, only=('network', 'filters', 'blocks', 'width', 'layers', 'heads'),
                       network=DS_NETWORK, filters=DS_FILTERS, blocks=DS_BLOCKS)
    add_settings_flags(parser, PlaySettings)
    args = parse_game_args(parser, argv, ('search', 'exploration', 'student', 'play'))
    game = load_game(args.game)
    check_network(game, settings_of(NetworkSettings, args))
    check_self_play(game, args.games, args.sims, SelfPlaySettings.parallel)
    # Said before the teacher plays: the match searches only what a player sees, as every match does
    if args.match_games and args.gumbel and game.determinize is not None:
        raise UserError(f'--gumbel: {game.NAME} hides part of the position, and the student-vs-teacher match '
                        'searches only what a player sees, which Gumbel root search cannot: give --match-games 0')
    return args


def main():
    args = parse_args()
    game = load_game(args.game)
    hold_run_folder(game)  # the student goes into the game's model folder
    rng = np.random.default_rng(args.seed)
    teacher, description = load_network(args.teacher, game)
    if not isinstance(teacher, OnnxNetwork):  # both networks play (and are timed) on onnxruntime
        teacher_onnx = os.path.join(tempfile.mkdtemp(), 'teacher.onnx')
        export(args.teacher, teacher_onnx, game)
        teacher, description = OnnxNetwork(teacher_onnx), f'{args.teacher} on onnxruntime (exported for this run)'
    print(f'teacher: {description}')

    # The teacher's games, split by game: most to learn from, some to measure agreement on
    # (the teacher plays as in self-play: temperature 1, the game's search and exploration settings)
    plays, search = settings_of(SelfPlaySettings, args), settings_of(SearchSettings, args)
    exploration = settings_of(ExplorationSettings, args)
    held_out = max(1, round(DS_HELD_OUT * args.games)) if args.games > 1 else 0
    with tqdm(total=args.games, desc='teacher self-play', unit='game') as progress:
        measure = (play_self_play(game, teacher, dataclasses.replace(plays, games=held_out), search, exploration, rng,
                                  progress)[0] if held_out else None)
        learn, _ = play_self_play(game, teacher, dataclasses.replace(plays, games=args.games - held_out), search,
                                  exploration, rng, progress)

    # The student, from scratch
    network = settings_of(NetworkSettings, args)
    model = train_student(game, network, learn, args.epochs, RN_BATCH_SIZE, rng, args.seed)
    student_path = model_path(game, 'student.h5')
    save_model(model, student_path, args.play_sims or args.sims)
    export(student_path, game=game)
    student = OnnxNetwork(os.path.splitext(student_path)[0] + '.onnx')

    # How it measures against its teacher
    report = {'game': game.NAME, 'teacher': args.teacher, 'teacher_games': args.games, 'sims': args.sims,
              'teacher_self_play': {name: dataclasses.asdict(settings) for name, settings in
                                    (('self_play', plays), ('search', search), ('exploration', exploration))},
              'epochs': args.epochs, 'opening': args.opening, 'student': describe_network(network),
              'parameters': model.count_params(), 'positions_learned': len(learn[2])}
    if measure:
        report['agreement'] = agreement(student, measure[0], measure[1])
        report['agreement_positions'] = len(measure[2])
    sizes = {name: os.path.getsize(network.path) for name, network in (('teacher', teacher), ('student', student))}
    report['file_bytes'] = sizes
    report['positions_per_second'] = {'teacher': evaluation_rate(teacher, learn[0][:SPEED_BATCH], SPEED_SECONDS),
                                      'student': evaluation_rate(student, learn[0][:SPEED_BATCH], SPEED_SECONDS)}
    if args.match_games:
        students, teachers = (Agent(game, network, replace(search, solver=False), rng=rng)
                              for network in (student, teacher))
        openings = paired_openings(game, args.opening, args.match_games, rng)  # deterministic players: vary the games
        with tqdm(total=args.match_games, desc='student vs teacher', unit='game') as progress:
            report['vs_teacher'] = match_summary(play_match(game, students, teachers, args.match_games, progress,
                                                            openings))
    write_json(model_path(game, 'student.json'), report, indent=1)

    # Say it in a few lines
    print(f'student: {report["student"]}, {report["parameters"]:,} parameters, ONNX {sizes["student"] / 1e6:.2f} MB '
          f'(teacher {sizes["teacher"] / 1e6:.2f} MB), learned from {report["positions_learned"]:,} positions')
    if measure:
        print(f'agrees with the teacher\'s move in {report["agreement"]:.1%} of {len(measure[2]):,} held-out positions')
    speed = report['positions_per_second']
    print(f'onnxruntime, batch {SPEED_BATCH}: student {speed["student"]:,.0f} positions/s, teacher {speed["teacher"]:,.0f}')
    if args.match_games:
        print(f'student vs teacher at {args.sims} simulations: {report["vs_teacher"]["all"]:.3f} in {args.match_games} games')
    flag = game_flag(game)
    print(f'wrote {student_path} and its .onnx; play it: python human_play.py{flag} --model {student_path}, '
          f'or in the browser: python play_web.py{flag} --model {student.path}')


if __name__ == '__main__':
    run(main)
