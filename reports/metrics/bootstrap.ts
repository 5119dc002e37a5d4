// Seeded percentile-bootstrap confidence intervals for the per-agent metrics, and rank
// probabilities. Resampling unit: the games of one pair of strategies (both W cells (a,b) and
// (b,a), so complementarity survives), drawn with replacement; games sharing a `group` (the two
// colour-swapped games of a pairing) form one unit and are drawn together. Groups are resampled
// within their pair of strategies.
import { createRng, deriveSeed } from '../../games/core/rng.ts';
import { ScoreMatrix, strategyIndex, type GameResult } from './score-matrix.ts';
import { counterAdaptation, globalLearning, globalPerformance, ranks, selfImprovement, strategyCoding } from './metrics.ts';
import type { AgentIntervals, BootstrapResult, Interval } from '../../model/metrics.ts';

export interface BootstrapOptions {
  /** Bootstrap samples (default 1000). */
  samples?: number;
  /** Run seed; the stream is deriveSeed('metrics.bootstrap', seed) (default 1). */
  seed?: number;
  /** Confidence level (default 0.95: the 2.5 and 97.5 percentiles). */
  level?: number;
}

export const BOOTSTRAP_DEFAULTS: Required<BootstrapOptions> = { samples: 1000, seed: 1, level: 0.95 };

/** One resampling unit: a group's (or a lone game's) score sums in both directions. */
interface Unit {
  sumST: number;
  sumTS: number;
  games: number;
}

interface PairCell {
  s: number;
  t: number;
  units: Unit[];
}

function buildCells(shape: ScoreMatrix, games: readonly GameResult[]): PairCell[] {
  const cells = new Map<number, PairCell & { byGroup: Map<string, Unit> }>();
  for (const g of games) {
    const a = strategyIndex(shape, g.a);
    const b = strategyIndex(shape, g.b);
    if (a === b) continue; // as in fromGames: the diagonal is ignored
    const [s, t, sumST, sumTS] = a < b ? [a, b, g.scoreA, g.scoreB] : [b, a, g.scoreB, g.scoreA];
    const key = s * shape.size + t;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { s, t, units: [], byGroup: new Map() }));
    let unit = g.group === undefined ? undefined : cell.byGroup.get(g.group);
    if (!unit) {
      unit = { sumST: 0, sumTS: 0, games: 0 };
      cell.units.push(unit);
      if (g.group !== undefined) cell.byGroup.set(g.group, unit);
    }
    unit.sumST += sumST;
    unit.sumTS += sumTS;
    unit.games += 1;
  }
  return [...cells.values()].map(({ s, t, units }) => ({ s, t, units }));
}

/** Adds one unit into W's sum/count arrays (both directions). */
function add(w: ScoreMatrix, cell: PairCell, u: Unit): void {
  const st = cell.s * w.size + cell.t;
  const ts = cell.t * w.size + cell.s;
  w.sums[st] += u.sumST;
  w.sums[ts] += u.sumTS;
  w.counts[st] += u.games;
  w.counts[ts] += u.games;
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
function percentile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

function interval(point: number | null, values: readonly (number | null)[], level: number): Interval {
  const sorted = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (sorted.length === 0) return { point, lo: null, hi: null, samples: 0 };
  const tail = (1 - level) / 2;
  return { point, lo: percentile(sorted, tail), hi: percentile(sorted, 1 - tail), samples: sorted.length };
}

/** Adds one sample's ranks into per-agent rank tallies, splitting ties evenly over the ranks they span. */
function tallyRanks(tally: number[][], agents: readonly string[], values: readonly (number | null)[]): void {
  const r = ranks(Object.fromEntries(agents.map((a, i) => [a, values[i] ?? null])));
  const rs = agents.map((a) => r[a] ?? null);
  rs.forEach((rank, i) => {
    if (rank === null) return;
    const k = rs.filter((x) => x === rank).length;
    for (let pos = rank - (k - 1) / 2; pos <= rank + (k - 1) / 2; pos++) tally[i]![pos - 1]! += 1 / k;
  });
}

/** 95% (by default) bootstrap intervals for S, L, C, SI and G^n per agent, plus rank probabilities for S and L. */
export function bootstrapMetrics(
  agents: readonly string[],
  rounds: number,
  games: readonly GameResult[],
  options: BootstrapOptions = {},
): BootstrapResult {
  const { samples, seed, level } = { ...BOOTSTRAP_DEFAULTS, ...options };
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`bootstrap: bad sample count ${samples}`);
  if (!(level > 0 && level < 1)) throw new Error(`bootstrap: level ${level} outside (0, 1)`);

  const w = new ScoreMatrix(agents, rounds);
  const cells = buildCells(w, games);
  // The point estimate accumulates the same units as the samples, so a sample that draws every
  // unit once reproduces it bit for bit (identical units give zero-width intervals).
  for (const cell of cells) for (const u of cell.units) add(w, cell, u);
  const point = snapshot(w);

  const rng = createRng(deriveSeed('metrics.bootstrap', seed));
  const draws: Snapshot[] = [];
  const rankTally = { S: agents.map(() => agents.map(() => 0)), L: agents.map(() => agents.map(() => 0)) };
  for (let b = 0; b < samples; b++) {
    w.sums.fill(0);
    w.counts.fill(0);
    for (const cell of cells) {
      const k = cell.units.length;
      for (let d = 0; d < k; d++) add(w, cell, cell.units[rng.int(0, k - 1)]!);
    }
    const snap = snapshot(w);
    draws.push(snap);
    tallyRanks(rankTally.S, agents, snap.S);
    tallyRanks(rankTally.L, agents, snap.L);
  }

  const perAgent: Record<string, AgentIntervals> = {};
  agents.forEach((agent, i) => {
    const metric = (key: 'S' | 'L' | 'C' | 'SI') =>
      interval(point[key][i] ?? null, draws.map((d) => d[key][i] ?? null), level);
    perAgent[agent] = {
      S: metric('S'),
      L: metric('L'),
      C: metric('C'),
      SI: metric('SI'),
      G: point.G[i]!.map((g, n) => interval(g, draws.map((d) => d.G[i]![n] ?? null), level)),
    };
  });
  const shares = (tally: number[][]) =>
    Object.fromEntries(agents.map((a, i) => [a, tally[i]!.map((c) => c / samples)]));
  return {
    samples,
    seed,
    level,
    perAgent,
    rankProbabilities: { S: shares(rankTally.S), L: shares(rankTally.L) },
  };
}
