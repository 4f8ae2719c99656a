// PV-MCTS in the browser: the book's search (pv_mcts.py), one game, one network call per leaf.
//
// `evaluate(state)` is an async function returning { policy, value } from the network: policy
// over all actions, value for the side to move. The PUCT rule and its constants are pv_mcts.py's.

export const C_PUCT = 1.0;

class Node {
  constructor(state, prior) {
    this.state = state;
    this.p = prior;    // prior probability of the move that led here
    this.w = 0;        // total value, seen from this node's side to move
    this.n = 0;        // visits
    this.children = null;
  }

  // One evaluation: returns the value for this node's side to move
  async evaluate(game, evaluate) {
    // Game over: its result for the side to move
    if (game.isDone(this.state)) {
      const value = game.terminalValue(this.state);
      this.w += value;
      this.n += 1;
      return value;
    }

    // Leaf: ask the network, then create the children with the legal moves' renormalised priors
    if (!this.children) {
      const { policy, value } = await evaluate(this.state);
      const actions = game.legalActions(this.state);
      const priors = actions.map((a) => policy[a]);
      const total = priors.reduce((a, b) => a + b, 0);
      this.children = actions.map((a, i) => new Node(game.next(this.state, a), total > 0 ? priors[i] / total : priors[i]));
      this.w += value;
      this.n += 1;
      return value;
    }

    // Inner node: descend into the best child; its value is the opponent's, so negate it
    const value = -(await this.bestChild().evaluate(game, evaluate));
    this.w += value;
    this.n += 1;
    return value;
  }

  // PUCT: the child maximising Q + C_PUCT * P * sqrt(total visits) / (1 + N); the first on ties
  bestChild() {
    const t = this.children.reduce((sum, c) => sum + c.n, 0);
    let best = null, bestScore = -Infinity;
    for (const child of this.children) {
      const q = child.n ? -child.w / child.n : 0;
      const score = q + C_PUCT * child.p * Math.sqrt(t) / (1 + child.n);
      if (score > bestScore) { best = child; bestScore = score; }
    }
    return best;
  }
}

// Search `state` with `simulations` evaluations; returns the legal actions, their visit counts and
// the root's value for the side to move (the mean of everything the search saw below it)
export async function search(game, evaluate, state, simulations) {
  const root = new Node(state, 0);
  for (let i = 0; i < simulations; i++) await root.evaluate(game, evaluate);
  const actions = game.legalActions(state);
  const visits = root.children ? root.children.map((c) => c.n) : actions.map(() => 0);
  return { actions, visits, value: root.n ? root.w / root.n : 0 };
}

// A game with hidden information (point-Othello's future values): search `samples` draws of what
// the player cannot see and add up the visits, so that the AI never uses it (match.py's MctsPlayer)
export async function fairSearch(game, evaluate, state, simulations, samples = 4) {
  if (!game.determinize) return search(game, evaluate, state, simulations);
  let total = null;
  for (let i = 0; i < samples; i++) {
    const result = await search(game, evaluate, game.determinize(state), simulations);
    total = total ? { ...total, visits: total.visits.map((n, j) => n + result.visits[j]), value: total.value + result.value }
      : result;
  }
  return { ...total, value: total.value / samples };
}

// The most visited action (the book's temperature 0); the first on ties
export function bestAction({ actions, visits }) {
  let best = 0;
  for (let i = 1; i < visits.length; i++) if (visits[i] > visits[best]) best = i;
  return actions[best];
}
