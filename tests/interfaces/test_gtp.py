"""GTP: our AI as an engine (driven as a subprocess through whole games), matches against GTP engines
(GRhino when it is installed, our own engine, and broken engines), and the match statistics."""
import json
import os
import random
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

from alphazero.errors import UserError
from alphazero.network.model_file import save_model
from alphazero.game.registry import GAMES, load_game
from alphazero.game.values import player_value
from alphazero.engines.gtp import EnginePlayer, gtp_problem
from alphazero.game.notation import action_names, line_vertices, parse_move
from alphazero.play.players import FunctionPlayer
from alphazero.play.openings import distinct_openings, paired_openings
from alphazero.play.elo import elo, match_summary
from alphazero.play.loop import play_games
from conftest import REPO, need, tiny_model, write_tiny_model
from gtp_engine import GtpSession

RHINO = shutil.which('gtp-rhino') or shutil.which('/usr/games/gtp-rhino')
GTP_GAMES = sorted(name for name in GAMES if not gtp_problem(load_game(name)))  # not point-Othello, not shogi


@pytest.fixture
def rhino():
    need(RHINO, "GRhino's GTP engine gtp-rhino", 'apt-get install grhino')
    return RHINO


def forced_pass_game(game, seed=0):
    """The moves of a random game up to a position where the side to move can only pass."""
    rng = random.Random(seed)
    while True:
        state, moves = game.State(), []
        while not state.is_done():
            if state.legal_actions() == [game.PASS]:
                return moves
            moves.append(rng.choice(state.legal_actions()))
            state = state.next(moves[-1])


# ----- move names -----
def test_move_names_follow_the_board():
    assert action_names(load_game('tictactoe')) == ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3']
    assert action_names(load_game('connect4')) == list('abcdefg')
    othello = load_game('othello8')
    names = action_names(othello)
    assert names[0] == 'a1' and names[7] == 'h1' and names[8] == 'a2' and names[63] == 'h8' and names[64] == 'pass'
    # Black's four first moves in the standard position, named as GRhino names them
    assert sorted(names[a] for a in othello.State().legal_actions()) == ['c4', 'd3', 'e6', 'f5']
    connect4 = load_game('connect4')
    assert parse_move(connect4, 'D') == 3 and parse_move(connect4, 'd6') == 3  # any square of the column
    for name in GTP_GAMES:
        game = load_game(name)
        assert [parse_move(game, n.upper()) for n in action_names(game)] == list(range(game.ACTION_COUNT))
        assert parse_move(game, 'z9') is None and parse_move(game, '') is None


# ----- our engine, in process: the protocol and its error answers -----
def session(name='othello8'):
    game = load_game(name)
    return GtpSession(game, lambda state, deadline: state.legal_actions()[0])


@pytest.mark.parametrize('line, answer', [
    ('protocol_version', '= 2'), ('7 name', '=7 AlphaZero-book'), ('known_command genmove', '= true'),
    ('known_command fly', '= false'), ('list_games', '= Othello'), ('boardsize 8', '='),
    ('  PLAY   black\td3  # a comment', '='), ('play B D3', '='),
    ('fly', '? unknown command'), ('12 fly', '?12 unknown command'), ('boardsize 9', '? unacceptable size'),
    ('boardsize', '? boardsize takes 1 argument'), ('play black', '? play takes 2 arguments'),
    ('play red d3', "? invalid color 'red'"), ('play black z9', "? invalid vertex 'z9'"),
    ('play black a1', '? illegal move'), ('play white d3', "? it is black's turn"),
    ('play black pass', '? illegal move'), ('genmove purple', "? invalid color 'purple'"),
    ('undo', '? cannot undo'), ('final_score', '? cannot score'), ('set_game Go', '? unsupported game'),
])
def test_each_command_answers_in_gtp_form(line, answer):
    result = session().execute(line + '\n')
    assert result.startswith(answer) and result.endswith('\n\n') and result.count('\n\n') == 1


def test_quit_with_arguments_is_an_error_that_does_not_end_the_session():
    gtp = session()
    assert not gtp.interrupt('quit x') and gtp.execute('quit x\n').startswith('? quit takes 0 arguments')
    assert not gtp.finished
    assert gtp.interrupt('3 quit') and gtp.execute('3 quit\n') == '=3\n\n' and gtp.finished


def test_empty_lines_and_comments_get_no_answer():
    gtp = session()
    assert [gtp.execute(line) for line in ('\n', '   \t\n', '# only a comment\n', '\x01\n')] == [None] * 4


def test_a_forced_pass_is_implied_by_the_other_colour_and_undo_takes_it_back():
    game = load_game('othello6')
    names = action_names(game)
    gtp = GtpSession(game, lambda state, deadline: state.legal_actions()[0])
    moves = forced_pass_game(game)
    for ply, action in enumerate(moves):
        assert gtp.execute(f'play {"black" if ply % 2 == 0 else "white"} {names[action]}') == '=\n\n'
    stuck, other = ('black', 'white') if len(moves) % 2 == 0 else ('white', 'black')
    board, state = gtp.execute('showboard'), gtp.state
    reply = state.next(game.PASS).legal_actions()[0]
    # The other colour plays at once: the stuck side's pass is implied, and one undo takes back both
    assert gtp.execute(f'play {other} {names[reply]}') == '=\n\n'
    assert np.array_equal(gtp.state.planes(), state.next(game.PASS).next(reply).planes())
    assert gtp.execute('undo') == '=\n\n' and gtp.execute('showboard') == board
    # Asked to move, the stuck side passes; an explicit pass is accepted too, but not a move
    assert gtp.execute(f'genmove {stuck}') == '= pass\n\n'
    assert gtp.execute('undo') == '=\n\n'
    assert gtp.execute(f'play {stuck} {names[reply]}').startswith('? illegal move')
    assert gtp.execute(f'play {stuck} pass') == '=\n\n'


# ----- our engine as a subprocess, through whole games of every game -----
def start_engine(name, model):
    return subprocess.Popen([sys.executable, os.path.join(REPO, 'gtp_engine.py'), '--game', name, '--model', model,
                             '--sims', '3'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def ask(engine, command):
    """The engine's answer to one command; each must be one GTP answer ending in an empty line."""
    engine.stdin.write(command + '\n')
    engine.stdin.flush()
    lines = []
    while (line := engine.stdout.readline()) != '\n':
        assert line, f'the engine stopped at {command!r}'
        lines.append(line.rstrip('\n'))
    assert lines and lines[0][:1] in '=?', lines
    return '\n'.join(lines)


@pytest.mark.slow
@pytest.mark.parametrize('name', GTP_GAMES)
def test_the_engine_plays_whole_games_as_a_subprocess(name, tmp_path):
    game = load_game(name)
    names = action_names(game)
    engine = start_engine(name, write_tiny_model(tmp_path, name))
    rng = random.Random(1)
    try:
        assert ask(engine, 'protocol_version') == '= 2'
        assert ask(engine, f'boardsize {game.BOARD_SHAPE[1]}') == '='

        # A forced pass: asked to move, the side with no move passes
        if game.PASS is not None:
            moves = forced_pass_game(game)
            for ply, action in enumerate(moves):
                assert ask(engine, f'play {"black" if ply % 2 == 0 else "white"} {names[action]}') == '='
            assert ask(engine, f'genmove {"black" if len(moves) % 2 == 0 else "white"}') == '= pass'

        # Whole games, the engine as black and as white; undo takes back moves exactly
        for engine_color in ('black', 'white'):
            assert ask(engine, 'clear_board') == '='
            state, boards, played = game.State(), [ask(engine, 'showboard')], []
            while not state.is_done():
                color = 'black' if state.is_first_player() else 'white'
                if color == engine_color:
                    answer = ask(engine, f'genmove {color}')
                    action = parse_move(game, answer[2:])
                    assert action in state.legal_actions(), (answer, str(state))
                else:
                    action = rng.choice(state.legal_actions())
                    assert ask(engine, f'play {color} {names[action]}') == '='
                state = state.next(action)
                played.append((color, names[action]))
                boards.append(ask(engine, 'showboard'))
                if len(played) == 3:
                    assert ask(engine, 'undo') == '=' and ask(engine, 'showboard') == boards[2]
                    assert ask(engine, 'undo') == '=' and ask(engine, 'showboard') == boards[1]
                    wrong_color = 'white' if played[1][0] == 'black' else 'black'
                    assert ask(engine, f'play {wrong_color} {played[1][1]}').startswith('? it is')
                    for color, move in played[1:]:
                        assert ask(engine, f'play {color} {move}') == '='
                    assert ask(engine, 'showboard') == boards[3]
            winner = player_value(state, True)
            score = ask(engine, 'final_score')
            margin = abs(game.score(state)) if game.score else 1  # Othello: the disc difference
            assert score == ('= 0' if winner == 0 else f'= {"B" if winner > 0 else "W"}+{margin}')
            assert ask(engine, 'showboard').endswith(f'game over: {score[2:]}')
        assert ask(engine, 'quit') == '='
        assert engine.wait(timeout=30) == 0
    finally:
        engine.kill()
        stderr = engine.stderr.read()
    assert 'Traceback' not in stderr and 'simulations per move' in stderr


@pytest.mark.slow
def test_bytes_that_are_not_text_get_an_error_answer(tmp_path):
    result = subprocess.run([sys.executable, os.path.join(REPO, 'gtp_engine.py'), '--game', 'tictactoe', '--model',
                             write_tiny_model(tmp_path, 'tictactoe')], input=b'\xff\xfe\nplay black \xc3(\nquit\n',
                            capture_output=True, timeout=120)
    assert result.returncode == 0 and b'Traceback' not in result.stderr
    assert result.stdout.decode().startswith('? unknown command\n\n? invalid vertex') and result.stdout.endswith(b'=\n\n')


# ----- matches against GTP engines -----
def test_openings_differ_and_each_is_played_with_both_colours():
    game = load_game('othello8')
    openings = distinct_openings(game, 4, 20, np.random.default_rng(0))
    positions = set()
    for moves in openings:
        state = game.State()
        for action in moves:
            state = state.next(action)
        positions.add(state.planes().tobytes())
    assert len(openings) == 20 and {len(m) for m in openings} == {4} and len(positions) == 20
    # Tic-tac-toe has only 9 one-move openings: asked for more, it repeats them
    assert len({tuple(m) for m in distinct_openings(load_game('tictactoe'), 1, 12, np.random.default_rng(0))}) == 9


def test_a_match_plays_each_opening_twice_in_a_row_so_once_with_each_colour():
    openings = paired_openings(load_game('connect4'), 2, 9, np.random.default_rng(0))
    assert len(openings) == 9 and all(openings[i] == openings[i + 1] for i in range(0, 8, 2))
    assert len({tuple(m) for m in openings}) == 5 and {len(m) for m in openings} == {2}
    # No opening moves: every game from the start, as the book plays them
    assert paired_openings(load_game('tictactoe'), 0, 4, np.random.default_rng(0)) == [[]] * 4


def test_match_summary_counts_results_and_gives_an_elo_interval():
    assert elo(0.5) == 0 and elo(0.75) == pytest.approx(190.85, abs=0.01) and elo(1) == float('inf')
    even = match_summary([1, 0] * 20)
    assert (even['games'], even['wins'], even['draws'], even['losses'], even['all']) == (40, 20, 0, 20, 0.5)
    assert even['elo_low'] < 0 < even['elo_high'] and even['elo_low'] == pytest.approx(-even['elo_high'])
    sweep = match_summary([1] * 40)
    assert sweep['elo'] is None and sweep['elo_high'] is None and sweep['elo_low'] > 300
    assert match_summary([0.5] * 3 + [0])['draws'] == 3
    json.dumps(sweep, allow_nan=False)  # the metrics file stays plain JSON


def fake_engine(tmp_path, genmove_answer='= a1', boardsize_answer='=', asked_file=None):
    """A GTP engine that answers every command with '=' and genmove with a fixed answer (or exits);
    it creates `asked_file`, when given, as it reads a genmove."""
    script = tmp_path / 'fake_engine.py'
    script.write_text(f"""import sys
for line in sys.stdin:
    words = line.split()
    if words[:1] == ['genmove']:
        if {str(asked_file or '')!r}:
            open({str(asked_file or '')!r}, 'w').close()
        if {genmove_answer!r} == 'exit':
            print('fake engine: out of ideas', file=sys.stderr)
            sys.exit(3)
        print({genmove_answer!r} + '\\n', flush=True)
    elif words:
        print(({boardsize_answer!r} if words[0] == 'boardsize' else '=') + '\\n', flush=True)
""")
    return f'{sys.executable} {script}'


def engine_match(game, command, games=2, openings=None):
    random_player = FunctionPlayer(lambda state: random.choice(state.legal_actions()))
    with EnginePlayer(command, game) as engine:
        pairings = [(random_player, engine) if i % 2 == 0 else (engine, random_player) for i in range(games)]
        return play_games(game.State, pairings, openings=openings)


@pytest.mark.parametrize('answer, message', [
    ('= a1', "answered 'a1' to 'genmove black' in game 2 after 0 moves; the legal moves there are: d3 c4 f5 e6"),
    ('= resign', "answered 'resign'"), ('= where?', "answered 'where?'"), ('? no idea', "answered 'no idea'"),
    ('exit', 'stopped while answering \'genmove black\'; its last words on stderr: fake engine: out of ideas'),
])
def test_a_bad_engine_move_ends_the_match_with_a_clear_message(tmp_path, answer, message):
    with pytest.raises(UserError) as error:
        engine_match(load_game('othello8'), fake_engine(tmp_path, answer))
    assert message in str(error.value) and 'fake_engine.py' in str(error.value)


def test_an_engine_thinks_while_our_player_chooses_in_another_game(tmp_path):
    # Game 1 waits for our move, game 2 for the engine's: the engine must have been asked before
    # our player starts, so that both think at once
    asked = tmp_path / 'asked'

    class Seen(Exception):
        pass

    def our_move(state):
        deadline = time.monotonic() + 10
        while not asked.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        raise Seen(asked.exists())
    ours = FunctionPlayer(our_move)
    game = load_game('othello8')
    with EnginePlayer(fake_engine(tmp_path, asked_file=asked), game) as engine, pytest.raises(Seen) as seen:
        play_games(game.State, [(ours, engine), (engine, ours)])
    assert seen.value.args == (True,)


def test_an_engine_that_cannot_start_or_refuses_the_board_is_named(tmp_path):
    with pytest.raises(UserError, match="cannot start the engine '/no/such/engine -l 1'"):
        engine_match(load_game('othello8'), '/no/such/engine -l 1')
    with pytest.raises(UserError, match=r'does not play connect4 \(boardsize 7: unacceptable size\)'):
        engine_match(load_game('connect4'), fake_engine(tmp_path, boardsize_answer='? unacceptable size'))


def test_grhino_plays_through_forced_passes_with_either_colour(rhino):
    game = load_game('othello8')
    opening = forced_pass_game(game, seed=3)
    results = engine_match(game, f'{rhino} -l 1', games=4, openings=[opening] * 4)
    assert all(game.state.is_done() for game in results)


def test_grhino_gives_each_game_its_own_process_from_one_call_to_the_next(rhino, monkeypatch):
    """The same engine player in one play_games call after another (evaluate_levels.py's rounds),
    whose games are numbered from 0 each time: each game gets a process of its own, told its moves."""
    monkeypatch.setattr('alphazero.engines.gtp.ENGINE_TIMEOUT', 10)
    game = load_game('othello8')
    rng = np.random.default_rng(4)
    random_player = FunctionPlayer(lambda state: int(rng.choice(state.legal_actions())))
    with EnginePlayer(f'{rhino} -l 1', game) as engine:
        first = play_games(game.State, [(engine, random_player)])
        second = play_games(game.State, [(engine, random_player)] * 2)  # the engine asked for games 0 and 1 at once
    assert all(played.state.is_done() for played in first + second)


@pytest.mark.slow
def test_a_short_match_against_grhino(tiny_othello8, rhino):
    from evaluate_best_player import evaluate_best_player
    from alphazero.settings import EvaluationSettings, SearchSettings
    evaluation = EvaluationSettings(games=1, engines=(f'{rhino} -l 1',), engine_games=6, opening=4)
    scores = evaluate_best_player(load_game('othello8'), SearchSettings(sims=4), evaluation, seed=0)
    match = scores[f'{rhino} -l 1']
    assert match['games'] == 6 and match['wins'] + match['draws'] + match['losses'] == 6
    assert match['first'] is not None and match['second'] is not None
    assert scores['VS_Random']['games'] == 1


def test_a_match_against_grhino_kept_as_transcripts_with_evaluations(tiny_othello8, rhino):
    """evaluate_best_player saving its games: each game a transcript named by the opponent, which the
    transcript reader reads back move for move, with a `# N move value line` comment for every
    move our search made."""
    from evaluate_best_player import evaluate_best_player
    from alphazero.game.notation import action_names
    from alphazero.records.othello import read_transcripts
    from alphazero.settings import EvaluationSettings, SearchSettings
    game = load_game('othello8')
    evaluation = EvaluationSettings(games=2, opponents=('VS_Random',), engines=(f'{rhino} -l 1',), engine_games=2,
                                    opening=2, save_to='games')
    evaluate_best_player(game, SearchSettings(sims=4), evaluation, seed=0)
    assert sorted(os.listdir('games')) == ['VS-Random-001.txt', 'VS-Random-002.txt', 'gtp-rhino-l-1-001.txt',
                                           'gtp-rhino-l-1-002.txt']
    names = action_names(game)
    for number in (1, 2):
        path = f'games/gtp-rhino-l-1-{number:03}.txt'
        lines = open(path).read().splitlines()
        games, problems = read_transcripts(path, game)
        assert problems == [] and len(games) == 1 and lines[0] == ''.join(names[a] for a in games[0])
        comments = [line.split() for line in lines[1:]]
        assert len(comments) >= (len(games[0]) - 2) // 2 - 1  # our moves after the 2-move opening (passes aside)
        assert all(int(words[1]) > 2 and words[2] in lines[0] and words[4] == words[2] for words in comments)
        assert all(words[0] == '#' and -1 <= float(words[3]) <= 1 for words in comments)


@pytest.fixture
def tiny_othello8(workdir):
    """runs/othello8/model/best.h5 holding a tiny untrained network; returns the folder."""
    save_model(tiny_model(rules=load_game('othello8')), 'runs/othello8/model/best.h5')
    return workdir


@pytest.mark.slow
def test_our_engine_as_an_opponent_through_the_command_line(workdir):
    """train_cycle.py with --engine: our own engine (tic-tac-toe's names) is met, recorded and charted,
    in the cycles --best-every asks for (and the last); the gate games are left out (--eval-games 0)."""
    from conftest import run_script
    engine = f'{sys.executable} {os.path.join(REPO, "gtp_engine.py")} --sims 2'
    result = run_script('train_cycle.py', '--cycles', '3', '--games', '4', '--sims', '4', '--samples', '256',
                        '--filters', '8', '--blocks', '1', '--eval-games', '0', '--best-games', '1', '--no-gate',
                        '--best-every', '2', '--engine', engine, '--engine-games', '4', cwd=workdir)
    assert result.returncode == 0, result.stderr[-3000:]
    records = [json.loads(line) for line in (workdir / 'model' / 'metrics.jsonl').read_text().splitlines()]
    assert [r['scores'] is not None for r in records] == [False, True, True]
    assert [r['scores'][engine]['games'] for r in records[1:]] == [4, 4]
    assert all(r['gate_score'] is None and r['best_changed'] and r['samples'] == 2048 for r in records)
    assert 'AveragePoint' not in result.stdout and f'{engine} ' in result.stdout and 'Elo' in result.stdout
    assert (workdir / 'model' / 'chart_gate.png').exists()


@pytest.mark.slow
def test_a_broken_engine_on_the_command_line_gives_one_line(tiny_othello8, tmp_path):
    from conftest import run_script
    result = run_script('evaluate_best_player.py', '--game', 'othello8', '--games', '1', '--sims', '2',
                        '--engine', fake_engine(tmp_path, '= a1'), cwd=tiny_othello8)
    assert result.returncode == 2 and 'Traceback' not in result.stderr
    assert "error: the engine" in result.stderr and "answered 'a1'" in result.stderr


# ----- analysis (lz-analyze, kata-analyze) and GoGui's rules commands -----
def analysis_lines(answer):
    """The candidate moves of each line of an analysis answer: [[(move, visits, winrate, prior, pv)]]."""
    lines = []
    for line in answer.splitlines()[1:]:
        moves = []
        for part in line.split('info ')[1:]:
            words = part.split()
            pairs = dict(zip(words[:8:2], words[1:8:2]))
            moves.append((pairs['move'], int(pairs['visits']), float(pairs['winrate']), float(pairs['prior']),
                          words[words.index('pv') + 1:]))
        lines.append(moves)
    return lines


def analysis_until(engine, command, seconds, then):
    """The candidate moves (analysis_lines) of an analysis `command` that runs `seconds` before the
    command `then` ends it; both answers must be successes."""
    engine.send(command)
    time.sleep(seconds)
    engine.send(then)
    ok, answer = engine.receive()
    assert ok and engine.receive()[0]
    return analysis_lines('=' + answer)


@pytest.mark.slow
def test_the_engine_streams_its_analysis_until_the_next_command(tiny_othello8):
    """lz-analyze every 0.1 s through our GTP client: lines of candidate moves (each a legal move, with
    its visits, a win rate and prior in ten-thousandths and a line of legal moves starting with it),
    the visits growing from line to line, until genmove ends it; kata-analyze says fractions."""
    from alphazero.engines.gtp import GtpProcess
    game = load_game('othello8')
    engine = GtpProcess(f'{sys.executable} {os.path.join(REPO, "gtp_engine.py")} --game othello8')
    try:
        engine.ask('play black d3')
        state = game.State().next(parse_move(game, 'd3'))
        lines = analysis_until(engine, 'lz-analyze 10', 2, 'genmove white')
        assert len(lines) >= 3, lines
        names = {action_names(game)[a] for a in state.legal_actions()}
        for moves in lines:
            assert [m[1] for m in moves] == sorted((m[1] for m in moves), reverse=True)
            for move, visits, winrate, prior, pv in moves:
                assert move in names and pv[0] == move and 0 <= winrate <= 10000 and 0 <= prior <= 10000
                walked = state
                for name in pv:
                    walked = walked.next(parse_move(game, name))
        assert sum(m[1] for m in lines[-1]) > sum(m[1] for m in lines[0])
        kata = analysis_until(engine, 'kata-analyze black 10', 0.5, 'showboard')
        assert kata and all(0 <= m[2] <= 1 and 0 <= m[3] <= 1 for m in kata[-1])
        assert analysis_until(engine, 'kata-analyze interval 10', 0.5, 'showboard')  # KataGo's keyword form
    finally:
        engine.close()


@pytest.mark.slow
def test_a_solved_endgame_is_played_and_analysed_exactly(tiny_othello8):
    """With 6 empties the engine's analysis is the solver's (checked by plain minimax in
    test_solvers.py): one line, the best move with the exact result's win rate, KataGo's scoreLead
    for the margin, the line to the end; and genmove plays that move. --no-solver searches instead."""
    from alphazero.engines.gtp import GtpProcess
    from alphazero.game.solved import played_out
    from conftest import random_endgame
    game = load_game('othello8')
    state, moves = random_endgame(game, 6, np.random.default_rng(2))
    solved, names, walked = played_out(game.solve, state, game.solve(state)), action_names(game), game.State()
    ended = state
    for action in solved.line:  # the line is both sides' best play to the end, which has the margin
        ended = ended.next(action)
    assert ended.is_done() and game.score(ended) * (1 if state.is_first_player() else -1) == solved.margin
    for flags in ('', ' --no-solver'):
        engine = GtpProcess(f'{sys.executable} {os.path.join(REPO, "gtp_engine.py")} --game othello8{flags}')
        try:
            for action in moves:
                engine.ask(f'play {"black" if walked.is_first_player() else "white"} {names[action]}')
                walked = walked.next(action)
            walked = game.State()
            color = 'black' if state.is_first_player() else 'white'
            engine.send(f'kata-analyze {color} 10')
            time.sleep(1)
            engine.send('name')
            ok, answer = engine.receive()
            assert ok and engine.receive()[0]
            if flags:  # the search's lines instead
                assert 'scoreLead' not in answer and len(analysis_lines('=' + answer)) >= 1
                continue
            assert answer.strip().splitlines() == [
                f'info move {names[solved.line[0]]} visits 1 winrate {(solved.value + 1) / 2:.6f} scoreLead '
                f'{solved.margin} prior 1.000000 order 0 pv {" ".join(names[a] for a in solved.line)}']
            assert engine.ask(f'genmove {color}') == names[solved.line[0]]
        finally:
            engine.close()


def test_a_drop_is_named_by_the_square_it_lands_on_in_an_analysis():
    """Connect Four's analysis names each move of its lines by the square its stone lands on (rows
    from the top: d6 is the bottom of column d), as Sabaki reads a vertex; play takes it back."""
    game = load_game('connect4')
    names, state = action_names(game), game.State()
    assert line_vertices(game, state, [3, 3, 4, 3], names) == ['d6', 'd5', 'e6', 'd4']
    assert [parse_move(game, vertex) for vertex in line_vertices(game, state, [3, 3, 4, 3], names)] == [3, 3, 4, 3]
    othello = load_game('othello8')  # a game whose moves are squares keeps its names
    first = othello.State().legal_actions()[:1]
    assert line_vertices(othello, othello.State(), first, action_names(othello)) == [action_names(othello)[first[0]]]


def test_gogui_rules_commands_host_the_game_in_a_generic_gui():
    """The board with the highest row first (GoGui numbers rows from the bottom), the legal moves, the
    side to move and the result, for a game played to its end; Connect Four (not square) has none."""
    game = load_game('othello6')
    gtp = GtpSession(game, lambda state, deadline: state.legal_actions()[0])
    assert gtp.execute('gogui-rules_game_id') == gtp.execute('list_games')
    assert gtp.execute('gogui-rules_board_size') == '= 6\n\n'
    marks, cells = {1: 'X', -1: 'O', 0: '.'}, game.State().cells()
    rows = [' '.join(marks[c] for c in cells[6 * y:6 * y + 6]) for y in range(6)]
    assert gtp.execute('gogui-rules_board').split('\n')[1:7] == rows[::-1]
    assert gtp.execute('gogui-rules_side_to_move') == '= black\n\n'
    legal = gtp.execute('gogui-rules_legal_moves')[2:].split()
    assert sorted(legal) == sorted(action_names(game)[a] for a in game.State().legal_actions())
    assert gtp.execute('gogui-rules_final_result') == '= unknown\n\n'
    state = game.State()
    while not state.is_done():
        assert gtp.execute('gogui-rules_side_to_move') == f'= {"black" if state.is_first_player() else "white"}\n\n' \
            or state.legal_actions() == [game.PASS]
        gtp.execute(f'genmove {"black" if state.is_first_player() else "white"}')
        state = gtp.state
    assert gtp.execute('gogui-rules_legal_moves') == '=\n\n'
    assert gtp.execute('gogui-rules_final_result') == gtp.execute('final_score')
    assert GtpSession(load_game('connect4'), None).execute('gogui-rules_board_size').startswith('? unknown command')
