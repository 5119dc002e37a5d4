// The Redis password never shows: not when it holds characters a URL cannot carry unencoded ("/",
// "#", "?", "@"), not when the URL has a one-slash typo, and not in Redis itself when `schedule`
// is given a config file whose `queue:` holds it. Against a real redis-server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { publicQueueUrl } from '../orchestrator/queue/url.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';
import { catarena } from './helpers/cli.ts';

const SECRET = 'Sx9-secret';

/** Broken and odd ways to write a password into a queue URL. */
const URLS = (host: string) => [
  `redis://catarena:pa/${SECRET}@${host}`,
  `redis://catarena:1/${SECRET}@${host}`,
  `redis:/catarena:${SECRET}@${host}`,
  `redis:catarena:${SECRET}@${host}`,
  `redis://catarena:${SECRET}#x@${host}`,
  `redis://catarena:${SECRET}?x@${host}`,
  `redis://catarena:p@${SECRET}@${host}`,
  `redis://:${SECRET}@${host}/0`,
  `rediss://catarena:${SECRET}@${host}`,
];

describe('publicQueueUrl', () => {
  it('drops the password however the URL is written, and keeps the user of a well-formed one', () => {
    for (const url of URLS('127.0.0.1:6379')) {
      expect(publicQueueUrl(url), url).not.toContain(SECRET);
      expect(publicQueueUrl(url), url).toContain('127.0.0.1:6379');
    }
    expect(publicQueueUrl(`redis://catarena:${SECRET}@127.0.0.1:6379/2`)).toBe('redis://catarena@127.0.0.1:6379/2');
    expect(publicQueueUrl(`redis://catarena:pa/${SECRET}@127.0.0.1:6379`)).toBe('redis://***@127.0.0.1:6379');
    expect(publicQueueUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});

describe.runIf(hasRedis() || Boolean(process.env.CI))('queue secrets (real redis-server)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('queue status never prints a password the URL holds in a broken form', async () => {
    const host = `127.0.0.1:${redis.port}`;
    const urls = [URLS(host)[0]!, URLS(host)[2]!];
    // In this process (main(), output captured), one after another: what it prints, without CLI loads.
    for (const url of urls) {
      const r = await catarena('queue', 'status', '--queue', url);
      expect(`${r.stdout}${r.stderr}`, url).not.toContain(SECRET);
    }
  }, 60_000);

  it("schedule does not store the config file's queue password in Redis", async () => {
    const configFile = path.join(tempDir(), 'nightly.yaml');
    const bot = BUILTIN('random');
    fs.writeFileSync(
      configFile,
      `games: [gomoku]\nrounds: 1\nagents: ["dir:${bot}#a", "dir:${bot}#b"]\nqueue: redis://catarena:${SECRET}@127.0.0.1:${redis.port}\n`,
    );
    const r = await catarena('schedule', '--queue', redis.url, '--cron', '0 3 * * *', '--config', configFile);
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
    const client = new Redis({ port: redis.port });
    try {
      const keys = await client.keys('*');
      expect(keys.some((k) => k.includes('nightly'))).toBe(true);
      for (const key of keys) expect(JSON.stringify(await client.dump(key)), key).not.toContain(SECRET);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
