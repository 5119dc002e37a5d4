// A worker's development side: it watches the agents' queues coordinators register, checks once
// per agent whether this machine can run it (the doctor's checks: the spec, its key in this
// machine's environment, its endpoint, Docker and its image), records what it found (`catarena
// queue status` shows it), and takes jobs only from the queues it can serve. A job develops exactly
// as a local run does (orchestrator/tourney/develop.ts), in a scratch folder, from the workspace
// the coordinator packed; the bot, the workspace as the agent left it and the validation log go
// back as one artifact. Keys are read here and go nowhere.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Sandbox } from '../../sandbox/types.ts';
import { copyTree, pathExists } from '../../util/fs.ts';
import { agentChecks } from '../doctor.ts';
import type { GameServerPool } from '../game-server/game-servers.ts';
import { ArtifactStore } from '../queue/artifacts.ts';
import {
  clearCapabilities,
  createRoutedAgent,
  routeAgentOptions,
  isDirSpec,
  listRoutes,
  reportCapabilities,
  RESULT_LAYOUT,
  type AgentRoute,
  type DevelopJobData,
  type DevelopJobResult,
  type RouteCapability,
} from '../queue/develop-jobs.ts';
import { RunDir } from '../run/run-dir.ts';
import { developStrategy } from '../tourney/develop.ts';
import { dirAgentSpec } from '../../agents/kinds.ts';

export interface DevelopServiceOptions {
  connection: Redis;
  /** BullMQ options shared with the worker's game side (connection, prefix, name, locks). */
  common: Omit<WorkerOptions, 'concurrency'>;
  /** The worker's name (queue status, the result's `worker`). */
  name: string;
  /** Scratch folders of developments in progress go below it. */
  workDir: string;
  /** Where workspace artifacts are unpacked (shared with the game side's cache). */
  artifactDir: string;
  sandbox: Sandbox;
  hosts: GameServerPool;
  /** Developments at once on this worker, over all agents' queues. */
  concurrency: number;
  report: (message: string) => void;
  /** How often the registered agent queues are read (default 2 s). */
  pollMs?: number;
}

export interface DevelopService {
  readonly developed: number;
  close(force: boolean): Promise<void>;
}

/** Whether this machine can run a route's agent, from the doctor's checks of it. */
export async function routeCapability(route: AgentRoute): Promise<RouteCapability> {
  if (isDirSpec(route.spec)) return { ok: true, detail: 'ready (its folder comes with each job)' };
  const checks = await agentChecks(route.spec, route.seed, routeAgentOptions(route), {
    games: [],
    sandbox: route.sandbox ?? 'process',
  });
  const missing = checks.filter((c) => !c.ok);
  return missing.length
    ? { ok: false, detail: missing.map((c) => `${c.check}: ${c.detail}`).join('; ') }
    : { ok: true, detail: 'ready' };
}

export async function startDevelopService(options: DevelopServiceOptions): Promise<DevelopService> {
  const { connection, name, report } = options;
  const scratchRoot = path.join(options.workDir, 'developments');
  await fs.mkdir(scratchRoot, { recursive: true });
  const strays = options.sandbox.reapStrays(scratchRoot);
  if (strays) report(`stopped ${strays} process(es) an earlier worker's developments left running`);
  const artifacts = new ArtifactStore(connection);
  const found = new Map<string, RouteCapability>();
  const workers: Array<Worker<DevelopJobData, DevelopJobResult>> = [];
  const pollMs = options.pollMs ?? 2_000;
  let developed = 0;
  let closed = false;
  // One limit over every agent's queue: at the limit the queues' BullMQ workers pause (a fetch
  // already under way may still bring one job more), so other workers take the waiting jobs.
  let running = 0;
  const balance = () => {
    const full = running >= options.concurrency;
    for (const w of workers) {
      if (full && !w.isPaused()) void w.pause(true).catch(() => {});
      else if (!full && w.isPaused() && !closed) w.resume();
    }
  };

  const develop = async (job: Job<DevelopJobData, DevelopJobResult>): Promise<DevelopJobResult> => {
    const d = job.data;
    running++;
    balance();
    const scratch = await fs.mkdtemp(path.join(scratchRoot, 'job-'));
    try {
      const result = await developInScratch(scratch, d, options, artifacts);
      developed++;
      return result;
    } finally {
      options.sandbox.reapStrays(scratch); // a bot or an agent's command still running in it
      await fs.rm(scratch, { recursive: true, force: true });
      running--;
      balance();
    }
  };

  const poll = async () => {
    for (const [queue, route] of await listRoutes(connection)) {
      if (closed || found.has(queue)) continue;
      const capability = await routeCapability(route);
      found.set(queue, capability);
      if (!capability.ok) {
        report(`not developing for ${route.spec} (queue ${queue}): ${capability.detail}`);
        continue;
      }
      workers.push(startRouteWorker(queue, develop, options));
      balance();
      report(`developing for ${route.spec} (queue ${queue})`);
    }
    await reportCapabilities(connection, name, found, Math.max(30, Math.ceil((3 * pollMs) / 1000)));
  };
  let polling = poll().catch((err: Error) => report(`reading the agents' queues failed: ${err.message}`));
  await polling;
  const timer = setInterval(() => {
    polling = polling
      .then(() => poll())
      .catch((err: Error) => report(`reading the agents' queues failed: ${err.message}`));
  }, pollMs);

  return {
    get developed() {
      return developed;
    },
    close: async (force) => {
      closed = true;
      clearInterval(timer);
      await polling;
      await Promise.allSettled(workers.map((w) => w.close(force)));
      await clearCapabilities(connection, name).catch(() => {});
      options.sandbox.reapStrays(scratchRoot);
    },
  };
}

/** Develops one job's strategy in `scratch` as a local run would, and stores what goes back as one artifact. */
async function developInScratch(
  scratch: string,
  d: DevelopJobData,
  options: DevelopServiceOptions,
  artifacts: ArtifactStore,
): Promise<DevelopJobResult> {
  const run = new RunDir(path.join(scratch, 'run'));
  const record = await developStrategy({
    agent: d.agent.folder
      ? createRoutedAgent({
          ...d.agent,
          spec: dirAgentSpec(await artifacts.fetch(d.agent.folder, options.artifactDir), d.agentId),
        })
      : createRoutedAgent(d.agent),
    track: d.track,
    round: d.round,
    run,
    workspaceFrom: await artifacts.fetch(d.workspace, options.artifactDir),
    seed: d.seed,
    moveTimeoutMs: d.moveTimeoutMs,
    developTimeoutMs: d.developTimeoutMs,
    startTimeoutMs: d.startTimeoutMs,
    strictValidation: d.strictValidation,
    taskTrack: d.taskTrack,
    opponentCode: d.opponentCode,
    sandbox: options.sandbox,
    hosts: options.hosts,
    price: d.price,
  });
  const result = path.join(scratch, 'result');
  await copyTree(record.dir, path.join(result, RESULT_LAYOUT.strategy));
  await copyTree(run.workspaceDir(d.track, d.round, record.agent), path.join(result, RESULT_LAYOUT.workspace));
  if (await pathExists(`${record.dir}.validate.log`))
    await fs.copyFile(`${record.dir}.validate.log`, path.join(result, RESULT_LAYOUT.validateLog));
  const hash = await artifacts.put(result);
  return { record, result: hash, worker: options.name };
}

/** A BullMQ worker on one agent's development queue. */
function startRouteWorker(
  queue: string,
  develop: (job: Job<DevelopJobData, DevelopJobResult>) => Promise<DevelopJobResult>,
  options: DevelopServiceOptions,
): Worker<DevelopJobData, DevelopJobResult> {
  const worker = new Worker<DevelopJobData, DevelopJobResult>(queue, develop, {
    ...options.common,
    concurrency: options.concurrency,
  });
  worker.on('error', () => {}); // connection trouble is reported once by the worker's watch
  worker.on(
    'failed',
    (job, err) => job && options.report(`development ${job.id} failed (attempt ${job.attemptsMade}): ${err.message}`),
  );
  return worker;
}
