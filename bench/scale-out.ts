// What adding a worker buys: games/s with 1, 2 and 4 workers for I/O-bound bots (each move waits
// 50-200 ms, as a bot calling an LLM does) and CPU-bound bots (a time-capped search), and
// developments/s of the built-in agent against a scripted LLM server (each answer delayed, as a
// model's is; then the bot's validation), each beside the in-process executor.
// Workers are containers of the worker image started by docker/queue-cluster.sh (Redis and N
// workers on a private Docker network, sharing nothing but Redis) when Docker and the image are
// there (`--containers` builds the image if missing), else `catarena worker` processes with a
// local redis-server (`--processes` forces them). Either way they share this machine's cores, so
// CPU-bound figures stop growing at the core count.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { executeQueued, type QueuedStrategy } from '../orchestrator/executor/queued.ts';
import { roundRobin } from '../orchestrator/formats/round-robin.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { agentRoute, standInAgent } from '../orchestrator/queue/develop-jobs.ts';
import { QueuedDeveloper } from '../orchestrator/tourney/queued-developer.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { localDeveloper, type Developer, type DevelopStep } from '../orchestrator/tourney/develop.ts';
import { DEFAULT_LIMITS, type MatchSpec } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { limitConcurrency } from '../util/limit.ts';
import { botWithParams, BUILTIN } from '../tests/helpers/bots.ts';
import { startRedis } from '../tests/helpers/redis.ts';
import { clusterGateway, startCluster, startClusterWorker, waitForClusterWorkers } from '../tests/helpers/cluster.ts';
import { ensureWorkerImage, workerImageTag } from '../docker/build-worker-image.ts';
import { MATCH_QUEUE } from '../orchestrator/queue/connection.ts';
import { dockerEngineAnswers } from '../tests/helpers/bots.ts';
import { perConversation, SCRIPTED_KEY, startScriptedLlm } from '../tests/helpers/scripted-llm.ts';
import { spawnWorker, stopWorkerProcess, type WorkerProcess } from '../tests/helpers/worker-process.ts';
import { playWarm } from './warm-fleet.ts';

const WORKER_COUNTS = [1, 2, 4];
const ENTRANTS = ['s1', 's2', 's3', 's4'];

const specs = (seed: number, reps: number): MatchSpec[] =>
  roundRobin({
    game: 'gomoku',
    variant: 'standard',
    seed,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    entrants: ENTRANTS,
    opponents: [],
    reps,
  });

/** The 1-ply heuristic (a few ms of CPU a move) waiting 50-200 ms before each answer. */
function ioBoundBot(): string {
  const dir = botWithParams(BUILTIN('heuristic'), { depth: 1, timeBudgetMs: 60_000, randomness: 0 }, 'io-bound');
  const bot = path.join(dir, 'bot.mjs');
  const source = fs.readFileSync(bot, 'utf8');
  const patched = source.replace(
    "'POST /get_move': async (req) => getMove(await readJson(req)),",
    "'POST /get_move': async (req) => { const body = await readJson(req); await new Promise((r) => setTimeout(r, 50 + Math.random() * 150)); return getMove(body); },",
  );
  if (patched === source) throw new Error('the heuristic bot changed: update ioBoundBot');
  fs.writeFileSync(bot, patched);
  return dir;
}

/** The heuristic searching until its 60 ms budget runs out: CPU-bound. */
const cpuBoundBot = () =>
  botWithParams(BUILTIN('heuristic'), { depth: 6, timeBudgetMs: 60, randomness: 0 }, 'cpu-bound');

/** Running workers and the Redis they take jobs from. */
interface WorkerSet {
  url: string;
  stop: () => Promise<void>;
}

interface Workers {
  kind: 'processes' | 'containers';
  /** `count` workers with `catarena worker` flags `args` (and environment `env`). */
  start: (count: number, args: string[], env?: (host: string) => Record<string, string>) => Promise<WorkerSet>;
  close: () => Promise<void>;
}

/** `catarena worker` processes on this machine, one redis-server on loopback. */
async function processWorkers(): Promise<Workers> {
  const redis = await startRedis();
  return {
    kind: 'processes',
    start: async (count, args, env) => {
      const workers: WorkerProcess[] = await Promise.all(
        Array.from({ length: count }, (_, i) =>
          spawnWorker(
            redis.url,
            `scale-${i + 1}`,
            ['--no-tourneys', ...args],
            120_000,
            env && { ...process.env, ...env('127.0.0.1') },
          ),
        ),
      );
      return {
        url: redis.url,
        stop: async () => {
          await Promise.all(
            workers.map(
              async (w) => (await stopWorkerProcess(w), fs.rmSync(w.workDir, { recursive: true, force: true })),
            ),
          );
        },
      };
    },
    close: () => redis.stop(),
  };
}

/**
 * A fresh docker/queue-cluster.sh cluster per measurement: Redis and `count` worker containers of
 * the worker image; the coordinator (this process) reaches Redis on its published loopback port.
 */
function containerWorkers(image: string): Workers {
  return {
    kind: 'containers',
    start: async (count, args, env) => {
      const workerArgs = ['--no-tourneys', ...args];
      // Workers with extra environment (an agent's key) are started here, the others by the script.
      const cluster = await startCluster({ workers: env ? 0 : count, image, workerArgs: workerArgs.join(' ') });
      const stop = async () => void cluster.script('down');
      try {
        const hostAddress = clusterGateway(cluster);
        if (env)
          for (let i = 1; i <= count; i++) startClusterWorker(cluster, i, { image, workerArgs, env: env(hostAddress) });
        await waitForClusterWorkers(cluster, count, MATCH_QUEUE);
        return { url: cluster.url, stop };
      } catch (error) {
        await stop();
        throw error;
      }
    },
    close: async () => {},
  };
}

const workerLabel = (kind: Workers['kind'], count: number) =>
  `${count} worker ${kind === 'containers' ? 'container' : 'process'}${count > 1 ? (kind === 'containers' ? 's' : 'es') : ''}`;

interface Row {
  load: string;
  executor: string;
  items: number;
  seconds: number;
  perSecond: number;
}

async function gamesRows(
  workers: Workers,
  load: string,
  botDir: string,
  reps: number,
  inProcess: number[],
  workerArgs: string[],
): Promise<Row[]> {
  const timed = specs(7, reps);
  const rows: Row[] = [];
  for (const concurrency of inProcess) {
    const { seconds } = await playWarm(timed, botDir, concurrency);
    rows.push({
      load,
      executor: `in-process, concurrency ${concurrency}`,
      items: timed.length,
      seconds,
      perSecond: timed.length / seconds,
    });
  }
  const strategies = new Map<string, QueuedStrategy>(ENTRANTS.map((id) => [id, { dir: botDir }]));
  for (const count of WORKER_COUNTS) {
    const { url, stop } = await workers.start(count, [...workerArgs, '--develop', '0']);
    const run = `scale-${load.split(' ')[0]}-${count}`;
    try {
      // Untimed, in the same run (workers keep bots warm per run): games enough that each worker
      // starts its bots, as a tourney's workers have after their first games.
      await executeQueued(specs(1, Math.ceil(count / 2)), {
        url,
        run,
        strategies,
        startTimeoutMs: 30_000,
        sweepMs: 200,
      });
      const t0 = performance.now();
      await executeQueued(timed, { url, run, strategies, startTimeoutMs: 30_000, sweepMs: 200 });
      const seconds = (performance.now() - t0) / 1000;
      rows.push({
        load,
        executor: `${workerLabel(workers.kind, count)} × ${workerArgs.join(' ')}`,
        items: timed.length,
        seconds,
        perSecond: timed.length / seconds,
      });
    } finally {
      await stop();
    }
  }
  return rows;
}

/** n developments of the built-in agent (one per agent, round 1), through `developer`. */
async function developAll(
  developer: Developer,
  n: number,
  make: (spec: string) => DevelopStep['agent'],
  extra: Pick<DevelopStep, 'sandbox' | 'hosts'>,
): Promise<number> {
  const run = new RunDir(fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-scale-dev-')));
  const limit = limitConcurrency(developer.concurrency ?? 1);
  const t0 = performance.now();
  const records = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      limit(() =>
        developer.develop({
          agent: make(`builtin:openai-compatible/scripted#a${i + 1}`),
          track: { game: 'gomoku', variant: 'standard' },
          round: 1,
          run,
          seed: i,
          moveTimeoutMs: 2_000,
          developTimeoutMs: 120_000,
          startTimeoutMs: 30_000,
          ...extra,
        }),
      ),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  const failed = records.filter((r) => r.status !== 'ok');
  if (failed.length) throw new Error(`${failed.length} developments failed: ${failed[0]!.failure}`);
  fs.rmSync(run.root, { recursive: true, force: true });
  return seconds;
}

async function developmentRows(workers: Workers, n: number): Promise<Row[]> {
  const sample = BUILTIN('random');
  const write = (p: string, file: string) => ({
    name: 'write_file',
    args: { path: p, content: fs.readFileSync(path.join(sample, file), 'utf8') },
  });
  // Two model turns of 1 s each: write the bot, then finish.
  const server = await startScriptedLlm(
    perConversation([
      {
        delayMs: 1_000,
        toolCalls: [
          write('develop_ai/start_ai.sh', 'start_ai.sh'),
          write('develop_ai/bot.mjs', 'bot.mjs'),
          write('develop_ai/bot-http.mjs', 'bot-http.mjs'),
        ],
      },
      { delayMs: 1_000, toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
    ]),
    { noStreaming: true },
  );
  // Containers reach the server through the Docker network's gateway: a forwarder on every
  // interface of this host (the server itself listens on loopback only).
  const forwarder = await forwardTo(new URL(server.baseURL).port);
  const env = (host: string) => ({
    OPENAI_API_KEY: SCRIPTED_KEY,
    CATARENA_OPENAI_BASE_URL: `http://${host}:${forwarder.port}/v1`,
  });
  Object.assign(process.env, env('127.0.0.1'));
  const rows: Row[] = [];
  const load = 'developments';
  const sandbox = createSandbox('process');
  const hosts = new GameServerPool();
  try {
    for (const concurrency of [2, 8]) {
      const seconds = await developAll({ ...localDeveloper, concurrency }, n, (spec) => createAgent(spec, 1), {
        sandbox,
        hosts,
      });
      rows.push({ load, executor: `in-process, ${concurrency} at once`, items: n, seconds, perSecond: n / seconds });
    }
    const config = resolveConfig({ games: ['gomoku'] });
    const routes = new Map(
      Array.from({ length: n }, (_, i) => [
        `a${i + 1}`,
        agentRoute(config, `builtin:openai-compatible/scripted#a${i + 1}`),
      ]),
    );
    for (const count of WORKER_COUNTS) {
      const { url, stop } = await workers.start(count, ['--concurrency', '1', '--develop', '2'], env);
      const developer = await QueuedDeveloper.open({
        url,
        run: `scale-dev-${count}`,
        routes,
        local: localDeveloper,
        localConcurrency: 1,
        sweepMs: 500,
      });
      try {
        const seconds = await developAll(developer, n, (spec) => standInAgent(agentRoute(config, spec)), {
          sandbox,
          hosts,
        });
        rows.push({
          load,
          executor: `${workerLabel(workers.kind, count)} × --develop 2`,
          items: n,
          seconds,
          perSecond: n / seconds,
        });
      } finally {
        await developer.close();
        await stop();
      }
    }
  } finally {
    await hosts.closeAll();
    await sandbox.close();
    forwarder.server.close();
    await server.close();
  }
  return rows;
}

/** A TCP forwarder on every interface of this host to 127.0.0.1:`port`. */
async function forwardTo(port: string): Promise<{ server: net.Server; port: number }> {
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(port), '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => (socket.destroy(), upstream.destroy());
    socket.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return { server, port: (server.address() as net.AddressInfo).port };
}

/** `--containers` (building the worker image if missing), `--processes`, or containers when Docker and the image are there. */
async function chooseWorkers(args: string[]): Promise<Workers> {
  if (args.includes('--processes')) return processWorkers();
  if (args.includes('--containers')) return containerWorkers((await ensureWorkerImage()).tag);
  const tag = workerImageTag();
  const haveImage = () => {
    try {
      execFileSync('docker', ['image', 'inspect', tag], { stdio: 'ignore', timeout: 30_000 });
      return true;
    } catch {
      return false;
    }
  };
  if (dockerEngineAnswers() && haveImage()) return containerWorkers(tag);
  console.log(`scale-out: worker processes (no Docker or no ${tag}: npm run images:worker, or --containers)`);
  return processWorkers();
}

export async function benchScaleOut(args: string[] = []): Promise<Record<string, unknown>> {
  const workers = await chooseWorkers(args);
  const loadAtStart = os.loadavg()[0]!;
  const rows: Row[] = [];
  try {
    rows.push(...(await gamesRows(workers, 'I/O-bound games', ioBoundBot(), 2, [4, 16], ['--concurrency', '4'])));
    rows.push(...(await gamesRows(workers, 'CPU-bound games', cpuBoundBot(), 1, [1, 2], ['--concurrency', '1'])));
    if (!args.includes('--no-develop')) rows.push(...(await developmentRows(workers, 8)));
  } finally {
    await workers.close();
  }
  const where =
    workers.kind === 'containers'
      ? 'worker containers (docker/queue-cluster.sh: Redis and the workers on a Docker network)'
      : 'worker processes, redis-server on loopback';
  const loadAtEnd = os.loadavg()[0]!;
  console.log(
    `\nscale-out: ${where}; ${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end`,
  );
  console.log('load              executor                                   n  seconds    per s');
  for (const r of rows)
    console.log(
      `${r.load.padEnd(17)} ${r.executor.padEnd(40)} ${String(r.items).padStart(3)} ${r.seconds.toFixed(1).padStart(8)} ${r.perSecond.toFixed(2).padStart(8)}`,
    );
  return { workers: workers.kind, cores: os.cpus().length, loadAverage: { start: loadAtStart, end: loadAtEnd }, rows };
}
