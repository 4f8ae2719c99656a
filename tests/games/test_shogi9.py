"""Full shogi (shogi9): the rules we add to cshogi's (the end of a game), the input planes against a
plain Python implementation of the article's words, the 1496 move classes, the token Transformer,
records in and out, and USI engines as players."""
import json
import os
import random
import re
import sys
import threading
import time

import numpy as np
import pytest

from alphazero.settings import NetworkSettings, SearchSettings
from conftest import REPO, need, run_script

if not os.environ.get('CI'):  # CI installs the optional extra (test.sh): there a missing cshogi fails
    pytest.importorskip('cshogi')
import cshogi  # noqa: E402

from alphazero.game.notation import line_names  # noqa: E402
from alphazero.game.registry import load_game  # noqa: E402

FAIRY_STOCKFISH = '/usr/games/fairy-stockfish'


@pytest.fixture(scope='module')
def game():
    return load_game('shogi9')


def play(state, moves):
    for move in moves.split():
        state = state.next(state.action_of_usi(move))
    return state


def random_states(game, count, seed):
    """Positions from random games, with pieces in hand and checks among them."""
    rng, states = random.Random(seed), []
    while len(states) < count:
        state = game.State()
        for _ in range(rng.randrange(1, 160)):
            if state.is_done():
                break
            state = state.next(rng.choice(state.legal_actions()))
        states.append(state)
    return states


# ----- rules -----
def perft(state, depth):
    if depth == 0:
        return 1
    return sum(perft(state.next(action), depth - 1) for action in state.legal_actions())


def test_perft_from_the_start(game):
    # The published counts of shogi's start position
    assert [perft(game.State(), depth) for depth in (1, 2, 3)] == [30, 900, 25470]


def test_pawn_drop_mate_and_two_pawns_are_not_legal(game):
    # White's king on 1a, boxed in by its own knight and pawn; a pawn dropped on 1b, guarded by the
    # gold on 2c, would mate: illegal. A second pawn on a file that holds one: illegal.
    state = game.State('7nk/7p1/7G1/9/9/9/9/9/4K4 b P 1')
    names = {game.action_name(state, a) for a in state.legal_actions()}
    assert 'P*1b' not in names and 'P*1d' in names
    state = game.State('4k4/9/9/9/9/9/4P4/9/4K4 b P 1')
    names = {game.action_name(state, a) for a in state.legal_actions()}
    assert 'P*5e' not in names and 'P*4e' in names


def test_fourth_occurrence_is_a_draw_and_cshogi_reports_the_second(game):
    shuffle = '5i4h 5a4b 4h5i 4b5a'
    state = play(game.State(), shuffle)
    # cshogi's is_draw() says repetition at the second occurrence, as a search wants it
    assert state.board.is_draw() == cshogi.REPETITION_DRAW and not state.is_done()
    state = play(state, shuffle)
    assert state.repetition() is None and not state.is_done()      # the third occurrence
    state = play(state, shuffle)
    assert state.is_draw() and state.is_done() and not state.is_lose()


def test_perpetual_check_loses(game):
    # Black's rook checks on the 1-file and the 2-file in turn, White's king steps aside each time
    state = game.State('8k/9/9/9/9/9/9/9/K6R1 b - 1')
    cycle = '2i1i 1a2a 1i2i 2a1a'
    state = play(state, cycle + ' ' + cycle + ' ' + cycle)
    # The start comes back for the fourth time with Black to move: Black checked with every move
    assert state.is_first_player() and state.is_lose() and state.is_done()
    # One move before, it is White who is to move after Black's check: not over yet
    before = play(game.State('8k/9/9/9/9/9/9/9/K6R1 b - 1'), ' '.join([cycle] * 3).rsplit(' ', 1)[0])
    assert not before.is_done()


def test_the_checked_side_wins_when_the_opponent_checked_throughout(game):
    # The same cycle seen one ply later: White to move in the fourth occurrence of a position reached
    # by Black's check, after Black checked with every move
    start = play(game.State('8k/9/9/9/9/9/9/9/K6R1 b - 1'), '2i1i')
    state = play(start, ' '.join(['1a2a 1i2i 2a1a 2i1i'] * 3))
    assert not state.is_first_player() and state.ending() == 'win'
    assert state.is_done() and not state.is_lose() and not state.is_draw()


def test_move_limit_is_a_draw(game):
    state = game.State('4k4/9/9/9/9/9/9/9/4K4 b - 256')
    assert not state.is_done()
    assert play(state, '5i4h').is_draw()


def test_checkmate_loses(game):
    mated = game.State('4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1')
    assert mated.legal_actions() == [] and mated.is_lose()


# ----- the 1496 classes -----
def test_move_classes(game):
    assert game.ACTION_COUNT == 1496
    for state in random_states(game, 60, seed=1):
        actions = [state.action_of_move(move) for move in state.board.legal_moves]
        assert len(set(actions)) == len(actions) and all(0 <= a < 1496 for a in actions)
        assert sorted(actions) == state.legal_actions()
    # Impossible ones are not classes: a pawn dropped on the far rank, a knight staying unpromoted on
    # the far two ranks, a promotion that neither starts nor ends in the zone
    from games.shogi9.game import label_is_possible
    assert not label_is_possible(20 * 81 + 0 * 9 + 0)        # P*1a
    assert label_is_possible(20 * 81 + 0 * 9 + 1)            # P*1b
    assert not label_is_possible(8 * 81 + 4 * 9 + 1)         # knight to 5b unpromoted
    assert label_is_possible(18 * 81 + 4 * 9 + 1)            # knight to 5b promoting
    assert not label_is_possible(10 * 81 + 4 * 9 + 5)        # promoting up the board to 5f


# ----- the input planes: the article's words, written out -----
PIECE_STEPS = {  # a first-player piece's steps as (file, rank), rank 0 at the far end; sliders separately
    1: [(0, -1)], 3: [(1, -2), (-1, -2)], 4: [(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)],
    7: [(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)], 8: [(f, r) for f in (-1, 0, 1) for r in (-1, 0, 1) if f or r]}
for promoted in (9, 10, 11, 12):
    PIECE_STEPS[promoted] = PIECE_STEPS[7]  # promoted pawn, lance, knight, silver move as a gold
SLIDES = {2: [(0, -1)], 5: [(1, -1), (-1, -1), (1, 1), (-1, 1)], 6: [(0, -1), (1, 0), (-1, 0), (0, 1)]}
SLIDES[13], SLIDES[14] = SLIDES[5], SLIDES[6]
PIECE_STEPS[13], PIECE_STEPS[14] = [(0, -1), (1, 0), (-1, 0), (0, 1)], [(1, -1), (-1, -1), (1, 1), (-1, 1)]
HAND_LIMITS = (8, 4, 4, 4, 4, 2, 2)


def reference_planes(board):
    """(9, 9, 119): per side (the side to move first, its board turned round when it is White): the
    piece planes, the squares each kind of piece attacks, attacked by >= 1, 2, 3; then the hands'
    count words; then check."""
    turn = board.turn
    squares = {}
    for sq, piece in enumerate(board.pieces):
        if piece:
            colour = 0 if piece < 16 else 1
            file, rank = divmod(sq if turn == 0 else 80 - sq, 9)
            squares[(file, rank)] = (0 if colour == turn else 1, piece & 15)
    words = np.zeros((9, 9, 119), np.float32)
    attackers = np.zeros((2, 9, 9), int)
    for (file, rank), (side, kind) in squares.items():
        words[file, rank, side * 31 + kind - 1] = 1
        turned = 1 if side == 0 else -1  # the opponent's pieces move the other way in this view
        targets = set()
        for step_file, step_rank in PIECE_STEPS.get(kind, []):
            f, r = file + step_file * turned, rank + step_rank * turned
            if 0 <= f < 9 and 0 <= r < 9:
                targets.add((f, r))
        for step_file, step_rank in SLIDES.get(kind, []):
            f, r = file, rank
            while True:
                f, r = f + step_file * turned, r + step_rank * turned
                if not (0 <= f < 9 and 0 <= r < 9):
                    break
                targets.add((f, r))
                if (f, r) in squares:
                    break
        for f, r in targets:
            words[f, r, side * 31 + 14 + kind - 1] = 1
            attackers[side, f, r] += 1
    for side in (0, 1):
        for count in range(3):
            words[:, :, side * 31 + 28 + count] = attackers[side] > count
    hands = board.pieces_in_hand
    for side, colour in ((0, turn), (1, 1 - turn)):
        plane = 62 + side * 28
        for kind, limit in enumerate(HAND_LIMITS):
            for i in range(min(hands[colour][kind], limit)):
                words[:, :, plane + i] = 1
            plane += limit
    words[:, :, 118] = board.is_check()
    return words


def test_planes_are_the_articles_words(game):
    states = random_states(game, 80, seed=2)
    assert any(s.in_check for s in states) and any(sum(s.board.pieces_in_hand[0]) for s in states)
    for state in states:
        np.testing.assert_array_equal(state.planes(), reference_planes(state.board), err_msg=state.board.sfen())


def test_tokens_are_the_articles_96(game):
    square_planes, groups = game.TOKENS
    assert square_planes + sum(count for _, count in groups) == game.INPUT_SHAPE[-1]
    assert 81 + len(groups) == 96
    from dual_network import build_network
    model = build_network(game, NetworkSettings('transformer', width=8, layers=1, heads=2))
    concatenated = next(layer for layer in model.layers if layer.__class__.__name__ == 'Concatenate')
    assert tuple(concatenated.output.shape[1:]) == (96, 8)
    # A hand token is the sum of its words' vectors: two pawns in hand = word 1 + word 2
    embedding = [layer for layer in model.layers if layer.__class__.__name__ == 'Dense'][1]  # the first hand token's
    assert embedding.kernel.shape == (8, 8)


# ----- records -----
def test_records_round_trip(game, tmp_path):
    from alphazero.records.read import read_records
    from alphazero.records.shogi import Record, write_csa, write_usi
    rng = random.Random(3)
    games = []
    for index in range(6):
        state, actions = game.State(), []
        for _ in range(rng.randrange(4, 60) if index % 2 else 400):
            if state.is_done():
                break
            actions.append(rng.choice(state.legal_actions()))
            state = state.next(actions[-1])
        # unfinished games stand for resignations: the side to move resigned
        games.append(Record(actions, None if state.is_done() else (-1 if state.is_first_player() else 1)))
    for write, name in ((write_csa, 'games.csa'), (write_usi, 'games.usi')):
        write(str(tmp_path / name), games, game)
        read, problems = read_records(str(tmp_path / name), game)
        assert problems == [] and read == games
        assert [r.result for r in read] == [g.result for g in games]


def test_engine_scores_are_read_as_cshogi_reads_them(game, tmp_path):
    """The `'** N` lines after a CSA move (floodgate's, make_records.py's) are read as that move's
    score, from 先手's side, for the games of a many-game file; cshogi's parser, a second reader,
    finds the same (it says 0 where a move has none)."""
    import cshogi.CSA
    from alphazero.game.values import centipawns
    from alphazero.records.read import read_records
    from alphazero.records.shogi import Record, write_csa
    rng = random.Random(5)
    games = []
    for _ in range(4):
        state, actions, evaluations = game.State(), [], {}
        while len(actions) < 80 and not state.is_done():
            if rng.random() < 0.7:  # the mover's value; the random opening moves have none
                evaluations[len(actions)] = (rng.uniform(-0.99, 0.99), [])
            actions.append(rng.choice(state.legal_actions()))
            state = state.next(actions[-1])
        games.append(Record(actions, None if state.is_done() else -1 if state.is_first_player() else 1, evaluations))
    path = str(tmp_path / 'scored.csa')
    write_csa(path, games, game)
    read, problems = read_records(path, game)
    parsed = cshogi.CSA.Parser.parse_file(path)
    assert problems == [] and len(read) == len(parsed) == 4
    for written, record, theirs in zip(games, read, parsed):
        black = {i: centipawns(v if i % 2 == 0 else -v) for i, (v, _) in written.evaluations.items()}
        assert record.scores == black and len(black) > 20
        assert [record.scores.get(i, 0) for i in range(len(record))] == list(theirs.scores)


def test_value_targets_blend_the_scores_at_the_scale_the_results_fit():
    """fitted_scale finds the scale of the logistic curve that made the results (drawn from known
    winning chances), and blended_values mixes each scored position's chance with its result."""
    from alphazero.records.positions import MATE_SCORE, blended_values, fitted_scale
    rng = np.random.default_rng(0)
    scores = rng.uniform(-3000, 3000, 20000).astype(np.float32)
    results = np.where(rng.random(20000) < 1 / (1 + np.exp(-scores / 700)), 1, -1).astype(np.float32)
    assert 630 < fitted_scale(scores, results) < 770
    assert 630 < fitted_scale(-scores, -results) < 770  # the other side's view of the same positions
    scores[:3] = np.nan, MATE_SCORE, -MATE_SCORE  # no score, and the two mates
    blended = blended_values(results, scores, 0.25)
    scale = fitted_scale(scores, results)
    assert blended[0] == results[0] and blended[1] == 0.75 * results[1] + 0.25 and blended[2] == 0.75 * results[2] - 0.25
    assert np.allclose(blended[3:], 0.75 * results[3:] + 0.25 * np.tanh(scores[3:] / (2 * scale)))
    none = np.full(5, np.nan, np.float32)
    assert fitted_scale(none, results[:5]) is None and np.array_equal(blended_values(results[:5], none, 0.5), results[:5])


def test_bad_records_are_skipped_by_name(game, tmp_path):
    from alphazero.records.read import read_records
    path = tmp_path / 'bad.usi'
    path.write_text('startpos moves 7g7f 3c3d resign\n'       # kept
                    'startpos moves 7g7f 7g7f\n'               # illegal
                    'startpos moves 7g7f 3c3d\n'               # no ending
                    'sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 moves 5i4h resign\n')
    games, problems = read_records(str(path), game)
    assert len(games) == 1 and games[0].result == -1  # Black, to move after 3c3d, resigned
    assert len(problems) == 3 and all('bad.usi:' in p for p in problems)
    csa = tmp_path / 'a.csa'
    csa.write_text('V2.2\nPI\n+\n+7776FU\n%CHUDAN\n/\nV2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n')
    games, problems = read_records(str(csa), game)
    assert len(games) == 1 and len(problems) == 1 and '%CHUDAN' in problems[0]


# ----- USI: our engine, and other engines as players -----
@pytest.fixture
def fairy_stockfish():
    need(os.access(FAIRY_STOCKFISH, os.X_OK), "Fairy-Stockfish's USI engine", 'apt-get install fairy-stockfish')
    return FAIRY_STOCKFISH


@pytest.fixture(scope='module')
def tiny_shogi_model(tmp_path_factory, game):
    """A tiny untrained ResNet for full shogi, saved with its ONNX export; returns the .h5 path."""
    import keras
    from alphazero.network.model_file import save_model
    from alphazero.network.onnx_export import export
    from dual_network import build_network
    keras.utils.set_random_seed(0)
    path = str(tmp_path_factory.mktemp('shogi9') / 'best.h5')
    save_model(build_network(game, NetworkSettings('resnet', filters=8, blocks=1)), path)
    export(path, path.replace('.h5', '.onnx'), game)
    return path


def test_usi_session_answers_and_survives_bad_commands(game, tiny_shogi_model):
    from alphazero.network.load import load_network
    from alphazero.play.agent import Agent
    from usi_engine import UsiSession
    network, _ = load_network(tiny_shogi_model, game)
    session = UsiSession(game, Agent(game, network, rng=np.random.default_rng(0)), sims=8)
    assert session.execute('usi')[-1] == 'usiok' and session.execute('isready') == ['readyok']
    assert session.execute('setoption name USI_Hash value 256') == []
    assert session.execute('setoption name Simulations value 6') == [] and session.sims == 6
    assert 'Simulations' in session.execute('setoption name Simulations value -3')[0]
    session.execute('usinewgame')
    assert session.execute('position startpos moves 7g7f 3c3d') == []
    info, best = session.execute('go btime 0 wtime 0 byoyomi 1000')
    assert info.startswith('info depth ') and ' score cp ' in info and ' pv ' in info
    move = best.split()[1]
    assert best.startswith('bestmove ') and move in {game.action_name(session.state, a) for a in session.state.legal_actions()}
    assert info.split(' pv ')[1].split()[0] == move and ' nodes 6 ' in info
    # Bad input: one info string each, and the position stays as it was; a go still owes a move
    for line in ('position startpos moves 7g7f 7g7f', 'position sfen xyz', 'position sfen 9/9/9/9/9/9/9/9/9 b - 1',
                 'position', 'setoption', 'frobnicate', 'position sfen ' + 'k' * 5000):
        answer = session.execute(line)
        assert len(answer) == 1 and answer[0].startswith('info string '), (line, answer)
    assert session.state.usi_position() == 'startpos moves 7g7f 3c3d'
    for line in ('go nodes', 'go byoyomi -5'):
        answer = session.execute(line)
        assert answer[0].startswith(f'info string go: {line.split()[1]} needs a whole number') and \
            answer[-1].startswith('bestmove '), answer
    # go infinite and go ponder search until stop or ponderhit (which the engine hears during the
    # search: protocol.serve runs it on a thread of its own), then answer
    session.execute('position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P 1 moves 5i4h')
    for go, release in (('go infinite', 'stop'), ('go ponder', 'ponderhit')):
        searching = threading.Thread(target=lambda: held.extend(session.execute(go)))
        held = []
        searching.start()
        time.sleep(0.3)
        session.interrupt(release)
        searching.join(10)
        assert not searching.is_alive() and all(not line.startswith('bestmove') for line in held)
        assert session.execute(release)[0].startswith('bestmove ') and session.execute('stop') == []
    # A mated side resigns
    session.execute('position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1')
    assert session.execute('go nodes 5') == ['bestmove resign']
    assert session.execute('quit') == [] and session.finished


def test_usi_levels_and_search_options(game, tiny_shogi_model):
    """The GUI's Level option (and --level): the policy alone at levels 1-2, a level's simulations
    above; a Gumbel search reports the move it chose."""
    from alphazero.search.evaluator import Evaluator
    from alphazero.network.load import load_network
    from alphazero.play.levels import standard_levels
    from alphazero.play.agent import Agent, Style
    from usi_engine import UsiSession, parse_args
    network, _ = load_network(tiny_shogi_model, game)
    levels = standard_levels(40)
    agent = Agent(game, network, SearchSettings(sims=40), Style(levels[3]), rng=np.random.default_rng(0))
    agent.levels = levels
    session = UsiSession(game, agent, 40)
    assert 'option name Level type spin default 4 min 1 max 5' in session.execute('usi')
    assert session.execute('setoption name Level value 3') == [] and (session.level.number, session.sims) == (3, 10)
    info, best = session.execute('go btime 0 wtime 0 byoyomi 1000')
    assert ' nodes 10 ' in info and info.split(' pv ')[1].split()[0] == best.split()[1]
    session.execute('setoption name Level value 2')
    info, best = session.execute('go nodes 30')  # the policy alone: one evaluation, its most likely move
    policy, _ = Evaluator(network)([game.State()])
    state = game.State()
    assert ' nodes 1 ' in info and best.split()[1] == game.action_name(state, max(state.legal_actions(), key=lambda a: policy[0][a]))
    for bad in ('setoption name Level value 6', 'setoption name Level value two', 'setoption name Level'):
        assert session.execute(bad)[0].startswith('info string setoption: Level is a whole number from 1 to 5')
    assert session.level.number == 2
    gumbel = Agent(game, network, SearchSettings(gumbel=4), rng=np.random.default_rng(0))
    [(line, value)] = gumbel.analyse(game.State(), 8, solve=False).lines
    assert line[0] in game.State().legal_actions() and -1 <= value <= 1
    # MultiPV: the principal line first, then the other root moves from the best score down, each
    # with its own line (the most visited moves below it), every line legal from the position
    assert session.execute('setoption name MultiPV value 3') == []
    assert 'option name MultiPV type spin default 1 min 1 max 20' in session.execute('usi')
    session.execute('setoption name Level value 4')
    session.execute('position startpos')
    *infos, best = session.execute('go nodes 300')
    assert [i.split()[1:3] for i in infos] == [['multipv', '1'], ['multipv', '2'], ['multipv', '3']]
    lines = [i.split(' pv ')[1].split() for i in infos]
    assert len({line[0] for line in lines}) == 3 and lines[0][0] == best.split()[1]
    scores = [int(i.split(' score cp ')[1].split()[0]) for i in infos]
    assert scores[1] >= scores[2] and max(len(line) for line in lines[1:]) > 1, infos
    for line in lines:
        walked = game.State()
        for move in line:
            walked = walked.next(walked.action_of_usi(move))
    assert session.execute('setoption name MultiPV value 0')[0] == 'info string setoption: MultiPV is a whole number from 1 to 20'
    session.execute('setoption name MultiPV value 1')
    assert parse_args(['--level', '1', '--gumbel', '4']).level == 1
    # The Settai option (and --settai): 接待（接戦）モード, the move settai_choice makes of every move's search
    assert 'option name Settai type check default false' in session.execute('usi')
    assert session.execute('setoption name Settai value yes') == ['info string setoption: Settai is true or false']
    assert session.execute('setoption name Settai value true') == [] and session.settai
    session.execute('position startpos moves 7g7f 3c3d')
    info, best = session.execute('go nodes 2')
    assert best.split()[1] in [game.action_name(session.state, a) for a in session.state.legal_actions()]
    assert parse_args(['--settai']).settai and 'option name Settai type check default true' in UsiSession(game, agent, 1, settai=True).execute('usi')


def test_our_usi_engine_plays_fairy_stockfish(game, tiny_shogi_model, fairy_stockfish):
    """usi_engine.py as a real USI process against Fairy-Stockfish, both through our USI client:
    games played to their end with every move legal, colours alternating."""
    from alphazero.engines.players import engine_player
    from alphazero.play.matches import Match, play_matches
    from alphazero.play.openings import paired_openings
    ours = f'{sys.executable} {os.path.join(REPO, "usi_engine.py")} --model {tiny_shogi_model} --sims 4; go nodes 4'
    with engine_player(ours, game) as us, engine_player(f'{fairy_stockfish}; go depth 1', game) as them:
        match = Match(('us', 'them'), us, them, paired_openings(game, 2, 2, np.random.default_rng(0)))
        results = {}
        points = play_matches(game, [match], finished=lambda _, i, result: results.setdefault(i, result))[match.key]
    results = [results[i] for i in range(2)]
    assert all(r.over() for r in results)
    assert all(p in (0, 0.5, 1) for p in points)
    assert results[0].opening == results[1].opening  # the same opening once with each colour


def test_a_handicap_match_starts_every_game_from_it_with_our_engine_as_uwate(game, tiny_shogi_model, fairy_stockfish):
    """A match from a handicap (bench/usi_match.py --handicap): every game starts from the handicap's
    SFEN after a different random opening, our engine gives it as 上手 in every game (no colours
    alternating), and each point is our engine's."""
    from alphazero.engines.players import engine_player
    from alphazero.game.shogi_handicaps import HANDICAPS
    from alphazero.play.matches import Match, game_point, play_matches
    from alphazero.play.openings import distinct_openings
    start = game.State(HANDICAPS['二枚落ち'])
    openings = distinct_openings(game, 2, 2, np.random.default_rng(0), start=start)
    ours = f'{sys.executable} {os.path.join(REPO, "usi_engine.py")} --model {tiny_shogi_model} --sims 4; go nodes 4'
    with engine_player(ours, game) as us, engine_player(f'{fairy_stockfish}; go depth 1', game) as them:
        match = Match(('us', 'them'), us, them, openings, start)
        results = {}
        points = play_matches(game, [match], finished=lambda _, i, result: results.setdefault(i, result))[match.key]
    assert openings[0] != openings[1]
    for i, result in results.items():
        assert result.over() and result.state.usi_position().startswith(f'sfen {HANDICAPS["二枚落ち"]} moves ')
        assert points[i] == game_point(result, True)  # 上手 moved first: ours


# A game in which 後手's 24th move (△４一銀) lets 先手 mate at once (▲５一金打), found by random play
ALLOWS_MATE = ('4i4h 4a3b 6i7h 3c3d 3g3f 5a5b 8g8f 8b9b 4h3g 7a8b 2h1h 2b7g 7h6h 6a7a 3i2h 7g2b 8h2b 3b3c 2b1a '
               '7a6b B*1b 3a3b 1a3c 3b4a G*5a').split()


def test_the_review_of_a_kif_from_another_program_marks_the_move_that_allows_mate(game, tiny_shogi_model, tmp_path):
    """human_play.py --review FILE on a KIF that cshogi wrote (Shift_JIS, as GUIs save them): the move
    that lets the opponent mate is a 悪手 known exactly (df-pn proves the mate), the mate itself is
    not marked, and every line reads as a mark; a 香落ち game's KIF is reviewed from its handicap."""
    import cshogi.KIF
    from alphazero.game.shogi_handicaps import HANDICAPS

    def kif(path, moves, handicap=None):
        board = cshogi.Board(HANDICAPS[handicap]) if handicap else cshogi.Board()
        exporter = cshogi.KIF.Exporter()
        exporter.open(str(path))
        exporter.header(['先手', '後手'], handicap=handicap)
        for text in moves:
            move = board.move_from_usi(text)
            exporter.move(move)
            board.push(move)
        exporter.end('resign')
        exporter.close()
    kif(tmp_path / 'mate.kif', ALLOWS_MATE)
    result = run_script('human_play.py', '--game', 'shogi9', '--review', 'mate.kif', '--model', tiny_shogi_model,
                        '--sims', '16', '--lang', 'ja', cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert 'mate.kif の 1 局中 1 局目（25 手）' in result.stdout
    marks = [line for line in result.stdout.splitlines() if line.startswith('  ')]
    pattern = r'  \d+ 手目 [▲△]\S+: (悪手|疑問手)（見込み \d+% → \d+%(・確定)?）。AI の推奨は [▲△]\S+（読み筋 .+）'
    assert marks and all(re.fullmatch(pattern, line) for line in marks), marks
    assert any(line.startswith('  24 手目 △４一銀: 悪手') and '→ 0%・確定' in line for line in marks), marks
    assert not any(line.startswith('  25 手目') for line in marks)
    kif(tmp_path / 'kyo.kif', ['9c9d', '7g7f', '9d9e'], handicap='香落ち')
    result = run_script('human_play.py', '--game', 'shogi9', '--review', 'kyo.kif', '--model', tiny_shogi_model,
                        '--sims', '8', '--lang', 'en', cwd=tmp_path, timeout=300)
    assert result.returncode == 0 and 'kyo.kif, game 1 of 1 (3 moves)' in result.stdout, result.stderr[-2000:]
    (tmp_path / 'bad.ki2').write_text('手合割：平手\n▲７六歩 △３四歩 ▲５五玉\n', encoding='utf-8')
    result = run_script('human_play.py', '--game', 'shogi9', '--review', 'bad.ki2', '--model', tiny_shogi_model,
                        '--lang', 'ja', cwd=tmp_path, timeout=300)
    assert result.returncode == 2 and 'bad.ki2: 3 手目の ▲５五玉 は指せない手です。この対局は読み飛ばします' in result.stderr
    assert result.stderr.strip().splitlines()[-1] == 'エラー: bad.ki2: 読める対局がありません', result.stderr[-2000:]


@pytest.mark.slow
def test_records_compressed_with_xz_read_as_the_plain_file(game, tmp_path):
    """A record file compressed with xz reads as the plain one, and one cut short is refused in one
    line; the engine games kept in records/shogi9 are whole xz files with the games their README
    lists, and the newest (the README's last row) reads through the rules (each did before it was committed)."""
    import glob
    import lzma
    from alphazero.records.common import RecordError, read_bytes
    from alphazero.records.read import read_records
    text = 'V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nV2.2\nPI\n+\n+2726FU\n-8384FU\n+2625FU\n%TORYO\n'
    (tmp_path / 'g.csa').write_text(text)
    (tmp_path / 'g.csa.xz').write_bytes(lzma.compress(text.encode()))
    plain, packed = (read_records(str(tmp_path / name), game) for name in ('g.csa', 'g.csa.xz'))
    assert len(plain[0]) == 2 and [list(g) for g in plain[0]] == [list(g) for g in packed[0]]
    assert [g.result for g in plain[0]] == [g.result for g in packed[0]] == [-1, 1]
    (tmp_path / 'cut.csa.xz').write_bytes(lzma.compress(text.encode())[:30])
    with pytest.raises(RecordError, match='cut.csa.xz: not a whole xz file'):
        read_records(str(tmp_path / 'cut.csa.xz'), game)
    folder = os.path.join(REPO, 'records', 'shogi9')
    with open(os.path.join(folder, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    listed = dict(re.findall(r'^\| `(\S+\.csa\.xz)` \| (\d+) \|', readme, re.M))
    kept = sorted(glob.glob(os.path.join(folder, '*.csa.xz')))
    assert sorted(listed) == sorted(os.path.basename(path) for path in kept)
    for path in kept:  # all of them whole: reading each through the rules would take seconds a file
        csa = read_bytes(path).decode()
        assert csa.count('\n/\n') + 1 == int(listed[os.path.basename(path)]), path
    newest = list(listed)[-1]  # names sort fs10 before fs8: the README's rows are in the order made
    games, problems = read_records(os.path.join(folder, newest), game)
    assert len(games) == int(listed[newest]) and problems == [], newest


@pytest.mark.slow
def test_make_records_and_train_on_them(workdir, fairy_stockfish):
    """make_records.py --game shogi9 with Fairy-Stockfish writes CSA and USI files that
    train_records.py reads and trains a token Transformer on, exported to ONNX."""
    def run(script, *args):
        return run_script(script, *args, cwd='.')
    made = run('make_records.py', '--game', 'shogi9', '--engine', f'{fairy_stockfish}; go depth 1', '--games', '6',
               '--parallel', '2', '--seed', '1', '--out', 'records/fs')
    assert made.returncode == 0, made.stderr[-500:]
    assert os.path.exists('records/fs.csa') and len(open('records/fs.usi').read().splitlines()) == 6
    # each engine move carries floodgate's comment of its score and line, which cshogi reads as scores
    import cshogi.CSA
    parsed = cshogi.CSA.Parser.parse_file('records/fs.csa')
    assert all(len(p.scores) == len(p.moves) for p in parsed)
    assert sum(1 for p in parsed for c in p.comments if re.fullmatch(r'-?\d+( [+-]\d{4}[A-Z]{2})*', c)) >= 6 * 20
    trained = run('train_records.py', '--game', 'shogi9', 'records/fs.csa', '--epochs', '1', '--network', 'transformer',
                  '--width', '8', '--layers', '1', '--heads', '2', '--validation', '0.3', '--seed', '1')
    assert trained.returncode == 0, trained.stderr[-500:]
    assert os.path.exists('runs/shogi9/model/best.h5') and os.path.exists('runs/shogi9/model/best.onnx')
    assert 'validation: move predicted' in trained.stdout
    # bench/records_validation.py measures a model on the games the training held out: the same figures
    measured = run('bench/records_validation.py', '--model', 'runs/shogi9/model/best.h5', '--validation', '0.3',
                   'records/fs.csa', '--out', 'validation.json')
    assert measured.returncode == 0, measured.stderr[-500:]
    last_epoch = json.loads(open('runs/shogi9/model/records_metrics.jsonl').read().splitlines()[-1])
    figures = json.load(open('validation.json'))['models']['runs/shogi9/model/best.h5']
    assert figures['loss'] == pytest.approx(last_epoch['loss'], rel=1e-4)


def test_moves_are_read_as_players_and_records_write_them(game):
    # A promoted silver (knight, lance) is 成銀 or 全 (成桂 or 圭, 成香 or 杏), in KI2 as typed
    state = game.State('4k4/9/9/9/4+S4/9/9/9/4K4 b - 1')
    assert {game.parse_action(state, text) for text in ('４四成銀', '44成銀', '４四全', '44全', '▲４四成銀')} == {
        state.action_of_usi('5e4d')}
    knight = game.State('4k4/9/9/9/4+N4/9/9/9/4K4 b - 1')
    assert game.parse_action(knight, '４五成桂') == game.parse_action(knight, '４五圭') == knight.action_of_usi('5e4e')
    # KIF names the square a piece left: ７六歩(77); a source or a piece that does not fit is refused
    start = game.State()
    assert game.parse_action(start, '７六歩(77)') == game.parse_action(start, '76歩(77)') == start.action_of_usi('7g7f')
    assert game.parse_action(start, '７六歩(78)') is None and game.parse_action(start, '７六銀(77)') is None
    after = start.next(start.action_of_usi('7g7f')).next(start.next(start.action_of_usi('7g7f')).action_of_usi('3c3d'))
    took = after.next(after.action_of_usi('8h2b+'))
    assert game.parse_action(took, '同　銀(31)') == game.parse_action(took, '同銀') == took.action_of_usi('3a2b')
    assert game.parse_action(after, '２二角成(88)') == after.action_of_usi('8h2b+')
    assert game.parse_action(after, '２二角不成(88)') == after.action_of_usi('8h2b')


def test_a_human_plays_full_shogi_in_the_terminal_in_japanese(game, capsys):
    """The text player: the KIF board, a move typed in Japanese, one bad answer, a whole game."""
    import keras
    from alphazero.network.runtimes import KerasNetwork
    from dual_network import build_network
    from alphazero.cli.words import words
    from human_play import ai_action, play_text
    keras.utils.set_random_seed(0)
    from alphazero.play.agent import Agent, Style
    ai = ai_action(Agent(game, KerasNetwork(build_network(game, NetworkSettings('resnet', filters=4, blocks=1))),
                         SearchSettings(sims=2), Style(with_lines=True)))
    typed = []

    def read(prompt):  # a bad answer, ７六歩 in Japanese, 待った, ７六歩 again, then the prompt's example
        script = ['９九王', '７六歩', '待った', '７六歩']
        assert len(typed) < 600, typed[-3:]  # an answer refused again and again
        typed.append(script[len(typed)] if len(typed) < len(script) else re.search(r'（(?:例: )?([^ ）]+)', prompt).group(1))
        return typed[-1]
    saved = []
    ended = play_text(game, ai, True, read, said=words('ja'), save=lambda *record: saved.append(record))
    out = capsys.readouterr().out
    assert ended.is_done() and len(typed) > 5
    assert 'あなたは 先手（盤の上へ進む） です。指し手は日本語の棋譜' in out  # the game's own help, in Japanese
    assert "'９九王' は指せません（例: ▲" in out and '先手の持駒' in out and '待った: 手を戻しました' in out
    assert re.search(r'AI の手: △(同　)?[１-９][一-九]', out)  # the AI's moves in KI2
    lines = out.strip().splitlines()
    assert re.fullmatch(r'まで\d+手で(先手の勝ち|後手の勝ち|千日手|持将棋).*', lines[-2]) and lines[-1] in ('あなたの勝ち', 'あなたの負け', '引き分け')
    actions, final, resigned, evaluations = saved[0]
    replayed = replay_states(game, actions)[-1].next(actions[-1])
    assert final is ended and not resigned and replayed.usi_position() == ended.usi_position()  # 待った's move is gone
    # the AI's moves (the second player's) carry its value and line, which the record keeps
    assert evaluations and all(ply % 2 == 1 and -1 <= value <= 1 and line for ply, (value, line) in evaluations.items())


def test_a_human_resigns_full_shogi_and_the_game_is_saved_as_kif(game, workdir, tiny_shogi_model):
    """human_play.py --text in Japanese: 投了 ends the game as a record says it, and the game is saved
    as KIF under records/played/."""
    from conftest import run_script
    result = run_script('human_play.py', '--text', '--game', 'shogi9', '--lang', 'ja', '--level', '1',
                        '--model', tiny_shogi_model, cwd=str(workdir), timeout=300, input='７六歩\n投了\n')
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-3:-1] == ['まで2手で後手の勝ち（投了）', 'あなたの負け'] and lines[-1].startswith('棋譜を保存しました: records/played/shogi9-')
    kif = (workdir / lines[-1].split(': ')[1]).read_bytes().decode('cp932')
    assert '   1 ７六歩(77)' in kif and kif.endswith('   3 投了\r\nまで2手で後手の勝ち\r\n')
    assert re.fullmatch(r'AI: .*（onnxruntime で）。最大の強さで 1 手 \d+ シミュレーション（.*）。\d 段階のレベル 1（.*）で対局します',
                        result.stderr.strip()), result.stderr


def test_kif_records_in_shift_jis_and_utf8(game, tmp_path):
    """A KIF game as GUIs write it (Japanese moves with their source squares, 投了), in Shift_JIS and
    in UTF-8: read with the resignation as its result."""
    from alphazero.records.read import read_records
    kif = ('手合割：平手\n先手：a\n後手：b\n手数----指手---------消費時間--\n'
           '   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)   ( 0:00/00:00:00)\n'
           '   3 ２二角成(88) ( 0:00/00:00:00)\n   4 同　銀(31)   ( 0:00/00:00:00)\n'
           '   5 投了\nまで4手で後手の勝ち\n')
    for encoding in ('cp932', 'utf-8'):
        path = tmp_path / f'game-{encoding}.kif'
        path.write_bytes(kif.encode(encoding))
        games, problems = read_records(str(path), game)
        assert problems == [] and len(games) == 1 and games[0].result == -1
        assert [game.action_name(s, a) for s, a in zip(replay_states(game, games[0]), games[0])] == \
            ['7g7f', '3c3d', '8h2b+', '3a2b']


def game_to_its_end(game, seed):
    """A random game that mates where it can (cshogi's mate in one), so that it ends by checkmate."""
    rng, state, actions = random.Random(seed), game.State(), []
    while not state.is_done():
        mate = state.board.mate_move_in_1ply()
        action = state.action_of_move(mate) if mate else rng.choice(state.legal_actions())
        actions.append(action)
        state = state.next(action)
    return actions


def test_games_are_saved_as_kif_that_shogihome_and_our_reader_read(game, tmp_path):
    """write_kif: games that ended by checkmate, fourfold repetition, resignation, or were left
    unfinished, in Shift_JIS (.kif) and UTF-8 (.kifu), read back by our reader (the same moves and
    result; an unfinished game is skipped, and said) and by tsshogi, the library ShogiHome reads
    records with (the same moves, and the same ending)."""
    import json
    from alphazero.records.read import read_records
    from alphazero.game.shogi_endings import conclusion
    from alphazero.records.shogi import write_kif
    from conftest import run_node
    shuffle = [game.State()]
    for move in '5i5h 5a5b 5h5i 5b5a'.split() * 3:
        shuffle.append(shuffle[-1].next(shuffle[-1].action_of_usi(move)))
    games = {'mate': (game_to_its_end(game, 1), False, 'mate'),
             'repetition': ([s.action_of_usi(m) for s, m in zip(shuffle, '5i5h 5a5b 5h5i 5b5a'.split() * 3)], False,
                            'repetitionDraw'),
             'resigned': (game_to_its_end(game, 2)[:9], True, 'resign'),
             'unfinished': (game_to_its_end(game, 3)[:6], False, 'interrupt')}
    paths = []
    for name, (actions, resigned, _) in games.items():
        for extension in ('.kif', '.kifu'):
            path = str(tmp_path / (name + extension))
            write_kif(path, actions, game, ('あなた', 'AlphaZero'), resigned)
            paths.append(path)
    raw = (tmp_path / 'resigned.kif').read_bytes()
    assert raw.decode('cp932').endswith('投了\r\nまで9手で先手の勝ち\r\n') and '先手：あなた' in raw.decode('cp932')
    final = replay_states(game, games['mate'][0])[-1].next(games['mate'][0][-1])
    winner = '先手' if len(games['mate'][0]) % 2 else '後手'
    assert conclusion(final) == f'まで{len(games["mate"][0])}手で{winner}の勝ち（詰み）'
    read = run_node('web/test/read_kif.mjs', *paths)
    assert read.returncode == 0, read.stderr
    by_tsshogi = [json.loads(line) for line in read.stdout.splitlines()]
    for (name, (actions, _, tsshogi_end)), pair in zip(games.items(), zip(by_tsshogi[::2], by_tsshogi[1::2])):
        usi = [game.action_name(s, a) for s, a in zip(replay_states(game, actions), actions)]
        assert all(record['moves'] == usi and record['end'] == tsshogi_end for record in pair), (name, pair)
        for extension in ('.kif', '.kifu'):
            ours, problems = read_records(str(tmp_path / (name + extension)), game)
            if name == 'unfinished':
                assert ours == [] and 'ends with %CHUDAN after 6 moves' in problems[0]
            else:
                assert problems == [] and list(ours[0]) == actions
    assert read_records(str(tmp_path / 'resigned.kif'), game)[0][0].result == 1  # the second player resigned


def test_ki2_records_that_shogihome_writes_are_read_with_their_handicaps_and_results(game, tmp_path):
    """KI2, the record without source squares (▲７六歩 △同　歩 ▲５八金右): random games, even and
    handicapped, some resigned, written by tsshogi (ShogiHome's library), read back by our reader with
    the same moves, start and result; a move that is not legal is refused with its number."""
    import json
    from alphazero.game.shogi_handicaps import HANDICAPS
    from alphazero.records.common import record_value, replay
    from alphazero.records.read import read_records
    from conftest import run_node
    rng = random.Random(3)
    written = []
    for i, start in enumerate([None, None, '香落ち', '角落ち', '二枚落ち', '六枚落ち']):
        state = game.State(HANDICAPS[start]) if start else game.State()
        first, moves = state, []
        while not state.is_done() and len(moves) < 60 + 20 * i:
            action = rng.choice(state.legal_actions())
            moves.append(game.action_name(state, action))
            state = state.next(action)
        resign = not state.is_done()
        written.append({'usi': first.usi_position().split(' moves')[0] + ' moves ' + ' '.join(moves), 'resign': resign,
                        'path': str(tmp_path / f'{i}.ki2'), 'start': start, 'moves': moves, 'final': state})
    wrote = run_node('web/test/write_ki2.mjs', input='\n'.join(json.dumps({k: w[k] for k in ('usi', 'resign', 'path')})
                                                              for w in written))
    assert wrote.returncode == 0, wrote.stderr
    for w in written:
        games, problems = read_records(w['path'], game)
        assert problems == [] and len(games) == 1, (w['path'], problems)
        played, final = replay(game, games[0])
        assert [game.action_name(s, a) for s, a in played] == w['moves']
        assert games[0].start == (HANDICAPS[w['start']] if w['start'] else None)
        expected = -1 if w['final'].is_first_player() else 1  # the side to move resigned
        assert record_value(games[0], final, True) == (expected if w['resign'] else record_value([], w['final'], True))
    text = (tmp_path / '0.ki2').read_text()
    (tmp_path / 'bad.ki2').write_text(text.replace('▲', '▲５五玉 ', 1) if '▲５五玉' not in text else text + '▲１一玉')
    games, problems = read_records(str(tmp_path / 'bad.ki2'), game)
    assert games == [] and re.search(r'bad\.ki2: move \d+ \(▲５五玉\) is not a legal move there', problems[0]), problems


def replay_states(game, actions):
    state, states = game.State(), []
    for action in actions:
        states.append(state)
        state = state.next(action)
    return states


def mate_positions(game, count, plies, seed):
    """Positions of random games where the side to move mates in `plies` (1 or 3) and not sooner,
    as cshogi's own mate functions say (its mate in one checked by our rules; mates in 3 out of check,
    where df-pn searches)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.State()
        for _ in range(rng.randrange(30, 200)):
            if state.is_done():
                break
            board, mate = state.board, state.board.mate_move_in_1ply()
            mate_in_one = mate in state.moves().values() and state.next(state.action_of_move(mate)).is_lose()
            if mate_in_one if plies == 1 else (board.mate_move(3) and not mate and not state.in_check):
                found.append(state)
                break
            state = state.next(rng.choice(state.legal_actions()))
    return found


def mates_by_force(state, action, plies):
    """Whether `action` begins a mate in `plies` (1 or 3): it mates, or every reply allows a mate in one."""
    after = state.next(action)
    if not after.legal_actions():
        return after.is_lose()
    return plies == 3 and all(after.next(reply).board.mate_move_in_1ply() for reply in after.legal_actions())


def test_the_usi_engine_never_misses_a_mate_df_pn_finds_and_answers_go_mate(game, tiny_shogi_model):
    """Before its search the engine runs df-pn (as dlshogi does) and plays the mate it proves: on 20
    generated mate-in-one and 20 mate-in-three positions (cshogi's mate functions), with an untrained
    network, every move begins the mate. go mate answers checkmate with a mating line, nomate, or
    timeout; stop ends it."""
    from alphazero.network.load import load_network
    from alphazero.play.agent import Agent
    from usi_engine import UsiSession
    network, _ = load_network(tiny_shogi_model, game)
    session = UsiSession(game, Agent(game, network, rng=np.random.default_rng(0)), 8)
    for plies in (1, 3):
        for state in mate_positions(game, 20, plies, seed=plies):
            session.execute(f'position {state.usi_position()}')
            info, best = session.execute('go nodes 8')
            action = state.action_of_usi(best.split()[1])
            assert mates_by_force(state, action, plies), (state.usi_position(), best)
            assert f' score mate {plies} ' in info or (plies == 3 and ' score mate ' in info)
            answer = session.execute('go mate 1000')[0].split()
            line, walked = answer[1:], state
            assert answer[0] == 'checkmate' and len(line) % 2 == 1, answer
            for move in line:
                walked = walked.next(walked.action_of_usi(move))
            assert walked.is_lose() and not walked.legal_actions()
    session.execute('position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1')  # bare kings: no mate, proved at once
    assert session.execute('go mate 1000') == ['checkmate nomate']
    session.execute('position startpos')  # no check to give: no mate, proved at once
    assert session.execute('go mate 1') == ['checkmate nomate']


# Positions of random games (cshogi's random moves, seed 84) where the side to move is in check and
# cshogi's mate_move(3) finds a mate, and the position of issue 84 (8i7g mates in three)
CHECKED_MATES = [
    'lnrg3n1/2s2P2l/pppp1ppsb/2R4pp/2Pk5/PP4P1G/2+bK1G2P/6SGL/LN1S3N1 b 4p 71',
    'ln1+Sp1r2/1P1g1sb1l/+N1p1+Sp+NPn/p1lp4P/P5P2/3P3pg/1k2G2+p1/LpG1P1p2/B1KR1S+p2 w P 122',
    '5p3/1k4+N2/Rpgp1BP1n/1PKBss3/pNP1p2pl/2nP3rs/G1p3+p1P/L4Pp1L/GS3L3 b G3P 161',
    '4p4/l1k5l/+LpN1P1ng+P/2PrK4/p5pN1/PPp1Np1P1/B2S2P+B1/R1S1G2SL/sG3g3 b 3P2p 131',
    'l2+Ss3G/pLg1r1S2/2n1p2Np/1P3+b3/P2Gk2pP/L1p2Pp2/3pKpPPL/1p3+n2R/1+p4SN1 w Pbgp 134',
    '1p4sn1/3r3bl/ls1gkpppp/p2pG2P1/PP2pK3/2GP1PPSP/N1P1P3N/1B2NG3/L1SR4L w P 108',
    '1+P2s+P2g/l4b+R1l/2p4gn/1pN1p1r1P/pG2Pp3/3p2Ppp/P3kP2n/LSg+B2S1L/1P2K1SN1 w 2p 146',
    'p1p3b2/ggrnsk1s1/l1G1+P3l/3s1KPP1/GPPP1P1pp/9/N2p4N/P1S+b+p2RL/L7+n w 4P 188',
    '2s4nl/2r4+P1/ls1gB3P/p1p1p2g1/1n1p1Sp1L/1p7/PPPPk1P1g/LS2P1+r2/BN1K1g1N1 w 3Pp 96',
    '1n3k1r1/+P1LB1g3/2GsP1Ksl/psp1NP2p/3N1G1N1/lrP3P2/L1BPpgpSP/1p2+pp3/9 b 2Pp 163',
    'l1rgg2n1/8l/p1Gp1sp1p/1pp2p2N/P1P1ps1P1/1P4PRg/N3k3L/LBS2S3/5KbN1 w 4Pp 96',
    '3+PS2G1/+P1p3kPl/1P2+Pg1sl/2PPPKPpN/Pp1n4S/2+rn5/L1N5G/pB+pp+sB2P/2GR4L b p 171',
    '1n6+P/1p2p1+L2/1gp1Gpn1p/3kS1+B1n/p1Rr5/+l2K1S3/1+pP3NpP/L3+pSLGS/2B2G3 b P5p 183',
]


def test_a_side_in_check_that_mates_finds_its_mate(game, tiny_shogi_model):
    """In check, an evasion that checks can begin a mate: on positions where our own rules find a
    forced mate within three plies (every evasion, then every reply), df-pn proves one too, the USI
    engine plays its first move and go mate answers with it."""
    from alphazero.network.load import load_network
    from alphazero.play.agent import Agent
    from usi_engine import UsiSession
    network, _ = load_network(tiny_shogi_model, game)
    session = UsiSession(game, Agent(game, network, rng=np.random.default_rng(0)), 8)
    for sfen in CHECKED_MATES:
        state = game.State(sfen)
        assert state.in_check and any(mates_by_force(state, action, 3) for action in state.legal_actions()), sfen
        line, nodes = game.mate_search(state)
        walked = state
        for action in line:
            walked = walked.next(action)
        assert walked.is_lose() and not walked.legal_actions() and len(line) % 2 == 1 and nodes >= 0
        session.execute(f'position sfen {sfen}')
        info, best = session.execute('go nodes 8')
        assert best.split()[1] == game.action_name(state, line[0]) and f' score mate {len(line)} ' in info, (sfen, info)
        assert session.execute('go mate 1000') == ['checkmate ' + ' '.join(line_names(state, line, game.action_name))]
    assert session.execute(f'position sfen {CHECKED_MATES[0]}') == [] and session.execute('go mate 1000') == [
        'checkmate 8i7g 6e5e 4g5f']


def test_a_side_that_is_mated_says_mate_minus_n(game, tiny_shogi_model):
    """The side whose every move allows a mate df-pn proves reports score mate -N (N plies to its
    mate, its own move first), as GUIs show a lost position."""
    from alphazero.network.load import load_network
    from alphazero.play.agent import Agent
    from usi_engine import UsiSession
    network, _ = load_network(tiny_shogi_model, game)
    session = UsiSession(game, Agent(game, network, rng=np.random.default_rng(0)), 8)
    # 後手 to move, two plies from the end of a Fairy-Stockfish game: each of its 36 moves allows a mate in one
    session.execute('position sfen l5+Rnk/2PG2S1l/r5spp/1p2pp3/p2N4P/2SpP2+b1/PPG3N1G/2S5L/L6K1 w BGN3P3p 166')
    *infos, best = session.execute('go nodes 8')
    assert ' score mate -2 ' in infos[-1] and best.startswith('bestmove '), infos


def test_players_look_for_a_mate_before_they_search(game, tiny_shogi_model):
    """An agent's player plays the mates df-pn proves and searches the other positions, all in one
    batched choice; --no-solver, a policy level or a game without a solver leave the solver out."""
    from alphazero.search.evaluator import Evaluator
    from alphazero.network.load import load_network
    from alphazero.play.agent import Agent, Style
    from alphazero.play.levels import Level
    from alphazero.play.players import MctsPlayer, PolicyPlayer, SolvingPlayer
    network, _ = load_network(tiny_shogi_model, game)
    agent = Agent(game, network, style=Style(Level(4, 4, 0.0)), rng=np.random.default_rng(0))
    player, searcher = agent.player, agent.player.player
    mates = mate_positions(game, 10, 1, seed=5)
    states = [game.State(), *mates, game.State().next(game.State().legal_actions()[0])]
    choices = player.choose(states)
    assert isinstance(player, SolvingPlayer) and len(choices) == len(states)
    assert all(mates_by_force(state, action, 1) and known.mate == 1 for state, (action, known) in zip(mates, choices[1:-1]))
    assert all(action in state.legal_actions() for state, (action, _) in zip(states, choices))
    # ... and its leaves take 1 where the side to move mates in one (out of check), else the network's value
    from alphazero.search.evaluator import KnownValues
    assert isinstance(searcher.evaluator, KnownValues)
    quiet = [s for s in mates if not s.in_check][:3] + [game.State()]
    _, values = searcher.evaluator(quiet)
    assert list(values[:-1]) == [1.0] * (len(quiet) - 1)
    assert values[-1] == pytest.approx(Evaluator(network)([game.State()])[1][0], abs=1e-5)  # batches round alike
    plain = agent.replaced(search=SearchSettings(solver=False)).player
    assert isinstance(plain, MctsPlayer) and not isinstance(plain.evaluator, KnownValues)
    assert isinstance(agent.replaced(level=Level(1, 0, 1.0)).player, PolicyPlayer)
    gomoku = load_game('gomoku')
    assert isinstance(Agent(gomoku, network, style=Style(Level(4, 4, 0.0))).player, MctsPlayer)  # no solver to ask


def test_kif_keeps_the_ais_evaluations_as_shogihome_writes_them(game, tmp_path):
    """write_kif with evaluations: after each evaluated move, *#評価値= (centipawns from 先手's side)
    and *#読み筋= (the line in KI2); our reader and tsshogi read the same moves."""
    import json
    from alphazero.records.read import read_records
    from alphazero.records.shogi import write_kif
    from conftest import run_node
    actions = game_to_its_end(game, 4)[:6]
    states = replay_states(game, actions)
    evaluations = {0: (0.5, actions[:3]), 3: (0.5, actions[3:5])}  # 先手 and 後手 each expect to stand better
    path = str(tmp_path / 'evaluated.kifu')
    write_kif(path, actions, game, ('a', 'b'), evaluations=evaluations)
    lines = open(path, encoding='utf-8').read().splitlines()
    first, fourth = lines.index(next(x for x in lines if x.startswith('   1 '))), lines.index(next(x for x in lines if x.startswith('   4 ')))
    line = ''.join(game.japanese_name(s, a) for s, a in zip(states[:3], actions[:3]))
    assert lines[first + 1:first + 3] == ['*#評価値=659', f'*#読み筋={line}']
    assert lines[fourth + 1].startswith('*#評価値=-659') and lines[fourth + 2].startswith('*#読み筋=△')
    ours, problems = read_records(path, game)
    assert problems and ours == [] or list(ours[0]) == actions  # an unfinished game is skipped, and said
    read = run_node('web/test/read_kif.mjs', path)
    assert json.loads(read.stdout)['moves'] == [game.action_name(s, a) for s, a in zip(states, actions)]


def test_engine_scores_and_values_convert_both_ways():
    """A value and an engine's centipawns are one scale (600 per logit): a score read from an
    engine and written back is the same score, a certain result a mate's +-30000."""
    from alphazero.game.values import CP_LIMIT, centipawns, value_of_centipawns
    assert all(centipawns(value_of_centipawns(score)) == score for score in range(-9000, 9001, 7))
    assert centipawns(1.0) == CP_LIMIT and centipawns(-1.0) == -CP_LIMIT and centipawns(0.5) == 659
    assert value_of_centipawns(CP_LIMIT) == 1.0 and value_of_centipawns(-CP_LIMIT - 5) == -1.0


def test_evaluate_best_player_writes_its_games_as_kif_with_evaluations(game, workdir, tiny_shogi_model, fairy_stockfish):
    """evaluate_best_player saving its games: each game against Fairy-Stockfish a KIF in the folder,
    named by the opponent and the game, which our reader reads move for move; every move of
    ours after the opening and every scored move of the engine carry *#評価値 and *#読み筋."""
    from evaluate_best_player import evaluate_best_player
    from alphazero.records.read import read_records
    from alphazero.settings import EvaluationSettings
    engine = f'{fairy_stockfish}; go depth 1'
    evaluation = EvaluationSettings(opponents=(), engines=(engine,), engine_games=2, opening=2, save_to='games')
    scores = evaluate_best_player(game, SearchSettings(sims=4), evaluation, seed=0, path=tiny_shogi_model)
    assert scores[engine]['games'] == 2
    assert sorted(os.listdir('games')) == ['fairy-stockfish-go-depth-1-001.kif', 'fairy-stockfish-go-depth-1-002.kif']
    for number, ours_first in ((1, True), (2, False)):
        path = f'games/fairy-stockfish-go-depth-1-{number:03}.kif'
        text = open(path, encoding='cp932').read().splitlines()
        assert text[2:4] == (['先手：AlphaZero', f'後手：{engine}'] if ours_first else [f'先手：{engine}', '後手：AlphaZero'])
        moves = [i for i, line in enumerate(text) if re.match(r' *\d+ ', line) and not line.strip().endswith(('詰み', '投了'))]
        assert len(moves) > 20
        evaluated = [i for i in moves[2:] if text[i + 1].startswith('*#評価値=')]  # after the 2-move opening
        assert len(evaluated) >= len(moves[2:]) - 2  # a move may end the game or come without a pv
        assert all(text[i + 2].startswith('*#読み筋=') for i in evaluated)
        games, problems = read_records(path, game)
        assert len(games) + len(problems) == 1


@pytest.mark.slow
def test_make_records_goes_on_after_a_kill_to_the_same_games(game, workdir, fairy_stockfish):
    """make_records keeps each game as it ends: with the file cut as a kill leaves it (a game's line
    half written), the same call plays only the games it lacks and returns what a whole run
    returns; other settings are refused in one line rather than mixed in."""
    from make_records import make_records
    from alphazero.errors import UserError
    engine = f'{fairy_stockfish}; go depth 1'
    whole = make_records(game, [engine], 6, 4, 2, seed=5, kept='kept.jsonl')
    lines = open('kept.jsonl').read().splitlines()
    assert len(lines) == 7 and all(record.evaluations for record in whole)
    with open('kept.jsonl', 'w') as f:
        f.write('\n'.join(lines[:3]) + '\n' + lines[3][:40])
    again = make_records(game, [engine], 6, 4, 1, seed=5, kept='kept.jsonl')
    assert [list(r) for r in again] == [list(r) for r in whole] and [r.result for r in again] == [r.result for r in whole]
    with pytest.raises(UserError, match='other settings'):
        make_records(game, [engine], 6, 2, 1, seed=5, kept='kept.jsonl')


def test_floodgate_games_are_kept_by_their_players_ratings(game, tmp_path):
    """A floodgate CSA file rates its players ('black_rate / 'white_rate): --min-rating keeps the games
    whose two players reach it, as the article kept R3800 and more; a file without ratings has none
    to keep, which is said in one line."""
    from alphazero.records.positions import read_games
    from alphazero.errors import UserError

    def floodgate(black, white):
        return (f"V2.2\nN+a\nN-b\n'black_rate:a+hash:{black}\n'white_rate:b+hash:{white}\nPI\n+\n"
                '+7776FU\n-3334FU\n+2726FU\n%TORYO\n')
    path = tmp_path / 'floodgate.csa'
    path.write_text('/\n'.join(floodgate(*r) for r in ((3900, 3850.5), (3900, 3700), (2500, 4100))))
    assert [g.ratings for g in read_games(game, [str(path)])] == [(3900, 3850.5), (3900, 3700), (2500, 4100)]
    assert [g.ratings for g in read_games(game, [str(path)], 3800)] == [(3900, 3850.5)]
    plain = tmp_path / 'plain.csa'
    plain.write_text('V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n')
    with pytest.raises(UserError, match='rated 3800 or more'):
        read_games(game, [str(plain)], 3800)
