"""Generated bad input, thrown at everything that reads input: every script's flags, the GTP engine,
the record readers, the history-file loader and the web server. Each must answer with a clean
message or a clean answer, never a traceback.

Hypothesis generates the input; CI runs FUZZ_EXAMPLES examples per test (default 25), and a longer
hunt is `FUZZ_EXAMPLES=2000 bash test.sh tests/interfaces/test_fuzz.py`.
"""
import contextlib
import importlib.util
import io
import os
import re
import socket
import string
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alphazero.errors import UserError
from alphazero.game.registry import load_game
from conftest import REPO

EXAMPLES = int(os.environ.get('FUZZ_EXAMPLES', '25'))
fuzz = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get('FUZZ_EXAMPLES'),
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# ----- flags -----
SCRIPTS = ['self_play', 'train_network', 'evaluate_network', 'evaluate_best_player', 'train_cycle', 'dual_network',
           'export', 'distill', 'train_records', 'make_records', 'play_web', 'gtp_engine', 'human_play', 'plot',
           'usi_engine']
FLAGS = ['--games', '--sims', '--parallel', '--epochs', '--cycles', '--seed', '--temperature', '--dirichlet',
         '--random-opening', '--greedy-after', '--filters', '--blocks', '--width', '--layers', '--heads', '--window',
         '--samples', '--batch-size', '--port', '--engine', '--engine-games', '--opening', '--validation',
         '--eval-games', '--best-games', '--best-every', '--keep-every', '--workers', '--game', '--preset',
         '--network', '--backend', '--model', '--output', '--opponent', '--versus', '--teacher', '--match-games',
         '--device', '--frobnicate']
NASTY = ['', '-1', '0', '1', '3', '-0', 'nan', 'NaN', 'inf', '-inf', '1e999', '1e-300', '2.5', '10000000000',
         str(10 ** 12), str(2 ** 32), '0x10', 'abc', ' 5', '\x00', '１２', 'tictactoe', 'othello8', 'shogi', 'chess',
         '/nonexistent', 'model/best.h5', '.', "'unclosed", 'fast', 'transformer', 'gpu']
values = st.one_of(st.sampled_from(NASTY), st.text(max_size=12), st.integers(-10 ** 15, 10 ** 15).map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(repr))
argvs = st.lists(st.one_of(st.sampled_from(FLAGS), values), max_size=6)


@pytest.mark.parametrize('script', SCRIPTS)
@fuzz
@given(argv=argvs)
def test_any_flags_parse_or_end_in_one_clear_line(script, argv, workdir):
    module = importlib.import_module(script)
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        try:
            module.parse_args(argv)
        except SystemExit as end:  # argparse: one error line, exit code 2
            assert end.code == 2 and re.fullmatch(r'error: [^\n]+ \(\S+ --help lists the flags\)\n', stderr.getvalue())
        except UserError as error:
            assert '\n' not in str(error) and len(str(error)) > 20


@pytest.mark.parametrize('flag, value, script', [
    ('--seed', '-1', 'self_play'), ('--temperature', 'nan', 'self_play'), ('--dirichlet', 'nan', 'train_cycle'),
    ('--dirichlet', 'inf', 'self_play'), ('--sims', '10000000000', 'gtp_engine'), ('--games', str(10 ** 12), 'self_play'),
    ('--engine', '', 'evaluate_best_player'), ('--engine', '/nonexistent', 'train_cycle'),
    ('--validation', '1', 'train_records'), ('--port', '70000', 'play_web'), ('--workers', '0', 'self_play'),
])
def test_each_reported_bad_flag_is_a_usage_error(flag, value, script, workdir):
    argv = [flag, value] + (['records.txt'] if script == 'train_records' else [])
    with pytest.raises(SystemExit) as end, contextlib.redirect_stderr(io.StringIO()):
        importlib.import_module(script).parse_args(argv)
    assert end.value.code == 2


@pytest.mark.parametrize('script, argv, message', [
    ('train_cycle', ['--filters', '8192', '--blocks', '1000'], 'GiB of memory'),
    ('self_play', ['--sims', '1000000', '--parallel', '100000'], 'lower --sims or --parallel'),
    ('self_play', ['--games', '10000000', '--game', 'othello8'], 'lower --games'),
    ('train_network', ['--samples', '10000000000'], 'lower --samples'),
    ('evaluate_best_player', ['--game', 'pointothello', '--engine', 'cat'], 'pointothello cannot be played over GTP'),
    ('evaluate_best_player', ['--engine', 'cat', '--parallel', '5000'], 'engine processes'),
    ('dual_network', ['--network', 'transformer', '--width', '10', '--heads', '3'], 'does not divide'),
    ('export', ['model/best.h5', '--output', 'model/best.h5'], 'must end in .onnx'),
    ('export', ['model/x.h5', '--output', 'model/x.h5.onnx/../x.h5'], 'must end in .onnx'),
])
def test_sizes_that_cannot_fit_and_impossible_combinations_are_refused_up_front(script, argv, message, workdir):
    with pytest.raises(UserError, match=re.escape(message)):
        importlib.import_module(script).parse_args(argv)


# ----- the GTP engine -----
COMMANDS = ['protocol_version', 'name', 'version', 'known_command', 'list_commands', 'boardsize', 'clear_board',
            'play', 'genmove', 'undo', 'showboard', 'final_score', 'set_game', 'list_games', 'black', 'white', 'b',
            'w', 'pass', 'd3', 'a1', 'h8', 'c', '8', '9', '12', '#', '\t', '\r', '\x7f', '\x00', '٣', '１']
gtp_lines = st.lists(st.one_of(st.sampled_from(COMMANDS), st.text(max_size=8)), max_size=6).map(' '.join)


@pytest.mark.parametrize('name', ['tictactoe', 'connect4', 'othello8'])
@fuzz
@given(lines=st.lists(gtp_lines, max_size=12))
def test_any_gtp_input_gets_one_well_formed_answer_per_command(name, lines):
    from gtp_engine import GtpSession
    session = GtpSession(load_game(name), lambda state, deadline: state.legal_actions()[0])
    for line in lines:
        answer = session.execute(line + '\n')
        if answer is None:
            continue
        assert re.fullmatch(r'[=?][0-9]*( [^\n]*(\n[^\n]+)*)?\n\n|[=?][0-9]*\n\n', answer), repr(answer)


def run_engine(tmp_path):
    from conftest import write_tiny_model
    return subprocess.Popen([sys.executable, os.path.join(REPO, 'gtp_engine.py'), '--model',
                             write_tiny_model(tmp_path, 'tictactoe')], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


@pytest.mark.slow
def test_gtp_input_rules_carriage_returns_tabs_delete_and_ids(tmp_path):
    engine = run_engine(tmp_path)
    lines = b'1 na\rme\r\n2\tversion\n\x7fname\n\xd9\xa3 name\n\n  \t\n3 play b\x01lack a1\n4 quit\n'
    stdout, stderr = engine.communicate(lines, timeout=120)
    assert engine.returncode == 0 and b'Traceback' not in stderr
    assert stdout.decode().split('\n\n')[:-1] == ['=1 AlphaZero-book', '=2 1.0', '= AlphaZero-book',
                                                  '? unknown command', '=3', '=4']


@pytest.mark.slow
def test_the_engine_exits_quietly_when_its_reader_goes_away(tmp_path):
    engine = run_engine(tmp_path)
    engine.stdout.close()  # the GUI stops reading
    _, stderr = engine.communicate(b'name\n' * 2000 + b'showboard\n' * 2000, timeout=120)
    assert b'Traceback' not in stderr and b'BrokenPipe' not in stderr, stderr.decode()[-2000:]
    assert engine.returncode == 0


# ----- records -----
OTHELLO = load_game('othello8')
record_text = st.lists(st.one_of(st.sampled_from(['f5d6c3d3c4', 'f5', 'a1', 'transcript', 'id,transcript',
                                                  '\ufeff', '#', ',', '"', 'x' * 200]),
                                 st.text(max_size=30)), max_size=8).map('\n'.join)


@fuzz
@given(content=st.one_of(record_text.map(str.encode), st.binary(max_size=400)),
       extension=st.sampled_from(['.txt', '.csv', '.wtb']))
def test_record_files_give_whole_games_or_named_problems(content, extension, tmp_path):
    from alphazero.records.common import RecordError, replay
    from alphazero.records.read import read_records
    path = str(tmp_path / f'games{extension}')
    with open(path, 'wb') as f:
        f.write(content)
    try:
        games, problems = read_records(path, OTHELLO)
    except RecordError as error:
        assert str(error).startswith(path) and '\n' not in str(error)
        return
    for moves in games:
        assert replay(OTHELLO, moves)[1].is_done()  # trained only on games with a result
    assert all(problem.startswith(path) for problem in problems)


def test_records_with_byte_order_marks_long_fields_and_unfinished_games(tmp_path):
    from alphazero.records.common import RecordError
    from alphazero.records.read import read_records
    from alphazero.records.othello import write_wtb
    from conftest import random_records
    whole = random_records(3, seed=1)
    names = load_game('othello8')
    from alphazero.game.notation import action_names
    text = [''.join(action_names(names)[a] for a in moves) for moves in whole]
    (tmp_path / 'bom.txt').write_text('\ufeff' + '\n'.join(text) + '\n', encoding='utf-8')
    assert len(read_records(str(tmp_path / 'bom.txt'), OTHELLO)[0]) == 3
    (tmp_path / 'bom.csv').write_text('\ufeffid,transcript\n1,' + text[0] + '\n2,' + 'x' * 200_000 + '\n',
                                      encoding='utf-8')
    games, problems = read_records(str(tmp_path / 'bom.csv'), OTHELLO)
    assert len(games) == 1 and len(problems) == 1 and 'bom.csv:3' in problems[0]
    (tmp_path / 'cut.txt').write_text(text[0][:20] + '\n' + text[1] + '\n')
    games, problems = read_records(str(tmp_path / 'cut.txt'), OTHELLO)
    assert len(games) == 1 and 'the game is not over after its 10 moves' in problems[0]
    write_wtb(str(tmp_path / 'empty.wtb'), [[], []], OTHELLO)
    games, problems = read_records(str(tmp_path / 'empty.wtb'), OTHELLO)
    assert games == [] and len(problems) == 2 and 'not over after its 0 moves' in problems[0]
    os.chmod(tmp_path / 'cut.txt', 0)
    if os.geteuid() != 0:  # root reads anything
        with pytest.raises(RecordError, match='cannot be read'):
            read_records(str(tmp_path / 'cut.txt'), OTHELLO)


# ----- history files -----
TICTACTOE = load_game('tictactoe')
arrays = st.one_of(
    st.just(np.array(1.0)), st.just(np.array(['a', 'b'])), st.just(np.zeros((0, 3, 3, 2))),
    st.just(np.full((2, 3, 3, 2), np.nan)), st.just(np.zeros((2, 3, 3, 2))), st.just(np.zeros((2, 9))),
    st.just(np.zeros(2)), st.just(np.array([b'x'])), st.just(np.array([None, 1], dtype=object)),
    st.lists(st.integers(0, 5), max_size=4).map(lambda shape: np.ones(shape, dtype=np.float32)))


@fuzz
@given(position=arrays, policy=arrays, value=arrays, garbage=st.binary(max_size=64))
def test_history_files_load_whole_or_are_refused_by_name(position, policy, value, garbage, tmp_path):
    from alphazero.data.history import read_history
    path = str(tmp_path / 'history.npz')
    with open(path, 'wb') as f:
        with contextlib.suppress(ValueError):  # an object array cannot be saved without pickle: save garbage
            np.savez(f, position=position, policy=policy, value=value)
        f.write(garbage if f.tell() == 0 else b'')
    try:
        position, policy, value = read_history(path, TICTACTOE)
    except UserError as error:
        assert str(error).startswith(path) and '\n' not in str(error)
        return
    assert position.shape[1:] == TICTACTOE.INPUT_SHAPE and len(position) == len(policy) == len(value) > 0


def test_a_training_window_skips_bad_history_files_by_name(tiny_best, capsys):
    from alphazero.data.history import write_history
    from train_network import load_data
    os.makedirs('data')
    write_history('data/20260101000000.npz', np.zeros((2, 3, 3, 2)), np.full((2, 9), 1 / 9), np.zeros(2))
    np.savez('data/20260101000001.npz', position=np.array(1.0), policy=np.array(2.0), value=np.array(3.0))
    np.savez('data/20260101000002.npz', position=np.array(['a']), policy=np.array(['b']), value=np.array(['c']))
    position, _, _ = load_data(window=3)
    assert len(position) == 2
    err = capsys.readouterr().err
    assert 'data/20260101000001.npz holds positions ()' in err and 'data/20260101000002.npz holds positions' in err


# ----- the web server -----
def start_server(folder, *args):
    """play_web.py on a free port, its log in a file (a pipe nobody reads would fill and stop it)"""
    log = open(folder / 'server.log', 'w+')
    process = subprocess.Popen([sys.executable, os.path.join(REPO, 'play_web.py'), '--port', '0', *args], cwd=folder,
                               stdout=subprocess.PIPE, stderr=log, text=True)
    port = int(re.search(r'http://127\.0\.0\.1:(\d+)/', process.stdout.readline()).group(1))
    return process, port, log


def stop_server(process, log):
    process.terminate()
    process.wait(timeout=10)
    log.seek(0)
    return log.read()


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp('web')
    process, port, log = start_server(folder, '--game', 'othello6', '--model', str(folder / 'ひらがな.onnx'))
    yield port
    text = stop_server(process, log)
    assert 'Traceback' not in text and 'Exception' not in text, text[-3000:]


def request(port, method, path):
    """The status of a raw HTTP request (the path sent exactly as given)."""
    with socket.create_connection(('127.0.0.1', port), timeout=10) as connection:
        connection.sendall(method.encode() + b' ' + path + b' HTTP/1.0\r\n\r\n')
        reply = b''
        while chunk := connection.recv(65536):
            reply += chunk
    return int(reply.split(b' ', 2)[1]), reply


raw_paths = st.one_of(
    st.sampled_from([b'/', b'/%00', b'/%ff', b'/%', b'/../README.md', b'/test/', b'/test/e2e.mjs', b'/ort/',
                     b'/ort/../package.json', b'/ort/ort.wasm.min.mjs', b'/ort/ort.min.js.map', b'/model/othello6.onnx',
                     b'/model/othello8.onnx', b'/model/../README.md', b'/model/chess.onnx', b'/model.onnx',
                     b'/config.json', b'/index.html?x=%00', b'//etc/passwd', b'/%2e%2e/README.md', b'/.gitignore',
                     b'/web', b'/app.js/', b'/\xff']),
    st.binary(max_size=40).map(lambda b: b'/' + b.replace(b' ', b'').replace(b'\r', b'').replace(b'\n', b'')),
    st.text(alphabet=string.printable.replace(' ', '').replace('\r', '').replace('\n', ''),
            max_size=30).map(lambda t: ('/' + t).encode()))


@fuzz
@given(path=raw_paths, method=st.sampled_from(['GET', 'HEAD']))
def test_the_server_serves_only_the_page_and_answers_head_as_get(server, path, method):
    status, reply = request(server, method, path)
    assert status in (200, 400, 404), reply[:200]
    assert status == request(server, 'GET' if method == 'HEAD' else 'HEAD', path)[0]
    if status == 200:  # http.server splits the request line at whitespace and reads // as /
        served = re.sub(rb'[?#].*', b'', path.decode('latin-1').split()[0].encode('latin-1'))
        served = b'/' + served.lstrip(b'/')
        assert served in (b'/', b'/config.json') or re.fullmatch(
            rb'/[a-z0-9]+\.(js|html|svg)|/ort/ort[\w.-]*\.(mjs|wasm)|/model/[a-z0-9]+\.onnx', served)


def test_the_server_refuses_listings_links_and_malformed_paths(server, tmp_path):
    assert request(server, 'GET', b'/%00')[0] == 400
    assert request(server, 'GET', b'/test/')[0] == 404 and request(server, 'GET', b'/ort/')[0] == 404
    assert request(server, 'HEAD', b'/')[0] == request(server, 'GET', b'/')[0] == 200
    assert request(server, 'HEAD', b'/config.json')[0] == 200
    status, reply = request(server, 'GET', b'/model/othello6.onnx')  # the model's path has non-Latin letters
    assert status == 404 and 'ひらがな.onnx not found' in reply.decode()
    link = os.path.join(REPO, 'web', 'fuzz-link.js')
    os.symlink(os.path.join(REPO, 'README.md'), link)
    try:
        assert request(server, 'GET', b'/fuzz-link.js')[0] == 404
    finally:
        os.remove(link)


def test_a_model_removed_while_serving_is_a_404_not_a_traceback(workdir):
    from conftest import tiny_exported_model
    tiny_exported_model('othello6', 4)
    process, port, log = start_server(workdir, '--game', 'othello6')
    try:
        assert request(port, 'GET', b'/model/othello6.onnx')[0] == 200
        os.remove('runs/othello6/model/best.onnx')
        assert request(port, 'GET', b'/model/othello6.onnx')[0] == 404
        assert request(port, 'GET', b'/model/chess.onnx')[0] == 404
    finally:
        text = stop_server(process, log)
    assert 'Traceback' not in text, text


def test_an_h5_model_for_the_page_says_how_to_export_it(workdir):
    from play_web import model_problem
    open('x.h5', 'wb').close()
    assert model_problem('x.h5', load_game('othello6')) == \
        'x.h5: the page plays ONNX models; `python export.py x.h5` writes one to give with --model.'



# ----- SFEN positions (cshogi aborts the whole process on some bad ones, so ours must catch them) -----
SFEN_WORDS = ['lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL', '4k4/9/9/9/9/9/9/9/4K4', 'b', 'w', '-',
              '1', '2P', 'P*5e', 'moves', '7g7f', '+', '9', '/', 'K', 'k', '+P', '18p', '0']
sfen_text = st.lists(st.one_of(st.sampled_from(SFEN_WORDS), st.text(alphabet='123456789/+PLNSGBRKplnsgbrk-bw ',
                                                                         max_size=60)), max_size=8).map(' '.join)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec('cshogi') is None and not os.environ.get('CI'), reason='cshogi missing')
@fuzz
@given(text=sfen_text)
def test_usi_positions_from_anything(text):
    """`position sfen ...` with generated text: the position is set or one info string says why;
    the process never dies (run in a child, since cshogi would abort it)."""
    code = ('import sys; from alphazero.game.registry import load_game; from alphazero.play.agent import Agent; '
            'from usi_engine import UsiSession; '
            'session = UsiSession(load_game("shogi9"), Agent(load_game("shogi9"), None), 1); '  # no network: no search
            'print(session.execute(sys.stdin.read()))')
    result = subprocess.run([sys.executable, '-c', code], input='position sfen ' + text, capture_output=True,
                            text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr[-300:]
    answer = eval(result.stdout)
    assert answer == [] or (len(answer) == 1 and answer[0].startswith('info string position: '))


USI_WORDS = ['usi', 'isready', 'usinewgame', 'position', 'startpos', 'sfen', 'moves', 'go', 'stop', 'ponderhit',
             'setoption', 'name', 'value', 'Simulations', 'USI_Hash', 'btime', 'wtime', 'byoyomi', 'binc', 'winc',
             'nodes', 'movetime', 'infinite', 'ponder', 'mate', 'gameover', 'win', 'lose', '7g7f', '3c3d', 'P*5e',
             '8h2b+', '0', '1', '3', '-1', '999', '\t', '\x00', '７六歩', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL',
             'b', 'w', '-']
usi_lines = st.lists(st.lists(st.one_of(st.sampled_from(USI_WORDS), st.text(max_size=6)), max_size=8).map(' '.join),
                     max_size=12)


@pytest.mark.skipif(importlib.util.find_spec('cshogi') is None and not os.environ.get('CI'), reason='cshogi missing')
@fuzz
@given(lines=usi_lines)
def test_any_usi_input_is_answered_in_lines(lines):
    """Generated USI sessions against a tiny real network: every line is answered with lines of USI
    (id/option/usiok/readyok/info/bestmove), never an exception; the position stays legal."""
    session = usi_session()
    for line in lines:
        for answer in session.execute(line):
            assert answer.split()[0] in ('id', 'option', 'usiok', 'readyok', 'info', 'bestmove'), (line, answer)
        assert session.state.is_done() or session.state.legal_actions() is not None


USI_NETWORK = []


def usi_session():
    """A UsiSession on a tiny untrained network (built once), 2 simulations unless told otherwise."""
    from alphazero.settings import NetworkSettings
    from alphazero.play.agent import Agent
    from usi_engine import UsiSession
    game = load_game('shogi9')
    if not USI_NETWORK:
        import keras
        from alphazero.network.runtimes import KerasNetwork
        from dual_network import build_network
        keras.utils.set_random_seed(0)
        USI_NETWORK.append(KerasNetwork(build_network(game, NetworkSettings('resnet', filters=4, blocks=1))))


    class SmallAgent(Agent):  # searches of at most 16 simulations, whatever a generated go asks for
        def analyse(self, state, sims=None, *args, **kwargs):
            return super().analyse(state, min(sims or 16, 16), *args, **kwargs)
    return UsiSession(game, SmallAgent(game, USI_NETWORK[0], rng=np.random.default_rng(0)), 2)
