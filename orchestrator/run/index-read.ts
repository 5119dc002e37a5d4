// Reading the run index: the runs folder's index.jsonl and the queue's Redis list. Apart from
// run-index.ts (which writes them, and the history page that history-sources.ts fills) so that
// history-sources.ts can read the index without importing its writer back.
import { readTextIfExists } from '../../util/fs.ts';
import type { Redis } from 'ioredis';
import type { RunIndexEntry } from '../../records/tourney.ts';
import { PREFIX } from '../queue/names.ts';

export const RUNS_KEY = `${PREFIX}:runs`;
/**
 * Newest entries kept in the Redis list; older ones are trimmed (years of a few nightly schedules;
 * each run's own index.jsonl keeps its line). docs/deploy.md, "What lives only in Redis".
 */
export const RUNS_KEPT = 2_000;

/** The index's runs, the last line per run directory. */
export async function readIndexFile(file: string): Promise<RunIndexEntry[]> {
  const text = await readTextIfExists(file);
  if (text === undefined) return [];
  const byRun = new Map<string, RunIndexEntry>();
  for (const line of text.split('\n').filter((l) => l.trim())) {
    try {
      const entry = JSON.parse(line) as RunIndexEntry;
      byRun.delete(entry.runDir); // keep the order of the latest line
      byRun.set(entry.runDir, entry);
    } catch {
      // a torn line from a kill: that run is simply not indexed
    }
  }
  return [...byRun.values()];
}

/** Runs indexed in Redis (queued runs from every machine), the latest entry per run. */
export async function readIndexRedis(redis: Redis): Promise<RunIndexEntry[]> {
  const byRun = new Map<string, RunIndexEntry>();
  for (const line of await redis.lrange(RUNS_KEY, 0, -1)) {
    const entry = JSON.parse(line) as RunIndexEntry;
    byRun.set(entry.runId, entry);
  }
  return [...byRun.values()];
}
