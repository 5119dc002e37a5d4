// Games per second through the BullMQ queue with 1 and 2 worker processes (and 1 at concurrency 2
// and auto), against the in-process executor on the same specs, and the queue's overhead per game.
// Bots are warm in every case: the in-process fleet starts them before the clock, and workers get
// an untimed warm-up batch first.
// Needs redis-server (npm run setup); it is started here on a free loopback port.
import fs from 'node:fs';
import path from 'node:path';
import { executeQueued, type QueuedStrategy } from '../orchestrator/executor/queued.ts';
import { MATCH_QUEUE, withQueues } from '../orchestrator/queue/connection.ts';
import { roundRobin } from '../orchestrator/formats/round-robin.ts';
import { BOT_START_TIMEOUT_MS, DEFAULT_LIMITS, type MatchSpec } from '../records/match.ts';
import { startRedis } from '../tests/helpers/redis.ts';
import { spawnWorker, stopWorkerProcess, type WorkerProcess } from '../tests/helpers/worker-process.ts';
import { playWarm } from './warm-fleet.ts';

const BOT = path.resolve(import.meta.dirname, '../games/gomoku/bots/random');

function specs(seed: number, reps: number): MatchSpec[] {
  const entrants = ['r1', 'r2', 'r3', 'r4'];
  return roundRobin({
    game: 'gomoku',
    variant: 'standard',
    seed,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    entrants,
    opponents: [],
    reps,
  });
}

async function startWorkers(url: string, count: number, concurrency: string): Promise<{ stop: () => Promise<void> }> {
  const workers: WorkerProcess[] = [];
  for (let i = 0; i < count; i++)
    workers.push(await spawnWorker(url, `bench-${i + 1}`, ['--concurrency', concurrency, '--no-tourneys']));
  const stop = async (w: WorkerProcess) => {
    await stopWorkerProcess(w);
    fs.rmSync(w.workDir, { recursive: true, force: true }); // its artifacts and bot logs
  };
  return { stop: async () => void (await Promise.all(workers.map(stop))) };
}

export async function benchQueue(reps = 10): Promise<Record<string, unknown>> {
  const redis = await startRedis();
  const strategies = new Map<string, QueuedStrategy>(['r1', 'r2', 'r3', 'r4'].map((id) => [id, { dir: BOT }]));
  const timed = specs(7, reps);
  const n = timed.length;
  const rows: Array<{ executor: string; games: number; seconds: number; gamesPerSecond: number }> = [];
  let costs: Awaited<ReturnType<typeof perGameCosts>> | undefined;
  try {
    for (const concurrency of [1, 2]) {
      const { seconds } = await playWarm(timed, BOT, concurrency);
      rows.push({ executor: `in-process, concurrency ${concurrency}`, games: n, seconds, gamesPerSecond: n / seconds });
    }
    // Worker processes × --concurrency; the first is the overhead's reference (one game at a time).
    const setups: Array<[number, string]> = [
      [1, '1'],
      [2, '1'],
      [1, '2'],
      [1, 'auto'],
    ];
    for (const [count, concurrency] of setups) {
      const workers = await startWorkers(redis.url, count, concurrency);
      const run = `bench-${count}x${concurrency}`;
      try {
        await executeQueued(specs(1, 1), {
          url: redis.url,
          run: `warmup-${run}`,
          strategies,
          startTimeoutMs: BOT_START_TIMEOUT_MS,
          sweepMs: 200,
        });
        const collected = new Map<string, number>();
        const t0 = performance.now();
        await executeQueued(timed, {
          url: redis.url,
          run,
          strategies,
          startTimeoutMs: BOT_START_TIMEOUT_MS,
          sweepMs: 200,
          onReplay: (r) => void collected.set(r.result.id, Date.now()),
        });
        const seconds = (performance.now() - t0) / 1000;
        rows.push({
          executor: `queue, ${count} worker${count > 1 ? 's' : ''} × concurrency ${concurrency}`,
          games: n,
          seconds,
          gamesPerSecond: n / seconds,
        });
        if (count === 1 && concurrency === '1') costs = await perGameCosts(redis.url, run, collected);
      } finally {
        await workers.stop();
      }
    }
  } finally {
    await redis.stop();
  }
  const local1 = rows[0]!.seconds;
  const queue1 = rows[2]!.seconds;
  const overheadMsPerGame = ((queue1 - local1) * 1000) / n;
  console.log(`\nqueue vs in-process: ${n} random-bot Gomoku games (warm bots; 2 cores, redis-server on loopback)`);
  console.log('executor                              games  seconds  games/s');
  for (const r of rows)
    console.log(
      `${r.executor.padEnd(37)} ${String(r.games).padStart(5)} ${r.seconds.toFixed(2).padStart(8)} ${r.gamesPerSecond.toFixed(1).padStart(8)}`,
    );
  console.log(
    `wall-clock difference per game, 1 worker vs in-process (both one game at a time): ${overheadMsPerGame.toFixed(1)} ms`,
  );
  if (costs) {
    console.log('queue cost per game, from the jobs of the 1-worker run (mean / p95 ms):');
    for (const [what, v] of Object.entries(costs))
      console.log(`  ${what.padEnd(58)} ${v.mean.toFixed(2).padStart(7)} / ${v.p95.toFixed(2)}`);
  }
  return { rows, overheadMsPerGame, costs };
}

/**
 * Where the queue spends time per game, from stored job timestamps: the worker's wrapping of a game
 * (artifact check, bots from the warm fleet, result stored), the gap between one job's end and
 * the worker's next start (the queue's hand-over), and the delay until the coordinator has it.
 */
async function perGameCosts(url: string, run: string, collected: Map<string, number>) {
  return withQueues(url, [MATCH_QUEUE], async ([queue]) => {
    const jobs = (await queue!.getJobs(['completed'], 0, -1))
      .filter((j) => j.id!.startsWith(`${run}.`))
      .sort((a, b) => a.processedOn! - b.processedOn!);
    const wrap = jobs.map(
      (j) => j.finishedOn! - j.processedOn! - (j.returnvalue as { result: { durationMs: number } }).result.durationMs,
    );
    const handOver = jobs.slice(1).map((j, i) => j.processedOn! - jobs[i]!.finishedOn!);
    const collect = jobs.map(
      (j) => collected.get((j.returnvalue as { result: { id: string } }).result.id)! - j.finishedOn!,
    );
    return {
      'worker wrapping (job time minus game time)': stats(wrap),
      'hand-over to the next game on the worker': stats(handOver),
      'result reaching the coordinator after the job finished': stats(collect),
    };
  });
}

function stats(values: number[]): { mean: number; p95: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: values.reduce((s, v) => s + v, 0) / Math.max(1, values.length),
    p95: sorted[Math.floor(0.95 * (sorted.length - 1))] ?? 0,
  };
}
