// PV-MCTS in the browser: the book's search (pv_mcts.py), one game, one network call per leaf.
//
// `evaluate(state)` is an async function returning { policy, value } from the network: policy
// over all actions, value for the side to move. The PUCT rule and its constants are pv_mcts.py's;
// `firstPlay` R, when a model's model.json measured one, values an untried move at its position's
// mean value less R instead of a draw (alphazero/search/puct.py).

export const C_PUCT = 1.0;

class Node {
  constructor(state, prior) {
    this.state = state;
    this.p = prior;    // prior probability of the move that led here
    this.w = 0;        // total value, seen from this node's side to move
    this.n = 0;        // visits
    this.net = 0;      // the network's value of this position, once evaluated
    this.children = null;
  }

  // One evaluation: returns the value for this node's side to move (`pick`: the child to descend
  // into instead of PUCT's, a review's played move)
  async evaluate(game, evaluate, firstPlay, pick = null) {
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
      this.net = value;
      this.w += value;
      this.n += 1;
      return value;
    }

    // Inner node: descend into the best child; its value is the opponent's, so negate it
    const value = -(await (pick ?? this.bestChild(firstPlay)).evaluate(game, evaluate, firstPlay));
    this.w += value;
    this.n += 1;
    return value;
  }

  // PUCT: the child maximising Q + C_PUCT * P * sqrt(total visits) / (1 + N); the first on ties.
  // An untried child's Q: a draw, or this node's mean value less firstPlay
  bestChild(firstPlay) {
    const t = this.children.reduce((sum, c) => sum + c.n, 0);
    const untried = firstPlay === null ? 0 : this.w / this.n - firstPlay;
    let best = null, bestScore = -Infinity;
    for (const child of this.children) {
      const q = child.n ? -child.w / child.n : untried;
      const score = q + C_PUCT * child.p * Math.sqrt(t) / (1 + child.n);
      if (score > bestScore) { best = child; bestScore = score; }
    }
    return best;
  }
}

// A review's search gives the move played at least this share of its simulations, so that one tree
// values both it and the move the search prefers (alphazero/search/played.py's PLAYED_SHARE)
export const PLAYED_SHARE = 0.25;

// Search `state` with `simulations` evaluations; returns the legal actions, their visit counts and
// mean values `q` for the side to move (null where unvisited), the root's value for the side to
// move (the mean of everything the search saw) and `searched`, the visit-weighted mean of its moves'
// values (the root's own network value left out). `played`: a move given its share (a review's);
// `firstPlay`: the model's first-play reduction, null for the book's draw
export async function search(game, evaluate, state, simulations, { played = null, firstPlay = null } = {}) {
  const root = new Node(state, 0);
  const actions = game.legalActions(state);
  for (let i = 0; i < simulations; i++) {
    const forced = played !== null && root.children ? root.children[actions.indexOf(played)] : null;
    await root.evaluate(game, evaluate, firstPlay, forced && forced.n < PLAYED_SHARE * i ? forced : null);
  }
  const visits = root.children ? root.children.map((c) => c.n) : actions.map(() => 0);
  const q = root.children ? root.children.map((c) => (c.n ? -c.w / c.n : null)) : actions.map(() => null);
  const value = root.n ? root.w / root.n : 0;
  return { actions, visits, q, value, searched: root.n > 1 ? (root.w - root.net) / (root.n - 1) : value };
}

// The network's policy alone (the weakest levels): the legal moves' probabilities in place of visit
// counts, and the move: the most likely at temperature 0, else drawn from the probabilities raised
// to 1/temperature (match.py's PolicyPlayer)
export async function policyChoice(game, evaluate, state, temperature, random = Math.random) {
  const { policy, value } = await evaluate(state);
  const actions = game.legalActions(state);
  const priors = actions.map((a) => policy[a]);
  let index = priors.indexOf(Math.max(...priors));
  if (temperature > 0) {
    const weights = priors.map((p) => p ** (1 / temperature));
    let left = random() * weights.reduce((a, b) => a + b, 0);
    index = weights.findIndex((w) => (left -= w) < 0);
    if (index < 0) index = weights.length - 1;  // rounding left a sliver
  }
  return { actions, visits: priors, value, choice: actions[index] };
}

// 接待 (settai): match.py's settai_choice, SettaiDrift and settai_choices, one game at a time
export const SETTAI_FLOOR = 0.0, SETTAI_GIVE = 0.4, SETTAI_MIN_SIMS = 16, SETTAI_DRIFT_CAP = 0.5;
export const SETTAI_EXACT_EMPTIES = 10, SETTAI_EXACT_NODES = 50000;

// Among the moves worth at least SETTAI_FLOOR + aim and within SETTAI_GIVE (more by a negative aim)
// of the best, the one whose final margin (when the model predicts one) is nearest marginAim, or whose
// value is nearest aim, the first on ties; the best move when none qualifies. `q` and `margins` are
// for the side to move, one per action.
export function settaiChoice(actions, q, margins = null, aim = 0, marginAim = 0) {
  const best = Math.max(...q);
  const candidates = actions.map((_, i) => i)
    .filter((i) => q[i] >= Math.max(SETTAI_FLOOR + aim, best - SETTAI_GIVE + Math.min(aim, 0)));
  if (!candidates.length) return actions[q.indexOf(best)];
  const closeness = (i) => Math.abs(margins ? margins[i] - marginAim : q[i] - aim);
  return actions[candidates.reduce((a, b) => (closeness(b) < closeness(a) ? b : a))];
}

// What the opponent's replies gave away: the network's value of the position after each reply less
// its value of the position the move chosen before left; the next move aims at minus the mean (at
// most SETTAI_DRIFT_CAP). A position that does not follow the move chosen before starts a new game.
export class SettaiDrift {
  aims(game, state, value, margin) {
    const seen = this.seen;
    if (!seen || !follows(game, seen.chosen, state)) {
      this.seen = { drifts: [] };
      return [0, 0];
    }
    const marginDrift = margin !== null && seen.margin !== null ? margin - seen.margin : 0;
    seen.drifts.push([value - seen.value, marginDrift]);
    const mean = (k) => seen.drifts.reduce((total, drift) => total + drift[k], 0) / seen.drifts.length;
    const capped = (x) => Math.min(SETTAI_DRIFT_CAP, Math.max(-SETTAI_DRIFT_CAP, x));
    return [-capped(mean(0)), -capped(mean(1))];
  }

  chose(child, value, margin) {
    Object.assign(this.seen, { chosen: child, value, margin });
  }
}

function follows(game, previous, state) {
  const planes = game.planes(state);
  const same = (other) => other.length === planes.length && other.every((x, i) => x === planes[i]);
  return !game.isDone(previous) && game.legalActions(previous).some((a) => same(game.planes(game.next(previous, a))));
}

// The side to move's final margin in discs when both sides play their best (negamax with alpha-beta,
// moves in legalActions order): exact between alpha and beta, else a bound beyond the one it crossed.
// `budget.left` counts the positions it may still visit; past them it throws OUT_OF_NODES.
const OUT_OF_NODES = new Error('out of nodes');
function exactMargin(game, state, alpha, beta, budget) {
  if (--budget.left < 0) throw OUT_OF_NODES;
  if (game.isDone(state)) {
    const [first, second] = game.discCounts(state);
    return game.isFirstPlayer(state) ? first - second : second - first;
  }
  let best = -Infinity;
  for (const action of game.legalActions(state)) {
    best = Math.max(best, -exactMargin(game, game.next(state, action), -beta, -Math.max(alpha, best), budget));
    if (best >= beta) break;
  }
  return best;
}

// The exact end of a game with a margin (Othello), as games/othello8's solve: with at most
// SOLVER_EMPTIES empty squares, the move with the best final margin when both sides play their best
// (the first on ties) and that margin for the side to move: { action, margin }; null earlier, or when
// the search needs more than SOLVER_NODES positions
export const SOLVER_EMPTIES = 10, SOLVER_NODES = 50000;
export function solveMargin(game, state) {
  if (game.isDone(state) || game.cells(state).filter((c) => c === 0).length > SOLVER_EMPTIES) return null;
  try {
    return bestMargin(game, state, { left: SOLVER_NODES });
  } catch (error) {
    if (error === OUT_OF_NODES) return null;
    throw error;
  }
}

// The move with the best final margin (the first on ties) and that margin, { action, margin };
// throws OUT_OF_NODES past the positions `budget.left` allows (alphazero/game/solved.py's best_margin)
function bestMargin(game, state, budget) {
  let action = null, margin = -Infinity;
  for (const move of game.legalActions(state)) {
    const result = -exactMargin(game, game.next(state, move), -Infinity, -margin, budget);
    if (result > margin) [action, margin] = [move, result];
  }
  return { action, margin };
}

// match.py's settai_endgame: with at most SETTAI_EXACT_EMPTIES empty squares, the move whose final
// margin with best play is the smallest that is not a loss (a draw when there is one), or the
// smallest loss; null when the search needs more than SETTAI_EXACT_NODES positions
export function settaiEndgame(game, state) {
  if (game.cells(state).filter((c) => c === 0).length > SETTAI_EXACT_EMPTIES) return null;
  const budget = { left: SETTAI_EXACT_NODES };
  try {
    let chosen = null, closest = Infinity;
    for (const action of game.legalActions(state)) {
      const margin = -exactMargin(game, game.next(state, action), -closest, 1, budget);
      if (margin >= 0 && margin < closest) [chosen, closest] = [action, margin];
    }
    if (chosen !== null) return chosen;
    return bestMargin(game, state, budget).action;  // every move loses: the one that loses by least
  } catch (error) {
    if (error === OUT_OF_NODES) return null;
    throw error;
  }
}

// Near the end of a game with a margin, settaiEndgame's move; else every legal move's position
// searched on its own (at least SETTAI_MIN_SIMS simulations), then settaiChoice aimed by `drift` (a
// SettaiDrift kept over the game, in a game that ends with a margin; else null, aiming at even;
// `firstPlay` as search's); the result has the moves' values for the side to move as `q` (the
// network's, after an exact search) and the move as `choice`
export async function settaiSearch(game, evaluate, state, simulations, { drift = null, firstPlay = null } = {}) {
  const actions = game.legalActions(state);
  const exact = game.discCounts ? settaiEndgame(game, state) : null;
  const q = [], own = [], margins = [];
  for (const action of actions) {
    const child = game.next(state, action);
    if (exact === null) {
      q.push(game.isDone(child) ? -game.terminalValue(child)
        : -(await search(game, evaluate, child, Math.max(SETTAI_MIN_SIMS, simulations), { firstPlay })).searched);
    }
    // The network's own value and margin of the move's position, for the side to move now
    const { value, margin } = await evaluate(child);
    own.push(-value);
    margins.push(margin === undefined ? null : -margin);
  }
  const now = drift ? await evaluate(state) : null;
  const predicted = margins.every((m) => m !== null) ? margins : null;
  const [aim, marginAim] = drift ? drift.aims(game, state, now.value, predicted ? now.margin : null) : [0, 0];
  const choice = exact ?? settaiChoice(actions, q, predicted, aim, marginAim);
  const chosen = actions.indexOf(choice);
  if (drift) drift.chose(game.next(state, choice), own[chosen], predicted ? predicted[chosen] : null);
  const values = exact === null ? q : own;
  return { actions, q: values, value: values[chosen], choice };
}

// A game with hidden information (point-Othello's future values): search `samples` draws of what
// the player cannot see and add up the visits, so that the AI never uses it (match.py's MctsPlayer);
// `firstPlay` as search's
export async function fairSearch(game, evaluate, state, simulations, { firstPlay = null, samples = 4 } = {}) {
  if (!game.determinize) return search(game, evaluate, state, simulations, { firstPlay });
  let total = null;
  for (let i = 0; i < samples; i++) {
    const result = await search(game, evaluate, game.determinize(state), simulations, { firstPlay });
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
