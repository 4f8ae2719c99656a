"""The engines keep a GUI's clock: each move's search ends by a deadline (USI: byoyomi, Fischer, sudden
death, movetime; GTP: time_settings and time_left) less a margin (USI's ByoyomiMargin option, GTP's
--byoyomi-margin), at full strength it searches until then, and USI's `go infinite` deepens until
stop. Played as a GUI plays them, timing every answer: our USI client drives usi_engine.py (the
shipped full-shogi model) through a whole game against Fairy-Stockfish, and a GTP session drives
gtp_engine.py (the shipped 6x6 Othello model) through a whole game against random moves."""
import importlib.util
import os
import random
import shutil
import sys
import time

import pytest

from conftest import REPO, need
from usi_engine import go_seconds

needs_cshogi = pytest.mark.skipif(importlib.util.find_spec('cshogi') is None and not os.environ.get('CI'),
                                  reason='cshogi missing')


def test_a_moves_seconds_follow_the_clock_less_the_margin():
    assert go_seconds({'btime': 0, 'wtime': 0, 'byoyomi': 1000}, 'b', 0.25) == pytest.approx(0.75)
    assert go_seconds({'movetime': 500}, 'w', 0.25) == pytest.approx(0.25)
    # sudden death: a share of what is left, which shrinks with it and never runs out
    assert go_seconds({'btime': 60_000, 'wtime': 1000}, 'b', 0.25) == pytest.approx(60 / 40 - 0.25)
    assert go_seconds({'btime': 60_000, 'wtime': 1000}, 'w', 0.25) == pytest.approx(0.02)
    # Fischer: the share and the increment, but never more than is left now (the increment comes after)
    assert go_seconds({'btime': 10_000, 'wtime': 10_000, 'binc': 2000, 'winc': 2000}, 'b', 0.25) == \
        pytest.approx(10 / 40 + 2 - 0.25)
    assert go_seconds({'btime': 300, 'wtime': 300, 'binc': 5000, 'winc': 5000}, 'w', 0.25) == pytest.approx(0.05)
    # byoyomi after the main time: both may be spent
    assert go_seconds({'btime': 400, 'wtime': 0, 'byoyomi': 1000}, 'b', 0.1) == pytest.approx(0.01 + 1 - 0.1)
    assert go_seconds({'nodes': 100}, 'b', 0.25) is None and go_seconds({}, 'b', 0.25) is None


@pytest.mark.slow
@needs_cshogi
def test_a_whole_game_at_byoyomi_keeps_the_clock_and_uses_it(workdir):
    """Byoyomi 400 ms with a margin of 100: every answer of a whole game (until move 80) within 400 ms
    as our client measures it, and most of the 300 ms searched."""
    from alphazero.engines.usi import UsiProcess
    from alphazero.game.registry import load_game
    fairy_stockfish = shutil.which('fairy-stockfish') or '/usr/games/fairy-stockfish'
    need(os.path.exists(fairy_stockfish), 'Fairy-Stockfish', 'apt-get install fairy-stockfish')
    game = load_game('shogi9')
    ours = UsiProcess(f'{sys.executable} {os.path.join(REPO, "usi_engine.py")}; setoption name ByoyomiMargin value 100; '
                      'go btime 0 wtime 0 byoyomi 400')
    theirs = UsiProcess(f'{fairy_stockfish}; go depth 1', game_options=game.ENGINE_OPTIONS)
    state, seconds = game.State(), []
    try:
        while not state.is_done() and state.plies() < 80:
            engine = ours if state.plies() % 2 == 0 else theirs
            started = time.monotonic()
            engine.ask_move(state.usi_position())
            answer = engine.best_move()
            if engine is ours:
                seconds.append(time.monotonic() - started)
            if answer in ('resign', 'win'):
                break
            state = state.next(state.action_of_usi(answer))
    finally:
        ours.close()
        theirs.close()
    assert len(seconds) >= 10 and max(seconds) < 0.4, seconds
    assert sorted(seconds)[len(seconds) // 2] > 0.2, seconds  # the median move searched most of its 300 ms


@pytest.mark.slow
@needs_cshogi
def test_go_infinite_deepens_until_stop_and_bestmove_names_a_ponder_move(workdir):
    from test_engine_stop import Engine
    engine = Engine(workdir, 'usi_engine.py')
    engine.send('usi')
    engine.answer('usiok', 120)
    engine.send('position startpos moves 7g7f')
    engine.send('go infinite')
    time.sleep(3.5)
    engine.send('stop')
    streamed = []
    best, seconds = engine.answer('bestmove', 5, streamed)
    nodes = [int(line.split(' nodes ')[1].split()[0]) for line in streamed if line.startswith('info depth')]
    assert len(nodes) >= 3 and nodes == sorted(nodes), streamed  # an info line at least each second
    assert nodes[-1] > 300, nodes  # past the 300 simulations a move searches without a clock
    # the tree, as large as memory holds, says how full it is: permille of its nodes, growing
    full = [int(line.split(' hashfull ')[1].split()[0]) for line in streamed if line.startswith('info depth')]
    assert len(full) == len(nodes) and full == sorted(full) and 0 <= full[0] <= full[-1] <= 1000, streamed
    words = best.split()
    assert seconds < 1 and len(words) == 4 and words[2] == 'ponder', best
    # a go with a bad number says so, then still answers with a move: a GUI waits for one
    engine.send('go nodes -5')
    said = []
    engine.answer('bestmove', 30, said)
    assert any(line.startswith("info string go: nodes needs a whole number, not '-5'") for line in said), said
    assert engine.quit_within(5) < 5


def test_gtp_shares_its_clock_over_the_stones_to_play():
    from alphazero.game.registry import load_game
    from gtp_engine import GtpSession
    asked = []
    session = GtpSession(load_game('othello6'), lambda state, deadline: asked.append(deadline) or state.legal_actions()[0],
                         margin=0.25)
    state = session.state
    assert session.seconds_for(state) is None  # no clock, no deadline
    session.execute('time_settings 60 0 0')  # sudden death
    assert session.seconds_for(state) == pytest.approx(60 / 40 - 0.25)
    session.execute('time_left b 20 0')
    assert session.seconds_for(state) == pytest.approx(20 / 40 - 0.25)
    session.execute('time_settings 0 10 5')  # Canadian byoyomi: 10 s for 5 stones
    session.execute('time_left b 6 3')
    assert session.seconds_for(state) == pytest.approx(2 - 0.25)
    session.execute('time_settings 0 10 0')  # GTP's "no time limit"
    assert session.seconds_for(state) is None
    assert session.execute('time_left b x 0').startswith('? syntax error')
    session.execute('time_settings 0 1 1')
    before = time.monotonic()
    session.execute('genmove b')
    assert before + 0.75 - 0.01 <= asked[-1] <= time.monotonic() + 0.75


@pytest.mark.slow
def test_a_whole_gtp_game_with_a_clock_keeps_it(workdir):
    """time_settings 0 1 1 (a second a move) and --byoyomi-margin 400: every genmove of a whole 6x6
    Othello game answered within the second, and most of its 0.6 s searched."""
    import subprocess
    from alphazero.game.registry import load_game
    from alphazero.engines.gtp import COLORS, color_to_move
    from alphazero.game.notation import action_names
    game = load_game('othello6')
    names = action_names(game)
    engine = subprocess.Popen([sys.executable, os.path.join(REPO, 'gtp_engine.py'), '--game', 'othello6',
                               '--byoyomi-margin', '400'], cwd=workdir, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)

    def ask(line):
        engine.stdin.write(line + '\n')
        engine.stdin.flush()
        answer = engine.stdout.readline()
        assert engine.stdout.readline() == '\n'
        return answer.rstrip('\n')

    rng, state, seconds = random.Random(1), game.State(), []
    try:
        assert ask('time_settings 0 1 1') == '='
        while not state.is_done():
            color = COLORS[color_to_move(state)]
            if color == 'black':
                assert ask('time_left black 1 1') == '='
                started = time.monotonic()
                answer = ask('genmove black')
                seconds.append(time.monotonic() - started)
                action = names.index(answer[2:].lower()) if answer[2:].lower() != 'pass' else game.PASS
            else:
                action = rng.choice(state.legal_actions())
                name = 'pass' if action == game.PASS else names[action]
                assert ask(f'play white {name}') == '='
            state = state.next(action)
        assert ask('quit') == '='
    finally:
        engine.kill()
    assert len(seconds) >= 8 and max(seconds) < 1.0, seconds
    assert sorted(seconds)[len(seconds) // 2] > 0.4, seconds
