// The GSPRT of `catarena play --sprt` (reports/metrics/sprt.ts): its LLR against an independent
// brute-force maximisation, its error rates on seeded simulations, the monitor that turns journal
// results into units, and one real run of the command.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MatchResult, MatchSpec } from '../records/match.ts';
import {
  decide,
  eloEstimate,
  eloOfScore,
  llrOf,
  parseSprtParams,
  REGULARIZATION,
  scoreOfElo,
  sprt,
  sprtBounds,
  SprtMonitor,
  unitCounts,
} from '../reports/metrics/sprt.ts';
import { gameDescriptor } from '../games/registry.ts';
import { playSchedule, sprtSchedule } from '../orchestrator/formats/two-bot.ts';
import { tempDir } from './helpers/bots.ts';
import { ERROR_RATE_RUNS, PENTA, sprtOutcomes } from './helpers/sprt-sims.ts';
import { catarena } from './helpers/cli.ts';

// ---------------------------------------------------------------------------------------------
// Independent reference: the largest mean log-likelihood Σ p̂_i ln p_i over distributions p on
// `values` with mean s, found without the θ equation: coordinate ascent along directions that keep
// both the total and the mean (three support points at a time), a golden-section search on each.

function golden(f: (t: number) => number, lo: number, hi: number, iterations = 200): number {
  const r = (Math.sqrt(5) - 1) / 2;
  let a = lo;
  let b = hi;
  let c = b - r * (b - a);
  let d = a + r * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let i = 0; i < iterations && b - a > 1e-16; i++) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - r * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + r * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

function bruteMaxLogLik(values: number[], probs: number[], s: number): number {
  const k = values.length;
  const objective = (p: number[]) => p.reduce((sum, pi, i) => sum + probs[i]! * Math.log(pi), 0);
  // A feasible interior start: the uniform distribution mixed with the endpoint on s's side.
  const m0 = values.reduce((a, b) => a + b, 0) / k;
  const end = s > m0 ? Math.max(...values) : Math.min(...values);
  const mu = (s - m0) / (end - m0);
  let p = values.map((v) => (1 - mu) / k + (v === end ? mu : 0));
  let best = objective(p);
  for (let sweep = 0; sweep < 400; sweep++) {
    const before = best;
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        for (let l = j + 1; l < k; l++) {
          const dir = new Array<number>(k).fill(0);
          dir[i] = values[l]! - values[j]!;
          dir[j] = values[i]! - values[l]!;
          dir[l] = values[j]! - values[i]!;
          let tMin = -Infinity;
          let tMax = Infinity;
          for (let m = 0; m < k; m++) {
            if (dir[m]! > 0) tMin = Math.max(tMin, -p[m]! / dir[m]!);
            if (dir[m]! < 0) tMax = Math.min(tMax, -p[m]! / dir[m]!);
          }
          const at = (t: number) => p.map((pm, m) => pm + t * dir[m]!);
          const t = golden((x) => objective(at(x)), tMin, tMax);
          const next = at(t);
          if (next.every((x) => x > 0) && objective(next) > best) {
            p = next;
            best = objective(next);
          }
        }
      }
    }
    if (best - before < 1e-16) break;
  }
  return best;
}

function bruteLlr(values: number[], counts: number[], n: number, elo0: number, elo1: number): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const probs = counts.map((c) => c / total);
  return n * (bruteMaxLogLik(values, probs, scoreOfElo(elo1)) - bruteMaxLogLik(values, probs, scoreOfElo(elo0)));
}

const unitsOf = (counts: number[], values = PENTA) => counts.flatMap((c, i) => new Array<number>(c).fill(values[i]!));

describe('parsing --sprt', () => {
  it('defaults every key and takes any subset in any order', () => {
    expect(parseSprtParams('')).toEqual({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 });
    expect(parseSprtParams('elo1=5, elo0=-2')).toEqual({ elo0: -2, elo1: 5, alpha: 0.05, beta: 0.05 });
    expect(parseSprtParams('alpha=0.1,beta=0.2,elo0=1,elo1=3')).toEqual({ elo0: 1, elo1: 3, alpha: 0.1, beta: 0.2 });
  });

  it('names the key at fault', () => {
    expect(() => parseSprtParams('elo0=10,elo1=5')).toThrow(/elo0 must be less than elo1/);
    expect(() => parseSprtParams('elo1=0')).toThrow(/elo0 must be less than elo1/);
    expect(() => parseSprtParams('alpha=0')).toThrow(/^alpha must be between 0 and 1/);
    expect(() => parseSprtParams('beta=1')).toThrow(/^beta must be between 0 and 1/);
    expect(() => parseSprtParams('alpha=0.6,beta=0.5')).toThrow(/alpha \+ beta must be less than 1/);
    expect(() => parseSprtParams('elo1=abc')).toThrow(/elo1 must be a number, got "abc"/);
    expect(() => parseSprtParams('elo2=3')).toThrow(/unknown key "elo2"/);
    expect(() => parseSprtParams('elo1=3,elo1=4')).toThrow(/elo1 is given twice/);
    expect(() => parseSprtParams('builtin:heuristic')).toThrow(/expected key=value/);
  });
});

describe('the LLR', () => {
  it('bounds and the logistic model', () => {
    const b = sprtBounds({ alpha: 0.05, beta: 0.05 });
    expect(b.lower).toBeCloseTo(-2.944439, 6);
    expect(b.upper).toBeCloseTo(2.944439, 6);
    expect(sprtBounds({ alpha: 0.05, beta: 0.1 }).upper).toBeCloseTo(Math.log(0.9 / 0.05), 12);
    expect(scoreOfElo(0)).toBe(0.5);
    expect(scoreOfElo(400)).toBeCloseTo(10 / 11, 12);
    expect(eloOfScore(scoreOfElo(123.4))).toBeCloseTo(123.4, 9);
    expect(decide(2.95, b)).toBe('H1');
    expect(decide(-2.95, b)).toBe('H0');
    expect(decide(0, b)).toBe('continue');
  });

  it('trinomial (W/D/L games): equals a golden-section maximisation over the draw rate', () => {
    // Independent of θ: on {0, ½, 1} a distribution with mean s is fixed by its draw rate d
    // (win = s − d/2, loss = 1 − s − d/2), so the profile likelihood is a 1-D concave maximisation.
    const profile = (W: number, D: number, L: number, s: number) => {
      const N = W + D + L;
      const term = (count: number, p: number) => (count ? (count / N) * Math.log(p) : 0);
      const ll = (d: number) => term(W, s - d / 2) + term(D, d) + term(L, 1 - s - d / 2);
      return ll(golden(ll, 0, Math.min(2 * s, 2 * (1 - s))));
    };
    for (const [W, D, L, e0, e1] of [
      [4307, 8620, 4063, 0, 3],
      [120, 80, 100, 0, 10],
      [30, 5, 12, -5, 20],
      [7, 0, 9, 0, 50],
    ] as const) {
      const ours = llrOf({ values: [0, 0.5, 1], counts: [L, D, W], n: W + D + L }, e0, e1);
      const expected = (W + D + L) * (profile(W, D, L, scoreOfElo(e1)) - profile(W, D, L, scoreOfElo(e0)));
      expect(Math.abs(ours - expected), `${W}/${D}/${L}`).toBeLessThan(1e-6 * Math.max(1, Math.abs(expected)));
    }
    // Without draws the support is {0, 1} and the ML distribution with mean s is (1 − s, s).
    const [s0, s1] = [scoreOfElo(0), scoreOfElo(50)];
    expect(llrOf({ values: [0, 0.5, 1], counts: [9, 0, 7], n: 16 }, 0, 50)).toBeCloseTo(
      7 * Math.log(s1 / s0) + 9 * Math.log((1 - s1) / (1 - s0)),
      9,
    );
  });

  it('the published 2.47 (W 4307, D 8620, L 4063, [0, 3]) is the BayesElo model; the logistic GSPRT gives 2.99', () => {
    // jw1912/SPRT's sprt.py: draw Elo from the observed rates, win/loss probabilities from BayesElo.
    const [W, D, L] = [4307, 8620, 4063];
    const N = W + D + L;
    const drawElo = 200 * Math.log10((1 - N / W) * (1 - N / L));
    const bayes = (elo: number) => {
      const w = 1 / (1 + 10 ** ((drawElo - elo) / 400));
      const l = 1 / (1 + 10 ** ((drawElo + elo) / 400));
      return [w, l, 1 - w - l];
    };
    const [p0, p1] = [bayes(0), bayes(3)];
    const bayesLlr = W * Math.log(p1[0]! / p0[0]!) + L * Math.log(p1[1]! / p0[1]!) + D * Math.log(p1[2]! / p0[2]!);
    expect(bayesLlr).toBeCloseTo(2.47, 2);
    const logistic = llrOf({ values: [0, 0.5, 1], counts: [L, D, W], n: N }, 0, 3);
    expect(logistic).toBeCloseTo(2.99, 2);
    // …which the GSPRT's normal approximation N (s1 − s0)(2x̄ − s0 − s1) / (2σ²) also gives.
    const mean = (W + D / 2) / N;
    const variance = (W + D / 4) / N - mean ** 2;
    const [s0, s1] = [scoreOfElo(0), scoreOfElo(3)];
    expect(logistic / ((N * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance))).toBeCloseTo(1, 2);
  });

  it('pentanomial (game pairs): equals the brute-force maximisation, unobserved outcomes regularized to 1e-3', () => {
    for (const [counts, e0, e1] of [
      [[30, 150, 400, 160, 40], 0, 5],
      [[3, 10, 25, 14, 8], 0, 10],
      [[0, 2, 7, 5, 6], -10, 30],
      [[0, 0, 0, 0, 22], 0, 50],
      [[5, 1, 0, 0, 0], 0, 20],
    ] as const) {
      const units = unitsOf([...counts]);
      const result = sprt(units, { elo0: e0, elo1: e1, alpha: 0.05, beta: 0.05 });
      const expected = bruteLlr(
        PENTA,
        counts.map((c) => c || REGULARIZATION),
        units.length,
        e0,
        e1,
      );
      expect(Math.abs(result.llr - expected), counts.join('-')).toBeLessThan(1e-6 * Math.max(1, Math.abs(expected)));
      expect(result.pentanomial).toEqual(counts);
      expect(result.units).toBe(units.length);
    }
    // 22 won pairs against [0, 50]: LLR 2.94, one pair short of the bound (the CLI test's 23 pairs).
    expect(sprt(unitsOf([0, 0, 0, 0, 22]), { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 }).decision).toBe('continue');
    expect(sprt(unitsOf([0, 0, 0, 0, 23]), { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 }).decision).toBe('H1');
  });

  it('any unit scores (Bridge VP/20): the observed values plus 0 and 1, against the brute force', () => {
    const units = [0.6725, 0.5, 0.8, 0.6725, 0.35, 0.91, 0.5, 0.6725, 0.44];
    const dist = unitCounts(units);
    expect(dist.values).toEqual([0, 0.35, 0.44, 0.5, 0.6725, 0.8, 0.91, 1]);
    expect(dist.counts).toEqual([REGULARIZATION, 1, 1, 2, 3, 1, 1, REGULARIZATION]);
    const result = sprt(units, { elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05 });
    expect(result.pentanomial).toBeUndefined();
    expect(result.llr).toBeCloseTo(bruteLlr(dist.values, dist.counts, units.length, 0, 20), 7);
    expect(() => sprt([1.2])).toThrow(/\[0, 1\]/);
  });

  it('Elo estimate, interval and LOS from the unit mean and its standard error', () => {
    const units = unitsOf([2, 6, 10, 8, 4]); // mean 0.5583…
    const e = eloEstimate(units);
    const mean = units.reduce((a, b) => a + b, 0) / units.length;
    const se = Math.sqrt(units.reduce((a, u) => a + (u - mean) ** 2, 0) / units.length / units.length);
    expect(e.score).toBeCloseTo(mean, 12);
    expect(e.elo).toBeCloseTo(-400 * Math.log10(1 / mean - 1), 9);
    expect(e.lower).toBeCloseTo(eloOfScore(mean - 1.96 * se), 9);
    expect(e.upper).toBeCloseTo(eloOfScore(mean + 1.96 * se), 9);
    expect(e.los).toBeCloseTo(0.5 * (1 + erf((mean - 0.5) / se / Math.SQRT2)), 6);
    expect(eloEstimate([1, 1, 1]).elo).toBe(Infinity);
    expect(sprt([]).decision).toBe('continue');
  });
});

function erf(x: number): number {
  // Series for |x| < 3 (enough here), independent of sprt.ts's approximation.
  let sum = 0;
  let term = x;
  for (let n = 0; n < 200; n++) {
    sum += term / (2 * n + 1);
    term *= (-x * x) / (n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

// ---------------------------------------------------------------------------------------------
// Seeded simulations (tests/helpers/sprt-sims.ts): game pairs of two independent games, 30% draws,
// A truly `elo` stronger. `npm run bench -- coverage` runs the error rates at 1000 runs each.

describe('seeded simulations (α = β = 0.05)', () => {
  it('A truly +50 Elo, test [0, 20]: H1 in every one of 200 runs', () => {
    const o = sprtOutcomes(50, { elo0: 0, elo1: 20 }, 200);
    expect(o.H1).toBe(1); // measured 200/200, about 170 pairs on average
    expect(o.meanPairs).toBeLessThan(400);
  });

  it('A truly equal, test [0, 20]: H0 in at least 90% of 200 runs (nominal 95%)', () => {
    const o = sprtOutcomes(0, { elo0: 0, elo1: 20 }, 200);
    expect(o.undecided).toBe(0);
    expect(o.H0).toBeGreaterThanOrEqual(0.9); // measured 193/200
  });

  it(`error rates at the hypotheses are about α and β (${ERROR_RATE_RUNS} runs each, test [0, 40], tolerance ±0.03)`, () => {
    // At elo0 a wrong H1 is the type I error (α); at elo1 a wrong H0 the type II error (β).
    // Seeded: these 400 runs measure 0.0475 and 0.055. Over 400 runs a true 5% lands in
    // [0.02, 0.0875] with probability 99.8% (binomialBand); `npm run bench -- coverage` runs 1000
    // each, where the same ±0.03 is over 4 standard errors.
    const atElo0 = sprtOutcomes(0, { elo0: 0, elo1: 40 }, ERROR_RATE_RUNS);
    const atElo1 = sprtOutcomes(40, { elo0: 0, elo1: 40 }, ERROR_RATE_RUNS);
    expect(Math.abs(atElo0.H1 - 0.05)).toBeLessThanOrEqual(0.03);
    expect(Math.abs(atElo1.H0 - 0.05)).toBeLessThanOrEqual(0.03);
  });
});

// ---------------------------------------------------------------------------------------------
// The monitor: journal results → units → the first decision, which stands.

let nextId = 0;
function result(
  spec: Partial<MatchSpec> & { seats: string[] },
  scores: number[],
  extra: Partial<MatchResult> = {},
): MatchResult {
  return {
    id: `r${nextId++}`,
    spec: {
      game: 'gomoku',
      variant: 'standard',
      seed: 1,
      limits: { moveMs: 1, joinMs: 1, maxResponseBytes: 1 },
      policy: 'strict',
      ...spec,
    },
    scores,
    winner: null,
    termination: 'normal',
    reason: '',
    offender: null,
    plies: 1,
    seatStats: spec.seats.map(() => ({ moves: 1, totalMs: 1, maxMs: 1, errors: {} })),
    durationMs: 1,
    ...extra,
  } as MatchResult;
}

/** A colour-swapped pair: A's score with black, then with white. */
const pair = (rep: number, first: number, second: number) => [
  result({ seats: ['A', 'B'], pairing: `A~B#${rep}`, rep }, [first, 1 - first]),
  result({ seats: ['B', 'A'], pairing: `A~B#${rep}`, rep }, [1 - second, second]),
];

describe('SprtMonitor', () => {
  it('pairs become pentanomial units in the order they complete; the first crossing decides and stands', () => {
    const params = { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 };
    const won = Array.from({ length: 30 }, (_, i) => pair(i, 1, 1));
    // Finishing order: pair 0's first game, pair 1 whole, then pair 0's second game, then the rest.
    const journal = [won[0]![0]!, ...won[1]!, won[0]![1]!, ...won.slice(2).flat()];
    const monitor = new SprtMonitor(params, 'A', 'B');
    expect(monitor.update(journal.slice(0, 1))).toBe(0);
    expect(monitor.update(journal.slice(0, 3))).toBe(1);
    expect(monitor.units).toEqual([1]);
    for (let i = 4; i <= journal.length; i++) monitor.update(journal.slice(0, i));
    expect(monitor.decided).toBe(true);
    expect(monitor.result.decision).toBe('H1');
    expect(monitor.result.units).toBe(23); // 22 won pairs leave the LLR at 2.939 < 2.944
    expect(monitor.counted).toEqual({ games: 46, wins: 46, draws: 0, losses: 0 });
    expect(monitor.units).toHaveLength(30); // later pairs are kept but do not move the decision
    // A resumed run reads the same journal at once and reaches the same decision.
    const again = new SprtMonitor(params, 'A', 'B');
    again.update(journal);
    expect(again.result).toEqual(monitor.result);
  });

  it('orients scores to A whichever seat A had, and mixes W/D/L into pair scores', () => {
    const monitor = new SprtMonitor({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }, 'A', 'B');
    monitor.update([...pair(0, 1, 0.5), ...pair(1, 0, 1), ...pair(2, 0, 0.5), ...pair(3, 0.5, 0.5)]);
    expect(monitor.units).toEqual([0.75, 0.5, 0.25, 0.5]);
    expect(monitor.counted).toEqual({ games: 8, wins: 2, draws: 4, losses: 2 });
    expect(monitor.result.pentanomial).toEqual([0, 1, 2, 1, 0]);
  });

  it("Hold'em: two table rounds on the same deals make a unit; Bridge: a whole duplicate match (VP / 20)", () => {
    const monitor = new SprtMonitor({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }, 'A', 'B');
    const table = (round: number, seats: string[], places: number[]) =>
      result(
        {
          game: 'holdem',
          seats,
          pairing: `arena#${Math.floor(round / 2)}`,
          rep: round,
          batch: { kind: 'round', label: 'arena', round, table: 0 },
        },
        places.map((p) => (p === 1 ? 1 : 0)),
        { places },
      );
    monitor.update([table(0, ['A', 'B'], [1, 2]), table(1, ['B', 'A'], [1, 2]), table(2, ['A', 'B'], [1, 2])]);
    expect(monitor.units).toEqual([0.5]); // round 2 waits for round 3

    const bridge = new SprtMonitor({ elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 }, 'A', 'B');
    const room = (board: number, room: 'open' | 'closed', ns: number) =>
      result(
        {
          game: 'bridge',
          seats: room === 'open' ? ['A', 'B', 'A', 'B'] : ['B', 'A', 'B', 'A'],
          pairing: 'A~B#0',
          rep: 0,
          duplicate: { match: 'A~B#0', teams: ['A', 'B'], board, boards: 2, room },
        },
        [0, 0, 0, 0],
        { detail: { ns_score: ns } },
      );
    bridge.update([room(1, 'open', 620), room(1, 'closed', -100), room(2, 'open', 0)]);
    expect(bridge.units).toEqual([]);
    bridge.update([room(1, 'open', 620), room(1, 'closed', -100), room(2, 'open', 0), room(2, 'closed', 0)]);
    expect(bridge.units).toHaveLength(1);
    expect(bridge.units[0]!).toBeGreaterThan(0.5); // A: +620 in the open room (NS) and +100 defending in the closed one (EW)
    expect(bridge.counted.games).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// The real command.

describe('what play and play --sprt schedule in each format', () => {
  it('pairs count games in colour-swapped pairs, tables count table rounds, duplicate counts boards in matches', () => {
    expect(sprtSchedule(gameDescriptor('gomoku'), 7)).toMatchObject({
      reps: 4,
      maxGames: 7,
      unit: ['pair', 'pairs'],
      counted: 'games',
    });
    expect(sprtSchedule(gameDescriptor('holdem'), 7)).toMatchObject({
      reps: 7,
      maxGames: 7,
      unit: ['deal pair', 'deal pairs'],
      counted: 'table rounds',
    });
    // Bridge: matches of the default length (2 boards), each board in both rooms; a board left over is not played.
    expect(sprtSchedule(gameDescriptor('bridge'), 7)).toMatchObject({
      reps: 2,
      matches: 3,
      maxGames: 12,
      unit: ['match', 'matches'],
      counted: 'matches',
    });
    expect(sprtSchedule(gameDescriptor('bridge'), 1)).toMatchObject({ reps: 1, matches: 1, maxGames: 2 });
    expect(playSchedule('pairs', 5)).toEqual({ reps: 3, total: 5 });
    expect(playSchedule('tables', 5)).toEqual({ reps: 5, total: 5 });
    expect(playSchedule('duplicate', 5)).toEqual({ reps: 5, total: 10 });
  });
});

describe('catarena play --sprt', () => {
  it('heuristic vs random at gomoku: H1 [0, 50] long before the 1000-game maximum; a re-run continues from the journal', async () => {
    const runDir = path.join(tempDir(), 'sprt');
    const r = await catarena(
      'play',
      'builtin:heuristic',
      'builtin:random',
      '--sprt',
      'elo0=0,elo1=50',
      '--run-dir',
      runDir,
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const { sprt: s } = JSON.parse(r.stdout);
    expect(s).toMatchObject({
      decision: 'H1',
      elo0: 0,
      elo1: 50,
      alpha: 0.05,
      beta: 0.05,
      stopped: 'decided',
      maxGames: 1000,
      unit: 'pairs',
    });
    expect(s.llr).toBeGreaterThanOrEqual(s.upper);
    // The heuristic bot wins every game: 23 won pairs take the LLR past 2.944.
    expect(s.units).toBeLessThan(40);
    expect(s.played).toBeLessThan(100);
    expect(s.message).toMatch(/^H1 accepted: heuristic is stronger than random by at least 50 Elo/);
    expect(r.stderr).toMatch(/SPRT \[0, 50\] LLR [\d.]+ \(-2\.94, 2\.94\) after \d+ pairs: W-D-L \d+-\d+-\d+/);
    const lines = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n').length;
    expect(lines).toBe(s.played);

    // Same command, same run directory: the decision is read back from the journal, nothing is played.
    const again = await catarena(
      'play',
      'builtin:heuristic',
      'builtin:random',
      '--sprt',
      'elo0=0,elo1=50',
      '--run-dir',
      runDir,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `H1 accepted: heuristic is stronger than random by at least 50 Elo (LLR ${s.llr.toFixed(2)}`,
    );
    expect(fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n')).toHaveLength(lines);
  });

  it('--help explains --sprt; a bad parameter is refused by name; the maximum ends an undecided test', async () => {
    const help = await catarena('play', '--help');
    expect(help.stdout).toContain('--sprt [params]');
    expect(help.stdout).toMatch(/elo0=0,elo1=10,alpha=0\.05,beta=0\.05/);
    const bad = await catarena('play', 'builtin:heuristic', 'builtin:random', '--sprt', 'elo0=5,elo1=5');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--sprt.*elo0 must be less than elo1/);
    const out = tempDir();
    const few = await catarena('play', 'builtin:heuristic', 'builtin:random', '--sprt', '-n', '4', '--out', out);
    expect(few.code, few.stderr).toBe(0);
    expect(few.stdout).toMatch(/undecided after 4 games \(max reached\)/);
    expect(few.stdout).toMatch(/SPRT \[0, 10\] LLR [\d.]+ \(-2\.94, 2\.94\) after 2 pairs/);
  });
});
