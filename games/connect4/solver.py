"""Connect Four's exact result, by search (beyond the book; the benchmarks and tests/games use it to
judge positions)."""
from alphazero.game.solved import OutOfNodes
from games.connect4.bitboard import COLUMN_MASK, COLUMNS, FULL, HEIGHT, ROWS

# Pascal Pons' solver design: negamax with alpha-beta over the three results, a transposition table
# of bounds, no move that hands the opponent an immediate win, a forced block when the opponent
# threatens, and the moves that make the most threats of our own searched first (ties: centre
# columns first). In plain Python it solves a position of 20 or more stones in well under a second.
BOTTOM = sum(1 << (c * HEIGHT) for c in range(COLUMNS))   # the lowest square of each column
SQUARES = ROWS * COLUMNS
CENTRE_FIRST = sorted(range(COLUMNS), key=lambda c: abs(2 * c - (COLUMNS - 1)))


def winning_squares(stones, mask):
    """The empty squares that would complete four in a row for `stones`."""
    found = (stones << 1) & (stones << 2) & (stones << 3)          # three below
    for shift in (HEIGHT, HEIGHT - 1, HEIGHT + 1):                  # across and the two diagonals
        pair = (stones << shift) & (stones << 2 * shift)
        found |= pair & (stones << 3 * shift)                       # three on one side
        found |= pair & (stones >> shift)                           # two on one side, one on the other
        pair = (stones >> shift) & (stones >> 2 * shift)
        found |= pair & (stones << shift)
        found |= pair & (stones >> 3 * shift)
    return found & (FULL ^ mask)


class Solver:
    """Results for the side to move: 1 win, 0 draw, -1 loss. Positions are (stones of the side to
    move, every stone); the table is kept between calls, so related positions solve faster. With a
    `budget`, a search that visits more positions raises OutOfNodes."""

    def __init__(self, budget=None):
        self.table = {}       # stones + mask (unique per position): (lower bound, upper bound)
        self.nodes = 0
        self.budget = budget

    def solve(self, stones, mask):
        if winning_squares(stones, mask) & (mask + BOTTOM) & FULL:
            return 1
        if mask == FULL:
            return 0
        return self.negamax(stones, mask, -1, 1)

    def move_results(self, state):
        """{column: result for the side to move after playing it} for a State."""
        stones, mask = state.pieces, state.pieces | state.enemy_pieces
        results = {}
        for column in state.legal_actions():
            move = (mask + (1 << column * HEIGHT)) & COLUMN_MASK[column]
            if winning_squares(stones, mask) & move:
                results[column] = 1
            else:
                results[column] = -self.solve(stones ^ mask, mask | move)
        return results

    # The side to move cannot win at once (the caller made sure)
    def negamax(self, stones, mask, alpha, beta):
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OutOfNodes
        possible = (mask + BOTTOM) & FULL
        threats = winning_squares(stones ^ mask, mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):          # two threats: one of them wins
                return -1
            possible = forced
        safe = possible & ~(threats >> 1)     # never play under the opponent's winning square
        if not safe:
            return -1
        if mask.bit_count() >= SQUARES - 2:   # nobody can win in the last two moves
            return 0

        key = stones + mask
        lower, upper = self.table.get(key, (-1, 1))
        if lower == upper:
            return lower
        alpha, beta = max(alpha, lower), min(beta, upper)
        if alpha >= beta:
            return alpha

        # Most threats made first; among equals, centre columns first (a stable sort keeps their order)
        moves = [safe & COLUMN_MASK[c] for c in CENTRE_FIRST if safe & COLUMN_MASK[c]]
        moves.sort(key=lambda move: -winning_squares(stones | move, mask | move).bit_count())

        start_alpha, best = alpha, -1
        for move in moves:
            result = -self.negamax(stones ^ mask, mask | move, -beta, -alpha)
            best = max(best, result)
            alpha = max(alpha, result)
            if alpha >= beta:
                break
        if best <= start_alpha:
            upper = best          # failed low: the result is at most this
        elif best >= beta:
            lower = best          # failed high: at least this
        else:
            lower = upper = best
        self.table[key] = (lower, upper)
        return best
