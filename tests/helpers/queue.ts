// Shared by the queue test files (tests/queue-*.test.ts): run-directory readers, deterministic
// delayed bots, the `catarena` CLI as a process, and a test Redis with its worker processes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TourneyConfigInput } from '../../orchestrator/config/tourney-config.ts';
import type { MatchResult } from '../../records/match.ts';
import { connectQueue, MATCH_QUEUE, PREFIX } from '../../orchestrator/queue/connection.ts';
import { BUILTIN, tempDir } from './bots.ts';
import { waitFor } from './bot-process.ts';
import { spawnWorker, stopWorkerProcess, type WorkerProcess } from './worker-process.ts';
import { sharedRunDir } from './shared-runs.ts';
import { startRedis, type TestRedis } from './redis.ts';

export const CLI = path.resolve(import.meta.dirname, '../../bin/catarena.mjs');

export const journalOf = (runDir: string): MatchResult[] =>
  fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
/** The tourney run under <out>/runs once its journal holds `games` games (at most 120 s). */
export async function journaledRun(out: string, games: number): Promise<string> {
  let runDir = '';
  await waitFor(
    async () => {
      const dirs = fs.existsSync(path.join(out, 'runs'))
        ? fs.readdirSync(path.join(out, 'runs')).filter((d) => d.startsWith('tourney-'))
        : [];
      runDir = dirs[0] ? path.join(out, 'runs', dirs[0]) : '';
      return Boolean(runDir) && fs.existsSync(path.join(runDir, 'journal.jsonl')) && journalOf(runDir).length >= games;
    },
    `${games} journaled games`,
    120_000,
  );
  return runDir;
}

export const wOf = (runDir: string) =>
  Object.fromEntries(
    fs
      .readdirSync(path.join(runDir, 'tracks'))
      .map((t) => [t, JSON.parse(fs.readFileSync(path.join(runDir, 'tracks', t, 'W.json'), 'utf8'))]),
  );

/**
 * The gomoku heuristic bot, deterministic (no noise, a search depth it always finishes within its
 * time budget), answering each move after `delayMs` so games last long enough to interrupt.
 */
export function slowHeuristic(name: string, delayMs: number, params: Record<string, unknown> = {}): string {
  const dir = path.join(tempDir(), name);
  fs.cpSync(BUILTIN('heuristic'), dir, { recursive: true });
  const bot = path.join(dir, 'bot.mjs');
  const source = fs.readFileSync(bot, 'utf8');
  const patched = source.replace(
    "'POST /get_move': async (req) => getMove(await readJson(req)),",
    `'POST /get_move': async (req) => { const body = await readJson(req); await new Promise((r) => setTimeout(r, ${delayMs})); return getMove(body); },`,
  );
  expect(patched).not.toBe(source);
  fs.writeFileSync(bot, patched);
  const file = path.join(dir, 'params.json');
  fs.writeFileSync(
    file,
    JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...params, timeBudgetMs: 5000 }),
  );
  return dir;
}

/**
 * A bot's delay per move in slowConfig() where the test process itself interrupts a game (a kill
 * or a signal lands within milliseconds of seeing it active): games of 17–53 moves last 0.2–0.6 s.
 * Faults injected with the docker CLI, which may take a second to act, use 40 ms.
 */
export const MOVE_DELAY_MS = 10;

/**
 * Two delayed heuristic bots (deterministic: no noise), 12 games. The delay (`delayMs` per move),
 * not the search, makes the games last: 2-ply and 1-ply searches play 17–53-move games for
 * 0.05–0.5 s of CPU each (3 and 2 plies took 0.3–0.75 s for 33–40 moves). It does not change W.
 */
export const slowConfig = (delayMs = MOVE_DELAY_MS): TourneyConfigInput => ({
  games: ['gomoku'],
  rounds: 2,
  variants: ['standard'],
  agents: [
    `dir:${slowHeuristic('deep', delayMs, { depth: 2 })}#deep`,
    `dir:${slowHeuristic('wide', delayMs, { depth: 1, candidates: 20 })}#wide`,
  ],
  concurrency: 2,
  bootstrapSamples: 50,
});

/**
 * A slowConfig(delayMs) and its W played by the in-process executor. The bots are deterministic,
 * so the same config gives the same W however often, and with whatever delay, it is played: one
 * in-process run per test run (every queue file, through shared-runs.ts) serves as the reference
 * of every queued run of that config (started at once, awaited where compared).
 */
export function slowReference(delayMs = MOVE_DELAY_MS): {
  input: TourneyConfigInput;
  localW: () => Promise<Record<string, unknown>>;
} {
  const input = slowConfig(delayMs);
  let played: Promise<Record<string, unknown>> | undefined;
  const localW = () => (played ??= sharedRunDir('queue-slow-config', input).then(wOf));
  return { input, localW };
}

export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c) => (stdout += c));
    proc.stderr.on('data', (c) => (stderr += c));
    proc.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A redis-server for one test file, and the `catarena worker` processes it starts; all stopped in
 * afterAll. `persistence`: its append-only file on (fsynced on every write), for files that kill
 * and restart Redis and expect their data back; off by default, where no write needs to outlive
 * the server (every write is then answered without waiting for the disk).
 */
export function queueFixture(options: { persistence?: boolean } = {}) {
  const state = { redis: undefined as unknown as TestRedis };
  const workers: WorkerProcess[] = [];

  /** A `catarena worker` process; it runs scheduled tourneys only when asked (no test's leftovers). */
  const startWorker = async (
    name: string,
    extra: string[] = [],
    url = state.redis.url,
    tourneys = false,
    env?: NodeJS.ProcessEnv,
  ): Promise<WorkerProcess> => {
    const worker = await spawnWorker(
      url,
      name,
      ['--concurrency', '2', '--lock-ms', '5000', ...(tourneys ? [] : ['--no-tourneys']), ...extra],
      undefined,
      env,
    );
    workers.push(worker);
    return worker;
  };
  const stopWorker = async (w: WorkerProcess) => {
    workers.splice(workers.indexOf(w), 1);
    await stopWorkerProcess(w);
  };
  const stopWorkers = async () => {
    await Promise.all([...workers].map(stopWorker));
  };
  // A worker killed by a signal has a null exitCode (and a signalCode): it is not running.
  const running = () =>
    workers.filter((w) => w.proc.exitCode === null && w.proc.signalCode === null && w.url === state.redis.url);
  /** A worker on the test's Redis, started unless one is running. */
  const ensureWorker = async (name: string) => {
    if (!running().length) await startWorker(name);
  };
  const matchQueue = async () => {
    const connection = await connectQueue(state.redis.url);
    const queue = new Queue(MATCH_QUEUE, { connection, prefix: PREFIX });
    return { queue, close: async () => (await queue.close(), connection.disconnect()) };
  };

  beforeAll(async () => {
    state.redis = await startRedis({ persistence: options.persistence ?? false });
  });
  afterAll(async () => {
    await stopWorkers();
    await state.redis?.stop();
  }, 60_000);

  return {
    get redis() {
      return state.redis;
    },
    startWorker,
    stopWorker,
    stopWorkers,
    running,
    ensureWorker,
    matchQueue,
  };
}
