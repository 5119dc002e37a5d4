// Plackett–Luce ratings for tables (reports/metrics/plackett-luce.ts, table-ratings.ts) against
// fixtures whose maximum-likelihood strengths are worked out by hand (the derivations are beside
// each case), against Bradley–Terry (davidson.ts) for two-player tables, and against the
// definition of a tie (the average over the orders that break it).
import { describe, expect, it } from 'vitest';
import { addRanking, emptyStages, fitPlackettLuce } from '../reports/metrics/plackett-luce.ts';
import { tableRatings } from '../reports/metrics/table-ratings.ts';
import { emptyRecord, fitDavidson } from '../reports/metrics/davidson.ts';
import { DEFAULT_LIMITS, type MatchResult } from '../records/match.ts';

const ELO = 400 / Math.LN10;

/** θ_i − θ_j of a fit, in natural log units. */
const gap = (theta: ArrayLike<number>, i: number, j: number) => theta[i]! - theta[j]!;

/** Fits tables given as places per player (player k on seat k), one unit each. */
function fitTables(players: number, tables: number[][], unitWeights?: number[]) {
  const set = emptyStages(players);
  tables.forEach((places, u) =>
    addRanking(
      set,
      places.map((_, k) => k),
      places,
      u,
    ),
  );
  return fitPlackettLuce(set, unitWeights ? { unitWeights } : {});
}

describe('Plackett–Luce fit', () => {
  it('two-player tables are Bradley–Terry games: 3 wins to 1 with the prior is odds 3.5 : 1.5', () => {
    // One virtual game per player (half won by each) + 3–1: A's share 3.5/5, so π_A/π_B = 7/3.
    const fit = fitTables(2, [
      [1, 2],
      [1, 2],
      [1, 2],
      [2, 1],
    ]);
    expect(fit.converged).toBe(true);
    expect(gap(fit.theta, 0, 1)).toBeCloseTo(Math.log(7 / 3), 9);
    // The same games through the Bradley–Terry code.
    const record = emptyRecord(2);
    record.wins[1] = 3;
    record.wins[2] = 1;
    expect(gap(fitDavidson(record, 2).theta, 0, 1)).toBeCloseTo(gap(fit.theta, 0, 1), 8);
  });

  it('a symmetric field (every order of three once) rates everyone equal', () => {
    const orders = [
      [1, 2, 3],
      [1, 3, 2],
      [2, 1, 3],
      [3, 1, 2],
      [2, 3, 1],
      [3, 2, 1],
    ];
    const fit = fitTables(3, orders);
    for (const t of fit.theta) expect(Math.abs(t)).toBeLessThan(1e-9);
  });

  it('A first at both of two tables, B and C swapping: π_A/π_B = (7 + √89)/2 exactly', () => {
    // π_B = π_C = 1 by symmetry, π_A = a. ℓ(a) = 2·[ln a − ln(a + 2)] + prior (½ virtual game per
    // pair, a half win each way): 2·[¼ ln a − ½ ln(a + 1)]. ℓ'(a) = 2.5/a − 2/(a + 2) − 1/(a + 1) = 0
    // ⇔ a² − 7a − 10 = 0 ⇔ a = (7 + √89)/2 ≈ 8.217 (≈ 365.9 Elo).
    const fit = fitTables(3, [
      [1, 2, 3],
      [1, 3, 2],
    ]);
    const a = (7 + Math.sqrt(89)) / 2;
    expect(gap(fit.theta, 0, 1)).toBeCloseTo(Math.log(a), 9);
    expect(gap(fit.theta, 0, 2)).toBeCloseTo(Math.log(a), 9);
    expect(gap(fit.theta, 0, 1) * ELO).toBeCloseTo(365.88, 1);
  });

  it('a tie counts as the average of the orders that break it', () => {
    // B and C tied behind A, twice: the same as each order once, so the same closed form.
    const tied = fitTables(3, [
      [1, 2, 2],
      [1, 2, 2],
    ]);
    expect(gap(tied.theta, 0, 1)).toBeCloseTo(Math.log((7 + Math.sqrt(89)) / 2), 9);
    expect(gap(tied.theta, 1, 2)).toBeCloseTo(0, 12);
    // A three-way tie at the top of a 4-player table = its six orders at weight 1/6 each, D last.
    const orders = [
      [1, 2, 3],
      [1, 3, 2],
      [2, 1, 3],
      [3, 1, 2],
      [2, 3, 1],
      [3, 2, 1],
    ].map((o) => [...o, 4]);
    const broken = fitTables(4, [[2, 1, 1, 3], ...orders], [1, ...orders.map(() => 1 / 6)]);
    const tie = fitTables(4, [
      [2, 1, 1, 3],
      [1, 1, 1, 4],
    ]);
    for (let i = 0; i < 4; i++) expect(tie.theta[i]).toBeCloseTo(broken.theta[i]!, 9);
    // And a two-player tie is half a win each: no gap.
    expect(Math.abs(fitTables(2, [[1, 1]]).theta[0]!)).toBeLessThan(1e-12);
  });

  it('a player on two seats of a table is one player with multiplicity: 3a² − a/2 − 3/2 = 0', () => {
    // Agent A on seats 0 and 2, B on seat 1; places A 1st, B 2nd, A 3rd. π_B = 1, π_A = a:
    // ℓ(a) = ln a − ln(2a + 1) + [ln 1 − ln(a + 1)] + prior (one virtual game: ½ ln a − ln(a + 1)).
    // ℓ'(a) = 1.5/a − 2/(2a + 1) − 2/(a + 1) = 0 ⇔ 3a² − 0.5a − 1.5 = 0 ⇔ a = (0.5 + √18.25)/6.
    const set = emptyStages(2);
    addRanking(set, [0, 1, 0], [1, 2, 3], 0);
    const fit = fitPlackettLuce(set);
    expect(gap(fit.theta, 0, 1)).toBeCloseTo(Math.log((0.5 + Math.sqrt(18.25)) / 6), 9);
    // A table of one player's seats only says nothing: no stage is kept.
    const own = emptyStages(2);
    addRanking(own, [0, 0, 0], [1, 2, 3], 0);
    expect([own.chainSeat, own.weight]).toEqual([[], []]);
  });

  it('refuses a table whose places do not match its seats', () => {
    expect(() => addRanking(emptyStages(2), [0, 1], [1], 0)).toThrow(/one place per seat/);
  });
});

// ---------------------------------------------------------------------------------------------
// tableRatings: results → ratings per strategy and agent, anchored, with bootstrap intervals.

let n = 0;
function table(seats: string[], places: number[], pairing: string): MatchResult {
  n++;
  return {
    id: `t${String(n).padStart(3, '0')}`,
    spec: {
      game: 'holdem',
      variant: 'standard',
      seats,
      seed: n,
      limits: DEFAULT_LIMITS,
      policy: 'strict',
      pairing,
    },
    serverGameId: `g${n}`,
    scores: places.map((p) => (p === 1 ? 1 : 0)),
    winner: null,
    termination: 'normal',
    reason: 'test',
    offender: null,
    places,
    plies: 1,
    seatStats: seats.map(() => ({ moves: 1, totalMs: 1, maxMs: 1, errors: {} })),
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
  };
}

const keyOf = (id: string) => ({ agent: id.split('@')[0]!, round: Number(id.split('@')[1]) });

describe('tableRatings', () => {
  // a@1 first at every table, b@1 and c@1 swapping (the closed form above); the first two tables
  // share a group (one bootstrap unit), the others are one each.
  const results = Array.from({ length: 8 }, (_, k) =>
    table(['a@1', 'b@1', 'c@1'], k % 2 ? [1, 3, 2] : [1, 2, 3], `g${Math.max(0, k - 1)}`),
  );

  it('rates strategies and agents on the Elo scale, anchored, with bootstrap intervals over table groups', () => {
    const r = tableRatings(results, keyOf, ['a', 'b', 'c'], 1, { anchor: 'b', samples: 200, seed: 7 })!;
    expect(r.model).toBe('plackett-luce');
    expect(r.anchor).toBe('b@1');
    expect(r).toMatchObject({ tables: 8, units: 7, tiedTables: 0 });
    expect(r.intervals).toEqual({
      method: 'percentile bootstrap',
      unit: 'table group',
      samples: 200,
      seed: 7,
      level: 0.95,
    });
    // As above with 8 tables: ℓ'(a) = 8.5/a − 8/(a + 2) − 1/(a + 1) = 0 ⇔ a² − 31a − 34 = 0.
    const a = (31 + Math.sqrt(1097)) / 2;
    expect(r.strategies.find((s) => s.id === 'a@1')!.elo).toBeCloseTo(Math.log(a) * ELO, 6);
    const b = r.strategies.find((s) => s.id === 'b@1')!;
    expect(b).toEqual({ id: 'b@1', elo: 0, lo: 0, hi: 0, games: 8 });
    const sa = r.strategies.find((s) => s.id === 'a@1')!;
    // Resampling moves b's count of second places, and so a's gap to b: a real interval around the point.
    expect(sa.lo).toBeLessThan(sa.elo - 10);
    expect(sa.hi).toBeGreaterThan(sa.elo + 10);
    // Agents: each agent one strategy here, so the same numbers.
    expect(r.agents.map((x) => [x.id, x.elo.toFixed(6)])).toEqual(
      r.strategies.map((x) => [x.id.split('@')[0], x.elo.toFixed(6)]),
    );
    // Seeded: the same intervals again.
    expect(tableRatings(results, keyOf, ['a', 'b', 'c'], 1, { anchor: 'b', samples: 200, seed: 7 })).toEqual(r);
  });

  it('with no anchor the mean of the rated players is Elo 0; a tie is counted and averaged', () => {
    const tied = [...results, table(['a@1', 'b@1', 'c@1'], [1, 2, 2], 'g9')];
    const r = tableRatings(tied, keyOf, ['a', 'b', 'c'], 1, { samples: 50 })!;
    expect(r.anchor).toBe('mean');
    expect(r.tiedTables).toBe(1);
    expect(r.strategies.reduce((s, x) => s + x.elo, 0)).toBeCloseTo(0, 9);
  });

  it("an agent's own table rates its strategies and says nothing of the agent", () => {
    const own = table(['a@1', 'a@2'], [2, 1], 'own');
    const r = tableRatings([...results, own], keyOf, ['a', 'b', 'c'], 2, { samples: 20 })!;
    expect(r.strategies.find((s) => s.id === 'a@2')!.games).toBe(1);
    expect(r.strategies.find((s) => s.id === 'a@1')!.games).toBe(9);
    expect(r.agents.find((s) => s.id === 'a')!.games).toBe(8);
    // The agents' fit is the one without the own table.
    const without = tableRatings(results, keyOf, ['a', 'b', 'c'], 2, { samples: 20 })!;
    expect(r.agents.map((x) => x.elo)).toEqual(without.agents.map((x) => x.elo));
  });

  it('is null for a track without tables (two-seat games without places)', () => {
    const pair = { ...table(['a@1', 'b@1'], [1, 2], 'p'), places: undefined };
    expect(tableRatings([pair], keyOf, ['a', 'b'], 1)).toBeNull();
  });
});
