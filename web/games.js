// The rules of every game, as in the Python game modules (game.py, games/connect4/game.py, games/gomoku/game.py, games/othello8/game.py, ...).
//
// A state is seen from the side to move, as in the book: `mine` and `theirs` hold 1 on the squares
// of the side to move and of its opponent (reading order, row 0 on top), and `depth` counts the
// plies played. The functions of a game never change a state; next() returns a new one.
// tests/interfaces/test_web.py checks these rules and the input planes against Python's, position by position.
// Full shogi has its own file, shogi9.js.
import { shogi9 } from './shogi9.js';

// `lost` and `won` judge a finished game for the side to move (only Othello can end with it ahead)
function makeGame({ name, rows, columns, actionCount, start, legalActions, play, isOver, lost, won = () => false }) {
  const squares = rows * columns;
  const game = {
    name, rows, columns, actionCount, squares, channels: 2,
    // The empty board (or the game's starting discs)
    initial() {
      const mine = new Uint8Array(squares), theirs = new Uint8Array(squares);
      for (const s of start.mine) mine[s] = 1;
      for (const s of start.theirs) theirs[s] = 1;
      return { mine, theirs, depth: 0 };
    },
    legalActions,
    // The state after `action`, seen from the new side to move
    next(state, action) {
      const mine = state.mine.slice(), theirs = state.theirs.slice();
      play(mine, theirs, action);
      return { mine: theirs, theirs: mine, depth: state.depth + 1 };
    },
    isDone: (state) => isOver(state),
    isLose: (state) => lost(state),
    isDraw: (state) => isOver(state) && !lost(state) && !won(state),
    isFirstPlayer: (state) => state.depth % 2 === 0,
    // Squares by owner: +1 first player, -1 second player, 0 empty
    cells(state) {
      const sign = game.isFirstPlayer(state) ? 1 : -1;
      return Array.from(state.mine, (m, i) => sign * (m - state.theirs[i]));
    },
    // The network's input: (rows, columns, 2) channels last, plane 0 = side to move
    planes(state) {
      const planes = new Float32Array(squares * 2);
      for (let i = 0; i < squares; i++) {
        planes[2 * i] = state.mine[i];
        planes[2 * i + 1] = state.theirs[i];
      }
      return planes;
    },
    // The result for the side to move of a finished game: 1 won, 0 draw, -1 lost
    terminalValue: (state) => (lost(state) ? -1 : won(state) ? 1 : 0),
  };
  return game;
}

const count = (cells) => cells.reduce((a, b) => a + b, 0);

// Every line of `length` squares on a board (across, down and both diagonals)
function lines(rows, columns, length) {
  const result = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        const endR = r + dr * (length - 1), endC = c + dc * (length - 1);
        if (endR < rows && endC >= 0 && endC < columns) {
          result.push(Array.from({ length }, (_, i) => (r + dr * i) * columns + c + dc * i));
        }
      }
    }
  }
  return result;
}

const hasLine = (cells, allLines) => allLines.some((line) => line.every((s) => cells[s]));

// The squares of the line that won (the last mover's, held in `theirs`), or null
const winningLine = (state, allLines) => allLines.find((line) => line.every((s) => state.theirs[s])) || null;

// A square's name as the GTP engine writes it: column letter, then row (1 on top)
const squareName = (square, columns) => `${String.fromCharCode(97 + (square % columns))}${Math.floor(square / columns) + 1}`;

// ----- games of a row: tic-tac-toe (3 on 3x3) and Gomoku (5 on 7x7); action = square -----
function rowGame(name, size, row) {
  const squares = size * size, rowLines = lines(size, size, row);
  const game = makeGame({
    name, rows: size, columns: size, actionCount: squares, start: { mine: [], theirs: [] },
    legalActions: (s) => [...Array(squares).keys()].filter((i) => !s.mine[i] && !s.theirs[i]),
    play: (mine, theirs, action) => { mine[action] = 1; },
    isOver: (s) => hasLine(s.theirs, rowLines) || count(s.mine) + count(s.theirs) === squares,
    lost: (s) => hasLine(s.theirs, rowLines),
  });
  game.squareAction = (square) => square;
  game.actionSquare = (state, action) => action;
  game.actionName = (action) => squareName(action, size);
  game.winningLine = (state) => winningLine(state, rowLines);
  return game;
}
const tictactoe = rowGame('tictactoe', 3, 3);
const gomoku = rowGame('gomoku', 7, 5);

// ----- Connect Four: action = column, the stone drops to the lowest empty row -----
const CONNECT4_LINES = lines(6, 7, 4);
const landing = (s, column) => {
  for (let r = 5; r >= 0; r--) if (!s.mine[r * 7 + column] && !s.theirs[r * 7 + column]) return r * 7 + column;
  return -1;
};
const connect4 = makeGame({
  name: 'connect4', rows: 6, columns: 7, actionCount: 7, start: { mine: [], theirs: [] },
  legalActions: (s) => [...Array(7).keys()].filter((c) => !s.mine[c] && !s.theirs[c]),
  play: (mine, theirs, action) => { mine[landing({ mine, theirs }, action)] = 1; },
  isOver: (s) => hasLine(s.theirs, CONNECT4_LINES) || count(s.mine) + count(s.theirs) === 42,
  lost: (s) => hasLine(s.theirs, CONNECT4_LINES),
});
connect4.squareAction = (square) => square % 7;
connect4.actionSquare = (state, action) => landing(state, action);
connect4.actionName = (action) => 'abcdefg'[action];
connect4.winningLine = (state) => winningLine(state, CONNECT4_LINES);

// ----- Othello: action = square, or size * size to pass when no square is legal -----
const DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]];

// encoding 'planes8': the 8 input planes of games/othello8planes/game.py instead of the book's 2
function othello(size, encoding = 'book') {
  const squares = size * size, pass = squares;
  // The opponent's discs a move on `square` turns over
  const flips = (mine, theirs, square) => {
    if (mine[square] || theirs[square]) return [];
    const result = [];
    const r0 = Math.floor(square / size), c0 = square % size;
    for (const [dr, dc] of DIRECTIONS) {
      const run = [];
      let r = r0 + dr, c = c0 + dc;
      while (r >= 0 && r < size && c >= 0 && c < size && theirs[r * size + c]) {
        run.push(r * size + c);
        r += dr; c += dc;
      }
      if (run.length && r >= 0 && r < size && c >= 0 && c < size && mine[r * size + c]) result.push(...run);
    }
    return result;
  };
  const moves = (mine, theirs) => [...Array(squares).keys()].filter((s) => flips(mine, theirs, s).length);
  const isOver = (s) => count(s.mine) + count(s.theirs) === squares
    || (!moves(s.mine, s.theirs).length && !moves(s.theirs, s.mine).length);
  // The book's 6x6 start (first player on 14 and 21); the standard 8x8 start (black on d5 and e4)
  const m = size / 2;
  const start = size === 6 ? { mine: [14, 21], theirs: [15, 20] }
    : { mine: [m * size + m - 1, (m - 1) * size + m], theirs: [(m - 1) * size + m - 1, m * size + m] };
  const game = makeGame({
    name: `othello${size}${encoding === 'book' ? '' : 'planes'}`, rows: size, columns: size, actionCount: squares + 1, start,
    legalActions: (s) => { const found = moves(s.mine, s.theirs); return found.length ? found : [pass]; },
    play: (mine, theirs, action) => {
      if (action === pass) return;
      for (const s of flips(mine, theirs, action)) { mine[s] = 1; theirs[s] = 0; }
      mine[action] = 1;
    },
    isOver,
    lost: (s) => isOver(s) && count(s.mine) < count(s.theirs),
    won: (s) => isOver(s) && count(s.mine) > count(s.theirs),
  });
  game.pass = pass;
  game.squareAction = (square) => square;
  game.actionSquare = (state, action) => (action === pass ? -1 : action);
  game.actionName = (action) => (action === pass ? 'pass' : squareName(action, size));
  game.winningLine = () => null;
  if (encoding === 'planes8') {
    // Own discs, opponent discs, empty, legal moves, discs each legal move turns over, the corner/C/X
    // squares, ones, zeros: 8 values per square, channels last
    const near = [0, 1, size - 2, size - 1];
    game.channels = 8;
    game.planes = (state) => {
      const planes = new Float32Array(squares * 8);
      const legal = moves(state.mine, state.theirs);
      for (let i = 0; i < squares; i++) {
        const cornerCX = near.includes(Math.floor(i / size)) && near.includes(i % size);
        const flipCount = legal.includes(i) ? flips(state.mine, state.theirs, i).length : 0;
        planes.set([state.mine[i], state.theirs[i], 1 - state.mine[i] - state.theirs[i], flipCount ? 1 : 0, flipCount,
          cornerCX ? 1 : 0, 1, 0], 8 * i);
      }
      return planes;
    };
  }
  // Discs of the first and the second player
  game.discCounts = (state) => {
    const cells = game.cells(state);
    return [cells.filter((c) => c === 1).length, cells.filter((c) => c === -1).length];
  };
  return game;
}

// ----- point-Othello (games/pointothello/game.py): 8x8 Othello whose stones carry values -----
// A state also holds the game's 60 values (`sequence`), how many are placed (`used`), and the value
// of the stone on each square (`values`). A player sees the value to place now and the next three.
const VALUE_RANGE = 30, MOVES = 60, VISIBLE = 4;

// counts[k][s + 30k]: how many sequences of k values in -30..30 sum to s
const SEQUENCE_COUNTS = (() => {
  const counts = [Float64Array.of(1)];
  for (let k = 1; k <= MOVES; k++) {
    const previous = counts[k - 1], next = new Float64Array(previous.length + 2 * VALUE_RANGE);
    previous.forEach((ways, i) => { for (let v = 0; v <= 2 * VALUE_RANGE; v++) next[i + v] += ways; });
    counts.push(next);
  }
  return counts;
})();

// `count` values summing to `total`, uniformly among all such sequences (pointothello.uniform_values)
export function uniformValues(count, total, random = Math.random) {
  const values = [];
  for (let left = count - 1; left >= 0; left--) {
    const rest = SEQUENCE_COUNTS[left];
    const ways = [];
    for (let v = -VALUE_RANGE; v <= VALUE_RANGE; v++) {
      const index = total - v + VALUE_RANGE * left;
      ways.push(index >= 0 && index < rest.length ? rest[index] : 0);
    }
    let pick = random() * ways.reduce((a, b) => a + b, 0), choice = 0;
    while (pick >= ways[choice] && choice < ways.length - 1) pick -= ways[choice++];
    values.push(choice - VALUE_RANGE);
    total -= choice - VALUE_RANGE;
  }
  return values;
}

function pointOthello() {
  const board = othello(8);
  const points = (state, stones) => stones.reduce((sum, stone, square) => sum + stone * state.values[square], 0);
  const game = {
    ...board, name: 'pointothello', channels: 8,
    initial: (sequence = uniformValues(MOVES, 0)) => ({ ...board.initial(), values: new Int8Array(64), sequence, used: 0 }),
    // The stone placed carries the next value; flipped stones keep theirs; a pass places none
    next(state, action) {
      const values = state.values.slice();
      let used = state.used;
      if (action !== board.pass) values[action] = state.sequence[used++];
      return { ...board.next(state, action), values, sequence: state.sequence, used };
    },
    // The side to move's points and the opponent's
    scores: (state) => [points(state, state.mine), points(state, state.theirs)],
    visibleValues: (state) => state.sequence.slice(state.used, state.used + VISIBLE),
    // What a player cannot see, drawn anew among the sequences with the same sum
    determinize(state, random = Math.random) {
      const known = state.used + VISIBLE;
      if (known >= MOVES) return state;
      const seen = state.sequence.slice(0, known);
      const hidden = uniformValues(MOVES - known, -seen.reduce((a, b) => a + b, 0), random);
      return { ...state, sequence: [...seen, ...hidden] };
    },
    // The point-Othello page's 8 planes: own and opponent stones, own and opponent points, the four visible values
    planes(state) {
      const planes = new Float32Array(64 * 8);
      const upcoming = [...game.visibleValues(state), 0, 0, 0, 0];
      for (let i = 0; i < 64; i++) {
        const value = state.values[i] / VALUE_RANGE;
        planes.set([state.mine[i], state.theirs[i], value * state.mine[i], value * state.theirs[i],
          ...upcoming.slice(0, VISIBLE).map((v) => v / VALUE_RANGE)], 8 * i);
      }
      return planes;
    },
  };
  const result = (state) => { const [own, other] = game.scores(state); return Math.sign(own - other); };
  game.isLose = (state) => board.isDone(state) && result(state) < 0;
  game.isDraw = (state) => board.isDone(state) && result(state) === 0;
  game.terminalValue = (state) => result(state);
  return game;
}

// ----- the book's simple shogi (games/shogi/game.py) -----
// A state is seen from the side to move, as in the book: `pieces` and `enemy` hold 12 squares and 3
// hand counts each, every side in its own orientation (the opponent's square p is our 11 - p).
// Action = destination * 11 + direction: 0-7 move the piece one step back along the direction
// (0 = up, then clockwise), 8-10 drop a chick, an elephant or a giraffe.
const SHOGI_STEPS = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];
const SHOGI_DIRECTIONS = { 1: [0], 2: [1, 3, 5, 7], 3: [0, 2, 4, 6], 4: [0, 1, 2, 3, 4, 5, 6, 7] };
const SHOGI_START = [0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 4, 2, 0, 0, 0];
const shogiSquare = (x, y) => (x >= 0 && x < 3 && y >= 0 && y < 4 ? x + 3 * y : -1);
const shogiSource = (destination, direction) => shogiSquare(destination % 3 - SHOGI_STEPS[direction][0],
  Math.floor(destination / 3) - SHOGI_STEPS[direction][1]);

const shogi = {
  name: 'shogi', rows: 4, columns: 3, squares: 12, actionCount: 132, channels: 14,
  initial: () => ({ pieces: SHOGI_START.slice(), enemy: SHOGI_START.slice(), depth: 0 }),
  legalActions(s) {
    const actions = [];
    s.pieces.slice(0, 12).forEach((piece, source) => {
      for (const direction of SHOGI_DIRECTIONS[piece] || []) {
        const destination = shogiSquare(source % 3 + SHOGI_STEPS[direction][0], Math.floor(source / 3) + SHOGI_STEPS[direction][1]);
        if (destination >= 0 && !s.pieces[destination]) actions.push(destination * 11 + direction);
      }
    });
    for (const piece of [1, 2, 3]) {
      if (!s.pieces[11 + piece]) continue;
      for (let square = 0; square < 12; square++) {
        if (!s.pieces[square] && !s.enemy[11 - square]) actions.push(square * 11 + 7 + piece);
      }
    }
    return actions.sort((a, b) => a - b);
  },
  next(s, action) {
    const pieces = s.pieces.slice(), enemy = s.enemy.slice();
    const destination = Math.floor(action / 11), direction = action % 11;
    if (direction < 8) {
      const source = shogiSource(destination, direction);
      pieces[destination] = pieces[source];
      pieces[source] = 0;
      const captured = enemy[11 - destination];
      enemy[11 - destination] = 0;
      if (captured && captured !== 4) pieces[11 + captured] += 1;  // a captured lion goes to no hand
    } else {
      pieces[11 + direction - 7] -= 1;
      pieces[destination] = direction - 7;
    }
    return { pieces: enemy, enemy: pieces, depth: s.depth + 1 };
  },
  // Lost: the lion was captured, or no move at all (as in shogi, a player who cannot move has lost)
  isLose: (s) => !s.pieces.slice(0, 12).includes(4) || shogi.legalActions(s).length === 0,
  isDraw: (s) => s.depth >= 300 && !shogi.isLose(s),
  isDone: (s) => shogi.isLose(s) || s.depth >= 300,  // isLose or isDraw, with one look for a move
  isFirstPlayer: (s) => s.depth % 2 === 0,
  terminalValue: (s) => (shogi.isLose(s) ? -1 : 0),
  // Squares from the first player's side: +piece for the first player, -piece for the second
  cells(s) {
    const cells = s.pieces.slice(0, 12).map((mine, i) => mine || -s.enemy[11 - i]);
    return shogi.isFirstPlayer(s) ? cells : cells.reverse().map((c) => -c);
  },
  // The hands: [{piece: count} of the first player, of the second]
  hands(s) {
    const hand = (side) => ({ 1: side[12], 2: side[13], 3: side[14] });
    return shogi.isFirstPlayer(s) ? [hand(s.pieces), hand(s.enemy)] : [hand(s.enemy), hand(s.pieces)];
  },
  // 14 planes: per side (the side to move first) its chick, elephant, giraffe, lion and 3 hand flags,
  // the opponent turned into the side to move's view
  planes(s) {
    const planes = new Float32Array(12 * 14);
    const enemy = [...s.enemy.slice(0, 12).reverse(), ...s.enemy.slice(12)];
    [s.pieces, enemy].forEach((side, k) => {
      for (let i = 0; i < 12; i++) {
        for (let piece = 1; piece <= 4; piece++) planes[14 * i + 7 * k + piece - 1] = side[i] === piece ? 1 : 0;
        for (let hand = 0; hand < 3; hand++) planes[14 * i + 7 * k + 4 + hand] = side[12 + hand] > 0 ? 1 : 0;
      }
    });
    return planes;
  },
  // For the page, squares in the first player's view: where an action lands, where it starts (-1:
  // a drop), which piece it drops (0: none)
  actionSquare: (s, action) => (shogi.isFirstPlayer(s) ? Math.floor(action / 11) : 11 - Math.floor(action / 11)),
  sourceSquare(s, action) {
    if (action % 11 >= 8) return -1;
    const source = shogiSource(Math.floor(action / 11), action % 11);
    return shogi.isFirstPlayer(s) ? source : 11 - source;
  },
  dropPiece: (action) => (action % 11 >= 8 ? action % 11 - 7 : 0),
  squareName: (square) => 'abc'[square % 3] + (Math.floor(square / 3) + 1),
  // Names as games/shogi/game.py's action_name: 'b3b2' for a move, 'C*a2' for a drop, from the first player's side
  actionName(action, s) {
    const destination = shogi.squareName(shogi.actionSquare(s, action));
    if (action % 11 >= 8) return `${'CEG'[action % 11 - 8]}*${destination}`;
    return shogi.squareName(shogi.sourceSquare(s, action)) + destination;
  },
  winningLine: () => null,
};

export const GAMES = {
  tictactoe, connect4, gomoku, othello6: othello(6), othello8: othello(8), othello8planes: othello(8, 'planes8'),
  pointothello: pointOthello(), shogi, shogi9,
};
