"""An exact Connect Four solver (win / draw / loss), for labelling benchmark positions.

The search is Pascal Pons' design on connect4.py's bitboards (bit = column * 7 + height):
negamax with alpha-beta over the three results, a transposition table of bounds, no move that
hands the opponent an immediate win, a forced block when the opponent threatens, and the moves
that make the most threats of our own searched first (ties: centre columns first). In plain Python
it solves a position with 14 stones in seconds, and with 20 or more in well under one.

Run alone, it labels positions for bench/connect4_accuracy.py:
    .venv/bin/python bench/connect4_solver.py --positions 600 --out bench/connect4_positions.json
Each position comes from a game of the depth-2 alpha-beta opponent with a random move one time in
four (so the positions look like play, not noise), taken at a random stone count from 14 to 34;
it is kept when some move is worse than the best (elsewhere any move is right). The file holds each
position's moves and the result of every legal column for the side to move.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import connect4  # noqa: E402
from alphazero.files import write_json  # noqa: E402
from alphazero.opponents import heuristic_opponents  # noqa: E402

HEIGHT, COLUMNS, SQUARES = connect4.HEIGHT, connect4.COLUMNS, connect4.ROWS * connect4.COLUMNS
FULL = connect4.FULL
BOTTOM = sum(1 << (c * HEIGHT) for c in range(COLUMNS))           # the lowest square of each column
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
    move, every stone); the table is kept between calls, so related positions solve faster."""

    def __init__(self):
        self.table = {}       # stones + mask (unique per position): (lower bound, upper bound)
        self.nodes = 0

    def solve(self, stones, mask):
        if winning_squares(stones, mask) & (mask + BOTTOM) & FULL:
            return 1
        if mask == FULL:
            return 0
        return self.negamax(stones, mask, -1, 1)

    def move_results(self, state):
        """{column: result for the side to move after playing it} for a connect4.State."""
        stones, mask = state.pieces, state.pieces | state.enemy_pieces
        results = {}
        for column in state.legal_actions():
            move = (mask + (1 << column * HEIGHT)) & connect4.COLUMN_MASK[column]
            if winning_squares(stones, mask) & move:
                results[column] = 1
            else:
                results[column] = -self.solve(stones ^ mask, mask | move)
        return results

    # The side to move cannot win at once (the caller made sure)
    def negamax(self, stones, mask, alpha, beta):
        self.nodes += 1
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
        moves = [safe & connect4.COLUMN_MASK[c] for c in CENTRE_FIRST if safe & connect4.COLUMN_MASK[c]]
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


def sample_position(rng, alpha_beta, stones):
    """A position after `stones` moves of a noisy alpha-beta game (None if the game ended first)."""
    state, moves = connect4.State(), []
    while len(moves) < stones:
        if state.is_done():
            return None
        action = rng.choice(state.legal_actions()) if rng.random() < 0.25 else alpha_beta(state)
        moves.append(action)
        state = state.next(action)
    return None if state.is_done() else (state, moves)


def label_positions(count, seed, least=14, most=34, log=print):
    rng = random.Random(seed)
    random.seed(seed)   # the alpha-beta opponent breaks ties with the random module
    alpha_beta = heuristic_opponents(connect4.heuristic, (2,))['VS_AlphaBeta2']
    solver, labelled, start = Solver(), [], time.perf_counter()
    while len(labelled) < count:
        sampled = sample_position(rng, alpha_beta, rng.randint(least, most))
        if sampled is None:
            continue
        state, moves = sampled
        results = solver.move_results(state)
        if len(set(results.values())) > 1:
            labelled.append({'moves': ''.join(str(m) for m in moves),
                             'results': {str(c): r for c, r in results.items()}})
            if len(labelled) % 50 == 0:
                log(f'{len(labelled)} positions labelled in {time.perf_counter() - start:.0f} s '
                    f'({solver.nodes:,} nodes)')
        if len(solver.table) > 4_000_000:   # keep memory bounded
            solver.table.clear()
    return labelled


def main():
    parser = argparse.ArgumentParser(description='Label Connect Four positions with exact results for every move.')
    parser.add_argument('--positions', type=int, default=600, help='positions to label (default: %(default)s)')
    parser.add_argument('--seed', type=int, default=0, help='random seed of the games (default: %(default)s)')
    parser.add_argument('--out', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'connect4_positions.json'),
                        help='output file (default: %(default)s)')
    args = parser.parse_args()
    labelled = label_positions(args.positions, args.seed)
    write_json(args.out, {'about': 'Connect Four positions (moves as columns 0-6 from the empty board) with the '
                                   'exact result of each legal column for the side to move: 1 win, 0 draw, -1 loss; '
                                   'made by bench/connect4_solver.py', 'seed': args.seed, 'positions': labelled},
               indent=0)
    print(f'wrote {len(labelled)} positions to {args.out}')


if __name__ == '__main__':
    main()
