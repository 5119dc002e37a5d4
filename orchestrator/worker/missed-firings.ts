// Missed firings: BullMQ adds a schedule's next job only when a worker takes the current one, at
// the first cron time after that moment (orchestrator/queue/schedule-state.ts). With no worker up
// (or every worker busy) through several cron times, the job of the first one runs late and the
// later ones never become jobs. A worker that takes a schedule's job therefore computes, from the
// cron pattern, the firings between this job's and the scheduler's new `next`: those passed while
// nobody took the job. Each is recorded in the nights list (state `missed`, with a reason), and
// the schedule's catch-up policy says which run: none, only the latest (default), or each (queued
// as nights of their own, under deterministic job ids).
import { type Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { PREFIX, TOURNEY_QUEUE, withRedis } from '../queue/connection.ts';
import { type CatchUp, DEFAULT_CATCH_UP, type TourneyJobData } from '../queue/jobs.ts';
import { readNights, recordNight } from '../queue/nights.ts';
import { firingsBetween } from '../queue/schedule-state.ts';
import { firedAt } from './nightly.ts';
import { fireNightAlert } from './night-alerts.ts';

export interface CatchUpPlan {
  /** Whether this job's own night runs (on this worker, now). */
  runHere: boolean;
  /** Firings recorded as missed (ms since the epoch). */
  missed: number[];
  /** Firings queued as nights of their own. */
  queued: number[];
}

const RUN_HERE: CatchUpPlan = { runHere: true, missed: [], queued: [] };
/** How long a job's catch-up decision is kept (a job re-taken after its worker died follows it). */
const DECISION_TTL_S = 90 * 24 * 3600;

/** What a policy makes of a job fired at `fired` and the firings that passed after it before a worker took it. */
export function catchUpPlan(fired: number, later: number[], policy: CatchUp): CatchUpPlan {
  if (!later.length) return RUN_HERE; // late at most by less than one cron interval: just a late night
  if (policy === 'all') return { runHere: true, missed: [], queued: later };
  if (policy === 'latest') return { runHere: false, missed: [fired, ...later.slice(0, -1)], queued: [later.at(-1)!] };
  return { runHere: false, missed: [fired, ...later], queued: [] };
}

/** A job the scheduler made (not a caught-up night, which is late on purpose). */
const schedulerJob = (job: Job<TourneyJobData>) => Boolean(job.repeatJobKey && !job.data.firedAt);

/** The job id of a caught-up night: one per schedule and firing, so it is never queued twice. */
export const caughtUpJobId = (name: string, fired: number) => `night.${name}.${fired}`;

/**
 * Decides (once per job: a re-take after a worker died follows the first decision) what to run of
 * a schedule's job and the firings it overtook; records the missed ones and queues the caught-up ones.
 */
export async function catchUp(
  job: Job<TourneyJobData>,
  options: { url: string; worker: string; report: (message: string) => void },
): Promise<CatchUpPlan> {
  if (!schedulerJob(job)) return RUN_HERE;
  return withRedis(options.url, async (redis) => {
    const decided = `${PREFIX}:caught-up:${job.id}`;
    const earlier = await redis.get(decided);
    if (earlier) return JSON.parse(earlier) as CatchUpPlan;
    const queue = new Queue<TourneyJobData>(TOURNEY_QUEUE, { connection: redis, prefix: PREFIX });
    try {
      const plan = await decide(job, queue, redis, options);
      await redis.set(decided, JSON.stringify(plan), 'EX', DECISION_TTL_S);
      return plan;
    } finally {
      await queue.close();
    }
  });
}

async function decide(
  job: Job<TourneyJobData>,
  queue: Queue<TourneyJobData>,
  redis: Redis,
  options: { worker: string; report: (message: string) => void },
): Promise<CatchUpPlan> {
  const name = job.data.name;
  const fired = firedAt(job).getTime();
  const takenAt = Date.now();
  // The scheduler's next job was made when this one was taken, after the firings it overtook.
  const scheduler = await queue.getJobScheduler(job.repeatJobKey!);
  if (!scheduler?.pattern) return RUN_HERE; // removed meanwhile (or an `every` schedule): just this night
  const next = scheduler.next;
  const bound = next && next > fired ? next : takenAt + 1;
  const repeat = { pattern: scheduler.pattern, tz: scheduler.tz ?? undefined };
  const { firings: later, more, capped } = firingsBetween(repeat, fired, bound);
  const policy = job.data.catchUp ?? DEFAULT_CATCH_UP;
  const plan = catchUpPlan(fired, later, policy);
  if (!later.length) return plan;
  const iso = (t: number) => new Date(t).toISOString();
  const outcome =
    policy === 'all'
      ? 'each runs, as a night of its own'
      : policy === 'latest'
        ? `only the latest (${iso(later.at(-1)!)}) runs`
        : 'none of them runs';
  const unlisted = more ? ` (and ${capped ? 'at least ' : ''}${more} later firing(s) not listed)` : '';
  const reason = `no worker took the schedule's job from ${iso(fired)} until ${iso(takenAt)}, after ${later.length} later firing(s)${unlisted}; catch-up ${policy}: ${outcome}`;
  options.report(`scheduled tourney "${name}": ${reason}`);
  const known = new Set((await readNights(redis, name)).map((n) => n.firedAt));
  const missed = plan.missed.filter((t) => !known.has(iso(t)));
  for (const t of missed)
    await recordNight(redis, { schedule: name, firedAt: iso(t), state: 'missed', reason, worker: options.worker });
  // One alert for the lot (its reason counts them), at the latest firing not run.
  if (missed.length)
    await fireNightAlert(
      {
        schedule: name,
        firedAt: iso(missed.at(-1)!),
        state: 'missed',
        at: new Date().toISOString(),
        reason,
        worker: options.worker,
      },
      job.data.alerts,
      { report: options.report },
    );
  const { attempts, backoff, removeOnComplete, removeOnFail } = job.opts;
  for (const t of plan.queued)
    await queue.add(
      'tourney',
      {
        name,
        config: job.data.config,
        catchUp: policy,
        firedAt: iso(t),
        ...(job.data.alerts ? { alerts: job.data.alerts } : {}),
      },
      { attempts, backoff, removeOnComplete, removeOnFail, jobId: caughtUpJobId(name, t) },
    );
  return plan;
}
