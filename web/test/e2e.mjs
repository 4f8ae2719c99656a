// End-to-end: headless Chromium plays tic-tac-toe on the served page by clicking.
//   node web/test/e2e.mjs play  URL screenshot.png   a whole game; the AI must answer legally
//   node web/test/e2e.mjs error URL screenshot.png   the page must explain a missing model
// Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM), driven by playwright-core.
import { chromium } from 'playwright-core';

const [mode, url, screenshot] = process.argv.slice(2);
const fail = (message) => { throw new Error(message); };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  // No background connections: this machine has no network beyond the local server
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  const pageState = () => page.evaluate(() => document.body.dataset.state);
  const waitFor = (states) => page.waitForFunction(
    (wanted) => wanted.includes(document.body.dataset.state), states, { timeout: 60000 });

  if (mode === 'error') {
    await waitFor(['error']);
    const message = await page.textContent('#error');
    if (!/not found/.test(message)) fail(`the error says: ${message}`);
    console.log(`error shown: ${message}`);
  } else {
    const marks = () => page.$$eval('.square', (squares) => squares.map((s) => s.querySelector('.mark')?.textContent || ''));
    let moves = 0;
    for (;;) {
      await waitFor(['human', 'over', 'error']);
      const state = await pageState();
      if (state === 'error') fail(await page.textContent('#error'));
      if (state === 'over') break;
      const before = await marks();
      // The AI's search shows its move shares and value on the human's turn too
      if (!(await page.$$('.heat')).length) fail('no move shares on the board');
      if (!/%/.test(await page.textContent('#value-text'))) fail('no value shown');

      // A click on a taken square does nothing
      const taken = before.findIndex((m) => m);
      if (taken >= 0) {
        await page.click(`.square[data-square="${taken}"]`);
        if (await pageState() !== 'human' || (await marks()).join() !== before.join()) fail('an illegal click was played');
      }

      // Click the first empty square; then the AI answers with one stone on an empty square
      const empty = before.findIndex((m) => !m);
      await page.click(`.square[data-square="${empty}"]`);
      moves += 1;
      await waitFor(['human', 'over', 'error']);
      const after = await marks();
      const added = after.map((m, i) => (m && !before[i] ? i : -1)).filter((i) => i >= 0);
      const changed = after.filter((m, i) => before[i] && m !== before[i]);
      if (!added.includes(empty) || changed.length || added.length > 2) fail(`not a legal exchange: ${before} -> ${after}`);
    }
    const result = await page.textContent('#status');
    if (!['You win', 'You lose', 'Draw'].includes(result.trim())) fail(`the game ended with "${result}"`);
    console.log(`played ${moves} moves: ${result.trim()}`);
  }
  if (pageErrors.length) fail(`page errors: ${pageErrors.join('; ')}`);
  await page.screenshot({ path: screenshot });
} finally {
  await browser.close();
}
