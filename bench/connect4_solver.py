"""Connect Four positions labelled with exact results (win / draw / loss) by games/connect4/game.py's solver
(Pascal Pons' design on its bitboards), for bench/connect4_accuracy.py. In plain Python the solver
handles a position with 14 stones in seconds, and with 20 or more in well under one.

Run:
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

from games.connect4 import game as connect4  # noqa: E402
from alphazero.files import write_json  # noqa: E402
from alphazero.game.opponents import heuristic_opponents  # noqa: E402
from games.connect4.solver import Solver  # noqa: E402


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
