// The Bradley–Terry model with explicit draws (Davidson 1970): for players i and j with
// strengths π,
//   P(i beats j) = π_i / D,   P(draw) = ν·√(π_i π_j) / D,   D = π_i + π_j + ν·√(π_i π_j).
// Fitted by maximum likelihood with Davidson's fixed-point equations
//   π_i ← (W_i + D_i/2) / Σ_j n_ij (1 + (ν/2)·√(π_j/π_i)) / D_ij,   ν ← D / Σ_{i<j} n_ij √(π_iπ_j) / D_ij
// (W_i: i's wins, D_i: i's draws, D: all draws), which reduce to Hunter's (2004) MM iteration for
// plain Bradley–Terry when there are no draws. A score strictly between 0 and 1 other than ½ (a
// Bridge VP/20, a Hold'em projection) counts as that fraction of a win and the rest of a loss.
// Used for the ratings (ratings.ts) and as the smooth model of every cell's expected score and
// spread behind the intervals (cells.ts).

export interface PairRecord {
  /** wins[i·P + j]: i's (fractional) wins against j. */
  wins: Float64Array;
  /** draws[i·P + j] = draws[j·P + i]: games between i and j scored ½–½. */
  draws: Float64Array;
}

export interface DavidsonOptions {
  /**
   * Virtual games per player (default 1), spread evenly over its P − 1 opponents and half won by
   * each side: keeps the estimate finite for a player that won (or lost) everything and connects
   * players that never met. Per player rather than per pair, so a big field with few games per
   * pair is not pulled towards equal strengths (with 0.5 games per pair, 12 strategies playing
   * one colour-swapped pair each, a 700-Elo spread shrank enough to drop 95% intervals to 75%
   * coverage).
   */
  prior?: number;
  maxIterations?: number;
  /** Stop when no log-strength and not ln ν moves more than this (default 1e-10). */
  tolerance?: number;
}

export const DAVIDSON_DEFAULTS: Required<DavidsonOptions> = { prior: 1, maxIterations: 10_000, tolerance: 1e-10 };

export interface DavidsonFit {
  players: number;
  /** Natural log-strengths θ = ln π, mean 0. */
  theta: Float64Array;
  /** The draw parameter ν (0 when no game was drawn). */
  nu: number;
  /** Games between i and j, prior included (n[i·P + j]). */
  n: Float64Array;
  iterations: number;
  converged: boolean;
}

/** An empty record for P players. */
export function emptyRecord(players: number): PairRecord {
  return { wins: new Float64Array(players * players), draws: new Float64Array(players * players) };
}

/** Adds one game, i's score x ∈ [0, 1] against j. */
export function addGame(record: PairRecord, players: number, i: number, j: number, x: number): void {
  if (i === j) return;
  if (x === 0.5) {
    record.draws[i * players + j]! += 1;
    record.draws[j * players + i]! += 1;
    return;
  }
  record.wins[i * players + j]! += x;
  record.wins[j * players + i]! += 1 - x;
}

export function fitDavidson(record: PairRecord, players: number, options: DavidsonOptions = {}): DavidsonFit {
  const { prior, maxIterations, tolerance } = { ...DAVIDSON_DEFAULTS, ...options };
  if (!(prior > 0)) throw new Error(`fitDavidson: prior must be > 0, got ${prior}`);
  const P = players;
  const perPair = P > 1 ? prior / (P - 1) : 0;
  const n = new Float64Array(P * P);
  const score = new Float64Array(P); // W_i + D_i/2, prior included
  let drawTotal = 0;
  for (let i = 0; i < P; i++) {
    for (let j = 0; j < P; j++) {
      if (i === j) continue;
      const k = i * P + j;
      n[k] = record.wins[k]! + record.wins[j * P + i]! + record.draws[k]! + perPair;
      score[i]! += record.wins[k]! + record.draws[k]! / 2 + perPair / 2;
      if (i < j) drawTotal += record.draws[k]!;
    }
  }
  const pi = new Float64Array(P).fill(1);
  let nu = drawTotal > 0 ? 1 : 0;
  let iterations = 0;
  let converged = P < 2 && drawTotal === 0;
  while (!converged && iterations < maxIterations) {
    iterations++;
    const next = new Float64Array(P);
    for (let i = 0; i < P; i++) {
      let denom = 0;
      for (let j = 0; j < P; j++) {
        if (j === i) continue;
        const root = Math.sqrt(pi[i]! * pi[j]!);
        denom += (n[i * P + j]! * (1 + (nu / 2) * Math.sqrt(pi[j]! / pi[i]!))) / (pi[i]! + pi[j]! + nu * root);
      }
      next[i] = denom > 0 ? score[i]! / denom : 1;
    }
    // Strengths are defined up to a common factor: fix the geometric mean at 1.
    const logMean = next.reduce((acc, v) => acc + Math.log(v), 0) / P;
    let moved = 0;
    for (let i = 0; i < P; i++) {
      next[i] = Math.exp(Math.log(next[i]!) - logMean);
      moved = Math.max(moved, Math.abs(Math.log(next[i]!) - Math.log(pi[i]!)));
      pi[i] = next[i]!;
    }
    if (drawTotal > 0) {
      let denom = 0;
      for (let i = 0; i < P; i++) {
        for (let j = i + 1; j < P; j++) {
          const root = Math.sqrt(pi[i]! * pi[j]!);
          denom += (n[i * P + j]! * root) / (pi[i]! + pi[j]! + nu * root);
        }
      }
      const nextNu = drawTotal / denom;
      moved = Math.max(moved, Math.abs(Math.log(nextNu) - Math.log(nu)));
      nu = nextNu;
    }
    converged = moved < tolerance;
  }
  const theta = Float64Array.from(pi, (p) => Math.log(p));
  return { players: P, theta, nu, n, iterations, converged };
}

/** Under the fit: i's expected score against j, the chance of a draw, and the variance of one game's score. */
export function pairModel(
  fit: DavidsonFit,
  i: number,
  j: number,
): { expected: number; draw: number; variance: number } {
  const pi = Math.exp(fit.theta[i]!);
  const pj = Math.exp(fit.theta[j]!);
  const root = fit.nu * Math.sqrt(pi * pj);
  const denom = pi + pj + root;
  const expected = (pi + root / 2) / denom;
  const draw = root / denom;
  // A game scores 1, ½ or 0: Var = E(1 − E) − P(draw)/4. This is also the Fisher information
  // one game carries about θ_i − θ_j.
  return { expected, draw, variance: Math.max(expected * (1 - expected) - draw / 4, 1e-9) };
}

/**
 * The covariance of θ (sum-zero constraint) from the observed information, times a dispersion:
 * the Moore–Penrose inverse of the information Laplacian, computed as (L + J/P)⁻¹ − J/P.
 */
export function thetaCovariance(fit: DavidsonFit, dispersion = 1): Float64Array {
  const P = fit.players;
  const L = new Float64Array(P * P);
  for (let i = 0; i < P; i++) {
    for (let j = i + 1; j < P; j++) {
      const h = fit.n[i * P + j]! * pairModel(fit, i, j).variance;
      L[i * P + j]! -= h;
      L[j * P + i]! -= h;
      L[i * P + i]! += h;
      L[j * P + j]! += h;
    }
  }
  for (let k = 0; k < P * P; k++) L[k]! += 1 / P;
  const inv = invert(L, P);
  for (let k = 0; k < P * P; k++) inv[k] = (inv[k]! - 1 / P) * dispersion;
  return inv;
}

/** Inverse of a symmetric positive definite P×P matrix by Gauss–Jordan elimination with partial pivoting. */
function invert(matrix: Float64Array, P: number): Float64Array {
  const a = Float64Array.from(matrix);
  const inv = new Float64Array(P * P);
  for (let i = 0; i < P; i++) inv[i * P + i] = 1;
  for (let col = 0; col < P; col++) {
    let pivot = col;
    for (let r = col + 1; r < P; r++) if (Math.abs(a[r * P + col]!) > Math.abs(a[pivot * P + col]!)) pivot = r;
    if (Math.abs(a[pivot * P + col]!) < 1e-300) throw new Error('thetaCovariance: singular information matrix');
    if (pivot !== col) {
      for (let c = 0; c < P; c++) {
        [a[col * P + c], a[pivot * P + c]] = [a[pivot * P + c]!, a[col * P + c]!];
        [inv[col * P + c], inv[pivot * P + c]] = [inv[pivot * P + c]!, inv[col * P + c]!];
      }
    }
    const d = a[col * P + col]!;
    for (let c = 0; c < P; c++) {
      a[col * P + c]! /= d;
      inv[col * P + c]! /= d;
    }
    for (let r = 0; r < P; r++) {
      if (r === col) continue;
      const f = a[r * P + col]!;
      if (f === 0) continue;
      for (let c = 0; c < P; c++) {
        a[r * P + c]! -= f * a[col * P + c]!;
        inv[r * P + c]! -= f * inv[col * P + c]!;
      }
    }
  }
  return inv;
}
