// `catarena serve` while a tourney runs, with one watcher: how long from a game's end (the runner's
// end event in live.jsonl) to its W cell drawn on the live page in Chromium, and the server
// process's CPU while it serves that page (utime + stime from /proc over the watched wall time).
// The tourney and the server are separate processes, as a user runs them.
//   npm run bench -- serve [--games gomoku] [--rounds N]   (default: the default tourney, all four games)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '../tests/helpers/browser.ts';
import { summary } from './stats.ts';
import { RUN_FILES } from '../records/run-layout.ts';

const BIN = path.resolve(import.meta.dirname, '../bin/catarena.mjs');
const TICK = 1 / 100; // USER_HZ 100: /proc times are in 1/100 s

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK; // utime, stime
}

export async function benchServe(args: string[] = []) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-serve-'));
  const server = spawn(process.execPath, [BIN, 'serve', '--out', out, '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let serverErr = '';
  const url = await new Promise<string>((resolve, reject) => {
    server.stderr!.on('data', (d) => {
      serverErr += d;
      const m = /catarena serve: (http:\/\/\S+)/.exec(serverErr);
      if (m) resolve(m[1]!);
    });
    server.on('exit', () => reject(new Error(`serve exited: ${serverErr}`)));
  });
  const tourneyArgs = ['tourney', '-o', out, ...args];
  console.log(`catarena ${tourneyArgs.join(' ')} with catarena serve at ${url} and one Chromium page watching …`);
  const t0 = Date.now();
  const tourney = spawn(process.execPath, [BIN, ...tourneyArgs], { stdio: 'ignore' });
  const tourneyExit = new Promise<number | null>((resolve) => tourney.on('exit', resolve));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url);
    const row = page.locator('table[data-testid="runs"] tbody tr[data-state="running"] a').first();
    await row.waitFor({ timeout: 120_000 });
    await row.click();
    await page.waitForURL(/\/run\//);
    await page.locator('[data-testid="state"]').filter({ hasText: 'running' }).waitFor();
    const cpu0 = cpuSeconds(server.pid!);
    const w0 = Date.now();
    const code = await tourneyExit;
    const wall = (Date.now() - w0) / 1000;
    const cpu = cpuSeconds(server.pid!) - cpu0;
    if (code !== 0) throw new Error(`tourney exited with ${code}`);
    const runDir = path.join(out, fs.readdirSync(out).find((f) => f.startsWith('tourney-'))!);
    const journal = fs.readFileSync(path.join(runDir, RUN_FILES.journal), 'utf8').trim().split('\n').length;
    await page.waitForFunction(
      (n) => (window as unknown as { catarenaServe: { results: unknown[] } }).catarenaServe.results.length >= n,
      journal,
      { timeout: 30_000 },
    );
    const { drawnAt, connectedAt, boardsSeen } = await page.evaluate(
      () =>
        (
          window as unknown as {
            catarenaServe: { drawnAt: Record<string, number>; connectedAt: number; boardsSeen: number };
          }
        ).catarenaServe,
    );
    const stats = (await (await fetch(`${new URL(url).origin}/api/stats`)).json()) as Record<string, unknown>;
    const ends = new Map<string, number>();
    for (const line of fs.readFileSync(path.join(runDir, RUN_FILES.live), 'utf8').split('\n')) {
      if (!line.includes('"type":"end"')) continue;
      const e = JSON.parse(line) as { id: string; at: string };
      ends.set(e.id, Date.parse(e.at));
    }
    // Games that ended while the page watched (the snapshot's are drawn at connect, not measured).
    const latency = [...ends]
      .filter(([id, at]) => at > connectedAt && drawnAt[id] !== undefined)
      .map(([id, at]) => drawnAt[id]! - at);
    const result = {
      tourney: tourneyArgs.join(' '),
      cores: os.availableParallelism(),
      tourneyWallS: Math.round((Date.now() - t0) / 100) / 10,
      games: journal,
      measured: latency.length,
      boardsSeen,
      endToCellMs: summary(latency),
      server: {
        cpuS: Math.round(cpu * 100) / 100,
        wallS: Math.round(wall * 10) / 10,
        cpuShareOfOneCore: Math.round((cpu / wall) * 1000) / 1000,
        stats,
      },
    };
    console.log(
      `${journal} games in ${result.tourneyWallS} s; ${latency.length} measured while watched; ${boardsSeen} boards in flight drawn`,
    );
    console.log(
      `game end → W cell on the page: p50 ${result.endToCellMs.p50.toFixed(0)} ms, p90 ${result.endToCellMs.p90.toFixed(0)} ms, p99 ${result.endToCellMs.p99.toFixed(0)} ms, max ${result.endToCellMs.max.toFixed(0)} ms`,
    );
    console.log(`server work: ${JSON.stringify(stats)}`);
    console.log(
      `server CPU while serving one watcher: ${cpu.toFixed(2)} s over ${wall.toFixed(1)} s = ${((cpu / wall) * 100).toFixed(1)} % of one core`,
    );
    return result;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    if (tourney.exitCode === null) tourney.kill('SIGTERM');
  }
}
