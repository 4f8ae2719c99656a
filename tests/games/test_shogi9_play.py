"""Full shogi as a player meets it: handicap games (駒落ち), their starts checked against cshogi's
table, a whole game in a terminal as a player runs it (the AI as 上手) saved as a KIF with its 手合割
that cshogi reads back, the USI engine from a handicap's `position sfen`; and a refused move's reason."""
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


def test_a_refused_shogi_move_says_why(game, capsys):
    """A move typed in Japanese that two pieces fit, that needs 成 or 不成, or that the rules forbid
    (二歩, 打ち歩詰め, a pawn on the last rank) is refused with the reason, in the player's language;
    every reason is checked against cshogi's legal moves (none of the refused is legal)."""
    from alphazero.cli.words import words
    from human_play import ask_action
    cases = [
        ('4k4/9/9/9/9/9/9/3G1G3/4K4 b P 1', '５七金', 'どの駒か決まりません: ５七金右、５七金左'),
        ('4k4/9/9/9/9/9/4P4/9/4K4 b P 1', '５五歩', '二歩です（5筋に歩があります）'),
        ('k8/9/1GN6/9/9/9/9/9/4K4 b P 1', '９二歩', '打ち歩詰めです'),
        ('k8/9/9/9/9/9/9/9/4K4 b P 1', '５一歩', '歩は一段目に打てません（行き所のない駒）'),
        ('lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3', '２二角',
         '成るか成らないかを付けてください: ２二角不成、２二角成'),
    ]
    for sfen, typed, why in cases:
        state = game.State(sfen)
        assert game.parse_action(state, typed) is None and game.refusal(state, typed, 'ja') == why, (sfen, typed)
        assert game.refusal(state, typed, 'en')  # said in English too
        answers = iter([typed, '投了'])
        assert ask_action(state, lambda prompt: next(answers), game, words('ja')) is not None
        assert f"'{typed}' は指せません: {why}" in capsys.readouterr().out
    # a legal move, or one no piece fits, gets no reason
    assert game.refusal(game.State(), '７六歩', 'ja') is None and game.refusal(game.State(), '５五角', 'ja') is None
    # 二歩 and 打ち歩詰め are what cshogi's legal moves leave out
    nifu = cshogi.Board('4k4/9/9/9/9/9/4P4/9/4K4 b P 1')
    assert not any(cshogi.move_to_usi(m) == 'P*5e' for m in nifu.legal_moves)
    mate = cshogi.Board('k8/9/1GN6/9/9/9/9/9/4K4 b P 1')
    assert not any(cshogi.move_to_usi(m) == 'P*9b' for m in mate.legal_moves)


def test_the_players_errors_name_the_game_as_the_player_calls_it(workdir):
    """--handicap outside full shogi is refused in one line that names the game in Japanese (四目並べ,
    not connect4) and begins エラー:."""
    from conftest import run_script
    result = run_script('human_play.py', '--text', '--game', 'connect4', '--handicap', '香落ち', '--lang', 'ja', cwd='.',
                        timeout=120)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2 and lines[-1].startswith('エラー: 四目並べ には駒落ちがありません'), lines


def test_the_players_help_and_flag_mistakes_speak_japanese(capsys):
    """human_play.py --lang ja --help (or a Japanese locale) gives the flags in Japanese, with the
    book's words, and a mistyped flag is said in Japanese; in English both stay English."""
    import human_play
    with pytest.raises(SystemExit):
        human_play.parse_args(['--lang', 'ja', '--help'])
    shown = capsys.readouterr().out
    assert shown.startswith('使い方: ') and '\nオプション:\n' in shown and 'このヘルプを表示して終了します' in shown
    assert 'シミュレーション回数' in shown and '探索の設定' in shown and '振り返り' in shown and 'show this help' not in shown
    with pytest.raises(SystemExit):
        human_play.parse_args(['--lang=ja', '--level', '99'])
    assert capsys.readouterr().err.startswith('エラー: argument --level: 99 is out of range')
    with pytest.raises(SystemExit):
        human_play.parse_args(['--lang', 'en', '--help'])
    assert capsys.readouterr().out.startswith('usage: ')


def test_what_a_handicap_costs_is_the_elo_between_its_score_and_the_even_games(tmp_path):
    """bench/handicap_worth.py: a handicap's cost is the Elo between the even game's score and the
    handicap game's, each moved half a game towards even (a sweep stays finite); written into a
    model.json, play_web.py's handicap_worth reads it back for the page, and a model without it has
    none."""
    import json
    sys.path.insert(0, os.path.join(REPO, 'bench'))
    from handicap_worth import elo_of, worth
    from alphazero.play.levels import handicap_worth
    assert elo_of(0.5, 40) == 0 and elo_of(1.0, 40) == pytest.approx(400 * np.log10(40.5 / 0.5))
    runs = [{'handicap': '飛車落ち', 'points': [1.0] * 20 + [0.0] * 20, 'won_drew_lost': [20, 0, 20], 'score': 0.5},
            {'handicap': '香落ち', 'points': [1.0] * 30 + [0.0] * 10, 'won_drew_lost': [30, 0, 10], 'score': 0.75}]
    games = worth(runs, 0.75)
    assert list(games) == ['香落ち', '飛車落ち'] and games['香落ち']['elo_given'] == 0
    assert games['飛車落ち']['elo_given'] == round(elo_of(0.75, 40))
    model = tmp_path / 'best.h5'
    (tmp_path / 'model.json').write_text(json.dumps({'game': 'shogi9', 'handicaps': {'games': games}}))
    assert handicap_worth(str(model)) == {'香落ち': 0, '飛車落ち': games['飛車落ち']['elo_given']}
    (tmp_path / 'model.json').write_text(json.dumps({'game': 'shogi9'}))
    assert handicap_worth(str(model)) == {}
