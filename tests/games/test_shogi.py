"""The book's simple shogi, checked against a second, deliberately simple implementation (one board
of signed pieces seen from the first player, moves written out per piece), perft counts, and the
encoding: planes, action numbers and the mirror."""
import random
import re

import numpy as np
import pytest

from games.shogi import game as shogi
from alphazero.settings import SearchSettings
from games.shogi.game import CHICK, ELEPHANT, GIRAFFE, LION, State
from references import STALEMATE, perft

# ----- the simple implementation -----
STEPS = {CHICK: [(0, -1)], ELEPHANT: [(1, -1), (1, 1), (-1, 1), (-1, -1)], GIRAFFE: [(0, -1), (1, 0), (0, 1), (-1, 0)],
         LION: [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]}


class SimpleShogi:
    """board[y][x]: +piece for the first player, -piece for the second, row 0 at the second player's end."""

    def __init__(self):
        self.board = [[-ELEPHANT, -LION, -GIRAFFE], [0, -CHICK, 0], [0, CHICK, 0], [GIRAFFE, LION, ELEPHANT]]
        self.hands = {1: [], -1: []}
        self.player, self.plies, self.winner = 1, 0, None

    def moves(self):
        """('move', (x, y), (x2, y2)) and ('drop', piece, (x, y)), the first player's view."""
        found = []
        for y in range(4):
            for x in range(3):
                piece = self.board[y][x] * self.player
                for dx, dy in STEPS.get(piece, []):
                    x2, y2 = x + dx * self.player, y + dy * self.player  # the second player moves downwards
                    if 0 <= x2 < 3 and 0 <= y2 < 4 and self.board[y2][x2] * self.player <= 0:
                        found.append(('move', (x, y), (x2, y2)))
        for piece in sorted(set(self.hands[self.player])):
            found += [('drop', piece, (x, y)) for y in range(4) for x in range(3) if not self.board[y][x]]
        return found

    def play(self, move):
        kind, a, (x2, y2) = move
        if kind == 'move':
            (x, y) = a
            captured = self.board[y2][x2]
            if abs(captured) == LION:
                self.winner = self.player
            elif captured:
                self.hands[self.player].append(abs(captured))
            self.board[y2][x2], self.board[y][x] = self.board[y][x], 0
        else:
            self.hands[self.player].remove(a)
            self.board[y2][x2] = a * self.player
        self.player, self.plies = -self.player, self.plies + 1
        if self.winner is None and not self.moves():  # the side to move cannot move: it has lost
            self.winner = -self.player

    def cells(self):
        return [c for row in self.board for c in row]


def decode(state, action):
    """Our action as the simple implementation's move, in the first player's view."""
    destination, direction = divmod(action, 11)
    turn = (lambda s: s) if state.is_first_player() else (lambda s: 11 - s)
    to = (turn(destination) % 3, turn(destination) // 3)
    if direction >= shogi.DROP:
        return ('drop', direction - shogi.DROP + 1, to)
    source = turn(shogi.source_of(destination, direction))
    return ('move', (source % 3, source // 3), to)


@pytest.mark.slow
def test_the_rules_agree_with_the_simple_implementation_over_random_games():
    rng = random.Random(1)
    results = {'lose': 0, 'draw': 0}
    for _ in range(300):
        state, simple = State(), SimpleShogi()
        while True:
            assert state.cells() == simple.cells()
            first, second = state.hands()
            assert sorted(p for p, n in first.items() for _ in range(n)) == sorted(simple.hands[1])
            assert sorted(p for p, n in second.items() for _ in range(n)) == sorted(simple.hands[-1])
            assert state.is_lose() == (simple.winner is not None) and state.is_draw() == (simple.winner is None and simple.plies >= 300)
            if state.is_done():
                results['lose' if state.is_lose() else 'draw'] += 1
                break
            actions = state.legal_actions()
            assert sorted(decode(state, a) for a in actions) == sorted(simple.moves())
            assert len(set(actions)) == len(actions)
            # Mostly drops and quiet moves, so that games also run long and reach the 300-ply draw
            quiet = [a for a in actions if not state.enemy_pieces[11 - a // 11] or a % 11 >= shogi.DROP]
            action = rng.choice(quiet if quiet and rng.random() < 0.97 else actions)
            simple.play(decode(state, action))
            state = state.next(action)
    assert results['lose'] > 50 and results['draw'] > 0


def simple_perft(simple, depth):
    if simple.winner is not None:
        return 0
    moves = simple.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = SimpleShogi()
        child.board, child.hands = [row[:] for row in simple.board], {k: v[:] for k, v in simple.hands.items()}
        child.player, child.plies = simple.player, simple.plies
        child.play(move)
        total += simple_perft(child, depth - 1)
    return total


def test_perft_from_the_start_agrees_with_the_simple_implementation():
    counts = [perft(State(), depth) for depth in range(1, 6)]
    assert counts == [simple_perft(SimpleShogi(), depth) for depth in range(1, 6)]
    assert counts == [4, 17, 123, 976, 8095]  # quoted in docs/games.md


def position(rows, hand=(), enemy_hand=(), depth=0):
    """A state from the side to move's view: rows of 'C', 'E', 'G', 'L' (its pieces), lower case for the opponent's."""
    pieces, enemy = [0] * 15, [0] * 15
    for square, letter in enumerate(''.join(rows)):
        if letter.upper() in 'CEGL':
            (pieces if letter.isupper() else enemy)[square if letter.isupper() else 11 - square] = 'CEGL'.index(letter.upper()) + 1
    for piece in hand:
        pieces[11 + piece] += 1
    for piece in enemy_hand:
        enemy[11 + piece] += 1
    return State(pieces, enemy, depth)


def moves_of(state, square):
    """The destinations of the piece on `square`."""
    return sorted(a // 11 for a in state.legal_actions() if a % 11 < 8 and shogi.source_of(a // 11, a % 11) == square)


def test_each_piece_moves_as_it_should_near_the_edges():
    assert moves_of(position(['L..', '...', '...', '..l']), 0) == [1, 3, 4]          # lion in a corner
    assert moves_of(position(['...', '.L.', '...', '..l']), 4) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert moves_of(position(['G..', '...', '...', 'L.l']), 0) == [1, 3]             # giraffe: orthogonal
    assert moves_of(position(['E..', '...', '...', 'L.l']), 0) == [4]                # elephant: diagonal
    assert moves_of(position(['...', 'E..', '...', 'L.l']), 3) == [1, 7]
    assert moves_of(position(['C..', '...', '...', 'L.l']), 0) == []                 # a chick at the far end is stuck
    assert moves_of(position(['...', '.C.', '...', 'L.l']), 4) == [1]                # no promotion, one step forward
    assert moves_of(position(['...', 'LG.', '...', '..l']), 3) == [0, 1, 6, 7]       # own pieces block
    assert moves_of(position(['...', 'LG.', '...', '..l']), 4) == [1, 5, 7]


def test_captures_go_to_the_hand_drops_go_anywhere_empty_and_the_lion_capture_ends_the_game():
    state = position(['...', '.c.', '.G.', 'L.l'])
    after = state.next(4 * 11 + 0)  # our giraffe (b3) takes the chick on b2
    assert after.enemy_pieces[12:] == [1, 0, 0] and sum(1 for c in after.cells() if c) == 3  # in our hand
    # A chick in hand drops on any empty square, and leaves the hand
    state = position(['...', '...', '...', 'L.l'], hand=[CHICK])
    drops = [a for a in state.legal_actions() if a % 11 == shogi.DROP]
    assert sorted(a // 11 for a in drops) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10]
    dropped = state.next(4 * 11 + shogi.DROP)
    assert dropped.enemy_pieces[4] == CHICK and dropped.enemy_pieces[12] == 0
    # Taking the lion wins at once, and the lion goes to no hand
    won = position(['...', '...', '.l.', 'L..']).next(7 * 11 + 1)   # our lion (a4) takes theirs on b3
    assert won.is_lose() and won.is_done() and won.enemy_pieces[12:] == [0, 0, 0]


def test_a_player_who_cannot_move_has_lost():
    state, simple = State(), SimpleShogi()
    for action in STALEMATE:
        assert not state.is_done() and action in state.legal_actions()
        simple.play(decode(state, action))
        state = state.next(action)
    assert state.legal_actions() == [] and LION in state.pieces[:12]
    assert state.is_lose() and state.is_done() and not state.is_draw()
    assert simple.winner == 1  # the first player, who made the last move
    # The same blocked position at ply 300 is lost too, not drawn
    late = State(state.pieces, state.enemy_pieces, 300)
    assert late.is_lose() and not late.is_draw()


def test_a_game_is_drawn_after_300_plies():
    state = position(['l..', '...', '...', '..L'], depth=299)
    assert not state.is_done()
    after = state.next(state.legal_actions()[0])
    assert after.depth == 300 and after.is_draw() and after.is_done() and not after.is_lose()


def random_state(rng, plies):
    """The position after up to `plies` random moves from the start (fewer when the game ends)."""
    state = State()
    for _ in range(plies):
        if state.is_done():
            break
        state = state.next(rng.choice(state.legal_actions()))
    return state


def test_every_legal_action_decodes_to_its_move_and_back():
    rng = random.Random(2)
    for _ in range(100):
        state = random_state(rng, rng.randrange(20))
        if state.is_done():
            continue
        names = {shogi.action_name(state, a): a for a in state.legal_actions()}
        assert len(names) == len(state.legal_actions())                 # different moves, different names
        for name, action in names.items():
            assert shogi.parse_action(state, name) == action            # and back
        assert all(0 <= a < shogi.ACTION_COUNT for a in names.values())


def test_planes_show_both_sides_on_one_board():
    state = position(['e.g', '.c.', '.C.', 'GLE'], hand=[CHICK], enemy_hand=[GIRAFFE, GIRAFFE])
    planes = state.planes()
    assert planes.shape == (4, 3, 14)
    assert planes[2, 1, 0] == 1 and planes[3, 0, 2] == 1 and planes[3, 1, 3] == 1    # our chick, giraffe, lion
    assert planes[1, 1, 7] == 1 and planes[0, 0, 8] == 1 and planes[0, 2, 9] == 1    # their chick, elephant, giraffe
    assert (planes[..., 4] == 1).all() and (planes[..., 5] == 0).all()               # we hold a chick
    assert (planes[..., 13] == 1).all() and (planes[..., 11] == 0).all()             # they hold giraffes
    assert planes[..., 10].sum() == 0                                                # their lion is gone


def test_the_mirror_maps_positions_to_positions_and_moves_to_moves():
    (_, _), (square_mirror, action_mirror) = shogi.SYMMETRIES
    rng = random.Random(3)
    for _ in range(50):
        state = random_state(rng, rng.randrange(12))
        mirrored = State([state.pieces[s] for s in square_mirror] + state.pieces[12:],
                         [state.enemy_pieces[s] for s in square_mirror] + state.enemy_pieces[12:], state.depth)
        assert sorted(action_mirror[a] for a in state.legal_actions()) == mirrored.legal_actions()
        np.testing.assert_array_equal(mirrored.planes().reshape(12, 14), state.planes().reshape(12, 14)[list(square_mirror)])
        for action in state.legal_actions():
            after, mirrored_after = state.next(action), mirrored.next(action_mirror[action])
            assert mirrored_after.pieces == [after.pieces[s] for s in square_mirror] + after.pieces[12:]


@pytest.mark.parametrize('depth', [1, 2])
def test_alpha_beta_takes_the_lion_when_it_can(depth):
    state = position(['...', '...', '.l.', 'L.G'])
    assert shogi.opponents()[f'VS_AlphaBeta{depth}'](state) == 7 * 11 + 1   # the lion takes the lion


@pytest.mark.slow
def test_a_human_plays_a_whole_text_game_by_move_names(capsys):
    import re
    from alphazero.network.runtimes import KerasNetwork
    from conftest import tiny_model
    from alphazero.play.agent import Agent
    from human_play import ai_action, play_text
    asked = []

    def read(prompt):  # one illegal answer, then the last move offered (or the example)
        asked.append(re.search(r'\((?:for example )?(.*)\): $', prompt).group(1).split())
        return 'z9z9' if len(asked) == 1 else asked[-1][-1].lower()
    ended = play_text(shogi, ai_action(Agent(shogi, KerasNetwork(tiny_model(0, rules=shogi)), SearchSettings(sims=4))), True, read)
    out = capsys.readouterr().out
    assert ended.is_done() and asked[0] == ['b3b2', 'a4a3', 'b4a3', 'b4c3']
    assert "'z9z9' is not a legal move here (b3b2 a4a3 b4a3 b4c3)" in out
    assert 'AI plays ' in out and re.search(r'the (first|second) player wins after \d+ moves|drawn after', out)
    assert out.strip().splitlines()[-1] in ('You win', 'You lose', 'Draw')
    assert 'hand: ' in out and 'You play the light pieces, moving up the board' in out and 'first player\'s pieces in capitals' in out


def test_moves_of_simple_shogi_in_japanese():
    """KI2's way for the book's simple shogi: the side, the square (files 3-1, ranks 一-四), the piece,
    打 for a drop; typed back in any of the ways players write them."""
    state = shogi.State()
    names = [shogi.japanese_name(state, a) for a in state.legal_actions()]
    assert names == ['▲２二ひよこ', '▲３三キリン', '▲３三ライオン', '▲１三ライオン']
    for typed in ('▲２二ひよこ', '２二ひよこ', '22ひよこ', '2二ヒヨコ', 'b3b2'):
        assert shogi.parse_action(state, typed) == state.legal_actions()[0], typed
    assert shogi.parse_action(state, '３三ライオン') == state.legal_actions()[2] and shogi.parse_action(state, '２一ひよこ') is None
    took = state.next(state.legal_actions()[0])  # the chicks meet: ▲ takes △'s, and △'s lion takes back
    took = took.next(shogi.parse_action(took, '△２二ライオン'))
    drops = [a for a in took.legal_actions() if shogi.japanese_name(took, a).endswith('ひよこ打')]
    assert len(drops) == 6  # ▲ holds a chick, and no chick of its own is on the board: 打 may be left out
    for action in drops:
        assert shogi.parse_action(took, shogi.japanese_name(took, action)) == action
        assert shogi.parse_action(took, shogi.japanese_name(took, action)[1:-1]) == action


def test_gtp_refuses_shogi_in_one_line(workdir):
    from conftest import run_script
    result = run_script('gtp_engine.py', '--game', 'shogi', cwd=workdir, timeout=60)
    assert result.returncode == 2 and result.stderr.strip().startswith('error: shogi cannot be played over GTP')


def test_random_openings_never_hang_a_lion():
    # 4 of the 17 two-ply openings let the first player take the lion at once: a match started there
    # would be decided by its opening, not by its players
    from alphazero.play.openings import distinct_openings
    openings = distinct_openings(shogi, 2, 17, np.random.default_rng(0))
    for moves in openings:
        state = State()
        for action in moves:
            state = state.next(action)
        assert not any(state.next(action).is_lose() for action in state.legal_actions())
    assert len({tuple(moves) for moves in openings}) == 13


def test_fairy_stockfish_plays_the_same_game(workdir):
    """Fairy-Stockfish told the rules (engines/variants.ini) counts the same move trees as games/shogi/game.py:
    an established program as the second implementation, and a referee for later matches."""
    import os
    import subprocess
    from conftest import REPO, need
    program = '/usr/games/fairy-stockfish'
    need(os.access(program, os.X_OK), "Fairy-Stockfish", 'apt-get install fairy-stockfish')
    variants = os.path.join(REPO, 'engines', 'variants.ini')
    commands = (f'uci\nsetoption name VariantPath value {variants}\nsetoption name UCI_Variant value simpleshogi\n'
                'isready\n' + ''.join(f'position startpos\ngo perft {depth}\n' for depth in range(1, 7)) + 'quit\n')
    output = subprocess.run([program], input=commands, capture_output=True, text=True, timeout=120).stdout
    counts = [int(line.split(':')[1]) for line in output.splitlines() if line.startswith('Nodes searched')]
    assert counts == [perft(State(), depth) for depth in range(1, 7)] == [4, 17, 123, 976, 8095, 71631]


def test_fairy_stockfish_sees_our_positions_and_moves():
    """Every position we send Fairy-Stockfish (uci_position) has, for it, exactly our legal moves in
    its notation (uci_move): positions from random games, hands and both sides to move."""
    import os
    import subprocess
    from conftest import need
    from games.shogi.game import ENGINE_OPTIONS, uci_move
    program = '/usr/games/fairy-stockfish'
    need(os.access(program, os.X_OK), "Fairy-Stockfish", 'apt-get install fairy-stockfish')
    rng = np.random.default_rng(5)
    states = [s for s in (random_state(rng, int(rng.integers(0, 40))) for _ in range(60)) if not s.is_done()]
    commands = 'uci\n' + '\n'.join(ENGINE_OPTIONS) + '\nisready\n'
    commands += ''.join(f'position {s.uci_position()}\ngo perft 1\n' for s in states) + 'quit\n'
    output = subprocess.run([program], input=commands, capture_output=True, text=True, timeout=120).stdout
    blocks = output.split('Nodes searched')[:-1]
    assert len(blocks) == len(states)
    for state, block in zip(states, blocks):
        theirs = sorted(line.split(':')[0] for line in block.splitlines() if re.fullmatch(r'\S+: 1', line))
        assert theirs == sorted(uci_move(state, a) for a in state.legal_actions()), str(state)
    assert any(sum(state.hands()[0].values()) + sum(state.hands()[1].values()) for state in states)
    assert {state.is_first_player() for state in states} == {True, False}


def test_fairy_stockfish_plays_matches_over_uci(workdir):
    from conftest import need
    import os
    need(os.access('/usr/games/fairy-stockfish', os.X_OK), "Fairy-Stockfish", 'apt-get install fairy-stockfish')
    from alphazero.game.registry import load_game
    from alphazero.play.players import FunctionPlayer
    from alphazero.engines.players import engine_player
    from alphazero.play.matches import play_match
    rules = load_game('shogi')
    with engine_player('/usr/games/fairy-stockfish; go depth 3', rules) as engine:
        points = play_match(rules, FunctionPlayer(rules.opponents()['VS_Random']), engine, 6)
    # Random moves against a real engine lose every game
    assert points == [0] * 6


def test_an_engine_player_gives_each_game_its_own_process_from_one_call_to_the_next(monkeypatch):
    """evaluate_levels.py meets the same engine player in one play_games call after another, whose
    games are numbered from 0 each time: a game of the new call must not take the process that the
    old call's game of its number had, nor have it taken away while the engine thinks for it (that
    left a game waiting for an answer that never came)."""
    from conftest import need
    import os
    need(os.access('/usr/games/fairy-stockfish', os.X_OK), "Fairy-Stockfish", 'apt-get install fairy-stockfish')
    from alphazero.game.registry import load_game
    from alphazero.play.players import FunctionPlayer
    from alphazero.engines.players import engine_player
    from alphazero.play.loop import play_games
    monkeypatch.setattr('alphazero.engines.gtp.ENGINE_TIMEOUT', 10)
    rules = load_game('shogi')
    random_player = FunctionPlayer(rules.opponents()['VS_Random'])
    with engine_player('/usr/games/fairy-stockfish; go depth 1', rules) as engine:
        first = play_games(rules.State, [(engine, random_player)])
        second = play_games(rules.State, [(engine, random_player)] * 2)  # the engine asked for games 0 and 1 at once
    assert all(game.over() and game.state.is_lose() for game in first + second)  # the random player lost them all
