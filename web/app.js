// The page: a board to click, the AI's search on onnxruntime-web, its move shares and value.
//
// play_web.py serves this folder, onnxruntime-web's files under /ort/, each game's model as
// /model/NAME.onnx and /config.json
// ({ game, near, games: { NAME: { simulations, levels, level, firstPlay, error, look, handicaps } } }:
// each game's levels with their measured Elo, alphazero/play/levels.py, and how the game looks: its
// names, colours, stones or marks, and pieces, from the game itself, play_web.py's page_look). <body data-state> tells tests
// where the game is: loading, human, thinking, over or error; #board's data-searched is the number
// of simulations of the last search (0 for the policy alone or settai mode).

import * as ort from '/ort/ort.wasm.min.mjs';
import { GAMES } from './games.js';
import { LANGUAGES, startingLanguage, words } from './i18n.js';
import { SETTAI_MIN_SIMS, SettaiDrift, bestAction, fairSearch, policyChoice, search, settaiSearch, solveMargin } from './mcts.js';

// A piece's steps (dx, dy) as the dots of the style sheet, .step0 (up) to .step7, clockwise
const STEP_DOTS = ['0,-1', '1,-1', '1,0', '1,1', '0,1', '-1,1', '-1,0', '-1,-1'];

const $ = (id) => document.getElementById(id);
// A game's name and a piece's, in the page's language (English where the game gives no other)
const inLanguage = (names) => names[language] || names.en;
const gameName = (name) => inLanguage(config.games[name].look.title);
const pieceName = (piece) => inLanguage(colors.pieces[piece].name);
// A player's side by its stones' colour or its mark (a colour the page has no word for: as the game names it)
const sideName = (player) => text.sides[colors.names[player]] || colors.names[player];
let game, session, colors, config, current;  // current: the name of the game being played; colors: its look

let language = startingLanguage(), text = words(language);
let history = [];      // every position of the game so far, from the start
let played = [];       // the actions between them
let chances = [];      // the AI's estimate of the human's expected score (0 to 1) at each position
let margins = [];      // Othello's last empties: the human's exact final margin at each position solved
let bests = [];        // the AI's best move at each position it searched (what the review offers)
let judged = [];       // each of the human's moves reviewed: { before, after, best } (before: the
                       // human's expected score with the best other move, after: with the move played)
// The review marks a move of yours that lost this much or more of your expected score (0 to 1)
const BAD_MOVE = 0.2, DUBIOUS_MOVE = 0.1;
let humanFirst = true, generation = 0, analysis = null, focusSquare = 0, started = new Date();
let selected = null;   // shogi: the piece picked to move, { square } or { piece } from the hand
let flipped = false;   // the board turned round: the second player's side at the bottom (canFlip's games)
let resigned = false;  // the side to move in the last position resigned (投了: the player's, or a loaded KIF's)
const settaiDrift = new SettaiDrift();  // what settai mode has seen of the human in this game (Othello: match.py's settai_for)

const state = () => history[history.length - 1];
let reviewing = null;  // review of a finished game: the index of the position shown, else null
const shownIndex = () => (reviewing === null ? history.length - 1 : reviewing);
const humanToMove = () => game.isFirstPlayer(state()) === humanFirst;
// The human made move ply (from history[ply]): by the side to move there, so that passes and a
// handicap game, whose 上手 moves first, count right
const humanMoved = (ply) => game.isFirstPlayer(history[ply]) === humanFirst;

function showError(message) {
  $('error').textContent = message;
  $('error').style.display = 'block';
  $('status').textContent = '';
  document.body.dataset.state = 'error';
}

// Settai mode searches every legal move on its own; where that would take longer than this at the
// network's speed here (full shogi: some 80 moves), each move gets fewer simulations, and the page says so
const SETTAI_SECONDS = 8;
let evaluations = 0, evaluationTime = 0;  // the network's speed on this machine, measured as it plays

// The network on one position: the move probabilities and the value for the side to move
async function evaluate(position) {
  const input = new ort.Tensor('float32', game.planes(position), [1, game.rows, game.columns, game.channels]);
  const start = performance.now();
  const output = await session.run({ input });
  evaluations += 1;
  evaluationTime += performance.now() - start;
  return { policy: output.pi.data, value: output.v.data[0], margin: output.margin ? output.margin.data[0] : undefined };
}

// How the model searches: with the first-play reduction its model.json measured (null: the book's draw)
const searchOptions = () => ({ firstPlay: config.games[current].firstPlay ?? null });

// ----- levels, and the adaptive level: the player's rating, kept per game in the browser -----
const levelsOf = () => config.games[current].levels;
const chosenLevel = () => levelsOf().find((level) => level.number === Number($('level').value));
const measured = () => levelsOf().filter((level) => level.elo !== null);
const ratingKey = () => `rating:${current}`;

// The player's rating: the one kept, else a new player's: that of the second measured level
function playerRating() {
  const kept = JSON.parse(localStorage.getItem(ratingKey()) || 'null');
  const start = measured()[Math.min(1, measured().length - 1)];
  return kept || { rating: start.elo, games: 0 };
}

// What a handicap costs the AI in Elo (model.json's measured `handicaps`; 0 for 平手, and where the
// measurement found it no weaker)
const handicapCost = (name = $('handicap').value) => Math.max(0, (name && (config.games[current].handicaps || {})[name]) || 0);

// After a finished game against a measured level: the Elo update (larger for the first games),
// against the level's Elo less what the handicap it gave costs it
function rate(score, level) {
  const now = playerRating();
  const expected = 1 / (1 + 10 ** ((level.elo - handicapCost() - now.rating) / 400));
  const k = now.games < 5 ? 100 : 40;
  localStorage.setItem(ratingKey(), JSON.stringify({ rating: now.rating + k * (score - expected), games: now.games + 1 }));
}

// With the adaptive level on: the measured level nearest the player's rating
function followRating() {
  if (!$('adaptive').checked || !measured().length) return;
  const { rating } = playerRating();
  const nearest = measured().reduce((a, b) => (Math.abs(b.elo - rating) < Math.abs(a.elo - rating) ? b : a));
  $('level').value = String(nearest.number);
}

function renderRating() {
  const ladder = measured().length > 0;
  $('adaptive').disabled = !ladder;
  $('reset-rating').disabled = !ladder;
  $('settai').disabled = Boolean(game && game.determinize);  // settai searches the whole position; this game hides part
  if (!ladder) {
    $('rating').textContent = text.notMeasured;
    return;
  }
  const { rating, games } = playerRating();
  $('rating').textContent = text.rating(Math.round(rating), games);
  // Full shogi: the handicap whose AI, at the chosen level, is nearest the player's rating
  const costs = Object.keys(config.games[current].handicaps || {}).map((name) => [name, handicapCost(name)]);
  const level = chosenLevel();
  const suited = costs.length && level && level.elo !== null
    ? [['', 0], ...costs].reduce((a, b) => (Math.abs(level.elo - b[1] - rating) < Math.abs(level.elo - a[1] - rating) ? b : a))
    : null;
  $('handicap-hint').hidden = !suited;
  if (suited) $('handicap-hint').textContent = text.handicapHint(suited[0] ? text.handicapName(suited[0]) : text.even);
}

function resetRating() {
  localStorage.removeItem(ratingKey());
  followRating();
  renderRating();
}

// The page in the chosen language: the fixed words, the game names, the title, and the levels
// (keeping the one chosen, unless the game changed)
function applyLanguage(keepLevel = true) {
  text = words(language);
  document.documentElement.lang = language;
  for (const element of document.querySelectorAll('[data-text]')) element.textContent = text[element.dataset.text];
  $('take-back').title = text.takeBackTitle;
  $('chart').setAttribute('aria-label', text.chartLabel);
  if (document.body.dataset.state !== 'error') $('status').textContent = text[statusKey];
  const title = `AlphaZero: ${gameName(current)}`;
  $('title').textContent = title;
  document.title = title;
  for (const option of $('game').options) option.textContent = gameName(option.value);
  const chosen = keepLevel && $('level').value;
  const standard = config.games[current].level;
  $('level').replaceChildren(...levelsOf().map((level) => new Option(text.levelOption(level, config.near), level.number,
    false, chosen ? String(level.number) === chosen : level.number === standard)));
  $('level').title = text.levelTitle;
  $('settai').parentElement.title = text.settaiTitle;
  renderHandicaps();
  renderRating();
}

// Full shogi's handicaps (駒落ち): 平手 or one of KIF's 手合割, 上手 moving first; the sides as 下手 and
// 上手 then. Hidden for the other games
function renderHandicaps() {
  const names = game && game.handicaps ? Object.keys(game.handicaps) : [];
  $('handicap-label').hidden = !names.length;
  const chosen = $('handicap').value;
  const costs = config.games[current].handicaps || {};
  $('handicap').replaceChildren(new Option(text.even, ''), ...names.map((name) => new Option(
    costs[name] === undefined ? text.handicapName(name) : text.handicapWorth(text.handicapName(name), Math.round(handicapCost(name))),
    name, false, name === chosen)));
  const handicap = Boolean($('handicap').value);
  $('side').options[0].textContent = handicap ? text.shitate : text.first;
  $('side').options[1].textContent = handicap ? text.uwate : text.second;
}
const handicapStart = () => ($('handicap').value ? game.handicaps[$('handicap').value] : undefined);

function chooseLanguage() {
  language = $('lang').value;
  localStorage.setItem('lang', language);
  applyLanguage();
  if (game) render();
}

// The board's coordinates, as the move list names the squares: columns a, b, c... from the left, rows
// 1, 2, 3... from the top (Connect Four's moves name the columns alone)
// (full shogi: files 9 to 1, ranks 一 to 九, as shogi writes them)
function renderLabels() {
  const cell = (label) => { const span = document.createElement('span'); span.textContent = label; return span; };
  const columns = $('column-labels'), rows = $('row-labels');
  const labels = game.labels ? game.labels(language) : {
    columns: Array.from({ length: game.columns }, (_, c) => String.fromCharCode(97 + c)),
    rows: Array.from({ length: game.rows }, (_, r) => (current === 'connect4' ? '' : String(r + 1))),
  };
  columns.style.gridTemplateColumns = `repeat(${game.columns}, var(--cell))`;
  columns.style.setProperty('--cell', $('board').style.getPropertyValue('--cell'));
  const turned = (list) => (flipped ? [...list].reverse() : list);
  columns.replaceChildren(...turned(labels.columns).map(cell));
  rows.style.gridTemplateRows = `repeat(${game.rows}, var(--cell))`;
  rows.style.setProperty('--cell', $('board').style.getPropertyValue('--cell'));
  rows.replaceChildren(...turned(labels.rows).map(cell));
}

// The board turns round as shogi GUIs turn it (the player of 後手 or 上手, or of white at Othello, sees
// their side at the bottom), and the flip button turns it at any time; not Connect Four, whose stones fall
const canFlip = () => current !== 'connect4';
function flipBoard() {
  flipped = !flipped;
  render();
}

// ----- drawing -----
// A stone (point-Othello: with its value on it), or tic-tac-toe's o or x
function stoneElement(player, value) {
  if (!colors.stones) {
    const mark = document.createElement('span');
    mark.className = 'mark';
    mark.textContent = colors.names[player];
    return mark;
  }
  const stone = document.createElement('div');
  stone.className = 'stone';
  stone.style.background = colors.stones[player];
  if (value !== undefined) {
    stone.textContent = `${value > 0 ? '+' : ''}${value}`;
    stone.style.color = colors.stones[1 - player];
  }
  return stone;
}

const signed = (value) => `${value > 0 ? '+' : ''}${value}`;

// A shogi piece: its letter, and a dot towards each step it can take (the second player's turned round)
function pieceElement(player, piece) {
  const tile = document.createElement('div');
  tile.className = 'piece';
  tile.title = `${sideName(player)} ${pieceName(piece)}`;
  tile.textContent = colors.pieces[piece].letter;
  if (player === 1) {  // the second player's pieces: turned round, on a darker tile
    tile.style.transform = 'rotate(180deg)';
    tile.style.background = '#d7ccc8';
  }
  for (const [dx, dy] of colors.pieces[piece].steps) {
    const dot = document.createElement('span');
    dot.className = `step step${STEP_DOTS.indexOf(`${dx},${dy}`)}`;
    tile.append(dot);
  }
  return tile;
}

// A square's name for people and screen readers
const squareLabel = (square) => (game.squareName ? game.squareName(square) : game.actionName(game.squareAction(square)));

// Shogi: what a click means while a piece is (or is not) picked
const fromSelected = (now, action) => (selected.piece ? game.dropPiece(action, now) === selected.piece
  : game.sourceSquare(now, action) === selected.square);

// A move's name in the move list and the review: full shogi's in Japanese as KIF writes it (▲７六歩(77))
const moveName = (action, position) => (language === 'ja' && game.japaneseName ? game.japaneseName(action, position)
  : game.actionName(action, position));

// A small disc of the player's colour before its name (tic-tac-toe: the name, o or x, alone)
function named(player) {
  if (!colors.stones) return [colors.names[player]];
  const span = document.createElement('span');
  span.className = 'chip';
  span.style.background = colors.stones[player];
  return [span, ` ${sideName(player)}`];
}

function render() {
  const board = $('board');
  const hadFocus = board.contains(document.activeElement);
  board.style.background = colors.lines;
  board.style.setProperty('--cell', `min(64px, calc((100vw - 4rem) / ${game.columns}))`);  // room for the row numbers
  board.style.gridTemplateColumns = `repeat(${game.columns}, var(--cell))`;
  board.replaceChildren();
  board.classList.toggle('flipped', flipped);
  $('flip').hidden = !canFlip();
  const now = history[shownIndex()];
  const cells = game.cells(now);
  const over = game.isDone(now) || (resigned && now === state());

  // What to mark: the legal moves on the human's turn, the last move, the winning line
  // (shogi: the squares the picked piece can go to, else the pieces that can move)
  const humanActions = !over && humanToMove() && document.body.dataset.state === 'human' ? game.legalActions(now) : [];
  const legal = new Set(!game.sourceSquare ? humanActions.map((a) => game.actionSquare(now, a))
    : selected ? humanActions.filter((a) => fromSelected(now, a)).map((a) => game.actionSquare(now, a))
      : humanActions.map((a) => game.sourceSquare(now, a)).filter((s) => s >= 0));
  const index = shownIndex();
  const last = index ? game.actionSquare(history[index - 1], played[index - 1]) : -1;
  const line = new Set((over && game.winningLine(now)) || []);

  // The search's share of visits per square (Connect Four: the square the stone would land on)
  const shares = new Map();
  if ($('heat').checked && analysis && analysis.state === now) {
    const total = analysis.visits.reduce((a, b) => a + b, 0) || 1;
    analysis.actions.forEach((action, i) => {
      const square = game.actionSquare(now, action);  // shogi: the moves to one square add up
      shares.set(square, (shares.get(square) || 0) + analysis.visits[i] / total);
    });
  }
  for (let square = 0; square < game.squares; square++) {
    const button = document.createElement('button');
    button.className = 'square';
    button.dataset.square = square;
    button.style.background = colors.board;
    button.tabIndex = square === focusSquare ? 0 : -1;
    const owner = cells[square] > 0 ? 0 : cells[square] < 0 ? 1 : null;
    const piece = game.sourceSquare && owner !== null ? Math.abs(cells[square]) : 0;
    button.setAttribute('aria-label', `${squareLabel(square)}: ` + (owner === null ? (legal.has(square) ? text.legalMove : text.empty)
      : `${sideName(owner)}${piece ? ` ${pieceName(piece)}` : ''}`));
    if (piece) button.append(pieceElement(owner, piece));
    else if (owner !== null) button.append(stoneElement(owner, now.values ? now.values[square] : undefined));
    if (selected && selected.square === square) button.classList.add('picked');
    if (legal.has(square)) button.classList.add('legal');
    if (square === last) button.classList.add('last');
    if (line.has(square)) button.classList.add('win');
    if (shares.get(square) > 0) {
      const heat = document.createElement('div');
      heat.className = 'heat';
      heat.style.opacity = (0.15 + 0.6 * shares.get(square)).toFixed(2);
      const label = document.createElement('span');
      label.className = 'share';
      label.textContent = `${Math.round(100 * shares.get(square))}%`;
      button.append(heat, label);
    }
    button.addEventListener('click', () => clickSquare(square));
    button.addEventListener('focus', () => { focusSquare = square; });
    board.append(button);
  }
  if (hadFocus) board.children[focusSquare].focus();
  renderLabels();

  // Who is who; the disc count in Othello
  const you = humanFirst ? 0 : 1;
  $('you').replaceChildren(text.you, ...named(you), humanFirst ? text.playsFirst : text.playsSecond, text.ai, ...named(1 - you));
  if (game.scores) {
    // Point-Othello: both scores, and the values a player sees (the one to place now and the next three)
    const [own, other] = game.scores(now);
    const [first, second] = game.isFirstPlayer(now) ? [own, other] : [other, own];
    $('score').replaceChildren(...named(0), `${text.points(first)}  –  `, ...named(1), text.points(second));
    const [next, ...later] = game.visibleValues(now);
    $('upcoming').textContent = next === undefined ? '' : text.toPlace(signed(next), later.map(signed).join('  '));
  } else if (game.discCounts) {
    const [first, second] = game.discCounts(now);
    $('score').replaceChildren(...named(0), ` ${first}  –  `, ...named(1), ` ${second}`);
  }
  if (game.hands) renderHands(now);
  renderMoves();
  renderChances(over);
}

// Shogi: each side's pieces in hand, the second player's above the board, the first player's below,
// one per kind with its count; a click on one of yours picks it to drop
function renderHands(now) {
  game.hands(now).forEach((hand, player) => {
    const box = $(player === (flipped ? 1 : 0) ? 'hand-bottom' : 'hand-top');  // the side at the bottom's below
    box.replaceChildren(text.inHand(sideName(player)));
    for (const piece of game.handKinds || [1, 2, 3]) {
      if (!hand[piece]) continue;
      const button = document.createElement('button');
      button.className = 'in-hand';
      button.dataset.piece = piece;
      button.dataset.player = player;
      button.append(pieceElement(player, piece));
      if (hand[piece] > 1) {
        const count = document.createElement('span');
        count.className = 'count';
        count.textContent = hand[piece];
        button.append(count);
      }
      if (selected && selected.piece === piece && player === (humanFirst ? 0 : 1)) button.classList.add('picked');
      button.addEventListener('click', () => { if (player === (humanFirst ? 0 : 1)) pick({ piece }); });
      box.append(button);
    }
  });
}

// ----- reviewing a finished game: step through its positions with the AI's estimate and best move -----
async function review(index) {
  if (!isOver()) return;
  generation += 1;
  const mine = generation;
  reviewing = index >= history.length - 1 ? null : Math.max(0, index);
  analysis = null;
  if (reviewing === null) return afterMove();  // the last position: the finished game again
  const position = history[reviewing];
  setStatus('reviewStatus', 'reviewing');
  render();
  if (!game.isDone(position)) {
    const result = await fairSearch(game, evaluate, position, config.games[current].simulations, searchOptions());
    if (mine !== generation) return;
    analysis = { ...result, state: position };
    const humanMoves = game.isFirstPlayer(position) === humanFirst;
    chances[reviewing] = ((humanMoves ? result.value : -result.value) + 1) / 2;
  }
  setStatus('reviewStatus', 'review');
  render();
}

// ----- saving and loading a game -----
// The game as text, in the move list's notation: Othello a transcript without its passes
// ('f5d6c3'), Connect Four its columns ('dcde'), simple shogi its moves with spaces ('b2b3 b1c2
// C*a2'); full shogi a KIF record, which the shogi GUIs read
function recordText() {
  if (game.kifRecord) {
    const ai = `AlphaZero (${$('level').selectedOptions[0].textContent.split(' – ')[0]})`;
    // Each move's comment, for its mover: the AI's move with its estimate and the move it chose; the
    // human's move with the estimate of the position it made and the AI's answer there (the line
    // from the move played, not the AI's alternative)
    const evaluations = {};
    played.forEach((action, ply) => {
      const human = humanMoved(ply);
      const chance = human ? chances[ply + 1] : chances[ply];
      if (chance === undefined) return;
      const value = human ? 2 * chance - 1 : 1 - 2 * chance;  // chances are the human's expected score
      const line = human ? [action, bests[ply + 1]] : [bests[ply]];
      evaluations[ply] = { value, line: line.filter((a) => a !== undefined) };
    });
    return game.kifRecord(state(), humanFirst ? [text.human, ai] : [ai, text.human], started, evaluations, resigned);
  }
  const names = played.map((a, ply) => game.actionName(a, history[ply])).filter((name) => name !== 'pass');
  return names.join(game.sourceSquare ? ' ' : '');
}

// The moves a text names from the start: each the legal move whose name comes next (any case;
// spaces, commas and move numbers such as '12.' between them are skipped; Connect Four also takes
// the columns as 1-7); a pass that is the only move is played whether written or not; full shogi
// also reads KIF (numbered lines of moves, ７六歩(77)), KI2 (▲７六歩 △同　歩) and CSA (+7776FU).
// { moves } or { error }
function parseRecord(record) {
  const shogiRecord = game.recordMoves ? game.recordMoves(record) : null;
  if (shogiRecord) {
    const { moves, handicap, resigned: gaveUp, error, plies } = shogiRecord;
    return error === undefined ? { moves, handicap, resigned: gaveUp } : { error: text.notLegal(error, plies) };
  }
  let position = game.initial(handicapStart()), rest = record.toLowerCase();
  const moves = [];
  const play = (action, length) => { moves.push(action); position = game.next(position, action); rest = rest.slice(length); };
  for (;;) {
    rest = rest.replace(/^(\s|[,;]|\d+\.)+/, '');
    if (!rest) return { moves };
    if (game.isDone(position)) return { error: text.overBefore(rest.slice(0, 12)) };
    const legal = game.legalActions(position);
    const names = legal.map((a) => [game.actionName(a, position).toLowerCase(), a]);
    if (names.length === 1 && names[0][0] === 'pass') {
      play(legal[0], rest.startsWith('pass') ? 4 : 0);
      continue;
    }
    if (current === 'connect4') names.push(...legal.map((a) => [String(a + 1), a]));
    const found = names.filter(([name]) => rest.startsWith(name)).sort((x, y) => y[0].length - x[0].length)[0];
    if (!found) return { error: text.notLegal(rest.split(/\s/)[0].slice(0, 12), moves.length) };
    play(found[1], found[0].length);
  }
}

function loadRecord() {
  if (!game || !session) return;
  if (current === 'pointothello') {
    $('record-error').textContent = text.randomDeal;
    return;
  }
  const parsed = parseRecord($('record').value);
  if (parsed.error) {
    $('record-error').textContent = parsed.error;
    return;
  }
  if (game.handicaps && parsed.handicap !== undefined) {  // a KIF names its start: 平手 or a handicap
    $('handicap').value = parsed.handicap;
    renderHandicaps();
  }
  startGame(parsed.moves, Boolean(parsed.resigned));
}

// A record file opened from the computer: its text (UTF-8, else Shift_JIS, in which shogi GUIs write
// .kif files) into the record box, then loaded as if pasted
async function openRecord() {
  const [file] = $('record-file').files;
  if (!file) return;
  const bytes = await file.arrayBuffer();
  let textOf;
  try {
    textOf = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    textOf = new TextDecoder('shift_jis').decode(bytes);
  }
  $('record').value = textOf;
  $('record-file').value = '';
  loadRecord();
}

function saveRecord() {
  const link = document.createElement('a');
  // Full shogi: a .kifu file (KIF in UTF-8, as ShogiHome and 将棋所 read it)
  link.href = URL.createObjectURL(new Blob([game.kifRecord ? recordText() : recordText() + '\n'], { type: 'text/plain' }));
  link.download = `${current}-game.${game.kifRecord ? 'kifu' : 'txt'}`;
  link.click();
  URL.revokeObjectURL(link.href);
}

function renderMoves() {
  if (document.activeElement !== $('record')) $('record').value = recordText();
  const list = $('moves');
  list.replaceChildren();
  for (let ply = 0; ply < played.length; ply += 2) {
    const item = document.createElement('li');
    item.textContent = played.slice(ply, ply + 2).map((a, i) => moveName(a, history[ply + i])).join('  ');
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
  $('take-back').disabled = !played.some((_, ply) => humanMoved(ply));
}

// The human's moves that lost DUBIOUS_MOVE or more of their expected score: { ply, before, after,
// bad, best } (ply: the position the move was made in), as judged by judgeMoves
function mistakes() {
  const found = [];
  judged.forEach((judgement, ply) => {
    if (!judgement || judgement.before - judgement.after < DUBIOUS_MOVE) return;
    found.push({ ply, ...judgement, bad: judgement.before - judgement.after >= BAD_MOVE });
  });
  return found;
}

// A finished game: the positions not searched while it was played (a loaded game's) are searched
// now, one after another, so that the chart covers the whole game; then each of the human's moves
// is judged by one search of its position that gives the move played its share (PLAYED_SHARE):
// the best other move's value against the played move's, from the same tree, as
// alphazero/play/review.py judges them. The move the search prefers is never marked
async function analyzeGame(mine) {
  const sims = config.games[current].simulations;
  for (let ply = 0; ply < history.length - 1; ply++) {
    if (chances[ply] !== undefined) continue;
    const position = history[ply];
    const result = await fairSearch(game, evaluate, position, sims, searchOptions());
    if (mine !== generation) return;  // a new game, a take-back or the review came first
    chances[ply] = ((game.isFirstPlayer(position) === humanFirst ? result.value : -result.value) + 1) / 2;
    bests[ply] = bestAction(result);
    render();
  }
  for (let ply = 0; ply < played.length; ply++) {
    if (judged[ply] !== undefined || !humanMoved(ply) || game.legalActions(history[ply]).length < 2) continue;  // a forced move (a pass) is no choice
    const result = await search(game, evaluate, history[ply], sims, { ...searchOptions(), played: played[ply] });
    if (mine !== generation) return;
    judged[ply] = judgement(result, played[ply], ply + 1 === history.length - 1 ? finalScore() : undefined);
    render();
  }
  document.body.dataset.judged = played.length;  // every move of the game judged (what tests wait for)
}

// { before, after, best } of a move from its review search: `final`, the human's score when the
// move ended the game (then exact); the played move is the preferred one when no other is worth more
function judgement({ actions, visits, q }, action, final) {
  const i = actions.indexOf(action);
  let other = -1;
  visits.forEach((n, j) => { if (j !== i && n > 0 && (other < 0 || n > visits[other])) other = j; });
  const after = final ?? (q[i] + 1) / 2;
  if (other < 0 || (q[other] + 1) / 2 <= after) return { before: after, after, best: action };
  return { before: (q[other] + 1) / 2, after, best: actions[other] };
}

// The human's score in a finished game (1 won, 0.5 drawn, 0 lost), else undefined
function finalScore() {
  const last = state();
  if (!isOver()) return undefined;
  const value = finalValue();
  return ((game.isFirstPlayer(last) === humanFirst ? value : -value) + 1) / 2;
}

// Over by the rules or by a resignation; the final value for the side to move (-1: it resigned)
const isOver = () => game.isDone(state()) || resigned;
const finalValue = () => (resigned ? -1 : game.terminalValue(state()));

// 投了: the player gives up the game on their move
function resign() {
  if (document.body.dataset.state !== 'human' || isOver()) return;
  generation += 1;
  resigned = true;
  afterMove().catch(failed);
}

// After the game: each marked move (悪手 / 疑問手) with the estimates around it and the AI's move there;
// a click steps the review to its position
function renderMistakes(over) {
  const list = $('mistakes');
  list.replaceChildren();
  if (!over) return;
  for (const { ply, before, after, bad } of mistakes()) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.className = bad ? 'bad-move' : 'dubious-move';
    const best = moveName(judged[ply].best, history[ply]);
    button.textContent = text.mistake(ply + 1, moveName(played[ply], history[ply]), bad ? text.badMove : text.dubiousMove,
      Math.round(100 * before), Math.round(100 * after), best);
    button.addEventListener('click', () => review(ply).catch(failed));
    item.append(button);
    list.append(item);
  }
  if (!list.children.length) list.append(Object.assign(document.createElement('li'), { textContent: text.noMistakes, className: 'none' }));
}

// The estimate as text (the result once the game is over) and as a small chart over the game, with
// the marked moves (red: 悪手, orange: 疑問手)
function renderChances(over) {
  const index = shownIndex(), now = history[index];
  if (over) {
    const value = game.terminalValue(now);  // for the side to move
    const human = game.isFirstPlayer(now) === humanFirst ? value : -value;
    $('value-text').textContent = human > 0 ? text.resultWon : human < 0 ? text.resultLost : text.resultDraw;
  } else if (margins[index] !== undefined) {
    $('value-text').textContent = text.solved(margins[index]);
  } else if (chances[index] !== undefined) {
    const percent = Math.round(100 * chances[index]);
    $('value-text').textContent = text.estimate(percent, 100 - percent);
  }
  $('review').hidden = !isOver();
  if (reviewing !== null && analysis && analysis.state === now) {
    $('review-text').textContent = text.reviewAt(index, history.length - 1, moveName(bestAction(analysis), now));
  } else {
    $('review-text').textContent = reviewing === null ? '' : text.reviewAt(index, history.length - 1, over ? '-' : '…');
  }
  const chart = $('chart');
  const width = chart.width.baseVal.value, height = chart.height.baseVal.value;
  const plies = Math.max(history.length - 1, 10);
  const x = (ply) => 4 + (width - 8) * ply / plies, y = (p) => 4 + (height - 8) * (1 - p);
  const points = chances.map((p, ply) => (p === undefined ? null : `${x(ply).toFixed(1)},${y(p).toFixed(1)}`))
    .filter(Boolean).join(' ');
  const marks = mistakes().map(({ ply, after, bad }) => `<circle class="${bad ? 'bad-move' : 'dubious-move'}" `
    + `cx="${x(ply + 1).toFixed(1)}" cy="${y(after).toFixed(1)}" r="4" fill="${bad ? '#d32f2f' : '#fb8c00'}"/>`).join('');
  chart.innerHTML = `<line x1="4" x2="${width - 4}" y1="${y(0.5)}" y2="${y(0.5)}" stroke="#bbb" stroke-dasharray="4 3"/>`
    + `<polyline points="${points}" fill="none" stroke="#43a047" stroke-width="2"/>${marks}`;
  renderMistakes(over || isOver());
}

// The status line, by the key of its words (so that it follows a change of language)
let statusKey = 'loading';
function setStatus(key, pageState) {
  statusKey = key;
  $('status').textContent = text[key];
  document.body.dataset.state = pageState;
}

// ----- the game -----
function play(action) {
  generation += 1;  // a search still running is for the old position
  reviewing = null;
  selected = null;
  history.push(game.next(state(), action));
  played.push(action);
  chances.length = history.length - 1;
  margins.length = history.length - 1;
  bests.length = history.length - 1;
  judged.length = history.length - 1;
}

async function afterMove() {
  const mine = generation;  // changes when a move is made, taken back, or a new game starts
  analysis = null;
  delete document.body.dataset.judged;
  if (isOver()) {
    const value = finalValue();
    const human = humanToMove() ? value : -value;
    setStatus(human > 0 ? 'youWin' : human < 0 ? 'youLose' : 'draw', 'over');
    countGame((human + 1) / 2);
    render();
    return analyzeGame(mine);
  }
  // Search the position for whoever moves: the AI's move, or its suggestion to the human. The
  // level decides how: its policy alone, or a search of its simulations; in settai mode the AI
  // searches each of its moves and plays the one that keeps the game closest
  setStatus(humanToMove() ? 'yourMove' : 'thinking', humanToMove() ? 'human' : 'thinking');
  render();
  const level = chosenLevel();
  const position = state();
  const settai = !humanToMove() && $('settai').checked && !$('settai').disabled;
  // Othello's last empties are searched to the end, as games/othello8's solve does: the AI (at a
  // searching level) plays the best final margin, and the estimate says it exactly
  const solved = !settai && game.discCounts && !game.determinize && (humanToMove() || level.simulations)
    ? solveMargin(game, position) : null;
  const result = solved ? { choice: solved.action, value: Math.sign(solved.margin) } : settai ? await settaiSearch(game, evaluate, position, settaiSims(position, level.simulations), { ...searchOptions(), drift: game.discCounts ? settaiDrift : null })
    : level.simulations === 0 ? await policyChoice(game, evaluate, position, humanToMove() ? 0 : level.temperature)
      : await fairSearch(game, evaluate, position, level.simulations, searchOptions());
  if (mine !== generation) return;  // a move, a take-back or a new game came first
  // The search's value is for the side to move; the chart shows the human's expected score
  analysis = result.visits ? { ...result, state: position } : null;
  chances[history.length - 1] = ((humanToMove() ? result.value : -result.value) + 1) / 2;
  margins[history.length - 1] = solved ? (humanToMove() ? solved.margin : -solved.margin) : undefined;
  bests[history.length - 1] = result.choice ?? (result.visits ? bestAction(result) : undefined);
  $('board').dataset.searched = result.visits && !result.choice ? result.visits.reduce((a, b) => a + b, 1) : 0;
  if (!humanToMove()) {
    play(result.choice ?? bestAction(result));
    return afterMove();
  }
  // A human with no square to click (Othello) passes
  const legal = game.legalActions(position);
  if (legal.length === 1 && game.actionSquare(position, legal[0]) < 0) {
    setStatus('pass', 'thinking');
    await new Promise((resolve) => setTimeout(resolve, 800));
    if (mine !== generation) return;
    play(legal[0]);
    return afterMove();
  }
  setStatus('yourMove', 'human');
  render();
}

const failed = (error) => showError(text.failed(error.message || error));

// The simulations settai mode gives each legal move: the level's, or as many as SETTAI_SECONDS allow
// at the speed measured so far (said beside the switch when fewer)
function settaiSims(position, simulations) {
  const rate = evaluations ? 1000 * evaluations / evaluationTime : Infinity;
  const moves = game.legalActions(position).length;
  const sims = Math.max(SETTAI_MIN_SIMS, Math.min(simulations, Math.floor(rate * SETTAI_SECONDS / moves)));
  $('settai-note').textContent = sims < simulations ? text.settaiSims(sims, moves) : '';
  return sims;
}

function clickSquare(square) {
  if (document.body.dataset.state !== 'human') return;
  if (game.sourceSquare) return pick({ square });
  const action = game.squareAction(square);
  if (!game.legalActions(state()).includes(action)) return;  // an illegal square does nothing
  play(action);
  afterMove().catch(failed);
}

// Shogi: a click picks a piece (on the board or in hand) that can move, or plays the picked piece
// to the square clicked; a click on anything else drops the pick
function pick(target) {
  if (document.body.dataset.state !== 'human') return;
  $('promotion').hidden = true;
  const now = state(), legal = game.legalActions(now);
  if (selected && target.square !== undefined) {
    const actions = legal.filter((a) => fromSelected(now, a) && game.actionSquare(now, a) === target.square);
    if (actions.length) {
      selected = null;
      return actions.length > 1 ? askPromotion(actions) : playHuman(actions[0]);  // full shogi: with or without promoting
    }
  }
  const again = selected && selected.square === target.square && selected.piece === target.piece;
  const movable = legal.some((a) => (target.piece ? game.dropPiece(a, now) === target.piece : game.sourceSquare(now, a) === target.square));
  selected = movable && !again ? target : null;
  render();
}

function playHuman(action) {
  $('promotion').hidden = true;
  play(action);
  afterMove().catch(failed);
}

// Full shogi: a move that may promote asks whether to (成る / 成らない) before it is played
function askPromotion(actions) {
  const now = state();
  const [promoting, staying] = [actions.find((a) => game.promotes(now, a)), actions.find((a) => !game.promotes(now, a))];
  $('promote').onclick = () => playHuman(promoting);
  $('stay').onclick = () => playHuman(staying);
  $('promotion').hidden = false;
  render();
}

// Take back the human's last move and everything after it (the AI's answer)
function takeBack() {
  const last = played.findLastIndex((_, ply) => humanMoved(ply));
  if (last < 0 || document.body.dataset.state === 'error') return;
  generation += 1;
  reviewing = null;
  countedLevel = null;
  history.length = last + 1;
  played.length = last;
  resigned = false;
  chances.length = last + 1;
  margins.length = last + 1;
  bests.length = last + 1;
  judged.length = last + 1;
  afterMove().catch(failed);
}

// A finished game counts for the adaptive level when it was played from the start at one measured
// level, without take-backs or settai mode
let countedLevel = null;
function countGame(score) {
  const level = levelsOf().find((l) => l.number === countedLevel);
  countedLevel = null;
  if (!level || level.elo === null || !$('adaptive').checked || $('settai').checked) return;
  rate(score, level);
  followRating();
  renderRating();
}

// A game from the start with the chosen side, after `moves` (a loaded game's)
function startGame(moves = [], gaveUp = false) {
  if (!game || !session) return;
  generation += 1;
  followRating();
  countedLevel = moves.length ? null : chosenLevel().number;
  humanFirst = $('side').value === 'first';
  flipped = canFlip() && !humanFirst;  // the player's side at the bottom
  started = new Date();
  $('promotion').hidden = true;
  history = [game.initial(handicapStart())];
  played = [];
  for (const action of moves) {
    history.push(game.next(state(), action));
    played.push(action);
  }
  resigned = gaveUp;
  chances = [];
  margins = [];
  bests = [];
  judged = [];
  reviewing = null;
  $('record-error').textContent = '';
  afterMove().catch(failed);
}

const newGame = () => startGame();

// Arrow keys move between squares; Enter and Space press the focused square's button
function onKey(event) {
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -game.columns, ArrowDown: game.columns };
  if (!(event.key in steps)) return;
  const next = focusSquare + (flipped ? -1 : 1) * steps[event.key];  // as the board is seen
  const sameRow = Math.floor(next / game.columns) === Math.floor(focusSquare / game.columns);
  if (next < 0 || next >= game.squares || (Math.abs(steps[event.key]) === 1 && !sameRow)) return;
  event.preventDefault();
  focusSquare = next;
  $('board').children[next].focus();
}

// Switch to a game: its rules, colours and levels, then its model (a missing one is explained, and
// another game can still be picked)
async function loadGame(name) {
  generation += 1;  // a search still running is for the old game
  current = name;
  session = null;
  window.history.replaceState(null, '', `${location.search}#${name}`);
  $('error').style.display = 'none';
  game = GAMES[name];
  if (!game) return showError(text.unknownGame(name));
  colors = config.games[name].look;
  history = [game.initial()];
  played = [];
  resigned = false;
  chances = [];
  margins = [];
  bests = [];
  judged = [];
  selected = null;
  analysis = null;
  reviewing = null;
  focusSquare = 0;
  applyLanguage(false);
  setStatus('loading', 'loading');
  render();
  if (config.games[name].error) return showError(config.games[name].error);
  try {
    const loaded = await ort.InferenceSession.create(`model/${name}.onnx`);
    if (current !== name) return;  // another game was picked meanwhile
    session = loaded;
    await evaluate(state());  // a model for another board fails here, before the first move
  } catch (error) {
    return showError(text.cannotUse(gameName(name), error.message || error));
  }
  newGame();
}

async function main() {
  config = await (await fetch('config.json')).json();
  for (const [code, name] of Object.entries(LANGUAGES)) $('lang').append(new Option(name, code, false, code === language));
  const asked = decodeURIComponent(location.hash.slice(1));
  const first = asked in config.games ? asked : config.game;
  for (const name of Object.keys(config.games)) $('game').append(new Option(name, name, false, name === first));

  // onnxruntime-web's WebAssembly files come from the npm package, served under /ort/
  ort.env.wasm.wasmPaths = '/ort/';
  ort.env.wasm.numThreads = 1;
  $('lang').addEventListener('change', chooseLanguage);
  $('game').addEventListener('change', () => loadGame($('game').value).catch(failed));
  $('new-game').addEventListener('click', newGame);
  $('flip').addEventListener('click', flipBoard);
  $('resign').addEventListener('click', resign);
  $('record-file').addEventListener('change', () => openRecord().catch(failed));
  $('take-back').addEventListener('click', takeBack);
  $('load').addEventListener('click', loadRecord);
  $('review-first').addEventListener('click', () => review(0).catch(failed));
  $('review-back').addEventListener('click', () => review(shownIndex() - 1).catch(failed));
  $('review-forward').addEventListener('click', () => review(shownIndex() + 1).catch(failed));
  $('review-last').addEventListener('click', () => review(history.length - 1).catch(failed));
  $('save').addEventListener('click', saveRecord);
  $('side').addEventListener('change', newGame);  // a new game with the chosen side, at once
  $('handicap').addEventListener('change', () => { renderHandicaps(); newGame(); });  // and handicap
  $('heat').addEventListener('change', render);
  $('level').addEventListener('change', () => { countedLevel = played.length ? null : chosenLevel().number; renderRating(); });
  $('adaptive').checked = localStorage.getItem('adaptive') === 'on';
  $('adaptive').addEventListener('change', () => {
    localStorage.setItem('adaptive', $('adaptive').checked ? 'on' : 'off');
    if (!played.length) followRating();
  });
  $('reset-rating').addEventListener('click', resetRating);
  $('board').addEventListener('keydown', onKey);
  await loadGame(first);
}

main().catch((error) => showError(text.notStarted(error.message || error)));
