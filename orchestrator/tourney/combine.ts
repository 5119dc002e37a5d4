// The combined layer over repeated tourneys: reads each repeat's run directory (its summary, and
// its journal for the bootstrap samples, recomputed with the repeat's own seed and its games in
// match-id order, so they do not depend on the order the games finished in), refuses runs that
// are not repeats of one study (naming the difference), and writes combined.json, report.md and report.html. `catarena tourney --repeats K` ends here, and
// `catarena combine <run-dir>…` does the same over separate runs (nightly runs of one config).
import path from 'node:path';
import { bootstrapWithDraws, type BootstrapDraws } from '../../reports/metrics/bootstrap.ts';
import { combineSummaries, type CombinedSummary, type RepeatInput } from '../../reports/combined.ts';
import { renderCombinedMarkdown } from '../../reports/markdown-combined.ts';
import { renderCombinedHtml } from '../../reports/html/combined-html.ts';
import { trackName, type PairwiseEntry, type TourneySummary } from '../../records/tourney.ts';
import { pairwiseComparisons } from '../../reports/compare.ts';
import type { TourneyConfig } from '../config/tourney-config.ts';
import { RunDir } from '../run/run-dir.ts';
import type { Journal } from '../run/journal.ts';
import { trackGames } from './summarize.ts';

/** Settings that may differ between repeats of one study: they change how a run is played, not what it measures. */
const FREE = new Set([
  'seed',
  'out',
  'concurrency',
  'queue',
  'reuse',
  'developConcurrency',
  'repeats',
  'repeatConcurrency',
  'startTimeoutMs',
  'developTimeoutMs',
]);

export class IncomparableRunsError extends Error {}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );

/** The first setting in which `b` differs from `a` (repeats of one study may differ in seed and how they ran), or null. */
export function configDifference(a: TourneyConfig, b: TourneyConfig): string | null {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !FREE.has(k)).sort();
  for (const k of keys) {
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (stable(x) !== stable(y)) return `${k}: ${stable(x) ?? '(unset)'} vs ${stable(y) ?? '(unset)'}`;
  }
  return null;
}

/** The run directories of the repeats: a `--repeats` run stands for its repeats/<r>/ folders. */
export async function expandRepeats(dirs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    const run = new RunDir(dir);
    const config = await run.readConfig();
    const K = config.repeats ?? 1;
    if (K > 1) for (let r = 1; r <= K; r++) out.push(run.repeatDir(r));
    else out.push(run.root);
  }
  return out;
}

/** One finished run read as a repeat: its config, summary, and bootstrap draws per track. */
async function readRepeat(
  dir: string,
  journals: ReadonlyMap<string, Journal>,
  acceptTampered: boolean,
  known?: ReadonlyMap<string, BootstrapDraws>,
): Promise<{ config: TourneyConfig; repeat: RepeatInput; reused: Map<string, number>; games: number }> {
  const run = new RunDir(dir, { journal: { acceptTampered } });
  const config = await run.readConfig();
  if (!(await run.hasSummary()))
    throw new IncomparableRunsError(
      `${run.root} has not finished (no metrics.json): resume it first (catarena resume ${run.root})`,
    );
  const summary = await run.readSummary<TourneySummary>();
  const journal = journals.get(dir) ?? (await run.openJournal());
  const draws: Record<string, BootstrapDraws> = {};
  for (const t of summary.tracks) {
    const drawn = known?.get(trackName(t));
    if (drawn) {
      draws[trackName(t)] = drawn;
      continue;
    }
    const track = (await trackGames(run, config, journal, t.game, t.variant))!;
    draws[trackName(t)] = bootstrapWithDraws(track.agents, track.rounds, track.games, {
      samples: config.bootstrapSamples,
      seed: config.seed,
    }).draws;
  }
  // Games copied from earlier runs (--reuse), per run they came from: not new samples.
  const reused = new Map<string, number>();
  const results = journal.results();
  for (const r of results) if (r.reusedFrom) reused.set(r.reusedFrom, (reused.get(r.reusedFrom) ?? 0) + 1);
  return {
    config,
    repeat: { runId: path.basename(run.root), runDir: run.root, seed: config.seed, summary, draws },
    reused,
    games: results.length,
  };
}

const tracksLine = (summary: TourneySummary) =>
  summary.tracks.map((t) => `${trackName(t)} (${t.agents.join(',')} × ${t.rounds} rounds)`).join('; ');

/**
 * What makes runs read as repeats less independent than they look: runs sharing a seed, and
 * games one copied from another (--reuse). One line each, for `combine` and `compare` to warn with.
 */
function independenceNotes(read: Array<{ repeat: RepeatInput; reused: Map<string, number>; games: number }>): string[] {
  const notes: string[] = [];
  const bySeed = new Map<number, string[]>();
  for (const { repeat } of read) bySeed.set(repeat.seed, [...(bySeed.get(repeat.seed) ?? []), repeat.runId]);
  for (const [seed, runs] of bySeed)
    if (runs.length > 1)
      notes.push(
        `${runs.join(', ')} share seed ${seed}: not independent repeats (the same seeds deal the same games; give each run its own seed)`,
      );
  for (const { repeat, reused, games } of read)
    for (const [from, n] of reused)
      notes.push(`${repeat.runId} reused ${n} of its ${games} games from ${from} (--reuse): copies, not new samples`);
  return notes;
}

/** Reads the repeats (finished runs), checks they are repeats of one study, and returns what the combined report needs. */
export async function readRepeats(
  dirs: string[],
  /** Journals the caller has open, by run directory (not read a second time). */
  journals: ReadonlyMap<string, Journal> = new Map(),
  /** Read repeats whose journal's chain breaks (`--accept-tampered`); default: refused. */
  acceptTampered = false,
  /** Bootstrap draws the caller computed already (a tourney's track reports), by run directory and track name: not drawn again. */
  known: ReadonlyMap<string, ReadonlyMap<string, BootstrapDraws>> = new Map(),
): Promise<{ config: TourneyConfig; repeats: RepeatInput[]; notes: string[] }> {
  if (!dirs.length) throw new IncomparableRunsError('no runs to combine');
  const read: Awaited<ReturnType<typeof readRepeat>>[] = [];
  for (const dir of dirs) {
    const one = await readRepeat(dir, journals, acceptTampered, known.get(dir));
    const first = read[0];
    if (first) {
      const diff = configDifference(first.config, one.config);
      const [a, b] = [first.repeat, one.repeat];
      if (diff) throw new IncomparableRunsError(`${b.runDir} is not a repeat of ${a.runDir}: they differ in ${diff}`);
      if (tracksLine(a.summary) !== tracksLine(b.summary))
        throw new IncomparableRunsError(
          `${b.runDir} is not a repeat of ${a.runDir}: its tracks are ${tracksLine(b.summary)}, not ${tracksLine(a.summary)}`,
        );
    }
    read.push(one);
  }
  return { config: read[0]!.config, repeats: read.map((r) => r.repeat), notes: independenceNotes(read) };
}

/**
 * `compare A B <dirs>`: every finished run (a --repeats study's repeats) with a track both agents
 * played, whatever else changed between them (each run's difference is paired within it); the
 * rest is skipped with why. Notes name config changes between the runs used, and what makes them
 * less independent (shared seeds, reused games).
 */
export async function readComparableRuns(
  dirs: string[],
  a: string,
  b: string,
): Promise<{ repeats: RepeatInput[]; skipped: string[]; notes: string[] }> {
  const read: Awaited<ReturnType<typeof readRepeat>>[] = [];
  const skipped: string[] = [];
  const notes: string[] = [];
  for (const given of dirs) {
    let expanded: string[];
    try {
      expanded = await expandRepeats([given]);
    } catch {
      skipped.push(`${given}: not a run directory (no config.json)`);
      continue;
    }
    for (const dir of expanded) {
      let one: Awaited<ReturnType<typeof readRepeat>>;
      try {
        one = await readRepeat(dir, new Map(), false);
      } catch (err) {
        skipped.push(`${dir}: ${(err as Error).message.replace(`${dir} `, '')}`);
        continue;
      }
      if (!one.repeat.summary.tracks.some((t) => t.agents.includes(a) && t.agents.includes(b))) {
        const agents = [...new Set(one.repeat.summary.tracks.flatMap((t) => t.agents))];
        skipped.push(`${dir}: no track with both ${a} and ${b} (its agents: ${agents.join(', ')})`);
        continue;
      }
      const before = read.at(-1);
      const diff = before && configDifference(before.config, one.config);
      if (diff) notes.push(`config changed in ${one.repeat.runId} (from ${before.repeat.runId}): ${diff}`);
      read.push(one);
    }
  }
  return { repeats: read.map((r) => r.repeat), skipped, notes: [...notes, ...independenceNotes(read)] };
}

/**
 * The combined report of `dirs` (finished runs, or `--repeats` runs) written to `outDir`. The
 * combined samples are seeded from the first repeat's seed, so `combine` of runs with seeds
 * s, s + 1, s + 2 equals `--repeats 3 --seed s`.
 */
export async function combineRuns(
  dirs: string[],
  outDir: string,
  config?: TourneyConfig,
  acceptTampered = false,
  /** Told what makes the runs less independent than repeats should be (shared seeds, reused games). */
  warn?: (message: string) => void,
): Promise<CombinedSummary> {
  const { config: base, repeats, notes } = await readRepeats(await expandRepeats(dirs), new Map(), acceptTampered);
  for (const note of notes) warn?.(note);
  const out = new RunDir(outDir);
  const combined = combineSummaries(repeats, {
    runId: path.basename(out.root),
    runDir: out.root,
    config: config ?? { ...base, repeats: repeats.length },
    samples: base.bootstrapSamples,
    seed: repeats[0]!.seed,
  });
  await out.writeCombined(combined, renderCombinedMarkdown(combined), renderCombinedHtml(combined));
  return combined;
}

/**
 * Each pair of agents' paired comparison in a finished run or `--repeats` study, for the history
 * page: `catarena compare`'s "all tracks" rows, recomputed from the journal(s) as compare does.
 * Undefined when the run cannot be read as repeats (the entry is indexed without it; tourney and --repeats add it to their index line).
 */
export async function pairwiseOfRun(
  runDir: string,
  journal?: Journal,
  /** The run's bootstrap draws by track name, where the caller has them (a tourney's track reports). */
  draws?: ReadonlyMap<string, BootstrapDraws>,
): Promise<PairwiseEntry[] | undefined> {
  try {
    const { repeats } = await readRepeats(
      await expandRepeats([runDir]),
      new Map(journal ? [[runDir, journal]] : []),
      false,
      new Map(draws ? [[runDir, draws]] : []),
    );
    return pairwiseComparisons(repeats);
  } catch {
    return undefined;
  }
}
