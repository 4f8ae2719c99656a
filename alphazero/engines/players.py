"""Other programs as players (GTP and USI engines), and how opponents are named to people."""
import re

from alphazero.engines.gtp import EnginePlayer, gtp_problem
from alphazero.engines.usi import UsiEnginePlayer


def engine_player(command, game):
    """Another program as a player: a USI engine for a game whose ENGINE_PROTOCOL is 'usi' (shogi),
    a UCI engine for 'uci' (the book's simple shogi), else a GTP engine."""
    if game.ENGINE_PROTOCOL in ('usi', 'uci'):
        return UsiEnginePlayer(command, game)
    return EnginePlayer(command, game)


def engine_problem(game):
    """Why other programs cannot play `game` with us, or None when they can."""
    if game.ENGINE_PROTOCOL in ('usi', 'uci'):
        return None
    return gtp_problem(game)


def opponent_name(name):
    """How an opponent is named to people: 'alpha-beta depth 2' for VS_AlphaBeta2, 'GRhino level 2'
    for the command "/usr/games/gtp-rhino -l 2", 'Fairy-Stockfish depth 3' for
    "/usr/games/fairy-stockfish; go depth 3" ('Fairy-Stockfish skill -20 depth 5' when it sets its Skill
    Level); else the name as given."""
    fixed = {'VS_Random': 'random player', 'VS_AlphaBeta': 'alpha-beta (perfect)', 'VS_MCTS': 'Monte Carlo tree search',
             'VS_Greedy': 'greedy player'}
    patterns = ((r'VS_AlphaBeta(\d+)', 'alpha-beta depth {}'), (r'\S*gtp-rhino -l (\d)', 'GRhino level {}'),
                (r'\S*fairy-stockfish\s*;\s*go depth (\d+)', 'Fairy-Stockfish depth {}'),
                (r'\S*fairy-stockfish\s*;\s*setoption name Skill Level value (-?\d+)\s*;\s*go depth (\d+)',
                 'Fairy-Stockfish skill {} depth {}'))
    for pattern, text in patterns:
        match = re.fullmatch(pattern, name.strip())
        if match:
            return text.format(*match.groups())
    return fixed.get(name, name)
