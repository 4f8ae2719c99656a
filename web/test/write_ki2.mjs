// Writes records as ShogiHome does (tsshogi, the rules and records library behind it): for each JSON
// line on standard input, { usi: 'startpos moves 7g7f ...' or 'sfen ... moves ...', resign, path },
// the game as KI2 (UTF-8) at `path`, ending in 投了 when `resign` (tests/games/test_shogi9.py).
//   node web/test/write_ki2.mjs < games.jsonl
import { readFileSync, writeFileSync } from 'node:fs';
import { Record, SpecialMoveType, exportKI2 } from 'tsshogi';

for (const line of readFileSync(0, 'utf-8').split('\n').filter(Boolean)) {
  const { usi, resign, path } = JSON.parse(line);
  const record = Record.newByUSI(usi);
  if (record instanceof Error) throw record;
  if (resign) record.append(SpecialMoveType.RESIGN);
  writeFileSync(path, exportKI2(record, { returnCode: '\n' }));
}
