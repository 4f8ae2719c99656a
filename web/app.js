// The page: a board to click, the AI's search on onnxruntime-web, its move shares and value.
//
// play_web.py serves this folder, onnxruntime-web's files under /ort/, the game's model as
// /model.onnx and /config.json ({ game, simulations, error }). <body data-state> tells tests where
// the game is: loading, human, thinking, over or error.

import * as ort from '/ort/ort.wasm.min.mjs';
import { GAMES } from './games.js';
import { bestAction, search } from './mcts.js';

// Board, grid lines, and the first and second player's stones (tic-tac-toe draws the book's o and x)
const COLORS = {
  tictactoe: { board: '#00a0ff', lines: '#0077bb', stones: null },
  connect4: { board: '#1565c0', lines: '#0d3c85', stones: ['#e53935', '#fdd835'] },
  othello6: { board: '#2e7d32', lines: '#1b4d1e', stones: ['#111', '#fafafa'] },
  othello8: { board: '#2e7d32', lines: '#1b4d1e', stones: ['#111', '#fafafa'] },
};

const $ = (id) => document.getElementById(id);
let game, session, state, humanFirst = true, generation = 0, analysis = null;

function showError(message) {
  $('error').textContent = message;
  $('error').style.display = 'block';
  $('status').textContent = '';
  document.body.dataset.state = 'error';
}

// The network on one position: the move probabilities and the value for the side to move
async function evaluate(position) {
  const input = new ort.Tensor('float32', game.planes(position), [1, game.rows, game.columns, 2]);
  const output = await session.run({ input });
  return { policy: output.pi.data, value: output.v.data[0] };
}

const humanToMove = () => game.isFirstPlayer(state) === humanFirst;

// ----- drawing -----
function render() {
  const board = $('board');
  const colors = COLORS[game.name];
  board.style.background = colors.lines;
  board.style.gridTemplateColumns = `repeat(${game.columns}, 64px)`;
  board.replaceChildren();
  const cells = game.cells(state);

  // The search's share of visits per square (Connect Four: the square the stone would land on)
  const shares = new Map();
  if (analysis && analysis.state === state) {
    const total = analysis.visits.reduce((a, b) => a + b, 0) || 1;
    analysis.actions.forEach((action, i) => shares.set(game.actionSquare(state, action), analysis.visits[i] / total));
  }
  for (let square = 0; square < game.squares; square++) {
    const div = document.createElement('div');
    div.className = 'square';
    div.dataset.square = square;
    div.style.background = colors.board;
    if (cells[square]) {
      if (colors.stones) {
        const stone = document.createElement('div');
        stone.className = 'stone';
        stone.style.background = colors.stones[cells[square] === 1 ? 0 : 1];
        div.append(stone);
      } else {
        const mark = document.createElement('span');
        mark.className = 'mark';
        mark.textContent = cells[square] === 1 ? 'o' : 'x';
        div.append(mark);
      }
    }
    if (shares.has(square) && shares.get(square) > 0) {
      const heat = document.createElement('div');
      heat.className = 'heat';
      heat.style.opacity = (0.15 + 0.6 * shares.get(square)).toFixed(2);
      const label = document.createElement('span');
      label.className = 'share';
      label.textContent = `${Math.round(100 * shares.get(square))}%`;
      div.append(heat, label);
    }
    div.addEventListener('click', () => clickSquare(square));
    board.append(div);
  }

  // The value bar, from the human's side: the expected score (1 win, 0 loss) is (value + 1) / 2
  if (analysis) showValue(analysis.humanValue, "AI's estimate");
}

function showValue(humanValue, label) {
  const percent = Math.round(50 * (humanValue + 1));
  $('value-human').style.width = `${percent}%`;
  $('value-text').textContent = `${label}: you ${percent}% - AI ${100 - percent}%`;
}

function setStatus(text, pageState) {
  $('status').textContent = text;
  document.body.dataset.state = pageState;
}

// ----- the game -----
async function afterMove() {
  const mine = generation;  // changes when a move is made or a new game starts
  if (game.isDone(state)) {
    const value = game.terminalValue(state);  // for the side to move
    const humanValue = humanToMove() ? value : -value;
    analysis = null;
    render();
    showValue(humanValue, 'Result');
    setStatus(humanValue > 0 ? 'You win' : humanValue < 0 ? 'You lose' : 'Draw', 'over');
    return;
  }
  // Search the position for whoever moves: the AI's move, or its suggestion to the human
  analysis = null;
  render();
  setStatus(humanToMove() ? 'Your move' : 'AI is thinking…', humanToMove() ? 'human' : 'thinking');
  const simulations = Math.max(1, Number($('simulations').value) || 1);
  const result = await search(game, evaluate, state, simulations);
  if (mine !== generation) return;  // a move or a new game came first
  // The search's value is for the side to move; the bar shows it from the human's side
  analysis = { ...result, state, humanValue: humanToMove() ? result.value : -result.value };
  render();
  if (!humanToMove()) {
    generation += 1;
    state = game.next(state, bestAction(result));
    return afterMove();
  }
  // A human with no square to click (Othello) passes
  const legal = game.legalActions(state);
  if (legal.length === 1 && game.actionSquare(state, legal[0]) < 0) {
    setStatus('You have no move and pass', 'thinking');
    await new Promise((resolve) => setTimeout(resolve, 800));
    if (mine !== generation) return;
    generation += 1;
    state = game.next(state, legal[0]);
    return afterMove();
  }
  setStatus('Your move', 'human');
}

function clickSquare(square) {
  if (document.body.dataset.state !== 'human') return;
  const action = game.squareAction(square);
  if (!game.legalActions(state).includes(action)) return;  // an illegal square does nothing
  generation += 1;  // the suggestion still being searched is for the old position
  state = game.next(state, action);
  afterMove().catch((error) => showError(`The model failed: ${error.message}`));
}

function newGame() {
  if (!game || !session) return;
  generation += 1;
  humanFirst = $('side').value === 'first';
  state = game.initial();
  analysis = null;
  afterMove().catch((error) => showError(`The model failed: ${error.message}`));
}

async function main() {
  const config = await (await fetch('config.json')).json();
  game = GAMES[config.game];
  $('title').textContent = `AlphaZero: ${config.game}`;
  document.title = `AlphaZero: ${config.game}`;
  $('simulations').value = config.simulations;
  if (!game) return showError(`Unknown game ${config.game}.`);
  state = game.initial();
  render();
  if (config.error) return showError(config.error);

  // onnxruntime-web's WebAssembly files come from the npm package, served under /ort/
  ort.env.wasm.wasmPaths = '/ort/';
  ort.env.wasm.numThreads = 1;
  try {
    session = await ort.InferenceSession.create('model.onnx');
    await evaluate(state);  // a model for another board fails here, before the first move
  } catch (error) {
    return showError(`Cannot use the model for ${config.game}: ${error.message || error}`);
  }
  $('new-game').addEventListener('click', newGame);
  newGame();
}

main().catch((error) => showError(`The page failed to start: ${error.message || error}`));
