"""Point-Othello: its values, rules and planes against a second, simple implementation, and play that
never looks at the hidden values."""
import collections
import random

import numpy as np
import pytest

from games.pointothello import game as po
from alphazero.settings import ExplorationSettings, SearchSettings, SelfPlaySettings
from alphazero.game.registry import load_game
from references import SimpleOthello


class SimplePointOthello(SimpleOthello):
    """Lists of owners (+1 first player) and of values; a move writes the next value on its square."""

    def __init__(self, sequence, board=None, values=None, used=0, player=1):
        super().__init__(8, board or po.RULES.State().cells(), player)
        self.sequence, self.values, self.used = sequence, values or [0] * 64, used

    def next(self, action):
        moved = super().next(action)
        values = self.values[:]
        if action < 64:
            values[action] = self.sequence[self.used]
        return SimplePointOthello(self.sequence, moved.board, values, self.used + (action < 64), moved.player)

    def points(self, player):
        return sum(v for v, owner in zip(self.values, self.board) if owner == player)


def test_sequences_have_sixty_values_from_minus_30_to_30_summing_to_zero():
    rng = np.random.default_rng(0)
    firsts = collections.Counter()
    for _ in range(300):
        sequence = po.State(rng=rng).sequence
        assert len(sequence) == 60 and sum(sequence) == 0 and all(-30 <= v <= 30 for v in sequence)
        firsts[sequence[0]] += 1
    assert len(firsts) > 50 and abs(np.mean(list(firsts.elements()))) < 3


def test_values_are_drawn_uniformly_among_the_sequences_with_that_sum():
    # Three values summing to 85: every such sequence (there are 21) should come up about equally often
    rng = np.random.default_rng(1)
    everything = [(a, b, 85 - a - b) for a in range(-30, 31) for b in range(-30, 31) if -30 <= 85 - a - b <= 30]
    seen = collections.Counter(tuple(po.uniform_values(3, 85, rng)) for _ in range(4200))
    assert set(seen) == set(everything) and len(everything) == 21
    assert max(seen.values()) < 1.5 * min(seen.values())


def test_the_game_agrees_with_the_simple_rules_over_random_games():
    rng = random.Random(3)
    ended = collections.Counter()
    for game in range(60):
        state = po.State(rng=np.random.default_rng(game))
        simple = SimplePointOthello(state.sequence)
        while True:
            assert state.cells() == simple.board and list(state.values) == simple.values
            me = simple.player
            assert state.scores() == (simple.points(me), simple.points(-me))
            assert state.is_done() == simple.is_done()
            if state.is_done():
                assert state.is_lose() == (simple.points(me) < simple.points(-me))
                assert state.is_draw() == (simple.points(me) == simple.points(-me))
                ended[state.is_lose()] += 1
                break
            assert state.legal_actions() == simple.legal_actions()
            action = rng.choice(state.legal_actions())
            state, simple = state.next(action), simple.next(action)
        # Every value placed is on the board; with a full board the scores add up to the total, 0
        if 0 not in state.cells():
            assert sum(state.scores()) == 0
    assert ended[True] and ended[False]


def test_a_flipped_stone_keeps_its_value_and_a_pass_uses_none():
    state = po.State(sequence=[7, -3, 5] + [0] * 57)
    after = state.next(19).next(18)  # black d3 (value 7), white c3 (value -3)
    assert after.values[19] == 7 and after.values[18] == -3 and after.used == 2
    assert after.cells()[18] == -1 and after.scores() == (7, -3)   # black to move: d3 is worth 7 to it
    turned = after.next(17)          # black b3 (value 5) turns c3 over: black now owns its -3
    assert turned.cells()[18] == 1 and turned.values[18] == -3 and turned.values[17] == 5
    assert turned.scores() == (0, 9)   # white to move: nothing; black: 7 + 5 - 3
    passed = po.State(sequence=state.sequence, board=po.RULES.State(1, 2, 0)).next(po.PASS)
    assert passed.used == 0


def test_planes_show_stones_points_and_the_four_values_a_player_sees():
    rng = random.Random(4)
    state = po.State(rng=np.random.default_rng(4))
    for _ in range(20):
        state = state.next(rng.choice(state.legal_actions()))
    planes = state.planes().reshape(64, 8)
    own = [float(c == (1 if state.is_first_player() else -1)) for c in state.cells()]
    other = [float(c == (-1 if state.is_first_player() else 1)) for c in state.cells()]
    assert planes[:, 0].tolist() == own and planes[:, 1].tolist() == other
    np.testing.assert_allclose(planes[:, 2], np.array(state.values) * own / 30, atol=1e-7)
    np.testing.assert_allclose(planes[:, 3], np.array(state.values) * other / 30, atol=1e-7)
    for plane, value in zip(range(4, 8), state.sequence[state.used:state.used + 4]):
        np.testing.assert_allclose(planes[:, plane], value / 30, atol=1e-7)


def hidden_twin(state, seed):
    """The same position with other hidden values (the same visible ones and the same sum)."""
    twin = po.determinize(state, np.random.default_rng(seed))
    assert twin.sequence != state.sequence
    return twin


def test_determinization_keeps_what_a_player_sees_and_nothing_else():
    state = po.State(rng=np.random.default_rng(5)).next(19).next(18)
    twin = hidden_twin(state, 99)
    assert twin.sequence[:6] == state.sequence[:6] and sum(twin.sequence) == 0
    assert np.array_equal(twin.planes(), state.planes())
    # The same random seed gives the same sample whatever the hidden values were
    assert po.determinize(state, np.random.default_rng(7)).sequence == po.determinize(twin, np.random.default_rng(7)).sequence


@pytest.mark.parametrize('name', ['VS_Greedy', 'VS_AlphaBeta4'])
def test_the_opponents_only_use_what_a_player_sees(name):
    player = po.opponents()[name]
    state = po.State(rng=np.random.default_rng(6))
    rng = random.Random(6)
    for _ in range(10):
        state = state.next(rng.choice(state.legal_actions()))
    twin = hidden_twin(state, 1)
    random.seed(0)
    move = player(state)
    random.seed(0)
    assert player(twin) == move


def test_the_ai_searches_only_what_it_can_see():
    from alphazero.search.evaluator import Evaluator
    from alphazero.network.runtimes import KerasNetwork
    from alphazero.play.players import MctsPlayer
    from conftest import tiny_model
    network = KerasNetwork(tiny_model(0, rules=po))
    state = po.State(rng=np.random.default_rng(8))
    for action in (19, 18, 17, 9):
        state = state.next(action) if action in state.legal_actions() else state.next(state.legal_actions()[0])
    twin = hidden_twin(state, 2)

    def fair(position):
        player = MctsPlayer(Evaluator(network), SearchSettings(sims=60), 0.0, np.random.default_rng(0),
                            determinize=po.determinize)
        return player.visits([position])[0]
    assert np.array_equal(fair(state), fair(twin))   # the same samples of what it cannot see, the same search
    assert fair(state).sum() == 4 * 59               # 4 samples of 60 simulations (the first expands the root)


def test_evaluations_deal_each_sequence_twice_with_colours_swapped():
    from alphazero.play.players import FunctionPlayer
    from alphazero.play.openings import duplicate_starts
    from alphazero.play.loop import play_games
    starts = duplicate_starts(po, 6)
    assert starts[0] is starts[1] and starts[2] is starts[3] and starts[0].sequence != starts[2].sequence
    assert duplicate_starts(load_game('othello8'), 6) is None
    greedy, other = FunctionPlayer(po.opponents()['VS_Greedy']), FunctionPlayer(po.random_action)
    played = play_games(po.State, [(greedy, other), (other, greedy)] * 3, starts=starts)
    assert [g.state.sequence for g in played] == [s.sequence for s in starts]


@pytest.mark.slow
def test_self_play_peeks_only_when_allowed(workdir):
    from alphazero.data.history import read_history
    from alphazero.network.model_file import save_model
    from conftest import tiny_model
    from self_play import self_play
    save_model(tiny_model(0, rules=po), 'runs/pointothello/model/best.h5')
    for peek in (True, False):
        path, stats = self_play(po, SelfPlaySettings(games=2), SearchSettings(sims=4), ExplorationSettings(peek=peek), seed=0)
        position, policy, value = read_history(path, po)
        assert position.shape[1:] == (8, 8, 8) and len(value) == stats['positions'] >= 2 * 50
        assert set(np.unique(value)) <= {-1, 0, 1}


def test_gtp_refuses_point_othello_in_one_line(workdir):
    from conftest import run_script
    result = run_script('gtp_engine.py', '--game', 'pointothello', cwd=workdir, timeout=60)
    assert result.returncode == 2 and result.stderr.strip() == (
        'error: pointothello cannot be played over GTP: the protocol cannot tell the values dealt to a game')
