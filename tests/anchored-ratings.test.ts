// Ratings on an anchor pool's scale (reports/metrics/anchored.ts) against values worked out by
// hand: a bot's Bradley–Terry rating with the anchors held fixed, its Wald interval, the same
// through Plackett–Luce on two-seat tables, and the choice of the anchors that bracket an estimate.
import { describe, expect, it } from 'vitest';
import type { MatchResult } from '../records/match.ts';
import { ELO_PER_NAT, fitPool, rateAgainstAnchors } from '../reports/metrics/anchored.ts';
import { bracketingAnchors } from '../orchestrator/rate.ts';

let n = 0;
/** A two-seat game: `a` scores x against `b`; with `places`, a table result. */
function game(a: string, b: string, x: number, table = false): MatchResult {
  const places = x === 1 ? [1, 2] : x === 0 ? [2, 1] : [1, 1];
  return {
    id: `g${n++}`,
    spec: { game: 't', variant: 'standard', seats: [a, b], seed: n } as MatchResult['spec'],
    scores: [x, 1 - x],
    ...(table ? { places } : {}),
  } as MatchResult;
}

const Z = 1.959963984540054;

describe('rateAgainstAnchors', () => {
  it('3 wins in 4 against an anchor at 0: the prior adds half a win in one game, so p = 3.5/5', () => {
    const results = [game('bot', 'A', 1), game('A', 'bot', 0), game('bot', 'A', 1), game('bot', 'A', 0)];
    const r = rateAgainstAnchors(results, 'bot', {
      model: 'davidson',
      anchors: [{ id: 'A', elo: 0 }],
      drawParameter: 0,
    });
    // log L = 3.5θ − 5 log(1 + e^θ): e^θ = 3.5/1.5, information 5·0.7·0.3.
    expect(r.elo).toBeCloseTo(Math.log(7 / 3) * ELO_PER_NAT, 4);
    const half = (Z / Math.sqrt(5 * 0.7 * 0.3)) * ELO_PER_NAT;
    expect(r.hi - r.elo).toBeCloseTo(half, 1);
    expect(r.elo - r.lo).toBeCloseTo(half, 1);
    expect(r.games).toBe(4);
  });

  it('the anchor’s rating sets the scale: the same games against an anchor at +300 Elo rate 300 higher', () => {
    const results = [game('bot', 'A', 1), game('bot', 'A', 0), game('bot', 'A', 1)];
    const at0 = rateAgainstAnchors(results, 'bot', { model: 'davidson', anchors: [{ id: 'A', elo: 0 }] });
    const at300 = rateAgainstAnchors(results, 'bot', { model: 'davidson', anchors: [{ id: 'A', elo: 300 }] });
    expect(at300.elo - at0.elo).toBeCloseTo(300, 3);
  });

  it('Plackett–Luce on two-seat tables is Bradley–Terry: same rating as the pairwise fit', () => {
    const outcomes = [1, 1, 0, 1, 0, 1];
    const anchors = [
      { id: 'A', elo: -100 },
      { id: 'B', elo: 150 },
    ];
    const pairs = outcomes.map((x, k) => game('bot', k % 2 ? 'A' : 'B', x));
    const tables = outcomes.map((x, k) => game('bot', k % 2 ? 'A' : 'B', x, true));
    const bt = rateAgainstAnchors(pairs, 'bot', { model: 'davidson', anchors, drawParameter: 0 });
    const pl = rateAgainstAnchors(tables, 'bot', { model: 'plackett-luce', anchors });
    expect(pl.elo).toBeCloseTo(bt.elo, 3);
    expect(pl.hi - pl.lo).toBeCloseTo(bt.hi - bt.lo, 1);
  });

  it('games between anchors, or against strangers, do not move the bot', () => {
    const mine = [game('bot', 'A', 1), game('bot', 'A', 0)];
    const pool = { model: 'davidson' as const, anchors: [{ id: 'A', elo: 0 }] };
    const alone = rateAgainstAnchors(mine, 'bot', pool);
    const noisy = rateAgainstAnchors([...mine, game('A', 'X', 1), game('bot', 'X', 1)], 'bot', pool);
    expect(noisy).toEqual(alone);
  });
});

describe('fitPool', () => {
  it('mean 0; a pool of two: A wins 3 of 4 (plus the prior): A − B = 2·log(3.5/1.5) nats', () => {
    const results = [game('A', 'B', 1), game('B', 'A', 0), game('A', 'B', 1), game('A', 'B', 0)];
    const fit = fitPool(results, ['A', 'B'], 'davidson');
    const [a, b] = fit.ratings;
    expect(a!.elo + b!.elo).toBeCloseTo(0, 6);
    expect(a!.elo - b!.elo).toBeCloseTo(Math.log(3.5 / 1.5) * ELO_PER_NAT, 4);
    expect(a!.lo).toBeLessThan(a!.elo);
    expect(a!.games).toBe(4);
  });
});

describe('bracketingAnchors', () => {
  const ratings = [-400, -100, 0, 200, 500].map((elo, k) => ({ id: `a${k}`, elo, lo: elo, hi: elo, games: 1 }));
  it('the nearest below and above the estimate', () => {
    expect(bracketingAnchors(ratings, 50)).toEqual(['a2', 'a3']);
    expect(bracketingAnchors(ratings, -100)).toEqual(['a0', 'a1']);
  });
  it('beyond either end: the two nearest', () => {
    expect(bracketingAnchors(ratings, 900)).toEqual(['a4', 'a3']);
    expect(bracketingAnchors(ratings, -900)).toEqual(['a0', 'a1']);
  });
});
