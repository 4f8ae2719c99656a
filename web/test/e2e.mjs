// End-to-end: headless Chromium plays on the served page by clicking and by keyboard.
//   node web/test/e2e.mjs play    URL screenshot.png   tic-tac-toe to the end: marks, level, take-back, result
//   node web/test/e2e.mjs othello URL screenshot.png [WxH]  8x8 Othello (by default on a phone-sized
//                                                      360x900 screen): disc count, marks, the board fits
//   node web/test/e2e.mjs points  URL screenshot.png   a whole point-Othello game: values, scores, the result
//   node web/test/e2e.mjs shogi   URL screenshot.png   a whole simple-shogi game: pick a piece, then its square; drops
//   node web/test/e2e.mjs shogi9  URL screenshot.png KIF  full shogi in Japanese: the 9x9 board with 9-1 and 一-九,
//                                                      moves by clicking (promotion asked), drops, ▲ moves in the
//                                                      list, a take-back; the game saved as KIF (to the path KIF)
//                                                      and loaded again; settai mode answers
//   node web/test/e2e.mjs handicap URL screenshot.png KIF  full shogi's 香落ち in Japanese: the AI, 上手, moves first;
//                                                      a few moves as 下手, saved as KIF (to KIF) and loaded again
//                                                      after an even game, its 手合割 taken up; then as 上手,
//                                                      the board turned round, and the flip button; 投了, and
//                                                      its KIF loaded again keeps the result
//   node web/test/e2e.mjs solved  URL screenshot.png GAME  8x8 Othello loaded near its end (GAME, a transcript): the
//                                                      estimate is the exact final margin, the AI plays it
//   node web/test/e2e.mjs error   URL screenshot.png   the page must explain a missing model
//   node web/test/e2e.mjs picker  URL screenshot.png   every game picked in turn from one server: its name, board
//                                                      and a move; a game named in the address (#connect4)
//   node web/test/e2e.mjs record  URL screenshot.png   8x8 Othello: a few moves, the game as text, loaded again
//                                                      after a new game; a text with an illegal move refused
//   node web/test/e2e.mjs review  URL screenshot.png   tic-tac-toe: a finished game loaded from text, stepped through
//                                                      with the AI's estimate and best move at each position
//   node web/test/e2e.mjs languages URL screenshot.png  tic-tac-toe in Japanese (?lang=ja), then English chosen
//                                                      on the page and kept on reload; the board's coordinates
//   node web/test/e2e.mjs levels  URL screenshot.png   tic-tac-toe with a measured ladder: the levels' Elo in both
//                                                      languages, the adaptive level over a game and a reset, settai
// Every mode fails on a console error or a failed request. Chromium is Debian's (/usr/bin/chromium,
// or $CHROMIUM), driven by playwright-core.
import { launchChromium } from './chromium.mjs';

const [mode, url, screenshot, extra, extra2] = process.argv.slice(2);
const size = mode === 'othello' && extra ? extra : '360x900';
const [width, height] = size.split('x').map(Number);
const fail = (message) => { throw new Error(message); };

const browser = await launchChromium();
try {
  const page = await browser.newPage({ acceptDownloads: true, ...(mode === 'othello' ? { viewport: { width, height } } : {}) });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  page.on('response', (response) => { if (response.status() >= 400 && mode !== 'error') problems.push(`${response.status()} ${response.url()}`); });
  await page.goto(['languages', 'shogi9', 'handicap'].includes(mode) ? `${url}?lang=ja` : url);
  const pageState = () => page.evaluate(() => document.body.dataset.state);
  const waitFor = (states) => page.waitForFunction(
    (wanted) => wanted.includes(document.body.dataset.state), states, { timeout: 60000 });
  const count = (selector) => page.$$eval(selector, (found) => found.length);
  const squaresOf = (selector) => page.$$eval(selector, (found) => found.map((s) => Number(s.dataset.square)));
  const text = async (selector) => (await page.textContent(selector)).trim();

  if (mode === 'review') {
    const marks = () => page.$$eval('.square .mark', (found) => found.length);
    await waitFor(['human']);
    await page.check('#heat');  // the AI's analysis: off in a new game, one click away
    if (!(await page.$eval('#review', (r) => r.hidden))) fail('the review is offered before the game is over');
    await page.fill('#record', 'a1b1a2b2a3');  // the first player wins down the a column
    await page.click('#load');
    await waitFor(['over']);
    if (await page.$eval('#review', (r) => r.hidden)) fail('no review after the game');
    // The loaded game's positions are searched after it: the chart covers the whole game
    await page.waitForFunction(() => document.querySelector('#chart polyline').getAttribute('points').split(' ').length === 5,
      null, { timeout: 60000 });
    await page.click('#review-first');
    await waitFor(['review']);
    const first = await text('#review-text');
    if (!/^Position 0 of 5: the AI's best move [abc][123]$/.test(first) || await marks() !== 0) fail(`the first position: ${first}`);
    if (!(await page.$$('.heat')).length || !/%/.test(await text('#value-text'))) fail('no analysis in the review');
    for (const step of [1, 2]) {
      await page.click('#review-forward');
      await page.waitForFunction((n) => document.body.dataset.state === 'review'
        && document.getElementById('review-text').textContent.startsWith(`Position ${n} `), step, { timeout: 60000 });
      if (await marks() !== step) fail(`position ${step} shows ${await marks()} marks`);
    }
    await page.click('#review-back');
    await page.waitForFunction(() => document.body.dataset.state === 'review'
      && document.getElementById('review-text').textContent.startsWith('Position 1 '), null, { timeout: 60000 });
    await page.click('#review-last');
    await waitFor(['over']);
    if (await marks() !== 5 || await text('#status') !== 'You win') fail(`the end: ${await marks()} marks, ${await text('#status')}`);
    console.log(`reviewed: ${first}`);
  } else if (mode === 'record') {
    const record = () => page.$eval('#record', (r) => r.value);
    for (let move = 0; move < 3; move++) {
      await waitFor(['human']);
      const legal = await squaresOf('.square.legal');
      await page.click(`.square[data-square="${legal[0]}"]`);
    }
    await waitFor(['human', 'over']);
    const saved = await record(), listed = await count('#moves li');
    if (!/^([a-h][1-8]){6,}$/.test(saved)) fail(`the game as text: ${saved}`);
    await page.click('#new-game');
    await waitFor(['human']);
    if (await record() !== '') fail(`a new game shows the text ${await record()}`);
    await page.fill('#record', saved.toUpperCase().replace(/(..)/g, '$1 '));  // any case, spaces between moves
    await page.click('#load');
    await waitFor(['human', 'over']);
    if (await record() !== saved || await count('#moves li') !== listed) fail(`loaded ${await record()}, not ${saved}`);
    await page.fill('#record', 'f5 z9');
    await page.click('#load');
    const refused = await text('#record-error');
    if (refused !== '"z9" is not a legal move after 1 moves' || await count('#moves li') !== listed) fail(`an illegal text: ${refused}`);
    console.log(`saved and loaded ${saved}; refused: ${refused}`);
  } else if (mode === 'picker') {
    const { GAMES } = await import('../games.js');
    const config = await page.evaluate(() => fetch('config.json').then((response) => response.json()));
    await waitFor(['human']);
    const names = await page.$$eval('#game option', (options) => options.map((o) => o.value));
    for (const name of names) {
      await page.selectOption('#game', name);
      await page.waitForFunction((wanted) => location.hash === `#${wanted}` && ['human', 'error'].includes(document.body.dataset.state),
        name, { timeout: 60000 });
      if (await pageState() === 'error') fail(`${name}: ${await page.textContent('#error')}`);
      if (await page.title() !== `AlphaZero: ${config.games[name].look.title.en}`) fail(`${name}: the title is ${await page.title()}`);
      const squares = GAMES[name].rows * GAMES[name].columns;
      if (await count('.square') !== squares) fail(`${name}: ${await count('.square')} squares, not ${squares}`);
      if (!GAMES[name].sourceSquare) {  // one move by clicking (shogi picks a piece first: their own tests)
        const legal = await squaresOf('.square.legal');
        await page.click(`.square[data-square="${legal[0]}"]`);
        await page.waitForFunction(() => document.querySelectorAll('#moves li').length > 0, null, { timeout: 60000 });
      }
    }
    await page.goto('about:blank');
    await page.goto(`${url}#connect4`);  // the game named in the address starts
    await waitFor(['human']);
    if (await page.$eval('#game', (s) => s.value) !== 'connect4' || await page.title() !== 'AlphaZero: Connect Four') {
      fail(`#connect4 started ${await page.title()}`);
    }
    console.log(`picked ${names.join(' ')}`);
  } else if (mode === 'languages') {
    await waitFor(['human']);
    const japanese = [await page.title(), await text('#status'), await text('#you'), await text('#new-game')];
    if (japanese.join('|') !== 'AlphaZero: 三目並べ|あなたの番です|あなた: o（先手） – AI: x|新しい対局') fail(`in Japanese: ${japanese}`);
    if (await page.$eval('html', (h) => h.lang) !== 'ja') fail('the page does not say it is in Japanese');
    const labels = [await page.$$eval('#column-labels span', (s) => s.map((x) => x.textContent).join('')),
      await page.$$eval('#row-labels span', (s) => s.map((x) => x.textContent).join(''))];
    if (labels.join(' ') !== 'abc 123') fail(`coordinates: ${labels}`);
    const picker = await page.$$eval('#game option', (options) => options.map((o) => o.textContent));
    if (!picker.includes('オセロ') || !picker.includes('簡易将棋')) fail(`the game picker: ${picker}`);
    await page.screenshot({ path: screenshot.replace(/\.png$/, '-ja.png'), fullPage: true });
    await page.selectOption('#lang', 'en');
    const english = [await page.title(), await text('#status'), await text('#new-game')];
    if (english.join('|') !== 'AlphaZero: Tic-tac-toe|Your move|New game') fail(`after choosing English: ${english}`);
    await page.goto(url);  // no ?lang: the choice made on the page is kept
    await waitFor(['human']);
    if (await text('#status') !== 'Your move') fail(`English was not kept: ${await text('#status')}`);
    console.log(`Japanese, then English kept; coordinates ${labels.join(' ')}`);
  } else if (mode === 'error') {
    await waitFor(['error']);
    const message = await page.textContent('#error');
    if (!/not found/.test(message)) fail(`the error says: ${message}`);
    console.log(`error shown: ${message}`);
  } else if (mode === 'points') {
    // A whole game by clicking marked legal squares; the scores shown are the sums of the values on
    // each colour's stones, and the result follows the scores
    const stones = () => page.$$eval('.stone', (found) => found.map((s) => [s.style.background, Number(s.textContent)]));
    let moves = 0;
    for (;;) {
      await waitFor(['human', 'over', 'error']);
      const state = await pageState();
      if (state === 'error') fail(await page.textContent('#error'));
      if (state === 'over') break;
      if (!/^To place now: [+-]?\d+; then/.test(await text('#upcoming'))) fail(`upcoming values: ${await text('#upcoming')}`);
      const legal = await squaresOf('.square.legal');
      await page.click(`.square[data-square="${legal[moves % legal.length]}"]`);
      moves += 1;
    }
    // You play black (first): the first score is yours
    const shown = (await text('#score')).match(/-?\d+ points/g).map((s) => parseInt(s, 10));
    const sums = [0, 0];
    for (const [color, value] of await stones()) sums[color === 'rgb(17, 17, 17)' ? 0 : 1] += value;
    if (sums.join() !== shown.join()) fail(`the scores ${shown} are not the sums of the stones' values ${sums}`);
    const result = await text('#status');
    const expected = shown[0] === shown[1] ? 'Draw' : shown[0] > shown[1] ? 'You win' : 'You lose';
    if (result !== expected) fail(`the game ended "${result}" with scores ${shown}`);
    console.log(`played ${moves} moves: ${result} (${shown.join(' to ')})`);
  } else if (mode === 'shogi') {
    // Pick a marked piece (or a piece in hand, when there is one), then a marked square
    let moves = 0, drops = 0;
    for (;;) {
      await waitFor(['human', 'over', 'error']);
      const state = await pageState();
      if (state === 'error') fail(await page.textContent('#error'));
      if (state === 'over') break;
      const inHand = await page.$$('#hand-bottom .in-hand');
      if (inHand.length && moves % 2 === 0) {
        await inHand[0].click();
        drops += 1;
      } else {
        const movable = await squaresOf('.square.legal');
        if (!movable.length) fail('no piece marked as able to move');
        await page.click(`.square[data-square="${movable[moves % movable.length]}"]`);
      }
      const targets = await squaresOf('.square.legal');
      if (!targets.length || !(await page.$$('.picked')).length) fail('picking a piece marks neither it nor its squares');
      await page.click(`.square[data-square="${targets[0]}"]`);
      moves += 1;
    }
    const result = await text('#status');
    if (!['You win', 'You lose', 'Draw'].includes(result)) fail(`the game ended with "${result}"`);
    console.log(`played ${moves} moves (${drops} drops): ${result}`);
  } else if (mode === 'solved') {
    await waitFor(['human']);
    await page.fill('#record', extra);
    await page.click('#load');
    await waitFor(['human', 'over']);
    const said = await text('#value-text');
    if (!/^Solved to the end: (you win by \d+|you lose by \d+|a draw)$|^Result: /.test(said)) fail(`near the end: ${said}`);
    console.log(said);
  } else if (mode === 'shogi9') {
    // Full shogi in Japanese: the coordinates as shogi writes them, then moves by clicking a marked
    // piece (or a piece in hand) and a marked square, answering the promotion question both ways
    await waitFor(['human']);
    const columns = await page.$$eval('#column-labels span', (found) => found.map((s) => s.textContent).join(''));
    const rows = await page.$$eval('#row-labels span', (found) => found.map((s) => s.textContent).join(''));
    if (columns !== '987654321' || rows !== '一二三四五六七八九') fail(`coordinates ${columns} ${rows}`);
    let moves = 0, drops = 0, promotions = 0, asked = 0;
    while (moves < 30) {
      await waitFor(['human', 'over', 'error']);
      const state = await pageState();
      if (state === 'error') fail(await page.textContent('#error'));
      if (state === 'over') break;
      const inHand = await page.$$('#hand-bottom .in-hand');
      if (inHand.length && moves % 3 === 0) {
        await inHand[0].click();
        drops += 1;
      } else {
        const movable = await squaresOf('.square.legal');
        await page.click(`.square[data-square="${movable[(7 * moves) % movable.length]}"]`);
      }
      const targets = await squaresOf('.square.legal');
      if (!targets.length || !(await page.$$('.picked')).length) fail('picking a piece marks neither it nor its squares');
      await page.click(`.square[data-square="${targets[(3 * moves) % targets.length]}"]`);
      if (!(await page.$eval('#promotion', (box) => box.hidden))) {
        asked += 1;
        await page.click(asked % 2 ? '#promote' : '#stay');
        promotions += asked % 2;
      }
      moves += 1;
    }
    const listed = await page.$$eval('#moves li', (found) => found.map((li) => li.textContent));
    if (!/^▲[１-９][一二三四五六七八九][^(]+  △/.test(listed[0])) fail(`the move list (KI2): ${listed[0]}`);
    await waitFor(['human', 'over']);
    const before = await page.$$eval('#moves li', (found) => found.length);
    if (await pageState() === 'human') {
      await page.click('#take-back');
      await waitFor(['human']);
      const kif = await page.$eval('#record', (r) => r.value);
      if (!/手数----指手/.test(kif)) fail(`the game as text is not KIF: ${kif.slice(0, 80)}`);
    }
    // Saved as a file, then loaded again into a new game: the same moves
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    if (!download.suggestedFilename().endsWith('.kifu')) fail(`saved as ${download.suggestedFilename()}`);
    await download.saveAs(extra);
    const saved = await page.$eval('#record', (r) => r.value);
    const shown = await page.$$eval('#moves li', (found) => found.map((li) => li.textContent).join(' '));
    await page.click('#new-game');
    await waitFor(['human', 'thinking']);
    await page.fill('#record', saved);
    await page.click('#load');
    await waitFor(['human', 'over']);
    const again = await page.$$eval('#moves li', (found) => found.map((li) => li.textContent).join(' '));
    if (again !== shown || await text('#record-error')) fail(`loaded again: ${again} != ${shown} (${await text('#record-error')})`);
    // Settai mode answers a move
    await page.check('#settai');
    await page.click('#new-game');
    await waitFor(['human']);
    await page.click(`.square[data-square="${(await squaresOf('.square.legal'))[0]}"]`);
    await page.click(`.square[data-square="${(await squaresOf('.square.legal'))[0]}"]`);
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 1
      && document.getElementById('moves').textContent.includes('△') && document.body.dataset.state === 'human', null, { timeout: 60000 });
    console.log(`played ${moves} moves (${drops} drops, ${asked} promotions asked, ${promotions} made), ${before} lines listed; saved and loaded; settai answered`);
  } else if (mode === 'handicap') {
    // 香落ち: the AI, 上手, moves first, the player answers as 下手; the sides named so
    await waitFor(['human']);
    if (await page.$eval('#handicap-label', (label) => label.hidden)) fail('no handicap to choose in full shogi');
    await page.selectOption('#handicap', '香落ち');
    const sides = await page.$$eval('#side option', (found) => found.map((o) => o.textContent));
    if (sides[0] !== '下手' || !sides[1].startsWith('上手')) fail(`the sides: ${sides}`);
    const play = async (count) => {
      for (let i = 0; i < count; i += 1) {
        await waitFor(['human']);
        await page.click(`.square[data-square="${(await squaresOf('.square.legal'))[i % 3]}"]`);
        await page.click(`.square[data-square="${(await squaresOf('.square.legal'))[0]}"]`);
        if (!(await page.$eval('#promotion', (box) => box.hidden))) await page.click('#stay');
      }
      await waitFor(['human', 'over']);
    };
    await play(3);
    const listed = await page.$$eval('#moves li', (found) => found.map((li) => li.textContent));
    if (!/^△/.test(listed[0])) fail(`上手 did not move first: ${listed}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
    await download.saveAs(extra);
    const saved = await page.$eval('#record', (r) => r.value);
    if (!/手合割：香落ち/.test(saved) || !/下手：/.test(saved) || !/上手：/.test(saved)) fail(`the KIF: ${saved.slice(0, 200)}`);
    const shown = listed.join(' ');
    await page.selectOption('#handicap', '');  // an even game, then the record brings its handicap back
    await waitFor(['human']);
    await page.fill('#record', saved);
    await page.click('#load');
    await waitFor(['human', 'over']);
    const again = await page.$$eval('#moves li', (found) => found.map((li) => li.textContent).join(' '));
    if (again !== shown || await page.$eval('#handicap', (s) => s.value) !== '香落ち') fail(`loaded again: ${again} != ${shown}`);
    // As 上手: the player moves first, without the lance, and the AI answers as 下手
    await page.selectOption('#side', 'second');
    await play(1);
    const asUwate = await page.$$eval('#moves li', (found) => found.map((li) => li.textContent).join(' '));
    if (!/^△.+▲/.test(asUwate)) fail(`as 上手: ${asUwate}`);
    // ... on a board turned round, 上手's side at the bottom, which the flip button turns back
    const turned = () => page.$eval('#board', (board) => board.classList.contains('flipped'));
    const columns = await page.$$eval('#column-labels span', (found) => found.map((s) => s.textContent).join(''));
    const rows = await page.$$eval('#row-labels span', (found) => found.map((s) => s.textContent).join(''));
    if (!(await turned()) || columns !== '123456789' || rows !== '九八七六五四三二一') fail(`as 上手: ${columns} ${rows}`);
    await page.click('#flip');
    if (await turned()) fail('the flip button left the board turned');
    // 投了: the game ends as lost, and its KIF, loaded again, keeps that end (not 中断)
    await waitFor(['human']);
    await page.click('#resign');
    await waitFor(['over']);
    // The review judges the player's moves (as 上手, △) once the game is over
    await page.waitForFunction(() => document.body.dataset.judged, null, { timeout: 120000 });
    const reviewed = await page.$$eval('#mistakes li', (found) => found.map((li) => li.textContent));
    if (!reviewed.every((line) => /^\d+ 手目 △\S+: (悪手|疑問手)（見込み \d+% → \d+%）/.test(line) || line === '印のついた手はありません。')) {
      fail(`the review: ${reviewed}`);
    }
    const resignedKif = await page.$eval('#record', (r) => r.value);
    const result = resignedKif.trim().split(/\r?\n/).slice(-2);
    if (!/^\s*\d+ 投了$/.test(result[0]) || !/^まで\d+手で下手の勝ち$/.test(result[1])) fail(`resigned: ${result}`);
    await page.click('#new-game');
    await waitFor(['human', 'thinking']);
    await page.fill('#record', resignedKif);
    await page.click('#load');
    await waitFor(['over']);
    const reloaded = (await page.$eval('#record', (r) => r.value)).trim().split(/\r?\n/).slice(-2);
    if (reloaded.join() !== result.join() || await text('#status') !== 'あなたの負け') fail(`loaded: ${reloaded}, ${await text('#status')}`);
    // A .kif file in Shift_JIS that Python's write_kif wrote (extra2), opened from the computer
    const { readFileSync } = await import('node:fs');
    const fileEnd = new TextDecoder('shift_jis').decode(readFileSync(extra2)).trim().split(/\r?\n/).slice(-2);
    await page.setInputFiles('#record-file', extra2);
    await waitFor(['over', 'human', 'thinking']);
    const opened = (await page.$eval('#record', (r) => r.value)).trim().split(/\r?\n/).slice(-2);
    if (opened.join() !== fileEnd.join() || await text('#record-error')) fail(`opened: ${opened} != ${fileEnd} (${await text('#record-error')})`);
    console.log(`香落ち: ${listed.length} lines as 下手, saved and loaded with its 手合割; as 上手: ${asUwate}; `
      + `resigned and loaded again: ${result[1]}`);
  } else if (mode === 'levels') {
    // Tic-tac-toe with a measured ladder: the levels show their Elo; the adaptive level follows the
    // player's rating after a finished game and forgets it on reset; settai mode plays
    await waitFor(['human']);
    const options = await page.$$eval('#level option', (found) => found.map((o) => o.textContent));
    if (!options.some((o) => /^Level 1 – policy, sampled \(Elo \d+, about random player\)$/.test(o))) fail(`levels: ${options}`);
    await page.selectOption('#lang', 'ja');
    const japanese = await page.$$eval('#level option', (found) => found.map((o) => o.textContent));
    if (!japanese.some((o) => /^レベル 1 – ポリシー出力のみ・確率的（Elo \d+、(ランダム くらい|.+ より \d+ (高い|低い))）$/.test(o))) fail(`levels in Japanese: ${japanese}`);
    await page.selectOption('#lang', 'en');
    if (await text('#rating') !== 'Your rating: 300 (0 games)') fail(`a new player: ${await text('#rating')}`);
    await page.check('#adaptive');
    const finish = async () => {
      for (;;) {
        await waitFor(['human', 'over']);
        if (await pageState() === 'over') return;
        await page.click(`.square[data-square="${(await squaresOf('.square.legal'))[0]}"]`);
      }
    };
    await finish();
    const rated = await text('#rating');
    if (!/^Your rating: \d+ \(1 games\)$/.test(rated) || rated === 'Your rating: 300 (1 games)') fail(`after a game: ${rated}`);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('rating:tictactoe')));
    if (stored.games !== 1) fail(`kept: ${JSON.stringify(stored)}`);
    await page.reload();
    await waitFor(['human']);
    if (await text('#rating') !== rated || !(await page.isChecked('#adaptive'))) fail('the rating was not kept');
    await page.click('#reset-rating');
    if (await text('#rating') !== 'Your rating: 300 (0 games)' || await page.$eval('#level', (s) => s.value) !== '2') {
      fail(`reset: ${await text('#rating')}, level ${await page.$eval('#level', (s) => s.value)}`);
    }
    await page.check('#settai');
    await page.click('#new-game');
    await waitFor(['human']);
    await page.click(`.square[data-square="${(await squaresOf('.square.legal'))[0]}"]`);
    await waitFor(['human', 'over']);
    if (await page.$$eval('.square .mark', (found) => found.length) !== 2) fail('settai mode did not answer');
    console.log(`levels ${options.length}; ${rated}; settai answered`);
  } else if (mode === 'othello') {
    // A few moves by clicking a marked legal square; the count and the marks follow the board
    for (let move = 0; move < 6; move++) {
      await waitFor(['human', 'over', 'error']);
      if (await pageState() !== 'human') break;
      const legal = await squaresOf('.square.legal');
      if (!legal.length) fail('no legal move marked');
      await page.click(`.square[data-square="${legal[legal.length - 1]}"]`);
    }
    await waitFor(['human', 'over']);
    const discs = await count('.stone');
    const shown = (await text('#score')).match(/\d+/g).map(Number);
    if (shown[0] + shown[1] !== discs) fail(`the disc count ${shown} does not add up to the ${discs} discs on the board`);
    if (await count('.square.last') !== 1) fail('the last move is not marked');
    if (!/You: .*black \(first\)/.test(await text('#you'))) fail(`the side is not shown: ${await text('#you')}`);
    const box = await page.$eval('#board', (b) => b.getBoundingClientRect().width);
    if (box > width) fail(`the board is ${box} px wide on a ${width} px screen`);
    console.log(`played to ${discs} discs (${shown.join('-')}); the board is ${Math.round(box)} px wide`);
  } else {
    const marks = () => page.$$eval('.square', (squares) => squares.map((s) => s.querySelector('.mark')?.textContent || ''));
    const searched = () => page.$eval('#board', (b) => Number(b.dataset.searched));
    await waitFor(['human', 'error']);
    if (await page.isChecked('#heat') || (await page.$$('.heat')).length) fail('the hint is on in a new game');
    await page.check('#heat');
    if (!/You: o \(first\)/.test(await text('#you'))) fail('the side you play is not shown');
    const levels = await page.$$eval('#level option', (options) => options.map((o) => o.textContent));
    const standard = await page.$eval('#level', (s) => s.selectedOptions[0].textContent);
    if (levels.length < 4 || !/^Level \d – \d+ simulations \(not measured\)$/.test(standard)) fail(`levels: ${levels}`);
    let moves = 0, tookBack = false;
    for (;;) {
      await waitFor(['human', 'over', 'error']);
      const state = await pageState();
      if (state === 'error') fail(await page.textContent('#error'));
      if (state === 'over') break;
      const before = await marks();
      // The search shows its move shares and value on the human's turn too; the legal moves are marked
      if (!(await page.$$('.heat')).length) fail('no move shares on the board');
      if (!/%/.test(await text('#value-text'))) fail('no value shown');
      const empty = before.map((m, i) => (m ? -1 : i)).filter((i) => i >= 0);
      if ((await squaresOf('.square.legal')).join() !== empty.join()) fail('the legal moves are not the marked ones');

      // A click on a taken square does nothing
      const taken = before.findIndex((m) => m);
      if (taken >= 0) {
        await page.click(`.square[data-square="${taken}"]`);
        if (await pageState() !== 'human' || (await marks()).join() !== before.join()) fail('an illegal click was played');
      }

      // The first move by keyboard (focus, arrow right, Enter), at the weakest level; the rest by clicking
      if (moves === 0) {
        await page.selectOption('#level', { index: 0 });
        await page.focus(`.square[data-square="${empty[0]}"]`);
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Enter');
      } else {
        await page.click(`.square[data-square="${empty[0]}"]`);
      }
      const mine = moves === 0 ? empty[0] + 1 : empty[0];
      moves += 1;
      await waitFor(['human', 'over', 'error']);
      const after = await marks();
      const added = after.map((m, i) => (m && !before[i] ? i : -1)).filter((i) => i >= 0);
      const changed = after.filter((m, i) => before[i] && m !== before[i]);
      if (!added.includes(mine) || changed.length || added.length > 2) fail(`not a legal exchange: ${before} -> ${after}`);
      if (moves === 1 && await searched() !== 0) fail(`level 1 searched ${await searched()} simulations: it plays its policy alone`);
      if (added.length === 2) {
        const ai = added.find((i) => i !== mine);
        if ((await squaresOf('.square.last')).join() !== String(ai)) fail('the AI\'s last move is not marked');
      }

      // Once, take back the second exchange: the board and the move list return to before it
      if (moves === 2 && await pageState() === 'human' && !tookBack) {
        const listed = await count('#moves li');
        await page.click('#take-back');
        await waitFor(['human']);
        if ((await marks()).join() !== before.join()) fail(`take-back did not restore ${before}: ${await marks()}`);
        if (await count('#moves li') !== listed - 1) fail('the move list did not lose the taken-back pair');
        tookBack = true;
        moves -= 1;
      }
    }
    const result = await text('#status');
    if (!['You win', 'You lose', 'Draw'].includes(result)) fail(`the game ended with "${result}"`);
    if (!/^Result: (you won|you lost|a draw)$/.test(await text('#value-text'))) fail(`value text: ${await text('#value-text')}`);
    const winning = await count('.square.win');
    if (winning !== (result === 'Draw' ? 0 : 3)) fail(`${winning} squares marked as the winning line after "${result}"`);
    if (!tookBack) fail('no take-back was tried');
    // The review marks your moves after which your chances fell (one dot on the chart for each)
    const marked = await page.$$eval('#mistakes li', (found) => found.map((li) => li.textContent));
    const dots = await count('#chart circle');
    const line = /^\d+\. [abc][123]: (bad|dubious) move \(your chances (\d+)% → (\d+)%\); the AI prefers ([abc][123]|–)$/;
    if (!(marked.join() === 'No move of yours was marked.' && dots === 0)
      && !(marked.every((m) => line.test(m) && Number(m.match(line)[2]) - Number(m.match(line)[3]) >= 9) && dots === marked.length)) {
      fail(`the marked moves: ${marked} (${dots} dots)`);
    }
    console.log(`played ${moves} moves: ${result}, with a take-back; ${dots} moves marked`);
  }
  if (problems.length) fail(`console errors or failed requests: ${problems.join('; ')}`);
  await page.screenshot({ path: screenshot, fullPage: true });
} finally {
  await browser.close();
}
