# ====================
# Monte Carlo tree search guided by the dual network (the book's pv_mcts.py)
# ====================
# This is the book's single-game search, kept readable as the reference. Self-play and evaluation
# run alphazero/search/search.py, which searches many games at once and is tested to return exactly
# the visit counts of this file.

from math import sqrt

import numpy as np

from alphazero.game.values import terminal_value
from alphazero.network.runtimes import KerasNetwork
from alphazero.search.scores import boltzman, legal_policy, visits_to_scores  # noqa: F401 (the book's names)
from alphazero.settings import C_PUCT, SearchSettings

# Parameters (with the other settings of every search: alphazero/settings.py's SearchSettings)
PV_EVALUATE_COUNT = SearchSettings.sims  # simulations per move: 50 (the AlphaZero paper: 1600)
# C_PUCT = 1.0, the weight of the prior in the PUCT rule, lives in alphazero/settings.py, and the
# arithmetic both searches share (legal_policy, visits_to_scores, boltzman) in
# alphazero/search/scores.py, so that the two searches compute bit-identical numbers


# A network to call: a Keras model is wrapped once in a traced function (no model.predict per leaf)
def as_network(model):
    if not hasattr(model, 'predict'):  # already a network (KerasNetwork or OnnxNetwork)
        return model
    if not hasattr(model, '_pv_mcts_network'):
        model._pv_mcts_network = KerasNetwork(model)
    return model._pv_mcts_network


# Inference: the legal moves' prior probabilities and the value, for the side to move
def predict(model, state):
    policies, values = as_network(model)(state.planes()[np.newaxis])
    return legal_policy(policies[0], state.legal_actions()), float(values[0])


# Visit counts of a list of nodes
def nodes_to_scores(nodes):
    return [node.n for node in nodes]


# A node of the search tree
class Node:
    def __init__(self, state, p):
        self.state = state      # the position
        self.p = p              # prior probability of the move that led here
        self.w = 0.0            # total value, seen from this node's side to move
        self.n = 0              # visits
        self.child_nodes = None

    # One evaluation: returns the value for this node's side to move
    def evaluate(self, model):
        # Game over: lost -1, draw 0 (won 1, which the book leaves out: an Othello game can end
        # with the side to move ahead)
        if self.state.is_done():
            value = float(terminal_value(self.state))
            self.w += value
            self.n += 1
            return value

        # Leaf: ask the network, then create the children with their priors
        if not self.child_nodes:
            policies, value = predict(model, self.state)
            self.w += value
            self.n += 1
            self.child_nodes = [Node(self.state.next(action), policy)
                                for action, policy in zip(self.state.legal_actions(), policies)]
            return value

        # Inner node: descend into the best child; its value is the opponent's, so negate it
        value = -self.next_child_node().evaluate(model)
        self.w += value
        self.n += 1
        return value

    # PUCT: the child maximising Q + C_PUCT * P * sqrt(total visits) / (1 + N)
    def next_child_node(self):
        t = sum(nodes_to_scores(self.child_nodes))
        pucb_values = []
        for child_node in self.child_nodes:
            q = -child_node.w / child_node.n if child_node.n else 0.0
            pucb_values.append(q + C_PUCT * child_node.p * sqrt(t) / (1 + child_node.n))
        return self.child_nodes[int(np.argmax(pucb_values))]


# Visit counts of the root's children (in legal_actions order) after `evaluate_count` evaluations
def pv_mcts_visits(model, state, evaluate_count=PV_EVALUATE_COUNT):
    root_node = Node(state, 0)
    for _ in range(evaluate_count):
        root_node.evaluate(model)
    return nodes_to_scores(root_node.child_nodes)


# Move probabilities from the search, in legal_actions order
def pv_mcts_scores(model, state, temperature, evaluate_count=PV_EVALUATE_COUNT):
    return visits_to_scores(pv_mcts_visits(as_network(model), state, evaluate_count), temperature)


# A player: a function from a state to an action chosen by the search
def pv_mcts_action(model, temperature=0, evaluate_count=PV_EVALUATE_COUNT):
    network = as_network(model)

    def pv_mcts_action(state):
        scores = pv_mcts_scores(network, state, temperature, evaluate_count)
        return int(np.random.choice(state.legal_actions(), p=scores))
    return pv_mcts_action


# Play one game of the best model against itself when run alone
if __name__ == '__main__':
    import game
    from alphazero.cli.run import run
    from alphazero.network.model_file import load_model

    def main():
        import argparse
        argparse.ArgumentParser(description='Play one tic-tac-toe game of ./model/best.h5 against itself with '
                                            'the book\'s search (temperature 1), printing each position.').parse_args()
        model = load_model('./model/best.h5', game)
        next_action = pv_mcts_action(model, 1.0)
        state = game.State()
        while not state.is_done():
            state = state.next(next_action(state))
            print(state, end='\n\n')
    run(main)
