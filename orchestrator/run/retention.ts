// `catarena prune --keep N / --older-than D`: which finished runs of a runs folder to delete, and
// deleting them with their index lines (index.jsonl and, with a queue, the Redis run list), so
// `history` and `--reuse` stop naming them. Only finished runs are ever candidates: a running,
// killed, failed or interrupted run is left alone (it may still be resumed), and each run's state
// is read again just before its folder goes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { diskUsage } from './disk-usage.ts';
import { scheduleOfRunDir } from './history-sources.ts';
import { INDEX_FILE } from './run-dir.ts';
import { dropIndexEntries, readIndexFile, writeHistoryPage } from './run-index.ts';
import { runState } from './run-state.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

export interface RetentionOptions {
  /** Keep the newest N finished runs (of the schedule, with `schedule`). */
  keep?: number;
  /** Delete only runs that finished longer ago than this. */
  olderThanMs?: number;
  /** Only runs of this schedule (folders named <schedule>-<date>-<time>, or so indexed). */
  schedule?: string;
  dryRun?: boolean;
  /** Also drop the deleted runs' entries from this queue's run list. */
  queueUrl?: string;
  now?: number;
}

export interface RetentionResult {
  out: string;
  deleted: Array<{ runDir: string; finishedAt: string; bytes: number }>;
  /** Finished runs kept by --keep or --older-than. */
  kept: number;
  /** Runs not finished (never deleted), with their state. */
  notFinished: Array<{ runDir: string; state: string }>;
  /** Index lines dropped (file, and Redis with a queue). */
  indexDropped: number;
}

/** Parses "30d", "12h", "2w" or "90m" into milliseconds. */
export function parseAge(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([mhdw])$/.exec(text.trim());
  if (!m) throw new Error(`--older-than ${text}: give a number and a unit, e.g. 30d (days), 12h, 2w or 90m`);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[m[2] as 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}

interface Candidate {
  runDir: string;
  finishedAt: string;
}

/** The finished runs of `out` (newest first) and those that have not finished. */
async function finishedRuns(out: string, schedule?: string) {
  const indexed = new Map((await readIndexFile(path.join(out, INDEX_FILE))).map((e) => [path.basename(e.runDir), e]));
  const finished: Candidate[] = [];
  const notFinished: RetentionResult['notFinished'] = [];
  for (const d of await fs.readdir(out, { withFileTypes: true })) {
    const runDir = path.join(out, d.name);
    if (!d.isDirectory() || !(await fs.stat(path.join(runDir, RUN_FILES.config)).catch(() => null))) continue;
    const entry = indexed.get(d.name);
    if (schedule !== undefined && (entry?.schedule ?? scheduleOfRunDir(d.name)) !== schedule) continue;
    const { state, status } = runState(runDir);
    if (state !== 'finished') {
      notFinished.push({ runDir, state });
      continue;
    }
    const finishedAt = entry?.finishedAt ?? status?.updatedAt ?? (await fs.stat(runDir)).mtime.toISOString();
    finished.push({ runDir, finishedAt });
  }
  finished.sort((a, b) => b.finishedAt.localeCompare(a.finishedAt));
  return { finished, notFinished };
}

/** Selects and (unless dryRun) deletes; a run is deleted only if neither --keep nor --older-than keeps it. */
export async function pruneRunsFolder(folder: string, options: RetentionOptions): Promise<RetentionResult> {
  const out = path.resolve(folder);
  if (options.keep === undefined && options.olderThanMs === undefined)
    throw new Error('give --keep <n> or --older-than <age> (or both) to delete runs');
  if (await fs.stat(path.join(out, RUN_FILES.config)).catch(() => null))
    throw new Error(
      `${out} is a run directory; --keep and --older-than take the folder that holds the runs (e.g. runs/)`,
    );
  const { finished, notFinished } = await finishedRuns(out, options.schedule);
  const cutoff = options.olderThanMs === undefined ? undefined : (options.now ?? Date.now()) - options.olderThanMs;
  const doomed = finished.filter(
    (c, i) => i >= (options.keep ?? 0) && (cutoff === undefined || Date.parse(c.finishedAt) < cutoff),
  );
  const deleted: RetentionResult['deleted'] = [];
  for (const c of doomed) {
    if (runState(c.runDir).state !== 'finished') continue; // resumed meanwhile
    const bytes = (await diskUsage(c.runDir)).bytes;
    if (!options.dryRun) await fs.rm(c.runDir, { recursive: true, force: true });
    deleted.push({ ...c, bytes });
  }
  let indexDropped = 0;
  if (!options.dryRun && deleted.length) {
    // As indexed: the index may name a folder by another absolute path (moved, or a symlink).
    const names = new Set(deleted.map((d) => path.basename(d.runDir)));
    const indexed = (await readIndexFile(path.join(out, INDEX_FILE))).map((e) => e.runDir);
    const gone = new Set([...deleted.map((d) => d.runDir), ...indexed.filter((d) => names.has(path.basename(d)))]);
    indexDropped = await dropIndexEntries(path.join(out, INDEX_FILE), gone);
    await writeHistoryPage(path.join(out, INDEX_FILE)).catch(() => undefined); // a view: the index is what counts
    if (options.queueUrl) {
      const [{ withRedis }, { dropIndexRedis }] = await Promise.all([
        import('../queue/connection.ts'),
        import('./run-index.ts'),
      ]);
      indexDropped += await withRedis(options.queueUrl, (redis) => dropIndexRedis(redis, gone));
    }
  }
  return { out, deleted, kept: finished.length - doomed.length, notFinished, indexDropped };
}
