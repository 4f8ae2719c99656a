// The seconds the page takes for each of the AI's moves at each level, as a player waits for them: the
// served game played from the start in headless Chromium, the player making a legal move (shogi: a
// piece, then its square, never promoting) and the clock running from that click until the page
// waits for the player again. bench/bench_browser.py --moves starts the server and runs this; it
// prints one JSON line: {"level": [seconds of each AI move], ...}.
//   node bench/page_moves.mjs URL LEVEL[,LEVEL...] MOVES
import { launchChromium } from '../web/test/chromium.mjs';

const [url, levels, moves] = process.argv.slice(2);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(url);
  const settled = (states) => page.waitForFunction((wanted) => wanted.includes(document.body.dataset.state), states,
    { timeout: 600000 });
  const legal = () => page.$$eval('.square.legal', (found) => found.map((s) => Number(s.dataset.square)));
  // the moves played so far: the move list's items hold two moves each, two spaces apart
  const played = () => page.$$eval('#moves li', (items) => items.reduce((n, li) => n + li.textContent.split('  ').length, 0));
  await settled(['human']);
  const seconds = {};
  for (const level of levels.split(',')) {
    await page.selectOption('#level', level);
    await page.click('#new-game');
    seconds[level] = [];
    for (let move = 0; move < Number(moves); move += 1) {
      if (await page.evaluate(() => document.body.dataset.state) === 'over') break;
      await settled(['human']);
      const before = await played();
      const squares = await legal();
      // the clock starts before the click that makes the move: the page answers it at once, and
      // Playwright's click returns only once the page is free again
      const pieceGame = await page.evaluate(() => document.body.dataset.state === 'human' && Boolean(document.querySelector('.piece')));
      let start = Date.now();
      await page.click(`.square[data-square="${squares[move % squares.length]}"]`);
      if (pieceGame) {
        const targets = await legal();
        start = Date.now();
        await page.click(`.square[data-square="${targets[0]}"]`);
        if (!(await page.$eval('#promotion', (box) => box.hidden))) {
          start = Date.now();
          await page.click('#stay');
        }
      }
      await page.waitForFunction((count) => document.body.dataset.state === 'over'
        || [...document.querySelectorAll('#moves li')].reduce((n, li) => n + li.textContent.split('  ').length, 0) >= count + 2,
      before, { timeout: 600000, polling: 20 });
      await settled(['human', 'over']);
      seconds[level].push((Date.now() - start) / 1000);
    }
  }
  console.log(JSON.stringify(seconds));
} finally {
  await browser.close();
}
