// What a schedule's cron pattern says about time: the firings between two instants, computed with
// BullMQ's own cron step (getNextMillis, cron-parser underneath), and whether a schedule is overdue.
// BullMQ adds a scheduler's next job only when a worker takes the current one, at the first cron
// time after that moment (node_modules/bullmq/dist/esm/classes/worker.js nextJobFromJobData ->
// upsertJobScheduler): with no worker up, `next` stays in the past and the firings after it never
// become jobs.
import { getNextMillis } from 'bullmq';

/** At most this many firings are listed (a per-second pattern over a long outage); `more` counts the rest. */
export const MAX_LISTED_FIRINGS = 1_000;
/** Counting stops here (each cron step parses the pattern again: about 0.1 ms); `capped` says so. */
const MAX_COUNTED_FIRINGS = 2 * MAX_LISTED_FIRINGS;

export interface CronRepeat {
  pattern: string;
  tz?: string;
}

/** The cron times strictly after `after` and strictly before `before`, oldest first (at most `max`). */
export function firingsBetween(
  repeat: CronRepeat,
  after: number,
  before: number,
  max = MAX_LISTED_FIRINGS,
): { firings: number[]; more: number; capped: boolean } {
  const firings: number[] = [];
  let more = 0;
  for (let t = step(repeat, after); t !== undefined && t < before; t = step(repeat, t)) {
    if (firings.length < max) firings.push(t);
    else if (firings.length + ++more >= MAX_COUNTED_FIRINGS) return { firings, more, capped: true };
  }
  return { firings, more, capped: false };
}

const step = (repeat: CronRepeat, from: number) => getNextMillis(from, { pattern: repeat.pattern, tz: repeat.tz });

export interface Overdue {
  /** The firing no worker has taken yet (ISO). */
  since: string;
  /** Later firings that have passed since (none of them is a job yet). */
  passed: number;
  /** The count stopped at its limit: at least `passed`. */
  capped?: boolean;
}

/** A schedule whose next firing is already past: no worker has taken its job (none is up, or all are busy). */
export function overdueOf(
  schedule: { pattern?: string | null; tz?: string | null; next?: number | null },
  now = Date.now(),
  slackMs = 2_000,
): Overdue | undefined {
  if (!schedule.next || schedule.next > now - slackMs) return undefined;
  const passed = schedule.pattern
    ? firingsBetween({ pattern: schedule.pattern, tz: schedule.tz ?? undefined }, schedule.next, now + 1)
    : { firings: [], more: 0, capped: false };
  return {
    since: new Date(schedule.next).toISOString(),
    passed: passed.firings.length + passed.more,
    ...(passed.capped ? { capped: true } : {}),
  };
}

/** "next …" as `schedule --list` and `queue status` print it: a past time is never shown as upcoming. */
export function describeNext(next: string | undefined, overdue: Overdue | undefined, catchUp?: string): string {
  if (!overdue) return `next ${next ?? '?'}`;
  const later = overdue.passed
    ? `; ${overdue.capped ? 'at least ' : ''}${overdue.passed} later firing(s) passed since, missed${catchUp ? ` (catch-up ${catchUp} when a worker takes it)` : ''}`
    : '';
  return `OVERDUE: due ${overdue.since}, no worker has taken it yet${later}`;
}
