// `catarena tourney --repeats K`: K independent repetitions of the whole develop-and-play protocol
// in one run directory. Repeat r is a sub-run repeats/<r>/ laid out exactly as a single run (so
// report, probe and the viewers work on it) and played by runTourney with seed `seed + r − 1`: the
// agents', the schedule's and the bootstrap's seeds all derive from it, so repeat r equals a
// single run with that seed, and `catarena combine` of runs with seeds s, s + 1, … equals
// `--repeats K --seed s`. The parent's config.json records K; `catarena resume` on the parent
// continues the unfinished repeats (each resumes from its own journal) and then combines.
import type { TourneyConfig } from '../config/tourney-config.ts';
import type { Progress } from '../progress.ts';
import { RunDir } from '../run/run-dir.ts';
import { indexRun } from '../run/run-index.ts';
import { limitConcurrency } from '../../util/limit.ts';
import { GamePool } from '../executor/local.ts';
import type { CombinedSummary } from '../../reports/combined.ts';
import { combineRuns, pairwiseOfRun } from './combine.ts';
import { InterruptedError, runTourney, type TourneyOptions } from './tourney.ts';

/** The config of repeat r (1-based): the study's config with seed + r − 1 and no repeats of its own. */
export function repeatConfig(config: TourneyConfig, r: number): TourneyConfig {
  const { repeats: _repeats, repeatConcurrency: _concurrency, ...rest } = config;
  return { ...rest, seed: config.seed + r - 1 };
}

/** Progress lines of one repeat, prefixed with "repeat r/K". */
function prefixed(progress: Progress | undefined, label: string): Progress | undefined {
  if (!progress) return undefined;
  return {
    phase: (text) => progress.phase(`${label} · ${text}`),
    tick: (done, total, note) => progress.tick(done, total, note ? `${label} ${note}` : label),
    done: () => progress.done(),
  };
}

export async function runRepeats(options: Omit<TourneyOptions, 'agents'>): Promise<CombinedSummary> {
  const { config, progress, signal } = options;
  const K = config.repeats ?? 1;
  const run = new RunDir(options.runDir);
  await run.writeConfig(config);
  // Two at a time by default: one repeat's bots start and its agents develop while the other plays.
  const side = limitConcurrency(Math.min(K, config.repeatConcurrency ?? 2));
  // In-process games of all repeats share one set of slots: a repeat's games fill what the other
  // leaves idle instead of both running `concurrency` games on the same cores.
  const pool = config.queue ? undefined : new GamePool({ concurrency: config.concurrency });
  const repeat = async (r: number) => {
    const dir = new RunDir(run.repeatDir(r));
    if (await dir.hasSummary()) {
      progress?.phase(`repeat ${r}/${K} finished earlier`);
      return;
    }
    if (signal?.aborted) throw new InterruptedError(run.root);
    try {
      await runTourney({
        ...options,
        config: repeatConfig(config, r),
        runDir: dir.root,
        progress: prefixed(progress, `repeat ${r}/${K}`),
        index: false,
        pool,
      });
    } catch (err) {
      if (err instanceof InterruptedError) throw new InterruptedError(run.root);
      throw err;
    }
  };
  const results = await Promise.allSettled(Array.from({ length: K }, (_, k) => side(() => repeat(k + 1))));
  pool?.close();
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  progress?.phase(`combining ${K} repeats: means, Table 8, rank agreement, two-level intervals`);
  const combined = await combineRuns([run.root], run.root, config, options.acceptTampered);
  await indexRun(
    { ...combinedIndexEntry(combined, config, options.schedule), pairwise: await pairwiseOfRun(run.root) },
    config.queue,
  );
  return combined;
}

/** The study's line in the run index: the combined leaderboard and each agent's mean S and L with the combined intervals. */
export function combinedIndexEntry(c: CombinedSummary, config: TourneyConfig, schedule?: string) {
  return {
    runId: c.runId,
    runDir: c.runDir,
    schedule,
    finishedAt: c.finishedAt,
    games: config.games,
    rounds: config.rounds,
    matches: c.repeats.reduce((n, r) => n + r.games, 0),
    reused: 0,
    repeats: c.repeats.length,
    opponentCode: config.opponentCode,
    leaderboard: c.leaderboard.map(({ agent, meanRankS, meanRankL, meanS, meanL, rankProbabilities, aboveNext }) => ({
      agent,
      meanRankS,
      meanRankL,
      meanS,
      meanL,
      rankProbabilities,
      aboveNext,
    })),
    tracks: c.tracks.map((t) => ({
      track: `${t.game}-${t.variant}`,
      perAgent: Object.fromEntries(
        t.agents.map((a) => [a, { S: t.intervals.perAgent[a]!.S, L: t.intervals.perAgent[a]!.L }]),
      ),
    })),
  };
}
