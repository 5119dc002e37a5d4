// Nightly runs, part 6: a night killed on one machine resumes on another. Two workers with their
// own runs folders stand for two machines: A a `catarena worker` process, B one in this process. Worker A runs a scheduled night
// and is killed (SIGKILL) mid-way; worker B takes the night's job once A's lock expires, restores
// the checkpoint A kept in Redis (journal, replays, strategies, run id) into its own folder and
// finishes it there: every game A had finished is in B's journal as A recorded it (none played
// again), A's folder is marked moved (not left "running"), and the nights list says A's attempt
// was killed and B's resumed from it. A forged checkpoint that names a path outside the run
// folder is refused before anything is written. A's bots run in bubblewrap (they die with A, as on a
// machine that goes down); B's as plain processes (a quarter second of CPU less per bot start).
import fs from 'node:fs';
import os from 'node:os';
import type { Redis } from 'ioredis';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { PREFIX, withRedis } from '../orchestrator/queue/connection.ts';
import { readNightEvents } from '../orchestrator/queue/nights.ts';
import { MOVED_KEY, markMovedRuns, restoreNight } from '../orchestrator/worker/night-checkpoint.ts';
import { removeSchedule, scheduleTourney } from '../orchestrator/worker/nightly.ts';
import { type RunningWorker, startQueueWorker } from '../orchestrator/worker/worker.ts';
import { tempDir } from './helpers/bots.ts';
import { journalOf, slowHeuristic } from './helpers/queue.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';
import { pollFor, redisReader } from './helpers/redis-poll.ts';
import { spawnWorker, stopWorkerProcess, type WorkerProcess } from './helpers/worker-process.ts';

const withoutChain = ({ chain: _, ...rest }: Record<string, unknown>) => rest;

describe.runIf(hasRedis() || Boolean(process.env.CI))('a killed night resumes on another machine', () => {
  let redis: TestRedis;
  let reader: Redis;
  const workers: WorkerProcess[] = [];
  let inProcess: RunningWorker | undefined;
  const runsA = tempDir('catarena-runs-a-');
  const runsB = tempDir('catarena-runs-b-');

  beforeAll(async () => {
    redis = await startRedis({ persistence: false });
    reader = redisReader(redis.url);
  }, 30_000);
  afterAll(async () => {
    reader?.disconnect();
    await Promise.all(workers.map((w) => stopWorkerProcess(w, 5_000)));
    await inProcess?.kill();
    await redis?.stop();
  }, 60_000);

  it('a forged checkpoint naming a path outside the run folder is refused, and nothing is written', async () => {
    const runDir = path.join(tempDir(), 'night');
    const outside = path.join(path.dirname(runDir), 'evil.json.gz');
    await withRedis(redis.url, async (r) => {
      const base = `${PREFIX}:night:forged:${Date.parse('2026-01-01T02:00:00Z')}`;
      await r.hset(`${base}:meta`, { holder: 'elsewhere:/runs/forged', worker: 'x', ended: '' });
      await r.hset(`${base}:files`, { 'run-id': 'forged\n', 'replays/../../evil.json.gz': 'pwned' });
      await expect(
        restoreNight(r, { schedule: 'forged', firedAt: '2026-01-01T02:00:00.000Z' }, runDir),
      ).rejects.toThrow(/night checkpoint: refusing path "replays\/\.\.\/\.\.\/evil\.json\.gz"/);
      await r.hdel(`${base}:files`, 'replays/../../evil.json.gz');
      await r.hset(`${base}:bots`, { '../../tracks/x/round_1/strategies/a': 'f'.repeat(64) });
      await expect(
        restoreNight(r, { schedule: 'forged', firedAt: '2026-01-01T02:00:00.000Z' }, runDir),
      ).rejects.toThrow(/refusing path/);
    });
    expect(fs.existsSync(outside)).toBe(false);
    expect(fs.existsSync(path.join(runDir, 'run-id'))).toBe(false);

    // A forged "moved" note naming a folder that is not a scheduled night's: its status.json is left alone.
    const other = path.join(tempDir(), 'my-run');
    fs.mkdirSync(other);
    const status = JSON.stringify({ state: 'finished', kind: 'tourney', pid: 1, pidStart: null, host: os.hostname() });
    fs.writeFileSync(path.join(other, 'status.json'), status);
    await withRedis(redis.url, async (r) => {
      await r.hset(MOVED_KEY, `${os.hostname()}:${other}`, JSON.stringify({ to: 'elsewhere:/x' }));
      await markMovedRuns(r, () => {});
      expect(await r.hlen(MOVED_KEY)).toBe(0);
    });
    expect(fs.readFileSync(path.join(other, 'status.json'), 'utf8')).toBe(status);
  });

  it("worker A is killed mid-night; worker B resumes it from A's checkpoint, no game played again", async () => {
    const config: TourneyConfigInput = {
      games: ['gomoku'],
      variants: ['standard'],
      rounds: 1,
      // 12 games: once two are in the checkpoint (synced every 2 s), ten are left, about 8 s of
      // play, so A is killed mid-night even when a loaded machine delays the poll (with 8 games,
      // A once finished first).
      reps: 6,
      agents: [
        // 1-ply searches (0.05 s of CPU a game or less): the 60 ms a move, not the search, makes games last.
        `dir:${slowHeuristic('deep', 60, { depth: 1 })}#deep`,
        `dir:${slowHeuristic('wide', 60, { depth: 1, candidates: 20 })}#wide`,
      ],
      concurrency: 2,
      bootstrapSamples: 20,
    };
    const args = (runs: string) => ['--runs-dir', runs, '--lock-ms', '3000', '--concurrency', '2'];
    const a = await spawnWorker(redis.url, 'machine-a', args(runsA));
    workers.push(a);
    const name = `moved-${Date.now()}`;
    const second = (new Date().getSeconds() + 2) % 60;
    await scheduleTourney({ url: redis.url, name, cron: `${second} * * * * *`, config });
    const folderA = () => fs.readdirSync(runsA).find((d) => d.startsWith(name));
    await pollFor(async () => Boolean(folderA()), 'the night starting on A', 20_000);
    await removeSchedule(redis.url, name); // one night
    const runDirA = path.join(runsA, folderA()!);
    // B is up before A dies; A dies once its checkpoint holds a few games. B runs in this process
    // (its own runs folder and work dir, A's lock and concurrency): only A must be a process, to be
    // killed; B as a second process cost a CLI load of about 2 s of CPU.
    const bMessages: string[] = [];
    const b = await startQueueWorker({
      url: redis.url,
      name: 'machine-b',
      concurrency: 2,
      sandbox: 'unsafe',
      workDir: tempDir('catarena-worker-machine-b-'),
      runsDir: runsB,
      lockDurationMs: 3_000,
      report: (m) => bMessages.push(m),
    });
    inProcess = b;
    const bOutput = () => bMessages.join('\n');
    const checkpointed = async () => {
      const keys = await reader.keys(`${PREFIX}:night:${name}:*:journal`);
      return keys.length ? ((await reader.get(keys[0]!)) ?? '').split('\n').filter(Boolean).length : 0;
    };
    await pollFor(async () => (await checkpointed()) >= 2, 'two games in the checkpoint', 60_000, 100).catch((err) => {
      throw new Error(`${err.message}\nA: ${a.output()}\nB: ${bOutput()}`);
    });
    a.proc.kill('SIGKILL');
    await a.exited;
    const journalA = journalOf(runDirA);
    const runIdA = fs.readFileSync(path.join(runDirA, 'run-id'), 'utf8');
    expect(JSON.parse(fs.readFileSync(path.join(runDirA, 'status.json'), 'utf8')).state).toBe('running');

    const runDirB = path.join(runsB, path.basename(runDirA));
    const stateB = () => JSON.parse(fs.readFileSync(path.join(runDirB, 'status.json'), 'utf8')).state;
    await pollFor(async () => stateB() === 'finished', 'the night finishing on B', 90_000);

    // Every game A finished is in B's journal as A recorded it; none twice; the same run id (its queued games collected).
    const journalB = journalOf(runDirB);
    expect(new Set(journalB.map((r) => r.id)).size).toBe(journalB.length);
    const byId = new Map(journalB.map((r) => [r.id, withoutChain(r as never)]));
    for (const r of journalA) expect(byId.get(r.id)).toEqual(withoutChain(r as never));
    expect(fs.readFileSync(path.join(runDirB, 'run-id'), 'utf8')).toBe(runIdA);
    // The layout's version moves with it (a resumed night is not read as a run from before format.json).
    expect(fs.readFileSync(path.join(runDirB, 'format.json'), 'utf8')).toBe(
      fs.readFileSync(path.join(runDirA, 'format.json'), 'utf8'),
    );
    expect(journalB.length).toBe(12);
    // One folder holds the night: A's is marked moved, and only B's runs folder indexes it.
    const statusA = JSON.parse(fs.readFileSync(path.join(runDirA, 'status.json'), 'utf8'));
    expect(statusA).toMatchObject({ state: 'moved', movedTo: `${os.hostname()}:${runDirB}` });
    expect(statusA.message).toMatch(/continued in .*; its process here was killed/);
    expect(fs.existsSync(path.join(runsA, 'index.jsonl'))).toBe(false);
    expect(fs.readFileSync(path.join(runsB, 'index.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(bOutput()).toMatch(
      new RegExp(`"${name}" resumes here from ${os.hostname()}:${runDirA} \\(worker machine-a\\): \\d+ game`),
    );

    const read = () => readNightEvents(reader, name);
    await pollFor(async () => (await read()).at(-1)?.state === 'finished', 'the night recorded as finished');
    const events = await read();
    expect(events.map((e) => [e.state, e.worker ?? null])).toEqual([
      ['started', null],
      ['killed', 'machine-a'],
      ['started', null],
      ['finished', null],
    ]);
    expect(events[1]).toMatchObject({
      runDir: runDirA,
      reason: expect.stringMatching(/^worker machine-a stopped without ending the night/),
    });
    expect(events[2]).toMatchObject({ runDir: runDirB, resumedFrom: `${os.hostname()}:${runDirA}` });
    expect(events[2]!.resumedGames).toBeGreaterThanOrEqual(2);
  }, 150_000);
});
