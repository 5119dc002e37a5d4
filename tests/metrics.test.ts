import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import {
  fromGames,
  fromMatrix,
  ScoreMatrix,
  type GameResult,
  type StrategyKey,
} from '../reports/metrics/score-matrix.ts';
import {
  baseScore,
  computeAll,
  generalizability,
  mean,
  pearson,
  ranks,
  selfImprovement,
  strategyCoding,
} from '../reports/metrics/metrics.ts';
import { bootstrapMetrics } from '../reports/metrics/bootstrap.ts';
import { addGame, emptyRecord, fitDavidson, pairModel } from '../reports/metrics/davidson.ts';
import { fitStrategies } from '../reports/metrics/cells.ts';
import { ratings } from '../reports/metrics/ratings.ts';
import { AGENTS, WORKED } from './fixtures/worked-vector.ts';

/** A T·N square matrix with every off-diagonal cell `fill`. */
function filled(size: number, fill: number | null): (number | null)[][] {
  return Array.from({ length: size }, (_, s) => Array.from({ length: size }, (_, t) => (s === t ? null : fill)));
}

/** Every pair of strategies plays `perPair` games as colour-swapped pairs; `score(a, b)` is a's score. */
function tournament(
  agents: string[],
  rounds: number,
  perPair: number,
  score: (a: StrategyKey, b: StrategyKey, game: number) => number,
): GameResult[] {
  const keys = agents.flatMap((agent) => Array.from({ length: rounds }, (_, r) => ({ agent, round: r + 1 })));
  const games: GameResult[] = [];
  keys.forEach((a, s) =>
    keys.slice(s + 1).forEach((b) => {
      for (let g = 0; g < perPair; g++) {
        const scoreA = score(a, b, g);
        const group = `${a.agent}@${a.round}-${b.agent}@${b.round}#${Math.floor(g / 2)}`;
        // Odd games swap colours: b is listed first, as the orchestrator records them.
        games.push(
          g % 2 === 0
            ? { a, b, scoreA, scoreB: 1 - scoreA, group }
            : { a: b, b: a, scoreA: 1 - scoreA, scoreB: scoreA, group },
        );
      }
    }),
  );
  return games;
}

/** A noisy tournament in which agent strength grows with the agent's index and round. */
function noisyGames(seed: number, agents = ['a', 'b', 'c'], rounds = 4, perPair = 8): GameResult[] {
  const rng = createRng(seed);
  const strength = (k: StrategyKey) => agents.indexOf(k.agent) * 0.6 + k.round * 0.3;
  return tournament(agents, rounds, perPair, (a, b) => {
    const pa = 1 / (1 + Math.exp(strength(b) - strength(a)));
    const u = rng.float();
    return u < pa * 0.9 ? 1 : u < pa * 0.9 + 0.1 ? 0.5 : 0;
  });
}

describe('worked vector (docs/metrics.md)', () => {
  const W = fromMatrix(AGENTS, 3, WORKED);
  const all = computeAll(W);

  it('reproduces every per-agent value exactly', () => {
    expect(all.perAgent['0']).toEqual({
      S: 0.3125,
      G: [0.5625, 0.40625, 0.5625],
      L: -0.078125,
      B: [0.3125, 0.6875, 0.5],
      A: [null, 0.375, 0.5625],
      C: -0.03125,
      self: [0.625, 0.375, 0.5],
      SI: { value: -0.5, defined: true },
    });
    expect(all.perAgent['1']).toEqual({
      S: 0.375,
      G: [0.421875, 0.453125, 0.515625],
      L: 0.0625,
      B: [0.375, 0.375, 0.875],
      A: [null, 0.375, 0.6875],
      C: 0.15625,
      self: [0.5, 0.75, 0.25],
      SI: { value: -0.5, defined: true },
    });
    expect(all.perAgent['2']).toEqual({
      S: 0.8125,
      G: [0.5625, 0.59375, 0.421875],
      L: -0.0546875,
      B: [0.8125, 0.4375, 0.125],
      A: [null, 0.4375, 0.5],
      C: -0.15625,
      self: [0.375, 0.75, 0.375],
      SI: { value: 0, defined: true },
    });
  });

  it('gives agent 2 a defined zero SI (not -0, not the undefined case)', () => {
    const si = selfImprovement(W, 2);
    expect(si.defined).toBe(true);
    expect(Object.is(si.value, 0)).toBe(true);
  });

  it('reproduces the field trends to 1e-12', () => {
    expect(Math.abs(all.field.DIS_std.value - 0.4892227841626771)).toBeLessThan(1e-12);
    expect(Math.abs(all.field.DIS_range.value - 0.5694947974514993)).toBeLessThan(1e-12);
    expect(Math.abs(all.field.Trend_mean.value - -0.5)).toBeLessThan(1e-12);
    expect([all.field.DIS_std.defined, all.field.DIS_range.defined, all.field.Trend_mean.defined]).toEqual([
      true,
      true,
      true,
    ]);
    expect(all.field.range).toEqual([0.5, 0.3125, 0.75]);
    expect(all.field.meanG).toEqual([0.515625, 0.484375, 0.5]);
    expect(all.field.sigma[0]).toBeCloseTo(
      Math.sqrt(((0.3125 - 0.5) ** 2 + (0.375 - 0.5) ** 2 + (0.8125 - 0.5) ** 2) / 3),
      15,
    );
  });

  it('ranks the agents, ties sharing the mean rank', () => {
    expect(all.ranks).toEqual({
      S: { '0': 3, '1': 2, '2': 1 },
      L: { '0': 3, '1': 1, '2': 2 },
      C: { '0': 2, '1': 1, '2': 3 },
      SI: { '0': 2.5, '1': 2.5, '2': 1 },
    });
  });

  it('is JSON-serialisable without loss', () => {
    expect(JSON.parse(JSON.stringify(all))).toEqual(all);
  });
});

describe('ScoreMatrix', () => {
  const W = fromMatrix(AGENTS, 3, WORKED);

  it('orders strategies agent-major, round-minor and reads cells', () => {
    expect(W.value(0, 1, 1, 1)).toBe(0.25);
    expect(W.value(2, 3, 0, 1)).toBe(0.875);
    expect(W.value(1, 2, 1, 2)).toBeNull();
    expect(W.strategy(5)).toEqual({ agent: '1', round: 3 });
  });

  it('serialises to JSON and CSV', () => {
    const json = W.toJSON();
    expect(json.strategies).toEqual(['0@1', '0@2', '0@3', '1@1', '1@2', '1@3', '2@1', '2@2', '2@3']);
    expect(json.W).toEqual(WORKED);
    expect(json.games[0]).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1]);
    const lines = W.toCSV().trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('strategy,0@1,0@2,0@3,1@1,1@2,1@3,2@1,2@2,2@3');
    expect(lines[1]).toBe('0@1,,0.75,0.5,0.25,1,0.625,0.375,0.875,0.125');
  });

  it('fromGames averages per cell and is complementary when every game has a result', () => {
    const games = noisyGames(7);
    const W2 = fromGames(['a', 'b', 'c'], 4, games);
    let checked = 0;
    for (let s = 0; s < W2.size; s++) {
      for (let t = 0; t < W2.size; t++) {
        if (s === t) continue;
        expect(W2.gamesAt(s, t)).toBe(8);
        expect(W2.at(s, t)! + W2.at(t, s)!).toBeCloseTo(1, 12);
        checked++;
      }
    }
    expect(checked).toBe(12 * 11);
    const twoGames = fromGames(['x', 'y'], 1, [
      { a: { agent: 'x', round: 1 }, b: { agent: 'y', round: 1 }, scoreA: 1, scoreB: 0 },
      { a: { agent: 'y', round: 1 }, b: { agent: 'x', round: 1 }, scoreA: 0.5, scoreB: 0.5 },
    ]);
    expect(twoGames.value(0, 1, 1, 1)).toBe(0.75);
    expect(twoGames.value(1, 1, 0, 1)).toBe(0.25);
  });

  it('fromGames leaves unplayed pairs null and rejects unknown strategies', () => {
    const W2 = fromGames(['x', 'y'], 2, [
      { a: { agent: 'x', round: 1 }, b: { agent: 'y', round: 2 }, scoreA: 1, scoreB: 0 },
    ]);
    expect(W2.value(0, 1, 1, 1)).toBeNull();
    expect(W2.value(0, 1, 1, 2)).toBe(1);
    expect(() =>
      fromGames(['x'], 2, [{ a: { agent: 'x', round: 3 }, b: { agent: 'x', round: 1 }, scoreA: 1, scoreB: 0 }]),
    ).toThrow(/round 3/);
    expect(() =>
      fromGames(['x'], 1, [{ a: { agent: 'z', round: 1 }, b: { agent: 'x', round: 1 }, scoreA: 1, scoreB: 0 }]),
    ).toThrow(/unknown agent/);
  });
});

describe('edge cases', () => {
  it('one agent: S, B and A are null; G, L, self and SI still work', () => {
    const W = fromMatrix(['solo'], 3, [
      [null, 0.25, 0.0],
      [0.75, null, 0.5],
      [1.0, 0.5, null],
    ]);
    const m = computeAll(W).perAgent.solo!;
    expect(m.S).toBeNull();
    expect(m.B).toEqual([null, null, null]);
    expect(m.A).toEqual([null, null, null]);
    expect(m.C).toBeNull();
    expect(m.G).toEqual([0.125, 0.625, 0.75]);
    expect(m.L).toBe((0.625 - 0.125 + (0.75 - 0.125)) / 2);
    expect(m.self).toEqual([0.125, 0.625, 0.75]);
    expect(m.SI.defined).toBe(true);
    expect(m.SI.value).toBeCloseTo(0.625 / Math.sqrt(2 * 0.21875), 12);
    const field = computeAll(W).field;
    expect(field.sigma).toEqual([null, null, null]);
    expect(field.DIS_std).toEqual({ value: 0, defined: false });
    expect(computeAll(W).ranks.S).toEqual({ solo: null });
  });

  it('one round: L and C are null, SI and the trends undefined', () => {
    const W = fromMatrix(['a', 'b'], 1, [
      [null, 0.75],
      [0.25, null],
    ]);
    const all = computeAll(W);
    expect(all.perAgent.a).toEqual({
      S: 0.75,
      G: [0.75],
      L: null,
      B: [0.75],
      A: [null],
      C: null,
      self: [null],
      SI: { value: 0, defined: false },
    });
    expect(all.field.Trend_mean).toEqual({ value: 0, defined: false });
    expect(all.ranks.L).toEqual({ a: null, b: null });
  });

  it('zero variance: SI is reported as 0 with defined: false', () => {
    const W = fromMatrix(['a', 'b'], 3, filled(6, 0.5));
    expect(selfImprovement(W, 0)).toEqual({ value: 0, defined: false });
    expect(computeAll(W).field.DIS_std).toEqual({ value: 0, defined: false });
    expect(computeAll(W).ranks.SI).toEqual({ a: null, b: null });
    // Means of equal scores that differ only in the last bit still count as zero variance.
    expect(pearson([1, 2], [0.3, 0.1 * 3])).toEqual({ value: 0, defined: false });
    expect(pearson([1, 2], [3, 5])).toEqual({ value: 1, defined: true });
    expect(pearson([1], [3])).toEqual({ value: 0, defined: false });
  });

  it('skips missing cells in averages, and an empty average is null, not NaN', () => {
    const w = filled(6, 0.5);
    w[0]![2] = null; // 0@1 never met 1@1
    w[0]![4] = 1; // 0@1 beat 2@1
    const W = fromMatrix(['a', 'b', 'c'], 2, w);
    expect(strategyCoding(W, 0)).toBe(1);
    const all = computeAll(W);
    expect(all.perAgent.a!.G[0]).toBe((0.5 + 0.5 + 1 + 0.5) / 4);
    const empty = fromMatrix(['a', 'b'], 1, filled(2, null));
    expect(strategyCoding(empty, 0)).toBeNull();
    expect(baseScore(empty, 1, 1)).toBeNull();
    expect(computeAll(empty).perAgent.a!.G).toEqual([null]);
    expect(mean([null, null])).toBeNull();
    expect(mean([null, 1, 2])).toBe(1.5);
  });

  it('ranks: mean ranks for ties, nulls excluded, lower-is-better', () => {
    expect(ranks({ a: 0.5, b: 0.9, c: 0.5, d: null, e: 0.1 })).toEqual({ a: 2.5, b: 1, c: 2.5, d: null, e: 4 });
    expect(ranks({ a: 0.5, b: 0.9, c: 0.5, e: 0.1 }, false)).toEqual({ a: 2.5, b: 4, c: 2.5, e: 1 });
    expect(ranks({ a: 1, b: 1, c: 1 })).toEqual({ a: 2, b: 2, c: 2 });
    expect(ranks({ a: 0.3, b: 0.1 + 0.2 })).toEqual({ a: 1.5, b: 1.5 }); // float noise is a tie
  });

  it('U is B^1 on the variant minus B^1 on the standard rules', () => {
    const standard = fromMatrix(AGENTS, 3, WORKED);
    const variantCells = filled(9, 0.5);
    variantCells[0]![3] = 1; // 0@1 beats 1@1 on the variant
    variantCells[3]![0] = 0;
    const variant = fromMatrix(['2', '0', '1'], 3, reorder(variantCells, [2, 0, 1]));
    expect(baseScore(variant, variant.agentIndex('0'), 1)).toBe(0.75);
    const U = generalizability(standard, variant);
    expect(U).toEqual({ '0': 0.75 - 0.3125, '1': 0.25 - 0.375, '2': 0.5 - 0.8125 });
    const all = computeAll(standard, { variant });
    expect(all.perAgent['1']!.U).toBe(-0.125);
    expect(all.ranks.U).toEqual({ '0': 1, '1': 2, '2': 3 });
    expect(() => generalizability(standard, fromMatrix(['0', '1'], 3, filled(6, 0.5)))).toThrow(/same agents/);
  });
});

/** Moves agent blocks (3 rounds each) so that new agent k is old agent order[k]. */
function reorder(cells: (number | null)[][], order: number[]): (number | null)[][] {
  const old = (s: number) => order[Math.floor(s / 3)]! * 3 + (s % 3);
  return cells.map((_, s) => cells.map((__, t) => cells[old(s)]![old(t)]!));
}

describe('bootstrap', () => {
  const agents = ['a', 'b', 'c'];
  const games = noisyGames(11);

  it('is deterministic for a seed, and the intervals contain the point estimates', () => {
    const one = bootstrapMetrics(agents, 4, games, { samples: 300, seed: 5 });
    const two = bootstrapMetrics(agents, 4, games, { samples: 300, seed: 5 });
    const other = bootstrapMetrics(agents, 4, games, { samples: 300, seed: 6 });
    expect(two).toEqual(one);
    expect(other.perAgent.a!.S).not.toEqual(one.perAgent.a!.S);
    const point = computeAll(fromGames(agents, 4, games));
    for (const agent of agents) {
      const ci = one.perAgent[agent]!;
      const p = point.perAgent[agent]!;
      expect(ci.S.point).toBeCloseTo(p.S!, 12);
      expect(ci.L.point).toBeCloseTo(p.L!, 12);
      for (const key of ['S', 'L', 'C'] as const) {
        expect(ci[key].lo!).toBeLessThanOrEqual(ci[key].point!);
        expect(ci[key].hi!).toBeGreaterThanOrEqual(ci[key].point!);
        expect(ci[key].hi! - ci[key].lo!).toBeGreaterThan(0);
        expect(ci[key].samples).toBe(300);
      }
      ci.G.forEach((g, n) => {
        expect(g.point).toBeCloseTo(p.G[n]!, 12);
        expect(g.lo!).toBeLessThanOrEqual(g.point!);
        expect(g.hi!).toBeGreaterThanOrEqual(g.point!);
      });
    }
    // The observed S leader is most often first, the weakest agent (a) mostly last; rank shares sum to 1 each way.
    const probs = one.rankProbabilities.S;
    const leader = agents.find((a) => point.ranks.S[a] === 1)!;
    for (const agent of agents) expect(probs[leader]![0]).toBeGreaterThanOrEqual(probs[agent]![0]!);
    expect(point.ranks.S.a).toBe(3);
    expect(probs.a![2]).toBeGreaterThan(0.5);
    for (const agent of agents) expect(probs[agent]!.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 12);
    for (let r = 0; r < 3; r++) expect(agents.reduce((acc, a) => acc + probs[a]![r]!, 0)).toBeCloseTo(1, 12);
  });

  it('keeps intervals narrow, inside [0, 1] and around the point when every game of every cell has the same score', () => {
    const fixed = tournament(agents, 3, 4, (a, b) => (a.agent === b.agent ? 0.5 : a.agent < b.agent ? 1 : 0));
    const result = bootstrapMetrics(agents, 3, fixed, { samples: 200 });
    const point = computeAll(fromGames(agents, 3, fixed));
    for (const agent of agents) {
      const ci = result.perAgent[agent]!;
      for (const iv of [ci.S, ci.L, ci.C, ...ci.G]) {
        expect(iv.lo!).toBeLessThanOrEqual(iv.point!);
        expect(iv.hi!).toBeGreaterThanOrEqual(iv.point!);
        expect(iv.hi! - iv.lo!).toBeLessThan(0.15);
      }
      expect(ci.S.point).toBe(point.perAgent[agent]!.S);
      // Self games are all draws: S_i^n is flat, so the observed SI is undefined (the smoothed
      // samples are not flat, so SI gets an interval from them).
      expect(ci.SI.point).toBeNull();
    }
    // a won every game: its S is 1 and no sample may exceed it.
    expect(result.perAgent.a!.S).toMatchObject({ point: 1, hi: 1 });
    expect(result.perAgent.a!.S.lo!).toBeGreaterThan(0.9);
    expect(result.rankProbabilities.S.a).toEqual([1, 0, 0]);
    expect(result.above.S.a!.b).toBe(1);
    // Identical units agree with each other better than the model's coin flips would: φ < 1.
    expect(result.dispersion).toBeLessThan(0.5);
  });

  it('keeps colour-swapped groups together, and learns from them how little the pairs vary', () => {
    // Each pairing: one win and one loss. Resampled as pairs every cell stays at 0.5 and the
    // dispersion sees no spread at all; resampled game by game the cells vary as coin flips.
    const swapped = tournament(['x', 'y'], 2, 6, (_a, _b, g) => (g % 2 === 0 ? 1 : 0));
    const grouped = bootstrapMetrics(['x', 'y'], 2, swapped, { samples: 400 });
    const loose = swapped.map(({ group: _group, ...g }) => g);
    const ungrouped = bootstrapMetrics(['x', 'y'], 2, loose, { samples: 400 });
    const width = (r: typeof grouped) => r.perAgent.x!.S.hi! - r.perAgent.x!.S.lo!;
    expect(grouped.dispersion).toBeLessThan(0.25); // χ² = 0: only the prior's 4 degrees of freedom against 15
    expect(ungrouped.dispersion).toBeGreaterThan(0.8);
    expect(width(ungrouped)).toBeGreaterThan(0.2);
    expect(width(grouped)).toBeLessThan(width(ungrouped) / 2.5);
  });

  it('gives every metric a real interval when each pairing played one colour-swapped pair', () => {
    const once = noisyGames(4, agents, 4, 2);
    const result = bootstrapMetrics(agents, 4, once, { samples: 300 });
    for (const agent of agents) {
      for (const key of ['S', 'L', 'C'] as const) {
        const iv = result.perAgent[agent]![key];
        expect(iv.hi! - iv.lo!).toBeGreaterThan(0.05);
        expect(iv.lo!).toBeLessThanOrEqual(iv.point!);
        expect(iv.hi!).toBeGreaterThanOrEqual(iv.point!);
      }
    }
    // above[a][b] + above[b][a] = 1 wherever both are defined.
    expect(result.above.S.a!.b! + result.above.S.b!.a!).toBeCloseTo(1, 12);
  });

  it('runs 3 agents × 4 rounds × 8 games per cell × 1000 samples well under 2 s', () => {
    const start = performance.now();
    const result = bootstrapMetrics(agents, 4, games, { samples: 1000, seed: 1 });
    const ms = performance.now() - start;
    console.log(`bootstrap 3×4×8 games, 1000 samples: ${ms.toFixed(0)} ms`);
    expect(result.samples).toBe(1000);
    expect(ms).toBeLessThan(2000);
  });

  it('rejects bad options', () => {
    expect(() => bootstrapMetrics(agents, 4, games, { samples: 0 })).toThrow(/sample count/);
    expect(() => bootstrapMetrics(agents, 4, games, { level: 1 })).toThrow(/level/);
  });
});

/** The Davidson fit of the games of W's strategies, with Elo per label (mean 0). */
function eloOf(W: ScoreMatrix, games: readonly GameResult[]): Record<string, number> {
  return Object.fromEntries(ratings(W, games).strategies.map((r) => [r.id, r.elo]));
}

describe('ratings: Bradley–Terry with Davidson draws', () => {
  const pairGames = (scores: number[]): GameResult[] =>
    scores.map((scoreA) => ({ a: { agent: 'x', round: 1 }, b: { agent: 'y', round: 1 }, scoreA, scoreB: 1 - scoreA }));
  const XY = new ScoreMatrix(['x', 'y'], 1);

  it('orders a clearly stronger strategy above a weaker one, centred on 0', () => {
    const games = noisyGames(3);
    const W = fromGames(['a', 'b', 'c'], 4, games);
    const fit = fitStrategies(W, games);
    expect(fit.converged).toBe(true);
    expect(fit.nu).toBeGreaterThan(0); // the games have draws
    const elo = eloOf(W, games);
    expect(Object.keys(elo)).toHaveLength(12);
    expect(Object.values(elo).reduce((x, y) => x + y, 0)).toBeCloseTo(0, 9);
    expect(elo['c@4']!).toBeGreaterThan(elo['a@1']! + 200);
    const best = Object.entries(elo).sort((p, q) => q[1] - p[1])[0]![0];
    expect(['c@4', 'c@3']).toContain(best);
  });

  it('without draws is plain Bradley–Terry: the closed form for two strategies, finite on a clean sweep', () => {
    // 3 wins and 1 loss: with the prior of one virtual game per player (two players: one game
    // between them), half won by each, p_x/p_y = 3.5 / 1.5.
    const elo = eloOf(XY, pairGames([1, 1, 1, 0]));
    expect(elo['x@1']! - elo['y@1']!).toBeCloseTo(400 * Math.log10(3.5 / 1.5), 6);
    expect(elo['x@1']).toBeCloseTo(-elo['y@1']!, 9);
    const sweep = eloOf(XY, pairGames([1, 1, 1, 1]));
    expect(sweep['x@1']! - sweep['y@1']!).toBeCloseTo(400 * Math.log10(4.5 / 0.5), 6);
  });

  it('with draws matches the closed form for two players: π_x/π_y = W/L and ν = D/√(W·L)', () => {
    // 3 wins, 1 loss, 2 draws. The MLE reproduces the observed shares: P(win)/P(loss) = π_x/π_y = 3
    // and P(draw)/P(loss) = ν·√(π_x π_y)/π_y = 2, so ν = 2/√3 and the gap is 400·log10(3) ≈ 190.85 Elo.
    const record = emptyRecord(2);
    for (const x of [1, 1, 1, 0, 0.5, 0.5]) addGame(record, 2, 0, 1, x);
    const fit = fitDavidson(record, 2, { prior: 1e-9 });
    expect(fit.converged).toBe(true);
    expect(Math.exp(fit.theta[0]! - fit.theta[1]!)).toBeCloseTo(3, 6);
    expect(fit.nu).toBeCloseTo(2 / Math.sqrt(3), 6);
    const m = pairModel(fit, 0, 1);
    expect(m.draw).toBeCloseTo(2 / 6, 6);
    expect(m.expected).toBeCloseTo((3 + 1) / 6, 6);
  });

  it('Wald intervals: Var(θx − θy) = 1 / (n · p(1 − p)) for two players without draws', () => {
    // 300 wins in 400 games: p̂ = 0.75, so the standard error of the log-odds is 1/√(400·0.1875).
    const games = pairGames([...Array(300).fill(1), ...Array(100).fill(0)]);
    const r = ratings(XY, games, { anchor: 'y@1' });
    const x = r.strategies.find((s) => s.id === 'x@1')!;
    const se = 1 / Math.sqrt(401 * 0.75 * 0.25);
    expect(x.elo).toBeCloseTo((400 / Math.LN10) * Math.log(300.5 / 100.5), 6);
    expect((x.hi - x.lo) / 2).toBeCloseTo(1.959964 * se * (400 / Math.LN10), 1);
    expect(r.strategies.find((s) => s.id === 'y@1')).toMatchObject({ elo: 0, lo: 0, hi: 0 });
    expect(r.anchor).toBe('y@1');
  });

  it('anchors on an agent (its round-1 strategy), rates agents as one player each, and widens with the dispersion', () => {
    const games = noisyGames(5);
    const W = fromGames(['a', 'b', 'c'], 4, games);
    const r = ratings(W, games, { anchor: 'b' });
    expect(r.anchor).toBe('b@1');
    expect(r.strategies.find((s) => s.id === 'b@1')!.elo).toBe(0);
    expect(r.agents.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(r.agents.find((s) => s.id === 'b')).toMatchObject({ elo: 0, lo: 0, hi: 0 });
    const c = r.agents.find((s) => s.id === 'c')!;
    expect(c.elo).toBeGreaterThan(0);
    expect(c.lo).toBeLessThan(c.elo);
    // Every agent played every other agent's 4 strategies with each of its own 4, 8 games a pair.
    expect(c.games).toBe(2 * 16 * 8);
    const wide = ratings(W, games, { anchor: 'b', dispersion: 4 });
    const cw = wide.agents.find((s) => s.id === 'c')!;
    expect(cw.hi - cw.lo).toBeCloseTo(2 * (c.hi - c.lo), 9);
    expect(ratings(W, games, { anchor: 'nobody' }).anchor).toBe('mean');
  });

  it('rates equal strategies equally', () => {
    const elo = ratings(fromMatrix(['a', 'b'], 2, filled(4, 0.5)), []).strategies;
    for (const e of elo) expect(Math.abs(e.elo)).toBeLessThan(1e-9);
  });
});
