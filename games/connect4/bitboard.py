"""Connect Four's bitboard, which the rules (game.py) and the solver (solver.py) share: bit = column * 7
+ height, 6 bits per column plus one always-empty bit on top, so that shifting a line of stones by 1
(up), 7 (across), 6 or 8 (diagonals) never wraps into another column."""
ROWS, COLUMNS = 6, 7
HEIGHT = ROWS + 1
COLUMN_MASK = [((1 << ROWS) - 1) << (c * HEIGHT) for c in range(COLUMNS)]  # the squares of each column
FULL = sum(COLUMN_MASK)                                                 # every square
TOP = [1 << (c * HEIGHT + ROWS - 1) for c in range(COLUMNS)]          # the top square of each column
SHIFTS = (1, HEIGHT, HEIGHT - 1, HEIGHT + 1)  # up, across, the two diagonals
