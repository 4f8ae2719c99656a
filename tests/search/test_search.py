"""PV-MCTS: the book's single-game search and the batched engine, with real (tiny) networks."""
import numpy as np
import pytest

from alphazero.settings import ExplorationSettings, SearchSettings
from alphazero.search.evaluator import Evaluator
from alphazero.search.search import search
from alphazero.game.registry import load_game, sample_positions
from alphazero.network.runtimes import KerasNetwork
from conftest import state_from, tiny_model
import game
from game import State
from pv_mcts import Node, boltzman, pv_mcts_action, pv_mcts_scores, pv_mcts_visits, visits_to_scores


@pytest.fixture(scope='module')
def networks():
    return [KerasNetwork(tiny_model(seed)) for seed in (0, 1)]


@pytest.mark.parametrize('evaluate_count', [1, 2, 17, 50, 120])
def test_batched_search_returns_the_reference_visit_counts(networks, evaluate_count):
    positions = sample_positions(game, 40, seed=evaluate_count)
    for network in networks:
        for cache in (False, True):
            batched = search(Evaluator(network, cache), positions, evaluate_count)
            for state, counts in zip(positions, batched):
                reference = pv_mcts_visits(network, state, evaluate_count)
                assert list(counts[state.legal_actions()]) == reference
                assert counts.sum() == max(evaluate_count - 1, 0)  # the first evaluation expands the root
                illegal = np.setdiff1d(np.arange(9), state.legal_actions())
                assert not counts[illegal].any()


def test_cache_saves_network_evaluations_without_changing_the_search(networks):
    positions = sample_positions(game, 30, seed=3)
    plain, cached = Evaluator(networks[0], cache=False), Evaluator(networks[0], cache=True)
    np.testing.assert_array_equal(search(plain, positions, 60), search(cached, positions, 60))
    assert plain.evaluations == plain.lookups
    # Each distinct position reaches the network once
    assert cached.evaluations == len(cached.cache) < plain.evaluations
    assert cached.hit_rate == pytest.approx(1 - cached.evaluations / cached.lookups) and cached.hit_rate > 0
    assert cached.lookups == plain.lookups


def test_a_full_cache_starts_again_without_changing_the_search(networks, monkeypatch):
    import alphazero.search.evaluator as evaluator
    monkeypatch.setattr(evaluator, 'CACHE_BYTES', 20 * (9 * 4 + evaluator.CACHE_OVERHEAD))
    positions = sample_positions(game, 30, seed=3)
    plain, small = Evaluator(networks[0], cache=False), Evaluator(networks[0], cache=True)
    np.testing.assert_array_equal(search(plain, positions, 60), search(small, positions, 60))
    assert small.cache_entries == 20 and len(small.cache) <= 20 and small.evaluations > small.cache_entries


def test_trees_that_grow_as_they_go_search_as_trees_made_whole(networks, monkeypatch):
    # The arrays start small and double (alphazero/search/tree.py): the visit counts are the same
    import alphazero.search.tree as tree
    positions = sample_positions(game, 20, seed=5)
    whole = search(Evaluator(networks[0]), positions, 90)
    monkeypatch.setattr(tree, 'FIRST_NODES', 3)
    np.testing.assert_array_equal(search(Evaluator(networks[0]), positions, 90), whole)


def test_a_stopped_search_returns_what_it_searched(networks):
    import threading
    from alphazero.search.search import search_roots
    stop = threading.Event()
    stop.set()  # stopped before the first simulation after the root's
    result = search_roots(Evaluator(networks[0]), [State()], SearchSettings(sims=10 ** 6), stop=stop)
    assert result.visits.sum() == 0 and result.prior.sum() > 0


def test_a_search_against_the_clock_stops_before_a_doubling_that_would_miss_it(networks, monkeypatch):
    """A doubling of a large tree takes tenths of a second (full shogi's at 2,048 nodes); a search with
    a deadline does not start one it would finish after the deadline. Here each doubling takes 0.3 s
    more, as on a slow machine: without looking ahead, the fourth would end at about 1.2 s."""
    import time
    import alphazero.search.tree as tree
    from alphazero.search.deadline import Deadline
    from alphazero.search.search import search_roots
    with_room = tree.with_room

    def slowly(array, nodes):  # the tree's 8 arrays: 0.3 s a doubling
        time.sleep(0.3 / len(tree.ARRAYS))
        return with_room(array, nodes)
    monkeypatch.setattr(tree, 'FIRST_NODES', 4)
    monkeypatch.setattr(tree, 'with_room', slowly)
    start = time.monotonic()
    result = search_roots(Evaluator(networks[0]), [State()], SearchSettings(sims=10 ** 6),
                          stop=Deadline(None, start + 1.0))
    assert time.monotonic() - start < 1.0
    assert result.visits.sum() >= 4 and result.tree.full()


def test_first_play_values_an_untried_move_at_its_position_mean_less_r(networks, monkeypatch):
    """With first_play R the batched search visits as the book's search does when its untried
    moves have Q = the node's mean value (w / n) less R instead of 0, and unlike the book's."""
    from math import sqrt
    from alphazero.search.search import search_roots
    from alphazero.settings import C_PUCT
    reduction, sims = 0.3, 60

    def next_child_node(self):
        t = sum(child.n for child in self.child_nodes)
        arcs = [(-child.w / child.n if child.n else self.w / self.n - reduction)
                + C_PUCT * child.p * sqrt(t) / (1 + child.n) for child in self.child_nodes]
        return self.child_nodes[int(np.argmax(arcs))]

    positions = sample_positions(game, 30, seed=7)
    books = [search(Evaluator(network), positions, sims) for network in networks]
    monkeypatch.setattr(Node, 'next_child_node', next_child_node)
    for network, book in zip(networks, books):
        result = search_roots(Evaluator(network), positions, SearchSettings(sims=sims, first_play=reduction))
        for state, counts in zip(positions, result.visits):
            assert list(counts[state.legal_actions()]) == pv_mcts_visits(network, state, sims)
        assert (result.visits != book).any(axis=1).sum() >= 5


def test_c_puct_weighs_the_prior_as_the_books_search_with_that_constant(networks, monkeypatch):
    """--c-puct C: the batched search visits as the book's search does with C_PUCT = C, and unlike
    the book's 1.0."""
    import pv_mcts
    from alphazero.search.search import search_roots
    positions, sims = sample_positions(game, 30, seed=8), 60
    books = [search(Evaluator(network), positions, sims) for network in networks]
    monkeypatch.setattr(pv_mcts, 'C_PUCT', 2.5)
    for network, book in zip(networks, books):
        result = search_roots(Evaluator(network), positions, SearchSettings(sims=sims, c_puct=2.5))
        for state, counts in zip(positions, result.visits):
            assert list(counts[state.legal_actions()]) == pv_mcts_visits(network, state, sims)
        assert (result.visits != book).any(axis=1).sum() >= 5


@pytest.mark.parametrize('mine, theirs, expected', [
    ([0, 1], [3, 4], 2),        # take the win on the top row
    ([6, 7], [0, 4], 8),        # take the win on the bottom row
    ([0, 8], [3, 4], 5),        # block the middle row
    ([1, 8], [2, 4], 6),        # block the diagonal
])
def test_search_takes_a_win_and_blocks_a_loss(networks, mine, theirs, expected):
    state = state_from(mine, theirs)
    for network in networks:
        assert pv_mcts_action(network, 0, evaluate_count=400)(state) == expected
        counts = search(Evaluator(network), [state], 400)[0]
        assert counts.argmax() == expected


def test_scores_follow_the_temperature(networks):
    state = State()
    visits = pv_mcts_visits(networks[0], state, 50)
    greedy = pv_mcts_scores(networks[0], state, 0)
    assert greedy.sum() == 1 and greedy[int(np.argmax(visits))] == 1
    np.testing.assert_allclose(pv_mcts_scores(networks[0], state, 1.0), np.array(visits) / sum(visits))
    np.testing.assert_allclose(visits_to_scores([1, 3], 0.5), [0.1, 0.9])
    np.testing.assert_allclose(boltzman([2, 2, 4], 1.0), [0.25, 0.25, 0.5])


def test_the_books_call_returns_a_legal_action():
    # pv_mcts_action(load_model(...), 0.0)(State()) works on a plain Keras model
    model = tiny_model(2)
    action = pv_mcts_action(model, 0.0)(State())
    assert action in State().legal_actions()


# ----- the other games: the same search, whatever the rules -----
@pytest.mark.slow
@pytest.mark.parametrize('name', ['connect4', 'othello6', 'othello8'])
def test_batched_search_equals_the_reference_in_every_game(name):
    rules = load_game(name)
    network = KerasNetwork(tiny_model(0, rules=rules))
    positions = sample_positions(rules, 70, seed=7)  # whole random games, up to their last moves
    for cache in (False, True):
        batched = search(Evaluator(network, cache), positions, 30)
        for state, counts in zip(positions, batched):
            assert list(counts[state.legal_actions()]) == pv_mcts_visits(network, state, 30)


def test_a_finished_othello_game_is_scored_from_the_side_to_move():
    # An Othello game can end with the side to move ahead: a win for it (+1). The book's search
    # scored every finished game that was not lost as a draw (0).
    rules = load_game('othello6')
    network = KerasNetwork(tiny_model(0, rules=rules))
    rng = np.random.default_rng(8)
    seen = set()
    while seen != {-1.0, 1.0}:
        state = rules.State()
        while not state.is_done():
            state = state.next(int(rng.choice(state.legal_actions())))
        mine, theirs = state.piece_count(state.pieces), state.piece_count(state.enemy_pieces)
        if mine != theirs:
            value = Node(state, 1.0).evaluate(network)
            assert value == (1.0 if mine > theirs else -1.0)
            seen.add(value)


def test_greedy_after_plays_the_most_visited_move_and_keeps_the_visit_distribution(networks):
    from alphazero.play.loop import LiveGame
    from alphazero.play.players import MctsPlayer
    positions = sample_positions(game, 40, seed=5)
    evaluator = Evaluator(networks[0])
    visits = search(evaluator, positions, 30)
    player = MctsPlayer(evaluator, SearchSettings(sims=30), 1.0, np.random.default_rng(0), ExplorationSettings(greedy_after=3))
    plies = [2] * 20 + [3] * 20
    games = [LiveGame(i, state, moves=[0] * ply) for i, (state, ply) in enumerate(zip(positions, plies))]
    sampled_other = 0
    for ply, state, counts, (action, searched) in zip(plies, positions, visits, player.choose(positions, games)):
        legal = state.legal_actions()
        np.testing.assert_allclose(searched.policy[legal], counts[legal] / counts[legal].sum(), rtol=1e-6)
        most_visited = legal[int(np.argmax(counts[legal]))]
        if ply >= 3:
            assert action == most_visited
        else:
            sampled_other += action != most_visited
    assert sampled_other > 0  # before ply 3 it samples at the temperature
