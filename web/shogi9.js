// Full shogi (本将棋), as games/shogi9/game.py plays it on cshogi's rules: the moves (promotion, drops,
// the two-pawn rule, no pawn-drop mate, no piece left without a move), the end as floodgate scores it
// (no legal move loses; the fourth occurrence of a position draws, unless one side checked with every
// move of the cycle, and that side loses; 256 plies draw), dlshogi's 119 input planes and the
// article's 1496 move classes. tests/interfaces/test_web.py checks all of it against Python's, and
// the moves' KIF names against cshogi's.
//
// Squares are cshogi's: file * 9 + rank, file 0 the 1-file (on the right), rank 0 rank a (on top).
// Pieces are cshogi's kinds, + 16 for the second player (後手). The page's squares are in reading
// order from the first player's side: row = rank, column 0 the 9-file.

const [PAWN, LANCE, KNIGHT, SILVER, BISHOP, ROOK, GOLD, KING] = [1, 2, 3, 4, 5, 6, 7, 8];
const PROMOTED = 8, WHITE = 16, MAX_PLIES = 256, REPETITIONS = 4, ZONE = 3;
const HAND_KINDS = [PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK];  // cshogi's order of the hands
const HAND_WORDS = [8, 4, 4, 4, 4, 2, 2];                             // dlshogi's planes per hand kind
const SQUARE_PLANES = 62, PLANES = 119;
const START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';
// Handicap games (駒落ち), by KIF's 手合割 names: the start without 上手's pieces, 上手 (後手) to move
// first; alphazero/game/shogi_handicaps.py's, the same as cshogi's table (tests/games/test_shogi9.py)
const HANDICAPS = {
  香落ち: 'lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  右香落ち: '1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  角落ち: 'lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  飛車落ち: 'lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  飛香落ち: 'lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  二枚落ち: 'lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  四枚落ち: '1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  六枚落ち: '2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  八枚落ち: '3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
  十枚落ち: '4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1',
};
const handicapOf = (sfen) => Object.keys(HANDICAPS).find((name) => HANDICAPS[name] === sfen) || null;

// ----- how pieces move: (file, rank) steps of the first player, whose forward is rank - 1 -----
const FORWARD = [[0, -1]];
const GOLD_STEPS = [[0, -1], [1, -1], [-1, -1], [1, 0], [-1, 0], [0, 1]];
const DIAGONALS = [[1, -1], [-1, -1], [1, 1], [-1, 1]];
const ORTHOGONALS = [[0, -1], [1, 0], [-1, 0], [0, 1]];
const MOVES = {
  [PAWN]: { steps: FORWARD, slides: [] },
  [LANCE]: { steps: [], slides: FORWARD },
  [KNIGHT]: { steps: [[1, -2], [-1, -2]], slides: [] },
  [SILVER]: { steps: [[0, -1], [1, -1], [-1, -1], [1, 1], [-1, 1]], slides: [] },
  [BISHOP]: { steps: [], slides: DIAGONALS },
  [ROOK]: { steps: [], slides: ORTHOGONALS },
  [GOLD]: { steps: GOLD_STEPS, slides: [] },
  [KING]: { steps: [...DIAGONALS, ...ORTHOGONALS], slides: [] },
  [BISHOP + PROMOTED]: { steps: ORTHOGONALS, slides: DIAGONALS },
  [ROOK + PROMOTED]: { steps: DIAGONALS, slides: ORTHOGONALS },
};
for (const kind of [PAWN, LANCE, KNIGHT, SILVER]) MOVES[kind + PROMOTED] = MOVES[GOLD];

const kindOf = (piece) => piece & 15;
const colorOf = (piece) => (piece & WHITE ? 1 : 0);
const onBoard = (file, rank) => file >= 0 && file < 9 && rank >= 0 && rank < 9;
// How far a square is from the far edge for `color` (0: its last rank)
const farRank = (square, color) => (color === 0 ? square % 9 : 8 - (square % 9));

// The squares a piece on `square` attacks (a slide stops at the first piece, which it attacks)
function attacks(board, square, piece) {
  const sign = colorOf(piece) ? -1 : 1, file = Math.floor(square / 9), rank = square % 9;
  const { steps, slides } = MOVES[kindOf(piece)];
  const found = [];
  for (const [df, dr] of steps) {
    if (onBoard(file + sign * df, rank + sign * dr)) found.push((file + sign * df) * 9 + rank + sign * dr);
  }
  for (const [df, dr] of slides) {
    for (let f = file + sign * df, r = rank + sign * dr; onBoard(f, r); f += sign * df, r += sign * dr) {
      found.push(f * 9 + r);
      if (board[f * 9 + r]) break;
    }
  }
  return found;
}

// Is `square` attacked by a piece of `color`? Walk out from it: the first piece in each line, and
// the two knights' squares
function attacked(board, square, color) {
  const file = Math.floor(square / 9), rank = square % 9, sign = color ? -1 : 1;
  for (const [df, dr] of [...DIAGONALS, ...ORTHOGONALS]) {
    for (let f = file - sign * df, r = rank - sign * dr, distance = 1; onBoard(f, r); f -= sign * df, r -= sign * dr, distance++) {
      const piece = board[f * 9 + r];
      if (!piece) continue;
      if (colorOf(piece) !== color) break;
      const { steps, slides } = MOVES[kindOf(piece)];
      const along = ([a, b]) => a === df && b === dr;
      if (slides.some(along) || (distance === 1 && steps.some(along))) return true;
      break;
    }
  }
  for (const df of [1, -1]) {
    const f = file - sign * df, r = rank + 2 * sign;
    if (onBoard(f, r) && board[f * 9 + r] === KNIGHT + color * WHITE) return true;
  }
  return false;
}

const kingSquare = (board, color) => board.indexOf(KING + color * WHITE);
const inCheck = (board, color) => attacked(board, kingSquare(board, color), 1 - color);

// ----- moves: { from (-1: a drop), to, promote, kind (the piece moved or dropped), captured } -----
// The board and hands after a move (new arrays)
function applyMove(position, move) {
  const board = position.board.slice(), hands = [position.hands[0].slice(), position.hands[1].slice()];
  const color = position.turn;
  if (move.from < 0) {
    hands[color][HAND_KINDS.indexOf(move.kind)] -= 1;
    board[move.to] = move.kind + color * WHITE;
  } else {
    if (board[move.to]) {
      const captured = kindOf(board[move.to]);
      hands[color][HAND_KINDS.indexOf(captured > KING ? captured - PROMOTED : captured)] += 1;
    }
    board[move.to] = board[move.from] + (move.promote ? PROMOTED : 0);
    board[move.from] = 0;
  }
  return { board, hands };
}

// Every move by the rules of where pieces may go, before the king's safety is checked
function candidateMoves(position) {
  const { board, hands, turn } = position, moves = [];
  for (let from = 0; from < 81; from++) {
    const piece = board[from];
    if (!piece || colorOf(piece) !== turn) continue;
    const kind = kindOf(piece);
    for (const to of attacks(board, from, piece)) {
      if (board[to] && colorOf(board[to]) === turn) continue;
      const mayPromote = kind <= ROOK && (farRank(from, turn) < ZONE || farRank(to, turn) < ZONE);
      const mustPromote = ((kind === PAWN || kind === LANCE) && farRank(to, turn) < 1) || (kind === KNIGHT && farRank(to, turn) < 2);
      if (mayPromote) moves.push({ from, to, promote: true, kind });
      if (!mustPromote) moves.push({ from, to, promote: false, kind });
    }
  }
  const pawnFiles = new Set();
  for (let square = 0; square < 81; square++) if (board[square] === PAWN + turn * WHITE) pawnFiles.add(Math.floor(square / 9));
  HAND_KINDS.forEach((kind, i) => {
    if (!hands[turn][i]) return;
    const lowest = kind === KNIGHT ? 2 : kind === PAWN || kind === LANCE ? 1 : 0;
    for (let to = 0; to < 81; to++) {
      if (board[to] || farRank(to, turn) < lowest || (kind === PAWN && pawnFiles.has(Math.floor(to / 9)))) continue;
      moves.push({ from: -1, to, promote: false, kind });
    }
  });
  return moves;
}

// The legal moves: the king not left attacked, and no pawn dropped to give mate
function legalMoves(position, dropMateMatters = true) {
  return candidateMoves(position).filter((move) => {
    const after = applyMove(position, move);
    if (inCheck(after.board, position.turn)) return false;
    if (!dropMateMatters || move.from >= 0 || move.kind !== PAWN) return true;
    const them = 1 - position.turn;
    if (!inCheck(after.board, them)) return true;
    return legalMoves({ ...after, turn: them }, false).length > 0;
  });
}

// ----- the article's move classes: dlshogi's label (direction * 81 + square, in the mover's view) -----
const DIRECTION_STEPS = [[0, -1], [1, -1], [-1, -1], [1, 0], [-1, 0], [0, 1], [1, 1], [-1, 1], [1, -2], [-1, -2]];
const KNIGHT_JUMPS = [8, 9], PROMOTING = 10, DROPS = 20;

// Can some piece make the move of a label in some position? (games/shogi9/game.py's label_is_possible)
function labelIsPossible(label) {
  const direction = Math.floor(label / 81), square = label % 81, file = Math.floor(square / 9), rank = square % 9;
  if (direction >= DROPS) return rank >= ([1, 1, 2][direction - DROPS] || 0);
  const promote = direction >= PROMOTING, base = direction % PROMOTING, [df, dr] = DIRECTION_STEPS[base];
  const distances = KNIGHT_JUMPS.includes(base) ? [1] : [1, 2, 3, 4, 5, 6, 7, 8];
  const sources = distances.map((k) => [file - k * df, rank - k * dr]).filter(([f, r]) => onBoard(f, r));
  if (!sources.length) return false;
  if (!promote) return !KNIGHT_JUMPS.includes(base) || rank >= 2;
  return rank < ZONE || sources.some(([, r]) => r < ZONE);
}

const ACTION_OF_LABEL = new Int16Array(27 * 81).fill(-1);
let ACTION_COUNT = 0;
for (let label = 0; label < 27 * 81; label++) if (labelIsPossible(label)) ACTION_OF_LABEL[label] = ACTION_COUNT++;

function actionOf(move, turn) {
  const view = (square) => (turn ? 80 - square : square);
  const to = view(move.to);
  if (move.from < 0) return ACTION_OF_LABEL[81 * (DROPS + move.kind - 1) + to];  // by piece kind: pawn .. rook, gold
  const from = view(move.from);
  const dx = Math.floor(from / 9) - Math.floor(to / 9), dy = (to % 9) - (from % 9);
  let direction;
  if (dy < 0 && dx === 0) direction = 0;
  else if (dy === -2 && Math.abs(dx) === 1) direction = dx < 0 ? 8 : 9;
  else if (dy < 0) direction = dx < 0 ? 1 : 2;
  else if (dy === 0) direction = dx < 0 ? 3 : 4;
  else direction = dx === 0 ? 5 : dx < 0 ? 6 : 7;
  return ACTION_OF_LABEL[81 * (direction + (move.promote ? PROMOTING : 0)) + to];
}

// ----- positions -----
// A state: the board, both hands, the side to move (0 先手, 1 後手), the plies played, the state before
// (for repetition), the move that led here, and whether the side to move is in check
function makeState(board, hands, turn, plies, parent = null, move = null) {
  const key = `${board.join(',')}|${hands[0].join(',')}|${hands[1].join(',')}|${turn}`;
  return { board, hands, turn, plies, parent, move, key, check: inCheck(board, turn), depth: plies };
}

// The moves of a state by action (computed once)
function movesOf(state) {
  if (!state.moves) {
    state.moves = new Map();
    for (const move of legalMoves(state)) state.moves.set(actionOf(move, state.turn), move);
  }
  return state.moves;
}

const SFEN_KINDS = { p: PAWN, l: LANCE, n: KNIGHT, s: SILVER, b: BISHOP, r: ROOK, g: GOLD, k: KING };

// A position in SFEN (no checks: the page starts from the usual position; tests give others)
function fromSfen(sfen) {
  const [placement, turn, handText, number] = sfen.split(' ');
  const board = new Array(81).fill(0), hands = [new Array(7).fill(0), new Array(7).fill(0)];
  placement.split('/').forEach((row, rank) => {
    let file = 8, promoted = 0;
    for (const char of row) {
      if (char === '+') promoted = PROMOTED;
      else if (/\d/.test(char)) file -= Number(char);
      else {
        board[file * 9 + rank] = SFEN_KINDS[char.toLowerCase()] + promoted + (char === char.toLowerCase() ? WHITE : 0);
        file -= 1;
        promoted = 0;
      }
    }
  });
  for (const [, count, char] of handText.matchAll(/(\d*)([a-zA-Z])/g)) {
    hands[char === char.toLowerCase() ? 1 : 0][HAND_KINDS.indexOf(SFEN_KINDS[char.toLowerCase()])] += Number(count || 1);
  }
  const state = makeState(board, hands, turn === 'b' ? 0 : 1, Number(number) - 1);
  state.start = sfen;  // the game's start, which a record names (a handicap's 手合割)
  return state;
}

// How the game ended for the side to move: 'lose', 'win', 'draw', or null while it goes on
function ending(state) {
  if (state.ended === undefined) {
    state.ended = movesOf(state).size === 0 ? 'lose' : repetition(state) || (state.plies >= MAX_PLIES ? 'draw' : null);
  }
  return state.ended;
}

// The fourth occurrence of this position: 'draw', or the result for the side to move when one side
// checked with every move since the first occurrence (games/shogi9/game.py's repetition)
function repetition(state) {
  const history = [];
  for (let s = state; s; s = s.parent) history.push(s);
  const occurrences = history.flatMap((s, i) => (s.key === state.key ? [i] : []));
  if (occurrences.length < REPETITIONS) return null;
  const cycle = history.slice(0, occurrences[REPETITIONS - 1]);
  if (cycle.filter((_, i) => i % 2 === 0).every((s) => s.check)) return 'win';
  if (cycle.filter((_, i) => i % 2 === 1).every((s) => s.check)) return 'lose';
  return 'draw';
}

// ----- names: USI (7g7f, P*5e, 8h2b+) and KIF (７六歩(77), 同　歩(23), ５五角打, ２二角成(88)) -----
const USI_PIECES = { [PAWN]: 'P', [LANCE]: 'L', [KNIGHT]: 'N', [SILVER]: 'S', [GOLD]: 'G', [BISHOP]: 'B', [ROOK]: 'R' };
const usiSquare = (square) => `${Math.floor(square / 9) + 1}${'abcdefghi'[square % 9]}`;
const KANJI_PIECES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '杏', '圭', '全', '馬', '龍'];
const WIDE_DIGITS = '１２３４５６７８９', KANJI_DIGITS = '一二三四五六七八九';
const kifSquare = (square) => WIDE_DIGITS[Math.floor(square / 9)] + KANJI_DIGITS[square % 9];

function usiName(move) {
  if (move.from < 0) return `${USI_PIECES[move.kind]}*${usiSquare(move.to)}`;
  return usiSquare(move.from) + usiSquare(move.to) + (move.promote ? '+' : '');
}

function kifName(state, move) {
  const where = state.move && state.move.to === move.to ? '同　' : kifSquare(move.to);
  if (move.from < 0) return `${where}${KANJI_PIECES[move.kind]}打`;
  const source = `${Math.floor(move.from / 9) + 1}${(move.from % 9) + 1}`;
  return `${where}${KANJI_PIECES[move.kind]}${move.promote ? '成' : ''}(${source})`;
}

// A move as KI2 records write it (▲７六歩, △同　銀, ▲５八金右, ▲２二角成, ▲５五角打), cshogi's
// move_to_ki2 ported: where other pieces of the same kind can go to the same square, the move says
// how its piece moves (上, 引, 寄) and, where that is not enough, which piece it is (右, 左, 直)
const KI2_PIECES = ['', '歩', '香', '桂', '銀', '角', '飛', '金', '玉', 'と', '成香', '成桂', '成銀', '馬', '龍'];

function ki2Name(state, move) {
  const where = state.move && state.move.to === move.to ? '同' : kifSquare(move.to);
  let text;
  if (move.from < 0) {
    const onBoard = [...movesOf(state).values()].some((m) => m.to === move.to && m.from >= 0 && m.kind === move.kind);
    text = `${where}${KI2_PIECES[move.kind]}${onBoard ? '打' : ''}`;
  } else {
    // as cshogi, the pieces that could go there if their king were not in check count too
    const pseudo = candidateMoves(state).filter((m) => m.to === move.to && m.from >= 0 && m.kind === move.kind);
    const promotions = pseudo.filter((m) => m.from === move.from).length;
    const froms = [...new Set(pseudo.map((m) => m.from))];
    text = `${where}${KI2_PIECES[move.kind]}${froms.length > 1 ? ki2Which(state.turn, move, froms) : ''}`
      + (move.promote ? '成' : promotions === 2 ? '不成' : '');
  }
  if (text.length === 2 && text[0] === '同') text = `同　${text[1]}`;
  return (state.turn ? '△' : '▲') + text;
}

// 右 / 左 / 直 and 上 / 引 / 寄 of a move whose piece is one of several (their squares `froms`) that
// can go to its square, seen from the mover's side (cshogi's rules, case by case)
function ki2Which(turn, move, froms) {
  const seen = (square) => (turn === 0 ? square : 80 - square);
  const split = (square) => [Math.floor(seen(square) / 9), seen(square) % 9];
  const [toFile, toRank] = split(move.to), [fromFile, fromRank] = split(move.from);
  const count = { left: 0, right: 0, same: 0, up: 0, down: 0, side: 0 };
  const pair = {};  // 'left up' etc.: candidates by side and direction
  let otherLeft = false, otherRight = false;
  for (const from of froms) {
    const [file, rank] = split(from);
    const rel = file > toFile ? 'left' : file < toFile ? 'right' : 'same';
    const direction = rank > toRank ? 'up' : rank < toRank ? 'down' : 'side';
    count[rel] += 1;
    count[direction] += 1;
    pair[`${rel} ${direction}`] = (pair[`${rel} ${direction}`] || 0) + 1;
    if (from !== move.from && rel === 'left') otherLeft = true;
    if (from !== move.from && rel === 'right') otherRight = true;
  }
  const n = (rel, direction) => pair[`${rel} ${direction}`] || 0;
  const direction = fromRank > toRank ? 'up' : fromRank < toRank ? 'down' : 'side';
  const motion = { up: '上', down: '引', side: '寄' }[direction];
  if (count[direction] === 1) return motion;
  const twoStep = move.kind === BISHOP + PROMOTED || move.kind === ROOK + PROMOTED;
  let relative = '', rel = 'same';
  if (fromFile === toFile && direction !== 'side') {
    if (!twoStep) relative = '直';
    else if (otherRight && !otherLeft) [relative, rel] = ['左', 'left'];
    else if (otherLeft && !otherRight) [relative, rel] = ['右', 'right'];
  } else if (fromFile > toFile) [relative, rel] = ['左', 'left'];
  else if (fromFile < toFile) [relative, rel] = ['右', 'right'];
  const total = count[rel], inDirection = n(rel, direction);
  if (relative !== '' && total === 0) return relative;
  // the other directions that would make the side alone ambiguous (cshogi's need_motion)
  const others = { up: ['down', 'side'], down: ['up', 'side'], side: ['up', 'down'] }[direction];
  let needMotion = relative === '' || inDirection > 1;
  if (!needMotion && total - inDirection > 0) {
    needMotion = direction === 'up' && relative !== '直'
      ? true : others.some((d) => n(rel, d) > 0 && count[d] > 1);
  }
  return relative + (needMotion ? motion : '');
}

// The move a KIF line's move stands for (its destination, or 同, its piece, 成, 打, and the source in
// brackets), or undefined
function kifAction(state, text) {
  const match = text.replace(/\s/g, '').match(/^(?:同|([1-9１-９])([一二三四五六七八九]))(成?[歩香桂銀金角飛玉王と杏圭全馬龍竜])(成|不成)?(打)?(?:\(([1-9])([1-9])\))?$/);
  if (!match) return undefined;
  const [, fileText, rankText, , promote, drop, sourceFile, sourceRank] = match;
  const to = fileText ? (Number(WIDE_DIGITS.includes(fileText) ? WIDE_DIGITS.indexOf(fileText) + 1 : fileText) - 1) * 9 + KANJI_DIGITS.indexOf(rankText)
    : state.move ? state.move.to : -1;
  const from = sourceFile ? (Number(sourceFile) - 1) * 9 + Number(sourceRank) - 1 : -1;
  for (const [action, move] of movesOf(state)) {
    if (move.to !== to || move.from !== from || move.promote !== (promote === '成')) continue;
    if (from >= 0 || (drop && KANJI_PIECES[move.kind] === match[3])) return action;
  }
  return undefined;
}

// ----- records: KIF, as alphazero/records/shogi.py's write_kif writes them and the shogi GUIs read -----
const KIF_ENDINGS = { mate: ['詰み', 'lose'], resign: ['投了', 'lose'], repetition: ['千日手', 'draw'], perpetual_check: ['反則負け', 'lose'],
  opponent_perpetual_check: ['反則勝ち', 'win'], move_limit: ['持将棋', 'draw'], interrupted: ['中断', null] };

// The game from the start to `last` (a state) as a KIF file's text, `names` the players of 先手 and 後手
// (下手 and 上手 in a handicap game, whose 手合割 it names);
// `evaluations` ({ ply: { value, line } }: the AI's value of the position before move ply + 1 for its
// side to move, and the line it expected there) adds after the move the comments ShogiHome writes
// for an engine, as write_kif does: *#評価値= (centipawns from 先手's side), *#読み筋= (the line in KI2)
function kifRecord(last, names, started = new Date(), evaluations = {}, resigned = false) {
  const states = [];
  for (let s = last; s; s = s.parent) states.unshift(s);
  const sides = handicapOf(states[0].start) ? ['下手', '上手'] : ['先手', '後手'];
  const two = (n) => String(n).padStart(2, '0');
  const lines = [`開始日時：${started.getFullYear()}/${two(started.getMonth() + 1)}/${two(started.getDate())} `
    + `${two(started.getHours())}:${two(started.getMinutes())}:${two(started.getSeconds())}`,
  `手合割：${handicapOf(states[0].start) || '平手'}`, `${sides[0]}：${names[0]}`, `${sides[1]}：${names[1]}`,
  '手数----指手---------消費時間--'];
  states.slice(1).forEach((s, i) => {
    lines.push(`${String(i + 1).padStart(4)} ${kifName(states[i], s.move)}`);
    const evaluation = evaluations[i];
    if (!evaluation) return;
    lines.push(`*#評価値=${centipawns(states[i].turn === 0 ? evaluation.value : -evaluation.value)}`);
    const line = [];
    for (let walked = states[i], k = 0; k < evaluation.line.length && ending(walked) === null; k++) {
      line.push(ki2Name(walked, movesOf(walked).get(evaluation.line[k])));
      walked = shogi9.next(walked, evaluation.line[k]);
    }
    if (line.length) lines.push(`*#読み筋=${line.join('')}`);
  });
  const how = shogi9.howItEnded(last) || (resigned ? 'resign' : 'interrupted'), [word, outcome] = KIF_ENDINGS[how];
  lines.push(`${String(last.plies + 1).padStart(4)} ${word}`);
  const winner = sides[(outcome === 'win') === (last.turn === 0) ? 0 : 1];
  lines.push(`まで${last.plies}手で${outcome === null ? '中断' : outcome === 'draw' ? word : `${winner}の勝ち`}`);
  return `${lines.join('\r\n')}\r\n`;
}

// A value in [-1, 1] as USI engines score it: 600 x ln(p / (1 - p)) centipawns for the expected result
// p (alphazero/engines/usi.py's centipawns)
function centipawns(value) {
  const p = Math.min(Math.max((value + 1) / 2, 1e-6), 1 - 1e-6);
  return Math.max(-30000, Math.min(30000, Math.round(600 * Math.log(p / (1 - p)))));
}

// The game of a record's text, as shogi GUIs save them: KIF (numbered lines, ７六歩(77)), KI2 (▲７六歩
// △同　歩 ▲５八金右, each move matched to the legal move whose KI2 name it is) or CSA (+7776FU), from
// the start its 手合割 names; { moves, handicap, resigned }, { error, plies } at the first move that is
// not legal (or a 手合割 we do not know), or null when the text is none of them
function recordMoves(text) {
  if (/^\s*1\s+\S/m.test(text)) return kifMoves(text);
  if (/^[+-]\d{4}[A-Z]{2}/m.test(text)) return csaMoves(text);
  if (/[▲△☗☖]/.test(text)) return ki2Moves(text);
  return null;
}

function recordStart(text) {
  const teai = (text.match(/^手合割：\s*(\S+)/m) || [])[1];
  if (teai && teai !== '平手' && !HANDICAPS[teai]) return { error: `手合割：${teai}`, plies: 0 };
  const handicap = teai && teai !== '平手' ? teai : '';
  return { handicap, state: fromSfen(handicap ? HANDICAPS[handicap] : START) };
}

function kifMoves(text) {
  const start = recordStart(text);
  if (start.error) return start;
  let { state } = start;
  const moves = [];
  let resigned = false;
  for (const line of text.split(/\r?\n/)) {
    if (!/^\s*\d+\s/.test(line)) continue;
    const word = line.replace(/^\s*\d+\s+/, '').replace(/\(\s*\d+:[\d:/ ]*\)\s*$/, '').trim();  // less its time
    if (!/^(同|[1-9１-９])/.test(word)) {
      resigned = word.startsWith('投了') && ending(state) === null;
      break;
    }
    const action = ending(state) === null ? kifAction(state, word) : undefined;
    if (action === undefined) return { error: word, plies: moves.length };
    moves.push(action);
    state = shogi9.next(state, action);
  }
  return { moves, handicap: start.handicap, resigned };
}

// KI2's spellings made one: no side marks or spaces, 王 as 玉, 竜 as 龍, the one-character promoted pieces
const ki2Plain = (name) => name.replace(/[▲△☗☖\s\u3000]/g, '').replace(/王/g, '玉').replace(/竜/g, '龍')
  .replace(/全/g, '成銀').replace(/圭/g, '成桂').replace(/杏/g, '成香');

function ki2Moves(text) {
  const start = recordStart(text);
  if (start.error) return start;
  let { state } = start;
  const moves = [];
  const body = text.split(/\r?\n/).filter((line) => /^[▲△☗☖]/.test(line.trim())).join(' ');
  for (const [token] of body.matchAll(/[▲△☗☖](同[\s\u3000]*[^\s▲△☗☖]+|[^\s▲△☗☖]+)/g)) {
    const typed = ki2Plain(token);
    const found = ending(state) === null ? [...movesOf(state)].find(([, move]) => {
      const name = ki2Plain(ki2Name(state, move));
      return name === typed || name === typed.replace(/打$/, '');
    }) : undefined;
    if (!found) return { error: token, plies: moves.length };
    moves.push(found[0]);
    state = shogi9.next(state, found[0]);
  }
  const winner = (text.match(/まで\d+手で(先手|後手|下手|上手)の勝ち/) || [])[1];
  const resigned = ending(state) === null && winner !== undefined && (['先手', '下手'].includes(winner) ? 0 : 1) !== state.turn;
  return { moves, handicap: start.handicap, resigned };
}

const CSA_PIECES = { FU: PAWN, KY: LANCE, KE: KNIGHT, GI: SILVER, KI: GOLD, KA: BISHOP, HI: ROOK, OU: KING,
  TO: PAWN + PROMOTED, NY: LANCE + PROMOTED, NK: KNIGHT + PROMOTED, NG: SILVER + PROMOTED, UM: BISHOP + PROMOTED,
  RY: ROOK + PROMOTED };

function csaMoves(text) {
  let state = fromSfen(START);
  const moves = [];
  let resigned = false;
  for (const line of text.split(/\r?\n/).map((l) => l.trim())) {
    if (line.startsWith('%')) {
      resigned = line.startsWith('%TORYO') && ending(state) === null;
      break;
    }
    const match = line.match(/^[+-](\d)(\d)(\d)(\d)([A-Z]{2})/);
    if (!match) continue;
    const [, fromFile, fromRank, toFile, toRank, piece] = match;
    const to = (toFile - 1) * 9 + (toRank - 1), kind = CSA_PIECES[piece];
    const found = ending(state) === null ? [...movesOf(state)].find(([, move]) => (fromFile === '0'
      ? move.from < 0 && move.kind === kind
      : move.from === (fromFile - 1) * 9 + (fromRank - 1) && (move.promote ? move.kind + PROMOTED : move.kind) === kind)
      && move.to === to) : undefined;
    if (!found) return { error: line.slice(0, 7), plies: moves.length };
    moves.push(found[0]);
    state = shogi9.next(state, found[0]);
  }
  return { moves, handicap: '', resigned };
}

// The page's squares (reading order from 先手's side) and cshogi's
const pageSquare = (square) => (square % 9) * 9 + 8 - Math.floor(square / 9);

// ----- the game, as web/games.js's games are -----
export const shogi9 = {
  name: 'shogi9', rows: 9, columns: 9, squares: 81, actionCount: ACTION_COUNT, channels: PLANES,
  handKinds: [ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN],  // the hands as drawn, the big pieces first
  initial: (sfen = START) => fromSfen(sfen),
  handicaps: HANDICAPS,
  legalActions: (state) => [...movesOf(state).keys()].sort((a, b) => a - b),
  next(state, action) {
    const move = movesOf(state).get(action);
    const { board, hands } = applyMove(state, move);
    return makeState(board, hands, 1 - state.turn, state.plies + 1, state, move);
  },
  isLose: (state) => ending(state) === 'lose',
  isDraw: (state) => ending(state) === 'draw',
  isDone: (state) => ending(state) !== null,
  isFirstPlayer: (state) => state.turn === 0,
  terminalValue: (state) => ({ lose: -1, win: 1 }[ending(state)] || 0),
  // How it ended: games/shogi9's words (alphazero/records/shogi.py's how_it_ended), null while it goes on
  howItEnded(state) {
    const end = ending(state);
    if (end === 'lose') return movesOf(state).size === 0 ? 'mate' : 'perpetual_check';
    if (end === 'win') return 'opponent_perpetual_check';
    if (end === 'draw') return repetition(state) ? 'repetition' : 'move_limit';
    return null;
  },
  // The piece kind on each page square, + 先手's, - 後手's, 0 empty (games/shogi9's cells)
  cells(state) {
    const cells = new Array(81);
    state.board.forEach((piece, square) => { cells[pageSquare(square)] = piece ? kindOf(piece) * (colorOf(piece) ? -1 : 1) : 0; });
    return cells;
  },
  // The hands: [{kind: count} of 先手, of 後手]
  hands: (state) => state.hands.map((hand) => Object.fromEntries(HAND_KINDS.map((kind, i) => [kind, hand[i]]))),
  // dlshogi's features, channels last: per side (the side to move first) the piece kinds, the squares
  // each kind attacks and the number of attackers (1, 2, 3), then the hands and the check; the board
  // turned round when 後手 moves
  planes(state) {
    const planes = new Float32Array(81 * PLANES), { board, hands, turn } = state;
    const view = (square) => (turn ? 80 - square : square);
    const set = (square, plane) => { planes[view(square) * PLANES + plane] = 1; };
    const counts = [new Uint8Array(81), new Uint8Array(81)];
    board.forEach((piece, square) => {
      if (!piece) return;
      const side = colorOf(piece) === turn ? 0 : 1, kind = kindOf(piece);
      set(square, 31 * side + kind - 1);
      for (const target of attacks(board, square, piece)) {
        set(target, 31 * side + 14 + kind - 1);
        counts[side][target] += 1;
      }
    });
    counts.forEach((count, side) => count.forEach((n, square) => {
      for (let k = 0; k < Math.min(n, 3); k++) set(square, 31 * side + 28 + k);
    }));
    [turn, 1 - turn].forEach((color, side) => {
      let plane = SQUARE_PLANES + 28 * side;
      HAND_KINDS.forEach((_, i) => {
        for (let k = 0; k < Math.min(hands[color][i], HAND_WORDS[i]); k++) for (let s = 0; s < 81; s++) set(s, plane + k);
        plane += HAND_WORDS[i];
      });
    });
    if (state.check) for (let s = 0; s < 81; s++) set(s, PLANES - 1);
    return planes;
  },
  actionSquare: (state, action) => pageSquare(movesOf(state).get(action).to),
  sourceSquare(state, action) {
    const { from } = movesOf(state).get(action);
    return from < 0 ? -1 : pageSquare(from);
  },
  dropPiece: (action, state) => { const move = movesOf(state).get(action); return move.from < 0 ? move.kind : 0; },
  promotes: (state, action) => movesOf(state).get(action).promote,
  squareName: (square) => usiSquare((8 - (square % 9)) * 9 + Math.floor(square / 9)),
  actionName: (action, state) => usiName(movesOf(state).get(action)),
  // In Japanese: ▲ or △ and the move as KIF writes it
  japaneseName: (action, state) => ki2Name(state, movesOf(state).get(action)),
  kifName: (action, state) => kifName(state, movesOf(state).get(action)),
  kifRecord,
  recordMoves,
  // The coordinates as shogi writes them: files 9 to 1 from the left, ranks 一 to 九 (a to i in English) from the top
  labels: (language) => ({ columns: [...'987654321'], rows: [...(language === 'ja' ? KANJI_DIGITS : 'abcdefghi')] }),
  winningLine: () => null,
};
