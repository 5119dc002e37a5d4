// Nightly runs: `catarena schedule` registers a BullMQ job scheduler that adds a tourney job at each
// cron time; a worker runs that job as a tourney whose games go back onto the queue. A run's
// directory is named after the scheduler and the firing time, so a tourney job that is re-run
// (its worker died) resumes the same run directory instead of starting another.
import path from 'node:path';
import { DelayedError, type Job, type Queue } from 'bullmq';
import { resolveConfig, type TourneyConfigInput } from '../config/tourney-config.ts';
import { InterruptedError, runTourney } from '../tourney/tourney.ts';
import { TOURNEY_QUEUE, withQueues } from '../queue/connection.ts';
import { TOURNEY_JOB_OPTIONS, type TourneyJobData } from '../queue/jobs.ts';

export interface ScheduleOptions {
  url: string;
  /** The scheduler's id; registering the same name again replaces it. */
  name: string;
  cron: string;
  /** IANA time zone for the cron pattern (default: the worker's). */
  tz?: string;
  config: TourneyConfigInput;
}

export interface ScheduleInfo {
  name: string;
  cron?: string;
  tz?: string;
  next?: string;
}

const withTourneyQueue = <T>(url: string, work: (queue: Queue<TourneyJobData>) => Promise<T>) =>
  withQueues<T, TourneyJobData>(url, [TOURNEY_QUEUE], ([queue]) => work(queue!));

/**
 * Relative paths in a config (`out`, `dir:` agents) mean "from where schedule was run", not from
 * the worker's working directory: they are made absolute when the schedule is registered.
 */
export function withAbsolutePaths(config: TourneyConfigInput): TourneyConfigInput {
  return {
    ...config,
    ...(config.out ? { out: path.resolve(config.out) } : {}),
    ...(config.agents
      ? { agents: config.agents.map((a) => a.replace(/^dir:([^#]+)/, (_, dir: string) => `dir:${path.resolve(dir)}`)) }
      : {}),
  };
}

/** Registers (or replaces) a scheduler; returns when it next fires. */
export async function scheduleTourney(options: ScheduleOptions): Promise<ScheduleInfo> {
  if (!/^[\w.-]+$/.test(options.name))
    throw new Error(`schedule name "${options.name}": use letters, digits, ".", "_" or "-"`);
  // Validate now: a broken config should fail here, not at 2 a.m. on a worker.
  resolveConfig(options.config, { queue: options.url });
  // The config's own queue URL is not stored: the worker that runs the job plays on its own queue
  // (runScheduledTourney), and the URL may hold a password, which must never sit in Redis.
  const { queue: _, ...config } = withAbsolutePaths(options.config);
  return withTourneyQueue(options.url, async (queue) => {
    await queue
      .upsertJobScheduler(
        options.name,
        { pattern: options.cron, tz: options.tz },
        { name: 'tourney', data: { name: options.name, config }, opts: TOURNEY_JOB_OPTIONS },
      )
      .catch((err: Error) => {
        throw new Error(
          `--cron "${options.cron}"${options.tz ? ` --tz ${options.tz}` : ''}: ${err.message} (fields: minute hour day-of-month month day-of-week, optionally seconds first)`,
        );
      });
    const scheduler = await queue.getJobScheduler(options.name);
    return {
      name: options.name,
      cron: options.cron,
      tz: options.tz,
      next: scheduler?.next ? new Date(scheduler.next).toISOString() : undefined,
    };
  });
}

export async function listSchedules(url: string): Promise<ScheduleInfo[]> {
  return withTourneyQueue(url, async (queue) =>
    (await queue.getJobSchedulers()).map((s) => ({
      name: s.key,
      cron: s.pattern ?? undefined,
      tz: s.tz ?? undefined,
      next: s.next ? new Date(s.next).toISOString() : undefined,
    })),
  );
}

export async function removeSchedule(url: string, name: string): Promise<boolean> {
  return withTourneyQueue(url, (queue) => queue.removeJobScheduler(name));
}

/**
 * Runs a fired schedule's tourney; its games are queued on the same Redis. When the worker drains
 * (`signal`), the tourney stops after collecting what is finished and the job goes back to the
 * queue: a worker on this machine resumes the same run directory.
 */
export async function runScheduledTourney(
  job: Job<TourneyJobData>,
  token: string | undefined,
  options: { url: string; runsDir?: string; report: (message: string) => void; signal?: AbortSignal },
): Promise<{ runDir: string }> {
  const config = resolveConfig(job.data.config, { queue: options.url });
  const fired = new Date(job.timestamp + (job.opts.delay ?? 0))
    .toISOString()
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .slice(0, 15);
  const runDir = path.resolve(options.runsDir ?? config.out, `${job.data.name}-${fired}`);
  options.report(`scheduled tourney "${job.data.name}" started: ${runDir}`);
  try {
    const summary = await runTourney({ config, runDir, schedule: job.data.name, signal: options.signal });
    options.report(`scheduled tourney "${job.data.name}" finished: ${runDir}`);
    return { runDir: summary.runDir };
  } catch (err) {
    if (!(err instanceof InterruptedError) || !token) throw err;
    options.report(
      `scheduled tourney "${job.data.name}" paused by the drain; queued again (it resumes ${runDir} on this machine)`,
    );
    await job.moveToDelayed(Date.now() + 5_000, token);
    throw new DelayedError();
  }
}
