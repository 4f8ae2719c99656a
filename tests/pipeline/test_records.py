"""Othello records: WTHOR and transcripts in and out, bad files, engine records and supervised training."""
import math
import os
import re
import shutil
import struct

import numpy as np
import pytest

from alphazero.game.registry import load_game
from alphazero.records.othello import WTB_GAME, WTB_HEADER, write_transcripts, write_wtb
from alphazero.records.common import RecordError, replay
from alphazero.records.read import read_records
from alphazero.game.notation import action_names
from conftest import need, random_records, run_script

othello8 = load_game('othello8')


@pytest.mark.parametrize('extension', ['wtb', 'txt'])
def test_records_round_trip(workdir, extension):
    games = random_records(30)
    (write_wtb if extension == 'wtb' else write_transcripts)(f'games.{extension}', games, othello8)
    assert read_records(f'games.{extension}', othello8) == (games, [])


def test_wthor_layout_matches_the_published_format(workdir):
    # f5 is 10 x row 5 + column 6 = 56 (a1 = 11); black's final disc count is in byte 6 of the game
    game = random_records(1, seed=3)[0]
    write_wtb('one.wtb', [game], othello8)
    data = open('one.wtb', 'rb').read()
    assert len(data) == 16 + 68
    header = WTB_HEADER.unpack_from(data)
    assert header[4] == 1 and header[7] == 8   # one game, an 8x8 board
    fields = WTB_GAME.unpack_from(data, 16)
    write_transcripts('one.txt', [game], othello8)
    names = re.findall('..', open('one.txt').read().strip())
    assert [10 * int(row) + 'abcdefgh'.index(column) + 1 for column, row in names] == list(fields[-1][:len(game)])
    assert not any(fields[-1][len(game):])
    _, final = replay(othello8, game)
    black = final.pieces if final.is_first_player() else final.enemy_pieces
    assert fields[3] == black.bit_count()


def test_a_csv_with_a_transcript_column_is_read(workdir):
    games = random_records(3, seed=1)
    write_transcripts('games.txt', games, othello8)
    rows = open('games.txt').read().split()
    with open('games.csv', 'w') as f:
        f.write('eOthello_game_id,winner,transcript\n' + ''.join(f'{i},1,{t}\n' for i, t in enumerate(rows)))
    assert read_records('games.csv', othello8) == (games, [])
    with open('other.csv', 'w') as f:
        f.write('id,moves\n1,f5d6\n')
    with pytest.raises(RecordError, match='no "transcript" column'):
        read_records('other.csv', othello8)


def test_bad_games_are_reported_by_file_and_game_and_skipped(workdir):
    games = random_records(3, seed=2)
    write_transcripts('games.txt', games, othello8)
    lines = open('games.txt').read().split()
    lines[1] = lines[1][:10] + 'a1' + lines[1][12:]      # an illegal move in the second game
    with open('games.txt', 'w') as f:
        f.write('\n'.join(['# made by hand', lines[0], lines[1], '4433221', lines[2]]) + '\n')
    found, problems = read_records('games.txt', othello8)
    assert found == [games[0], games[2]]
    assert problems[0] == 'games.txt:3: move 6 (a1) is illegal; game skipped'
    assert problems[1].startswith("games.txt:4: '443' at character 1 is not a square")

    # A truncated WTHOR file keeps its whole games; a short or foreign header is an error
    write_wtb('games.wtb', games, othello8)
    data = open('games.wtb', 'rb').read()
    open('cut.wtb', 'wb').write(data[:16 + 68 * 2 + 30])
    assert read_records('cut.wtb', othello8) == (games[:2], ['cut.wtb: truncated: the header says 3 games, the file holds 2'])
    open('short.wtb', 'wb').write(data[:5])
    with pytest.raises(RecordError, match='shorter than the 16-byte WTHOR header'):
        read_records('short.wtb', othello8)
    open('ten.wtb', 'wb').write(data[:12] + struct.pack('B', 10) + data[13:])
    with pytest.raises(RecordError, match='10x10 board'):
        read_records('ten.wtb', othello8)
    open('empty.txt', 'w').close()
    assert read_records('empty.txt', othello8) == ([], ['empty.txt: no games in the file'])


def test_train_records_refuses_bad_input_in_one_line(workdir):
    open('empty.txt', 'w').close()
    write_transcripts('games.txt', random_records(3, seed=1), othello8)
    for args, message in ((['empty.txt'], 'error: no readable othello8 game in empty.txt'),
                          (['missing.wtb'], 'error: missing.wtb: no such file'),
                          (['empty.txt', '--validation', '1'], 'error: argument --validation: 1 is out of range'),
                          (['games.txt', '--opening', '60', '--validation', '0'],
                           'error: the 3 games have no move after their first 60: give a smaller --opening'),
                          (['games.txt', '--anchor', '0.5'], 'error: --anchor 0.5 keeps a trained model near what it '
                           'was: add --from-best'),
                          (['games.txt', '--deepen', '2'], 'error: --deepen 2 adds blocks to a trained model: add '
                           '--from-best')):
        result = run_script('train_records.py', *args, cwd=workdir, timeout=120)
        assert result.returncode == 2 and result.stderr.strip().splitlines()[-1].startswith(message), result.stderr


@pytest.mark.slow
def test_supervised_training_learns_the_moves_of_a_player(workdir, capsys):
    # A player who always turns over the most discs: the 8-plane encoding shows that count, so a
    # tiny network can learn it; the validation games measure how well
    planes_game = load_game('othello8planes')

    def greedy(state):
        flips = planes_game.State(state.pieces, state.enemy_pieces, state.depth).planes()[..., 4].reshape(-1)
        return int(np.argmax(flips)) if flips.max() > 0 else othello8.PASS
    # Greedy games are all alike: 6 random moves first make them differ
    write_transcripts('greedy.txt', random_records(60, seed=7, choose=greedy, random_moves=6), othello8)

    from train_records import RecordsTraining, train_records
    from alphazero.records.positions import read_games
    from alphazero.settings import NetworkSettings
    network = NetworkSettings('resnet', filters=16, blocks=1)
    records = train_records(planes_game, read_games(planes_game, ['greedy.txt']), network, RecordsTraining(10, 32, 0.2), seed=0)
    assert records[-1]['train_loss'] < 0.8 * records[0]['train_loss']
    assert records[-1]['policy_accuracy'] > max(0.4, records[0]['policy_accuracy'])
    assert (workdir / 'runs' / 'othello8planes' / 'model' / 'best.onnx').exists()
    assert (workdir / 'runs' / 'othello8planes' / 'model' / 'chart_records.png').exists()
    # The progress bar counts every batch of every epoch, and no more
    out, err = capsys.readouterr()
    positions = int(re.search(r'training games \((\d+) positions\)', out).group(1))
    total = 10 * math.ceil(positions / 32)
    assert f'{total}/{total} [' in err


@pytest.mark.slow
def test_training_on_records_goes_on_where_it_was_stopped(workdir, monkeypatch):
    """Killed after the checkpoint of its first epoch, and again after one in the middle of its
    second, the same run goes on each time from there (the model and its optimizer as they were, the
    rest of the epoch's positions in the same order) and ends where an unstopped run ends, its losses
    the same; the checkpoint goes once best.h5 is written, and one of other games is not taken up."""
    import train_records as script
    import alphazero.data.training as training
    from alphazero.network.model_file import recorded_sims
    from alphazero.records.positions import read_games
    from alphazero.settings import NetworkSettings
    othello8 = load_game('othello8')
    write_transcripts('games.txt', random_records(40, seed=5), othello8)
    games, network = read_games(othello8, ['games.txt']), NetworkSettings('resnet', filters=8, blocks=1)
    model_dir = workdir / 'runs' / 'othello8' / 'model'
    checkpoints = lambda: sorted(p.name for p in model_dir.glob('records_checkpoint*'))
    monkeypatch.setattr(training, 'SEGMENT_BATCHES', training.STEPS_PER_EXECUTION)
    monkeypatch.setattr(script, 'CHECKPOINT_SECONDS', 0)
    settings = script.RecordsTraining(2, 64, 0.2)
    whole = script.train_records(othello8, games, network, settings, play_sims=30, seed=1)
    assert recorded_sims(str(model_dir / 'best.h5')) == 30  # the programs that play it search as asked
    os.rename(model_dir / 'best.h5', 'whole.h5')
    assert checkpoints() == []

    saved, save = [], script.save_checkpoint

    def killed_at(epochs, batches):
        def save_and_kill(path, model, state):
            save(path, model, state)
            saved.append(state['place'] and state['place']['batches'])
            if len(state['records']) == epochs and (state['place'] and state['place']['batches']) == batches:
                raise KeyboardInterrupt
        monkeypatch.setattr(script, 'save_checkpoint', save_and_kill)
        with pytest.raises(KeyboardInterrupt):
            script.train_records(othello8, games, network, settings, seed=1)
    killed_at(1, None)
    assert checkpoints() == ['records_checkpoint.json', 'records_checkpoint_1-0.keras']
    assert script.kept_checkpoint(str(model_dir / 'records_checkpoint.json'), 'another run') is None
    killed_at(1, 16)
    assert checkpoints() == ['records_checkpoint.json', 'records_checkpoint_1-16.keras']
    # 2,100 training positions: 33 batches an epoch, kept every 16 and at the end of the first epoch
    assert saved == [16, 32, None, 16]
    monkeypatch.setattr(script, 'save_checkpoint', save)
    resumed = script.train_records(othello8, games, network, settings, seed=1)
    assert [r['epoch'] for r in resumed] == [1, 2]
    # the same model; the training loss summed from Keras's means over other spans of batches
    assert [{**r, 'seconds': 0, 'train_loss': 0} for r in resumed] == [{**r, 'seconds': 0, 'train_loss': 0} for r in whole]
    assert [r['train_loss'] for r in resumed] == pytest.approx([r['train_loss'] for r in whole], rel=1e-6)
    assert checkpoints() == []


@pytest.mark.slow
def test_a_smaller_learning_rate_changes_the_trained_model_less(workdir):
    """--from-best with --learning-rate: the records train the model further by smaller steps, so
    its weights move less than at the default rate from the same start, the same games and seed."""
    import keras
    import train_records as script
    from alphazero.network.model_file import save_model
    from alphazero.records.positions import read_games
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    othello8 = load_game('othello8')
    write_transcripts('games.txt', random_records(20, seed=4), othello8)
    games = read_games(othello8, ['games.txt'])
    best = str(workdir / 'runs' / 'othello8' / 'model' / 'best.h5')
    save_model(build_network(othello8, NetworkSettings('resnet', filters=8, blocks=1)), 'start.h5')
    # the trained weights only: batch normalization's statistics follow the positions at any rate
    weights = lambda path: np.concatenate([np.reshape(w, -1) for w in keras.models.load_model(path, compile=False).trainable_weights])
    start, moved = weights('start.h5'), {}
    for rate in (script.TR_LEARNING_RATE, script.TR_LEARNING_RATE / 100):
        save_model(keras.models.load_model('start.h5', compile=False), best)
        args = script.parse_args(['--game', 'othello8', '--from-best', '--epochs', '1', '--learning-rate', str(rate), 'games.txt'])
        training = script.RecordsTraining(args.epochs, 64, 0.2, args.learning_rate)
        script.train_records(othello8, games, training=training, seed=1, from_best=args.from_best)
        moved[rate] = np.linalg.norm(weights(best) - start)
    assert 0 < moved[script.TR_LEARNING_RATE / 100] < moved[script.TR_LEARNING_RATE] / 5


@pytest.mark.slow
@pytest.mark.parametrize('network, margin_head', [('book', False), ('resnet', True)])
def test_a_deepened_model_says_what_it_said(network, margin_head):
    """dual_network.py's deepened: N residual blocks more, each starting as the identity, so that
    every output is what the trained model said."""
    import keras
    from alphazero.settings import NetworkSettings
    from dual_network import build_network, deepened
    planes = np.random.default_rng(1).random((32, *othello8.INPUT_SHAPE)).astype('float32')
    keras.utils.set_random_seed(3)
    model = build_network(othello8, NetworkSettings(network, filters=8, blocks=1, margin_head=margin_head))
    for layer in model.layers:  # batch statistics as a trained model has them, not the identity of a new one
        if isinstance(layer, keras.layers.BatchNormalization):
            layer.moving_mean.assign(np.full(layer.moving_mean.shape, 0.3))
            layer.moving_variance.assign(np.full(layer.moving_variance.shape, 2.0))
    deeper = deepened(model, othello8, 2)
    assert [sum(isinstance(layer, keras.layers.Add) for layer in m.layers) for m in (model, deeper)] == [1, 3]
    assert len(deeper.outputs) == len(model.outputs) == 2 + margin_head
    for before, after in zip(model.predict(planes, verbose=0), deeper.predict(planes, verbose=0)):
        assert np.abs(before - after).max() < 1e-6
    # a network of the deeper shape that was not copied says something else
    fresh = build_network(othello8, NetworkSettings(network, filters=8, blocks=3, margin_head=margin_head))
    assert np.abs(fresh.predict(planes, verbose=0)[0] - model.predict(planes, verbose=0)[0]).max() > 1e-3


@pytest.mark.slow
def test_train_records_deepens_best_and_the_new_blocks_learn(workdir):
    """--from-best --deepen 2: best.h5 is trained with two blocks more and written with them; the new
    blocks learn (their last batch normalisation's scale leaves zero)."""
    import keras
    import train_records as script
    from alphazero.network.model_file import save_model
    from alphazero.records.positions import read_games
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    write_transcripts('games.txt', random_records(20, seed=4), othello8)
    best = workdir / 'runs' / 'othello8' / 'model' / 'best.h5'
    save_model(build_network(othello8, NetworkSettings('resnet', filters=8, blocks=1)), str(best))
    args = script.parse_args(['--game', 'othello8', '--from-best', '--deepen', '2', '--epochs', '1', 'games.txt'])
    training = script.RecordsTraining(args.epochs, 32, 0.2, args.learning_rate)
    script.train_records(othello8, read_games(othello8, ['games.txt']), training=training, seed=1,
                         from_best=args.from_best, deepen=args.deepen)
    trained = keras.models.load_model(str(best), compile=False)
    assert sum(isinstance(layer, keras.layers.Add) for layer in trained.layers) == 3
    normalisations = [layer for layer in trained.layers if isinstance(layer, keras.layers.BatchNormalization)]
    assert np.abs(normalisations[4].gamma.numpy()).max() > 0  # the first new block's last


def test_a_model_with_a_margin_head_is_refused_in_one_line(workdir):
    """Records give no margins to train a margin head on: --from-best on such a model says so."""
    import train_records as script
    from alphazero.errors import UserError
    from alphazero.network.model_file import save_model
    from alphazero.records.positions import read_games
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    write_transcripts('games.txt', random_records(5, seed=4), othello8)
    best = workdir / 'runs' / 'othello8' / 'model' / 'best.h5'
    save_model(build_network(othello8, NetworkSettings('resnet', filters=8, blocks=1, margin_head=True)), str(best))
    with pytest.raises(UserError, match='has a margin head, which records do not train'):
        script.train_records(othello8, read_games(othello8, ['games.txt']), from_best=True)
    assert best.exists()


def test_only_a_residual_network_is_deepened():
    from alphazero.errors import UserError
    from alphazero.settings import NetworkSettings
    from dual_network import build_network, deepened
    transformer = build_network(othello8, NetworkSettings('transformer', width=8, layers=1, heads=2))
    with pytest.raises(UserError, match='--deepen adds residual blocks to a residual network'):
        deepened(transformer, othello8, 1)


@pytest.mark.slow
def test_an_anchor_keeps_what_the_model_knew(workdir):
    """--anchor: trained further by large steps, a model anchored to itself as it was stays nearer
    its old policy and value (here 0.9 of each target from the old model) than one trained on the
    records alone, from the same start, games and seed; the policy still learns the records' moves."""
    import keras
    import train_records as script
    from alphazero.data.training import batch_of
    from alphazero.network.model_file import save_model
    from alphazero.records.positions import read_games, records_to_arrays
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    othello8 = load_game('othello8')
    write_transcripts('games.txt', random_records(20, seed=4), othello8)
    games = read_games(othello8, ['games.txt'])
    planes, moves, _ = batch_of(othello8, records_to_arrays(othello8, games), np.arange(200))
    best = str(workdir / 'runs' / 'othello8' / 'model' / 'best.h5')
    keras.utils.set_random_seed(2)
    save_model(build_network(othello8, NetworkSettings('resnet', filters=8, blocks=1)), 'start.h5')

    def outputs(path):
        policy, value = keras.models.load_model(path, compile=False).predict(planes, verbose=0)
        return policy, value.reshape(-1)
    old_policy, old_value = outputs('start.h5')
    drift, learnt = {}, {}
    for share in (0.0, 0.9):
        save_model(keras.models.load_model('start.h5', compile=False), best)
        args = script.parse_args(['--game', 'othello8', '--from-best', '--epochs', '2', '--learning-rate', '0.01',
                                  '--anchor', str(share), 'games.txt'])
        training = script.RecordsTraining(args.epochs, 32, 0.2, args.learning_rate, anchor=args.anchor)
        script.train_records(othello8, games, training=training, seed=1, from_best=args.from_best)
        policy, value = outputs(best)
        kl = np.sum(old_policy * (np.log(old_policy + 1e-9) - np.log(policy + 1e-9)), axis=1).mean()
        drift[share] = (kl, np.abs(value - old_value).mean())
        learnt[share] = np.mean(np.sum(policy * moves, axis=1) / np.sum(old_policy * moves, axis=1))
    # (the value less so: batch normalization's statistics follow the new positions at any anchor)
    assert drift[0.9][0] < drift[0.0][0] / 3 and drift[0.9][1] < 0.8 * drift[0.0][1], drift
    assert 1 < learnt[0.9] < learnt[0.0], learnt  # the moves played grow likelier, less so anchored


@pytest.mark.parametrize('name', ['othello8planes', 'shogi9'])
def test_positions_made_in_chunks_are_the_positions_made_at_once(name, monkeypatch):
    """records_to_arrays stacks its positions a chunk at a time (to save memory): across chunk
    boundaries they are the same as stacked at once, and kept as bytes (packed, or planes of 0/1)."""
    import alphazero.records.positions as records
    game = load_game(name)
    if name == 'shogi9':
        rng, games = np.random.default_rng(2), []
        for _ in range(3):
            state, moves = game.State(), []
            for _ in range(25):
                moves.append(int(rng.choice(state.legal_actions())))
                state = state.next(moves[-1])
            games.append(moves)
    else:
        games = random_records(3, seed=6)
    whole = records.records_to_arrays(game, games)
    monkeypatch.setattr(records, 'CHUNK', 7)
    chunked = records.records_to_arrays(game, games)
    assert len(whole[2]) > 7 * 5 and all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(whole, chunked))
    positions = np.stack([state.pack() if game.packed_planes else state.planes() for moves in games
                          for state, action in replay(game, moves)[0] if action != game.PASS])
    assert np.array_equal(whole[0], positions) and whole[0].dtype == np.uint8


def test_the_random_opening_of_each_game_is_not_learned():
    """With opening K, the positions before each game's K-th move (make_records.py --opening plays
    them at random) are left out, and only they; a passing move is not counted as a move."""
    from alphazero.errors import UserError
    from alphazero.records.positions import records_to_arrays
    games = random_records(6, seed=8)
    kept = [[(s, a) for s, a in replay(othello8, moves)[0] if a != othello8.PASS][4:] for moves in games]
    positions, actions, values = records_to_arrays(othello8, games, opening=4)
    assert list(actions) == [a for game in kept for s, a in game]
    assert np.array_equal(positions, np.stack([s.planes() for game in kept for s, a in game]))
    assert len(values) == sum(len(moves) for moves in games) - 4 * len(games)
    with pytest.raises(UserError, match='--opening'):
        records_to_arrays(othello8, games, opening=60)


def test_the_validation_games_depend_only_on_the_games():
    """Every run, network and file order holds out the same games, so their figures compare."""
    from train_records import is_validation_game
    games = random_records(300, seed=3)
    held = [is_validation_game(moves, 0.1) for moves in games]
    assert 15 <= sum(held) <= 45
    assert [is_validation_game(moves, 0.1) for moves in reversed(games)] == held[::-1]
    assert sum(is_validation_game(moves, 0.5) for moves in games) > 2 * sum(held)


def test_value_accuracy_asks_whether_the_sign_names_the_winner():
    from train_records import measure
    policy = np.eye(65, dtype=np.float32)[[0, 1, 2, 3]]

    def model_saying(values):
        class Model:
            def predict(self, position, batch_size, verbose):
                return policy, np.array(values, np.float32).reshape(-1, 1)
        return Model()
    result = np.array([1, -1, 1, 0], np.float32)   # the draw does not count
    data = (np.zeros((4, 8, 8, 2), np.uint8), np.array([0, 1, 2, 3]), result)  # the moves played
    assert measure(model_saying([0.2, -0.1, -0.3, 0.0]), othello8, data)['value_accuracy'] == 2 / 3
    assert measure(model_saying([0.9, -0.9, 0.1, 0.5]), othello8, data)['value_accuracy'] == 1
    assert measure(model_saying([0.9, -0.9, 0.1, 0.5]), othello8, data)['policy_accuracy'] == 1


@pytest.mark.slow
def test_an_epoch_visits_every_position_once_and_full_shogi_keeps_them_packed(monkeypatch):
    """train_epoch's batches: every position exactly once in an epoch; full shogi's records are kept
    as 32-byte packed positions whose planes, made a batch at a time, are the positions' own."""
    from alphazero.data.training import batch_of
    from alphazero.records.positions import records_to_arrays
    shogi9 = load_game('shogi9')
    rng = np.random.default_rng(0)
    state, moves = shogi9.State(), []
    for _ in range(30):
        moves.append(int(rng.choice(state.legal_actions())))
        state = state.next(moves[-1])
    positions, actions, values = records_to_arrays(shogi9, [moves])
    assert positions.shape == (30, 32) and positions.dtype == np.uint8 and list(actions) == moves
    planes, policy, _ = batch_of(shogi9, (positions, actions, values), np.arange(30))
    states = replay(shogi9, moves)[0]
    assert all(np.array_equal(planes[i], s.planes()) and policy[i].argmax() == a for i, (s, a) in enumerate(states))
    # one epoch of train_epoch over them (a tiny network, batches of 8) visits every position (drawn
    # with replacement, 30 draws would miss some but once in 10^12; Keras may ask a batch twice)
    from tqdm import tqdm
    import alphazero.data.training as training
    from alphazero.data.training import compile_model, train_epoch
    from conftest import tiny_model
    seen, make = [], training.batch_of

    def counted(game, data, rows, rng=None):
        seen.extend(int(r) for r in rows)
        return make(game, data, rows, rng)
    monkeypatch.setattr(training, 'batch_of', counted)
    model = tiny_model(0, rules=shogi9)
    compile_model(model, jit_compile=False, steps_per_execution=1)
    with tqdm(disable=True) as bar:
        train_epoch(model, shogi9, (positions, actions, values), 8, training.EpochPlace(1), bar)
    assert set(seen) == set(range(30))


def test_make_records_with_gtp_rhino(workdir):
    rhino = shutil.which('gtp-rhino') or '/usr/games/gtp-rhino'
    need(shutil.os.path.exists(rhino), 'gtp-rhino', 'apt-get install grhino')
    result = run_script('make_records.py', '--engine', f'{rhino} -l 1 -r 2', '--engine', f'{rhino} -l 1',
                        '--games', '6', '--seed', '1', '--out', 'made', cwd=workdir, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    from_text, problems = read_records('made.txt', othello8)
    assert problems == [] and len(from_text) == 6 and read_records('made.wtb', othello8) == (from_text, [])
    assert all(len(moves) >= 40 for moves in from_text)
    assert 'wrote 6 games to made.txt and made.wtb' in result.stderr


def test_transcripts_keep_the_ais_evaluations_as_comments_that_readers_skip(workdir):
    """write_transcripts with evaluations: after the game's line, `# N move value line` for each
    evaluated move (passes counted in N, left out of the transcript); read_transcripts reads the game alone."""
    game = random_records(1, seed=3)[0]
    evaluations = {0: (0.25, game[:3]), 5: (-0.5, game[5:6])}
    write_transcripts('games.txt', [game], othello8, [evaluations])
    lines = open('games.txt').read().splitlines()
    name = action_names(othello8)
    assert lines[1] == f'# 1 {name[game[0]]} +0.25 {" ".join(name[a] for a in game[:3])}'
    assert lines[2] == f'# 6 {name[game[5]]} -0.50 {name[game[5]]}'
    games, problems = read_records('games.txt', othello8)
    assert problems == [] and [list(g) for g in games] == [game]
