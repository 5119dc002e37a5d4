// Schedules that Redis lost: a Redis without persistence forgets every key when it restarts, its
// job schedulers too, and nights simply stop. Workers remember the schedules they saw (outside
// Redis, orchestrator/worker/lost-schedules.ts) and an epoch key that a restart without
// persistence deletes; a worker that finds the epoch changed and a schedule it knew gone writes it
// here, so `schedule --list` and `queue status` say so until it is registered again or removed.
import type { Redis } from 'ioredis';
import { PREFIX } from './names.ts';

/** Set once (a random id) and kept while Redis keeps its data: a different one means Redis lost it. */
export const EPOCH_KEY = `${PREFIX}:epoch`;
export const LOST_KEY = `${PREFIX}:lost-schedules`;

export interface LostSchedule {
  name: string;
  cron?: string;
  tz?: string;
  /** When a worker noticed (ISO), and which. */
  noticedAt: string;
  noticedBy: string;
  /** The command that registers it again (its config saved on that worker's machine). */
  restore: string;
}

export async function readLostSchedules(redis: Redis): Promise<LostSchedule[]> {
  const out: LostSchedule[] = [];
  for (const value of Object.values(await redis.hgetall(LOST_KEY))) {
    try {
      out.push(JSON.parse(value) as LostSchedule);
    } catch {
      // damaged: not ours to fail on
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Notes a lost schedule (the first worker's note stays). */
export async function noteLostSchedule(redis: Redis, lost: LostSchedule): Promise<boolean> {
  return (await redis.hsetnx(LOST_KEY, lost.name, JSON.stringify(lost))) === 1;
}

/** A schedule registered again (or removed on purpose) is no longer lost. */
export async function forgetLostSchedule(redis: Redis, name: string): Promise<void> {
  await redis.hdel(LOST_KEY, name);
}

export const describeLost = (l: LostSchedule) =>
  `! LOST: schedule ${l.name}${l.cron ? ` "${l.cron}"` : ''} is gone: Redis lost its data (a restart without persistence?), noticed by worker ${l.noticedBy} at ${l.noticedAt}; no night runs until it is registered again: ${l.restore}`;
