// Nightly runs, part 2: what `catarena schedule` refuses or warns about at registration (against a
// real redis-server without persistence and no worker), and a run that fails while it opens is
// marked failed, not left "running" (serve and history would later call it killed). Nothing here
// plays a game.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { listSchedules, removeSchedule, scheduleTourney } from '../orchestrator/worker/nightly.ts';
import { tempDir } from './helpers/bots.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';

const statusOf = (runDir: string) => {
  const file = path.join(runDir, 'status.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
};

describe.runIf(hasRedis() || Boolean(process.env.CI))('nightly: schedule registration', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis({ persistence: false });
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('a config with a bad agent spec is refused at registration, and nothing is registered', async () => {
    for (const [spec, error] of [
      ['cli:claude#v1', /unknown agent "cli:claude#v1"; agent specs: .*claude-code\[:<model>\]/],
      ['offline:reckless', /unknown offline character "reckless"/],
      [`dir:${path.join(tempDir(), 'missing')}#x`, /is not a folder/],
    ] as const) {
      await expect(
        scheduleTourney({
          url: redis.url,
          name: 'bad',
          cron: '0 2 * * *',
          config: { games: ['gomoku'], rounds: 1, agents: ['offline:cautious', spec] },
        }),
      ).rejects.toThrow(error);
    }
    // What depends on the agents too: agentTracks naming no agent of the run.
    await expect(
      scheduleTourney({
        url: redis.url,
        name: 'bad',
        cron: '0 2 * * *',
        config: {
          games: ['gomoku'],
          rounds: 1,
          agents: ['offline:cautious', 'offline:aggressive'],
          agentTracks: { imitator: 'ml' },
        },
      }),
    ).rejects.toThrow(/agentTracks names no agent of this run: imitator/);
    expect(await listSchedules(redis.url)).toEqual([]);
  });

  it('a good schedule registers with warnings: no worker connected, and a Redis that forgets it on a restart', async () => {
    const info = await scheduleTourney({
      url: redis.url,
      name: 'warned',
      cron: '0 2 * * *',
      config: { games: ['gomoku'], rounds: 1, agents: ['offline:cautious', 'offline:aggressive'] },
    });
    try {
      expect(info.next).toMatch(/^20\d\d-/);
      expect(info.warnings).toEqual([
        expect.stringMatching(/^no worker that runs scheduled tourneys is connected to redis:\/\/127\.0\.0\.1:\d+/),
        expect.stringMatching(/keeps nothing across a restart .*deletes this schedule.*docs\/deploy\.md/),
      ]);
    } finally {
      await removeSchedule(redis.url, 'warned');
    }
  });

  it('a run that fails while it opens is marked failed, and a bad agent spec leaves no "running" folder', async () => {
    // A damaged journal (a line that is not JSON before the last one): refused after the run was marked running.
    const damaged = tempDir('catarena-damaged-');
    fs.writeFileSync(path.join(damaged, 'journal.jsonl'), 'not json\n{"id":"x"}\n');
    const config = resolveConfig({ games: ['gomoku'], rounds: 1, agents: ['offline:cautious', 'offline:aggressive'] });
    await expect(runTourney({ config, runDir: damaged })).rejects.toThrow(/journal.jsonl:1 is not valid JSON/);
    expect(statusOf(damaged)).toMatchObject({ state: 'failed', message: expect.stringMatching(/not valid JSON/) });

    const bad = path.join(tempDir(), 'bad-spec');
    await expect(
      runTourney({ config: resolveConfig({ ...config, agents: ['offline:cautious', 'cli:claude#v1'] }), runDir: bad }),
    ).rejects.toThrow(/unknown agent "cli:claude#v1"/);
    expect(statusOf(bad)?.state).not.toBe('running');
  });
});
