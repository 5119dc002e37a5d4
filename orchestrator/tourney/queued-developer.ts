// The coordinator's side of development on workers (--queue): for each (agent, track, round) it
// builds the workspace in the run directory as a local run would, packs it into the artifact
// store, and queues a job on the agent's own queue; a worker that can run the agent develops there
// and sends back the strategy record and one artifact (bot, workspace as the agent left it,
// validation log), which land where a local development would have put them. The coordinator
// starts no agent. A dir: agent's folder travels with its jobs; agent objects handed to
// runTourney (a worker could not create them) develop in this process.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { buildWorkspace } from '../../agents/core/workspace.ts';
import type { StrategyRecord } from '../../records/tourney.ts';
import { copyTree, hashDir, pathExists } from '../../util/fs.ts';
import { limitConcurrency } from '../../util/limit.ts';
import { saveStrategyRecord } from '../run/run-dir.ts';
import { workspaceInput, type Developer, type DevelopStep } from './developer.ts';
import type { ExecuteQueuedOptions } from '../executor/queued.ts';
import { ArtifactStore } from '../queue/artifacts.ts';
import { bullConnection, connectQueue, PREFIX, RedisWatch } from '../queue/connection.ts';
import {
  DEVELOP_JOB_OPTIONS,
  developJobId,
  isDirSpec,
  readCapabilities,
  registerRoute,
  RESULT_LAYOUT,
  type AgentRoute,
  type DevelopJobData,
  type DevelopJobResult,
} from '../queue/develop-jobs.ts';
import { AGENT_KINDS } from '../../agents/kinds.ts';

/** As the queued executor's: the queue, the run's id, messages, Redis's grace and the sweep of stored job state. */
export interface QueuedDeveloperOptions
  extends Pick<ExecuteQueuedOptions, 'url' | 'run' | 'report' | 'graceMs' | 'sweepMs'> {
  /** Agent id → how a worker creates it; agents not here develop in this process with `local`. */
  routes: Map<string, AgentRoute>;
  local: Developer;
  /** How many local developments run at once (config developConcurrency). */
  localConcurrency: number;
  /** How long a development may wait with no worker able to take it before that is said (default 10 s). */
  unservedMs?: number;
}

export class DevelopJobFailedError extends Error {
  constructor(
    readonly jobId: string,
    reason: string,
    attempts: number,
  ) {
    super(
      `development ${jobId} failed ${attempts} time(s) on workers (an infrastructure failure, not the agent's): ${reason}. What finished is kept; fix the workers and resume the run (catarena resume <run-dir>)`,
    );
    this.name = 'DevelopJobFailedError';
  }
}

interface Lane {
  queue: Queue<DevelopJobData, DevelopJobResult>;
  events: QueueEvents;
  ready: Promise<unknown>;
}

export class QueuedDeveloper implements Developer {
  /** Workers limit how many develop at once; the coordinator queues every development that may start. */
  readonly concurrency = 1_000;
  private readonly report: (message: string) => void;
  private readonly lanes = new Map<string, Lane>();
  private readonly finished = new Map<string, () => void>();
  private readonly unservedSaid = new Set<string>();
  private readonly localLimit: ReturnType<typeof limitConcurrency>;
  private constructor(
    private readonly options: QueuedDeveloperOptions,
    private readonly connection: Redis,
    private readonly watch: RedisWatch,
    private readonly artifacts: ArtifactStore,
  ) {
    this.report = options.report ?? (() => {});
    this.localLimit = limitConcurrency(options.localConcurrency);
  }

  static async open(options: QueuedDeveloperOptions): Promise<QueuedDeveloper> {
    const report = options.report ?? (() => {});
    const connection = await connectQueue(options.url, { warn: report });
    const watch = new RedisWatch(connection, { url: options.url, report, graceMs: options.graceMs });
    return new QueuedDeveloper(options, connection, watch, new ArtifactStore(connection));
  }

  /** Developments started here and on workers (a count for tests and the bench). */
  readonly counts = { local: 0, queued: 0 };

  develop(step: DevelopStep): Promise<StrategyRecord> {
    const route = this.options.routes.get(step.agent.id);
    if (!route) {
      this.counts.local++;
      return this.localLimit(() => this.options.local.develop(step));
    }
    this.counts.queued++;
    return this.onWorker(step, route);
  }

  private guarded<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.watch.lost]);
  }

  private async lane(route: AgentRoute): Promise<{ name: string; lane: Lane }> {
    const name = await this.guarded(registerRoute(this.connection, route));
    let lane = this.lanes.get(name);
    if (!lane) {
      const queue = new Queue<DevelopJobData, DevelopJobResult>(name, { connection: this.connection, prefix: PREFIX });
      const events = new QueueEvents(name, { connection: bullConnection(this.options.url), prefix: PREFIX });
      queue.on('error', () => {}); // the watch reports connection trouble, once
      events.on('error', () => {});
      const wake = ({ jobId }: { jobId: string }) => this.finished.get(jobId)?.();
      events.on('completed', wake);
      events.on('failed', wake);
      lane = { queue, events, ready: events.waitUntilReady() };
      this.lanes.set(name, lane);
    }
    await this.guarded(lane.ready); // before adding a job, so its completion is not missed
    return { name, lane };
  }

  private async onWorker(step: DevelopStep, registered: AgentRoute): Promise<StrategyRecord> {
    const { agent, track, round } = step;
    const { name, lane } = await this.lane(registered);
    // A dir: agent's kind is "dir:<its folder, symlinks resolved>" (agents/dir/dir-agent.ts).
    const route = isDirSpec(registered.spec)
      ? {
          ...registered,
          folder: await this.guarded(this.artifacts.put(agent.kind.slice(AGENT_KINDS.dir.prefix.length))),
        }
      : registered;
    const jobId = developJobId(this.options.run, track, round, agent.id);
    let job = await this.guarded(Job.fromId<DevelopJobData, DevelopJobResult>(lane.queue, jobId));
    if (!job) {
      // The workspace as a local run builds it (without a game server: the worker adds its own).
      const input = workspaceInput(step);
      await fs.rm(input.dir, { recursive: true, force: true });
      await buildWorkspace(input);
      const data: DevelopJobData = {
        run: this.options.run,
        agent: route,
        agentId: agent.id,
        track,
        round,
        workspace: await this.guarded(this.artifacts.put(input.dir)),
        seed: step.seed,
        moveTimeoutMs: step.moveTimeoutMs,
        developTimeoutMs: step.developTimeoutMs,
        startTimeoutMs: step.startTimeoutMs,
        ...(step.strictValidation ? { strictValidation: true } : {}),
        ...(step.taskTrack ? { taskTrack: step.taskTrack } : {}),
        ...(step.price ? { price: step.price } : {}),
        ...(step.opponentCode && step.opponentCode !== 'visible' ? { opponentCode: step.opponentCode } : {}),
      };
      job = await this.guarded(lane.queue.add('develop', data, { ...DEVELOP_JOB_OPTIONS, jobId }));
    } else if ((await job.getState()) === 'failed') {
      // Failed for good before this coordinator started (a resumed run): all its attempts again.
      this.report(`development ${jobId} had failed (${job.failedReason}); trying it again`);
      await this.guarded(job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true }));
    }
    const result = await this.waitFor(lane, name, jobId, route);
    return this.land(step, result);
  }

  private async waitFor(lane: Lane, queueName: string, jobId: string, route: AgentRoute): Promise<DevelopJobResult> {
    const since = Date.now();
    for (;;) {
      const woken = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.sweepMs ?? 2_000);
        this.finished.set(jobId, () => (clearTimeout(timer), resolve()));
      });
      const job = await this.guarded(Job.fromId<DevelopJobData, DevelopJobResult>(lane.queue, jobId));
      if (!job)
        throw new DevelopJobFailedError(
          jobId,
          'the job is no longer in Redis (flushed, or Redis lost its data); resume the run to queue it again',
          0,
        );
      const state = await this.guarded(job.getState());
      if (state === 'completed' && job.returnvalue) {
        this.finished.delete(jobId);
        return job.returnvalue;
      }
      if (state === 'failed') {
        this.finished.delete(jobId);
        throw new DevelopJobFailedError(jobId, job.failedReason, job.attemptsMade);
      }
      if (state === 'waiting' && Date.now() - since > (this.options.unservedMs ?? 10_000))
        await this.sayIfUnserved(queueName, route);
      await this.guarded(woken);
    }
  }

  /** Says once per agent when no connected worker takes its development jobs, and what the workers lack. */
  private async sayIfUnserved(queueName: string, route: AgentRoute): Promise<void> {
    if (this.unservedSaid.has(queueName)) return;
    const found = await this.guarded(readCapabilities(this.connection));
    const verdicts = [...found].map(([worker, queues]) => [worker, queues.get(queueName)] as const);
    if (verdicts.some(([, c]) => c?.ok)) return;
    this.unservedSaid.add(queueName);
    const why = verdicts.filter(([, c]) => c).map(([worker, c]) => `${worker}: ${c!.detail}`);
    this.report(
      `! ${route.spec}'s developments wait: no connected worker takes them${why.length ? ` (${why.join('; ')})` : ' (no worker has checked it yet)'}; see catarena queue status`,
    );
  }

  /** Puts a worker's result where a local development would have: bot, workspace, logs, record. */
  private async land(step: DevelopStep, result: DevelopJobResult): Promise<StrategyRecord> {
    const dir = step.run.strategyDir(step.track, step.round, step.agent.id);
    const cache = await fs.mkdtemp(path.join(os.tmpdir(), 'catarena-developed-'));
    try {
      const from = await this.guarded(this.artifacts.fetch(result.result, cache));
      const workspace = step.run.workspaceDir(step.track, step.round, step.agent.id);
      for (const target of [dir, workspace]) await fs.rm(target, { recursive: true, force: true });
      await fs.mkdir(dir, { recursive: true });
      await fs.mkdir(workspace, { recursive: true });
      const strategy = path.join(from, RESULT_LAYOUT.strategy);
      if (await pathExists(strategy)) await copyTree(strategy, dir);
      await copyTree(path.join(from, RESULT_LAYOUT.workspace), workspace);
      const validateLog = path.join(from, RESULT_LAYOUT.validateLog);
      if (await pathExists(validateLog)) await fs.copyFile(validateLog, `${dir}.validate.log`);
    } finally {
      await fs.rm(cache, { recursive: true, force: true });
    }
    const record: StrategyRecord = { ...result.record, dir, agentKind: step.agent.kind }; // a dir: agent's kind names its folder here
    if (record.status === 'ok' && (await hashDir(dir)) !== record.hash) {
      throw new Error(
        `the bot ${record.id} sent back by worker ${result.worker} does not hash to its record's ${record.hash.slice(0, 12)}; resume the run to develop it again`,
      );
    }
    await saveStrategyRecord(record);
    return record;
  }

  async close(): Promise<void> {
    this.watch.stop();
    const closables = [...this.lanes.values()].flatMap((l) => [l.events, l.queue]);
    const deadline = new Promise((resolve) => setTimeout(resolve, 3_000).unref());
    await Promise.race([Promise.allSettled(closables.map((c) => c.close())), deadline]);
    this.connection.disconnect();
  }
}
