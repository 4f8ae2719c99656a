"""Levels of play: their settings, the Elo ladder fitted to matches, the ladder in model.json, and
the players of each level."""
import json
import math
import os
import statistics

import numpy as np
import pytest

from alphazero.search.evaluator import Evaluator
from alphazero.errors import UserError
from alphazero.network.model_file import save_model
from alphazero.network.runtimes import KerasNetwork
from alphazero.play.levels import (Level, choose_level, fit_ratings, full_strength, levels_for, read_ladder, standard_levels)
from alphazero.play.agent import Agent
from alphazero.play.players import MctsPlayer, PolicyPlayer
from alphazero.play.settai import Settai
from alphazero.engines.players import opponent_name
from alphazero.cli.words import level_text, words
import alphazero.play.matches as match_runner
from conftest import REPO, stop_play_games, tiny_model


def settings(levels):
    return [(level.number, level.simulations, level.temperature) for level in levels]


def test_standard_levels_go_from_the_policy_to_the_full_search():
    assert settings(standard_levels(50)) == [(1, 0, 1.0), (2, 0, 0.0), (3, 12, 0.0), (4, 50, 0.0), (5, 200, 0.0)]
    assert settings(standard_levels(800))[2:] == [(3, 200, 0.0), (4, 800, 0.0), (5, 3200, 0.0)]
    assert settings(standard_levels(20))[2] == (3, 8, 0.0)  # a search of at least MIN_SEARCH
    # Too few simulations for a quarter to differ: only the searches that do
    assert settings(standard_levels(4)) == [(1, 0, 1.0), (2, 0, 0.0), (3, 4, 0.0), (4, 16, 0.0)]
    assert full_strength(standard_levels(4), 4).number == 3 and full_strength(standard_levels(50), 50).number == 4


def test_one_match_gives_the_elo_of_its_score_moved_half_a_game_towards_even():
    ratings = fit_ratings([('level 1', 'random player', 30, 40)])
    score = 30.5 / 41
    assert ratings['random player'] == 0
    assert ratings['level 1'] == pytest.approx(-400 * math.log10(1 / score - 1), abs=0.01)


def test_a_ladder_adds_up_and_a_clean_sweep_stays_finite():
    one = -400 * math.log10(1 / (30.5 / 41) - 1)
    ratings = fit_ratings([('level 1', 'random player', 30, 40), ('level 2', 'level 1', 30, 40)])
    assert ratings['level 2'] == pytest.approx(2 * one, abs=0.01)
    swept = fit_ratings([('level 1', 'random player', 40, 40)])['level 1']
    assert swept == pytest.approx(400 * math.log10(40.5 / 0.5), abs=0.01)
    # A third player between two others lands between them
    ratings = fit_ratings([('level 1', 'random player', 30, 40), ('level 2', 'level 1', 30, 40),
                           ('alpha-beta depth 1', 'level 1', 20, 40), ('level 2', 'alpha-beta depth 1', 25, 40)])
    assert ratings['level 1'] < ratings['alpha-beta depth 1'] < ratings['level 2']


def test_resampled_fits_spread_as_the_matches_are_uncertain():
    from alphazero.play.levels import rated_levels, resampled_fits
    even = [('level 1', 'random player', 20, 0, 20)]
    fits = resampled_fits(even, draws=400)
    assert fits == resampled_fits(even, draws=400)  # seeded: the same matches give the same ranges
    spread = np.percentile([fit['level 1'] for fit in fits], [5, 95])
    # 40 games at even: a score's standard deviation is 0.079, about 55 Elo, so 90% within about +-90
    assert -130 < spread[0] < -50 and 50 < spread[1] < 130
    longer = np.percentile([fit['level 1'] for fit in resampled_fits([('level 1', 'random player', 200, 0, 200)])], [5, 95])
    assert longer[1] - longer[0] < (spread[1] - spread[0]) / 2  # ten times the games: about a third of the range
    assert {fit['level 1'] for fit in resampled_fits([('level 1', 'random player', 0, 40, 0)], draws=20)} == {0}
    # A level's range is that of its difference to its nearest opponent, holding the fitted difference
    matches = [('level 1', 'random player', 30, 2, 8), ('level 1', 'alpha-beta depth 1', 18, 4, 18)]
    ratings = fit_ratings([(a, b, w + d / 2, w + d + l) for a, b, w, d, l in matches])
    level, = rated_levels([Level(1, 0, 1.0)], ratings, ['random player', 'alpha-beta depth 1'], resampled_fits(matches))
    assert level.near == 'alpha-beta depth 1' and level.near_low < level.near_difference == 0 < level.near_high


def test_fitting_needs_the_anchor_to_have_played():
    with pytest.raises(ValueError):
        fit_ratings([('level 2', 'level 1', 30, 40)])


LADDER = {'how': 'by hand', 'anchor': 'the random player is Elo 0',
          'levels': [{'number': 1, 'simulations': 0, 'temperature': 1.0, 'elo': 300, 'near': 'random player',
                      'near_difference': 300},
                     {'number': 2, 'simulations': 0, 'temperature': 0.0, 'elo': 500, 'near': 'alpha-beta depth 1',
                      'near_difference': -20},
                     {'number': 3, 'simulations': 12, 'temperature': 0.0, 'elo': 700, 'near': 'GRhino level 1',
                      'near_difference': 10},
                     {'number': 4, 'simulations': 50, 'temperature': 0.0, 'elo': 900, 'near': 'GRhino level 2',
                      'near_difference': 140},
                     {'number': 5, 'simulations': 200, 'temperature': 0.0, 'elo': 1000, 'near': 'GRhino level 2',
                      'near_difference': 240}],
          'opponents': {'random player': 0}, 'matches': []}


def test_the_levels_and_their_ladder_load_from_model_json(tmp_path):
    (tmp_path / 'model.json').write_text(json.dumps({'game': 'othello8', 'levels': LADDER}))
    model = str(tmp_path / 'best.h5')
    levels = levels_for(model, 50)
    assert settings(levels) == settings(standard_levels(50))
    assert [level.elo for level in levels] == [300, 500, 700, 900, 1000]
    assert level_text(levels[1], words('en')) == 'level 2 (policy alone, Elo 500, about alpha-beta depth 1)'
    assert level_text(levels[3], words('en')) == 'level 4 (50 simulations, Elo 900, GRhino level 2 +140)'
    assert level_text(levels[3], words('ja')) == 'レベル 4（シミュレーション回数 50、Elo 900、GRhino レベル 2 より 140 高い）'
    assert choose_level(levels, 4).simulations == 50
    with pytest.raises(UserError, match='levels 1 to 5'):
        choose_level(levels, 6)
    # Played at other simulations than measured: the standard levels, not measured
    other = levels_for(model, 200)
    assert settings(other)[-1] == (5, 800, 0.0) and all(level.elo is None for level in other)
    assert level_text(other[-1], words('en')) == 'level 5 (800 simulations, not measured)'


def test_a_model_without_a_ladder_gets_the_standard_levels(tmp_path):
    model = str(tmp_path / 'best.h5')
    assert read_ladder(model) is None
    (tmp_path / 'model.json').write_text(json.dumps({'game': 'othello8'}))
    assert read_ladder(model) is None and settings(levels_for(model, 50)) == settings(standard_levels(50))


@pytest.mark.parametrize('text', ['{not json', '[1, 2]', json.dumps({'levels': {'levels': [{'number': 1}]}})])
def test_a_broken_model_json_is_one_clear_error(tmp_path, text):
    (tmp_path / 'model.json').write_text(text)
    with pytest.raises(UserError, match='model.json'):
        read_ladder(str(tmp_path / 'best.h5'))


def test_a_model_plays_with_the_first_play_reduction_its_model_json_measured(tmp_path):
    """load_agent: the reduction of the model.json's `search` entry unless one is asked for, a draw
    (the book's) without one, and a bad entry is one clear line."""
    import game
    from alphazero.play.agent import AgentSpec, load_agent
    from alphazero.settings import SearchSettings
    model = str(tmp_path / 'best.h5')
    save_model(tiny_model(seed=1), model, sims=20)
    assert load_agent(game, AgentSpec(model)).search.first_play is None
    (tmp_path / 'model.json').write_text(json.dumps({'search': {'first_play': 0.2}}))
    agent = load_agent(game, AgentSpec(model))
    assert agent.search.first_play == 0.2 and agent.search.sims == 20 and 'first-play reduction 0.2' in agent.description
    assert load_agent(game, AgentSpec(model, search=SearchSettings(first_play=0.5))).search.first_play == 0.5
    (tmp_path / 'model.json').write_text(json.dumps({'search': {'first_play': 'much'}}))
    with pytest.raises(UserError, match="model.json: its \"search\" entry's first_play is 'much'"):
        load_agent(game, AgentSpec(model))


@pytest.fixture(scope='module')
def network():
    return KerasNetwork(tiny_model(seed=3))


def test_the_policy_levels_play_the_policy(network):
    import game
    state = game.State().next(4)
    policy = Evaluator(network)([state])[0][0]
    legal = state.legal_actions()
    best = legal[int(np.argmax(policy[legal]))]
    greedy = PolicyPlayer(Evaluator(network), 0.0, np.random.default_rng(0))
    assert greedy.choose([state, state]) == [(best, None), (best, None)]
    # Sampled at temperature 1: every legal move turns up, in about the policy's proportions
    sampled = PolicyPlayer(Evaluator(network), 1.0, np.random.default_rng(0))
    drawn = [sampled.choose([state])[0][0] for _ in range(2000)]
    shares = np.bincount(drawn, minlength=9)[legal] / len(drawn)
    assert set(drawn) == set(legal)
    assert np.abs(shares - policy[legal] / policy[legal].sum()).max() < 0.05


def test_each_level_gets_its_player(network):
    import game
    agent = Agent(game, network)
    assert isinstance(agent.replaced(level=Level(1, 0, 1.0)).player, PolicyPlayer)
    searcher = agent.replaced(level=Level(3, 25, 0.0)).player
    assert isinstance(searcher, MctsPlayer) and searcher.settings.sims == 25 and searcher.temperature == 0
    # Settai mode searches every move, whatever the level
    assert isinstance(agent.replaced(level=Level(1, 0, 1.0), settai=True).player.settai, Settai)


def test_opponents_are_named_for_people():
    assert opponent_name('VS_AlphaBeta2') == 'alpha-beta depth 2'
    assert opponent_name('VS_Random') == 'random player'
    assert opponent_name('/usr/games/gtp-rhino -l 3') == 'GRhino level 3'
    assert opponent_name('/usr/games/fairy-stockfish; go depth 5') == 'Fairy-Stockfish depth 5'
    assert opponent_name('fairy-stockfish; setoption name Skill Level value -20; go depth 5') == 'Fairy-Stockfish skill -20 depth 5'
    assert opponent_name('gnugo --mode gtp') == 'gnugo --mode gtp'


@pytest.mark.slow
def test_evaluate_levels_writes_a_ladder_the_players_read(tiny_best, workdir, monkeypatch):
    import sys
    from evaluate_levels import main
    monkeypatch.setattr(sys, 'argv', ['evaluate_levels.py', '--model', 'model/best.h5', '--sims', '8', '--games', '4',
                                      '--seed', '1', '--opening', '1', '--write'])
    main()
    written = json.loads((workdir / 'model' / 'model.json').read_text())
    assert written['game'] == 'tictactoe'
    ladder = written['levels']
    assert [level['simulations'] for level in ladder['levels']] == [0, 0, 8, 32]
    assert ladder['opponents']['random player'] == 0
    assert ladder['how'].endswith('the levels search as the book does')  # no first-play reduction in its model.json
    assert {(m['player'], m['opponent']) for m in ladder['matches']} >= {('level 1', 'random player'), ('level 2', 'level 1'),
                                                                          ('level 4', 'level 3')}
    assert all(m['won'] + m['drew'] + m['lost'] == 4 for m in ladder['matches'])
    levels = levels_for('model/best.h5', 8)
    assert all(isinstance(level.elo, (int, float)) and level.near for level in levels)
    assert all(level.near_low <= level.near_difference <= level.near_high for level in levels)
    # Fitted again to the matches it holds, none played: the same ladder
    monkeypatch.setattr(sys, 'argv', ['evaluate_levels.py', '--model', 'model/best.h5', '--refit'])
    monkeypatch.setattr('alphazero.play.matches.play_games', None)  # a game played would fail here
    main()
    assert json.loads((workdir / 'model' / 'model.json').read_text()) == written


def test_refit_needs_a_ladder_to_fit(tiny_best, workdir, monkeypatch, capsys):
    import sys
    from evaluate_levels import main
    from alphazero.cli.run import run
    (workdir / 'model' / 'model.json').write_text('{"game": "tictactoe"}')
    monkeypatch.setattr(sys, 'argv', ['evaluate_levels.py', '--model', 'model/best.h5', '--refit'])
    with pytest.raises(SystemExit):
        run(main)
    assert 'holds no ladder to fit again: measure one with --write' in capsys.readouterr().err


def test_the_players_take_a_level(tmp_path):
    import gtp_engine
    import human_play
    from alphazero.play.levels import playing_level
    assert gtp_engine.parse_args(['--game', 'othello8', '--level', '3']).level == 3
    assert human_play.parse_args(['--level', '1']).level == 1
    (tmp_path / 'model.json').write_text(json.dumps({'game': 'othello8', 'levels': LADDER}))
    model = str(tmp_path / 'best.h5')
    assert playing_level(model, 50) == (levels_for(model, 50)[3], levels_for(model, 50))  # full strength: the model's own simulations
    assert playing_level(model, 50, 2)[0].elo == 500
    with pytest.raises(UserError, match='--level 7'):
        playing_level(model, 50, 7)


def test_an_opponent_meets_the_next_level_until_a_match_is_even():
    from evaluate_levels import next_level
    assert next_level(2, 0.9, 5, {2}) == 1      # the level won easily: the opponent is weaker
    assert next_level(2, 0.1, 5, {2}) == 3      # the level lost: the opponent is stronger
    assert next_level(2, 0.5, 5, {2}) is None   # even: placed
    assert next_level(0, 0.9, 5, {0}) is None and next_level(4, 0.1, 5, {4}) is None  # the ladder ends
    assert next_level(3, 0.1, 5, {3, 4}) is None  # never the same level twice


@pytest.mark.parametrize('existing', ['{"game": "connect4"}', '[1, 2]', '{broken'])
def test_evaluate_levels_refuses_a_model_json_it_cannot_write_into_before_playing(tiny_best, workdir, monkeypatch, capsys,
                                                                                    existing):
    import sys
    from evaluate_levels import main
    from alphazero.cli.run import run
    (workdir / 'model' / 'model.json').write_text(existing)
    monkeypatch.setattr(sys, 'argv', ['evaluate_levels.py', '--model', 'model/best.h5', '--sims', '8', '--write'])
    with pytest.raises(SystemExit):
        run(main)
    out, error = capsys.readouterr()
    assert error.startswith('error: ') and 'model.json' in error and ' vs ' not in out  # no match was played
    assert (workdir / 'model' / 'model.json').read_text() == existing  # left as it was


@pytest.mark.slow
def test_a_stopped_ladder_goes_on_from_the_games_it_kept(tiny_best, workdir, monkeypatch, capsys):
    import sys
    import evaluate_levels
    played = []

    def measure(*flags, stop_after=None):
        played.clear()
        stop_play_games(match_runner, monkeypatch, stop_after, played)
        monkeypatch.setattr(sys, 'argv', ['evaluate_levels.py', '--model', 'model/best.h5', '--games', '4', '--write', *flags])
        evaluate_levels.main()

    def kept_games():  # {(player, opponent, game number): points}
        matches = json.loads(kept.read_text())['matches']
        return {(player, opponent, i): p for player, opponent, points in matches for i, p in enumerate(points)
                if p is not None}

    kept = workdir / 'model' / 'model.json.matches'
    with pytest.raises(KeyboardInterrupt):
        measure('--sims', '8', stop_after=5)
    assert played == [16] and len(kept_games()) == 5
    assert not (workdir / 'model' / 'model.json').exists()
    # Other settings start afresh (and keep their own games instead)
    with pytest.raises(KeyboardInterrupt):
        measure('--sims', '12', stop_after=3)
    assert 'kept for other settings' in capsys.readouterr().out and len(kept_games()) == 3
    with pytest.raises(KeyboardInterrupt):
        measure('--sims', '8', stop_after=6)
    before = kept_games()
    assert len(before) == 6
    # The same settings again: the kept games are not played again, and the ladder is fitted to them too
    measure('--sims', '8')
    assert ': 6 games played already' in capsys.readouterr().out and played[0] == 16 - 6
    ladder = json.loads((workdir / 'model' / 'model.json').read_text())['levels']
    assert sum(played) == 4 * len(ladder['matches']) - 6
    matches = {(m['player'], m['opponent']): m for m in ladder['matches']}
    for pair in {(player, opponent) for player, opponent, _ in before}:
        points = [p for (player, opponent, _), p in before.items() if (player, opponent) == pair]
        assert matches[pair]['won'] >= points.count(1.0) and matches[pair]['lost'] >= points.count(0.0)
    assert not kept.exists()


def test_settai_measurements_add_up_over_runs_and_keep_to_their_settings(tiny_best, workdir, monkeypatch, capsys):
    import runpy
    import sys
    from alphazero.cli.run import run
    bench = runpy.run_path(os.path.join(REPO, 'bench', 'settai_margins.py'))

    def measure(*flags):
        monkeypatch.setattr(sys, 'argv', ['settai_margins.py', '--model', 'model/best.h5', '--game', 'tictactoe', '--sims', '4',
                                          '--opening', '1', '--opponent', 'random player', '--out', 'settai.json', *flags])
        run(bench['main'])
        return json.loads((workdir / 'settai.json').read_text())

    measure('--games', '4')
    results = measure('--games', '4')
    assert len(results['runs']) == 2 and results['opponents'] == ['random player']
    for mode in ('normal', 'settai'):
        outcomes = [run_[mode]['random player'] for run_ in results['runs']]
        assert all(len(games) == 4 and set(games) <= {-1, 0, 1} for games in outcomes)
        summary = results['summary']['random player'][mode]
        medians = [statistics.median(games) for games in outcomes]
        assert summary['run_medians'] == medians and summary['median'] == statistics.median(medians)
        assert abs(summary['farthest']) == max(map(abs, medians))
        assert summary['won'] + summary['drew'] + summary['lost'] == 8
    kept = (workdir / 'settai.json').read_text()
    with pytest.raises(SystemExit):
        measure('--games', '6')
    assert 'settai.json holds results with games 4, not 6' in capsys.readouterr().err
    assert (workdir / 'settai.json').read_text() == kept
    # Another model written where the measured one was adds no runs to its figures
    save_model(tiny_model(filters=8, blocks=1), 'model/best.h5')
    with pytest.raises(SystemExit):
        measure('--games', '4')
    assert 'settai.json holds results with model_sha256 ' in capsys.readouterr().err
    assert (workdir / 'settai.json').read_text() == kept


def test_the_ladder_plays_each_search_level_after_the_solver_as_the_programs_do(workdir, monkeypatch):
    """The engines and the window play a level's search after the game's solver (Connect Four's from
    20 stones, full shogi's mate search): the ladder rates the levels as they play there."""
    import evaluate_levels
    from alphazero.game.registry import load_game
    from alphazero.play.agent import AgentSpec, load_agent
    from alphazero.play.players import SolvingPlayer
    connect4 = load_game('connect4')
    save_model(tiny_model(rules=connect4), 'c4.h5')
    met = {}

    def first_matches(game, matches, *args, **kwargs):
        met.update({match.key: (match.player, match.opponent) for match in matches})
        raise KeyboardInterrupt  # the players are what this test is about, not the games
    monkeypatch.setattr(evaluate_levels, 'play_matches', first_matches)
    with pytest.raises(KeyboardInterrupt):
        evaluate_levels.measure_levels(connect4, 'c4.h5', load_agent(connect4, AgentSpec('c4.h5', 8, seed=1)))
    players = {name: player for pair in met for name, player in zip(pair, met[pair])}
    assert isinstance(players['level 1'].player, PolicyPlayer) and isinstance(players['level 2'].player, PolicyPlayer)
    assert all(isinstance(players[f'level {n}'].player, SolvingPlayer) for n in (3, 4))
    assert players['level 3'].player.player.settings.sims == 8 and players['level 4'].player.player.settings.sims == 32
