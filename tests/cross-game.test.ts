// One Bradley–Terry rating across tracks (reports/metrics/cross-game.ts): the balance between
// tracks and the fit checked against ratings worked out by hand, the bootstrap's intervals and
// anchor, and games between one agent's own strategies left out.
import { describe, expect, it } from 'vitest';
import { crossGameRatings, type CrossGameTrack } from '../reports/metrics/cross-game.ts';
import type { GameResult } from '../reports/metrics/score-matrix.ts';

const ELO = 400 / Math.LN10;

/** `n` games of a against b, a scoring x in each; each game its own bootstrap unit unless `group`. */
function games(a: string, b: string, x: number, n: number, group?: (k: number) => string): GameResult[] {
  return Array.from({ length: n }, (_, k) => ({
    a: { agent: a, round: 1 },
    b: { agent: b, round: 1 },
    scoreA: x,
    scoreB: 1 - x,
    ...(group ? { group: group(k) } : {}),
  }));
}

const elo = (r: ReturnType<typeof crossGameRatings>, id: string) => r!.agents.find((x) => x.id === id)!.elo;

describe('crossGameRatings', () => {
  it('each track weighs the same: 1 win of A on one track balances 9 of B on another', () => {
    // n̄ = 5: track X's game counts 5, track Y's 5/9 each, so 5 wins each way: equal ratings.
    const tracks: CrossGameTrack[] = [
      { track: 'x-standard', games: games('A', 'B', 1, 1) },
      { track: 'y-standard', games: games('B', 'A', 1, 9) },
    ];
    const r = crossGameRatings(['A', 'B'], tracks, { samples: 50 })!;
    expect(r.scheme).toBe('each track weighs the same');
    expect(r.tracks).toEqual([
      { track: 'x-standard', games: 1, weight: 5 },
      { track: 'y-standard', games: 9, weight: 5 / 9 },
    ]);
    expect(elo(r, 'A')).toBeCloseTo(0, 9);
    expect(elo(r, 'B')).toBeCloseTo(0, 9);
    // The games as played (unbalanced) would put B far ahead: the weights are what evens it.
    expect(r.agents.find((x) => x.id === 'A')!.games).toBe(10);
  });

  it('a worked case: 3 of 4 and 1 of 2 give A 3.75 : 2.25, plus the prior: Elo ±200·log10(17/11)', () => {
    // n̄ = 3: X's games weigh 3/4, Y's 3/2. A: 3·¾ + 1·1.5 = 3.75, B: ¾ + 1.5 = 2.25; one virtual
    // game (½ each): π_A/π_B = 4.25/2.75 = 17/11, the mean at Elo 0.
    const tracks: CrossGameTrack[] = [
      { track: 'x', games: [...games('A', 'B', 1, 3), ...games('A', 'B', 0, 1)] },
      { track: 'y', games: [...games('A', 'B', 1, 1), ...games('B', 'A', 1, 1)] },
    ];
    const r = crossGameRatings(['A', 'B'], tracks, { samples: 200, seed: 3 })!;
    expect(elo(r, 'A')).toBeCloseTo(200 * Math.log10(17 / 11), 6);
    expect(elo(r, 'B')).toBeCloseTo(-200 * Math.log10(17 / 11), 6);
    // Draws and fractions count as that share of a win: a 0.75 game is ¾ of a win.
    const frac = crossGameRatings(['A', 'B'], [{ track: 'z', games: games('A', 'B', 0.75, 4) }], { samples: 20 })!;
    expect(elo(frac, 'A') - elo(frac, 'B')).toBeCloseTo(ELO * Math.log(3.5 / 1.5), 6);
  });

  it('anchors on an agent, resamples units within their track, and is seeded', () => {
    const tracks: CrossGameTrack[] = [
      {
        track: 'x',
        games: [...games('A', 'B', 1, 6, (k) => `p${k >> 1}`), ...games('B', 'C', 1, 4), ...games('C', 'A', 0.5, 2)],
      },
      { track: 'y', games: [...games('A', 'C', 1, 3), ...games('C', 'B', 0, 3), ...games('A', 'B', 0, 1)] },
    ];
    const r = crossGameRatings(['A', 'B', 'C'], tracks, { anchor: 'C@1', samples: 300, seed: 9 })!;
    expect(r.anchor).toBe('C');
    expect(r.agents.find((x) => x.id === 'C')).toEqual({ id: 'C', elo: 0, lo: 0, hi: 0, games: 12 });
    for (const x of r.agents.filter((a) => a.id !== 'C')) {
      expect(x.lo).toBeLessThan(x.elo);
      expect(x.hi).toBeGreaterThan(x.elo);
    }
    expect(elo(r, 'A')).toBeGreaterThan(elo(r, 'B'));
    expect(r.intervals).toMatchObject({ method: 'percentile bootstrap', samples: 300, seed: 9, level: 0.95 });
    expect(crossGameRatings(['A', 'B', 'C'], tracks, { anchor: 'C@1', samples: 300, seed: 9 })).toEqual(r);
  });

  it('leaves out games between one agent’s own strategies, agents who never played, and a lone agent', () => {
    const own: GameResult = { a: { agent: 'A', round: 1 }, b: { agent: 'A', round: 2 }, scoreA: 1, scoreB: 0 };
    const r = crossGameRatings(['A', 'B', 'Z'], [{ track: 'x', games: [own, ...games('A', 'B', 1, 1)] }], {
      samples: 10,
    })!;
    expect(r.agents.map((a) => a.id)).toEqual(['A', 'B']);
    expect(r.tracks[0]!.games).toBe(1);
    expect(crossGameRatings(['A'], [{ track: 'x', games: [own] }])).toBeNull();
  });
});
