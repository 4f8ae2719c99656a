"""The fixed opponents every game can use: the book's random and pure MCTS players (written in its
game.py, kept here so that every game shares them), and fixed-depth alpha-beta for games too large
to search to the end.

A game gives alpha-beta a heuristic: a score of a position for the side to move (disc difference,
open lines). The search (negamax with alpha-beta cut-offs) looks `depth` moves ahead, scores
finished games as won, lost or drawn and every other leaf by the heuristic. It knows nothing else of
the game.
"""
import math
import random

from alphazero.game.values import terminal_value

WIN = 1e9  # beyond any heuristic score


# Random player
def random_action(state):
    legal_actions = state.legal_actions()
    return legal_actions[random.randint(0, len(legal_actions) - 1)]


# Random playout: the value of `state` for the side to move
def playout(state):
    if state.is_lose():
        return -1
    if state.is_draw():
        return 0
    return -playout(state.next(random_action(state)))


# Index of the largest value
def argmax(collection):
    return collection.index(max(collection))


# Monte Carlo tree search player (pure UCT with random playouts)
def mcts_action(state):
    # A node of the search tree
    class Node:
        def __init__(self, state):
            self.state = state
            self.w = 0  # total value
            self.n = 0  # visits
            self.child_nodes = None

        # One evaluation: playout at a leaf, descend otherwise
        def evaluate(self):
            if self.state.is_done():
                value = -1 if self.state.is_lose() else 0
                self.w += value
                self.n += 1
                return value

            if not self.child_nodes:
                value = playout(self.state)
                self.w += value
                self.n += 1
                # Expand after 10 visits
                if self.n == 10:
                    self.expand()
                return value

            value = -self.next_child_node().evaluate()
            self.w += value
            self.n += 1
            return value

        def expand(self):
            self.child_nodes = [Node(self.state.next(action)) for action in self.state.legal_actions()]

        # UCB1: unvisited children first
        def next_child_node(self):
            for child_node in self.child_nodes:
                if child_node.n == 0:
                    return child_node
            t = sum(c.n for c in self.child_nodes)
            ucb1_values = [-c.w / c.n + 2 * (2 * math.log(t) / c.n) ** 0.5 for c in self.child_nodes]
            return self.child_nodes[argmax(ucb1_values)]

    # 100 evaluations from the root, then the most visited move
    root_node = Node(state)
    root_node.expand()
    for _ in range(100):
        root_node.evaluate()
    legal_actions = state.legal_actions()
    n_list = [c.n for c in root_node.child_nodes]
    return legal_actions[argmax(n_list)]


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
