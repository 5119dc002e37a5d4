// Did last night leave its recent band? For the newest run of a series (a schedule's nights, or
// the unscheduled runs), each agent's S (the leaderboard's mean S over tracks) against the same
// agent's S in the previous N comparable runs: same series, after the last config change
// (records/run-changes.ts). The band is mean ± k·sd of those runs (sample sd), needing at least
// `minPrevious` of them; an agent below it has regressed, above it has jumped. The history page
// (reports/html/history-html.ts) shows it and the worker's alert hook (orchestrator/worker/
// night-alerts.ts) fires on a regression: one rule, stated by `bandRule`.
import { configChanges } from '../records/run-changes.ts';
import type { RunIndexEntry } from '../records/tourney.ts';

export interface BandOptions {
  /** Previous runs the band is drawn from (default 7). */
  previous: number;
  /** Half-width of the band in sample standard deviations (default 2). */
  sds: number;
  /** Fewer comparable previous runs than this: no band, no flag (default 3). */
  minPrevious: number;
}

export const BAND_DEFAULTS: BandOptions = { previous: 7, sds: 2, minPrevious: 3 };

export interface Band {
  n: number;
  mean: number;
  sd: number;
  lo: number;
  hi: number;
}

export interface AgentAgainstBand {
  agent: string;
  S: number | null;
  /** null: too few previous runs with a score for this agent. */
  band: Band | null;
  flag: 'below' | 'above' | null;
}

export interface NightAgainstBand {
  runId: string;
  runDir: string;
  schedule?: string;
  finishedAt: string;
  /** The previous comparable runs the bands come from, oldest first. */
  previous: string[];
  agents: AgentAgainstBand[];
  /** Agents whose S fell below their band. */
  regressed: string[];
}

/** Scores computed the same way differ by rounding only; a band of width 0 still holds its own value. */
const EPSILON = 1e-9;

export function bandOf(values: number[], sds: number): Band | null {
  if (!values.length) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = values.length > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return { n: values.length, mean, sd, lo: mean - sds * sd, hi: mean + sds * sd };
}

/** The runs before `last` in its series since its setup last changed, oldest first, at most `previous`. */
export function comparableRuns(entries: RunIndexEntry[], last: RunIndexEntry, previous: number): RunIndexEntry[] {
  const series = entries
    .filter((e) => e.schedule === last.schedule && e.finishedAt < last.finishedAt && e.runDir !== last.runDir)
    .sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
  const out: RunIndexEntry[] = [];
  let after = last;
  for (let i = series.length - 1; i >= 0 && out.length < previous; i--) {
    if (configChanges(series[i]!, after).length) break;
    out.unshift(series[i]!);
    after = series[i]!;
  }
  return out;
}

/** `last` (default: the newest of `entries`) against its band, per agent. */
export function nightAgainstBand(
  entries: RunIndexEntry[],
  options: Partial<BandOptions> = {},
  last = [...entries].sort((a, b) => a.finishedAt.localeCompare(b.finishedAt)).at(-1),
): NightAgainstBand | null {
  if (!last) return null;
  const o = { ...BAND_DEFAULTS, ...options };
  const before = comparableRuns(entries, last, o.previous);
  const agents = last.leaderboard.map(({ agent, meanS: S }): AgentAgainstBand => {
    const values = before.flatMap((e) => {
      const s = e.leaderboard.find((r) => r.agent === agent)?.meanS;
      return typeof s === 'number' ? [s] : [];
    });
    const band = values.length >= o.minPrevious ? bandOf(values, o.sds) : null;
    const flag = band && S !== null ? (S < band.lo - EPSILON ? 'below' : S > band.hi + EPSILON ? 'above' : null) : null;
    return { agent, S, band, flag };
  });
  return {
    runId: last.runId,
    runDir: last.runDir,
    ...(last.schedule ? { schedule: last.schedule } : {}),
    finishedAt: last.finishedAt,
    previous: before.map((e) => e.runId),
    agents,
    regressed: agents.filter((a) => a.flag === 'below').map((a) => a.agent),
  };
}

/** The rule in words, for the page and the docs. */
export function bandRule(options: Partial<BandOptions> = {}): string {
  const o = { ...BAND_DEFAULTS, ...options };
  return `an agent's band is the mean ± ${o.sds} sd (sample standard deviation) of its S in the previous ${o.previous} runs of the same schedule since its setup last changed (agents, tracks, rounds, rules, opponents' code), given at least ${o.minPrevious} of them; S below the band is flagged as a regression, above it as a jump`;
}
