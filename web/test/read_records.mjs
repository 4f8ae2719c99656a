// Reads shogi record files as the page reads an opened file (UTF-8, else Shift_JIS; web/shogi9.js's
// recordMoves: KIF, KI2 or CSA) and prints, one JSON line per file, the moves in USI, the handicap,
// whether it ends resigned, or the error (tests/interfaces/test_web.py).
//   node web/test/read_records.mjs a.kif b.ki2 c.csa
import { readFileSync } from 'node:fs';
import { GAMES } from '../games.js';

const shogi = GAMES.shogi9;
for (const path of process.argv.slice(2)) {
  const bytes = readFileSync(path);
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('shift_jis').decode(bytes);
  }
  const read = shogi.recordMoves(text);
  if (!read || read.error !== undefined) {
    console.log(JSON.stringify({ path, error: read ? read.error : 'not a record', plies: read ? read.plies : 0 }));
    continue;
  }
  let state = shogi.initial(read.handicap ? shogi.handicaps[read.handicap] : undefined);
  const moves = [];
  for (const action of read.moves) {
    moves.push(shogi.actionName(action, state));
    state = shogi.next(state, action);
  }
  console.log(JSON.stringify({ path, moves, handicap: read.handicap, resigned: read.resigned }));
}
