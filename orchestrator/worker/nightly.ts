// Nightly runs: `catarena schedule` registers a BullMQ job scheduler that adds a tourney job at each
// cron time; a worker runs that job as a tourney whose games go back onto the queue. A run's
// directory is named after the scheduler and the firing time, so a tourney job that is re-run
// (its worker died) resumes the same run directory instead of starting another.
import path from 'node:path';
import { DelayedError, type Job, Queue, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { resolveConfig, type TourneyConfigInput } from '../config/tourney-config.ts';
import { MatchJobFailedError } from '../executor/queued.ts';
import { checkRunAgents, InterruptedError, runTourney } from '../tourney/tourney.ts';
import { PREFIX, publicQueueUrl, QueueUnavailableError, TOURNEY_QUEUE, withRedis } from '../queue/connection.ts';
import { type CatchUp, DEFAULT_CATCH_UP, TOURNEY_JOB_OPTIONS, type TourneyJobData } from '../queue/jobs.ts';
import { type Overdue, overdueOf } from '../queue/schedule-state.ts';
import { holdNight } from './night-checkpoint.ts';
import { forgetLostSchedule, LOST_KEY, type LostSchedule, readLostSchedules } from '../queue/lost-schedules.ts';
import { type NightRecord, recordNight } from '../queue/nights.ts';
import { checkHooks, describeHooks, fireNightAlert, type NightHooks } from './night-alerts.ts';
import { absoluteDirSpec } from '../../agents/kinds.ts';

export interface ScheduleOptions {
  url: string;
  /** The scheduler's id; registering the same name again replaces it. */
  name: string;
  cron: string;
  /** IANA time zone for the cron pattern (default: the worker's). */
  tz?: string;
  config: TourneyConfigInput;
  /** Tries after a night fails on an infrastructure error (default 2). */
  retries?: number;
  /** Wait before the first retry, doubled for each next one (default 60 s). */
  retryDelayMs?: number;
  /** Which firings run after no worker took the schedule's job in time (default latest; missed-firings.ts). */
  catchUp?: CatchUp;
  /** Alert hooks fired on a failed, missed or regressed night (night-alerts.ts). */
  alerts?: NightHooks;
}

export interface ScheduleInfo {
  name: string;
  cron?: string;
  tz?: string;
  next?: string;
  /** The next firing is past and no worker has taken it (no worker up, or all busy). */
  overdue?: Overdue;
  catchUp?: CatchUp;
  /** What may stop the schedule from running as meant (no worker connected, no persistence). */
  warnings?: string[];
  /** Its alert hooks, as shown (a webhook by its origin only). */
  alerts?: string;
}

const withTourneyQueue = <T>(url: string, work: (queue: Queue<TourneyJobData>, redis: Redis) => Promise<T>) =>
  withRedis(url, async (redis) => {
    const queue = new Queue<TourneyJobData>(TOURNEY_QUEUE, { connection: redis, prefix: PREFIX });
    try {
      return await work(queue, redis);
    } finally {
      await queue.close();
    }
  });

/**
 * Relative paths in a config (`out`, `dir:` agents) mean "from where schedule was run", not from
 * the worker's working directory: they are made absolute when the schedule is registered.
 */
export function withAbsolutePaths(config: TourneyConfigInput): TourneyConfigInput {
  return {
    ...config,
    ...(config.out ? { out: path.resolve(config.out) } : {}),
    ...(config.agents ? { agents: config.agents.map((a) => absoluteDirSpec(a)) } : {}),
  };
}

/** Registers (or replaces) a scheduler; returns when it next fires. */
export async function scheduleTourney(options: ScheduleOptions): Promise<ScheduleInfo> {
  if (!/^[\w.-]+$/.test(options.name))
    throw new Error(`schedule name "${options.name}": use letters, digits, ".", "_" or "-"`);
  // Validate now, as `tourney` does before it starts: a broken config or agent spec should fail
  // here, not at 2 a.m. on a worker.
  checkRunAgents(resolveConfig(options.config, { queue: options.url }));
  if (options.alerts) checkHooks(options.alerts);
  // The config's own queue URL is not stored: the worker that runs the job plays on its own queue
  // (runScheduledTourney), and the URL may hold a password, which must never sit in Redis.
  const { queue: _, ...config } = withAbsolutePaths(options.config);
  const retries = options.retries ?? (TOURNEY_JOB_OPTIONS.attempts ?? 1) - 1;
  const opts = {
    ...TOURNEY_JOB_OPTIONS,
    attempts: retries + 1,
    ...(options.retryDelayMs === undefined ? {} : { backoff: { type: 'exponential', delay: options.retryDelayMs } }),
  };
  return withTourneyQueue(options.url, async (queue, redis) => {
    await queue
      .upsertJobScheduler(
        options.name,
        { pattern: options.cron, tz: options.tz },
        {
          name: 'tourney',
          data: {
            name: options.name,
            config,
            catchUp: options.catchUp ?? DEFAULT_CATCH_UP,
            ...(options.alerts ? { alerts: options.alerts } : {}),
          },
          opts,
        },
      )
      .catch((err: Error) => {
        throw new Error(
          `--cron "${options.cron}"${options.tz ? ` --tz ${options.tz}` : ''}: ${err.message} (fields: minute hour day-of-month month day-of-week, optionally seconds first)`,
        );
      });
    await forgetLostSchedule(redis, options.name); // registered again: no longer lost
    const scheduler = await queue.getJobScheduler(options.name);
    return {
      name: options.name,
      cron: options.cron,
      tz: options.tz,
      next: scheduler?.next ? new Date(scheduler.next).toISOString() : undefined,
      catchUp: options.catchUp ?? DEFAULT_CATCH_UP,
      warnings: await scheduleWarnings(queue, redis, options.url),
    };
  });
}

/** A schedule registered now may still not run: no worker takes tourneys, or a restart of Redis forgets it. */
async function scheduleWarnings(queue: Queue<TourneyJobData>, redis: Redis, url: string): Promise<string[]> {
  const warnings: string[] = [];
  if (!(await queue.getWorkers()).length)
    warnings.push(
      `no worker that runs scheduled tourneys is connected to ${publicQueueUrl(url)}: nothing runs this schedule until one is (catarena worker --queue …, without --no-tourneys)`,
    );
  const lost = await forgetsOnRestart(redis);
  if (lost) warnings.push(lost);
  return warnings;
}

/** Redis without an append-only file or snapshots loses every key on a restart: this schedule too (docs/deploy.md). */
export async function forgetsOnRestart(redis: Redis): Promise<string | undefined> {
  const setting = async (name: string) =>
    ((await redis.config('GET', name).catch(() => [])) as string[])[1] as string | undefined;
  const [aof, save] = [await setting('appendonly'), await setting('save')];
  if (aof === undefined || save === undefined) return undefined; // CONFIG refused (a managed Redis): unknown
  if (aof === 'yes' || save.trim()) return undefined;
  return 'Redis keeps nothing across a restart (appendonly no, no save points): a restart deletes this schedule, queued games and the run index; turn on appendonly yes (docs/deploy.md, "What lives only in Redis")';
}

export async function listSchedules(url: string): Promise<ScheduleInfo[]> {
  return withTourneyQueue(url, async (queue) =>
    (await queue.getJobSchedulers()).map((s) => ({
      name: s.key,
      cron: s.pattern ?? undefined,
      tz: s.tz ?? undefined,
      next: s.next ? new Date(s.next).toISOString() : undefined,
      overdue: overdueOf(s),
      catchUp: (s.template?.data as TourneyJobData | undefined)?.catchUp ?? DEFAULT_CATCH_UP,
      alerts: describeHooks((s.template?.data as TourneyJobData | undefined)?.alerts),
    })),
  );
}

/** Removes a schedule (and the note that Redis lost it, if any: removing it says it is not wanted). */
export async function removeSchedule(url: string, name: string): Promise<boolean> {
  return withTourneyQueue(url, async (queue, redis) => {
    const lost = await redis.hdel(LOST_KEY, name);
    return (await queue.removeJobScheduler(name)) || lost > 0;
  });
}

/** Schedules a worker found gone with Redis's data (orchestrator/queue/lost-schedules.ts). */
export function lostSchedules(url: string): Promise<LostSchedule[]> {
  return withRedis(url, readLostSchedules);
}

/**
 * The firing time of a scheduled job (the time the cron pattern named, not when a worker took it);
 * a caught-up night (orchestrator/worker/missed-firings.ts) carries its own.
 */
export const firedAt = (job: Pick<Job<TourneyJobData>, 'timestamp' | 'opts' | 'data'>) =>
  job.data.firedAt ? new Date(job.data.firedAt) : new Date(job.timestamp + (job.opts.delay ?? 0));

/**
 * A night's seed: the config's when it sets one, or when it reuses games (--reuse finds only
 * games played with the same seed); otherwise the firing time in seconds, so each night is an
 * independent repeat and `combine` reads nights as repeats with their own seeds.
 */
export function nightSeed(config: TourneyConfigInput, fired: Date): number | undefined {
  if (config.seed !== undefined || config.reuse) return undefined;
  return Math.floor(fired.getTime() / 1000);
}

/**
 * Infrastructure failures (Redis away past the grace, a game failing on every worker) are worth
 * another try; anything else (a config, an agent) fails the same way again and is not retried.
 */
export function isInfrastructureFailure(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause)
    if (e instanceof QueueUnavailableError || e instanceof MatchJobFailedError) return true;
  return false;
}

/**
 * Runs a fired schedule's tourney; its games are queued on the same Redis. When the worker drains
 * (`signal`), the tourney stops after collecting what is finished and the job goes back to the
 * queue: a worker on this machine resumes the same run directory. A night that fails on an
 * infrastructure error is retried by BullMQ (TOURNEY_JOB_OPTIONS), resuming the same directory.
 */
export async function runScheduledTourney(
  job: Job<TourneyJobData>,
  token: string | undefined,
  options: {
    url: string;
    runsDir?: string;
    report: (message: string) => void;
    signal?: AbortSignal;
    /** How long Redis may be unreachable before the night fails (and is retried); default 60 s. */
    queueGraceMs?: number;
    /** This worker's name, in the night's checkpoint and records. */
    worker?: string;
  },
): Promise<{ runDir: string }> {
  const fired = firedAt(job);
  const seed = nightSeed(job.data.config, fired);
  const config = resolveConfig(job.data.config, { queue: options.url, ...(seed === undefined ? {} : { seed }) });
  const stamp = fired.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const runDir = path.resolve(options.runsDir ?? config.out, `${job.data.name}-${stamp}`);
  const attempt = Math.max(job.attemptsStarted ?? 0, job.attemptsMade + 1);
  const attempts = job.opts.attempts ?? 1;
  options.report(
    `scheduled tourney "${job.data.name}" started${attempt > 1 ? ` (attempt ${attempt} of ${attempts}, resuming)` : ''}: ${runDir} (seed ${config.seed})`,
  );
  const night = { schedule: job.data.name, firedAt: fired.toISOString(), runDir, attempt, attempts };
  // A night that ran in another folder (another machine) resumes from its checkpoint (night-checkpoint.ts).
  const held = await holdNight(options.url, night, {
    worker: options.worker ?? '?',
    report: options.report,
    hooks: job.data.alerts,
    graceMs: options.queueGraceMs,
  });
  await noteNight(options.url, { ...night, state: 'started', ...held.started }, options.report);
  try {
    const summary = await runTourney({
      config,
      runDir,
      schedule: job.data.name,
      signal: options.signal,
      queueGraceMs: options.queueGraceMs,
    });
    options.report(`scheduled tourney "${job.data.name}" finished: ${runDir}`);
    await held.stop('finished');
    await noteNight(options.url, { ...night, state: 'finished' }, options.report);
    return { runDir: summary.runDir };
  } catch (err) {
    await held.stop(err instanceof InterruptedError ? 'paused' : 'failed');
    if (err instanceof InterruptedError && token) {
      options.report(
        `scheduled tourney "${job.data.name}" paused by the drain; queued again (it resumes ${runDir} here, or from its checkpoint on the worker that takes it)`,
      );
      await job.moveToDelayed(Date.now() + 5_000, token);
      throw new DelayedError();
    }
    const final = isInfrastructureFailure(err) ? (err as Error) : new UnrecoverableError((err as Error).message);
    if (final === err)
      options.report(
        attempt < attempts
          ? `scheduled tourney "${job.data.name}" failed on an infrastructure error (attempt ${attempt} of ${attempts}); it is tried again, resuming ${runDir}: ${final.message}`
          : `scheduled tourney "${job.data.name}" failed on an infrastructure error after ${attempts} attempt(s): ${final.message}`,
      );
    if (final !== err || attempt >= attempts) await endNight(job, final, attempt, options);
    throw final;
  }
}

/** Jobs whose night this process ended for good: recorded and alerted once, never run again here. */
const endedNights = new Set<string>();
const jobKey = (job: Job<TourneyJobData>) => `${job.queueName}:${job.id}`;

/** True when this process already ended the job's night for good (a `failed` event after it, or a stalled re-run). */
export const nightEndedHere = (job: Job<TourneyJobData>): boolean => endedNights.has(jobKey(job));

/**
 * A night's last attempt failed: recorded and its hooks fired here, before BullMQ moves the job to
 * failed. That move, and so BullMQ's `failed` event, is lost when the job's lock lapsed while Redis
 * was away (BullMQ emits "Missing lock" as an `error` instead).
 */
async function endNight(
  job: Job<TourneyJobData>,
  err: Error,
  attempt: number,
  options: { url: string; report: (message: string) => void; worker?: string },
): Promise<void> {
  endedNights.add(jobKey(job));
  const record: NightRecord = {
    ...failedNight(job, err, attempt),
    ...(options.worker ? { worker: options.worker } : {}),
  };
  // The night may have failed on Redis being away: recorded once it answers again (a minute of tries).
  announceFailedNight(job, err, record, options, 60);
}

/** A night that failed for good: said, its hooks fired, and recorded in the nights list (`recordTries` a second apart). */
export function announceFailedNight(
  job: Job<TourneyJobData>,
  err: Error,
  record: NightRecord,
  options: { url: string; report: (message: string) => void },
  recordTries = 1,
): void {
  options.report(`scheduled tourney ${job.id} failed: ${err.message}`);
  void noteNight(options.url, record, options.report, recordTries);
  void fireNightAlert(record, job.data.alerts, { report: options.report });
}

/** Adds `record` to the nights list; tried `tries` times a second apart, and said when it could not be. */
export async function noteNight(
  url: string,
  record: Omit<NightRecord, 'at'>,
  report: (message: string) => void,
  tries = 1,
): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await withRedis(url, (redis) => recordNight(redis, record));
      return;
    } catch (err) {
      if (i >= tries)
        return report(
          `scheduled tourney "${record.schedule}": could not record the night as ${record.state}: ${(err as Error).message}`,
        );
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

/** The end of a night that failed for good (BullMQ's last attempt, or a failure not worth retrying). */
export function nightFailedForGood(job: Job<TourneyJobData>, err: Error): NightRecord | undefined {
  const last = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
  return last ? failedNight(job, err, job.attemptsMade) : undefined;
}

/** The record of a night that failed for good on `attempt`. */
function failedNight(job: Job<TourneyJobData>, err: Error, attempt: number): NightRecord {
  return {
    schedule: job.data.name,
    firedAt: firedAt(job).toISOString(),
    state: 'failed',
    at: new Date().toISOString(),
    reason: err.message.split('\n')[0],
    attempt,
    attempts: job.opts.attempts ?? 1,
  };
}
