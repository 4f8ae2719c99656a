"""Gomoku, the worked example of docs/adding-a-game.md: its rules against a second, deliberately
simple implementation (a 2-D board scanned from every stone), perft counts, and the contract. The
generic tests of every game (planes, symmetries, networks, the text player, GTP, the page's rules)
take it up from the registry like any other game."""
import random

import pytest

from games.gomoku import game as gomoku
from alphazero.game.contract import ContractError, check_game
from alphazero.game.registry import GAMES, load_game

SIZE, ROW = 7, 5


def five_in_a_row(board, player):
    """Whether `player` has ROW in a row on a 2-D board: walk from every one of its stones."""
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = 0
                while 0 <= r + dr * run < SIZE and 0 <= c + dc * run < SIZE and board[r + dr * run][c + dc * run] == player:
                    run += 1
                if run >= ROW:
                    return True
    return False


def simple_game(moves):
    """(winner: 1 first, 2 second, 0 none, the ply it ended on or None) of a move list on a 2-D board."""
    board = [[0] * SIZE for _ in range(SIZE)]
    for ply, square in enumerate(moves):
        player = 1 + ply % 2
        assert board[square // SIZE][square % SIZE] == 0
        board[square // SIZE][square % SIZE] = player
        if five_in_a_row(board, player):
            return player, ply
        if ply == SIZE * SIZE - 1:
            return 0, ply
    return 0, None


def test_the_rules_agree_with_a_simple_implementation_over_random_games():
    rng = random.Random(5)
    endings = {0: 0, 1: 0, 2: 0}
    for _ in range(300):
        state, moves = gomoku.State(), []
        while not state.is_done():
            assert state.legal_actions() == [s for s in range(SIZE * SIZE) if s not in moves]
            moves.append(rng.choice(state.legal_actions()))
            state = state.next(moves[-1])
        winner, ended = simple_game(moves)
        assert ended == len(moves) - 1
        assert state.is_lose() == (winner != 0) and state.is_draw() == (winner == 0)
        assert (winner == 1) == (state.is_lose() and not state.is_first_player())
        endings[winner] += 1
    assert all(endings.values())  # wins by either side and draws were all met


def test_perft_counts():
    def perft(state, depth):
        if depth == 0 or state.is_done():
            return 1
        return sum(perft(state.next(a), depth - 1) for a in state.legal_actions())
    assert [perft(gomoku.State(), d) for d in (1, 2, 3)] == [49, 49 * 48, 49 * 48 * 47]


def test_lines_at_the_edges_and_overlines_win():
    for line in ((0, 1, 2, 3, 4), (2, 10, 18, 26, 34), (4, 10, 16, 22, 28), (6, 13, 20, 27, 34)):
        pieces = [1 if s in line else 0 for s in range(49)]
        assert gomoku.State([0] * 49, pieces).is_lose()
    six = [1 if s in range(42, 48) else 0 for s in range(49)]
    assert gomoku.State([0] * 49, six).is_lose()
    four = [1 if s in (0, 8, 16, 24) else 0 for s in range(49)]
    assert not gomoku.State([0] * 49, four).is_done()


def test_it_is_registered_and_keeps_the_contract():
    assert GAMES['gomoku'] == 'games.gomoku.game'  # found in games/gomoku/, no line to add
    game = load_game('gomoku')
    assert (game.PASS, game.SOLVABLE, game.determinize, game.GTP_GAME) == (None, False, None, 'Gomoku')
    assert len(game.SYMMETRIES) == 8 and len(gomoku.LINES) == 60


def test_the_contract_names_what_a_game_lacks_or_misspells():
    import types
    broken = types.SimpleNamespace(**{k: v for k, v in vars(gomoku).items() if k != 'SYMMETRIES'})
    with pytest.raises(ContractError, match='lacks SYMMETRIES'):
        check_game(broken)
    misspelt = types.SimpleNamespace(**vars(gomoku), SOLVEABLE=True)
    with pytest.raises(ContractError, match='SOLVEABLE is not in the contract; did you mean SOLVABLE'):
        check_game(misspelt)
    untranslated = types.SimpleNamespace(**vars(gomoku), MOVE_HELP={'ja': '手を入力してください'})
    with pytest.raises(ContractError, match='MOVE_HELP in several languages needs an English one'):
        check_game(untranslated)
