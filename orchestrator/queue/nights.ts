// The nights of each schedule, as they ended: one JSON line per event in a Redis list every machine
// reads. The run index (run/run-index.ts) holds only finished runs; this list also holds what never
// produced one (a missed firing, a night that failed or was killed), so `history` and the alert
// hooks can say when a night went wrong.
import type { Redis } from 'ioredis';
import { PREFIX } from './names.ts';

export const NIGHTS_KEY = `${PREFIX}:nights`;
/** Kept newest-last; older events are trimmed (about a year of four schedules a night). */
export const NIGHTS_KEPT = 2_000;

export type NightState = 'started' | 'finished' | 'failed' | 'missed' | 'killed';

export interface NightRecord {
  /** The schedule's name. */
  schedule: string;
  /** The firing time the cron pattern named (ISO); a night is keyed by schedule and this. */
  firedAt: string;
  state: NightState;
  /** When this event was written (ISO). */
  at: string;
  runDir?: string;
  /** Why a night failed, was killed or missed (one line). */
  reason?: string;
  attempt?: number;
  attempts?: number;
  /** The worker that wrote the event. */
  worker?: string;
  /** A night resumed from another folder's checkpoint ("host:folder"), orchestrator/worker/night-checkpoint.ts. */
  resumedFrom?: string;
  /** Games that resumed night took over from that folder's journal. */
  resumedGames?: number;
}

export async function recordNight(redis: Redis, record: Omit<NightRecord, 'at'> & { at?: string }): Promise<void> {
  const line = JSON.stringify({ ...record, at: record.at ?? new Date().toISOString() });
  await redis.multi().rpush(NIGHTS_KEY, line).ltrim(NIGHTS_KEY, -NIGHTS_KEPT, -1).exec();
}

/** Every event, oldest first (optionally of one schedule); unreadable lines are skipped. */
export async function readNightEvents(redis: Redis, schedule?: string): Promise<NightRecord[]> {
  const out: NightRecord[] = [];
  for (const line of await redis.lrange(NIGHTS_KEY, 0, -1)) {
    try {
      const r = JSON.parse(line) as NightRecord;
      if (!schedule || r.schedule === schedule) out.push(r);
    } catch {
      // not ours to fail on: a line written by a newer catarena, or damaged
    }
  }
  return out;
}

/** Each night's latest state, keyed by schedule and firing time, in firing order. */
export async function readNights(redis: Redis, schedule?: string): Promise<NightRecord[]> {
  const byNight = new Map<string, NightRecord>();
  for (const r of await readNightEvents(redis, schedule)) {
    const key = `${r.schedule}\u0000${r.firedAt}`;
    byNight.delete(key);
    byNight.set(key, r);
  }
  return [...byNight.values()].sort((a, b) => a.firedAt.localeCompare(b.firedAt));
}
