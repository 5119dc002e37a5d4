// The queue deployed as docs/deploy.md says (docker/queue-cluster.sh): Redis with a password and
// its append-only file, and two workers, each in its own container of the offline-built worker
// image, with its own network namespace and file system, reaching Redis only by name over a
// private Docker network; the coordinator runs on this host through Redis's port published on
// 127.0.0.1. Bots' code reaches the workers only through Redis. A queued tourney gives the
// in-process W, and so does every fault: a worker killed mid-game, a worker frozen past its lock
// and thawed, its network to Redis cut past its socket timeout, Redis killed and restarted from its
// append-only file, the coordinator SIGKILLed and resumed. After each: every game once, none lost.
// Over 30 s: seven container starts, four queued 12-game runs, and each fault's wait for a lock to
// expire or a link to time out (shortened by LOCK_MS and SOCKET_TIMEOUT_MS below).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { connectQueue, MATCH_QUEUE, PREFIX } from '../orchestrator/queue/connection.ts';
import { ensureWorkerImage } from '../docker/build-worker-image.ts';
import { waitFor } from './helpers/bot-process.ts';
import { dockerReady, tempDir } from './helpers/bots.ts';
import { docker, dockerLogs, startCluster, type TestCluster } from './helpers/cluster.ts';
import { CLI, journaledRun, journalOf, runCli, slowReference, wOf } from './helpers/queue.ts';

/** Short locks, so a lost game is re-run within seconds (the default is 30 s). */
const LOCK_MS = 4_000;
/**
 * The workers' socket timeout (CATARENA_REDIS_SOCKET_TIMEOUT_MS; the default is 20 s): how long a
 * command may go unanswered before a link counts as dead. The network cut lasts longer than it
 * plus a worker's 5 s ping interval, so the cut is noticed as it is with the defaults in 30 s.
 */
const SOCKET_TIMEOUT_MS = 10_000;
const CUT_MS = SOCKET_TIMEOUT_MS + 7_000;

describe.runIf(dockerReady())(
  'queue: Redis and workers in containers that share nothing but Redis (docker/queue-cluster.sh)',
  () => {
    let cluster: TestCluster;
    // 40 ms a move (0.7–2 s a game): a game seen active is still being played when `docker
    // kill`, `pause` or `network disconnect` acts on its worker.
    const slow = slowReference(40);
    const runIdOf = (runDir: string) => fs.readFileSync(path.join(runDir, 'run-id'), 'utf8').trim();

    beforeAll(async () => {
      const { tag } = await ensureWorkerImage({ log: () => {} });
      cluster = await startCluster({
        workers: 2,
        image: tag,
        workerArgs: `--concurrency 2 --lock-ms ${LOCK_MS} --no-tourneys`,
        socketTimeoutMs: SOCKET_TIMEOUT_MS,
      });
      await waitFor(async () => (await connectedWorkers()).length === 2, 'two workers connected', 60_000).catch(
        (err) => {
          const logs = [1, 2].map((i) => `${cluster.worker(i)}:\n${dockerLogs(cluster.worker(i)).slice(-1500)}`);
          throw new Error(`${(err as Error).message}\n${logs.join('\n')}`);
        },
      );
    }, 600_000);

    afterAll(async () => {
      if (!cluster) return;
      cluster.script('down');
      expect(cluster.containers()).toEqual([]);
      expect(docker('network', 'ls', '--filter', `name=${cluster.name}-net`, '-q')).toBe('');
    }, 120_000);

    const withQueue = async <T>(work: (queue: Queue) => Promise<T>): Promise<T> => {
      const connection = await connectQueue(cluster.url);
      const queue = new Queue(MATCH_QUEUE, { connection, prefix: PREFIX });
      try {
        return await work(queue);
      } finally {
        await queue.close();
        connection.disconnect();
      }
    };
    /**
     * The workers with a connection on Redis, each once: after a network cut Redis still lists the
     * worker's half-open connection from before it (until its TCP keepalive), beside the new one.
     */
    const connectedWorkers = async () =>
      withQueue(async (q) =>
        [...new Set((await q.getWorkers()).map((w) => /:w:(.+)$/.exec(w.rawname ?? '')?.[1] ?? ''))]
          .filter(Boolean)
          .sort(),
      );
    /** Completed jobs of a run, by id, with the worker that finished each. */
    const completedJobs = (runDir: string) =>
      withQueue(async (q) =>
        (await q.getJobs(['completed']))
          .filter((j) => j.id!.startsWith(`${runIdOf(runDir)}.`))
          .map((j) => ({ id: j.id!, by: j.processedBy!, attempts: j.attemptsStarted, finishedOn: j.finishedOn })),
      );
    /** Waits for a game being played by `worker` and returns its job id. */
    const activeOn = (worker: string) => {
      let id = '';
      return waitFor(
        async () => {
          id =
            (await withQueue(async (q) => (await q.getJobs(['active'])).find((j) => j.processedBy === worker)?.id)) ??
            '';
          return Boolean(id);
        },
        `a game on ${worker}`,
        60_000,
      ).then(() => id);
    };
    const startRun = () => {
      const runDir = path.join(tempDir(), 'queued');
      return { runDir, done: runTourney({ config: resolveConfig(slow.input, { queue: cluster.url }), runDir }) };
    };
    /** Every game once, and the in-process W. */
    const expectUnbroken = async (runDir: string) => {
      const journal = journalOf(runDir);
      expect(journal).toHaveLength(12);
      expect(new Set(journal.map((r) => r.id)).size).toBe(12);
      expect(wOf(runDir)).toEqual(await slow.localW());
      expect(await completedJobs(runDir)).toHaveLength(12);
    };
    /** The cluster is what it was: Redis and the two workers, nothing else left behind. */
    const expectOnlyTheCluster = async () => {
      expect(cluster.containers()).toEqual([cluster.redis, cluster.worker(1), cluster.worker(2)].sort());
      let names: string[] = [];
      await waitFor(
        async () => (names = await connectedWorkers()).length === 2,
        'both workers connected',
        60_000,
      ).catch((err) => {
        throw new Error(`${(err as Error).message}; connected: ${JSON.stringify(names)}`);
      });
    };

    // One run for the isolation, the W and Redis killed (a run each before): the run starts first,
    // the containers are inspected while it plays.
    it('each worker has its own network namespace and file system, reaches Redis by name only, and together they give the in-process W, with Redis killed mid-run and restarted from its append-only file', async () => {
      const reference = slow.localW(); // played in-process meanwhile
      const { runDir, done } = startRun();
      for (const i of [1, 2]) {
        const [inspected] = JSON.parse(docker('inspect', cluster.worker(i)));
        expect(inspected.Mounts).toEqual([]); // no shared volume: code comes through Redis
        expect(Object.keys(inspected.NetworkSettings.Networks)).toEqual([`${cluster.name}-net`]);
        expect(inspected.HostConfig.NetworkMode).toBe(`${cluster.name}-net`);
        expect(inspected.HostConfig.PidMode).toBe('');
        expect(inspected.Config.Cmd).toContain(`redis://${cluster.redis}:6379`);
        // The password reaches it by environment, never on its command line.
        expect(inspected.Config.Cmd.join(' ')).not.toContain(cluster.password);
      }
      // The file's first run starts cold (code uploaded, bots started in the containers): a loaded
      // 2-core machine (load 25) took over 2 minutes to its third game.
      await waitFor(
        async () => fs.existsSync(path.join(runDir, 'journal.jsonl')) && journalOf(runDir).length >= 3,
        'three games',
        240_000,
      );
      docker('kill', cluster.redis);
      await new Promise((r) => setTimeout(r, 1_000));
      docker('start', cluster.redis);
      await done;
      await expectUnbroken(runDir);
      expect(await reference).toEqual(wOf(runDir));
      const by = new Set((await completedJobs(runDir)).map((j) => j.by));
      expect([...by].sort()).toEqual([cluster.worker(1), cluster.worker(2)].sort());
      await expectOnlyTheCluster();
    }, 420_000);

    // One run for two faults (a run each before): a worker killed mid-game, then the coordinator.
    it('a worker killed mid-game: its game is re-run by the other, counted once, and the worker restarted joins again; the coordinator SIGKILLed mid-run and resumed (password from the environment) finishes with the same W', async () => {
      const out = tempDir();
      const config = path.join(out, 'config.json');
      fs.writeFileSync(config, JSON.stringify({ ...slow.input, out: path.join(out, 'runs') }));
      const url = `redis://127.0.0.1:${cluster.port}`;
      const env = { ...process.env, CATARENA_REDIS_PASSWORD: cluster.password };
      const coordinator = spawn(process.execPath, [CLI, 'tourney', '--config', config, '--queue', url], {
        stdio: 'ignore',
        env,
      });
      const exited = new Promise((r) => coordinator.once('exit', r));
      const killed = await activeOn(cluster.worker(1));
      docker('kill', cluster.worker(1));
      const runDir = await journaledRun(out, 4);
      coordinator.kill('SIGKILL');
      await exited;
      const before = journalOf(runDir);
      expect(before.length).toBeLessThan(12);
      const resumed = await runCli(['resume', runDir], { CATARENA_REDIS_PASSWORD: cluster.password });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(journalOf(runDir).slice(0, before.length)).toEqual(before);
      await expectUnbroken(runDir);
      const job = (await completedJobs(runDir)).find((j) => j.id === killed)!;
      expect(job.by).toBe(cluster.worker(2));
      expect(job.attempts).toBeGreaterThanOrEqual(2);
      cluster.script('worker', '1');
      await expectOnlyTheCluster();
    }, 300_000);

    it('a worker frozen (docker pause) past its lock: the game is re-run elsewhere; thawed, its late result is ignored', async () => {
      const { runDir, done } = startRun();
      const frozen = await activeOn(cluster.worker(1));
      await pauseContainer(cluster.worker(1));
      try {
        await done; // the frozen worker's games were re-run by the other one
      } finally {
        docker('unpause', cluster.worker(1));
      }
      const before = (await completedJobs(runDir)).find((j) => j.id === frozen)!;
      expect(before.by).toBe(cluster.worker(2));
      // Thawed, it finishes the game it held and tries to report it: refused (its lock is gone).
      await new Promise((r) => setTimeout(r, 2 * LOCK_MS));
      expect((await completedJobs(runDir)).find((j) => j.id === frozen)).toEqual(before);
      await expectUnbroken(runDir);
      await expectOnlyTheCluster();
    }, 300_000);

    it('the network between a worker and Redis cut past its socket timeout and restored: nothing lost or doubled; the worker reconnects', async () => {
      const { runDir, done } = startRun();
      await activeOn(cluster.worker(1));
      docker('network', 'disconnect', `${cluster.name}-net`, cluster.worker(1));
      const cut = Date.now();
      await done;
      await new Promise((r) => setTimeout(r, Math.max(0, CUT_MS - (Date.now() - cut))));
      // Marked before the command: the worker can reconnect as soon as the network is attached,
      // which may be well before a loaded machine's docker CLI returns.
      const restored = Date.now();
      docker('network', 'connect', `${cluster.name}-net`, cluster.worker(1));
      await expectUnbroken(runDir);
      // Worker 1 noticed the dead link and is back on the queue: one of its connections has sent
      // Redis a command since the restore (CLIENT LIST's idle). That is a new connection, or its
      // blocking connection kept from before the cut: idle with no command pending (the worker was
      // at full concurrency), it had nothing to time out and works again once the network is back.
      // A connection left half-open on Redis's side by the cut stays idle from the cut on.
      await waitFor(
        async () => /went away[^\n]*\n(?:.*\n)*?.*is back after/.test(dockerLogs(cluster.worker(1))),
        'worker 1 saying Redis went away, then is back',
        60_000,
      );
      let seen = '';
      await waitFor(
        async () =>
          withQueue(async (q) => {
            const since = (Date.now() - restored) / 1000;
            const mine = (await q.getWorkers()).filter((w) => w.rawname?.endsWith(`:w:${cluster.worker(1)}`));
            seen = JSON.stringify(mine.map((w) => ({ age: w.age, idle: w.idle, cmd: w.cmd })));
            return mine.some((w) => Number(w.idle) <= since);
          }),
        'worker 1 reconnected',
        60_000,
      ).catch((err) => {
        throw new Error(
          `${(err as Error).message}; its connections: ${seen}\n${dockerLogs(cluster.worker(1)).slice(-2000)}`,
        );
      });
      await expectOnlyTheCluster();
    }, 300_000);

    it('docker stop drains each worker: it stops its bots and exits 0', async () => {
      // Bots are processes inside the worker's container (it has no Docker socket to start others).
      for (const i of [1, 2])
        expect(
          cluster.processes(cluster.worker(i)).filter((p) => /bot\.mjs|start_ai\.sh/.test(p.command)).length,
        ).toBeGreaterThan(0);
      docker('stop', '-t', '60', cluster.worker(1), cluster.worker(2)); // both drain at once
      for (const i of [1, 2]) {
        expect(docker('inspect', '-f', '{{.State.ExitCode}}', cluster.worker(i))).toBe('0');
        expect(dockerLogs(cluster.worker(i))).toMatch(/stopped after \d+ games \(\d+ bot starts\)/);
      }
    }, 180_000);
  },
);

/**
 * `docker pause`, tried again where cgroup v1's freezer could not freeze every task at once
 * ("unable to freeze", seen once under a loaded full suite): runc thaws the group and reports it.
 */
async function pauseContainer(container: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      docker('pause', container);
      return;
    } catch (err) {
      if (attempt >= 3 || !/unable to freeze/.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
