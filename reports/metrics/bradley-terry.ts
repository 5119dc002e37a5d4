// Bradley–Terry ratings over strategies: P(a beats b) = p_a / (p_a + p_b), fitted by maximum
// likelihood with Hunter's (2004) MM iteration  p_i ← W_i / Σ_j n_ij / (p_i + p_j),  where W_i is
// i's total score (a draw is half a win, a Bridge VP/20 score a fractional win) and n_ij the games
// between i and j. Reported on the Elo scale 400·log10(p), centred on mean 0.
import type { ScoreMatrix } from './score-matrix.ts';

export interface BradleyTerryOptions {
  /**
   * Virtual drawn games added between every two strategies (default 0.5). It keeps the MLE finite
   * when a strategy won (or lost) everything and connects strategies that never met; must be > 0.
   */
  prior?: number;
  /** Iteration cap (default 10 000). */
  maxIterations?: number;
  /** Stop when no log-strength moves more than this (default 1e-10). */
  tolerance?: number;
}

export const BRADLEY_TERRY_DEFAULTS: Required<BradleyTerryOptions> = {
  prior: 0.5,
  maxIterations: 10_000,
  tolerance: 1e-10,
};

export interface BradleyTerryResult {
  /** Strategy labels "agent@round", in strategy order. */
  strategies: string[];
  /** Strengths p, normalised to geometric mean 1. */
  strength: number[];
  /** 400·log10(p), mean 0. */
  elo: number[];
  /** label → Elo. */
  byStrategy: Record<string, number>;
  iterations: number;
  converged: boolean;
}

/**
 * Pairwise data from W. Each pair's games are read from both cells and averaged, so for pairwise
 * games (W[a,b] + W[b,a] = 1) it is exactly the game record, and a non-complementary W (e.g. from
 * fromMatrix) uses both views equally: n_ij = (c_ij + c_ji)/2, wins_ij = (s_ij + c_ji − s_ji)/2.
 */
function pairData(W: ScoreMatrix, prior: number): { n: Float64Array; wins: Float64Array } {
  const size = W.size;
  const n = new Float64Array(size * size);
  const wins = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      if (i === j) continue;
      const cij = W.counts[i * size + j]!;
      const cji = W.counts[j * size + i]!;
      n[i * size + j] = (cij + cji) / 2 + prior;
      wins[i]! += (W.sums[i * size + j]! + cji - W.sums[j * size + i]!) / 2 + prior / 2;
    }
  }
  return { n, wins };
}

export function bradleyTerry(W: ScoreMatrix, options: BradleyTerryOptions = {}): BradleyTerryResult {
  const { prior, maxIterations, tolerance } = { ...BRADLEY_TERRY_DEFAULTS, ...options };
  if (!(prior > 0)) throw new Error(`bradleyTerry: prior must be > 0, got ${prior}`);
  const size = W.size;
  const { n, wins } = pairData(W, prior);
  let p = new Float64Array(size).fill(1);
  let iterations = 0;
  let converged = size < 2;
  while (!converged && iterations < maxIterations) {
    iterations++;
    const next = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      let denom = 0;
      for (let j = 0; j < size; j++) if (j !== i) denom += n[i * size + j]! / (p[i]! + p[j]!);
      next[i] = wins[i]! / denom;
    }
    // Strengths are defined up to a common factor: fix the geometric mean at 1.
    const logMean = next.reduce((acc, v) => acc + Math.log(v), 0) / size;
    let moved = 0;
    for (let i = 0; i < size; i++) {
      next[i] = Math.exp(Math.log(next[i]!) - logMean);
      moved = Math.max(moved, Math.abs(Math.log(next[i]!) - Math.log(p[i]!)));
    }
    p = next;
    converged = moved < tolerance;
  }
  const raw = Array.from(p, (v) => 400 * Math.log10(v));
  const centre = raw.reduce((a, b) => a + b, 0) / size;
  const elo = raw.map((v) => v - centre + 0);
  const strategies = Array.from({ length: size }, (_, s) => W.label(s));
  return {
    strategies,
    strength: Array.from(p),
    elo,
    byStrategy: Object.fromEntries(strategies.map((label, s) => [label, elo[s]!])),
    iterations,
    converged,
  };
}
