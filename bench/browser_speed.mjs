// Positions per second of the model that play_web.py serves, on onnxruntime-web (WebAssembly, one
// thread, as the page runs it) in headless Chromium. bench/bench_browser.py starts the server and
// runs this; it prints one JSON line: {"batch": positions per second, ...}.
//   node bench/browser_speed.mjs URL BATCH [BATCH ...]
import { launchChromium } from '../web/test/chromium.mjs';

const [url, ...batches] = process.argv.slice(2);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  // A page of the server that runs nothing itself (the game page would start its own session)
  await page.goto(new URL('config.json', url).href);
  const speeds = await page.evaluate(async (batches) => {
    const ort = await import('/ort/ort.wasm.min.mjs');
    const { GAMES } = await import('/games.js');
    ort.env.wasm.wasmPaths = '/ort/';
    ort.env.wasm.numThreads = 1;
    const name = (await (await fetch('/config.json')).json()).game;
    const game = GAMES[name];
    const session = await ort.InferenceSession.create(`/model/${name}.onnx`);
    const speeds = {};
    for (const batch of batches) {
      const size = batch * game.rows * game.columns * game.channels;
      const input = new ort.Tensor('float32', Float32Array.from({ length: size }, Math.random),
        [batch, game.rows, game.columns, game.channels]);
      const feeds = { [session.inputNames[0]]: input };
      for (let i = 0; i < 3; i++) await session.run(feeds);  // warm up
      // Calls for about 3 seconds
      let calls = 0;
      const start = performance.now();
      while (performance.now() - start < 3000) {
        await session.run(feeds);
        calls++;
      }
      speeds[batch] = (calls * batch * 1000) / (performance.now() - start);
    }
    return speeds;
  }, batches.map(Number));
  console.log(JSON.stringify(speeds));
} finally {
  await browser.close();
}
