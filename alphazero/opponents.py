"""Fixed-depth alpha-beta opponents, for games too large to search to the end.

A game gives a heuristic: a score of a position for the side to move (disc difference, open lines).
The search (negamax with alpha-beta cut-offs) looks `depth` moves ahead, scores finished games as
won, lost or drawn and every other leaf by the heuristic. It knows nothing else of the game.
"""
import random

from alphazero.games import terminal_value

WIN = 1e9  # beyond any heuristic score


def alpha_beta(state, depth, alpha, beta, heuristic):
    """The value of `state` for the side to move, searching `depth` moves ahead."""
    # A finished game: a sooner win (more depth left) scores higher, a sooner loss lower
    if state.is_done():
        return terminal_value(state) * (WIN + depth)
    if depth == 0:
        return heuristic(state)

    # Every legal move, cutting off once the window closes
    for action in state.legal_actions():
        score = -alpha_beta(state.next(action), depth - 1, -beta, -alpha, heuristic)
        if score > alpha:
            alpha = score
            if alpha >= beta:
                break
    return alpha


def alpha_beta_player(heuristic, depth):
    """A player (state -> action) searching `depth` moves; equally good moves are chosen at random."""
    def action(state):
        actions = state.legal_actions()
        random.shuffle(actions)
        best_action, best_score = actions[0], -float('inf')
        for candidate in actions:
            score = -alpha_beta(state.next(candidate), depth - 1, -float('inf'), -best_score, heuristic)
            if score > best_score:
                best_action, best_score = candidate, score
        return best_action
    return action


def heuristic_opponents(heuristic, depths):
    """{'VS_AlphaBeta1': player, ...}: one alpha-beta player per depth."""
    return {f'VS_AlphaBeta{depth}': alpha_beta_player(heuristic, depth) for depth in depths}
