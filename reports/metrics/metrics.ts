// Every metric of docs/metrics.md as a pure function of a ScoreMatrix. Agents are addressed by
// index i (position in W.agents), rounds n by their 1-based number.
//
// Missing data: a null cell (no game played) is skipped in every average, and an average over an
// empty set is null, never NaN. So with one agent S, B and A are null (no j ≠ i); with one round
// L and C are null (no n ≥ 2) and SI is undefined. A difference with a null side is skipped too.
import type { ScoreMatrix } from './score-matrix.ts';
import type { AgentMetrics, AllMetrics, Correlation, FieldSeries } from '../../records/metrics.ts';

/** Spreads below this (relative to the values' size) count as zero: means of equal scores may differ in the last bit. */
const FLAT_TOLERANCE = 1e-12;

/** Arithmetic mean of the non-null values; null when there are none (not NaN). */
export function mean(values: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === null) continue;
    sum += v;
    n++;
  }
  return n > 0 ? sum / n : null;
}

/**
 * Mean of the non-null f(k) for k = from..to-1, added in that order (the same sum as mean() of
 * the list); null when all are null. No list is built: the bootstrap evaluates every metric once
 * per sample, where temporary lists and their garbage cost most of the time.
 */
function meanOf(from: number, to: number, f: (k: number) => number | null): number | null {
  let sum = 0;
  let n = 0;
  for (let k = from; k < to; k++) {
    const v = f(k);
    if (v === null) continue;
    sum += v;
    n++;
  }
  return n > 0 ? sum / n : null;
}

function diff(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a - b;
}

function isFlat(xs: readonly number[]): boolean {
  const max = Math.max(...xs);
  const min = Math.min(...xs);
  return max - min <= FLAT_TOLERANCE * Math.max(1, Math.abs(max), Math.abs(min));
}

/** Sample correlation over the points where both x and y are non-null. */
export function pearson(x: readonly (number | null)[], y: readonly (number | null)[]): Correlation {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const a = x[k];
    const b = y[k];
    if (a === null || a === undefined || b === null || b === undefined) continue;
    xs.push(a);
    ys.push(b);
  }
  if (xs.length < 2 || isFlat(xs) || isFlat(ys)) return { value: 0, defined: false };
  const mx = mean(xs)!;
  const my = mean(ys)!;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let k = 0; k < xs.length; k++) {
    const dx = xs[k]! - mx;
    const dy = ys[k]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const r = Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  return { value: r + 0, defined: true }; // + 0 turns -0 into 0
}

const roundList = (W: ScoreMatrix): number[] => Array.from({ length: W.rounds }, (_, k) => k + 1);
/** Mean of f(j) over the other agents j ≠ i, in index order. */
const overOtherAgents = (W: ScoreMatrix, i: number, f: (j: number) => number | null) =>
  meanOf(0, W.agents.length, (j) => (j === i ? null : f(j)));
/** Mean of f(n) over the rounds n = 2..N. */
const overLaterRounds = (W: ScoreMatrix, f: (n: number) => number | null) => meanOf(2, W.rounds + 1, f);

/** B_i^n = avg_{j≠i} W[(i,n),(j,n)]: strength within round n. */
export function baseScore(W: ScoreMatrix, i: number, n: number): number | null {
  return overOtherAgents(W, i, (j) => W.value(i, n, j, n));
}

/** S_i = avg_{j≠i} W[(i,1),(j,1)]: round-1 strength (the same formula as B_i^1). */
export function strategyCoding(W: ScoreMatrix, i: number): number | null {
  return baseScore(W, i, 1);
}

/** G_i^n = avg over all other T·N−1 strategies (own other rounds included) of W[(i,n),·]. */
export function globalPerformance(W: ScoreMatrix, i: number, n: number): number | null {
  const s = W.index(i, n);
  return meanOf(0, W.size, (t) => W.at(s, t)); // at() is null on the diagonal
}

/** L_i = avg_{n=2..N} (G_i^n − G_i^1): the primary learning score. */
export function globalLearning(W: ScoreMatrix, i: number): number | null {
  const g1 = globalPerformance(W, i, 1);
  return overLaterRounds(W, (n) => diff(globalPerformance(W, i, n), g1));
}

/** A_i^n = avg_{j≠i} W[(i,n),(j,n−1)], defined for n ≥ 2 (null for n = 1). */
export function advanceScore(W: ScoreMatrix, i: number, n: number): number | null {
  if (n < 2) return null;
  return overOtherAgents(W, i, (j) => W.value(i, n, j, n - 1));
}

/** C_i = avg_{n=2..N} (A_i^n − B_i^{n−1}): targeted learning against last round's opponents. */
export function counterAdaptation(W: ScoreMatrix, i: number): number | null {
  return overLaterRounds(W, (n) => diff(advanceScore(W, i, n), baseScore(W, i, n - 1)));
}

/** S_i^n = avg_{m≠n} W[(i,n),(i,m)]: a bot against the same agent's other rounds. */
export function selfScore(W: ScoreMatrix, i: number, n: number): number | null {
  return meanOf(1, W.rounds + 1, (m) => (m === n ? null : W.value(i, n, i, m)));
}

/** SI_i = Pearson([1..N], [S_i^1..S_i^N]): do later versions beat earlier ones. */
export function selfImprovement(W: ScoreMatrix, i: number): Correlation {
  const rounds = roundList(W);
  return pearson(
    rounds,
    rounds.map((n) => selfScore(W, i, n)),
  );
}

/** U_i = B_i^{1;variant} − B_i^{1;standard}, keyed by agent id; both matrices must hold the same agents. */
export function generalizability(standard: ScoreMatrix, variant: ScoreMatrix): Record<string, number | null> {
  const same =
    standard.agents.length === variant.agents.length && standard.agents.every((a) => variant.agents.includes(a));
  if (!same) throw new Error('generalizability: the two matrices must hold the same agents');
  const out: Record<string, number | null> = {};
  standard.agents.forEach((agent, i) => {
    out[agent] = diff(baseScore(variant, variant.agentIndex(agent), 1), baseScore(standard, i, 1));
  });
  return out;
}

/** The per-round field series behind DIS_std, DIS_range and Trend_mean (index n−1 = round n). */
export function fieldSeries(W: ScoreMatrix): FieldSeries {
  const agents = W.agents.map((_, i) => i);
  const out: FieldSeries = { sigma: [], range: [], meanG: [] };
  for (const n of roundList(W)) {
    const b = agents.map((i) => baseScore(W, i, n)).filter((v): v is number => v !== null);
    const mb = mean(b);
    out.sigma.push(mb === null ? null : Math.sqrt(mean(b.map((v) => (v - mb) ** 2))!));
    out.range.push(b.length > 0 ? Math.max(...b) - Math.min(...b) : null);
    out.meanG.push(mean(agents.map((i) => globalPerformance(W, i, n))));
  }
  return out;
}

/** DIS_std = Pearson([1..N], [σ_n]): is the field spreading out or converging. */
export function dispersionStd(W: ScoreMatrix, series = fieldSeries(W)): Correlation {
  return pearson(roundList(W), series.sigma);
}

/** DIS_range = Pearson([1..N], [max_i B_i^n − min_i B_i^n]). */
export function dispersionRange(W: ScoreMatrix, series = fieldSeries(W)): Correlation {
  return pearson(roundList(W), series.range);
}

/** Trend_mean = Pearson([1..N], [avg_i G_i^n]): does the field improve as a whole. */
export function trendMean(W: ScoreMatrix, series = fieldSeries(W)): Correlation {
  return pearson(roundList(W), series.meanG);
}

/** Values within this of a tie block's best value share its mean rank (floating-point noise). */
const TIE_TOLERANCE = 1e-12;

/** ranks() over an array: the rank of values[k] at k (null for null and NaN). */
export function rankList(values: readonly (number | null)[], higherIsBetter = true): (number | null)[] {
  const order: number[] = [];
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (v !== null && v !== undefined && !Number.isNaN(v)) order.push(k);
  }
  order.sort((x, y) => (higherIsBetter ? values[y]! - values[x]! : values[x]! - values[y]!)); // stable: ties keep index order
  const out: (number | null)[] = values.map(() => null);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && Math.abs(values[order[end]!]! - values[order[start]!]!) <= TIE_TOLERANCE) end++;
    const meanRank = (start + 1 + end) / 2; // positions start+1 .. end
    for (let k = start; k < end; k++) out[order[k]!] = meanRank;
    start = end;
  }
  return out;
}

/**
 * Ranks, 1 = best; tied agents share the mean of the ranks they span (two tied for first: 1.5
 * each). Null (and NaN) values are excluded: their rank is null and the others are ranked among
 * themselves, so a missing metric never pushes an agent below one with a real value.
 */
export function ranks(values: Record<string, number | null>, higherIsBetter = true): Record<string, number | null> {
  const keys = Object.keys(values);
  const r = rankList(
    keys.map((k) => values[k]!),
    higherIsBetter,
  );
  return Object.fromEntries(keys.map((k, i) => [k, r[i]!]));
}

export interface MetricsOptions {
  /** The same agents on the variant rule set: adds U_i and its ranking. */
  variant?: ScoreMatrix;
}

/** Every metric at once, as one JSON-serialisable object. */
export function computeAll(W: ScoreMatrix, opts: MetricsOptions = {}): AllMetrics {
  const rounds = roundList(W);
  const U = opts.variant ? generalizability(W, opts.variant) : undefined;
  const perAgent: Record<string, AgentMetrics> = {};
  W.agents.forEach((agent, i) => {
    perAgent[agent] = {
      S: strategyCoding(W, i),
      G: rounds.map((n) => globalPerformance(W, i, n)),
      L: globalLearning(W, i),
      B: rounds.map((n) => baseScore(W, i, n)),
      A: rounds.map((n) => advanceScore(W, i, n)),
      C: counterAdaptation(W, i),
      self: rounds.map((n) => selfScore(W, i, n)),
      SI: selfImprovement(W, i),
      ...(U ? { U: U[agent] ?? null } : {}),
    };
  });
  const series = fieldSeries(W);
  const pick = (f: (m: AgentMetrics) => number | null) => Object.fromEntries(W.agents.map((a) => [a, f(perAgent[a]!)]));
  return {
    perAgent,
    field: {
      DIS_std: dispersionStd(W, series),
      DIS_range: dispersionRange(W, series),
      Trend_mean: trendMean(W, series),
      ...series,
    },
    ranks: {
      S: ranks(pick((m) => m.S)),
      L: ranks(pick((m) => m.L)),
      C: ranks(pick((m) => m.C)),
      SI: ranks(pick((m) => (m.SI.defined ? m.SI.value : null))),
      ...(U ? { U: ranks(U) } : {}),
    },
  };
}
