// A sequential probability ratio test between two bots, as fishtest and fastchess run one: the
// generalized SPRT (GSPRT) under the logistic Elo model. Pure: no I/O, no clock.
//
// The data are *units*, each a score in [0, 1] from A's side: a colour-swapped game pair (the mean
// of its two games, so one of the five pentanomial values 0, ¼, ½, ¾, 1), two Hold'em table rounds
// on the same deals with the seats swapped, or a Bridge duplicate match (VP / 20). Units are
// independent where single games of a pair are not, which is why the test counts units.
//
// H0: A is elo0 stronger than B; H1: A is elo1 stronger (elo0 < elo1). For a hypothesized mean
// score s = 1 / (1 + 10^(−elo/400)), the maximum-likelihood distribution on the observed support
// with mean s is p_i = p̂_i / (1 + θ(a_i − s)), θ the root of Σ p̂_i (a_i − s) / (1 + θ(a_i − s)) = 0
// (M. Van den Bergh, "Comments on Normalized Elo", proposition 1.1). The log-likelihood ratio is
// LLR = N · Σ p̂_i (ln p1_i − ln p0_i), N the number of units; the test accepts H1 once
// LLR ≥ ln((1 − β) / α), H0 once LLR ≤ ln(β / (1 − α)), and continues in between.
//
// Support: when every unit is a multiple of ¼ (pairs of W/D/L games) it is the five pentanomial
// values; otherwise the distinct observed values plus 0 and 1. Values never observed count 1e-3
// (fastchess's regularization), so every s in (0, 1) has a distribution with that mean and the
// LLR stays finite after a one-sided start.
import type { MatchResult } from '../../records/match.ts';
import { pairwiseGames } from './batch.ts';

export interface SprtParams {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

export const SPRT_DEFAULTS: Readonly<SprtParams> = { elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 };

/** Count given to a support value never observed (fastchess's). */
export const REGULARIZATION = 1e-3;

export type SprtDecision = 'H0' | 'H1' | 'continue';

export interface EloEstimate {
  /** Logistic Elo of the mean unit score (±Infinity at a score of 1 or 0; JSON: null). */
  elo: number;
  /** 95% interval: the Elo of mean ± 1.96 standard errors. */
  lower: number;
  upper: number;
  /** Half the interval's width, fastchess's "±". */
  error: number;
  /** Likelihood of superiority: P(true score > ½) under the normal approximation. */
  los: number;
  /** Mean unit score and its standard error. */
  score: number;
  stderr: number;
}

export interface SprtResult extends SprtParams {
  llr: number;
  lower: number;
  upper: number;
  decision: SprtDecision;
  /** Units the test has seen (pairs, Hold'em deal pairs, Bridge matches). */
  units: number;
  estimate: EloEstimate;
  /** Unit counts LL, LD, DD+WL, WD, WW (scores 0, ¼, ½, ¾, 1) when every unit is a multiple of ¼. */
  pentanomial?: [number, number, number, number, number];
}

export class SprtParamError extends Error {}

/**
 * `elo0=0,elo1=10,alpha=0.05,beta=0.05`: any of the four keys, in any order, the rest defaulted.
 * Throws SprtParamError naming the key at fault.
 */
export function parseSprtParams(text: string): SprtParams {
  const out: SprtParams = { ...SPRT_DEFAULTS };
  const seen = new Set<string>();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9_]+)\s*=\s*(.*)$/.exec(part);
    if (!m)
      throw new SprtParamError(`expected key=value pairs such as elo0=0,elo1=10,alpha=0.05,beta=0.05, got "${part}"`);
    const key = m[1]!;
    if (!(key in SPRT_DEFAULTS))
      throw new SprtParamError(`unknown key "${key}" (the keys are elo0, elo1, alpha, beta)`);
    if (seen.has(key)) throw new SprtParamError(`${key} is given twice`);
    seen.add(key);
    const value = m[2]!.trim();
    const n = Number(value);
    if (value === '' || !Number.isFinite(n)) throw new SprtParamError(`${key} must be a number, got "${value}"`);
    out[key as keyof SprtParams] = n;
  }
  checkSprtParams(out);
  return out;
}

export function checkSprtParams(p: SprtParams): void {
  if (!(p.alpha > 0 && p.alpha < 1))
    throw new SprtParamError(`alpha must be between 0 and 1 (exclusive), got ${p.alpha}`);
  if (!(p.beta > 0 && p.beta < 1)) throw new SprtParamError(`beta must be between 0 and 1 (exclusive), got ${p.beta}`);
  if (!(p.alpha + p.beta < 1))
    throw new SprtParamError(`alpha + beta must be less than 1, got alpha=${p.alpha}, beta=${p.beta}`);
  if (!(p.elo0 < p.elo1)) throw new SprtParamError(`elo0 must be less than elo1, got elo0=${p.elo0}, elo1=${p.elo1}`);
  // Scores of ±2000 Elo and beyond round to 0 or 1 in double precision: no distribution has them as a mean.
  for (const key of ['elo0', 'elo1'] as const) {
    if (Math.abs(p[key]) > 1000) throw new SprtParamError(`${key} must be between -1000 and 1000, got ${p[key]}`);
  }
}

/** Wald's bounds: [ln(β / (1 − α)), ln((1 − β) / α)]. */
export function sprtBounds(p: Pick<SprtParams, 'alpha' | 'beta'>): { lower: number; upper: number } {
  return { lower: Math.log(p.beta / (1 - p.alpha)), upper: Math.log((1 - p.beta) / p.alpha) };
}

/** Expected score of a player `elo` stronger (logistic). */
export function scoreOfElo(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** Logistic Elo of a mean score: −400 log10(1/s − 1); ±Infinity at 1 and 0. */
export function eloOfScore(s: number): number {
  if (s >= 1) return Infinity;
  if (s <= 0) return -Infinity;
  return -400 * Math.log10(1 / s - 1);
}

/** A discrete distribution of unit scores: support values and (regularized) counts. */
export interface UnitCounts {
  values: number[];
  counts: number[];
  /** The number of units observed (not regularized). */
  n: number;
}

const PENTANOMIAL = [0, 0.25, 0.5, 0.75, 1];
const onQuarterGrid = (u: number) => Math.abs(u * 4 - Math.round(u * 4)) < 1e-9;

function checkUnit(u: number): void {
  if (!(u >= 0 && u <= 1)) throw new RangeError(`a unit score must be in [0, 1], got ${u}`);
}

/** Pentanomial counts (LL, LD, DD+WL, WD, WW) of units that are all multiples of ¼, else undefined. */
export function pentanomialOf(units: readonly number[]): [number, number, number, number, number] | undefined {
  if (!units.every(onQuarterGrid)) return undefined;
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const u of units) {
    checkUnit(u);
    counts[Math.round(u * 4)]!++;
  }
  return counts;
}

/** The empirical distribution the test works on: support and counts, unobserved values regularized. */
export function unitCounts(units: readonly number[]): UnitCounts {
  const penta = pentanomialOf(units);
  if (penta) return { values: [...PENTANOMIAL], counts: penta.map((c) => c || REGULARIZATION), n: units.length };
  const byValue = new Map<number, number>([
    [0, 0],
    [1, 0],
  ]);
  for (const u of units) {
    checkUnit(u);
    const key = Math.round(u * 1e9) / 1e9; // 13.45 / 20 twice is one value
    byValue.set(key, (byValue.get(key) ?? 0) + 1);
  }
  const values = [...byValue.keys()].sort((a, b) => a - b);
  return { values, counts: values.map((v) => byValue.get(v) || REGULARIZATION), n: units.length };
}

/**
 * The maximum-likelihood distribution on `values` with mean `s`, given empirical probabilities
 * `probs` (proposition 1.1): p_i = p̂_i / (1 + θ(a_i − s)). θ is found by bisection inside
 * (−1/(a_max − s), −1/(a_min − s)), where the left side is decreasing from +∞ to −∞.
 */
export function mleWithMean(values: readonly number[], probs: readonly number[], s: number): number[] {
  const aMin = Math.min(...values);
  const aMax = Math.max(...values);
  if (!(aMin < s && s < aMax)) throw new RangeError(`no distribution on [${aMin}, ${aMax}] has mean ${s}`);
  const f = (theta: number) => {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += (probs[i]! * (values[i]! - s)) / (1 + theta * (values[i]! - s));
    return sum;
  };
  let lo = -1 / (aMax - s);
  let hi = -1 / (aMin - s);
  // Stop when the interval is down to a few ulps: 1 + θ(a − s) near a bound is then still exact
  // to ~1e-16 absolute, far below the smallest p̂ (1e-3 / N).
  for (let i = 0; i < 2000; i++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  const theta = lo + (hi - lo) / 2;
  return values.map((a, i) => probs[i]! / (1 + theta * (a - s)));
}

/** The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for a unit distribution. */
export function llrOf(dist: UnitCounts, elo0: number, elo1: number): number {
  if (dist.n === 0) return 0;
  const total = dist.counts.reduce((a, b) => a + b, 0);
  const probs = dist.counts.map((c) => c / total);
  const p0 = mleWithMean(dist.values, probs, scoreOfElo(elo0));
  const p1 = mleWithMean(dist.values, probs, scoreOfElo(elo1));
  let sum = 0;
  for (let i = 0; i < probs.length; i++) if (probs[i]! > 0) sum += probs[i]! * (Math.log(p1[i]!) - Math.log(p0[i]!));
  return dist.n * sum;
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 for erf; |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  if (z === Infinity) return 1;
  if (z === -Infinity) return 0;
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** Elo with a 95% interval and LOS from the units' mean score and its standard error. */
export function eloEstimate(units: readonly number[]): EloEstimate {
  const n = units.length;
  if (n === 0)
    return { elo: 0, lower: -Infinity, upper: Infinity, error: Infinity, los: 0.5, score: 0.5, stderr: Infinity };
  const score = units.reduce((a, b) => a + b, 0) / n;
  const variance = units.reduce((a, u) => a + (u - score) ** 2, 0) / n;
  const stderr = Math.sqrt(variance / n);
  const lower = eloOfScore(score - 1.96 * stderr);
  const upper = eloOfScore(score + 1.96 * stderr);
  const los = stderr > 0 ? normalCdf((score - 0.5) / stderr) : score > 0.5 ? 1 : score < 0.5 ? 0 : 0.5;
  const width = upper - lower;
  return {
    elo: eloOfScore(score),
    lower,
    upper,
    error: Number.isFinite(width) ? width / 2 : Infinity,
    los,
    score,
    stderr,
  };
}

export function decide(llr: number, bounds: { lower: number; upper: number }): SprtDecision {
  if (llr >= bounds.upper) return 'H1';
  if (llr <= bounds.lower) return 'H0';
  return 'continue';
}

/** The test on a list of unit scores (each in [0, 1], from A's side). */
export function sprt(units: readonly number[], params: SprtParams = SPRT_DEFAULTS): SprtResult {
  checkSprtParams(params);
  const bounds = sprtBounds(params);
  const llr = llrOf(unitCounts(units), params.elo0, params.elo1);
  const pentanomial = units.length ? pentanomialOf(units) : undefined;
  return {
    elo0: params.elo0,
    elo1: params.elo1,
    alpha: params.alpha,
    beta: params.beta,
    llr,
    ...bounds,
    decision: decide(llr, bounds),
    units: units.length,
    estimate: eloEstimate(units),
    ...(pentanomial ? { pentanomial } : {}),
  };
}

/** Games inside the units, from A's side: a win scores above ½, a draw ½, a loss below. */
export interface GameTally {
  games: number;
  wins: number;
  draws: number;
  losses: number;
}

/** How many results make a whole unit: both rooms of every board, a deal group of k table rounds, a colour-swapped pair. */
export function unitSize(spec: MatchResult['spec']): number {
  if (spec.duplicate) return 2 * spec.duplicate.boards;
  if (spec.batch) return spec.seats.length;
  return spec.pairing ? 2 : 1;
}

/**
 * Follows a match between `a` and `b` result by result, in the order games finished (the journal's
 * order), and runs the test after every unit that completes: the first unit that takes the LLR
 * past a bound decides, and the decision stands whatever finishes after it. Feeding the same
 * journal again (a resumed run) reaches the same decision at the same unit.
 */
export class SprtMonitor {
  readonly units: number[] = [];
  readonly tally: GameTally = { games: 0, wins: 0, draws: 0, losses: 0 };
  private seen = 0;
  private readonly open = new Map<string, MatchResult[]>();
  private last: SprtResult;
  private decisive?: { result: SprtResult; tally: GameTally };
  private readonly params: SprtParams;

  constructor(
    params: SprtParams,
    private readonly a: string,
    private readonly b: string,
  ) {
    checkSprtParams(params);
    this.params = { ...params };
    this.last = sprt([], this.params);
  }

  /**
   * Takes the results not seen yet (`results` grows by appending, as the journal does) and returns
   * how many units they completed.
   */
  update(results: readonly MatchResult[]): number {
    let completed = 0;
    for (; this.seen < results.length; this.seen++) {
      const r = results[this.seen]!;
      if (!r.spec.seats.includes(this.a) || !r.spec.seats.includes(this.b)) continue;
      const key = r.spec.pairing ?? r.id;
      const group = [...(this.open.get(key) ?? []), r];
      if (group.length < unitSize(r.spec)) {
        this.open.set(key, group);
        continue;
      }
      this.open.delete(key);
      this.addUnit(group);
      completed++;
    }
    return completed;
  }

  private addUnit(group: MatchResult[]): void {
    const key = (id: string) => ({ agent: id, round: 1 });
    const scores = pairwiseGames(group, key).flatMap((g) =>
      g.a.agent === this.a && g.b.agent === this.b
        ? [g.scoreA]
        : g.a.agent === this.b && g.b.agent === this.a
          ? [g.scoreB]
          : [],
    );
    if (!scores.length) return;
    for (const s of scores) {
      this.tally.games++;
      if (s > 0.5) this.tally.wins++;
      else if (s < 0.5) this.tally.losses++;
      else this.tally.draws++;
    }
    this.units.push(scores.reduce((x, y) => x + y, 0) / scores.length);
    if (this.decisive) return;
    this.last = sprt(this.units, this.params);
    if (this.last.decision !== 'continue') this.decisive = { result: this.last, tally: { ...this.tally } };
  }

  get decided(): boolean {
    return this.decisive !== undefined;
  }

  /** The test when it was decided, else on every unit so far. */
  get result(): SprtResult {
    return this.decisive?.result ?? this.last;
  }

  /** Games in the units the test has counted (up to the decision). */
  get counted(): GameTally {
    return this.decisive?.tally ?? { ...this.tally };
  }
}
