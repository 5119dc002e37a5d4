// Games on BullMQ workers against a real redis-server, part 1: two `catarena worker` processes
// give the same W as the in-process executor; a worker SIGKILLed mid-game, a worker drained
// with SIGTERM, and a coordinator SIGKILLed and resumed all end with the same W, every game
// counted once. (Redis going away, retries, schedules: tests/queue-redis.test.ts.)
// Over 30 s: three queued runs, each with a worker or coordinator killed or drained, and four
// `catarena` processes (three workers, one kept through the file, and a coordinator; the resume
// and `queue status` run in-process).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { queueStatus } from '../orchestrator/queue/status.ts';
import { waitFor } from './helpers/bot-process.ts';
import { dockerReady, tempDir } from './helpers/bots.ts';
import { hasRedis } from './helpers/redis.ts';
import { CLI, journaledRun, journalOf, queueFixture, slowConfig, slowReference, wOf } from './helpers/queue.ts';
import { catarena } from './helpers/cli.ts';

/**
 * A drained worker's last line ("stopped after N games (M bot starts)"): it started some bots, at
 * most `most`, and fewer than the seats it filled (a bot started per game starts one per seat).
 */
function expectWarmBots(output: string, most: number): void {
  const [, played, starts] = (/stopped after (\d+) games \((\d+) bot starts\)/.exec(output) ?? []).map(Number);
  expect(starts).toBeGreaterThan(0);
  expect(starts).toBeLessThanOrEqual(most);
  expect(starts).toBeLessThan(2 * played!);
}

// In CI a missing redis-server fails (startRedis says how to install it) instead of skipping.
describe.runIf(hasRedis() || Boolean(process.env.CI))('queue: games on BullMQ workers (real redis-server)', () => {
  const q = queueFixture();
  const { startWorker, stopWorker, stopWorkers, running, ensureWorker, matchQueue } = q;
  /** slowConfig() and its in-process W, played once for the file. */
  const slow = slowReference();

  it('2 worker processes (concurrency 2 and auto) finish a tourney with the same W as the in-process executor; queue status names them', async () => {
    // The file's deterministic bots (depth-limited: sharing the machine changes how long they
    // take, not what they play), 2 rounds: 4 strategies, 12 games. Its in-process W is the one
    // shared by the queue files (played once per test run); the variant rule set on workers is the
    // drain test's.
    const { input } = slow;
    const reference = slow.localW();
    // wB adapts its concurrency (the worker's default); wA has it fixed at 2.
    const [a, b] = await Promise.all([startWorker('wA'), startWorker('wB', ['--concurrency', 'auto'])]);
    expect(b.output()).toMatch(/ready on .* \(concurrency auto, process sandbox\)/);
    const queued = path.join(tempDir(), 'queued');
    const messages: string[] = [];
    const progress = { phase: (m: string) => messages.push(m), tick() {}, done() {} };
    await runTourney({ config: resolveConfig(input, { queue: q.redis.url }), runDir: queued, progress });

    expect(wOf(queued)).toEqual(await reference);
    const journal = journalOf(queued);
    expect(journal).toHaveLength(12);
    expect(new Set(journal.map((r) => r.id)).size).toBe(12);

    // Both workers played, every game exactly once, each recorded on its job.
    const { queue, close } = await matchQueue();
    try {
      const jobs = (await queue.getJobs(['completed'])).filter((j) =>
        j.id!.startsWith(fs.readFileSync(path.join(queued, 'run-id'), 'utf8').trim()),
      );
      expect(jobs).toHaveLength(12);
      const by = new Map<string, number>();
      for (const job of jobs) by.set(job.processedBy!, (by.get(job.processedBy!) ?? 0) + 1);
      expect([...by.keys()].sort()).toEqual(['wA', 'wB']);
    } finally {
      await close();
    }
    // In-process: what `queue status --json` prints (its CLI: tests/queue-develop.test.ts).
    const parsed = JSON.parse(JSON.stringify(await queueStatus(q.redis.url)));
    expect(parsed.workers.map((w: { name: string }) => w.name)).toEqual(expect.arrayContaining(['wA', 'wB']));
    expect(parsed.queues[0]).toMatchObject({ name: 'matches', waiting: 0, active: 0, failed: 0 });
    expect(parsed.queues[0].completed).toBeGreaterThanOrEqual(12);
    // Bots stayed warm: wA started each of the 4 strategies' bots at most once, not once per game,
    // and fewer bots than the seats it filled (a bot started per game starts one per seat). wB
    // stays, the rescuer of the next test and the drainer of the one after: its count (at most
    // once per strategy of its three runs) is checked when it drains.
    await stopWorker(a);
    expectWarmBots(a.output(), 4);
  }, 240_000);

  // One run for two faults (a run each before): a worker SIGKILLed mid-game, then the coordinator.
  it('a worker SIGKILLed mid-game loses nothing and counts nothing twice: the game is re-run by the other worker; the coordinator SIGKILLed mid-run and resumed with "catarena resume" finishes with the same W', async () => {
    // The rescuer is test 1's wB (else a new worker): the one worker left running. One worker
    // fewer to start (each is a CLI process, about 2 s of CPU to load).
    const left = running();
    const kept = left.length === 1 ? left[0] : (await stopWorkers(), undefined);
    const rescuerName = kept?.name ?? 'rescuer';
    const { input, localW } = slow;
    const reference = localW(); // played in-process meanwhile
    // The victim's short lock (renewed every second) frees the killed game for the rescuer soon;
    // the rescuer keeps the usual 5 s locks (it checks for stalled games every 2.5 s), so its own
    // games stay safe under load when it serves as the drainer in the next test.
    const victim = await startWorker('victim', ['--lock-ms', '2000']);
    const out = tempDir();
    const config = path.join(out, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ ...input, out: path.join(out, 'runs') }));
    const coordinator = spawn(process.execPath, [CLI, 'tourney', '--config', config, '--queue', q.redis.url], {
      stdio: 'ignore',
    });
    const exited = new Promise((r) => coordinator.once('exit', r));
    // Without wB, the rescuer starts while the victim plays; either way it can only take the
    // killed game once the victim is gone.
    const rescuer = kept ? Promise.resolve(kept) : startWorker(rescuerName);
    rescuer.catch(() => {}); // awaited below
    const { queue, close } = await matchQueue();
    let killedJob: string | undefined;
    let runDir = '';
    try {
      await waitFor(
        async () => {
          const active = (await queue.getJobs(['active'])).find((j) => j.processedBy === 'victim');
          if (active) {
            victim.proc.kill('SIGKILL');
            killedJob = active.id;
          }
          return Boolean(active);
        },
        'a game on the victim worker',
        60_000,
      );
      await victim.exited;
      await rescuer;
      runDir = await journaledRun(out, 4);
      coordinator.kill('SIGKILL');
      await exited;
      const before = journalOf(runDir);
      expect(before.length).toBeLessThan(12);
      // `catarena resume` in this process (main()): the command under test, without a process start.
      const resumed = await catarena('resume', runDir, '--json');
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = journalOf(runDir);
      expect(after).toHaveLength(12);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(new Set(after.map((r) => r.id)).size).toBe(12);
      const job = await queue.getJob(killedJob!);
      expect(await job!.getState()).toBe('completed');
      expect(job!.processedBy).toBe(rescuerName);
      expect(job!.attemptsStarted).toBeGreaterThanOrEqual(2);
    } finally {
      await close();
    }
    expect(wOf(runDir)).toEqual(await reference);
  }, 240_000);

  it('SIGTERM drains a worker: the games it is playing finish and count, then it exits 0; the variant rule set gives the in-process W', async () => {
    // The drainer is the one worker left by the test before (the rescuer), else a new one: any
    // worker will do, as long as it is the only one, so the games are its to finish.
    const left = running();
    const drainer = left.length === 1 ? left[0]! : (await stopWorkers(), await startWorker('drainer'));
    // The variant rule set (the other tests play the standard one), so workers play both; its
    // in-process W (2 games) is played meanwhile.
    const input: TourneyConfigInput = { ...slow.input, rounds: 1, variants: ['variant'] };
    const local = path.join(tempDir(), 'local');
    const reference = runTourney({ config: resolveConfig(input), runDir: local }).then(() => wOf(local));
    const queued = path.join(tempDir(), 'queued');
    const run = runTourney({ config: resolveConfig(input, { queue: q.redis.url }), runDir: queued });
    const { queue, close } = await matchQueue();
    try {
      let active: string[] = [];
      await waitFor(
        async () => {
          active = (await queue.getJobs(['active'])).filter((j) => j.processedBy === drainer.name).map((j) => j.id!);
          return active.length > 0;
        },
        'a game on the drainer',
        60_000,
      );
      drainer.proc.kill('SIGTERM');
      expect(await drainer.exited).toBe(0);
      expect(drainer.output()).toMatch(/draining: finishing the games in flight/);
      if (drainer.name === 'wB') {
        // Test 1's wB, warm through its three runs: each strategy's bot started at most once a
        // run (4 + 4 + the variant's 2), fewer than the seats it filled.
        expectWarmBots(drainer.output(), 10);
      }
      for (const id of active) {
        const job = await queue.getJob(id);
        expect(await job!.getState()).toBe('completed');
        expect(job!.attemptsStarted).toBe(1);
      }
      // Whatever the drainer had not started needs a worker (it takes both games when it has the two slots).
      if ((await queue.getJobCountByTypes('waiting', 'prioritized', 'delayed')) > 0) await ensureWorker('after-drain');
      await run;
    } finally {
      await close();
    }
    expect(journalOf(queued)).toHaveLength(2);
    expect(wOf(queued)).toEqual(await reference);
  }, 120_000);

  it.runIf(dockerReady())(
    'a worker with --sandbox docker plays queued games in containers, removed when it drains',
    async () => {
      await stopWorkers();
      const worker = await startWorker('docker', ['--sandbox', 'docker']);
      const input = slowConfig();
      const local = path.join(tempDir(), 'local');
      const queued = path.join(tempDir(), 'queued');
      // The in-process reference played meanwhile.
      await Promise.all([
        runTourney({ config: resolveConfig({ ...input, rounds: 1 }), runDir: local }),
        runTourney({ config: resolveConfig({ ...input, rounds: 1 }, { queue: q.redis.url }), runDir: queued }),
      ]);
      expect(wOf(queued)).toEqual(wOf(local));
      const owner = `catarena.owner=${os.hostname()}:${worker.proc.pid}`;
      const containers = () =>
        execFileSync('docker', ['ps', '-aq', '--filter', `label=${owner}`])
          .toString()
          .trim()
          .split('\n')
          .filter(Boolean).length;
      expect(containers()).toBeGreaterThanOrEqual(2);
      worker.proc.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
      expect(worker.output()).toMatch(/stopped after 2 games/);
      expect(containers()).toBe(0);
    },
    120_000,
  );
});
