"""The rules of Connect Four and Othello, checked against published perft counts and against a
second, deliberately simple implementation (lists of squares, walking each direction)."""
import random
import re

import numpy as np

import pytest

from alphazero.settings import SearchSettings
from alphazero.errors import UserError
from alphazero.game.registry import GAMES, load_game
from alphazero.game.opponents import WIN, alpha_beta, alpha_beta_player, random_action
from alphazero.cli.settings import ALL_PURPOSES, read_recipe
from references import SimpleOthello, perft

connect4 = load_game('connect4')
othello6 = load_game('othello6')
othello8 = load_game('othello8')


def test_othello8_perft_matches_published_counts():
    # OEIS A124004 (the number of Othello games of n plies): 4, 12, 56, 244, 1396, 8200, 55092
    assert [perft(othello8.State(), d) for d in range(1, 8)] == [4, 12, 56, 244, 1396, 8200, 55092]


def test_connect4_perft_matches_published_counts():
    # 7^n until a column can fill up; at ply 7 the 7 sequences that filled one column lose a move
    # (OEIS A212693: 7, 49, 343, 2401, 16807, 117649, 823536)
    assert [perft(connect4.State(), d) for d in range(1, 8)] == [7, 49, 343, 2401, 16807, 117649, 823536]


# ----- a simple second implementation -----
class SimpleConnect4:
    def __init__(self, board=None, player=1):
        self.board = board or [[0] * 7 for _ in range(6)]  # row 0 at the top; +1 first, -1 second
        self.player = player

    def legal_actions(self):
        return [c for c in range(7) if self.board[0][c] == 0]

    def next(self, column):
        board = [row[:] for row in self.board]
        row = max(r for r in range(6) if board[r][column] == 0)
        board[row][column] = self.player
        return SimpleConnect4(board, -self.player)

    def winner(self):
        for r in range(6):
            for c in range(7):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(4)]
                    if all(0 <= y < 6 and 0 <= x < 7 for y, x in cells):
                        owners = {self.board[y][x] for y, x in cells}
                        if len(owners) == 1 and 0 not in owners:
                            return owners.pop()
        return 0


def random_games(game, simple, count, seed):
    """Play random games in both implementations side by side; yield each pair of positions."""
    rng = random.Random(seed)
    for _ in range(count):
        state, other = game.State(), simple()
        yield state, other
        while not state.is_done():
            action = rng.choice(state.legal_actions())
            state, other = state.next(action), other.next(action)
            yield state, other


def test_connect4_agrees_with_the_simple_rules_over_random_games():
    ended = {'win': 0, 'draw': 0}
    for state, other in random_games(connect4, SimpleConnect4, 300, seed=1):
        cells = [v for row in other.board for v in row]
        assert state.cells() == cells
        assert state.is_first_player() == (other.player == 1)
        winner = other.winner()
        assert state.is_lose() == (winner != 0)
        assert state.is_draw() == (winner == 0 and 0 not in cells)
        if not state.is_done():
            assert state.legal_actions() == other.legal_actions()
        else:
            ended['win' if winner else 'draw'] += 1
    assert ended['win'] > 250  # the games did end in wins (and the check ran on them)


@pytest.mark.parametrize('game', [othello6, othello8], ids=['othello6', 'othello8'])
def test_othello_agrees_with_the_simple_rules_over_random_games(game):
    size = game.BOARD_SHAPE[0]
    passes = 0
    for state, other in random_games(game, lambda: SimpleOthello(size, game.State().cells()), 60, seed=2):
        assert state.cells() == other.board
        assert state.is_done() == other.is_done()
        if state.is_done():
            first, second = other.board.count(1), other.board.count(-1)
            mine, theirs = (first, second) if state.is_first_player() else (second, first)
            assert state.is_lose() == (mine < theirs) and state.is_draw() == (mine == theirs)
        else:
            assert state.legal_actions() == other.legal_actions()
            passes += state.legal_actions() == [game.PASS]
    assert passes > 0  # some random game had to pass


def test_the_8_planes_agree_with_the_simple_rules_and_turn_with_the_board():
    planes_game = load_game('othello8planes')
    assert planes_game.INPUT_SHAPE == (8, 8, 8) and planes_game.ACTION_COUNT == othello8.ACTION_COUNT
    corner_c_x = {0, 1, 6, 7, 8, 9, 14, 15, 48, 49, 54, 55, 56, 57, 62, 63}
    checked = 0
    for state, other in random_games(planes_game, lambda: SimpleOthello(8, othello8.State().cells()), 10, seed=4):
        planes = state.planes().reshape(64, 8)
        me = other.player
        assert planes[:, 0].tolist() == [float(c == me) for c in other.board]
        assert planes[:, 1].tolist() == [float(c == -me) for c in other.board]
        assert planes[:, 2].tolist() == [float(c == 0) for c in other.board]
        flips = [len(other.flips(s, me)) if other.board[s] == 0 else 0 for s in range(64)]
        assert planes[:, 3].tolist() == [float(f > 0) for f in flips] and planes[:, 4].tolist() == flips
        assert {s for s in range(64) if planes[s, 5]} == corner_c_x
        assert (planes[:, 6] == 1).all() and (planes[:, 7] == 0).all()
        # The same rules as the book's encoding, so the two games can be compared
        book = othello8.State(state.pieces, state.enemy_pieces, state.depth)
        assert np.array_equal(state.planes()[..., :2], book.planes()) and state.legal_actions() == book.legal_actions()
        checked += 1
    # Every plane turns with the board: the planes of a turned position are the turned planes
    rng = random.Random(5)
    state = planes_game.State()
    for _ in range(20):
        state = state.next(rng.choice(state.legal_actions()))
    cells = np.array(state.cells())
    for squares, _ in planes_game.SYMMETRIES:
        turned = cells[list(squares)]
        first, second = (sum(1 << i for i in range(64) if turned[i] == v) for v in (1, -1))
        moved = planes_game.State(*((first, second) if state.is_first_player() else (second, first)), state.depth)
        assert np.array_equal(moved.planes().reshape(64, 8), state.planes().reshape(64, 8)[list(squares)])
    assert checked > 300


# ----- Othello: passes, the end of the game and the score -----
def othello_state(game, rows, first_to_move=True):
    """A position from text: o = first player, x = second player, - = empty."""
    size = game.BOARD_SHAPE[0]
    text = ''.join(rows)
    first = sum(1 << i for i, ch in enumerate(text) if ch == 'o')
    second = sum(1 << i for i, ch in enumerate(text) if ch == 'x')
    assert len(text) == size * size
    return game.State(first, second, 0) if first_to_move else game.State(second, first, 1)


def test_othello_pass_is_the_only_move_when_no_square_is_legal():
    # The first player has no move (x cannot be outflanked), the second player has one
    state = othello_state(othello6, ['xo----', '------', '------', '------', '------', '------'])
    assert state.legal_actions() == [othello6.PASS]
    assert not state.is_done()
    after_pass = state.next(othello6.PASS)
    assert not after_pass.is_first_player() and after_pass.legal_actions() == [2]
    assert str(after_pass) == str(state)  # a pass changes nothing on the board
    # human_play passes for the human, who has no square to click
    from human_play import forced_action
    assert forced_action(state, othello6) == othello6.PASS and forced_action(after_pass, othello6) is None


def test_othello_ends_when_neither_side_can_move_and_counts_discs():
    # Not full, but nobody can move: the first player has 3 discs against 2 and wins
    state = othello_state(othello6, ['ooo---', '------', '------', '------', '------', '---xx-'])
    assert state.is_done() and not state.is_lose() and not state.is_draw()
    assert state.next(othello6.PASS).is_lose()  # seen from the loser's side
    equal = othello_state(othello6, ['oo----', '------', '------', '------', '------', '---xx-'])
    assert equal.is_done() and equal.is_draw() and not equal.is_lose()


def test_othello_full_board_ends_the_game():
    state = othello_state(othello6, ['o' * 6] * 2 + ['ooooox', 'x' * 6, 'xxxxxo', 'xxxxx-'], first_to_move=False)
    assert not state.is_done() and state.legal_actions() == [35]
    last = state.next(35)  # x plays the last square, turning over the o above it: 19 x to 17 o
    assert last.is_done() and last.is_lose()  # the first player, to move, has fewer discs
    assert last.cells().count(1) + last.cells().count(-1) == 36


# ----- what the network sees -----
STONE_GAMES = sorted(set(GAMES) - {'shogi', 'shogi9'})  # games of stones; test_shogi*.py check the pieces and planes


@pytest.mark.parametrize('name', STONE_GAMES)
def test_planes_keep_the_board_geometry(name):
    game = load_game(name)
    rows, columns = game.BOARD_SHAPE
    state = game.State()
    rng = random.Random(3)
    for _ in range(7):
        state = state.next(rng.choice(state.legal_actions()))
    planes = state.planes()
    assert planes.shape == game.INPUT_SHAPE and planes.dtype == np.float32
    # Plane 0 holds the side to move's stones, plane 1 the opponent's, square (r, c) at [r, c]
    sign = 1 if state.is_first_player() else -1
    cells = np.array(state.cells()).reshape(rows, columns) * sign
    assert np.array_equal(planes[..., 0], cells == 1) and np.array_equal(planes[..., 1], cells == -1)


def image_of_start(game, square_permutation, start):
    """The start position seen through a symmetry (Othello's four discs are not symmetric; a
    point-Othello game keeps its values)."""
    if not any(start.cells()):
        return start
    image = [start.cells()[i] for i in square_permutation]
    bits = (sum(1 << i for i, v in enumerate(image) if v == 1), sum(1 << i for i, v in enumerate(image) if v == -1), 0)
    return game.State(start.sequence, game.RULES.State(*bits)) if hasattr(game, 'RULES') else game.State(*bits)


@pytest.mark.parametrize('name', STONE_GAMES)
def test_symmetries_map_positions_to_positions_and_moves_to_moves(name):
    game = load_game(name)
    rng = random.Random(4)
    for square_permutation, action_permutation in game.SYMMETRIES:
        # Play a random game and its image side by side: the image's legal moves are the images
        # of the legal moves, and its board is the image of the board, at every ply
        inverse = np.argsort(action_permutation)
        state = game.State()
        image = image_of_start(game, square_permutation, state)
        while not state.is_done():
            assert sorted(image.legal_actions()) == sorted(int(inverse[a]) for a in state.legal_actions())
            assert image.cells() == [state.cells()[i] for i in square_permutation]
            action = rng.choice(state.legal_actions())
            state, image = state.next(action), image.next(int(inverse[action]))
        assert image.is_lose() == state.is_lose() and image.is_draw() == state.is_draw()


# ----- the fixed-depth opponents -----
def test_alpha_beta_takes_a_win_and_blocks_a_loss_in_connect4():
    state = connect4.State()
    for column in (0, 6, 0, 6, 0):  # o has three in column 0; x has two in column 6
        state = state.next(column)
    # x to move must block column 0 at depth 2; o to move wins there at depth 1
    assert alpha_beta_player(connect4.heuristic, 2)(state) == 0
    assert alpha_beta_player(connect4.heuristic, 1)(state.next(6)) == 0


def negamax(state, depth, heuristic):
    """The same search without cut-offs."""
    if state.is_done():
        return -WIN - depth if state.is_lose() else 0 if state.is_draw() else WIN + depth
    if depth == 0:
        return heuristic(state)
    return max(-negamax(state.next(action), depth - 1, heuristic) for action in state.legal_actions())


@pytest.mark.parametrize('game', [connect4, othello6], ids=['connect4', 'othello6'])
def test_alpha_beta_cut_offs_keep_the_minimax_value(game):
    rng = random.Random(6)
    for _ in range(30):
        state = game.State()
        for _ in range(rng.randrange(20)):
            if not state.is_done():
                state = state.next(rng.choice(state.legal_actions()))
        for depth in (1, 2, 3):
            assert alpha_beta(state, depth, -float('inf'), float('inf'), game.heuristic) == negamax(state, depth, game.heuristic)


def test_alpha_beta_beats_random_at_othello():
    random.seed(5)
    player = alpha_beta_player(othello6.heuristic, 2)
    wins = 0
    for game_index in range(20):
        state = othello6.State()
        while not state.is_done():
            ours = state.is_first_player() == (game_index % 2 == 0)
            state = state.next(player(state) if ours else random_action(state))
        ours_to_move = state.is_first_player() == (game_index % 2 == 0)
        wins += state.is_lose() != ours_to_move and not state.is_draw()
    assert wins >= 12  # counting discs two moves ahead wins about 3 games in 4


# ----- training targets -----
@pytest.mark.parametrize('name', sorted(GAMES))
def test_value_targets_are_each_movers_result_even_from_a_random_opening(name):
    from alphazero.play.loop import LiveGame
    from alphazero.data.targets import games_to_arrays
    from alphazero.play.openings import random_opening
    from self_play import first_player_value
    game = load_game(name)
    rng = np.random.default_rng(9)
    results = []
    for _ in range(20):
        state = game.State()
        for action in random_opening(game, 5, rng):
            state = state.next(action)
        assert not state.is_done()
        movers, moves, records = [], [], []
        while not state.is_done():
            movers.append(state.is_first_player())
            records.append((state.planes(), np.zeros(game.ACTION_COUNT, np.float32), len(moves), None))
            moves.append(int(rng.choice(state.legal_actions())))
            state = state.next(moves[-1])
        _, _, values = games_to_arrays([LiveGame(0, state, moves=moves, records=records)])
        first = first_player_value(state)
        assert list(values) == [first if mover else -first for mover in movers]
        results.append(first)
    assert len(set(results)) > 1  # both sides won some games


# ----- playing them -----
def offered(prompt):
    """The moves a prompt offers: 'your move (d3 c4 f5 e6): ', or its example 'for example h8'."""
    listed = re.search(r'[(（](?:for example |例: )?(.*)[)）]: $', prompt).group(1)
    return listed.split()


@pytest.mark.slow
@pytest.mark.parametrize('name', ['connect4', 'othello6', 'pointothello', 'gomoku'])
def test_a_human_plays_a_whole_text_game(name, capsys):
    from alphazero.network.runtimes import KerasNetwork
    from conftest import tiny_model
    from alphazero.game.notation import action_names
    from alphazero.play.agent import Agent, Style
    from human_play import ai_action, board_text, play_text
    game = load_game(name)
    # The human types the last legal move offered, after one illegal answer
    answers = []

    def read(prompt):
        answers.append(offered(prompt))
        return 'x' if len(answers) == 1 else answers[-1][-1]
    ai = ai_action(Agent(game, KerasNetwork(tiny_model(0, rules=game)), SearchSettings(sims=4), Style(with_lines=True)))
    ended = play_text(game, ai, name == 'connect4', read)
    assert ended.is_done() and len(answers) > 3
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] in ('You win', 'You lose', 'Draw')
    state = game.State()
    if name == 'gomoku':  # too many moves to list: an example
        assert len(answers[0]) == 1 and f"'x' is not a legal move here (for example {answers[0][0]})" in out
        return
    # Columns a, b, ... above, rows 1, 2, ... beside; * marks exactly the legal squares
    board = board_text(state, game).splitlines()
    rows, columns = game.BOARD_SHAPE
    assert board[0].split() == list('abcdefgh'[:columns])
    marked = {f'{"abcdefgh"[x]}{y + 1}' for y, line in enumerate(board[1:rows + 1]) for x, cell in enumerate(line.split()[1:])
              if cell == '*'}
    if name == 'pointothello':  # stones show their values; the scores and the values to place follow
        assert '●+0' in board_text(state, game) and board[-1].startswith('score: ● 0, ○ 0; to place now:')
        marked = {f'{"abcdefgh"[x]}{y + 1}' for y, line in enumerate(board[1:rows + 1])
                  for x, cell in enumerate(re.findall(r'\S+', line)[1:]) if cell == '*'}
    if name == 'connect4':  # moves are columns: nothing marked, the letters above are the moves
        assert 'Type a column\'s letter (d).' in out and marked == set()
        full = game.State()
        for _ in range(6):
            full = full.next(3)
        assert [line.split()[1:] for line in board_text(full, game).splitlines()[1:7]] == \
            [list('...' + mark + '...') for mark in '○●○●○●']
        assert offered('your move (' + ' '.join(answers[0]) + '): ') == list('abcdefg')
    else:
        assert marked == {action_names(game)[a] for a in state.legal_actions()}


def test_each_game_brings_its_training_defaults_and_flags_still_win():
    import train_cycle
    book = train_cycle.parse_args([])
    assert (book.filters, book.blocks, book.games, book.sims, book.gate) == (128, 16, 500, 50, True)
    for name in GAMES:
        args = train_cycle.parse_args(['--game', name])
        recipe = read_recipe(name)
        assert all(getattr(args, key) == value for purpose in ALL_PURPOSES for key, value in recipe.get(purpose, {}).items())
        assert (name == 'tictactoe') == (recipe == {})
    assert train_cycle.parse_args(['--game', 'othello8', '--sims', '9']).sims == 9
    # Each stage takes only the part of the recipe for its purpose: the players keep what the model records
    import evaluate_best_player
    import human_play
    import self_play
    assert self_play.parse_args(['--game', 'connect4']).games == 200  # games/connect4/recipe.py
    assert evaluate_best_player.parse_args(['--game', 'connect4']).games == evaluate_best_player.EP_GAME_COUNT
    assert human_play.parse_args(['--game', 'connect4']).sims is None
    # ... and the stages that save a model take what it is to record
    import train_network
    assert train_network.parse_args(['--game', 'othello8']).play_sims == read_recipe('othello8')['play']['play_sims']
    assert train_network.parse_args(['--game', 'othello6']).play_sims is None  # no play in its recipe


def test_a_misspelt_setting_in_a_recipe_or_a_preset_is_an_error(tmp_path, monkeypatch):
    import alphazero.cli.settings as settings
    import train_cycle
    monkeypatch.setattr(settings, 'recipe_path', lambda name: str(tmp_path / 'recipe.py'))
    (tmp_path / 'recipe.py').write_text("exploration = dict(dirichet=0.3)\n")
    with pytest.raises(UserError, match="'dirichet' is not one of its settings"):
        train_cycle.parse_args(['--game', 'connect4'])
    (tmp_path / 'recipe.py').write_text("explore = dict(dirichlet=0.3)\n")
    with pytest.raises(UserError, match="'explore' is not a purpose of a recipe"):
        train_cycle.parse_args(['--game', 'connect4'])
    (tmp_path / 'recipe.py').write_text('')
    with pytest.raises(UserError, match="'dirichet' is not one of its settings"):
        settings.recipe_defaults('othello8', settings.ALL_PURPOSES, {'dirichet': 0.3})


def test_the_text_player_speaks_japanese_and_plays_a_level(capsys):
    """--lang ja (or a Japanese locale): the terminal's words in Japanese; --level 1: the policy alone."""
    from alphazero.network.runtimes import KerasNetwork
    from alphazero.play.levels import standard_levels
    from alphazero.cli.words import language, words
    from conftest import tiny_model
    from alphazero.play.agent import Agent, Style
    from human_play import ai_action, parse_args, play_text
    game = load_game('connect4')
    assert language(None, {'LANG': 'ja_JP.UTF-8'}) == 'ja' and language(None, {'LANG': 'C.UTF-8'}) == 'en'
    assert language(None, {'LC_ALL': 'en_US.UTF-8', 'LANG': 'ja_JP.UTF-8'}) == 'en' and language('ja', {}) == 'ja'
    assert parse_args(['--lang', 'ja', '--level', '2']).level == 2
    answers = []

    def read(prompt):
        answers.append(prompt)
        return 'x' if len(answers) == 1 else offered(prompt)[-1]
    ai = ai_action(Agent(game, KerasNetwork(tiny_model(0, rules=game)), SearchSettings(sims=50), Style(standard_levels(50)[0])))
    saved = []
    ended = play_text(game, ai, True, read, said=words('ja'), save=lambda *record: saved.append(record))
    # the policy alone still leaves its evaluation of each of its moves in the record: the network's value, its move
    actions, _, _, evaluations = saved[0]
    assert len(evaluations) == len(actions) // 2 and all(
        -1 <= value <= 1 and list(line) == [actions[ply]] for ply, (value, line) in evaluations.items())
    out = capsys.readouterr().out
    assert ended.is_done() and answers[0] == 'あなたの手（a b c d e f g）: '
    assert 'あなたは ●（赤）です。列の文字を入力してください（d）。' in out and '投了 で投了、待った で' in out
    assert "'x' は指せません" in out and 'AI の手: ' in out and 'ａｂｃｄｅｆｇ' in out
    assert out.strip().splitlines()[-1] in ('あなたの勝ち', 'あなたの負け', '引き分け')


@pytest.mark.slow
def test_a_japanese_othello_game_in_the_terminal_ends_with_the_disc_count(capsys):
    """8x8 Othello in Japanese, each move typed in full-width letters and digits (ｆ５) as the board's
    header shows them: the game ends with each colour's discs (黒 N – 白 M) and the result; a pass is
    said in Japanese."""
    from alphazero.network.runtimes import KerasNetwork
    from alphazero.cli.words import words
    from conftest import tiny_model
    from alphazero.play.agent import Agent
    from human_play import ai_action, move_text, play_text
    game = load_game('othello8')
    wide = str.maketrans('abcdefgh12345678', 'ａｂｃｄｅｆｇｈ１２３４５６７８')

    def read(prompt):
        return offered(prompt)[0].translate(wide)
    ai = ai_action(Agent(game, KerasNetwork(tiny_model(0, rules=game)), SearchSettings(sims=2)))
    ended = play_text(game, ai, True, read, said=words('ja'))
    lines = capsys.readouterr().out.strip().splitlines()
    cells = ended.cells()
    assert ended.is_done() and lines[-2] == f'黒 {cells.count(1)} – 白 {cells.count(-1)}'
    assert lines[-1] in ('あなたの勝ち', 'あなたの負け', '引き分け')
    assert move_text(game, game.State(), game.PASS, words('ja')) == 'パス' and move_text(game, game.State(), game.PASS) == 'pass'
