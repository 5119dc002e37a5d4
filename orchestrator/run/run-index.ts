// The index of finished tourney runs: one JSON line per run in `<parent of the run dirs>/index.jsonl`
// (and, for queued runs, a Redis list every machine can read), so `catarena history` can show each
// agent's scores across nightly runs and `--reuse` can find earlier results.
import fs from 'node:fs/promises';
import type { Redis } from 'ioredis';
import { PREFIX, QueueUnavailableError, withRedis } from '../queue/connection.ts';
import type { TourneySummary } from '../../model/tourney.ts';
import { RunDir } from './run-dir.ts';

export const RUNS_KEY = `${PREFIX}:runs`;

export interface RunIndexEntry {
  runId: string;
  runDir: string;
  /** The scheduler that started it ("nightly"), if any. */
  schedule?: string;
  finishedAt: string;
  games: string[];
  rounds: number;
  /** Matches played in this run, and how many of them were reused from earlier runs. */
  matches: number;
  reused: number;
  leaderboard: TourneySummary['leaderboard'];
}

export function indexEntry(summary: TourneySummary, extra: { schedule?: string; reused: number; games: string[]; rounds: number }): RunIndexEntry {
  const matches = summary.tracks.reduce((n, t) => n + t.games, 0);
  return { runId: summary.runId, runDir: summary.runDir, schedule: extra.schedule, finishedAt: new Date().toISOString(), games: extra.games, rounds: extra.rounds, matches, reused: extra.reused, leaderboard: summary.leaderboard };
}

/**
 * Appends a finished run to the index beside its directory and, for a queued run, to the queue's
 * list; a queue that is down only costs that entry. One short append per run, so runs finishing
 * at once do not lose each other's lines; a run indexed again (resumed) is read as its last line.
 */
export async function indexRun(entry: RunIndexEntry, queueUrl?: string): Promise<void> {
  // The leading newline ends a line torn by a kill, so this entry still parses (blank lines are skipped).
  await fs.appendFile(new RunDir(entry.runDir).indexFile, `\n${JSON.stringify(entry)}\n`);
  if (!queueUrl) return;
  await withRedis(queueUrl, (redis) => redis.rpush(RUNS_KEY, JSON.stringify(entry))).catch((err) => {
    if (!(err instanceof QueueUnavailableError)) throw err;
  });
}

/** The index's runs, the last line per run directory. */
export async function readIndexFile(file: string): Promise<RunIndexEntry[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
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
