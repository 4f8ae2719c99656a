// One picture of the page for the docs (docs/make_screenshots.py runs it for each):
//   node web/test/screenshot.mjs URL OUT.png WIDTHxHEIGHT [RECORD] [review]
// URL names the game and the language (http://127.0.0.1:PORT/?lang=ja#connect4). The page loads its
// model; RECORD, when given, is typed into the game's text and loaded (a position to show); with
// `review` the finished game is then reviewed from its start, two moves on. The picture is taken
// once the AI is done, so that it shows what a player sees.
import { launchChromium } from './chromium.mjs';

const [url, out, size, record, review] = process.argv.slice(2);
const [width, height] = size.split('x').map(Number);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  await page.goto(url);
  const settled = (states) => page.waitForFunction((wanted) => wanted.includes(document.body.dataset.state), states,
    { timeout: 120000 });
  await settled(['human']);
  if (record) {
    await page.fill('#record', record);
    await page.click('#load');
    await settled(['human', 'over']);
  }
  if (review) {  // the review from the start, two moves on: the AI's estimate, move shares and best move there
    await page.check('#heat');
    await page.click('#review-first');
    await settled(['review']);
    for (const step of [1, 2]) {
      await page.click('#review-forward');
      await page.waitForFunction((n) => document.body.dataset.state === 'review'
        && document.querySelectorAll('.square .mark').length === n && document.querySelectorAll('.heat').length > 0,
      step, { timeout: 120000 });
    }
  }
  if (problems.length) throw new Error(problems.join('\n'));
  await page.screenshot({ path: out, fullPage: true });
  console.log(out);
} finally {
  await browser.close();
}
