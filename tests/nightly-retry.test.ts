// Nightly runs against a real redis-server (append-only file on), part 1: a few seconds of Redis
// downtime must not fail a night. A batch of games queued while Redis restarts waits for it (the
// grace a run promises), and a scheduled night that still fails on an infrastructure error (Redis
// away past its grace) is tried again by BullMQ, resuming its folder, and ends with the W of an
// undisturbed run. That night, with no seed in its config, plays its own (its firing time in
// seconds, recorded in its config.json). One in-process worker plays every game. Bots run as plain
// processes (sandbox unsafe), a quarter second of CPU less per bot start: nothing here depends on
// the sandbox (the bubblewrap one: tests/sandbox-*.test.ts, queue-*.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { executeQueued, type QueuedStrategy } from '../orchestrator/executor/queued.ts';
import { withRedis } from '../orchestrator/queue/connection.ts';
import { readNightEvents } from '../orchestrator/queue/nights.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { removeSchedule, scheduleTourney } from '../orchestrator/worker/nightly.ts';
import { startQueueWorker, type RunningWorker } from '../orchestrator/worker/worker.ts';
import { DEFAULT_LIMITS, type MatchSpec } from '../records/match.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { journalOf, slowHeuristic, wOf } from './helpers/queue.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';
import { pollFor } from './helpers/redis-poll.ts';

describe.runIf(hasRedis() || Boolean(process.env.CI))('nightly: Redis downtime and retried nights', () => {
  let redis: TestRedis;
  let worker: RunningWorker;
  const runsDir = tempDir('catarena-nights-');
  const messages: string[] = [];

  beforeAll(async () => {
    redis = await startRedis({ persistence: true });
    worker = await startQueueWorker({
      url: redis.url,
      concurrency: 2,
      sandbox: 'unsafe',
      workDir: tempDir('catarena-night-worker-'),
      runsDir,
      lockDurationMs: 5_000,
      // A night fails 1 s into an outage (60 s by default), so the 3 s outage below fails it.
      queueGraceMs: 1_000,
      report: (m) => messages.push(m),
    });
  }, 60_000);
  afterAll(async () => {
    await worker?.kill();
    await redis?.stop();
  }, 30_000);

  it('a batch of games queued while Redis is down waits for it and completes', async () => {
    const strategies = new Map<string, QueuedStrategy>([
      ['a', { dir: BUILTIN('random') }],
      ['b', { dir: BUILTIN('random') }],
    ]);
    const spec = (seats: string[], seed: number): MatchSpec => ({
      game: 'gomoku',
      variant: 'standard',
      seats,
      seed,
      limits: DEFAULT_LIMITS,
      policy: 'strict',
    });
    const reports: string[] = [];
    await redis.kill();
    // A run's next batch (its next track or round), started during a restart: before, its fresh
    // connection failed at once ("cannot reach Redis") whatever the grace.
    const batch = executeQueued([spec(['a', 'b'], 1), spec(['b', 'a'], 2)], {
      url: redis.url,
      run: `outage-${Date.now()}`,
      strategies,
      startTimeoutMs: 20_000,
      graceMs: 20_000,
      report: (m) => reports.push(m),
    });
    await new Promise((r) => setTimeout(r, 1_500));
    await redis.start();
    const results = await batch;
    expect(results).toHaveLength(2);
    expect(reports.join('\n')).toMatch(/is unreachable .*; waiting up to 20 s for it[\s\S]*is back after/);
  }, 60_000);

  it('a night that fails on Redis going away is retried, resumes its folder and ends with the W of an undisturbed run', async () => {
    // Two deterministic bots (no noise), a few seconds of games: 2 games of 20–40 moves at 60 ms each.
    const config: TourneyConfigInput = {
      games: ['gomoku'],
      variants: ['standard'],
      rounds: 1,
      agents: [
        `dir:${slowHeuristic('deep', 60, { depth: 2 })}#deep`,
        `dir:${slowHeuristic('wide', 60, { depth: 1, candidates: 20 })}#wide`,
      ],
      concurrency: 2,
      bootstrapSamples: 50,
      sandbox: 'unsafe',
    };
    // Fires once, two seconds from now (then not for a minute); retried 0.5 s after a failure.
    const second = (new Date().getSeconds() + 2) % 60;
    const name = `retry-${Date.now()}`;
    await scheduleTourney({ url: redis.url, name, cron: `${second} * * * * *`, config, retryDelayMs: 500 });
    try {
      const night = () => fs.readdirSync(runsDir).find((d) => d.startsWith(name));
      await pollFor(async () => {
        const dir = night();
        return Boolean(dir && fs.existsSync(path.join(runsDir, dir, 'tracks')));
      }, 'the night playing');
      // The night's own seed (no seed in its config): its firing time in seconds, in its config.json.
      const stamp = /-(\d{8})-(\d{6})$/.exec(night()!)!;
      const fired = Date.parse(
        `${stamp[1]!.replace(/(\d{4})(\d\d)(\d\d)/, '$1-$2-$3')}T${stamp[2]!.replace(/(\d\d)(\d\d)(\d\d)/, '$1:$2:$3')}Z`,
      );
      const seed = JSON.parse(fs.readFileSync(path.join(runsDir, night()!, 'config.json'), 'utf8')).seed;
      expect(seed).toBe(fired / 1000);
      const undisturbed = runTourney({
        config: resolveConfig(config, { seed }),
        runDir: path.join(tempDir(), 'local'),
      });
      await new Promise((r) => setTimeout(r, 500)); // its games under way on the worker
      await redis.kill();
      await new Promise((r) => setTimeout(r, 3_000));
      await redis.start();
      const runDir = path.join(runsDir, night()!);
      const state = () => JSON.parse(fs.readFileSync(path.join(runDir, 'status.json'), 'utf8')).state;
      await pollFor(async () => state() === 'finished', 'the night finished', 60_000);
      expect(fs.readFileSync(path.join(runsDir, 'index.jsonl'), 'utf8')).toContain(path.basename(runDir));
      const log = messages.join('\n');
      expect(log).toMatch(
        new RegExp(`"${name}" failed on an infrastructure error \\(attempt 1 of 3\\); it is tried again, resuming`),
      );
      expect(log).toMatch(new RegExp(`"${name}" started \\(attempt 2 of 3, resuming\\): .* \\(seed ${seed}\\)`));
      const journal = journalOf(runDir);
      expect(new Set(journal.map((r) => r.id)).size).toBe(journal.length);
      expect(wOf(runDir)).toEqual(wOf((await undisturbed).runDir));
      // The nights list (history and the alert hooks read it): two starts, then finished.
      const events = () => withRedis(redis.url, (r) => readNightEvents(r, name));
      await pollFor(async () => (await events()).at(-1)?.state === 'finished', 'the night recorded as finished');
      expect((await events()).map((e) => [e.state, e.attempt, e.runDir])).toEqual([
        ['started', 1, runDir],
        ['started', 2, runDir],
        ['finished', 2, runDir],
      ]);
    } finally {
      await removeSchedule(redis.url, name);
    }
  }, 90_000);
});
