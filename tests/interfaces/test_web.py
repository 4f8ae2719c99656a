"""The browser player: JavaScript rules, encoding and search against Python's, and the served page
in headless Chromium (Debian's chromium driven by playwright-core), with a real exported model."""
import json
import os
import re
import shutil
import sys

import numpy as np
import pytest

from alphazero.game.registry import load_game
from alphazero.game.notation import action_names
from play_web import PAGE_GAMES as GAMES
from alphazero.network.runtimes import KerasNetwork
from conftest import REPO, need, random_endgame, run_node, tiny_exported_model, tiny_model
from pv_mcts import pv_mcts_visits
from alphazero.search.evaluator import Evaluator
from alphazero.search.search import search_roots
from alphazero.settings import SearchSettings

sys.path.insert(0, os.path.join(REPO, 'docs'))
from make_screenshots import serve  # noqa: E402 (play_web.py on a free port, as the pictures are made)

CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')


# ----- shared test vectors -----
def rules_vector(game, state, moves, children=True):
    """What the JavaScript rules must say about the position reached by `moves` (with the cells
    after each legal move when `children`)."""
    vector = {'moves': list(moves), 'cells': state.cells(), 'planes': state.planes().reshape(-1).tolist(),
              'done': state.is_done(), 'lose': state.is_lose(), 'draw': state.is_draw(),
              'first': state.is_first_player()}
    if hasattr(state, 'sequence'):  # point-Othello: the values dealt to the game
        vector['sequence'] = list(state.sequence)
    if getattr(state, 'sfen', None):  # full shogi: the position the game started from
        vector['sfen'] = state.sfen
    if not state.is_done():
        vector['legal'] = state.legal_actions()
        if game.action_name:  # shogi: names that depend on the position
            vector['names'] = [game.action_name(state, a) for a in state.legal_actions()]
        if game.NAME == 'shogi9':  # and as KIF records write them
            from cshogi.KIF import move_to_kif
            previous = state.board.history[-1] if state.board.history else None
            vector['kif'] = [move_to_kif(state.moves()[a], previous) for a in state.legal_actions()]
            vector['ki2'] = [game.japanese_name(state, a) for a in state.legal_actions()]  # cshogi's KI2
        vector['children'] = {str(a): state.next(a).cells() for a in state.legal_actions()} if children else {}
    return vector


# Full shogi's positions that random games seldom reach, as (SFEN, USI moves): a pawn drop that
# would mate (not legal) and one that does not; a fourfold repetition; a perpetual check (the checker
# loses); a promotion that must be made and one that may
SHOGI9_POSITIONS = (
    ('7nk/7s1/8G/9/9/9/9/9/K8 b P 1', ()),
    ('8k/7s1/8G/9/9/9/9/9/K8 b P 1', ()),
    (None, ('2h3h', '8b7b', '3h2h', '7b8b') * 3),
    ('8k/9/9/9/9/9/9/9/K6R1 b - 1', ('2i1i', '1a2a', '1i2i', '2a1a') * 3),
    ('4k4/9/9/4P4/9/9/9/9/4K4 b N 1', ('5d5c+', '5a4a', 'N*5d', '4a5a', '5d4b+')),
)


def shogi9_vectors(games=2, seed=5):
    """Every position of a few random games of full shogi (the cells after each move for every
    eighth), and of SHOGI9_POSITIONS."""
    game, rng = load_game('shogi9'), np.random.default_rng(seed)
    vectors = []
    for _ in range(games):
        state, moves = game.State(), []
        while True:
            vectors.append(rules_vector(game, state, moves, children=len(moves) % 8 == 0))
            if state.is_done():
                break
            moves.append(int(rng.choice(state.legal_actions())))
            state = state.next(moves[-1])
    for sfen, usi_moves in SHOGI9_POSITIONS:
        state, moves = game.State(sfen), []
        vectors.append(rules_vector(game, state, moves))
        for usi in usi_moves:
            moves.append(state.action_of_usi(usi))
            state = state.next(moves[-1])
            vectors.append(rules_vector(game, state, moves))
    return vectors


def rules_vectors(game, games=4, seed=0):
    """Every position of a few random games (and for shogi, of a game that ends without a move)."""
    rng = np.random.default_rng(seed)
    vectors = []
    for _ in range(games):
        state, moves = game.State(), []
        while True:
            vectors.append(rules_vector(game, state, moves))
            if state.is_done():
                break
            moves.append(int(rng.choice(state.legal_actions())))
            state = state.next(moves[-1])
    if game.NAME == 'shogi':
        from references import STALEMATE
        state = game.State()
        for action in STALEMATE:
            state = state.next(action)
        vectors.append(rules_vector(game, state, STALEMATE))
    return vectors


class RecordingNetwork:
    """A real network that remembers every position it evaluated and its outputs."""

    def __init__(self, network):
        self.network, self.outputs = network, []

    def __call__(self, planes):
        policies, values = self.network(planes)
        for p, pi, v in zip(planes, policies, values):
            self.outputs.append([p.reshape(-1).tolist(), pi.tolist(), float(v)])
        return policies, values


def search_vectors(name, simulations=40):
    game = load_game(name)
    network = KerasNetwork(tiny_model(0, rules=game))
    rng = np.random.default_rng(1)
    vectors = []
    for _ in range(3):
        state, moves = game.State(), []
        for _ in range(int(rng.integers(0, 6))):
            moves.append(int(rng.choice(state.legal_actions())))
            state = state.next(moves[-1])
        recorder = RecordingNetwork(network)
        visits = pv_mcts_visits(recorder, state, simulations)
        sequence = {'sequence': list(state.sequence)} if hasattr(state, 'sequence') else {}
        vectors.append({'game': name, 'moves': moves, 'simulations': simulations, 'visits': visits,
                        'outputs': recorder.outputs, **sequence})
        # A review's search: the least likely move played gets its share (alphazero/search/played.py)
        recorder = RecordingNetwork(network)
        played = min(state.legal_actions(), key=lambda a: network(state.planes()[None])[0][0][a])
        result = search_roots(Evaluator(recorder), [state], SearchSettings(sims=simulations), played=[played])
        vectors.append({'game': name, 'moves': moves, 'simulations': simulations, 'played': played,
                        'visits': result.visits[0][state.legal_actions()].tolist(), 'outputs': recorder.outputs, **sequence})
        # A model's first-play reduction: an untried move valued at its position's mean less it
        recorder = RecordingNetwork(network)
        result = search_roots(Evaluator(recorder), [state], SearchSettings(sims=simulations, first_play=0.3))
        vectors.append({'game': name, 'moves': moves, 'simulations': simulations, 'firstPlay': 0.3,
                        'visits': result.visits[0][state.legal_actions()].tolist(), 'outputs': recorder.outputs, **sequence})
    return vectors


def settai_vectors(count=300):
    """Moves' values and aims (rounded, so that ties and the floor's edge turn up), half with margins,
    and match.py's settai choice."""
    from alphazero.play.settai import settai_choice
    rng = np.random.default_rng(2)
    vectors = []
    for i in range(count):
        actions = sorted(rng.choice(20, size=int(rng.integers(1, 8)), replace=False).tolist())
        q = np.round(rng.uniform(-1, 1, len(actions)), 1).tolist()
        margins = np.round(rng.uniform(-1, 1, len(actions)), 1).tolist() if i % 2 else None
        aims = np.round(rng.uniform(-0.5, 0.5, 2), 1).tolist() if i % 3 else [0.0, 0.0]
        choice = settai_choice(actions, dict.fromkeys(actions, 1), dict(zip(actions, q)),
                               dict(zip(actions, margins)) if margins else None, *aims)
        vectors.append({'actions': actions, 'q': q, 'margins': margins, 'aims': aims, 'choice': choice})
    return vectors


def settai_game_vectors(count=20):
    """Connect Four games of a settai player (random searched values for its moves and random network
    values of the positions, half with margins) against random replies, one SettaiDrift over all of
    them: each settai move's aims and choice."""
    from alphazero.play.settai import SettaiDrift, settai_choice
    game, rng, drift = load_game('connect4'), np.random.default_rng(3), SettaiDrift()
    vectors = []
    for i in range(count):
        state, moves, steps = game.State(), [], []
        while not state.is_done():
            legal = state.legal_actions()
            if len(moves) % 2 == 0:
                q = dict(zip(legal, np.round(rng.uniform(-1, 1, len(legal)), 1).tolist()))
                margins = dict(zip(legal, np.round(rng.uniform(-1, 1, len(legal)), 1).tolist())) if i % 2 else None
                now, after = (np.round(rng.uniform(-1, 1, 2), 2).tolist() for _ in range(2))
                if not margins:
                    now[1] = after[1] = None
                aims = drift.aims(None, state, *now)
                action = settai_choice(legal, dict.fromkeys(legal, 1), q, margins, *aims)
                drift.chose(None, state.next(action), *after)
                steps.append({'ply': len(moves), 'q': list(q.values()), 'aims': list(aims), 'choice': action,
                              'margins': list(margins.values()) if margins else None, 'now': now, 'after': after})
            else:
                action = int(rng.choice(legal))
            moves.append(action)
            state = state.next(action)
        vectors.append({'game': 'connect4', 'moves': moves, 'steps': steps})
    return vectors


def settai_endgame_vectors():
    """8x8 Othello positions of random games near their end (one with too many empty squares), and
    match.py's settai_endgame move (None where its search would visit too many positions)."""
    from alphazero.play.settai import settai_endgame, settai_for
    game, rng = load_game('othello8'), np.random.default_rng(4)
    final_margin = settai_for(game).final_margin
    vectors = []
    for empties in (6, 8, 9, 10, 10, 10, 11):
        state, moves = random_endgame(game, empties, rng)
        vectors.append({'game': 'othello8', 'moves': moves, 'choice': settai_endgame(state, final_margin)})
    return vectors


def solved_vectors():
    """8x8 Othello positions of random games near their end (some with too many empty squares) and
    games/othello8's solve: its move and exact margin, or None."""
    game, rng = load_game('othello8'), np.random.default_rng(5)
    vectors = []
    for empties in (3, 6, 8, 9, 10, 10, 11, 12):
        state, moves = random_endgame(game, empties, rng)
        solved = game.solve(state)
        vectors.append({'game': 'othello8', 'moves': moves,
                        'solved': solved and {'action': solved.line[0], 'margin': solved.margin}})
    return vectors


@pytest.mark.slow
def test_javascript_rules_encoding_and_search_equal_pythons(tmp_path):
    vectors = {'rules': {name: shogi9_vectors() if name == 'shogi9' else rules_vectors(load_game(name)) for name in GAMES},
               'names': {name: action_names(load_game(name)) for name in GAMES if name not in ('shogi', 'shogi9')},
               'search': [v for name in GAMES for v in search_vectors(name)], 'settai': settai_vectors(),
               'settai_games': settai_game_vectors(), 'settai_endgames': settai_endgame_vectors(),
               'solved': solved_vectors()}
    path = tmp_path / 'vectors.json'
    path.write_text(json.dumps(vectors))
    result = run_node('web/test/check_vectors.mjs', str(path))
    assert result.returncode == 0, result.stderr
    positions = sum(len(v) for v in vectors['rules'].values())
    steps = sum(len(v['steps']) for v in vectors['settai_games'])
    assert (f'checked {positions} positions, {len(vectors["search"])} searches, 300 settai choices and {steps} '
            'settai moves of 20 games, 7 settai endgames, 8 solved endgames') in result.stdout


def test_the_page_reads_kif_ki2_and_csa_records_as_our_reader_does(tmp_path):
    """web/shogi9.js's recordMoves on records other programs wrote: KIF by cshogi (Shift_JIS), KI2
    by tsshogi (ShogiHome's library), CSA by our writer; random games, even and handicapped, some
    resigned: the same moves, handicap and ending as alphazero/records reads; an illegal move is
    refused with the number of moves read before it."""
    import json
    import random
    import cshogi.KIF
    from alphazero.game.shogi_handicaps import HANDICAPS
    from alphazero.records.common import replay
    from alphazero.records.read import read_records
    from alphazero.records.shogi import Record, write_csa
    game = load_game('shogi9')
    rng = random.Random(4)
    games, paths, ki2 = [], [], []
    for i, (kind, start) in enumerate([('kif', None), ('ki2', '角落ち'), ('csa', None), ('kif', '二枚落ち'), ('ki2', '香落ち'),
                                       ('csa', None)]):
        state = game.State(HANDICAPS[start]) if start else game.State()
        first, actions, usi = state, [], []
        while not state.is_done() and len(actions) < 40 + 30 * i:
            actions.append(rng.choice(state.legal_actions()))
            usi.append(game.action_name(state, actions[-1]))
            state = state.next(actions[-1])
        games.append((start, usi, not state.is_done()))
        path = str(tmp_path / f'{i}.{kind}')
        if kind == 'kif':
            board, exporter = cshogi.Board(HANDICAPS[start]) if start else cshogi.Board(), cshogi.KIF.Exporter()
            exporter.open(path)
            exporter.header(['先手', '後手'], handicap=start)
            for move in usi:
                exporter.move(board.move_from_usi(move))
                board.push_usi(move)
            exporter.end('resign')
            exporter.close()
        elif kind == 'csa':
            write_csa(path, [Record(actions, result=1 if not state.is_first_player() else -1)], game)
        else:
            ki2.append({'usi': first.usi_position().split(' moves')[0] + ' moves ' + ' '.join(usi), 'resign': True,
                        'path': path})
        paths.append(path)
    assert run_node('web/test/write_ki2.mjs', input='\n'.join(map(json.dumps, ki2))).returncode == 0
    bad = tmp_path / 'bad.ki2'
    bad.write_text('手合割：平手\n▲７六歩 △３四歩 ▲５五玉\n', encoding='utf-8')
    read = run_node('web/test/read_records.mjs', *paths, str(bad))
    assert read.returncode == 0, read.stderr
    by_page = [json.loads(line) for line in read.stdout.splitlines()]
    for (start, usi, resigned), path, page in zip(games, paths, by_page):
        ours, problems = read_records(path, game)
        assert problems == [] and page['moves'] == usi == [game.action_name(s, a) for s, a in replay(game, ours[0])[0]], path
        assert page['handicap'] == (start or '') and page['resigned'] == resigned, (path, page)
    assert by_page[-1]['error'] == '▲５五玉' and by_page[-1]['plies'] == 2


def test_javascript_check_fails_on_a_wrong_vector(tmp_path):
    vectors = {'rules': {'connect4': rules_vectors(load_game('connect4'), games=1)},
               'names': {'connect4': action_names(load_game('connect4'))}, 'search': []}
    vectors['rules']['connect4'][3]['legal'] = [0, 1, 2]
    path = tmp_path / 'vectors.json'
    path.write_text(json.dumps(vectors))
    result = run_node('web/test/check_vectors.mjs', str(path))
    assert result.returncode == 1 and 'legal' in result.stderr


# ----- the served page in Chromium -----
def browse(workdir, mode, *serve_args, extra=()):
    """Serve the page and run web/test/e2e.mjs on it (`extra`: the mode's own arguments); returns
    node's result and the server's log."""
    need(os.path.exists(CHROMIUM), f'Chromium ({CHROMIUM})', 'apt-get install chromium')
    process, address = serve(workdir, *serve_args)
    try:
        result = run_node('web/test/e2e.mjs', mode, address, str(workdir / f'{mode}.png'), *extra)
    finally:
        process.terminate()
        log = process.communicate(timeout=10)[1]
    assert result.returncode == 0, result.stdout + result.stderr
    return result, log


# Keep a test's screenshot in web/test/screenshots, which a fresh clone lacks, whatever test runs first
def keep_screenshot(path, name):
    folder = os.path.join(REPO, 'web', 'test', 'screenshots')
    os.makedirs(folder, exist_ok=True)
    shutil.copy(path, os.path.join(folder, name))


@pytest.mark.slow
def test_a_game_in_the_browser_against_a_real_exported_model(tiny_best, workdir):
    from export import export
    export('model/best.h5')
    result, log = browse(workdir, 'play', '--sims', '20')
    assert re.search(r'played \d moves: (You win|You lose|Draw), with a take-back', result.stdout)
    assert 'GET /model/tictactoe.onnx' in log and 'GET /ort/ort-wasm-simd-threaded' in log  # from the npm package
    assert (workdir / 'play.png').stat().st_size > 10000
    keep_screenshot(workdir / 'play.png', 'tictactoe.png')


@pytest.mark.slow
def test_the_page_speaks_japanese_and_english_and_shows_coordinates(tiny_best, workdir):
    from export import export
    export('model/best.h5')
    result, _ = browse(workdir, 'languages', '--sims', '4')
    assert 'Japanese, then English kept; coordinates abc 123' in result.stdout
    keep_screenshot(workdir / 'languages-ja.png', 'tictactoe-ja.png')


@pytest.mark.slow
def test_one_server_serves_every_game_and_the_page_picks_them(tiny_best, workdir):
    from export import export
    export('model/best.h5')
    for name in GAMES:
        if name != 'tictactoe':
            tiny_exported_model(name, 2)
    result, log = browse(workdir, 'picker', '--sims', '2')
    assert f'picked {" ".join(GAMES)}' in result.stdout
    assert all(f'GET /model/{name}.onnx' in log for name in GAMES)


@pytest.mark.slow
def test_a_game_is_saved_as_text_and_loaded_again(workdir):
    tiny_exported_model('othello8', 2)
    result, _ = browse(workdir, 'record', '--game', 'othello8')
    assert re.search(r'saved and loaded ([a-h][1-8]){6,}; refused: "z9" is not a legal move after 1 moves', result.stdout)


@pytest.mark.slow
def test_a_finished_game_is_reviewed_move_by_move(tiny_best, workdir):
    from export import export
    export('model/best.h5')
    result, _ = browse(workdir, 'review', '--sims', '8')
    assert re.search(r"reviewed: Position 0 of 5: the AI's best move [abc][123]", result.stdout)
    keep_screenshot(workdir / 'review.png', 'tictactoe-review.png')


@pytest.mark.slow
def test_levels_with_their_elo_the_adaptive_level_and_settai_mode(tiny_best, workdir):
    from dataclasses import asdict
    from alphazero.play.levels import standard_levels
    from export import export
    export('model/best.h5')
    levels = [asdict(level) for level in standard_levels(8)]
    for level, (elo, near) in zip(levels, [(50, 'random player'), (300, 'random player'), (500, 'alpha-beta (perfect)'),
                                           (520, 'alpha-beta (perfect)')]):
        level.update(elo=elo, near=near, near_difference=elo - {'random player': 0, 'alpha-beta (perfect)': 510}[near])
    (workdir / 'model' / 'model.json').write_text(json.dumps({'game': 'tictactoe', 'levels': {'levels': levels}}))
    result, _ = browse(workdir, 'levels', '--sims', '8')
    assert re.search(r'levels 4; Your rating: \d+ \(1 games\); settai answered', result.stdout)


@pytest.mark.slow
def test_othello_on_a_phone_sized_screen(workdir):
    tiny_exported_model('othello8', 8)
    result, _ = browse(workdir, 'othello', '--game', 'othello8')
    assert re.search(r'played to \d+ discs \(\d+-\d+\); the board is \d+ px wide', result.stdout)


@pytest.mark.slow
def test_a_whole_point_othello_game_in_the_browser(workdir):
    tiny_exported_model('pointothello', 4)
    result, _ = browse(workdir, 'points', '--game', 'pointothello')
    assert re.search(r'played \d+ moves: (You win|You lose|Draw) \(-?\d+ to -?\d+\)', result.stdout)


@pytest.mark.slow
def test_a_whole_shogi_game_in_the_browser(workdir):
    tiny_exported_model('shogi', 4)
    result, _ = browse(workdir, 'shogi', '--game', 'shogi')
    assert re.search(r'played \d+ moves \(\d+ drops\): (You win|You lose|Draw)', result.stdout)


@pytest.mark.slow
def test_full_shogi_in_the_browser_in_japanese_saved_as_kif(workdir):
    """A game of full shogi on the page (clicks, promotions asked, drops, a take-back), saved as a
    .kifu file that tsshogi (ShogiHome's library) reads, line for line what write_kif writes for the
    same moves (with the AI's evaluations as comments), and loaded again on the page."""
    from alphazero.records.shogi import write_kif
    tiny_exported_model('shogi9', 4)
    (workdir / 'runs/shogi9/model/model.json').write_text(json.dumps({'search': {'first_play': 0.2}}))  # as shipped
    saved = workdir / 'page.kifu'
    result, _ = browse(workdir, 'shogi9', '--game', 'shogi9', extra=(str(saved),))
    assert re.search(r'played \d+ moves \(\d+ drops, [1-9]\d* promotions asked, \d+ made\), \d+ lines listed; saved and '
                     r'loaded; settai answered', result.stdout), result.stdout
    read = run_node('web/test/read_kif.mjs', str(saved))
    record = json.loads(read.stdout)
    assert record['end'] == 'interrupt' and len(record['moves']) >= 20, record
    game = load_game('shogi9')
    state, actions = game.State(), []
    for usi in record['moves']:
        actions.append(state.action_of_usi(usi))
        state = state.next(actions[-1])
    page = saved.read_bytes().decode('utf-8').split('\r\n')
    names = tuple(line.split('：', 1)[1] for line in page[2:4])
    write_kif(str(workdir / 'python.kifu'), actions, game, names)
    moves = [line for line in page[1:] if not line.startswith('*')]
    assert (workdir / 'python.kifu').read_bytes().decode('utf-8').split('\r\n')[1:] == moves
    # after the moves, the AI's estimates and best moves as ShogiHome writes an engine's
    comments = [line for line in page if line.startswith('*')]
    assert len([c for c in comments if c.startswith('*#評価値=')]) >= 20 and all(
        re.fullmatch(r'\*#評価値=-?\d+|\*#読み筋=[▲△].+', c) for c in comments), comments


@pytest.mark.slow
def test_a_handicap_game_on_the_page_is_saved_and_loaded_with_its_teai(workdir):
    """香落ち on the page: the AI, 上手, moves first and the player answers as 下手; the KIF saved names
    its 手合割 and sides, tsshogi (ShogiHome's library) reads its start and moves, and loaded after an
    even game it brings its handicap back; then the player takes 上手, on a board turned round, and
    resigns: the KIF keeps 投了 and its result when loaded again; a Shift_JIS .kif that write_kif wrote,
    opened as a file, ends as it does."""
    from alphazero.game.shogi_handicaps import HANDICAPS
    from alphazero.records.shogi import write_kif
    tiny_exported_model('shogi9', 4)
    saved = workdir / 'handicap.kifu'
    # a 角落ち game that 下手 resigned, as write_kif writes it (Shift_JIS), for the page to open as a file
    game, rng = load_game('shogi9'), np.random.default_rng(3)
    state = start = game.State(HANDICAPS['角落ち'])
    actions = []
    for _ in range(11):
        actions.append(int(rng.choice(state.legal_actions())))
        state = state.next(actions[-1])
    write_kif(str(workdir / 'resigned.kif'), actions, game, ('下手の人', '上手の人'), resigned=True, start=start)
    result, _ = browse(workdir, 'handicap', '--game', 'shogi9', extra=(str(saved), str(workdir / 'resigned.kif')))
    assert re.search(r'香落ち: \d+ lines as 下手, saved and loaded with its 手合割; as 上手: △', result.stdout), result.stdout
    record = json.loads(run_node('web/test/read_kif.mjs', str(saved)).stdout)
    assert record['start'] == HANDICAPS['香落ち'] and len(record['moves']) >= 6, record
    game = load_game('shogi9')
    state = game.State(HANDICAPS['香落ち'])
    for usi in record['moves']:
        state = state.next(state.action_of_usi(usi))
    # the page's handicaps are Python's, every one
    listed = run_node('--input-type=module', '-e', "import { shogi9 } from './web/shogi9.js'; "
                      'console.log(JSON.stringify(shogi9.handicaps))')
    assert json.loads(listed.stdout) == HANDICAPS, listed.stderr


@pytest.mark.slow
def test_othellos_last_empties_are_solved_on_the_page(workdir):
    """A game loaded with 9 empty squares left: the page's estimate is the exact final margin that
    games/othello8's solve gives for the position the human then has to move in."""
    from alphazero.records.common import replay
    game = load_game('othello8')
    tiny_exported_model('othello8', 2)
    state, moves = random_endgame(game, 9, np.random.default_rng(6))
    names = action_names(game)
    result, _ = browse(workdir, 'solved', '--game', 'othello8', extra=(''.join(names[a] for a in moves),))
    assert re.search(r'^Solved to the end: (you win by \d+|you lose by \d+|a draw)$', result.stdout, re.M), result.stdout
    assert replay(game, moves)[1].cells().count(0) <= 9


@pytest.mark.slow
def test_the_page_searches_with_each_models_first_play_reduction(workdir):
    """config.json gives the page each model's first-play reduction, as its model.json measured it
    (the shipped full-shogi model's 0.2; the book's draw, null, for a model that measured none)."""
    import urllib.request
    process, address = serve(workdir, '--game', 'shogi9')
    try:
        with urllib.request.urlopen(address + 'config.json', timeout=30) as reply:
            config = json.load(reply)
    finally:
        process.terminate()
        process.communicate(timeout=10)
    shipped = json.load(open(os.path.join(REPO, 'pretrained/shogi9/model.json'), encoding='utf-8'))['search']
    assert config['games']['shogi9']['firstPlay'] == shipped['first_play'] == 0.2
    assert config['games']['tictactoe']['firstPlay'] is None


def test_a_missing_model_is_explained_on_the_page_and_in_the_log(workdir):
    result, log = browse(workdir, 'error', '--game', 'othello6', '--model', 'gone.onnx')
    assert 'gone.onnx not found' in result.stdout
    assert 'error: gone.onnx not found' in log


def test_a_model_of_another_game_is_refused(tiny_best, workdir):
    from export import export
    export('model/best.h5')
    from play_web import model_problem
    assert model_problem('model/best.onnx', load_game('tictactoe')) is None
    problem = model_problem('model/best.onnx', load_game('othello6'))
    assert problem.startswith('model/best.onnx takes input (3, 3, 2), but othello6 needs (6, 6, 2)')
