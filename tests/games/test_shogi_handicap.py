"""Handicap games of full shogi (駒落ち): the starts, checked against cshogi's table; a whole game in a
terminal as a player runs it, the AI as 上手, saved as a KIF with its 手合割 that cshogi reads back;
the USI engine from a handicap's `position sfen`."""
import os
import re
import select
import subprocess
import sys
import time

import numpy as np
import pytest

pytest.importorskip('cshogi')
import cshogi.KIF  # noqa: E402

from alphazero.game.registry import load_game  # noqa: E402
from alphazero.game.shogi_handicaps import ENGLISH, HANDICAPS, handicap_named, handicap_of, side_names  # noqa: E402
from conftest import REPO  # noqa: E402


@pytest.fixture(scope='module')
def game():
    return load_game('shogi9')


def test_the_handicaps_start_as_cshogi_and_kif_readers_know_them(game):
    """Each start is the usual one less 上手's pieces, 上手 (white) to move: the same SFEN as cshogi's
    table of KIF's 手合割; named in Japanese or English; the sides are 下手 and 上手."""
    assert len(HANDICAPS) >= 8
    for name, sfen in HANDICAPS.items():
        assert sfen == cshogi.KIF.Parser.HANDYCAP_SFENS[name]
        state = game.State(sfen)
        assert not state.is_first_player() and state.plies() == 0 and handicap_of(state.sfen) == name
        assert handicap_named(name) == handicap_named(ENGLISH[name]) == name
    assert handicap_of(None) is None and side_names(None) == ('先手', '後手')
    assert side_names(HANDICAPS['角落ち']) == ('下手', '上手') and side_names(HANDICAPS['角落ち'], 'en') == ('shitate', 'uwate')
    with pytest.raises(ValueError, match='not a handicap: give one of 香落ち'):
        handicap_named('queen odds')


class Terminal:
    """A program on a pseudo-terminal, as a person's terminal runs it: its output read as it comes."""

    def __init__(self, argv, cwd):
        import pty
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, close_fds=True,
                                        env={**os.environ, 'LANG': 'ja_JP.UTF-8'})
        os.close(slave)
        self.seen = ''

    def until(self, pattern, seconds=120):
        """The output up to the first match of `pattern` (a regex) after what was read before."""
        start, end = time.monotonic(), len(self.seen)
        while time.monotonic() - start < seconds:
            found = re.search(pattern, self.seen[end:])
            if found:
                return self.seen[end:end + found.end()]
            if select.select([self.master], [], [], 0.1)[0]:
                try:
                    self.seen += os.read(self.master, 65536).decode('utf-8', errors='replace')
                except OSError:  # the program ended
                    break
        pytest.fail(f'no {pattern!r} within {seconds} s; the terminal shows: {self.seen[-800:]}')

    def type(self, line):
        os.write(self.master, (line + '\n').encode())


@pytest.mark.slow
def test_a_handicap_game_in_the_terminal_is_saved_as_kif_with_its_teai(game, workdir):
    """human_play.py --text --handicap 香落ち on a pseudo-terminal: the AI, 上手, moves first from the
    lance handicap; the player, 下手, answers with the moves the prompt offers, then resigns; the
    KIF saved names the 手合割 and the sides, and cshogi reads back its start, moves and result."""
    import keras
    from alphazero.network.model_file import save_model
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    keras.utils.set_random_seed(0)
    save_model(build_network(game, NetworkSettings('resnet', filters=4, blocks=1)), 'tiny.h5')
    terminal = Terminal([sys.executable, os.path.join(REPO, 'human_play.py'), '--game', 'shogi9', '--text',
                         '--handicap', '香落ち', '--model', 'tiny.h5', '--sims', '2', '--lang', 'ja',
                         '--save-to', 'played'], workdir)
    opening = terminal.until(r'あなたの手（[^）]*）: ')
    assert '香落ち: AI が上手' in opening and 'あなたは 下手（盤の上へ進む） です' in opening
    assert re.search(r'AI の手: △', opening)  # 上手 moved before the first prompt
    for _ in range(3):
        prompt = terminal.seen[terminal.seen.rfind('あなたの手（'):]
        terminal.type(re.search(r'（(?:例: )?([^ ）]+)', prompt).group(1))
        terminal.until(r'あなたの手（[^）]*）: ')
    terminal.type('投了')
    saved = terminal.until(r'棋譜を保存しました: \S+\.kif')
    terminal.process.wait(30)
    path = os.path.join(workdir, re.search(r'棋譜を保存しました: (\S+\.kif)', saved).group(1))
    text = open(path, encoding='cp932').read()
    assert '手合割：香落ち' in text and '下手：あなた' in text and '上手：AlphaZero' in text
    assert re.search(r'まで\d+手で上手の勝ち', text)
    record = cshogi.KIF.Parser.parse_file(path)
    assert record.sfen == HANDICAPS['香落ち'] and len(record.moves) == 7 and record.win == cshogi.WHITE_WIN


def test_the_usi_engine_plays_uwate_from_a_handicap_position(game):
    """position sfen of a handicap's start: the engine (an untrained network) answers as 上手 with a
    legal move, and 下手's reply after it is taken as well."""
    import keras
    from alphazero.network.runtimes import KerasNetwork
    from alphazero.play.agent import Agent
    from alphazero.settings import NetworkSettings
    from dual_network import build_network
    from usi_engine import UsiSession
    keras.utils.set_random_seed(0)
    network = KerasNetwork(build_network(game, NetworkSettings('resnet', filters=4, blocks=1)))
    session = UsiSession(game, Agent(game, network, rng=np.random.default_rng(0)), 4)
    for name, sfen in HANDICAPS.items():
        assert session.execute(f'position sfen {sfen}') == []
        best = session.execute('go nodes 4')[-1].split()[1]
        after = game.State(sfen).next(game.State(sfen).action_of_usi(best))
        reply = game.action_name(after, after.legal_actions()[0])
        assert session.execute(f'position sfen {sfen} moves {best} {reply}') == [], name
