// Redis secured as a user would run it, against a real redis-server: an ACL user with a password
// (the default user needs another), TLS with a CA made by openssl at test time. A queued tourney
// over rediss:// finishes with the in-process W; the password is never printed or written (the
// CLI's output, the run directory, `queue status`, Redis's own keys); a wrong or missing password,
// or a certificate nobody vouched for, fails at once with an error that says what to fix.
// Over 30 s: a queued 12-game run over TLS (its coordinator, `queue status` and the five refused
// workers run in-process; the one worker is a `catarena` process, its secrets in its environment).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import { tempDir } from './helpers/bots.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';
import { journalOf, slowReference, wOf } from './helpers/queue.ts';
import { makeTlsCerts, type TestCerts } from './helpers/tls.ts';
import { spawnWorker, stopWorkerProcess, type WorkerProcess } from './helpers/worker-process.ts';
import { catarena } from './helpers/cli.ts';

const PASSWORD = 'pw-Zq81-never-shown';
const ADMIN_PASSWORD = 'admin-Kx27-never-shown';
/** An ACL user limited to catarena's keys, without the admin commands BullMQ does not need. */
const ACL = [
  '--user',
  'catarena',
  'on',
  `>${PASSWORD}`,
  '~catarena:*',
  '&*',
  '+@all',
  '-@dangerous',
  '+info',
  '+client',
  '+config|get',
  '--requirepass',
  ADMIN_PASSWORD,
];

/** Every file under `dir` whose content or name contains `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (file.includes(needle)) hits.push(file);
    if (entry.isFile() && fs.readFileSync(file).includes(needle)) hits.push(file);
  }
  return hits;
}

describe.runIf(hasRedis() || Boolean(process.env.CI))(
  'queue: Redis with an ACL user, a password and TLS (real redis-server)',
  () => {
    let redis: TestRedis;
    let certs: TestCerts;
    const workers: WorkerProcess[] = [];
    const slow = slowReference();

    beforeAll(async () => {
      certs = makeTlsCerts(['localhost'], ['127.0.0.1']);
      redis = await startRedis({ tls: certs, args: ACL });
    });
    afterAll(async () => {
      await Promise.all(workers.map((w) => stopWorkerProcess(w)));
      await redis?.stop();
    }, 60_000);

    it('a tourney over rediss:// with an ACL user gives the in-process W and writes or prints its password nowhere', async () => {
      const reference = slow.localW(); // played in-process meanwhile
      // The worker takes its secrets from the environment, the coordinator from the URL.
      const env = {
        ...process.env,
        CATARENA_REDIS_USERNAME: 'catarena',
        CATARENA_REDIS_PASSWORD: PASSWORD,
        CATARENA_REDIS_CA_FILE: certs.ca,
      };
      const starting = spawnWorker(redis.tlsUrl!, 'tls-worker', ['--concurrency', '2', '--no-tourneys'], 60_000, env);
      starting.then((w) => workers.push(w)).catch(() => {}); // awaited below

      const out = tempDir();
      const secretUrl = `${redis.tlsUrl!.replace('rediss://', `rediss://catarena:${encodeURIComponent(PASSWORD)}@`)}`;
      const config = path.join(out, 'config.json');
      fs.writeFileSync(config, JSON.stringify({ ...slow.input, out: path.join(out, 'runs') }));
      // The coordinator (`catarena tourney` in this process, its output captured: the command, not a
      // process start) starts while the worker does; its games wait in Redis.
      vi.stubEnv('CATARENA_REDIS_CA_FILE', certs.ca);
      const [worker, coordinator] = await Promise.all([
        starting,
        catarena('tourney', '--config', config, '--queue', secretUrl),
      ]);
      expect(worker.output()).toContain(`ready on ${redis.tlsUrl}`);
      expect(coordinator.code, coordinator.stderr).toBe(0);
      const runDir = path.join(
        out,
        'runs',
        fs.readdirSync(path.join(out, 'runs')).find((d) => d.startsWith('tourney-'))!,
      );
      expect(journalOf(runDir)).toHaveLength(12);
      expect(wOf(runDir)).toEqual(await reference);
      // The stored URL keeps the user, not the password: a resume takes it from the environment.
      expect(JSON.parse(fs.readFileSync(path.join(runDir, 'config.json'), 'utf8')).queue).toBe(
        redis.tlsUrl!.replace('rediss://', 'rediss://catarena@'),
      );

      const status = await catarena('queue', 'status', '--queue', secretUrl);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain('tls-worker');

      const printed = [coordinator.stdout, coordinator.stderr, status.stdout, status.stderr, worker.output()].join(
        '\n',
      );
      expect(printed).toContain('127.0.0.1'); // it did print where Redis is
      expect(printed).not.toContain(PASSWORD);
      expect(filesContaining(runDir, PASSWORD)).toEqual([]);
      expect(filesContaining(worker.workDir, PASSWORD)).toEqual([]);
      // Nor does it travel through Redis (jobs, artifacts, the run index).
      const admin = new Redis({ port: redis.port, password: ADMIN_PASSWORD });
      try {
        const keys = await admin.keys('*');
        expect(keys.length).toBeGreaterThan(0);
        for (const key of keys) expect(JSON.stringify(await admin.dump(key))).not.toContain(PASSWORD);
      } finally {
        admin.disconnect();
      }
    }, 240_000);

    it('a worker with a wrong or missing password fails at once with what to fix, never echoing the password', async () => {
      const cases = [
        {
          env: { CATARENA_REDIS_USERNAME: 'catarena', CATARENA_REDIS_PASSWORD: 'wrong-Pq55' },
          url: redis.url,
          expect:
            /Redis at redis:\/\/127\.0\.0\.1:\d+ refused the user and password \(WRONGPASS.*\): fix the password in CATARENA_REDIS_PASSWORD or the user catarena/,
        },
        {
          env: {},
          url: redis.url.replace('redis://', 'redis://catarena:wrong-Pq55@'),
          expect:
            /Redis at redis:\/\/catarena@127\.0\.0\.1:\d+ refused the user and password .*: fix the password in the URL/,
        },
        { env: {}, url: redis.url, expect: /requires a password and none was given: set CATARENA_REDIS_PASSWORD/ },
        {
          env: { CATARENA_REDIS_PASSWORD: PASSWORD },
          url: redis.tlsUrl!,
          expect:
            /TLS certificate was not accepted \(.*\); set CATARENA_REDIS_CA_FILE to the PEM file of the CA that signed it/,
        },
        {
          env: { CATARENA_REDIS_CA_FILE: certs.ca },
          url: redis.url,
          expect: /CATARENA_REDIS_CA_FILE is set but --queue redis:\/\/127\.0\.0\.1:\d+ is not TLS; use rediss:\/\//,
        },
      ];
      // Each in this process (main(), as bin/catarena.mjs calls it, its output captured), one after
      // another with its own environment: what a refusal prints and how soon, without five process
      // starts of about 2 s of CPU each (the CLI as a process: the first test's coordinator and worker).
      for (const c of cases) {
        vi.stubEnv('CATARENA_REDIS_USERNAME', '');
        vi.stubEnv('CATARENA_REDIS_PASSWORD', '');
        vi.stubEnv('CATARENA_REDIS_CA_FILE', '');
        for (const [k, v] of Object.entries(c.env)) vi.stubEnv(k, v);
        const started = Date.now();
        const { code, stdout, stderr } = await catarena('worker', '--queue', c.url, '--work-dir', tempDir());
        vi.unstubAllEnvs();
        const output = stdout + stderr;
        expect(code, output).toBe(1);
        expect(output).toMatch(c.expect);
        expect(output).not.toContain('wrong-Pq55');
        expect(output).not.toContain(PASSWORD);
        expect(output).not.toMatch(/\n\s+at /); // a message, not a stack trace
        // Well inside the 60 s a reachable-but-down Redis would be waited for: a refusal is not retried.
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    }, 120_000);
  },
);
