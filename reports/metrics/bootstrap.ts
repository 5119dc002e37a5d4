// Seeded percentile-bootstrap confidence intervals for the per-agent metrics, rank
// probabilities and who is ahead of whom. Each sample redraws every pair of strategies' units
// (both W cells (a,b) and (b,a) from the same draw, so complementarity survives; games sharing a
// `group`, e.g. a colour-swapped pair, are one unit) with replacement, and then moves the pair's
// mean by a normal draw with the variance that resampling its own units cannot produce
// (cells.ts): all of it for a pair played once, none for a pair whose own units vary as much as
// the model says. This is a smoothed bootstrap (Davison & Hinkley 1997, §3.4); without the
// smoothing a tourney with one game pair per pairing would give every interval zero width.
import { createRng, deriveSeed, type Rng } from '../../util/rng.ts';
import { cellModel, type CellModel, type PairCell, type Unit } from './cells.ts';
import { ScoreMatrix, type GameResult } from './score-matrix.ts';
import {
  counterAdaptation,
  globalLearning,
  globalPerformance,
  rankList,
  selfImprovement,
  strategyCoding,
} from './metrics.ts';
import type { AgentIntervals, BootstrapResult, Interval } from '../../records/metrics.ts';

export interface BootstrapOptions {
  /** Bootstrap samples (default 1000). */
  samples?: number;
  /** Run seed; the stream is deriveSeed('metrics.bootstrap', seed) (default 1). */
  seed?: number;
  /** Confidence level (default 0.95: the 2.5 and 97.5 percentiles). */
  level?: number;
}

export const BOOTSTRAP_DEFAULTS: Required<BootstrapOptions> = { samples: 1000, seed: 1, level: 0.95 };

/** Adds one unit into W's sum/count arrays (both directions). */
function add(w: ScoreMatrix, cell: PairCell, u: Unit): void {
  const st = cell.s * w.size + cell.t;
  const ts = cell.t * w.size + cell.s;
  w.sums[st]! += u.sumST;
  w.sums[ts]! += u.sumTS;
  w.counts[st]! += u.games;
  w.counts[ts]! += u.games;
}

/**
 * Moves the pair's mean score by ε on s's side and −ε on t's (the games stay complementary). Not
 * clipped to [0, 1]: a pair that won both its games must still be able to move both ways, or its
 * spread would be halved; the metrics' intervals are clipped to their ranges at the end instead.
 */
function shift(w: ScoreMatrix, cell: PairCell, epsilon: number): void {
  const st = cell.s * w.size + cell.t;
  const ts = cell.t * w.size + cell.s;
  w.sums[st]! += epsilon * w.counts[st]!;
  w.sums[ts]! -= epsilon * w.counts[ts]!;
}

/** A standard normal draw (Box–Muller) from the seeded stream. */
function gaussian(rng: Rng): number {
  const u = 1 - rng.float(); // (0, 1]
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

interface Snapshot {
  S: (number | null)[];
  L: (number | null)[];
  C: (number | null)[];
  SI: (number | null)[];
  G: (number | null)[][];
}

function snapshot(w: ScoreMatrix): Snapshot {
  const agents = w.agents.map((_, i) => i);
  const rounds = Array.from({ length: w.rounds }, (_, k) => k + 1);
  return {
    S: agents.map((i) => strategyCoding(w, i)),
    L: agents.map((i) => globalLearning(w, i)),
    C: agents.map((i) => counterAdaptation(w, i)),
    SI: agents.map((i) => {
      const si = selfImprovement(w, i);
      return si.defined ? si.value : null;
    }),
    G: agents.map((i) => rounds.map((n) => globalPerformance(w, i, n))),
  };
}

/** Percentile with linear interpolation between order statistics (numpy's default). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * The non-null values in ascending order. A Float64Array's numeric sort gives the same order as
 * sort((a, b) => a − b) except around NaN and −0 (which the comparator leaves in input order):
 * with either present, the comparator sort is used.
 */
function sortedValues(values: readonly (number | null)[]): ArrayLike<number> {
  const out = new Float64Array(values.length);
  let n = 0;
  for (const v of values) {
    if (v === null) continue;
    if (Number.isNaN(v) || Object.is(v, -0)) return values.filter((x): x is number => x !== null).sort((a, b) => a - b);
    out[n++] = v;
  }
  return out.subarray(0, n).sort();
}

/** The metric's percentile interval, clipped to the metric's range [min, max]. */
export function interval(
  point: number | null,
  values: readonly (number | null)[],
  level: number,
  [min, max]: readonly [number, number],
): Interval {
  const sorted = sortedValues(values);
  if (sorted.length === 0) return { point, lo: null, hi: null, samples: 0 };
  const tail = (1 - level) / 2;
  const clip = (x: number) => Math.min(max, Math.max(min, x));
  return { point, lo: clip(percentile(sorted, tail)), hi: clip(percentile(sorted, 1 - tail)), samples: sorted.length };
}

/** Where each metric can lie: scores in [0, 1], differences of scores and correlations in [−1, 1]. */
export const RANGE = { S: [0, 1], G: [0, 1], L: [-1, 1], C: [-1, 1], SI: [-1, 1] } as const;

/** Adds one sample's ranks into per-agent rank tallies, splitting ties evenly over the ranks they span. */
export function tallyRanks(tally: number[][], values: readonly (number | null)[]): void {
  const r = rankList(values);
  const tied = new Map<number, number>(); // rank → how many agents share it
  for (const rank of r) if (rank !== null) tied.set(rank, (tied.get(rank) ?? 0) + 1);
  r.forEach((rank, i) => {
    if (rank === null) return;
    const k = tied.get(rank)!;
    for (let pos = rank - (k - 1) / 2; pos <= rank + (k - 1) / 2; pos++) tally[i]![pos - 1]! += 1 / k;
  });
}

/**
 * Per sample, each agent's S and L ([sample][agent]): the leaderboard's rank probabilities combine
 * them over tracks; C, SI and G ([sample][agent][round − 1]) feed the combined intervals over repeats.
 */
export interface BootstrapDraws {
  S: (number | null)[][];
  L: (number | null)[][];
  C: (number | null)[][];
  SI: (number | null)[][];
  G: (number | null)[][][];
}

/** P(a's metric > b's) over the samples where both are defined, ties counting ½; null without such samples. */
export function aboveMatrix(
  agents: readonly string[],
  values: readonly (number | null)[][],
): Record<string, Record<string, number | null>> {
  const out: Record<string, Record<string, number | null>> = {};
  agents.forEach((a, i) => {
    out[a] = {};
    agents.forEach((b, j) => {
      if (i === j) return;
      let wins = 0;
      let n = 0;
      for (const v of values) {
        const x = v[i];
        const y = v[j];
        if (x === null || x === undefined || y === null || y === undefined) continue;
        n++;
        wins += x > y ? 1 : x === y ? 0.5 : 0;
      }
      out[a]![b] = n ? wins / n : null;
    });
  });
  return out;
}

/** 95% (by default) bootstrap intervals for S, L, C, SI and G^n per agent, plus rank probabilities for S and L. */
export function bootstrapMetrics(
  agents: readonly string[],
  rounds: number,
  games: readonly GameResult[],
  options: BootstrapOptions = {},
): BootstrapResult {
  return bootstrapWithDraws(agents, rounds, games, options).result;
}

export function bootstrapWithDraws(
  agents: readonly string[],
  rounds: number,
  games: readonly GameResult[],
  options: BootstrapOptions = {},
): { result: BootstrapResult; draws: BootstrapDraws; model: CellModel } {
  const { samples, seed, level } = { ...BOOTSTRAP_DEFAULTS, ...options };
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`bootstrap: bad sample count ${samples}`);
  if (!(level > 0 && level < 1)) throw new Error(`bootstrap: level ${level} outside (0, 1)`);

  const w = new ScoreMatrix(agents, rounds);
  const model = cellModel(w, games);
  const { cells, spreads } = model;
  // The point estimate accumulates the same units as the samples, so a sample that draws every
  // unit once (and no smoothing) reproduces it bit for bit.
  for (const cell of cells) for (const u of cell.units) add(w, cell, u);
  const point = snapshot(w);

  const rng = createRng(deriveSeed('metrics.bootstrap', seed));
  const draws: Snapshot[] = [];
  const rankTally = { S: agents.map(() => agents.map(() => 0)), L: agents.map(() => agents.map(() => 0)) };
  for (let b = 0; b < samples; b++) {
    w.sums.fill(0);
    w.counts.fill(0);
    cells.forEach((cell, c) => {
      const k = cell.units.length;
      for (let d = 0; d < k; d++) add(w, cell, cell.units[rng.int(0, k - 1)]!);
      const missing = spreads[c]!.missingVariance;
      if (missing > 0) shift(w, cell, Math.sqrt(missing) * gaussian(rng));
    });
    const snap = snapshot(w);
    draws.push(snap);
    tallyRanks(rankTally.S, snap.S);
    tallyRanks(rankTally.L, snap.L);
  }

  const perAgent: Record<string, AgentIntervals> = {};
  agents.forEach((agent, i) => {
    const metric = (key: 'S' | 'L' | 'C' | 'SI') =>
      interval(
        point[key][i] ?? null,
        draws.map((d) => d[key][i] ?? null),
        level,
        RANGE[key],
      );
    perAgent[agent] = {
      S: metric('S'),
      L: metric('L'),
      C: metric('C'),
      SI: metric('SI'),
      G: point.G[i]!.map((g, n) =>
        interval(
          g,
          draws.map((d) => d.G[i]![n] ?? null),
          level,
          RANGE.G,
        ),
      ),
    };
  });
  const shares = (tally: number[][]) =>
    Object.fromEntries(agents.map((a, i) => [a, tally[i]!.map((c) => c / samples)]));
  const S = draws.map((d) => d.S);
  const L = draws.map((d) => d.L);
  return {
    result: {
      samples,
      seed,
      level,
      method: 'smoothed',
      dispersion: model.dispersion,
      perAgent,
      rankProbabilities: { S: shares(rankTally.S), L: shares(rankTally.L) },
      above: { S: aboveMatrix(agents, S), L: aboveMatrix(agents, L) },
    },
    draws: { S, L, C: draws.map((d) => d.C), SI: draws.map((d) => d.SI), G: draws.map((d) => d.G) },
    model,
  };
}
