"""The result of a game as a number: 1 won, 0 draw, -1 lost, for the side to move or for either player."""


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
