// Checks the JavaScript rules, input planes and search against vectors written by Python
// (tests/interfaces/test_web.py): node web/test/check_vectors.mjs vectors.json
//
// rules:  positions reached by move sequences (from an SFEN for some of full shogi's), with their
//         legal moves, result flags, cells, input planes and the cells after every legal move (and
//         the winning line, which must be the winner's stones; full shogi: the moves' KIF names);
//         names: every action's name, as the GTP engine writes it
// search: a position, the real network outputs Python saw while searching it (by input planes),
//         and pv_mcts.py's visit counts (the batched search's for a review's played move or a
//         first-play reduction), which web/mcts.js must reproduce
// settai: moves' values (and predicted margins) and aims, and match.py's settai_choice, which
//         web/mcts.js's settaiChoice must make too
// settai_games: games of a settai player, one SettaiDrift over all: each settai move's searched
//         values, the network's values of the position and of the move's, the aims match.py's
//         SettaiDrift drew from the game so far, and its choice
// settai_endgames: positions near the end of Othello games and match.py's settai_endgame move (or
//         null), which web/mcts.js's settaiEndgame must make too
// solved: positions near the end of Othello games and games/othello8's solve (its move and margin,
//         or null), which web/mcts.js's solveMargin must give too
import { readFileSync } from 'node:fs';
import { GAMES } from '../games.js';
import { SettaiDrift, search, settaiChoice, settaiEndgame, solveMargin } from '../mcts.js';

const vectors = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const failures = [];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const check = (ok, what) => { if (!ok && failures.length < 20) failures.push(what); };

function replay(game, moves, start) {
  let state = start ? game.initial(start) : game.initial();  // point-Othello: the values dealt; shogi9: an SFEN
  for (const action of moves) state = game.next(state, action);
  return state;
}

let positions = 0;
for (const [name, list] of Object.entries(vectors.rules)) {
  const game = GAMES[name];
  if (vectors.names[name]) {  // games whose moves have fixed names (shogi's depend on the position)
    const names = [...Array(game.actionCount).keys()].map((a) => game.actionName(a));
    check(same(names, vectors.names[name]), `${name}: move names ${names} != ${vectors.names[name]}`);
  }
  for (const v of list) {
    const state = replay(game, v.moves, v.sequence || v.sfen);
    const where = `${name} after [${v.moves}]`;
    positions += 1;
    check(same(game.cells(state), v.cells), `${where}: cells ${game.cells(state)} != ${v.cells}`);
    check(same(Array.from(game.planes(state)), v.planes), `${where}: input planes differ`);
    check(game.isDone(state) === v.done && game.isLose(state) === v.lose && game.isDraw(state) === v.draw,
      `${where}: done/lose/draw ${game.isDone(state)}/${game.isLose(state)}/${game.isDraw(state)} != ${v.done}/${v.lose}/${v.draw}`);
    check(game.isFirstPlayer(state) === v.first, `${where}: first player`);
    if (game.determinize) {
      // Fair play: a sample of the hidden values keeps what a player sees, and the sum
      const sample = game.determinize(state);
      const known = state.used + 4;
      check(same(sample.sequence.slice(0, known), state.sequence.slice(0, known)) && sample.sequence.length === 60
        && sample.sequence.reduce((a, b) => a + b, 0) === 0 && sample.sequence.every((x) => Math.abs(x) <= 30)
        && same(Array.from(game.planes(sample)), v.planes), `${where}: determinize`);
    }
    // A won game shows a line of the winner's stones; no other position shows one
    const line = game.winningLine(state);
    const winner = v.first ? -1 : 1;
    check(!['tictactoe', 'connect4', 'gomoku'].includes(name) ? line === null
      : (line !== null) === v.lose && (!line || line.every((s) => v.cells[s] === winner)), `${where}: winning line ${line}`);
    if (v.done) continue;
    check(same(game.legalActions(state), v.legal), `${where}: legal ${game.legalActions(state)} != ${v.legal}`);
    if (v.names) check(same(v.legal.map((a) => game.actionName(a, state)), v.names), `${where}: move names`);
    if (v.kif) check(same(v.legal.map((a) => game.kifName(a, state)), v.kif), `${where}: KIF names`);
    if (v.ki2) {
      const ki2 = v.legal.map((a) => game.japaneseName(a, state));
      check(same(ki2, v.ki2), `${where}: KI2 names ${ki2.filter((n, i) => n !== v.ki2[i])} != ${v.ki2.filter((n, i) => n !== ki2[i])}`);
    }
    for (const [action, cells] of Object.entries(v.children)) {
      check(same(game.cells(game.next(state, Number(action))), cells), `${where}: cells after ${action}`);
    }
  }
}

let searches = 0;
for (const v of vectors.search) {
  const game = GAMES[v.game];
  const outputs = new Map(v.outputs.map(([planes, policy, value]) => [planes.join(','), { policy, value }]));
  const evaluate = async (state) => {
    const key = Array.from(game.planes(state)).join(',');
    if (!outputs.has(key)) throw new Error(`${v.game}: the search evaluated a position Python's did not`);
    return outputs.get(key);
  };
  const result = await search(game, evaluate, replay(game, v.moves, v.sequence), v.simulations,
    { played: v.played ?? null, firstPlay: v.firstPlay ?? null });
  searches += 1;
  check(same(result.visits, v.visits), `${v.game} search after [${v.moves}]: visits ${result.visits} != ${v.visits}`);
}

for (const v of vectors.settai || []) {
  const choice = settaiChoice(v.actions, v.q, v.margins, ...(v.aims || [0, 0]));
  check(choice === v.choice, `settai over q ${v.q}, margins ${v.margins} and aims ${v.aims}: ${choice} != ${v.choice}`);
}

const drift = new SettaiDrift();
let settaiMoves = 0;
for (const v of vectors.settai_games || []) {
  const game = GAMES[v.game];
  for (const step of v.steps) {
    const state = replay(game, v.moves.slice(0, step.ply));
    const actions = game.legalActions(state);
    const aims = drift.aims(game, state, ...step.now);
    const choice = settaiChoice(actions, step.q, step.margins, ...aims);
    const where = `settai game after [${v.moves.slice(0, step.ply)}]`;
    check(same(aims, step.aims), `${where}: aims ${aims} != ${step.aims}`);
    check(choice === step.choice, `${where}: ${choice} != ${step.choice}`);
    drift.chose(game.next(state, choice), ...step.after);
    settaiMoves += 1;
  }
}

for (const v of vectors.settai_endgames || []) {
  const choice = settaiEndgame(GAMES[v.game], replay(GAMES[v.game], v.moves));
  check(choice === v.choice, `settai endgame after [${v.moves}]: ${choice} != ${v.choice}`);
}

for (const v of vectors.solved || []) {
  const solved = solveMargin(GAMES[v.game], replay(GAMES[v.game], v.moves));
  check(JSON.stringify(solved) === JSON.stringify(v.solved), `solved endgame after [${v.moves}]: ${JSON.stringify(solved)} != ${JSON.stringify(v.solved)}`);
}

if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log(`checked ${positions} positions, ${searches} searches, ${(vectors.settai || []).length} settai choices and `
  + `${settaiMoves} settai moves of ${(vectors.settai_games || []).length} games, `
  + `${(vectors.settai_endgames || []).length} settai endgames, ${(vectors.solved || []).length} solved endgames`);
