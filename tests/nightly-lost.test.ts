// Nightly runs, part 5: a Redis without persistence restarts and forgets every schedule. A worker
// (in process) remembers the schedules it saw outside Redis; after the restart it names each one
// that vanished in its log with the command that registers it again (its config saved on the
// worker), and `schedule --list` and `queue status` say so until it is registered again. A
// schedule removed on purpose (no restart) is not reported. Nothing here plays a game.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { readConfigFile, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { PREFIX, TOURNEY_QUEUE, withRedis } from '../orchestrator/queue/connection.ts';
import { formatQueueStatus, queueStatus } from '../orchestrator/queue/status.ts';
import { listSchedules, lostSchedules, removeSchedule, scheduleTourney } from '../orchestrator/worker/nightly.ts';
import { type RunningWorker, startQueueWorker } from '../orchestrator/worker/worker.ts';
import { waitFor } from './helpers/bot-process.ts';
import { tempDir } from './helpers/bots.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';

const config: TourneyConfigInput = {
  games: ['gomoku'],
  rounds: 1,
  agents: ['offline:cautious', 'offline:aggressive'],
};
const YEARLY = '0 2 1 1 *'; // never fires during the test

describe.runIf(hasRedis() || Boolean(process.env.CI))('schedules lost with Redis data', () => {
  let redis: TestRedis;
  let worker: RunningWorker | undefined;
  const workDir = tempDir('catarena-lost-worker-');
  const messages: string[] = [];
  const remembered = (name: string) =>
    fs
      .readdirSync(workDir)
      .filter((f) => /^schedules-[0-9a-f]+\.json$/.test(f))
      .some((f) => name in JSON.parse(fs.readFileSync(path.join(workDir, f), 'utf8')).schedules);

  beforeAll(async () => {
    redis = await startRedis({ persistence: false });
    worker = await startQueueWorker({
      url: redis.url,
      concurrency: 1,
      sandbox: 'process',
      workDir,
      housekeepingMs: 300,
      report: (m) => messages.push(m),
    });
  }, 60_000);
  afterAll(async () => {
    await worker?.kill();
    await redis?.stop();
  }, 30_000);

  it('a schedule removed on purpose is forgotten quietly', async () => {
    await scheduleTourney({ url: redis.url, name: 'dropped', cron: YEARLY, config });
    await waitFor(async () => remembered('dropped'), 'the worker remembering "dropped"');
    await removeSchedule(redis.url, 'dropped');
    await waitFor(async () => !remembered('dropped'), 'the worker forgetting "dropped"');
    expect(messages.join('\n')).not.toMatch(/LOST/);
    expect(await lostSchedules(redis.url)).toEqual([]);
  });

  it('a scheduler forged into Redis with a path for a name is not remembered, and nothing is written outside', async () => {
    const evil = '../../evil';
    await withRedis(redis.url, async (r) => {
      const queue = new Queue(TOURNEY_QUEUE, { connection: r, prefix: PREFIX });
      await queue.upsertJobScheduler(evil, { pattern: YEARLY }, { name: 'tourney', data: { name: evil, config } });
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a few checks (every 300 ms)
      await queue.removeJobScheduler(evil);
      await queue.close();
    });
    expect(fs.existsSync(path.join(workDir, 'schedules', `${evil}.config.json`))).toBe(false);
    expect(remembered(evil)).toBe(false);
  });

  it('a restart without persistence: each lost schedule is named, with how to register it again', async () => {
    await scheduleTourney({ url: redis.url, name: 'kept', cron: YEARLY, config, catchUp: 'all', retries: 1 });
    await waitFor(async () => remembered('kept'), 'the worker remembering "kept"');
    await redis.kill();
    await redis.start({ forget: true });
    await waitFor(async () => messages.some((m) => m.includes('LOST: schedule kept')), 'the worker noticing', 30_000);
    const line = messages.find((m) => m.includes('LOST: schedule kept'))!;
    const saved = path.join(workDir, 'schedules', 'kept.config.json');
    expect(line).toBe(
      `! LOST: schedule kept "${YEARLY}" is gone: Redis lost its data (a restart without persistence?), noticed by worker ${worker!.name} at ${/at (\S+);/.exec(line)![1]}; no night runs until it is registered again: catarena schedule --queue ${redis.url} --name kept --cron '${YEARLY}' --config ${saved} --catch-up all --retries 1`,
    );
    expect((fs.statSync(saved).mode & 0o777).toString(8)).toBe('600');
    expect(await listSchedules(redis.url)).toEqual([]);
    expect(formatQueueStatus(await queueStatus(redis.url))).toContain('! LOST: schedule kept');

    // The command it gave works: the saved config registers the same schedule, and the note goes.
    await scheduleTourney({ url: redis.url, name: 'kept', cron: YEARLY, config: await readConfigFile(saved) });
    expect(await lostSchedules(redis.url)).toEqual([]);
    expect((await listSchedules(redis.url)).map((s) => s.name)).toEqual(['kept']);
    expect(messages.filter((m) => m.includes('LOST')).length).toBe(1);
  }, 60_000);
});
