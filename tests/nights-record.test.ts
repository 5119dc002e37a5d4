// The nights list (orchestrator/queue/nights.ts) against a real Redis: each night's latest state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { NIGHTS_KEY, readNightEvents, readNights, recordNight } from '../orchestrator/queue/nights.ts';
import { startRedis, type TestRedis } from './helpers/redis.ts';

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

describe('the nights list', () => {
  it('keeps each night’s latest state in firing order and skips damaged lines', async () => {
    await recordNight(redis, { schedule: 'a', firedAt: '2026-12-02T02:00:00.000Z', state: 'started' });
    await recordNight(redis, {
      schedule: 'a',
      firedAt: '2026-12-01T02:00:00.000Z',
      state: 'missed',
      reason: 'no worker',
    });
    await redis.rpush(NIGHTS_KEY, '{torn');
    await recordNight(redis, { schedule: 'b', firedAt: '2026-12-02T03:00:00.000Z', state: 'started' });
    await recordNight(redis, { schedule: 'a', firedAt: '2026-12-02T02:00:00.000Z', state: 'failed', reason: 'x' });
    expect(await readNightEvents(redis, 'a')).toHaveLength(3);
    const nights = await readNights(redis, 'a');
    expect(nights.map((n) => [n.firedAt.slice(0, 10), n.state])).toEqual([
      ['2026-12-01', 'missed'],
      ['2026-12-02', 'failed'],
    ]);
    expect(nights[1]!.at).toMatch(/^\d{4}-/);
    expect((await readNights(redis)).map((n) => n.schedule)).toEqual(['a', 'a', 'b']);
  });
});
