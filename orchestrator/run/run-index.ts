// The index of finished tourney runs: one JSON line per run in `<parent of the run dirs>/index.jsonl`
// (and, for queued runs, a Redis list every machine can read), so `catarena history` can show each
// agent's scores across nightly runs and `--reuse` can find earlier results; index.html beside it
// shows the same as charts.
import { readTextIfExists } from '../../util/fs.ts';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { trackName, type RunIndexEntry, type TourneySummary } from '../../records/tourney.ts';
export { rulesChanges, rulesOfEntry } from '../../records/tourney.ts';
import { RunDir } from './run-dir.ts';
import { taskTracksOfConfig } from '../../reports/markdown-task-tracks.ts';
import { gameIds, rulesLabel } from '../../games/registry.ts';
import { opponentCodeOf } from '../../records/opponent-code.ts';
import type { RunEnd } from '../../records/run-end.ts';

export { readIndexFile, readIndexRedis, RUNS_KEPT, RUNS_KEY } from './index-read.ts';
import { RUNS_KEPT, RUNS_KEY } from './index-read.ts';

export type { RunIndexEntry } from '../../records/tourney.ts';

export function indexEntry(
  summary: TourneySummary,
  extra: { schedule?: string; reused: number; games: string[]; rounds: number },
): RunIndexEntry {
  const matches = summary.tracks.reduce((n, t) => n + t.games, 0);
  const tracks = summary.tracks.map((t) => ({
    track: trackName(t),
    perAgent: Object.fromEntries(
      t.agents.flatMap((a) =>
        t.bootstrap.perAgent[a] ? [[a, { S: t.bootstrap.perAgent[a]!.S, L: t.bootstrap.perAgent[a]!.L }]] : [],
      ),
    ),
  }));
  const taskTracks = taskTracksOfConfig(summary.config, [...new Set(summary.tracks.flatMap((t) => t.agents))]);
  const rules = rulesOfConfig(summary.config, extra.games);
  return {
    runId: summary.runId,
    runDir: summary.runDir,
    host: os.hostname(),
    schedule: extra.schedule,
    ...seedOf(summary.config),
    finishedAt: new Date().toISOString(),
    games: extra.games,
    rounds: extra.rounds,
    matches,
    reused: extra.reused,
    leaderboard: summary.leaderboard,
    tracks,
    ...anchoredOf(summary),
    taskTracks,
    rules,
    opponentCode: opponentCodeOf(summary.config),
  };
}

const seedOf = (config: unknown) => {
  const seed = (config as { seed?: unknown } | null)?.seed;
  return typeof seed === 'number' ? { seed } : {};
};

/** Per game, the rules label a run's config plays it under (its rules version and rule-changing options). */
export function rulesOfConfig(config: unknown, games: string[]): Record<string, string> {
  const perGame =
    (config as { perGame?: Record<string, { options?: Record<string, string | number> }> } | null)?.perGame ?? {};
  return Object.fromEntries(
    games.filter((g) => gameIds().includes(g)).map((g) => [g, rulesLabel(g, perGame[g]?.options)]),
  );
}

/**
 * Appends a finished run to the index beside its directory and, for a queued run, to the queue's
 * list; a queue that is down only costs that entry. One short append per run, so runs finishing
 * at once do not lose each other's lines; a run indexed again (resumed) is read as its last line.
 */
export async function indexRun(entry: RunIndexEntry, queueUrl?: string): Promise<void> {
  // The leading newline ends a line torn by a kill, so this entry still parses (blank lines are skipped).
  const indexFile = new RunDir(entry.runDir).indexFile;
  await fs.appendFile(indexFile, `\n${JSON.stringify(entry)}\n`);
  await writeHistoryPage(indexFile).catch(() => undefined); // the page is a view; the index line is what counts
  if (!queueUrl) return;
  // Loaded here: bullmq and ioredis cost every local run's start about 0.2 s of CPU otherwise.
  const { QueueUnavailableError, withRedis } = await import('../queue/connection.ts');
  const push = (redis: Redis) =>
    redis.multi().rpush(RUNS_KEY, JSON.stringify(entry)).ltrim(RUNS_KEY, -RUNS_KEPT, -1).exec();
  await withRedis(queueUrl, push).catch((err) => {
    if (!(err instanceof QueueUnavailableError)) throw err;
  });
}

/**
 * index.html beside index.jsonl: every indexed run's S and L per agent and track, with links to
 * the reports, last night against its band, and the runs that did not finish. Without `entries`,
 * what the runs folder holds (its index and its run folders' status.json).
 */
export async function writeHistoryPage(
  indexFile: string,
  entries?: RunIndexEntry[],
  extra: { ends?: RunEnd[]; deleted?: Set<string> } = {},
): Promise<string> {
  const { renderHistoryHtml } = await import('../../reports/html/history-html.ts');
  const out = path.join(path.dirname(indexFile), 'index.html');
  await fs.mkdir(path.dirname(out), { recursive: true });
  const found = entries
    ? { entries, ...extra }
    : await (await import('./history-sources.ts')).localHistory(path.dirname(indexFile));
  await fs.writeFile(out, renderHistoryHtml(found.entries, path.dirname(indexFile), found));
  return out;
}

/**
 * Drops the lines of these run directories from an index file (prune deleted them). The file is
 * written anew only if no run appended to it meanwhile (checked by its size), else read again.
 */
export async function dropIndexEntries(file: string, runDirs: Set<string>): Promise<number> {
  for (;;) {
    const text = await readTextIfExists(file);
    if (text === undefined) return 0;
    const lines = text.split('\n').filter((l) => l.trim());
    const kept = lines.filter((l) => !runDirs.has(runDirOfLine(l) ?? ''));
    if (kept.length === lines.length) return 0;
    const tmp = `${file}.tmp-${process.pid}`;
    await fs.writeFile(tmp, kept.map((l) => `${l}\n`).join(''));
    if ((await fs.stat(file)).size !== Buffer.byteLength(text)) {
      await fs.rm(tmp, { force: true }); // a run finished meanwhile: start over with its line
      continue;
    }
    await fs.rename(tmp, file);
    return lines.length - kept.length;
  }
}

/** Drops these run directories' entries from the queue's run list (LREM of each exact line). */
export async function dropIndexRedis(redis: Redis, runDirs: Set<string>): Promise<number> {
  let dropped = 0;
  for (const line of await redis.lrange(RUNS_KEY, 0, -1))
    if (runDirs.has(runDirOfLine(line) ?? '')) dropped += await redis.lrem(RUNS_KEY, 0, line);
  return dropped;
}

const runDirOfLine = (line: string): string | undefined => {
  try {
    return (JSON.parse(line) as RunIndexEntry).runDir;
  } catch {
    return undefined; // a torn line: not one of these
  }
};

/** Each agent's last rated strategy per track (--anchors), for history. */
function anchoredOf(summary: TourneySummary): Pick<RunIndexEntry, 'anchored'> {
  const last = new Map<string, NonNullable<TourneySummary['anchored']>[number]>();
  for (const a of summary.anchored ?? []) {
    const key = `${a.track}/${a.agent}`;
    if ((last.get(key)?.round ?? 0) < a.round) last.set(key, a);
  }
  if (!last.size) return {};
  return {
    anchored: [...last.values()].map((a) => ({
      track: a.track,
      agent: a.agent,
      round: a.round,
      elo: a.rating.elo,
      lo: a.rating.lo,
      hi: a.rating.hi,
      pool: a.rating.poolVersion,
    })),
  };
}
