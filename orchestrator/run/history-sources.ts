// What `catarena history` lists besides finished runs: from a runs folder, its index (index.jsonl)
// and the run folders that never finished (their status.json); from the queue, its run index and
// the nights list (orchestrator/queue/nights.ts), which also holds the nights that failed, were
// killed or missed. A finished run whose folder is gone is marked "folder deleted".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { RunEnd } from '../../records/run-end.ts';
import type { RunIndexEntry } from '../../records/tourney.ts';
import { type NightRecord, readNights } from '../queue/nights.ts';
import { INDEX_FILE } from './run-dir.ts';
import { readIndexFile, readIndexRedis } from './index-read.ts';
import { runState } from './run-state.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

export interface HistorySources {
  entries: RunIndexEntry[];
  /** Runs and nights with no finished run in the index. */
  ends: RunEnd[];
  /** Run directories of indexed runs whose folder is known to be gone. */
  deleted: Set<string>;
}

/** A scheduled night's folder is `<schedule>-<yyyymmdd>-<hhmmss>` (orchestrator/worker/nightly.ts). */
export const scheduleOfRunDir = (dir: string) => /^(.+)-\d{8}-\d{6}$/.exec(path.basename(dir))?.[1];

/** A runs folder: its index, and its run folders that failed, were interrupted or killed (or run now). */
export async function localHistory(out: string): Promise<HistorySources> {
  const entries = await readIndexFile(path.resolve(out, INDEX_FILE));
  const deleted = new Set(entries.filter((e) => !fs.existsSync(e.runDir)).map((e) => e.runDir));
  const indexed = new Set(entries.map((e) => path.basename(e.runDir)));
  const ends: RunEnd[] = [];
  const dirs = await fs.promises.readdir(out, { withFileTypes: true }).catch(() => []);
  for (const d of dirs) {
    const dir = path.resolve(out, d.name);
    if (!d.isDirectory() || indexed.has(d.name) || !fs.existsSync(path.join(dir, RUN_FILES.config))) continue;
    const end = unfinishedEnd(dir);
    if (end) ends.push(end);
  }
  return { entries, ends, deleted };
}

/** A run folder that has not finished, as history shows it; undefined for a finished (or unknown) one. */
function unfinishedEnd(dir: string, night?: NightRecord): RunEnd | undefined {
  const { state, status } = runState(dir);
  if (state === 'finished' || state === 'unknown') return undefined;
  const schedule = night?.schedule ?? scheduleOfRunDir(dir);
  return {
    status: state,
    runId: path.basename(dir),
    runDir: dir,
    ...(schedule ? { schedule } : {}),
    at: status?.updatedAt ?? night?.at ?? new Date(0).toISOString(),
    ...(night ? { firedAt: night.firedAt } : {}),
    ...(status?.movedTo
      ? { reason: `continued on ${status.movedTo}` }
      : status?.message
        ? { reason: status.message.split('\n')[0] }
        : {}),
  };
}

/** The queue's run index (every machine's queued runs) and its nights. */
export async function queueHistory(redis: Redis): Promise<HistorySources> {
  const [entries, nights] = await Promise.all([readIndexRedis(redis), readNights(redis)]);
  const host = os.hostname();
  // Another machine's folder cannot be looked at from here: only this machine's are marked.
  const deleted = new Set(entries.filter((e) => e.host === host && !fs.existsSync(e.runDir)).map((e) => e.runDir));
  return { entries, ends: nightEnds(nights, entries), deleted };
}

/** Each night that did not end in an indexed run, as history shows it. */
export function nightEnds(nights: NightRecord[], entries: RunIndexEntry[]): RunEnd[] {
  const indexed = new Set(entries.map((e) => e.runDir));
  const ends: RunEnd[] = [];
  for (const night of nights) {
    if (night.runDir && indexed.has(night.runDir)) continue;
    const here = night.runDir !== undefined && fs.existsSync(night.runDir);
    const base = {
      runId: night.runDir ? path.basename(night.runDir) : `${night.schedule}@${night.firedAt}`,
      ...(night.runDir ? { runDir: night.runDir } : {}),
      schedule: night.schedule,
      at: night.at,
      firedAt: night.firedAt,
      ...(night.reason ? { reason: night.reason } : {}),
    };
    if (night.state === 'finished') {
      // Finished, yet not in the run index: catarena prune deleted both (or the run list lost it).
      if (!here) ends.push({ ...base, status: 'folder deleted' });
    } else if (night.state === 'started') {
      // Still running, or killed with nobody left to resume it: its folder says, when it is here.
      const end = here ? unfinishedEnd(night.runDir!, night) : undefined;
      ends.push(end ?? { ...base, status: 'running' });
    } else ends.push({ ...base, status: night.state });
  }
  return ends;
}
