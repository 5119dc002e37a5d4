// Numbers over repeated tourneys (`--repeats`, `catarena combine`): mean and SD over repeats, the
// spread of ranks (the paper's Table 8), rank agreement between repeats (Kendall's τ and W), and
// intervals that hold both sources of variance — the agents' development (which bots they wrote in
// a repeat) and the games those bots played — by a two-level bootstrap: resample repeats with
// replacement, and within each chosen repeat take one of its own smoothed-bootstrap samples
// (bootstrap.ts), then rescale to the unbiased variance of the mean over repeats with Student's t
// for the few repeats there are (docs/metrics.md "Intervals over repeats").
import { createRng, deriveSeed } from '../../util/rng.ts';
import type { AgentIntervals, Interval } from '../../records/metrics.ts';
import { aboveMatrix, interval, percentile, RANGE, tallyRanks, type BootstrapDraws } from './bootstrap.ts';
import { rankList } from './metrics.ts';
import { normalQuantile } from './normal.ts';

export interface MeanSd {
  /** Mean over the repeats where the value exists (null when none). */
  mean: number | null;
  /** Sample standard deviation (n − 1); null with fewer than two values. */
  sd: number | null;
  /** Repeats with a value. */
  n: number;
}

export function meanSd(values: readonly (number | null | undefined)[]): MeanSd {
  const xs = values.filter((v): v is number => v !== null && v !== undefined && Number.isFinite(v));
  if (!xs.length) return { mean: null, sd: null, n: 0 };
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  if (xs.length < 2) return { mean: m, sd: null, n: 1 };
  const v = xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
  return { mean: m, sd: Math.sqrt(v), n: xs.length };
}

// ------------------------------------------------------------------------------------------------
// Student's t quantile

/** ln Γ(x) (Lanczos, g = 7). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularized incomplete beta I_x(a, b), by its continued fraction (Lentz). */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x)) / a;
  const tiny = 1e-300;
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 400; i++) {
    const m = Math.floor(i / 2);
    const num =
      i === 0
        ? 1
        : i % 2 === 0
          ? (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m))
          : -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    const cd = c * d;
    f *= cd;
    if (Math.abs(1 - cd) < 1e-14) break;
  }
  return front * (f - 1);
}

/** P(T ≤ t) for Student's t with df degrees of freedom. */
export function studentCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Student's t quantile (p in (0, 1), df > 0), by bisection on the CDF. */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new Error(`studentQuantile: p must be in (0, 1), got ${p}`);
  if (!Number.isFinite(df)) return normalQuantile(p);
  let lo = -1e6;
  let hi = 1e6;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (studentCdf(mid, df) < p) lo = mid;
    else hi = mid;
    if (hi - lo < 1e-12 * Math.max(1, Math.abs(mid))) break;
  }
  return (lo + hi) / 2;
}

// ------------------------------------------------------------------------------------------------
// Rank agreement

/** Kendall's τ-b between two score lists (higher = better), over the items both have; null when undefined. */
export function kendallTau(x: readonly (number | null)[], y: readonly (number | null)[]): number | null {
  const idx = x
    .map((_, i) => i)
    .filter((i) => x[i] !== null && y[i] !== null && x[i] !== undefined && y[i] !== undefined);
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let p = 0; p < idx.length; p++) {
    for (let q = p + 1; q < idx.length; q++) {
      const dx = Math.sign(x[idx[p]!]! - x[idx[q]!]!);
      const dy = Math.sign(y[idx[p]!]! - y[idx[q]!]!);
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denom = Math.sqrt((concordant + discordant + tiesX) * (concordant + discordant + tiesY));
  return denom > 0 ? (concordant - discordant) / denom : null;
}

/**
 * Kendall's coefficient of concordance W of m rankings of the same n items (each a score list,
 * higher = better; ranks tied within a list share the mean rank), with the tie correction:
 * W = 12·S / (m²(n³ − n) − m·Σ(t³ − t)). 1 = every repeat ranks the agents the same, 0 = no
 * agreement. Null with fewer than two lists or items, or when every list is all ties.
 */
export function kendallW(lists: readonly (readonly (number | null)[])[]): number | null {
  const usable = lists.filter((l) => l.every((v) => v !== null && v !== undefined));
  const m = usable.length;
  const n = usable[0]?.length ?? 0;
  if (m < 2 || n < 2) return null;
  const sums = new Array<number>(n).fill(0);
  let ties = 0;
  for (const list of usable) {
    const r = rankList(list) as number[];
    r.forEach((rank, i) => (sums[i]! += rank));
    const groups = new Map<number, number>();
    for (const rank of r) groups.set(rank, (groups.get(rank) ?? 0) + 1);
    for (const t of groups.values()) ties += t ** 3 - t;
  }
  const meanSum = (m * (n + 1)) / 2;
  const S = sums.reduce((a, R) => a + (R - meanSum) ** 2, 0);
  const denom = m * m * (n ** 3 - n) - m * ties;
  return denom > 0 ? Math.min(1, (12 * S) / denom) : null;
}

/** Mean Kendall τ over every pair of lists (null when no pair has one). */
export function meanPairwiseTau(lists: readonly (readonly (number | null)[])[]): number | null {
  const taus: number[] = [];
  for (let a = 0; a < lists.length; a++)
    for (let b = a + 1; b < lists.length; b++) {
      const t = kendallTau(lists[a]!, lists[b]!);
      if (t !== null) taus.push(t);
    }
  return taus.length ? taus.reduce((x, y) => x + y, 0) / taus.length : null;
}

// ------------------------------------------------------------------------------------------------
// Intervals over repeats

/** One repeat of one track: each agent's metric values (the point) and its smoothed-bootstrap samples. */
export interface RepeatTrackSample {
  point: {
    S: (number | null)[];
    L: (number | null)[];
    C: (number | null)[];
    SI: (number | null)[];
    G: (number | null)[][];
  };
  draws: BootstrapDraws;
}

export interface CombineOptions {
  samples?: number;
  /** The study's base seed; the stream is deriveSeed('metrics.combined', seed, track). */
  seed?: number;
  level?: number;
  /** Names the stream (the track), so tracks draw independently. */
  stream?: string;
}

export interface CombinedIntervals {
  samples: number;
  seed: number;
  level: number;
  repeats: number;
  method: 'two-level';
  perAgent: Record<string, AgentIntervals>;
  rankProbabilities: { S: Record<string, number[]>; L: Record<string, number[]> };
  above: { S: Record<string, Record<string, number | null>>; L: Record<string, Record<string, number | null>> };
}

const variance = (xs: readonly number[]) => {
  if (xs.length < 2) return 0;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
};
const present = (xs: readonly (number | null | undefined)[]) =>
  xs.filter((x): x is number => x !== null && x !== undefined && Number.isFinite(x));

/**
 * Calibrated two-level samples of one agent's metric. `raw[b]` is the mean, over the K repeats
 * drawn in sample b, of one within-repeat bootstrap sample each; the points are the K repeats'
 * observed values. The samples are moved to centre on the mean of the points and scaled so that
 * the central `level` share of them spans ± t·s/√K, where s² is the variance of the points over
 * repeats (development and game luck together, unbiased) and t Student's quantile with K − 1
 * degrees of freedom (a few repeats estimate a variance poorly). The bootstrap keeps the shape
 * (skew, the joint spread of the agents); the scale is the t interval's. With one repeat there is
 * no spread between repeats: the within-repeat samples are used as they are.
 */
export function calibrate(
  points: readonly (number | null)[],
  raw: readonly (number | null)[],
  withinVariance: number,
  level: number,
): { mean: number | null; samples: (number | null)[] } {
  const xs = present(points);
  if (!xs.length) return { mean: null, samples: raw.map(() => null) };
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const rs = present(raw).sort((a, b) => a - b);
  if (!rs.length) return { mean, samples: raw.map(() => null) };
  const rawMean = rs.reduce((a, b) => a + b, 0) / rs.length;
  const k = xs.length;
  if (k < 2) return { mean, samples: raw.map((r) => (r === null ? null : mean + (r - rawMean))) };
  const p = 1 - (1 - level) / 2;
  // s² holds development and game luck together, estimated from K values: taken at Student's
  // quantile with K − 1 df. It cannot truly be smaller than the games' luck alone, the mean
  // within-repeat bootstrap variance w̄ (known well), which is its floor: a discrete metric such as
  // S of one game pair per pairing often comes out equal in two repeats. (Taking w̄ at the normal
  // quantile there, or only s² − w̄ at Student's, covered 87–93% at K = 2 and 4 in the simulation.)
  const halfWidth = studentQuantile(p, k - 1) * Math.sqrt(Math.max(variance(xs), withinVariance) / k);
  const rawHalf = (percentile(rs, p) - percentile(rs, 1 - p)) / 2;
  const lambda = rawHalf > 0 ? halfWidth / rawHalf : 0;
  return { mean, samples: raw.map((r) => (r === null ? null : mean + lambda * (r - rawMean))) };
}

/** bootstrap.ts's percentile interval over the finite values only (a repeat may lack a metric). */
const finiteInterval = (
  point: number | null,
  values: readonly (number | null)[],
  level: number,
  range: readonly [number, number],
): Interval => interval(point, present(values), level, range);

function rankShares(agents: readonly string[], draws: readonly (number | null)[][]): Record<string, number[]> {
  const tally = agents.map(() => agents.map(() => 0));
  for (const values of draws) tallyRanks(tally, values);
  return Object.fromEntries(agents.map((a, i) => [a, tally[i]!.map((c) => c / Math.max(1, draws.length))]));
}

/**
 * The combined intervals of one track over its repeats (the same agents and rounds in each), and
 * the calibrated samples of S and L per agent, from which the combined leaderboard's rank
 * probabilities are made (tracks are independent, as in a single run).
 */
export function combineRepeats(
  agents: readonly string[],
  rounds: number,
  repeats: readonly RepeatTrackSample[],
  options: CombineOptions = {},
): { result: CombinedIntervals; draws: { S: (number | null)[][]; L: (number | null)[][] } } {
  const samples = options.samples ?? 1000;
  const seed = options.seed ?? 1;
  const level = options.level ?? 0.95;
  const K = repeats.length;
  if (!K) throw new Error('combineRepeats: no repeats');
  const rng = createRng(deriveSeed('metrics.combined', seed, options.stream ?? ''));
  // Level 1 and level 2, shared by every agent and metric so their joint spread survives: sample b
  // takes repeats r_1..r_K with replacement and one within-repeat sample j_k of each.
  const picks = Array.from({ length: samples }, () =>
    Array.from({ length: K }, () => {
      const r = rng.int(0, K - 1);
      return [r, rng.int(0, repeats[r]!.draws.S.length - 1)] as const;
    }),
  );
  const series = (
    pointOf: (rep: RepeatTrackSample, a: number) => number | null,
    drawOf: (rep: RepeatTrackSample, j: number, a: number) => number | null,
    range: readonly [number, number],
  ) =>
    agents.map((_, a) => {
      const points = repeats.map((rep) => pointOf(rep, a));
      const raw = picks.map((pick) => {
        const vs = present(pick.map(([r, j]) => drawOf(repeats[r]!, j, a)));
        return vs.length ? vs.reduce((x, y) => x + y, 0) / vs.length : null;
      });
      const within = repeats.map((rep) => variance(present(rep.draws.S.map((_, j) => drawOf(rep, j, a)))));
      const c = calibrate(points, raw, within.reduce((x, y) => x + y, 0) / K, level);
      return { iv: finiteInterval(c.mean, c.samples, level, range), samples: c.samples };
    });
  const S = series(
    (rep, a) => rep.point.S[a] ?? null,
    (rep, j, a) => rep.draws.S[j]![a] ?? null,
    RANGE.S,
  );
  const L = series(
    (rep, a) => rep.point.L[a] ?? null,
    (rep, j, a) => rep.draws.L[j]![a] ?? null,
    RANGE.L,
  );
  const C = series(
    (rep, a) => rep.point.C[a] ?? null,
    (rep, j, a) => rep.draws.C[j]![a] ?? null,
    RANGE.C,
  );
  const SI = series(
    (rep, a) => rep.point.SI[a] ?? null,
    (rep, j, a) => rep.draws.SI[j]![a] ?? null,
    RANGE.SI,
  );
  const G = Array.from({ length: rounds }, (_, n) =>
    series(
      (rep, a) => rep.point.G[a]?.[n] ?? null,
      (rep, j, a) => rep.draws.G[j]![a]?.[n] ?? null,
      RANGE.G,
    ),
  );
  const perAgent: Record<string, AgentIntervals> = {};
  agents.forEach((agent, a) => {
    perAgent[agent] = { S: S[a]!.iv, L: L[a]!.iv, C: C[a]!.iv, SI: SI[a]!.iv, G: G.map((g) => g[a]!.iv) };
  });
  const byDraw = (xs: Array<{ samples: (number | null)[] }>) =>
    picks.map((_, b) => xs.map((x) => x.samples[b] ?? null));
  const drawsS = byDraw(S);
  const drawsL = byDraw(L);
  return {
    result: {
      samples,
      seed,
      level,
      repeats: K,
      method: 'two-level',
      perAgent,
      rankProbabilities: { S: rankShares(agents, drawsS), L: rankShares(agents, drawsL) },
      above: { S: aboveMatrix(agents, drawsS), L: aboveMatrix(agents, drawsL) },
    },
    draws: { S: drawsS, L: drawsL },
  };
}
