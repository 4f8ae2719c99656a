// Reads KIF files as ShogiHome does (tsshogi, the rules and records library behind it) and prints,
// one JSON line per file, its start (SFEN), the moves in USI and how the record ends (tests/games/test_shogi9.py):
//   node web/test/read_kif.mjs a.kif b.kifu
// A .kif file is Shift_JIS, a .kifu file UTF-8, as the shogi GUIs write them.
import { readFileSync } from 'node:fs';
import { importKIF } from 'tsshogi';

for (const path of process.argv.slice(2)) {
  const text = new TextDecoder(path.endsWith('.kifu') ? 'utf-8' : 'shift_jis').decode(readFileSync(path));
  const record = importKIF(text);
  if (record instanceof Error) {
    console.log(JSON.stringify({ path, error: record.message }));
    continue;
  }
  const moves = [];
  let end = null;
  for (const node of record.moves) {
    if (node.move.usi) moves.push(node.move.usi);
    else if (node.move.type && node.move.type !== 'start') end = node.move.type;
  }
  console.log(JSON.stringify({ path, start: record.initialPosition.sfen, moves, end }));
}
