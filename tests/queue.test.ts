// Games on BullMQ workers against a real redis-server: two `catarena worker` processes give the
// same W as the in-process executor; a worker SIGKILLed mid-game, a coordinator SIGKILLed and
// resumed, and Redis restarted mid-run all end with the same W, every game counted once.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { DEFAULT_LIMITS, type MatchResult, type MatchSpec } from '../model/match.ts';
import { executeQueued, MatchJobFailedError, type QueuedStrategy } from '../orchestrator/executor/queued.ts';
import { connectQueue, MATCH_QUEUE, PREFIX } from '../orchestrator/queue/connection.ts';
import { ArtifactStore, artifactKey } from '../orchestrator/queue/artifacts.ts';
import { hashDir } from '../util/fs.ts';
import { isProcessGone, killProcessesIn, MARKER_VAR } from '../sandbox/process.ts';
import { waitFor } from './helpers/bot-process.ts';
import { BUILTIN, dockerReady, misbehavingBot, tempDir } from './helpers/bots.ts';
import { spawnWorker, stopWorkerProcess, type WorkerProcess } from './helpers/worker-process.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';

const CLI = path.resolve(import.meta.dirname, '../bin/catarena.mjs');
const journalOf = (runDir: string): MatchResult[] =>
  fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const wOf = (runDir: string) =>
  Object.fromEntries(fs.readdirSync(path.join(runDir, 'tracks')).map((t) => [t, JSON.parse(fs.readFileSync(path.join(runDir, 'tracks', t, 'W.json'), 'utf8'))]));

/**
 * The gomoku heuristic bot, deterministic (no noise, a search depth it always finishes within its
 * time budget), answering each move after `delayMs` so games last long enough to interrupt.
 */
function slowHeuristic(name: string, delayMs: number, params: Record<string, unknown> = {}): string {
  const dir = path.join(tempDir(), name);
  fs.cpSync(BUILTIN('heuristic'), dir, { recursive: true });
  const bot = path.join(dir, 'bot.mjs');
  const source = fs.readFileSync(bot, 'utf8');
  const patched = source.replace("'POST /get_move': async (req) => getMove(await readJson(req)),", `'POST /get_move': async (req) => { const body = await readJson(req); await new Promise((r) => setTimeout(r, ${delayMs})); return getMove(body); },`);
  expect(patched).not.toBe(source);
  fs.writeFileSync(bot, patched);
  const file = path.join(dir, 'params.json');
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...params, timeBudgetMs: 5000 }));
  return dir;
}

// In CI a missing redis-server fails (startRedis says how to install it) instead of skipping.
describe.runIf(hasRedis() || Boolean(process.env.CI))('queue: games on BullMQ workers (real redis-server)', () => {
  let redis: TestRedis;
  const workers: WorkerProcess[] = [];

  /** A `catarena worker` process; it runs scheduled tourneys only when asked (no test's leftovers). */
  const startWorker = async (name: string, extra: string[] = [], url = redis.url, tourneys = false): Promise<WorkerProcess> => {
    const worker = await spawnWorker(url, name, ['--concurrency', '2', '--lock-ms', '5000', ...(tourneys ? [] : ['--no-tourneys']), ...extra]);
    workers.push(worker);
    return worker;
  };
  const stopWorker = async (w: WorkerProcess) => {
    workers.splice(workers.indexOf(w), 1);
    await stopWorkerProcess(w);
  };
  const stopWorkers = async () => {
    await Promise.all([...workers].map(stopWorker));
  };
  /** A worker on the test's Redis, started unless one is running. */
  const ensureWorker = async (name: string) => {
    if (!workers.some((w) => w.proc.exitCode === null && w.url === redis.url)) await startWorker(name);
  };
  const matchQueue = async () => {
    const connection = await connectQueue(redis.url);
    const queue = new Queue(MATCH_QUEUE, { connection, prefix: PREFIX });
    return { queue, close: async () => (await queue.close(), connection.disconnect()) };
  };

  beforeAll(async () => {
    redis = await startRedis({ persistence: true });
  });
  afterAll(async () => {
    await stopWorkers();
    await redis?.stop();
  }, 60_000);

  it('2 worker processes finish a tourney with the same W as the in-process executor; queue status names them', async () => {
    // Deterministic bots: the offline agents' bots stop searching at a wall-clock budget, so under
    // load their moves (and W) can differ from run to run; these search to a fixed depth.
    const input: TourneyConfigInput = {
      rounds: 2,
      agents: [`dir:${slowHeuristic('deep', 0, { depth: 3 })}#deep`, `dir:${slowHeuristic('wide', 0, { depth: 2, candidates: 20 })}#wide`, `dir:${slowHeuristic('centre', 0, { depth: 2, centerBias: 1 })}#centre`],
      concurrency: 2,
      bootstrapSamples: 50,
    };
    const local = path.join(tempDir(), 'local');
    await runTourney({ config: resolveConfig(input), runDir: local });

    const [a, b] = [await startWorker('wA'), await startWorker('wB')];
    const queued = path.join(tempDir(), 'queued');
    const messages: string[] = [];
    const progress = { phase: (m: string) => messages.push(m), tick() {}, done() {} };
    await runTourney({ config: resolveConfig(input, { queue: redis.url }), runDir: queued, progress });

    expect(wOf(queued)).toEqual(wOf(local));
    const journal = journalOf(queued);
    expect(journal).toHaveLength(60);
    expect(new Set(journal.map((r) => r.id)).size).toBe(60);

    // Both workers played, every game exactly once, each recorded on its job.
    const { queue, close } = await matchQueue();
    try {
      const jobs = (await queue.getJobs(['completed'])).filter((j) => j.id!.startsWith(fs.readFileSync(path.join(queued, 'run-id'), 'utf8').trim()));
      expect(jobs).toHaveLength(60);
      const by = new Map<string, number>();
      for (const job of jobs) by.set(job.processedBy!, (by.get(job.processedBy!) ?? 0) + 1);
      expect([...by.keys()].sort()).toEqual(['wA', 'wB']);
    } finally {
      await close();
    }
    const status = await runCli(['queue', 'status', '--queue', redis.url, '--json']);
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout);
    expect(parsed.workers.map((w: { name: string }) => w.name)).toEqual(expect.arrayContaining(['wA', 'wB']));
    expect(parsed.queues[0]).toMatchObject({ name: 'matches', waiting: 0, active: 0, failed: 0 });
    expect(parsed.queues[0].completed).toBeGreaterThanOrEqual(60);
    // Bots stayed warm: each worker started each of the 12 strategies' bots at most once, not
    // once per game (60 games, 120 seats).
    for (const w of [a, b]) {
      await stopWorker(w);
      const starts = Number(/stopped after (\d+) games \((\d+) bot starts\)/.exec(w.output())?.[2]);
      expect(starts).toBeGreaterThan(0);
      expect(starts).toBeLessThanOrEqual(12);
    }
  }, 240_000);

  // Two delayed heuristic bots (deterministic: no noise), 12 games of about a second each.
  const slowConfig = (): TourneyConfigInput => ({
    rounds: 2,
    variants: ['standard'],
    agents: [`dir:${slowHeuristic('deep', 40, { depth: 3 })}#deep`, `dir:${slowHeuristic('wide', 40, { depth: 2, candidates: 20 })}#wide`],
    concurrency: 2,
    bootstrapSamples: 50,
  });

  it('a worker SIGKILLed mid-game loses nothing and counts nothing twice: the game is re-run by the other worker', async () => {
    await stopWorkers();
    const input = slowConfig();
    const local = path.join(tempDir(), 'local');
    await runTourney({ config: resolveConfig(input), runDir: local });

    const victim = await startWorker('victim');
    const queued = path.join(tempDir(), 'queued');
    const run = runTourney({ config: resolveConfig(input, { queue: redis.url }), runDir: queued });
    const { queue, close } = await matchQueue();
    let killedJob: string | undefined;
    try {
      await waitFor(async () => {
        const active = (await queue.getJobs(['active'])).find((j) => j.processedBy === 'victim');
        if (active) {
          victim.proc.kill('SIGKILL');
          killedJob = active.id;
        }
        return Boolean(active);
      }, 'a game on the victim worker', 60_000);
      await victim.exited;
      await startWorker('rescuer');
      await run;
      const job = await queue.getJob(killedJob!);
      expect(await job!.getState()).toBe('completed');
      expect(job!.processedBy).toBe('rescuer');
      expect(job!.attemptsStarted).toBeGreaterThanOrEqual(2);
    } finally {
      await close();
    }
    const journal = journalOf(queued);
    expect(journal).toHaveLength(12);
    expect(new Set(journal.map((r) => r.id)).size).toBe(12);
    expect(wOf(queued)).toEqual(wOf(local));
  }, 240_000);

  it('SIGTERM drains a worker: the games it is playing finish and count, then it exits 0', async () => {
    await stopWorkers();
    const drainer = await startWorker('drainer');
    const input = { ...slowConfig(), rounds: 1 };
    const queued = path.join(tempDir(), 'queued');
    const run = runTourney({ config: resolveConfig(input, { queue: redis.url }), runDir: queued });
    const { queue, close } = await matchQueue();
    try {
      let active: string[] = [];
      await waitFor(async () => {
        active = (await queue.getJobs(['active'])).filter((j) => j.processedBy === 'drainer').map((j) => j.id!);
        return active.length > 0;
      }, 'a game on the drainer', 60_000);
      drainer.proc.kill('SIGTERM');
      expect(await drainer.exited).toBe(0);
      expect(drainer.output()).toMatch(/draining: finishing the games in flight/);
      for (const id of active) {
        const job = await queue.getJob(id);
        expect(await job!.getState()).toBe('completed');
        expect(job!.attemptsStarted).toBe(1);
      }
      await ensureWorker('after-drain'); // whatever the drainer had not started
      await run;
    } finally {
      await close();
    }
    expect(journalOf(queued)).toHaveLength(2);
  }, 120_000);

  it('the coordinator SIGKILLed mid-run and resumed with "catarena resume" finishes with the same W', async () => {
    await stopWorkers();
    const input = slowConfig();
    const local = path.join(tempDir(), 'local');
    await runTourney({ config: resolveConfig(input), runDir: local });
    await startWorker('w1');
    await startWorker('w2');

    const out = tempDir();
    const config = path.join(out, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ ...input, out: path.join(out, 'runs') }));
    const coordinator = spawn(process.execPath, [CLI, 'tourney', '--config', config, '--queue', redis.url], { stdio: 'ignore' });
    const exited = new Promise((r) => coordinator.once('exit', r));
    let runDir = '';
    await waitFor(async () => {
      const dirs = fs.existsSync(path.join(out, 'runs')) ? fs.readdirSync(path.join(out, 'runs')).filter((d) => d.startsWith('tourney-')) : [];
      runDir = dirs[0] ? path.join(out, 'runs', dirs[0]) : '';
      return Boolean(runDir) && fs.existsSync(path.join(runDir, 'journal.jsonl')) && journalOf(runDir).length >= 4;
    }, 'four journaled games', 120_000);
    coordinator.kill('SIGKILL');
    await exited;
    const before = journalOf(runDir);
    expect(before.length).toBeLessThan(12);

    const resumed = await runCli(['resume', runDir, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = journalOf(runDir);
    expect(after).toHaveLength(12);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after.map((r) => r.id)).size).toBe(12);
    expect(wOf(runDir)).toEqual(wOf(local));
  }, 240_000);

  it('Redis restarted mid-run (append-only file on) is survived: the run finishes with the same W', async () => {
    await ensureWorker('r1');
    const input = slowConfig();
    const local = path.join(tempDir(), 'local');
    await runTourney({ config: resolveConfig(input), runDir: local });
    const queued = path.join(tempDir(), 'queued');
    const messages: string[] = [];
    const progress = { phase: (m: string) => messages.push(m), tick() {}, done() {} };
    let journaled = 0;
    const run = runTourney({ config: resolveConfig(input, { queue: redis.url }), runDir: queued, progress: { ...progress, tick: () => void journaled++ } });
    await waitFor(async () => journaled >= 3, 'three games', 120_000);
    await redis.kill();
    await new Promise((r) => setTimeout(r, 1_500));
    await redis.start();
    await run;
    expect(messages.some((m) => /went away/.test(m))).toBe(true);
    expect(messages.some((m) => /is back after/.test(m))).toBe(true);
    const journal = journalOf(queued);
    expect(journal).toHaveLength(12);
    expect(new Set(journal.map((r) => r.id)).size).toBe(12);
    expect(wOf(queued)).toEqual(wOf(local));
  }, 240_000);

  it('Redis restarted without persistence (its jobs and code forgotten): the coordinator queues them again; same W', async () => {
    const volatile = await startRedis({ persistence: false });
    try {
      const mine = [await startWorker('v1', [], volatile.url), await startWorker('v2', [], volatile.url)];
      const input = slowConfig();
      const local = path.join(tempDir(), 'local');
      await runTourney({ config: resolveConfig(input), runDir: local });
      const queued = path.join(tempDir(), 'queued');
      const messages: string[] = [];
      let journaled = 0;
      const progress = { phase: (m: string) => messages.push(m), tick: () => void journaled++, done() {} };
      const run = runTourney({ config: resolveConfig(input, { queue: volatile.url }), runDir: queued, progress });
      await waitFor(async () => journaled >= 4, 'four games', 120_000);
      await volatile.kill();
      await volatile.start();
      await run;
      expect(messages.some((m) => /is no longer in Redis; queueing it again/.test(m))).toBe(true);
      const journal = journalOf(queued);
      expect(journal).toHaveLength(12);
      expect(new Set(journal.map((r) => r.id)).size).toBe(12);
      expect(wOf(queued)).toEqual(wOf(local));
      for (const w of mine) await stopWorker(w);
    } finally {
      await volatile.stop();
    }
  }, 240_000);

  it('Redis gone for good: the run stops with an error naming Redis and the resume command; resumed later it completes', async () => {
    await ensureWorker('g1');
    const input = slowConfig();
    const queued = path.join(tempDir(), 'queued');
    let journaled = 0;
    const progress = { phase() {}, tick: () => void journaled++, done() {} };
    const run = runTourney({ config: resolveConfig(input, { queue: redis.url }), runDir: queued, progress, queueGraceMs: 2_000 });
    await waitFor(async () => journaled >= 3, 'three games (round 2 under way)', 120_000);
    await redis.kill();
    const error = await run.then(() => null, (err: Error) => err);
    await redis.start();
    expect(error?.message).toMatch(new RegExp(`Redis at ${redis.url} has been unreachable for 2 s.*resume with: catarena resume ${queued}`));
    const summary = await runTourney({ config: resolveConfig(input, { queue: redis.url }), runDir: queued });
    expect(summary.tracks[0]!.games).toBe(12);
    expect(new Set(journalOf(queued).map((r) => r.id)).size).toBe(12);
  }, 240_000);

  it('an unreachable queue fails at once with an error that says what to do', async () => {
    const started = Date.now();
    const result = await runCli(['tourney', '--rounds', '1', '--queue', 'redis://127.0.0.1:1', '-o', tempDir()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED.*\)\. Start it \(redis-server\) or fix --queue/);
    expect(Date.now() - started).toBeLessThan(30_000);
    const bad = await runCli(['worker', '--queue', 'http://x']);
    expect(bad.stderr).toMatch(/expected a redis:\/\/ or rediss:\/\/ URL/);
  }, 60_000);

  it('schedule fires tourneys on a worker; runs are indexed; history shows them; --reuse copies unchanged games', async () => {
    await stopWorkers();
    const runsDir = path.join(tempDir(), 'nightly');
    const night = await startWorker('night', ['--runs-dir', runsDir], redis.url, true);
    const configFile = path.join(tempDir(), 'nightly.yaml');
    fs.writeFileSync(configFile, `rounds: 1\nvariants: [standard]\nagents: ["dir:${slowHeuristic('deep', 0, { depth: 3 })}#deep", "dir:${slowHeuristic('wide', 0, { depth: 2, candidates: 20 })}#wide"]\nbootstrapSamples: 50\n`);
    const name = `nightly-${Date.now()}`;
    const registered = await runCli(['schedule', '--queue', redis.url, '--cron', '*/3 * * * * *', '--config', configFile, '--name', name, '--reuse']);
    expect(registered.stdout, registered.stderr).toMatch(new RegExp(`schedule ${name} registered: "\\*/3 \\* \\* \\* \\* \\*", next run 20\\d\\d-`));
    expect((await runCli(['schedule', '--queue', redis.url, '--list'])).stdout).toContain(name);
    const index = path.join(runsDir, 'index.jsonl');
    try {
      await waitFor(async () => fs.existsSync(index) && fs.readFileSync(index, 'utf8').split('\n').filter(Boolean).length >= 2, 'two scheduled runs', 120_000);
    } finally {
      expect((await runCli(['schedule', '--queue', redis.url, '--remove', name])).stdout).toContain(`removed schedule ${name}`);
    }
    const entries = fs.readFileSync(index, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(entries[0]).toMatchObject({ schedule: name, matches: 2, reused: 0 });
    expect(entries[1]).toMatchObject({ schedule: name, matches: 2, reused: 2 });
    expect(path.basename(entries[0].runDir)).toMatch(new RegExp(`^${name}-\\d{8}-\\d{6}$`));
    const reusedJournal = journalOf(entries[1].runDir);
    expect(reusedJournal.every((r) => r.reusedFrom === path.basename(entries[0].runDir))).toBe(true);
    expect(wOf(entries[1].runDir)).toEqual(wOf(entries[0].runDir));

    const history = await runCli(['history', '-o', runsDir]);
    expect(history.stdout).toMatch(/deep S \/ L/);
    for (const e of entries.slice(0, 2)) expect(history.stdout).toContain(e.runId);
    const fromRedis = JSON.parse((await runCli(['history', '--queue', redis.url, '--agent', 'deep', '--json'])).stdout);
    expect(fromRedis.map((r: { runId: string }) => r.runId)).toEqual(expect.arrayContaining(entries.slice(0, 2).map((e) => e.runId)));
    expect(Object.keys(fromRedis[0].scores)).toEqual(['deep']);

    // Draining stops a tourney that is under way (a third may have fired) instead of waiting on it.
    await stopWorker(night);
    expect(night.proc.exitCode).toBe(0);
    expect(night.output()).toMatch(/stopped after \d+ games/);
  }, 240_000);

  it.runIf(dockerReady())('a worker with --sandbox docker plays queued games in containers, removed when it drains', async () => {
    await stopWorkers();
    const worker = await startWorker('docker', ['--sandbox', 'docker']);
    const input = slowConfig();
    const local = path.join(tempDir(), 'local');
    await runTourney({ config: resolveConfig({ ...input, rounds: 1 }), runDir: local });
    const queued = path.join(tempDir(), 'queued');
    await runTourney({ config: resolveConfig({ ...input, rounds: 1 }, { queue: redis.url }), runDir: queued });
    expect(wOf(queued)).toEqual(wOf(local));
    const owner = `catarena.owner=${os.hostname()}:${worker.proc.pid}`;
    const containers = () => execFileSync('docker', ['ps', '-aq', '--filter', `label=${owner}`]).toString().trim().split('\n').filter(Boolean).length;
    expect(containers()).toBeGreaterThanOrEqual(2);
    worker.proc.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toMatch(/stopped after 2 games/);
    expect(containers()).toBe(0);
  }, 120_000);

  it('a bot failure is a result; an infrastructure failure is retried 3 times, then stops the run with its reason', async () => {
    await ensureWorker('plain');
    const good = slowHeuristic('good', 0, { depth: 1 });
    const crasher = misbehavingBot('die_after_3');
    const strategies = new Map<string, QueuedStrategy>([
      ['good', { dir: good }],
      ['crasher', { dir: crasher }],
    ]);
    const spec = (seats: string[], seed: number): MatchSpec => ({ game: 'gomoku', variant: 'standard', seats, seed, limits: DEFAULT_LIMITS, policy: 'strict' });
    const run = `faults-${Date.now()}`;
    const results = await executeQueued([spec(['good', 'crasher'], 1), spec(['crasher', 'good'], 2)], { url: redis.url, run, strategies, startTimeoutMs: 20_000 });
    expect(results.map((r) => r.termination).sort()).toEqual(['crash', 'crash']);
    expect(results.every((r) => r.winner === r.spec.seats.indexOf('good'))).toBe(true);

    // Code corrupted in Redis (another folder's pack under its hash): every attempt refuses it;
    // after 3 attempts the run stops with the reason.
    const corrupt = slowHeuristic('corrupt', 0, { depth: 1, candidates: 7 });
    const connection = await connectQueue(redis.url);
    try {
      const store = new ArtifactStore(connection);
      const hash = await store.put(corrupt);
      await connection.copy(artifactKey(await store.put(BUILTIN('random'))), artifactKey(hash), 'REPLACE');
      strategies.set('corrupt', { dir: corrupt });
      const error = await executeQueued([spec(['good', 'corrupt'], 3)], { url: redis.url, run, strategies, startTimeoutMs: 20_000 }).then(() => null, (err: Error) => err);
      expect(error).toBeInstanceOf(MatchJobFailedError);
      expect(error!.message).toMatch(new RegExp(`failed 3 time\\(s\\) on workers \\(an infrastructure failure, not a bot's\\): artifact ${hash.slice(0, 12)} unpacked to content with hash`));
    } finally {
      connection.disconnect();
    }
  }, 120_000);

  it('the artifact store round-trips a bot folder by content hash, and refuses a tampered or missing one', async () => {
    const connection = await connectQueue(redis.url);
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
      await expect(store.fetch(hash, tempDir())).rejects.toThrow(/unpacked to content with hash .*refusing to run it/);
      await expect(store.fetch('0'.repeat(64), tempDir())).rejects.toThrow(/is not in Redis/);
    } finally {
      connection.disconnect();
    }
  });

  it('a worker starting on a work dir stops bot processes an earlier, killed worker left running there', async () => {
    const dir = path.join(tempDir(), 'artifacts', 'abc');
    fs.mkdirSync(dir, { recursive: true });
    // A bot carries the marker variable (its orchestrator, named in it, is gone); a shell that
    // merely sits in the folder does not, and is left alone.
    const orphan = spawn('sleep', ['300'], { cwd: dir, stdio: 'ignore', detached: true, env: { PATH: process.env.PATH, [MARKER_VAR]: 'orphan' } });
    const bystander = spawn('sleep', ['300'], { cwd: dir, stdio: 'ignore', detached: true });
    const gone = new Promise((r) => orphan.once('exit', r));
    try {
      for (const p of [orphan, bystander]) await waitFor(async () => fs.readlinkSync(`/proc/${p.pid}/cwd`) === fs.realpathSync(dir), 'the orphan');
      expect(killProcessesIn(path.dirname(dir))).toEqual([orphan.pid]);
      await gone;
      expect(isProcessGone(bystander.pid!)).toBe(false);
    } finally {
      bystander.kill('SIGKILL');
    }
  });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c) => (stdout += c));
    proc.stderr.on('data', (c) => (stderr += c));
    proc.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
