// Takes docs/serve-live.png: the live page of a running tourney in Chromium (playwright-core,
// Debian's /usr/bin/chromium). Starts `catarena serve` and a small tourney in a temp folder, opens
// the run's live page once games are in flight and W has cells, and keeps the screenshot.
//   node scripts/serve-screenshot.mjs [out.png] [tourney flags…]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'catarena.mjs');
const file = path.resolve(process.argv[2] ?? path.join(root, 'docs', 'serve-live.png'));
const flags = process.argv.length > 3 ? process.argv.slice(3) : ['--games', 'gomoku,chess', '--rounds', '3'];
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-serve-shot-'));
const server = spawn(process.execPath, [bin, 'serve', '--out', out, '--port', '0'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let err = '';
const url = await new Promise((resolve) =>
  server.stderr.on(
    'data',
    (d) => ((err += d), /catarena serve: (\S+)/.test(err) && resolve(/catarena serve: (\S+)/.exec(err)[1])),
  ),
);
const tourney = spawn(process.execPath, [bin, 'tourney', '-o', out, ...flags], { stdio: 'ignore' });
const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.locator('tr[data-state="running"] a').first().click({ timeout: 120_000 });
  // Round 2 or later: agents developing, boards in flight and W with cells.
  await page.waitForFunction(
    () =>
      document.querySelectorAll('table.W td.cell[data-n]:not([data-n="0"])').length > 20 &&
      document.querySelectorAll('.boards .game').length >= 2,
    undefined,
    { timeout: 300_000, polling: 50 },
  );
  await page.screenshot({ path: file, fullPage: true });
  console.log(`written ${file}`);
} finally {
  await browser.close();
  tourney.kill('SIGTERM');
  server.kill('SIGTERM');
}
