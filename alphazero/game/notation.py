"""Moves as text: a game's action names (GTP's a1-style squares, shogi's USI moves) and their parsing,
and Japanese moves made comparable."""


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


def line_vertices(game, state, line, names):
    """The vertices of the moves of `line` from `state` (`names`: action_names(game)), a column's drop
    named by the square its stone lands on (Connect Four's d as d6 on an empty board), as analysis
    GUIs such as Sabaki read a vertex; parse_move takes either."""
    columns, vertices = game.BOARD_SHAPE[1], []
    for action in line:
        after, name = state.next(action), names[action]
        if name.isalpha() and len(name) == 1:
            landed = [square for square, (before, now) in enumerate(zip(state.cells(), after.cells()))
                      if not before and now]
            name = square_name(landed[0], columns) if len(landed) == 1 else name
        vertices.append(name)
        state = after
    return vertices


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


# ----- Japanese moves (shogi's KI2 and KIF) -----
# Full-width digits and kanji numerals as ASCII digits; no side marks (▲△☗☖) or spaces, full-width
# ones included: how a typed Japanese move is compared with the moves' names
JAPANESE_DIGITS = str.maketrans({**{c: str(i) for i, c in enumerate('０１２３４５６７８９')},
                                 **{c: str(i) for i, c in enumerate('〇一二三四五六七八九')},
                                 '▲': None, '△': None, '☗': None, '☖': None, ' ': None, '\u3000': None})


def plain_japanese(text):
    """A Japanese move with its digits as ASCII and without side marks or spaces: ▲７六歩 -> 76歩."""
    return text.strip().translate(JAPANESE_DIGITS)


def line_names(state, line, name):
    """The names of a line of moves from `state` (name(state, action) each: USI, KI2, f5...), as far
    as the game goes on: an engine's pv, a record's 読み筋, a review's line."""
    names = []
    for action in line:
        if state.is_done():
            break
        names.append(name(state, action))
        state = state.next(action)
    return names
