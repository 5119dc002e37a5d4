// Over 30 s: three small nights run one after another on one worker (about 10–15 s each on a shared 2-core machine, mostly opening and reporting a run), after 3-5 s of firings with no worker up.
// Nightly runs, part 4: firings missed while no worker is up. Three schedules firing twice, 2 s
// apart (catch-up none, latest, all), are registered on a real redis-server with no worker;
// `schedule --list` says each is overdue instead of showing a past `next` as upcoming. Then a
// worker (in process) comes up: every firing that passed is recorded in the nights list, and only
// what the policy says runs, each night in a folder named after its own firing time: three nights
// (latest's one, all's two). Two firings a minute, not one every 2 s: no ordinary night fires
// before the schedules are removed (one did under load, and each cost a night). Small nights:
// offline agents, one Gomoku round, plain processes (no game here depends on the sandbox; the
// bubblewrap one is tested in tests/sandbox-*.test.ts).
import fs from 'node:fs';
import type { Redis } from 'ioredis';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { PREFIX } from '../orchestrator/queue/connection.ts';
import type { CatchUp } from '../orchestrator/queue/jobs.ts';
import { type NightRecord, readNights } from '../orchestrator/queue/nights.ts';
import { describeNext } from '../orchestrator/queue/schedule-state.ts';
import { catchUpPlan } from '../orchestrator/worker/missed-firings.ts';
import { listSchedules, removeSchedule, scheduleTourney } from '../orchestrator/worker/nightly.ts';
import { type RunningWorker, startQueueWorker } from '../orchestrator/worker/worker.ts';
import { tempDir } from './helpers/bots.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';
import { pollFor, redisReader } from './helpers/redis-poll.ts';

const config: TourneyConfigInput = {
  games: ['gomoku'],
  variants: ['standard'],
  rounds: 1,
  reps: 1,
  agents: ['offline:cautious', 'offline:aggressive'],
  bootstrapSamples: 20,
  concurrency: 2,
  sandbox: 'unsafe',
};
const EVERY_MS = 2_000;
/** Fires `seconds` from now and 2 s later, then not for a minute. */
const twiceSoon = (seconds: number) => {
  const first = new Date().getSeconds() + seconds;
  return `${first % 60},${(first + EVERY_MS / 1000) % 60} * * * * *`;
};
const stampOf = (iso: string) => iso.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

describe('missed firings: the catch-up plan', () => {
  it('runs a night late by less than one interval; otherwise none, the latest, or each', () => {
    expect(catchUpPlan(10, [], 'none')).toEqual({ runHere: true, missed: [], queued: [] });
    expect(catchUpPlan(10, [12, 14], 'none')).toEqual({ runHere: false, missed: [10, 12, 14], queued: [] });
    expect(catchUpPlan(10, [12, 14], 'latest')).toEqual({ runHere: false, missed: [10, 12], queued: [14] });
    expect(catchUpPlan(10, [12, 14], 'all')).toEqual({ runHere: true, missed: [], queued: [12, 14] });
  });
});

describe.runIf(hasRedis() || Boolean(process.env.CI))('missed firings with no worker up', () => {
  let redis: TestRedis;
  let worker: RunningWorker | undefined;
  const runsDir = tempDir('catarena-missed-');
  const messages: string[] = [];
  const name = (policy: CatchUp) => `missed-${policy}`;
  let reader: Redis;
  const nights = (policy: CatchUp) => readNights(reader, name(policy));

  beforeAll(async () => {
    redis = await startRedis({ persistence: false });
    reader = redisReader(redis.url);
  }, 30_000);
  afterAll(async () => {
    reader?.disconnect();
    await worker?.kill();
    await redis?.stop();
  }, 30_000);

  it('an overdue schedule says so; each missed firing is recorded and run as its policy says', async () => {
    const policies: CatchUp[] = ['none', 'latest', 'all'];
    // The none schedule's alert hook: one alert for its missed firings (orchestrator/worker/night-alerts.ts).
    const alerts = path.join(tempDir('catarena-missed-alerts-'), 'alerts.jsonl');
    const cron = twiceSoon(3);
    for (const policy of policies)
      await scheduleTourney({
        url: redis.url,
        name: name(policy),
        cron,
        config,
        catchUp: policy,
        ...(policy === 'none' ? { alerts: { onFailure: `cat >> ${alerts}; echo >> ${alerts}` } } : {}),
      });
    // No worker: the first firing's job waits, and the second never becomes a job. Listed once
    // each is overdue by a firing (the second firing passed, 5 s after registering).
    let listed = await listSchedules(redis.url);
    await pollFor(
      async () => {
        listed = await listSchedules(redis.url);
        return listed.length === 3 && listed.every((s) => (s.overdue?.passed ?? 0) >= 1);
      },
      'a passed firing on each schedule',
      20_000,
    );
    expect(listed).toHaveLength(3);
    for (const s of listed) {
      expect(s.overdue?.passed).toBeGreaterThanOrEqual(1);
      expect(Date.parse(s.next!)).toBeLessThan(Date.now() - EVERY_MS);
      expect(describeNext(s.next, s.overdue, s.catchUp)).toMatch(
        new RegExp(
          `^OVERDUE: due ${s.next}, no worker has taken it yet; \\d+ later firing\\(s\\) passed since, missed \\(catch-up ${s.catchUp} when`,
        ),
      );
    }

    worker = await startQueueWorker({
      url: redis.url,
      concurrency: 2,
      sandbox: 'unsafe',
      workDir: tempDir('catarena-missed-worker-'),
      runsDir,
      report: (m) => messages.push(m),
    });
    // Each schedule is removed once a worker has decided on its first job: what comes after is ordinary nights.
    const decided = async (policy: CatchUp) =>
      (await reader.keys(`${PREFIX}:caught-up:repeat:${name(policy)}:*`)).length > 0;
    await Promise.all(
      policies.map(async (policy) => {
        await pollFor(() => decided(policy), `the worker deciding on ${name(policy)}`, 20_000);
        await removeSchedule(redis.url, name(policy));
      }),
    );

    // none: the first firing and every later one that passed are missed; nothing runs.
    const none = await nights('none');
    expect(none).toHaveLength(2);
    expect(none.every((n) => n.state === 'missed')).toBe(true);
    expectConsecutive(none);
    expect(none[0]!.reason).toMatch(
      /^no worker took the schedule's job from .* after \d+ later firing\(s\); catch-up none: none of them runs$/,
    );
    await pollFor(async () => fs.existsSync(alerts) && fs.readFileSync(alerts, 'utf8').endsWith('\n'), 'the alert');
    const fired = fs
      .readFileSync(alerts, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(fired).toEqual([
      expect.objectContaining({
        event: 'missed',
        schedule: name('none'),
        firedAt: none.at(-1)!.firedAt,
        reason: none[0]!.reason,
      }),
    ]);

    // latest: all but the latest missed; the latest runs, in a folder named after it.
    // The nights run one at a time on the worker (the latest may wait behind two of catch-up all's):
    // under load each took 10-15 s, and 40 s was not always enough; a passing run waits no longer.
    await pollFor(async () => (await nights('latest')).at(-1)?.state === 'finished', 'the latest night', 120_000);
    const latest = await nights('latest');
    expectConsecutive(latest);
    expect(latest.slice(0, -1).map((n) => n.state)).toEqual(latest.slice(0, -1).map(() => 'missed'));
    expect(latest).toHaveLength(2);
    expect(latest[0]!.reason).toMatch(/catch-up latest: only the latest \(.*\) runs$/);
    const ran = latest.at(-1)!;
    expect(ran.runDir).toMatch(new RegExp(`/missed-latest-${stampOf(ran.firedAt)}$`));

    // all: every firing runs, each in its own folder; none is missed.
    const later = Number(/"missed-all": no worker took .* after (\d+) later firing/.exec(messages.join('\n'))?.[1]);
    expect(later).toBe(1);
    await pollFor(
      async () => {
        const all = await nights('all');
        return all.length === later + 1 && all.every((n) => n.state === 'finished');
      },
      'every night of catch-up all',
      120_000,
    );
    const all = await nights('all');
    expectConsecutive(all);
    const folders = fs.readdirSync(runsDir).filter((d) => d.startsWith('missed-all-'));
    expect(folders.sort()).toEqual(all.map((n) => `missed-all-${stampOf(n.firedAt)}`));
    expect(fs.readdirSync(runsDir).filter((d) => d.startsWith('missed-none-'))).toEqual([]);
    expect(fs.readdirSync(runsDir).filter((d) => d.startsWith('missed-latest-'))).toEqual([
      `missed-latest-${stampOf(ran.firedAt)}`,
    ]);
  }, 240_000);
});

/** The nights are the schedule's consecutive cron times from its first firing on (none vanished). */
function expectConsecutive(nights: NightRecord[]): void {
  const times = nights.map((n) => Date.parse(n.firedAt));
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(EVERY_MS);
}
