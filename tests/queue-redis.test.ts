// Games on BullMQ workers against a real redis-server, part 2: Redis restarted mid-run (with and
// without its append-only file) and gone for good, an unreachable queue, infrastructure failures
// retried, the artifact store, orphaned bots, and scheduled tourneys. (Workers killed, drained,
// and a killed coordinator: tests/queue-workers.test.ts.)
// Over 30 s: two queued 12-game runs interrupted by Redis restarts or its loss, and two scheduled
// tourneys on the file's one `catarena worker` process (every other command runs in-process).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { DEFAULT_LIMITS, type MatchSpec } from '../records/match.ts';
import { executeQueued, MatchJobFailedError, type QueuedStrategy } from '../orchestrator/executor/queued.ts';
import { connectQueue, redisOptions, socketTimeoutMs } from '../orchestrator/queue/connection.ts';
import { ArtifactStore, artifactKey } from '../orchestrator/queue/artifacts.ts';
import { hashDir } from '../util/fs.ts';
import { MARKER_VAR } from '../sandbox/bot-env.ts';
import { isProcessGone } from '../util/procfs.mjs';
import { killProcessesIn } from '../sandbox/strays.ts';
import { waitFor } from './helpers/bot-process.ts';
import { BUILTIN, misbehavingBot, tempDir } from './helpers/bots.ts';
import { hasRedis } from './helpers/redis.ts';
import { journalOf, queueFixture, slowConfig, slowHeuristic, slowReference, wOf } from './helpers/queue.ts';
import { catarena } from './helpers/cli.ts';

// In CI a missing redis-server fails (startRedis says how to install it) instead of skipping.
describe.runIf(hasRedis() || Boolean(process.env.CI))(
  'queue: Redis trouble, retries, artifacts and schedules (real redis-server)',
  () => {
    // Its append-only file on: the Redis restart test expects the data back.
    const q = queueFixture({ persistence: true });
    const { startWorker, stopWorker, running } = q;
    /**
     * The file's one worker, started by the first test that needs one and kept: it also runs
     * scheduled tourneys (into `runsDir`), so the schedule test needs no second worker. No test
     * before that one registers a schedule, so it has no other tourney to run.
     */
    let runsDir: string | undefined;
    const ensureWorker = async (name: string) => {
      if (running().length) return running()[0]!;
      runsDir = path.join(tempDir(), 'nightly');
      return startWorker(name, ['--runs-dir', runsDir], q.redis.url, true);
    };
    /** slowConfig() and its in-process W, played once for the file. */
    const slow = slowReference();

    it('an unreachable queue fails at once with an error that says what to do', async () => {
      // Both in this process (main(), as bin/catarena.mjs calls it, its output captured): what the
      // commands print and return, without two CLI loads of about 2 s of CPU each.
      const started = Date.now();
      const result = await catarena('tourney', '--rounds', '1', '--queue', 'redis://127.0.0.1:1', '-o', tempDir());
      const ms = Date.now() - started;
      const bad = await catarena('worker', '--queue', 'http://x');
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED.*\)\. Start it \(redis-server\) or fix --queue/,
      );
      expect(ms).toBeLessThan(10_000);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/expected a redis:\/\/ or rediss:\/\/ URL/);
    }, 60_000);

    it('CATARENA_REDIS_SOCKET_TIMEOUT_MS sets the dead-link timeout (tests only); 20 s without it; under 6 s refused', () => {
      vi.stubEnv('CATARENA_REDIS_SOCKET_TIMEOUT_MS', '');
      expect(redisOptions(q.redis.url).socketTimeout).toBe(20_000);
      vi.stubEnv('CATARENA_REDIS_SOCKET_TIMEOUT_MS', '10000');
      expect(redisOptions(q.redis.url).socketTimeout).toBe(10_000);
      // An idle worker's blocking read lasts 5 s: a shorter timeout would drop healthy links.
      for (const bad of ['5000', '10s', '-1'])
        expect(() => socketTimeoutMs({ CATARENA_REDIS_SOCKET_TIMEOUT_MS: bad })).toThrow(
          new RegExp(`CATARENA_REDIS_SOCKET_TIMEOUT_MS=${bad}: give whole milliseconds, at least 6000`),
        );
    });

    it('the artifact store round-trips a bot folder by content hash, and refuses a tampered or missing one', async () => {
      const connection = await connectQueue(q.redis.url);
      try {
        const store = new ArtifactStore(connection);
        const dir = slowHeuristic('art', 0);
        fs.chmodSync(path.join(dir, 'start_ai.sh'), 0o755);
        fs.symlinkSync('params.json', path.join(dir, 'params.link.json'));
        fs.symlinkSync('/etc/passwd', path.join(dir, 'outside'));
        const hash = await store.put(dir);
        expect(hash).toBe(await hashDir(dir));
        const cache = tempDir();
        const copy = await store.fetch(hash, cache);
        expect(await hashDir(copy)).toBe(hash);
        expect(fs.statSync(path.join(copy, 'start_ai.sh')).mode & 0o111).not.toBe(0);
        expect(fs.readlinkSync(path.join(copy, 'params.link.json'))).toBe('params.json');
        expect(fs.existsSync(path.join(copy, 'outside'))).toBe(false); // a link out of the folder does not travel
        await expect(store.fetch('../../etc', cache)).rejects.toThrow(/is not a sha256 hex digest/);
        // Another folder's pack stored under this hash: unpacked, checked, refused.
        const other = await store.put(BUILTIN('random'));
        await connection.copy(artifactKey(other), artifactKey(hash), 'REPLACE');
        await expect(store.fetch(hash, tempDir())).rejects.toThrow(
          /unpacked to content with hash .*refusing to run it/,
        );
        await expect(store.fetch('0'.repeat(64), tempDir())).rejects.toThrow(/is not in Redis/);
        // A pack over 1 MiB (random bytes do not compress) goes over a connection of its own.
        const big = slowHeuristic('big', 0);
        fs.writeFileSync(path.join(big, 'weights.bin'), crypto.randomBytes(3 << 20));
        const bigHash = await store.put(big);
        expect((await connection.strlen(artifactKey(bigHash))) > 1 << 20).toBe(true);
        expect(await hashDir(await store.fetch(bigHash, tempDir()))).toBe(bigHash);
      } finally {
        connection.disconnect();
      }
    });

    it('a worker starting on a work dir stops bot processes an earlier, killed worker left running there', async () => {
      const dir = path.join(tempDir(), 'artifacts', 'abc');
      fs.mkdirSync(dir, { recursive: true });
      // A bot carries the marker variable (its orchestrator, named in it, is gone); a shell that
      // merely sits in the folder does not, and is left alone.
      const orphan = spawn('sleep', ['300'], {
        cwd: dir,
        stdio: 'ignore',
        detached: true,
        env: { PATH: process.env.PATH, [MARKER_VAR]: 'orphan' },
      });
      const bystander = spawn('sleep', ['300'], { cwd: dir, stdio: 'ignore', detached: true });
      const gone = new Promise((r) => orphan.once('exit', r));
      try {
        for (const p of [orphan, bystander])
          await waitFor(async () => fs.readlinkSync(`/proc/${p.pid}/cwd`) === fs.realpathSync(dir), 'the orphan');
        expect(killProcessesIn(path.dirname(dir))).toEqual([orphan.pid]);
        await gone;
        expect(isProcessGone(bystander.pid!)).toBe(false);
      } finally {
        bystander.kill('SIGKILL');
      }
    });

    it('a bot failure is a result; an infrastructure failure is retried 3 times, then stops the run with its reason', async () => {
      await ensureWorker('plain');
      const good = slowHeuristic('good', 0, { depth: 1 });
      const crasher = misbehavingBot('die_after_3');
      const strategies = new Map<string, QueuedStrategy>([
        ['good', { dir: good }],
        ['crasher', { dir: crasher }],
      ]);
      const spec = (seats: string[], seed: number): MatchSpec => ({
        game: 'gomoku',
        variant: 'standard',
        seats,
        seed,
        limits: DEFAULT_LIMITS,
        policy: 'strict',
      });
      const run = `faults-${Date.now()}`;
      const results = await executeQueued([spec(['good', 'crasher'], 1), spec(['crasher', 'good'], 2)], {
        url: q.redis.url,
        run,
        strategies,
        startTimeoutMs: 20_000,
      });
      expect(results.map((r) => r.termination).sort()).toEqual(['crash', 'crash']);
      expect(results.every((r) => r.winner === r.spec.seats.indexOf('good'))).toBe(true);

      // Code corrupted in Redis (another folder's pack under its hash): every attempt refuses it;
      // after 3 attempts the run stops with the reason.
      const corrupt = slowHeuristic('corrupt', 0, { depth: 1, candidates: 7 });
      const connection = await connectQueue(q.redis.url);
      try {
        const store = new ArtifactStore(connection);
        const hash = await store.put(corrupt);
        await connection.copy(artifactKey(await store.put(BUILTIN('random'))), artifactKey(hash), 'REPLACE');
        strategies.set('corrupt', { dir: corrupt });
        // Retried after 100 ms, then 200 ms (the default is 2 s, then 4 s).
        const error = await executeQueued([spec(['good', 'corrupt'], 3)], {
          url: q.redis.url,
          run,
          strategies,
          startTimeoutMs: 20_000,
          retryDelayMs: 100,
        }).then(
          () => null,
          (err: Error) => err,
        );
        expect(error).toBeInstanceOf(MatchJobFailedError);
        expect(error!.message).toMatch(
          new RegExp(
            `failed 3 time\\(s\\) on workers \\(an infrastructure failure, not a bot's\\): artifact ${hash.slice(0, 12)} unpacked to content with hash`,
          ),
        );
      } finally {
        connection.disconnect();
      }
    }, 120_000);

    // One run, two restarts: with its append-only file first, then with it deleted (a run each before).
    it('Redis restarted mid-run (append-only file on) is survived, and restarted without persistence (its jobs and code forgotten) the coordinator queues them again: the run finishes with the same W', async () => {
      // The file's Redis, restarted with its append-only file deleted the second time: it comes back
      // empty, as one without persistence does. The worker stays connected through both, as it would.
      await ensureWorker('r1');
      const { input, localW } = slow;
      const reference = localW(); // played in-process meanwhile
      const queued = path.join(tempDir(), 'queued');
      const messages: string[] = [];
      let journaled = 0;
      const progress = { phase: (m: string) => messages.push(m), tick: () => void journaled++, done() {} };
      const run = runTourney({ config: resolveConfig(input, { queue: q.redis.url }), runDir: queued, progress });
      await waitFor(async () => journaled >= 3, 'three games', 120_000);
      await q.redis.kill();
      await new Promise((r) => setTimeout(r, 1_500));
      await q.redis.start();
      await waitFor(async () => journaled >= 6, 'six games', 120_000);
      expect(messages.some((m) => /went away/.test(m))).toBe(true);
      expect(messages.some((m) => /is back after/.test(m))).toBe(true);
      expect(messages.some((m) => /is no longer in Redis; queueing it again/.test(m))).toBe(false);
      await q.redis.kill();
      await q.redis.start({ forget: true });
      await run;
      expect(messages.some((m) => /is no longer in Redis; queueing it again/.test(m))).toBe(true);
      const journal = journalOf(queued);
      expect(journal).toHaveLength(12);
      expect(new Set(journal.map((r) => r.id)).size).toBe(12);
      expect(wOf(queued)).toEqual(await reference);
    }, 240_000);

    it('Redis gone for good: the run stops with an error naming Redis and the resume command; resumed later it completes', async () => {
      await ensureWorker('g1');
      const input = slowConfig();
      const queued = path.join(tempDir(), 'queued');
      let journaled = 0;
      const progress = { phase() {}, tick: () => void journaled++, done() {} };
      const run = runTourney({
        config: resolveConfig(input, { queue: q.redis.url }),
        runDir: queued,
        progress,
        queueGraceMs: 2_000,
      });
      await waitFor(async () => journaled >= 3, 'three games (round 2 under way)', 120_000);
      await q.redis.kill();
      const error = await run.then(
        () => null,
        (err: Error) => err,
      );
      await q.redis.start();
      expect(error?.message).toMatch(
        new RegExp(`Redis at ${q.redis.url} has been unreachable for 2 s.*resume with: catarena resume ${queued}`),
      );
      const summary = await runTourney({ config: resolveConfig(input, { queue: q.redis.url }), runDir: queued });
      expect(summary.tracks[0]!.games).toBe(12);
      expect(new Set(journalOf(queued).map((r) => r.id)).size).toBe(12);
    }, 240_000);

    it('schedule fires tourneys on a worker; runs are indexed; history shows them; --reuse copies unchanged games', async () => {
      const night = await ensureWorker('night');
      const index = path.join(runsDir!, 'index.jsonl');
      const configFile = path.join(tempDir(), 'nightly.yaml');
      fs.writeFileSync(
        configFile,
        `games: [gomoku]\nrounds: 1\nvariants: [standard]\nagents: ["dir:${slowHeuristic('deep', 0, { depth: 2 })}#deep", "dir:${slowHeuristic('wide', 0, { depth: 1, candidates: 20 })}#wide"]\nbootstrapSamples: 50\n`,
      );
      const name = `nightly-${Date.now()}`;
      // Two firings, 2 and 5 s from now (then none for a minute): the two runs the test reads, and no
      // third (every 3 s, a third fired during the commands below and was under way at the drain).
      // Every command runs in this process (main(), stdout captured): what it does and prints is
      // under test, not a process start (the CLI as a process: tests/queue-auth.test.ts's worker).
      const second = new Date().getSeconds();
      const cron = `${(second + 2) % 60},${(second + 5) % 60} * * * * *`;
      const registered = await catarena(
        'schedule',
        '--queue',
        q.redis.url,
        '--cron',
        cron,
        '--config',
        configFile,
        '--name',
        name,
        '--reuse',
      );
      expect(registered.stdout, registered.stderr).toMatch(
        new RegExp(`schedule ${name} registered: "${cron.replaceAll('*', '\\*')}", next run 20\\d\\d-`),
      );
      expect((await catarena('schedule', '--queue', q.redis.url, '--list')).stdout).toContain(name);
      try {
        await waitFor(
          async () => fs.existsSync(index) && fs.readFileSync(index, 'utf8').split('\n').filter(Boolean).length >= 2,
          'two scheduled runs',
          120_000,
        );
      } finally {
        expect((await catarena('schedule', '--queue', q.redis.url, '--remove', name)).stdout).toContain(
          `removed schedule ${name}`,
        );
      }
      const entries = fs
        .readFileSync(index, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(entries[0]).toMatchObject({ schedule: name, matches: 2, reused: 0 });
      expect(entries[1]).toMatchObject({ schedule: name, matches: 2, reused: 2 });
      expect(path.basename(entries[0].runDir)).toMatch(new RegExp(`^${name}-\\d{8}-\\d{6}$`));
      const reusedJournal = journalOf(entries[1].runDir);
      expect(reusedJournal.every((r) => r.reusedFrom === path.basename(entries[0].runDir))).toBe(true);
      expect(wOf(entries[1].runDir)).toEqual(wOf(entries[0].runDir));

      const history = await catarena('history', '-o', runsDir!);
      const redisHistory = await catarena('history', '--queue', q.redis.url, '--agent', 'deep', '--json');
      expect(history.stdout).toMatch(/deep S \/ L/);
      for (const e of entries.slice(0, 2)) expect(history.stdout).toContain(e.runId);
      const fromRedis = JSON.parse(redisHistory.stdout);
      expect(fromRedis.map((r: { runId: string }) => r.runId)).toEqual(
        expect.arrayContaining(entries.slice(0, 2).map((e) => e.runId)),
      );
      expect(Object.keys(fromRedis[0].scores)).toEqual(['deep']);

      // The worker drains and exits 0, saying what it played.
      await stopWorker(night);
      expect(night.proc.exitCode).toBe(0);
      expect(night.output()).toMatch(/stopped after \d+ games/);
    }, 240_000);
  },
);
