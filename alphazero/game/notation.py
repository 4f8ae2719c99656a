"""Moves as text: a game's action names (GTP's a1-style squares, shogi's USI moves) and their parsing."""


# ----- names of moves and colours -----
def square_name(square, columns):
    return f'{chr(ord("a") + square % columns)}{square // columns + 1}'


def action_names(game):
    """The GTP name of every action of `game`, derived from its board and square_action."""
    rows, columns = game.BOARD_SHAPE
    squares_of = {}
    for square in range(rows * columns):
        squares_of.setdefault(game.square_action(square), []).append(square)
    names = []
    for action in range(game.ACTION_COUNT):
        squares = squares_of.get(action, [])
        if len(squares) == 1:
            names.append(square_name(squares[0], columns))
        elif squares and len({s % columns for s in squares}) == 1:
            names.append(square_name(squares[0], columns)[0])
        elif not squares and action == game.PASS:
            names.append('pass')
        else:
            raise ValueError(f'{game.NAME}: action {action} has no GTP name')
    return names


def parse_move(game, text):
    """The action a GTP vertex names (any square of a column names its drop), or None."""
    text = text.lower()
    names = action_names(game)
    if text in names:
        return names.index(text)
    rows, columns = game.BOARD_SHAPE
    for square in range(rows * columns):
        if square_name(square, columns) == text:
            return game.square_action(square)
    return None
