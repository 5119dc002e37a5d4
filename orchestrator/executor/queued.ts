// The queue executor (the coordinator's side): puts each strategy's code in the artifact store,
// enqueues one BullMQ job per match spec under a deterministic id, and streams results back as
// workers finish them. Stored job state is the truth; events only make collection prompt, and a
// periodic sweep catches missed events, jobs lost with Redis's data (re-added), and jobs that
// failed for good (infrastructure failures after retries: the run stops and can be resumed).
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { MatchResult, MatchSpec, Replay } from '../../records/match.ts';
import { ArtifactStore } from '../queue/artifacts.ts';
import { bullConnection, connectQueue, MATCH_QUEUE, PREFIX, QUEUE_GRACE_MS, RedisWatch } from '../queue/connection.ts';
import {
  MATCH_JOB_OPTIONS,
  matchJobId,
  type MatchJobData,
  type MatchJobResult,
  type StrategyCode,
} from '../queue/jobs.ts';

/** A strategy as the coordinator knows it: its folder, or why it forfeits. */
export type QueuedStrategy = { dir: string } | { forfeit: string };

export interface ExecuteQueuedOptions {
  /** redis://host:port of the queue. */
  url: string;
  /** The run's id (its directory's name): part of every job id. */
  run: string;
  strategies: Map<string, QueuedStrategy>;
  startTimeoutMs: number;
  /** Called once per finished game, one at a time, in completion order. */
  onReplay?: (replay: Replay) => Promise<void> | void;
  /** Stop waiting (queued games stay queued; a resumed run collects them). */
  signal?: AbortSignal;
  /** Messages worth a line on the console (Redis gone and back, re-queued games). */
  report?: (message: string) => void;
  /** How long Redis may be unreachable before the run stops (default 60 s). */
  graceMs?: number;
  /** How often stored job state is swept (default 2 s). */
  sweepMs?: number;
  /** First retry delay of a game that failed on a worker, doubled per retry (default 2 s). */
  retryDelayMs?: number;
}

export class MatchJobFailedError extends Error {
  constructor(
    readonly jobId: string,
    reason: string,
    attempts: number,
  ) {
    super(`game ${jobId} failed ${attempts} time(s) on workers (an infrastructure failure, not a bot's): ${reason}`);
    this.name = 'MatchJobFailedError';
  }
}

export async function executeQueued(specs: MatchSpec[], options: ExecuteQueuedOptions): Promise<MatchResult[]> {
  const report = options.report ?? (() => {});
  // Each batch (a track's round) connects anew: the run checked Redis when it opened, so a Redis
  // restarting between two batches gets the same grace as one restarting mid-batch.
  const connection = await connectQueue(options.url, {
    warn: report,
    report,
    graceMs: options.graceMs ?? QUEUE_GRACE_MS,
  });
  const watch = new RedisWatch(connection, { url: options.url, report, graceMs: options.graceMs });
  const queue = new Queue<MatchJobData, MatchJobResult>(MATCH_QUEUE, { connection, prefix: PREFIX });
  const events = new QueueEvents(MATCH_QUEUE, { connection: bullConnection(options.url), prefix: PREFIX });
  queue.on('error', () => {}); // the watch reports connection trouble, once
  events.on('error', () => {});
  const pending = new Map(specs.map((spec) => [matchJobId(options.run, spec), spec]));
  const collecting = new Set<string>();
  const results: MatchResult[] = [];
  let delivering = Promise.resolve();
  let fatal: Error | undefined;
  let wake = () => {};

  const { jobFor, forgetUploads } = matchJobMaker(options, new ArtifactStore(connection));

  const collect = async (jobId: string, firstLook = false): Promise<void> => {
    if (!pending.has(jobId) || collecting.has(jobId)) return;
    collecting.add(jobId);
    try {
      const job = await Job.fromId<MatchJobData, MatchJobResult>(queue, jobId);
      if (!job) {
        // Redis lost it (restarted without persistence, or flushed): queue it again.
        report(`game ${jobId} is no longer in Redis; queueing it again`);
        forgetUploads(); // Redis may have lost the code too
        const again = await jobFor(pending.get(jobId)!);
        await queue.add(again.name, again.data, again.opts);
        return;
      }
      const state = await job.getState();
      if (state === 'completed' && job.returnvalue) {
        pending.delete(jobId);
        const replay = job.returnvalue;
        results.push(replay.result);
        delivering = delivering.then(() => options.onReplay?.(replay));
        await delivering;
        if (!pending.size) wake();
      } else if (state === 'failed') {
        // Failed for good before this coordinator started (a resumed run): all its attempts again.
        if (firstLook) {
          report(`game ${jobId} had failed (${job.failedReason}); trying it again`);
          await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        } else fatal ??= new MatchJobFailedError(jobId, job.failedReason, job.attemptsMade);
        if (fatal) wake();
      }
    } finally {
      collecting.delete(jobId);
    }
  };

  // Every Redis call waits through reconnects, so each phase also races the watch: Redis away
  // longer than the grace period ends the run instead of hanging it.
  const guarded = <T>(work: Promise<T>) => Promise.race([work, watch.lost]);
  try {
    await guarded(events.waitUntilReady()); // before adding jobs, so no completion is missed
    events.on('completed', ({ jobId }) => void collect(jobId).catch((err) => (fatal ??= err)));
    events.on('failed', ({ jobId }) => void collect(jobId).catch((err) => (fatal ??= err)));
    for (let i = 0; i < specs.length; i += 500) {
      if (options.signal?.aborted) return results; // nothing waits for games never queued
      await guarded(Promise.all(specs.slice(i, i + 500).map(jobFor)).then((jobs) => queue.addBulk(jobs)));
    }
    // Jobs that already existed (a resumed run): collect finished ones, retry ones that failed.
    for (const jobId of [...pending.keys()]) await guarded(collect(jobId, true));

    while (pending.size && !fatal && !options.signal?.aborted) {
      await guarded(
        nextSweep(options, (done) => {
          wake = done;
        }),
      );
      for (const jobId of [...pending.keys()]) {
        if (fatal || options.signal?.aborted) break;
        await guarded(collect(jobId));
      }
    }
    await delivering;
    if (fatal) throw fatal;
    return results;
  } finally {
    watch.stop();
    await closeAll(connection, [events, queue]);
  }
}

/** The queue job of each spec: one upload per strategy folder, hashed as it is now (what workers will run). */
function matchJobMaker(options: ExecuteQueuedOptions, artifacts: ArtifactStore) {
  const uploads = new Map<string, Promise<string>>();
  const upload = (dir: string) => {
    let hash = uploads.get(dir);
    if (!hash) uploads.set(dir, (hash = artifacts.put(dir)));
    return hash;
  };
  const codeOf = async (spec: MatchSpec): Promise<Record<string, StrategyCode>> => {
    const code: Record<string, StrategyCode> = {};
    for (const id of new Set(spec.seats)) {
      const strategy = options.strategies.get(id);
      if (!strategy) throw new Error(`spec ${matchJobId(options.run, spec)} seats unknown strategy ${id}`);
      code[id] = 'forfeit' in strategy ? { forfeit: strategy.forfeit } : { hash: await upload(strategy.dir) };
    }
    return code;
  };
  const jobFor = async (spec: MatchSpec) => ({
    name: 'match',
    data: { run: options.run, spec, strategies: await codeOf(spec), startTimeoutMs: options.startTimeoutMs },
    opts: {
      ...MATCH_JOB_OPTIONS,
      ...(options.retryDelayMs === undefined ? {} : { backoff: { type: 'exponential', delay: options.retryDelayMs } }),
      jobId: matchJobId(options.run, spec),
    },
  });
  return { jobFor, forgetUploads: () => uploads.clear() };
}

/** Resolves at the next sweep (every sweepMs), on abort, or when the `wake` handed to `setWake` is called. */
function nextSweep(options: ExecuteQueuedOptions, setWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, options.sweepMs ?? 2_000);
    setWake(done);
    options.signal?.addEventListener('abort', done, { once: true });
  });
}

/** Closes BullMQ objects, then the connection; when Redis is gone this must not hang. */
async function closeAll(connection: Redis, closables: Array<{ close(): Promise<void> }>): Promise<void> {
  const deadline = new Promise((resolve) => setTimeout(resolve, 3_000).unref());
  await Promise.race([Promise.allSettled(closables.map((c) => c.close())), deadline]);
  connection.disconnect();
}
