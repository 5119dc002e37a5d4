// Games per second for the random reference bots through the full arena path (process
// sandbox, journal, replays), at concurrency 1 and 2.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runArena } from '../orchestrator/arena.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function benchThroughput(reps = 20) {
  const dir = path.resolve(here, '../games/gomoku/bots/random');
  const rows: Record<string, unknown>[] = [];
  for (const concurrency of [1, 2]) {
    const sandbox = createSandbox('process');
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-'));
    const bots = ['r1', 'r2', 'r3', 'r4'].map((id) => ({ id, dir }));
    const t0 = performance.now();
    const out = await runArena({
      game: 'gomoku',
      variant: 'standard',
      bots,
      reps,
      seed: 1,
      concurrency,
      limits: DEFAULT_LIMITS,
      policy: 'strict',
      runDir,
      sandbox,
    });
    const seconds = (performance.now() - t0) / 1000;
    await sandbox.close();
    fs.rmSync(runDir, { recursive: true, force: true });
    const plies = out.results.reduce((s, r) => s + r.plies, 0);
    rows.push({
      concurrency,
      games: out.results.length,
      seconds: +seconds.toFixed(2),
      gamesPerSecond: +(out.results.length / seconds).toFixed(1),
      pliesPerGame: +(plies / out.results.length).toFixed(1),
    });
  }
  console.log('random vs random, 4 bots round-robin (includes bot start-up)');
  console.table(rows);
  return rows;
}
