"""The result of a game as a number: 1 won, 0 draw, -1 lost, for the side to move or for either player;
and a value as shogi programs score it, in centipawns."""
import math


def terminal_value(ended_state):
    """The result of a finished game for the side to move: 1 won, 0 draw, -1 lost. (In tic-tac-toe
    and Connect Four the side to move never wins, but an Othello game can end with it ahead.)"""
    if ended_state.is_lose():
        return -1
    return 0 if ended_state.is_draw() else 1


def player_value(ended_state, first_player):
    """The result of a finished game for the first player (first_player=True) or the second."""
    return value_for(ended_state, terminal_value(ended_state), first_player)


def value_for(state, value, first_player):
    """`value`, a result for the side to move of `state`, for the first player (first_player=True)
    or the second."""
    return value if state.is_first_player() == first_player else -value


# A value as shogi engines and GUIs score it (USI's score cp, KIF's 評価値)
CP_PER_LOGIT = 600           # centipawns for a winning probability p: 600 * ln(p / (1 - p)), as Ponanza's scale
CP_LIMIT = 30000


def centipawns(value):
    """A value in [-1, 1] (the side to move's expected result) as a USI score in centipawns: the
    logit of the winning probability (value + 1) / 2 times CP_PER_LOGIT; a certain result (1 or -1:
    a mate, a solved position) is +-CP_LIMIT, as engines score a mate."""
    if abs(value) >= 1:
        return CP_LIMIT if value > 0 else -CP_LIMIT
    return int(max(-CP_LIMIT, min(CP_LIMIT, round(2 * CP_PER_LOGIT * math.atanh(value)))))


def value_of_centipawns(score):
    """centipawns' inverse: an engine's score in centipawns as a value in [-1, 1] for its side to
    move (+-CP_LIMIT or beyond: a mate, 1 or -1)."""
    if abs(score) >= CP_LIMIT:
        return 1.0 if score > 0 else -1.0
    return math.tanh(score / (2 * CP_PER_LOGIT))
