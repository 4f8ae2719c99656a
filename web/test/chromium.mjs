// Debian's Chromium (/usr/bin/chromium, or $CHROMIUM), headless, driven by playwright-core; used by
// the end-to-end test and by bench/browser_speed.mjs.
import { chromium } from 'playwright-core';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    // No background connections: this machine has no network beyond the local server
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}
