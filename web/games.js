// The rules of every game, as in the Python game modules (game.py, connect4.py, othello.py).
//
// A state is seen from the side to move, as in the book: `mine` and `theirs` hold 1 on the squares
// of the side to move and of its opponent (reading order, row 0 on top), and `depth` counts the
// plies played. The functions of a game never change a state; next() returns a new one.
// tests/test_web.py checks these rules and the input planes against Python's, position by position.

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

// ----- tic-tac-toe: action = square -----
const TICTACTOE_LINES = lines(3, 3, 3);
const tictactoe = makeGame({
  name: 'tictactoe', rows: 3, columns: 3, actionCount: 9, start: { mine: [], theirs: [] },
  legalActions: (s) => [...Array(9).keys()].filter((i) => !s.mine[i] && !s.theirs[i]),
  play: (mine, theirs, action) => { mine[action] = 1; },
  isOver: (s) => hasLine(s.theirs, TICTACTOE_LINES) || count(s.mine) + count(s.theirs) === 9,
  lost: (s) => hasLine(s.theirs, TICTACTOE_LINES),
});
tictactoe.squareAction = (square) => square;
tictactoe.actionSquare = (state, action) => action;
tictactoe.actionName = (action) => squareName(action, 3);
tictactoe.winningLine = (state) => winningLine(state, TICTACTOE_LINES);

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

// encoding 'seed004': seed 004's 8 input planes instead of the book's 2 (othello.py's ENCODINGS)
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
  if (encoding === 'seed004') {
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

export const GAMES = {
  tictactoe, connect4, othello6: othello(6), othello8: othello(8), othello8planes: othello(8, 'seed004'),
};
