"""The search's options beyond the book (Gumbel root search, settai mode): their formulas against values worked out by hand, and their behaviour
in real searches and self-play with tiny networks."""
import math

import numpy as np
import pytest

from alphazero.search.evaluator import Evaluator
from alphazero.cli.flags import settings_of
from alphazero.search.search import search_roots
from alphazero.settings import SearchSettings
from alphazero.search.gumbel import (completed_q, considered_visit_sequence, gumbel_choice, gumbel_logits, gumbel_target, mixed_value)
from alphazero.game.registry import load_game, sample_positions
from alphazero.network.runtimes import KerasNetwork
from alphazero.play.agent import Agent
from alphazero.play.players import MctsPlayer
from conftest import random_endgame, state_from, tiny_model
import game


@pytest.fixture(scope='module')
def network():
    return KerasNetwork(tiny_model(0))


# ----- sequential halving: the schedule of visits, worked out by hand -----
@pytest.mark.parametrize('considered, simulations, expected', [
    # 4 moves, 2 phases of 8: each move twice, then the best 2 four times each
    (4, 16, (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)),
    # 3 moves, 2 phases: 10 // 6 = 1 round of 3, then rounds of the best 2
    (3, 10, (0, 0, 0, 1, 1, 2, 2, 3, 3, 4)),
    (2, 5, (0, 0, 1, 1, 2)),
    (1, 3, (0, 1, 2)),      # a single move takes every visit
    (16, 3, (0, 0, 0)),     # fewer simulations than moves: the first ones get one visit each
])
def test_sequential_halving_visits_the_considered_moves_in_turn(considered, simulations, expected):
    assert considered_visit_sequence(considered, simulations) == expected


def test_completed_q_fills_unvisited_moves_with_the_mixed_value():
    # Three legal moves and an illegal fourth; the root's network value is 0.1
    prior = np.array([[0.5, 0.3, 0.2, 0.0]])
    visits = np.array([[2, 1, 0, 0]])
    q = np.array([[0.5, -0.5, 0.0, 0.0]])
    legal = np.array([[True, True, True, False]])
    # Mixed value: (0.1 + 3 x (0.5 x 0.5 + 0.3 x -0.5) / 0.8) / 4 = (0.1 + 0.375) / 4
    assert mixed_value(np.array([0.1]), q, visits, prior)[0] == pytest.approx(0.11875)
    # Completed [0.5, -0.5, 0.11875] rescaled to [1, 0, 0.61875], times (50 + 2) x 0.1
    sigma = completed_q(np.array([0.1]), q, visits, prior, legal)
    np.testing.assert_allclose(sigma, [[5.2, 0.0, 0.61875 * 5.2, 0.0]])
    # The improved policy softmax(log prior + sigma) over the legal moves
    weights = np.array([0.5 * math.exp(5.2), 0.3, 0.2 * math.exp(0.61875 * 5.2)])
    target = gumbel_target(gumbel_logits(prior, legal), sigma, legal)
    np.testing.assert_allclose(target, [[*weights / weights.sum(), 0.0]])


def test_gumbel_choice_only_looks_at_moves_with_the_considered_visit_count():
    legal = np.array([[True, True, True, True]])
    logits = gumbel_logits(np.array([[0.7, 0.1, 0.1, 0.1]]), legal)
    visits = np.array([[2, 1, 1, 0]])
    sigma = np.array([[0.0, 0.0, 3.0, 0.0]])
    no_noise = np.zeros((1, 4))
    # Moves 1 and 2 have 1 visit: the same logit, so sigma(Q) decides
    assert gumbel_choice(1, no_noise, logits, sigma, visits, legal)[0] == 2
    # The noise can turn it: 2.5 on move 1 beats sigma 3 on move 2? No (2.5 < 3); 3.5 does
    assert gumbel_choice(1, np.array([[0, 2.5, 0, 0]]), logits, sigma, visits, legal)[0] == 2
    assert gumbel_choice(1, np.array([[0, 3.5, 0, 0]]), logits, sigma, visits, legal)[0] == 1
    assert gumbel_choice(2, no_noise, logits, sigma, visits, legal)[0] == 0
    # An illegal move is never chosen, even with the considered count
    assert gumbel_choice(0, no_noise, logits, sigma, visits, np.array([[True, True, True, False]]))[0] != 3


# ----- Gumbel root search in real searches -----
def test_gumbel_search_shares_the_simulations_by_sequential_halving(network):
    rng = np.random.default_rng(0)
    roots = [game.State()] * 6
    result = search_roots(Evaluator(network), roots, SearchSettings(sims=17, gumbel=4), gumbel_noise=([1.0] * 6, rng))
    for visits, action, target in zip(result.visits, result.action, result.target):
        # 16 simulations over 4 moves: each twice, then the best 2 four more times
        assert sorted(visits[visits > 0]) == [2, 2, 6, 6]
        assert visits[action] == 6
        assert target.sum() == pytest.approx(1) and (target > 0).sum() == 9  # every legal move
    # The sampled moves differ from root to root (the noise), and with no noise the choice is fixed
    assert len({tuple(np.flatnonzero(v)) for v in result.visits}) > 1
    fixed = [search_roots(Evaluator(network), roots[:1], SearchSettings(sims=17, gumbel=4)).action[0] for _ in range(2)]
    assert fixed[0] == fixed[1]


@pytest.mark.parametrize('mine, theirs, expected', [([0, 1], [3, 4], 2), ([6, 7], [0, 4], 8)])
def test_gumbel_search_takes_a_win(network, mine, theirs, expected):
    state = state_from(mine, theirs)
    result = search_roots(Evaluator(network), [state], SearchSettings(sims=32, gumbel=16))
    assert result.action[0] == expected and result.target[0].argmax() == expected


def test_a_gumbel_player_plays_its_choice_and_returns_the_improved_policy(network):
    positions = sample_positions(game, 12, seed=2)
    player = MctsPlayer(Evaluator(network), SearchSettings(sims=20, gumbel=4), 1.0, np.random.default_rng(1))
    for state, (action, searched) in zip(positions, player.choose(positions)):
        assert action in state.legal_actions()
        policy = searched.policy
        assert policy.sum() == pytest.approx(1) and policy[state.legal_actions()].sum() == pytest.approx(1)
    # At temperature 0 the choice is deterministic
    greedy = [MctsPlayer(Evaluator(network), SearchSettings(sims=20, gumbel=4), 0.0, np.random.default_rng(seed))
              for seed in (1, 2)]
    assert [a for a, _ in greedy[0].choose(positions)] == [a for a, _ in greedy[1].choose(positions)]


def test_gumbel_search_refuses_a_game_that_hides_part_of_the_position(network):
    from alphazero.errors import UserError
    rules = load_game('pointothello')
    with pytest.raises(UserError, match='whole position'):
        MctsPlayer(Evaluator(network), SearchSettings(sims=8, gumbel=4), 0.0, np.random.default_rng(0),
                   determinize=rules.determinize)


def test_the_players_take_the_search_options(network, workdir):
    # The window and the text player search with --gumbel; the GTP engine parses it too
    import human_play
    import gtp_engine
    args = human_play.parse_args(['--text', '--gumbel', '4', '--no-cache'])
    search_settings = settings_of(SearchSettings, args, sims=12)
    assert search_settings == SearchSettings(sims=12, gumbel=4, cache=False)
    action = human_play.ai_action(Agent(game, network, search_settings))
    state = game.State()
    assert action(state) in state.legal_actions()
    assert settings_of(SearchSettings, gtp_engine.parse_args(['--gumbel', '8'])).gumbel == 8
    assert settings_of(SearchSettings, gtp_engine.parse_args(['--c-puct', '1.5'])).c_puct == 1.5


# ----- settai (接待) mode -----
def test_settai_prefers_the_closest_move_that_does_not_lose():
    from alphazero.play.settai import settai_choice
    legal = [0, 1, 2, 3]
    visits = np.array([30, 10, 5, 4])
    # Within 0.4 of the best (0.9) and not below 0: moves 0 and 1; the value nearest 0 is move 1's
    q = np.array([0.9, 0.6, 0.3, -0.5])
    assert settai_choice(legal, visits, q) == 1
    # With margins, the smallest margin among those two
    assert settai_choice(legal, visits, q, np.array([0.1, -0.3, 0.0, 0.0])) == 0
    assert settai_choice(legal, visits, q, np.array([0.4, -0.3, 0.0, 0.0])) == 1
    # Never below 0, even when within 0.4 of the best; an unsearched move is never chosen
    assert settai_choice(legal, visits, np.array([0.3, -0.05, 0.2, -0.5])) == 2
    assert settai_choice(legal, np.array([30, 10, 5, 0]), np.array([0.3, -0.05, 0.25, 0.0])) == 2
    # Behind everywhere: the best move, to catch up (the most visited among equals)
    assert settai_choice(legal, visits, np.full(4, -0.6)) == 0
    assert settai_choice(legal, np.ones(4), np.array([-0.9, -0.5, -0.7, -0.6])) == 1


def test_settai_aims_below_even_against_a_weaker_opponent():
    from alphazero.play.settai import SETTAI_DRIFT_CAP, SettaiDrift, settai_choice
    legal, visits = [0, 1, 2, 3], np.ones(4)
    q = np.array([0.2, 0.1, -0.15, -0.5])
    assert settai_choice(legal, visits, q) == 1                # even: the value nearest 0 that is not below it
    assert settai_choice(legal, visits, q, aim=-0.2) == 2      # a weaker opponent: a little below even
    assert settai_choice(legal, visits, q, aim=0.15) == 0      # a stronger one: above
    assert settai_choice(legal, visits, q, aim=-0.6) == 3      # the window below the best move widens as much
    assert settai_choice(legal, visits, [0.9, 0.6, 0.4, 0.1], aim=-0.2) == 2  # 0.4 + 0.2 below the best, not 0.8
    assert settai_choice(legal, visits, q, np.array([0.1, 0.0, -0.05, -0.3]), -0.2, -0.05) == 2
    # The drift: the network's value after the opponent's reply against its value after the move chosen
    game = load_game('tictactoe')
    drift, start = SettaiDrift(), game.State()
    assert drift.aims(0, start, 0.0, None) == (0.0, 0.0)  # a new game
    drift.chose(0, start.next(4), 0.1, None)
    reply = start.next(4).next(0)
    aim, margin_aim = drift.aims(0, reply, 0.4, None)
    assert (round(aim, 6), margin_aim) == (-0.3, 0.0)
    drift.chose(0, reply.next(1), 0.9, None)
    aim, _ = drift.aims(0, reply.next(1).next(2), 0.1, None)
    assert round(aim, 6) == round(-(0.3 - 0.8) / 2, 6)        # the mean of the replies' drifts: +0.3, -0.8
    assert drift.aims(0, start.next(8), 1.0, None) == (0.0, 0.0)  # not a reply to the move chosen: a new game
    drift.chose(0, start.next(8), -0.9, 0.1)
    aim, margin_aim = drift.aims(0, start.next(8).next(0), 0.9, -0.2)
    assert (aim, round(margin_aim, 6)) == (-SETTAI_DRIFT_CAP, 0.3)  # margins drift alike
    assert drift.aims(1, start, 0.1, None) == (0.0, 0.0)  # each game its own
    # Only a game that ends with a margin follows the drift; in a game of win, draw or loss even is close
    from alphazero.play.settai import Settai, settai_for
    othello = load_game('othello8')
    assert settai_for(othello).final_margin(othello.State()) == 0 and settai_for(othello, False) is None
    assert settai_for(load_game('connect4')) == Settai()
    network = KerasNetwork(tiny_model(0, rules=game))
    assert MctsPlayer(Evaluator(network), SearchSettings(sims=4), 0.0, None, settai=Settai()).settai_drift is None
    assert isinstance(MctsPlayer(Evaluator(network), SearchSettings(sims=4), 0.0, None, settai=Settai(len)).settai_drift, SettaiDrift)


def test_settai_never_throws_the_game(network):
    # x (to move) can win at 2; o threatens 3-4-5, so every move but 2 and 5 loses
    state = state_from([0, 1], [3, 4])
    from alphazero.play.settai import Settai
    settai = MctsPlayer(Evaluator(network), SearchSettings(sims=200), 0.0, np.random.default_rng(0), settai=Settai())
    assert settai.choose([state])[0][0] in (2, 5)
    # With the win gone (o holds 2), blocking at 5 is the only move that does not lose
    assert settai.choose([state_from([0, 1, 6], [2, 3, 4])])[0][0] == 5


def endgame_positions(game, empties, count, seed):
    """Positions of random games with `empties` empty squares and a move to make."""
    rng = np.random.default_rng(seed)
    return [random_endgame(game, empties, rng)[0] for _ in range(count)]


def test_settai_endgame_plays_the_closest_result_that_does_not_lose():
    from alphazero.play.settai import settai_endgame, settai_for
    game = load_game('othello6')
    final_margin = settai_for(game).final_margin

    def minimax(state):  # a deliberately plain full search, no pruning
        if state.is_done():
            return final_margin(state)
        return max(-minimax(state.next(a)) for a in state.legal_actions())

    kinds = set()
    for state in endgame_positions(game, 6, 40, seed=0):
        margins = {a: -minimax(state.next(a)) for a in state.legal_actions()}
        not_losing = [m for m in margins.values() if m >= 0]
        want = min(not_losing) if not_losing else max(margins.values())
        chosen = settai_endgame(state, final_margin)
        assert margins[chosen] == want, (str(state), margins, chosen)
        kinds.add('a draw or the smallest win' if not_losing else 'the smallest loss')
        kinds.add('not the best move' if want < max(margins.values()) else 'the best move')
    assert kinds == {'a draw or the smallest win', 'the smallest loss', 'not the best move', 'the best move'}


def test_settai_endgame_leaves_long_searches_to_the_network(monkeypatch):
    import alphazero.play.settai as settai
    game = load_game('othello8')
    final_margin = settai.settai_for(game).final_margin
    state = endgame_positions(game, 10, 1, seed=1)[0]
    assert settai.settai_endgame(state, final_margin) is not None
    monkeypatch.setattr(settai, 'SETTAI_EXACT_NODES', 50)      # too few positions to reach the end
    assert settai.settai_endgame(state, final_margin) is None
    monkeypatch.setattr(settai, 'SETTAI_EXACT_NODES', 10 ** 6)
    monkeypatch.setattr(settai, "SETTAI_EXACT_EMPTIES", 9)      # too many squares left
    assert settai.settai_endgame(state, final_margin) is None


def test_settai_player_ends_the_game_by_the_exact_search():
    from alphazero.play.settai import settai_endgame, settai_for
    game = load_game('othello6')
    network = KerasNetwork(tiny_model(0, rules=game))
    settai = MctsPlayer(Evaluator(network), SearchSettings(sims=4), 0.0, np.random.default_rng(0), settai=settai_for(game))
    final_margin = settai.settai.final_margin
    states = endgame_positions(game, 8, 6, seed=2)
    exact = [settai_endgame(state, final_margin) for state in states]
    assert [action for action, _ in settai.choose(states)] == exact
    # In the middle game the network's search decides: every move searched, none from the exact search
    middle = endgame_positions(game, 20, 1, seed=3)
    assert settai_endgame(middle[0], final_margin) is None
    assert settai.choose(middle)[0][0] in middle[0].legal_actions()


@pytest.mark.parametrize('flag', ['--fpu', '--forced-playouts', '--fast-sims', '--exact-values'])
def test_a_removed_technique_s_flag_says_so_in_one_line(flag, capsys):
    # What measured no gain left the code (docs/recipes.md); its flag says what it was, in every script,
    # and first-play urgency's old flag names the one it came back as
    import self_play
    import train_cycle
    for script in (self_play, train_cycle):
        with pytest.raises(SystemExit) as stopped:
            script.parse_args([flag, '0.25'])
        error = capsys.readouterr().err
        assert stopped.value.code == 2 and len(error.splitlines()) == 1
        assert f'{flag} was removed with ' in error
        assert ('use --first-play R' in error) if flag == '--fpu' else ('measured no gain' in error)
