"""Exact results near the end of a game: what a game's solver (the contract's `solve`) proves, and the
search that proves the final margins of a game that ends with one (Othello's discs).

Strong engines stop guessing where the game can be searched to its end: Edax and Egaroucid play
Othello's last empties perfectly and say the final margin, dlshogi plays the mates df-pn proves.
The players and engines here do the same before each search (players.py's SolvingPlayer): a
position the solver settles within its budget gets the solver's move, and the analysis says
"wins by 6", "draw" or "mate in 7" instead of a probability."""
import math
from dataclasses import dataclass, replace
from typing import Optional


@dataclass(frozen=True)
class Solved:
    """A position's exact result for the side to move, both sides playing their best."""
    line: list                     # the best move first (then what the solver knows of the rest)
    value: int                     # 1 won, 0 drawn, -1 lost
    margin: Optional[int] = None   # the final margin of a game with one (Othello: discs)
    mate: Optional[int] = None     # a forced mate: the plies to it (the line's length)

    def says(self, lang='en'):
        """The result in words: 'wins by 6', 'loses by 2', 'draw', 'mate in 7', 'a forced win'."""
        if self.mate is not None:
            return f'{self.mate} 手詰め' if lang == 'ja' else f'mate in {self.mate}'
        if self.value == 0:
            return '引き分け' if lang == 'ja' else 'draw'
        won = self.value > 0
        if self.margin is None:
            return ('必勝' if won else '必敗') if lang == 'ja' else ('a forced win' if won else 'a forced loss')
        if lang == 'ja':
            return f'{abs(self.margin)} 石差で{"勝ち" if won else "負け"}'
        return f'{"wins" if won else "loses"} by {abs(self.margin)}'


def played_out(solve, state, solved):
    """`solved` (of `state`) with its line played to the end of the game: each position after it solved
    in turn by `solve` (the game's solver, each search smaller than the first), as far as it settles
    them. What an analysis shows as the line both sides' best play follows."""
    line, walked = list(solved.line), state
    for action in line:
        walked = walked.next(action)
    while not walked.is_done() and (following := solve(walked)) is not None:
        for action in following.line:
            line.append(action)
            walked = walked.next(action)
    return replace(solved, line=line)


class OutOfNodes(Exception):
    """The exact search needed more positions than it may visit."""


def exact_margin(state, final_margin, alpha, beta, nodes_left):
    """The final margin for the side to move when both sides play their best (negamax with
    alpha-beta, moves in legal_actions() order): exact when it lies between alpha and beta, else a
    bound beyond the one it crossed. nodes_left: a one-item list, the positions it may still visit."""
    nodes_left[0] -= 1
    if nodes_left[0] < 0:
        raise OutOfNodes
    if state.is_done():
        return final_margin(state)
    best = -math.inf
    for action in state.legal_actions():
        best = max(best, -exact_margin(state.next(action), final_margin, -beta, -max(alpha, best), nodes_left))
        if best >= beta:
            break
    return best


def best_margin(state, final_margin, nodes_left):
    """(the move with the best final margin, the first on ties; that margin) for the side to move,
    both sides playing their best; OutOfNodes past the positions `nodes_left` allows."""
    best, chosen = -math.inf, None
    for action in state.legal_actions():
        margin = -exact_margin(state.next(action), final_margin, -math.inf, -best, nodes_left)
        if margin > best:
            best, chosen = margin, action
    return chosen, best


def solve_margin(state, final_margin, nodes):
    """Solved for a game that ends with a margin (best_margin's move and margin), or None when that
    takes more than `nodes` positions."""
    try:
        chosen, best = best_margin(state, final_margin, [nodes])
    except OutOfNodes:
        return None
    return Solved([chosen], (best > 0) - (best < 0), margin=int(best))
