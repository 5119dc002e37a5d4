// The combined report's numbers over repeated tourneys (`--repeats`, `catarena combine`): every
// table of a single run as the mean over repeats with its SD (the paper's way), the paper's
// Table 8 (SD of each agent's rank across repeats), rank agreement between repeats (Kendall's τ
// and W), build failures per repeat, and intervals, rank probabilities and "not separable" marks
// from the two-level bootstrap (metrics/repeats.ts). Pure: the run directories are read elsewhere.
import { trackName, type LeaderboardEntry, type TourneySummary, type TrackSummary } from '../records/tourney.ts';
import type { BootstrapDraws } from './metrics/bootstrap.ts';
import { ranks } from './metrics/metrics.ts';
import {
  combineRepeats,
  kendallW,
  meanPairwiseTau,
  meanSd,
  type CombinedIntervals,
  type MeanSd,
} from './metrics/repeats.ts';
import { leaderboard, withRankProbabilities } from './summary.ts';

/** One repeat as the combined layer reads it: its summary (metrics.json) and, per track, its bootstrap samples. */
export interface RepeatInput {
  runId: string;
  runDir: string;
  seed: number;
  summary: TourneySummary;
  /** Per track name, the smoothed-bootstrap samples of that repeat (recomputed from its journal). */
  draws: Record<string, BootstrapDraws>;
}

export interface Agreement {
  /** Kendall's W over the repeats' rankings (1 = identical). */
  W: number | null;
  /** Mean Kendall τ-b over pairs of repeats. */
  tau: number | null;
}

export interface CombinedAgent {
  S: MeanSd;
  L: MeanSd;
  C: MeanSd;
  SI: MeanSd;
  G: MeanSd[];
  B: MeanSd[];
  A: MeanSd[];
  self: MeanSd[];
  U?: MeanSd;
  /** Agent Elo (all its rounds as one player). */
  elo: MeanSd;
  errorRate: MeanSd;
  wallMs: MeanSd;
  toolCalls: MeanSd;
  linesOfCode: MeanSd;
  /** Failed builds per repeat (of its rounds in this track). */
  failedBuilds: number[];
  /** Rank per repeat: by B^n for round n (index n − 1), by S, by L. */
  ranks: { B: (number | null)[][]; S: (number | null)[]; L: (number | null)[] };
  /** Table 8: SD over repeats of the rank by B^n per round, by S, by L. */
  rankSd: { B: (number | null)[]; S: number | null; L: number | null };
}

export interface CombinedTrack {
  game: string;
  variant: string;
  agents: string[];
  rounds: number;
  /** Games per repeat. */
  games: number[];
  perAgent: Record<string, CombinedAgent>;
  field: { sigma: MeanSd[]; range: MeanSd[]; meanG: MeanSd[]; DIS_std: MeanSd; DIS_range: MeanSd; Trend_mean: MeanSd };
  /** W: the mean and SD over repeats, cell by cell. */
  W: { strategies: string[]; mean: (number | null)[][]; sd: (number | null)[][] };
  /** Two-level intervals (development and games), rank probabilities and who is ahead of whom. */
  intervals: CombinedIntervals;
  agreement: { S: Agreement; L: Agreement; B: Agreement[] };
  /** Batch tables (Hold'em): the paper's win rate per table kind and strategy, mean ± SD over repeats. */
  tableWinRates?: Record<string, Record<string, MeanSd>>;
}

export interface CombinedSummary {
  kind: 'combined';
  runId: string;
  runDir: string;
  finishedAt: string;
  config: unknown;
  repeats: Array<{ index: number; runId: string; runDir: string; seed: number; games: number }>;
  level: number;
  samples: number;
  seed: number;
  tracks: CombinedTrack[];
  /** Table 3 from the mean metrics, with rank probabilities from the combined samples, and each repeat's own board summarised. */
  leaderboard: Array<LeaderboardEntry & { place: MeanSd; rankS: MeanSd; rankL: MeanSd; S: MeanSd; L: MeanSd }>;
  leaderboardAgreement: Agreement;
}

const nums = <T>(xs: T[], f: (x: T) => number | null | undefined) => xs.map((x) => f(x) ?? null);
const rounds = (n: number) => Array.from({ length: n }, (_, k) => k);

/** Per repeat: each agent's rank by S, by L and by B per round. */
interface RanksByRepeat {
  S: Record<string, number | null>[];
  L: Record<string, number | null>[];
  B: Record<string, number | null>[][];
}

/** One agent over the repeats: each metric's mean and SD, its ranks per repeat and their SD. */
function combinedAgent(a: string, tracks: TrackSummary[], R: number, byRepeat: RanksByRepeat): CombinedAgent {
  const m = tracks.map((t) => t.metrics.perAgent[a]);
  const sdOf = (xs: (number | null)[]) => (xs.filter((x) => x !== null).length >= 2 ? meanSd(xs).sd : null);
  const agentElo = tracks.map((t) => t.ratings?.agents.find((r) => r.id === a)?.elo ?? null);
  return {
    S: meanSd(nums(m, (x) => x?.S)),
    L: meanSd(nums(m, (x) => x?.L)),
    C: meanSd(nums(m, (x) => x?.C)),
    SI: meanSd(nums(m, (x) => (x?.SI.defined ? x.SI.value : null))),
    G: rounds(R).map((n) => meanSd(nums(m, (x) => x?.G[n]))),
    B: rounds(R).map((n) => meanSd(nums(m, (x) => x?.B[n]))),
    A: rounds(R).map((n) => meanSd(nums(m, (x) => x?.A[n]))),
    self: rounds(R).map((n) => meanSd(nums(m, (x) => x?.self[n]))),
    elo: meanSd(agentElo),
    errorRate: meanSd(tracks.map((t) => (t.errors[a]?.requests ? t.errors[a]!.rate : null))),
    wallMs: meanSd(tracks.map((t) => t.cost[a]?.wallMs ?? null)),
    toolCalls: meanSd(tracks.map((t) => t.cost[a]?.toolCalls ?? null)),
    linesOfCode: meanSd(tracks.map((t) => t.cost[a]?.linesOfCode ?? null)),
    failedBuilds: tracks.map((t) => t.strategies.filter((s) => s.agent === a && s.status === 'failed').length),
    ranks: {
      B: byRepeat.B.map((perRepeat) => perRepeat.map((r) => r[a] ?? null)),
      S: byRepeat.S.map((r) => r[a] ?? null),
      L: byRepeat.L.map((r) => r[a] ?? null),
    },
    rankSd: {
      B: byRepeat.B.map((perRepeat) => sdOf(perRepeat.map((r) => r[a] ?? null))),
      S: sdOf(byRepeat.S.map((r) => r[a] ?? null)),
      L: sdOf(byRepeat.L.map((r) => r[a] ?? null)),
    },
  };
}

/** The field's statistics (spread, range, mean G per round; the correlations) over the repeats. */
function combinedField(tracks: TrackSummary[], R: number): CombinedTrack['field'] {
  const f = tracks.map((t) => t.metrics.field);
  const corr = (c: { value: number; defined: boolean }) => (c.defined ? c.value : null);
  return {
    sigma: rounds(R).map((n) => meanSd(f.map((x) => x.sigma[n] ?? null))),
    range: rounds(R).map((n) => meanSd(f.map((x) => x.range[n] ?? null))),
    meanG: rounds(R).map((n) => meanSd(f.map((x) => x.meanG[n] ?? null))),
    DIS_std: meanSd(f.map((x) => corr(x.DIS_std))),
    DIS_range: meanSd(f.map((x) => corr(x.DIS_range))),
    Trend_mean: meanSd(f.map((x) => corr(x.Trend_mean))),
  };
}

/** Games of tables: each table kind's win rate per strategy, mean and SD over the repeats. */
function combinedTableWinRates(tracks: TrackSummary[]): NonNullable<CombinedTrack['tableWinRates']> {
  const kinds = [...new Set(tracks.flatMap((t) => Object.keys(t.tableWinRates ?? {})))];
  return Object.fromEntries(
    kinds.map((kind) => {
      const ids = [...new Set(tracks.flatMap((t) => Object.keys(t.tableWinRates?.[kind] ?? {})))];
      return [
        kind,
        Object.fromEntries(
          ids.map((id) => [id, meanSd(tracks.map((t) => t.tableWinRates?.[kind]?.[id]?.rate ?? null))]),
        ),
      ];
    }),
  );
}

function combineTrack(
  name: string,
  tracks: TrackSummary[],
  draws: BootstrapDraws[],
  options: { samples: number; seed: number; level: number },
): { track: CombinedTrack; draws: { S: (number | null)[][]; L: (number | null)[][] } } {
  const first = tracks[0]!;
  const { agents } = first;
  const R = first.rounds;
  const rankBy = (value: (a: string) => number | null) => ranks(Object.fromEntries(agents.map((a) => [a, value(a)])));
  const byRepeat: RanksByRepeat = {
    S: tracks.map((t) => rankBy((a) => t.metrics.perAgent[a]?.S ?? null)),
    L: tracks.map((t) => rankBy((a) => t.metrics.perAgent[a]?.L ?? null)),
    B: rounds(R).map((n) => tracks.map((t) => rankBy((a) => t.metrics.perAgent[a]?.B[n] ?? null))),
  };
  const perAgent: Record<string, CombinedAgent> = {};
  for (const a of agents) perAgent[a] = combinedAgent(a, tracks, R, byRepeat);
  const size = first.W.strategies.length;
  const cells = (i: number, j: number) => tracks.map((t) => t.W.W[i]?.[j] ?? null);
  const scores = (
    t: TrackSummary,
    value: (m: TrackSummary['metrics']['perAgent'][string] | undefined) => number | null | undefined,
  ) => agents.map((a) => value(t.metrics.perAgent[a]) ?? null);
  const agreement = (lists: (number | null)[][]): { W: number | null; tau: number | null } => ({
    W: kendallW(lists),
    tau: meanPairwiseTau(lists),
  });
  const combined = combineRepeats(
    agents,
    R,
    tracks.map((t, r) => ({
      point: {
        S: scores(t, (m) => m?.S),
        L: scores(t, (m) => m?.L),
        C: scores(t, (m) => m?.C),
        SI: scores(t, (m) => (m?.SI.defined ? m.SI.value : null)),
        G: agents.map((a) => rounds(R).map((n) => t.metrics.perAgent[a]?.G[n] ?? null)),
      },
      draws: draws[r]!,
    })),
    { ...options, stream: name },
  );
  const track: CombinedTrack = {
    game: first.game,
    variant: first.variant,
    agents,
    rounds: R,
    games: tracks.map((t) => t.games),
    perAgent,
    field: combinedField(tracks, R),
    W: {
      strategies: first.W.strategies,
      mean: rounds(size).map((i) => rounds(size).map((j) => meanSd(cells(i, j)).mean)),
      sd: rounds(size).map((i) => rounds(size).map((j) => meanSd(cells(i, j)).sd)),
    },
    intervals: combined.result,
    agreement: {
      S: agreement(tracks.map((t) => scores(t, (m) => m?.S))),
      L: agreement(tracks.map((t) => scores(t, (m) => m?.L))),
      B: rounds(R).map((n) => agreement(tracks.map((t) => scores(t, (m) => m?.B[n])))),
    },
  };
  if (tracks.some((t) => t.tableWinRates)) track.tableWinRates = combinedTableWinRates(tracks);
  return { track, draws: combined.draws };
}

/**
 * The combined summary of K repeats (same agents, games, rule sets and rounds: the caller has
 * checked). Intervals are seeded from `seed` (the first repeat's seed), so combining single runs
 * with seeds s, s + 1, … equals a `--repeats` run with seed s.
 */
export function combineSummaries(
  reps: RepeatInput[],
  meta: { runId: string; runDir: string; config: unknown; samples: number; seed: number; level?: number },
): CombinedSummary {
  const level = meta.level ?? 0.95;
  const names = reps[0]!.summary.tracks.map(trackName);
  const combined = names.map((name) => {
    const per = reps.map((r) => r.summary.tracks.find((t) => trackName(t) === name)!);
    return combineTrack(
      name,
      per,
      reps.map((r) => r.draws[name]!),
      { samples: meta.samples, seed: meta.seed, level },
    );
  });
  const tracks = combined.map((c) => c.track);
  // Generalizability U per game, mean over repeats.
  for (const t of tracks) {
    const U = reps.map((r) => r.summary.generalizability[t.game]);
    if (U.every(Boolean)) for (const a of t.agents) t.perAgent[a]!.U = meanSd(U.map((u) => u![a] ?? null));
  }
  // The board from the mean metrics, its uncertainty from the combined samples (tracks independent).
  const meanTracks = tracks.map((t) => ({
    agents: t.agents,
    metrics: {
      perAgent: Object.fromEntries(t.agents.map((a) => [a, { S: t.perAgent[a]!.S.mean, L: t.perAgent[a]!.L.mean }])),
    },
  }));
  const board = withRankProbabilities(
    leaderboard(meanTracks as never),
    combined.map((c) => ({ agents: c.track.agents, draws: c.draws })),
  );
  const boards = reps.map((r) => r.summary.leaderboard);
  const placeOf = (b: LeaderboardEntry[], a: string) => {
    const k = b.findIndex((e) => e.agent === a);
    return k < 0 ? null : k + 1;
  };
  const agents = board.map((e) => e.agent);
  return {
    kind: 'combined',
    runId: meta.runId,
    runDir: meta.runDir,
    finishedAt: new Date().toISOString(),
    config: meta.config,
    repeats: reps.map((r, k) => ({
      index: k + 1,
      runId: r.runId,
      runDir: r.runDir,
      seed: r.seed,
      games: r.summary.tracks.reduce((n, t) => n + t.games, 0),
    })),
    level,
    samples: meta.samples,
    seed: meta.seed,
    tracks,
    leaderboard: board.map((e) => ({
      ...e,
      place: meanSd(boards.map((b) => placeOf(b, e.agent))),
      rankS: meanSd(boards.map((b) => b.find((x) => x.agent === e.agent)?.meanRankS ?? null)),
      rankL: meanSd(boards.map((b) => b.find((x) => x.agent === e.agent)?.meanRankL ?? null)),
      S: meanSd(boards.map((b) => b.find((x) => x.agent === e.agent)?.meanS ?? null)),
      L: meanSd(boards.map((b) => b.find((x) => x.agent === e.agent)?.meanL ?? null)),
    })),
    // Higher = better for Kendall: the negative place.
    leaderboardAgreement: {
      W: kendallW(boards.map((b) => agents.map((a) => -(placeOf(b, a) ?? NaN)))),
      tau: meanPairwiseTau(boards.map((b) => agents.map((a) => -(placeOf(b, a) ?? NaN)))),
    },
  };
}
