// Batch tables (metrics.md "Batch games"): the three table kinds, seats rotated over shared deals,
// fields larger than a table re-split every table round, and the pairwise projection into W.
import { describe, expect, it } from 'vitest';
import { splitTables, tableSpecs, tourneySeries, type BatchOptions } from '../orchestrator/formats/batch.ts';
import { DEFAULT_LIMITS, matchId, type MatchResult, type MatchSpec } from '../records/match.ts';
import { pairwiseGames, projectTable, tableWinRates } from '../reports/metrics/batch.ts';
import { fromGames } from '../reports/metrics/score-matrix.ts';

const OPTS: BatchOptions = {
  game: 'holdem',
  variant: 'standard',
  tableRounds: 8,
  seed: 1,
  limits: DEFAULT_LIMITS,
  policy: 'strict',
};

function result(spec: MatchSpec, places: number[]): MatchResult {
  const leaders = places.filter((p) => p === 1).length;
  return {
    id: matchId(spec),
    spec,
    serverGameId: 'holdem_x',
    scores: places.map((p) => (p === 1 ? 1 / leaders : 0)),
    winner: null,
    termination: 'normal',
    reason: 'last_player',
    offender: null,
    places,
    plies: 10,
    seatStats: spec.seats.map(() => ({ moves: 1, totalMs: 1, maxMs: 1, errors: {} })),
    startedAt: '',
    durationMs: 1,
  };
}

describe('table series', () => {
  it('rotates one seating over k table rounds that share a deal seed (duplicate deals)', () => {
    const specs = tableSpecs({ kind: 'round', label: 'round:1', members: ['a', 'b', 'c', 'd'] }, OPTS);
    expect(specs).toHaveLength(8);
    for (const group of [specs.slice(0, 4), specs.slice(4, 8)]) {
      expect(new Set(group.map((s) => s.seed)).size).toBe(1);
      // Every strategy sits in every seat once within a group.
      for (const id of ['a', 'b', 'c', 'd'])
        expect(new Set(group.map((s) => s.seats.indexOf(id)))).toEqual(new Set([0, 1, 2, 3]));
      expect(new Set(group.map((s) => s.pairing)).size).toBe(1);
    }
    expect(specs[0]!.seed).not.toBe(specs[4]!.seed);
    expect(specs.map((s) => s.batch!.round)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Deterministic and content-addressed: the same options give the same ids.
    expect(tableSpecs({ kind: 'round', label: 'round:1', members: ['a', 'b', 'c', 'd'] }, OPTS).map(matchId)).toEqual(
      specs.map(matchId),
    );
  });

  it('splits a field larger than 12 into balanced tables, re-split every table round so all pairs meet', () => {
    const members = Array.from({ length: 26 }, (_, i) => `s${i}`);
    expect(splitTables(members, 12).map((t) => t.length)).toEqual([9, 9, 8]);
    const specs = tableSpecs({ kind: 'field', label: 'field', members }, { ...OPTS, tableRounds: 40 });
    expect(specs).toHaveLength(120);
    const met = new Set<string>();
    for (const s of specs) {
      expect(s.seats.length).toBeLessThanOrEqual(12);
      for (const a of s.seats) for (const b of s.seats) if (a < b) met.add(`${a}|${b}`);
    }
    expect(met.size).toBe((26 * 25) / 2);
    for (let r = 0; r < 40; r++)
      expect(
        specs
          .filter((s) => s.rep === r)
          .flatMap((s) => s.seats)
          .sort(),
      ).toEqual([...members].sort());
  });

  it('plays round tables every round and the own and field tables after the last', () => {
    const byRound = [1, 2, 3].map((n) => ['x', 'y'].map((agent) => ({ id: `${agent}@r${n}`, agent })));
    expect(tourneySeries(byRound.slice(0, 2), false)).toEqual([
      { kind: 'round', label: 'round:2', members: ['x@r2', 'y@r2'] },
    ]);
    const final = tourneySeries(byRound, true);
    expect(final.map((s) => s.label)).toEqual(['round:3', 'own:x', 'own:y', 'field']);
    expect(final.find((s) => s.label === 'own:x')!.members).toEqual(['x@r1', 'x@r2', 'x@r3']);
    expect(final.find((s) => s.label === 'field')!.members).toHaveLength(6);
  });
});

describe('pairwise projection', () => {
  it('gives 1 to whoever finished ahead, 0.5 for a shared place, grouped by duplicate group', () => {
    const spec = tableSpecs(
      { kind: 'round', label: 'round:1', members: ['a@r1', 'b@r1', 'c@r1'] },
      { ...OPTS, tableRounds: 1 },
    )[0]!;
    const places = spec.seats.map((id) => ({ 'a@r1': 1, 'b@r1': 2, 'c@r1': 2 })[id]!);
    const key = (id: string) => ({ agent: id[0]!, round: 1 });
    const games = projectTable(result(spec, places), key);
    expect(games).toHaveLength(3);
    const score = (x: string, y: string) => {
      const g = games.find((g) => (g.a.agent === x && g.b.agent === y) || (g.a.agent === y && g.b.agent === x))!;
      return g.a.agent === x ? g.scoreA : g.scoreB;
    };
    expect(score('a', 'b')).toBe(1);
    expect(score('a', 'c')).toBe(1);
    expect(score('b', 'c')).toBe(0.5);
    for (const g of games) expect(g.group).toBe(spec.pairing);
    const W = fromGames(['a', 'b', 'c'], 1, games);
    expect(W.at(0, 1)).toBe(1);
    expect(W.at(1, 0)).toBe(0);
    expect(W.at(1, 2)).toBe(0.5);
  });

  it('passes two-player games through unchanged and counts table win rates per kind', () => {
    const two: MatchSpec = {
      game: 'gomoku',
      variant: 'standard',
      seats: ['a@r1', 'b@r1'],
      seed: 1,
      limits: DEFAULT_LIMITS,
      policy: 'strict',
    };
    const { places: _none, ...r2 } = { ...result(two, [1, 2]), scores: [0.5, 0.5] };
    expect(pairwiseGames([r2], (id) => ({ agent: id[0]!, round: 1 }))).toEqual([
      { a: { agent: 'a', round: 1 }, b: { agent: 'b', round: 1 }, scoreA: 0.5, scoreB: 0.5, group: undefined },
    ]);
    const specs = tableSpecs({ kind: 'own', label: 'own:a', members: ['a@r1', 'a@r2'] }, { ...OPTS, tableRounds: 4 });
    const results = specs.map((s, k) =>
      result(
        s,
        s.seats.map((id) => (id === 'a@r2' || k === 3 ? 1 : 2)),
      ),
    );
    const rates = tableWinRates(results);
    expect(rates.own!['a@r2']).toEqual({ tables: 4, wins: 3.5, rate: 0.875 });
    expect(rates.own!['a@r1']).toEqual({ tables: 4, wins: 0.5, rate: 0.125 });
  });
});
