// Undercover's team Elo (games/undercover/team-elo.ts) against updates computed by hand.
import { describe, expect, it } from 'vitest';
import type { Role } from '../games/undercover/roles.ts';
import { civilianExpectation, kFactor, teamElo } from '../games/undercover/team-elo.ts';

const C: Role = 'civilian';
const U: Role = 'undercover';

describe('team Elo', () => {
  it('K decays per batch of 12 games: K(n) = 5 + 55·exp(−⌊n/12⌋/2.5)', () => {
    expect(kFactor(0)).toBe(60);
    expect(kFactor(11)).toBe(60);
    // 5 + 55·e^−0.4 = 5 + 55 · 0.670320046 = 41.867602532
    expect(kFactor(12)).toBeCloseTo(41.867602532, 8);
    // 5 + 55·e^−0.8 = 5 + 55 · 0.449328964 = 29.713093026
    expect(kFactor(24)).toBeCloseTo(29.713093026, 8);
  });

  it('gives the civilians a +120 role bias in their expected score', () => {
    // 1 / (1 + 10^((1500 − (1500 + 120)) / 400)) = 1 / (1 + 10^−0.3) = 1 / 1.501187234 = 0.666139425
    expect(civilianExpectation(1500, 1500)).toBeCloseTo(0.666139425, 8);
  });

  it('moves every team member by K·(S − E) from the ratings before the game, game by game', () => {
    const seats = ['a', 'b', 'c', 'd', 'e', 'f'];
    // Game 1 (n = 0, K = 60): civilians a b c d (mean 1500), undercover e f (1500); civilians win.
    //   E_C = 0.666139425 → civilians +60·(1 − 0.666139425) = +20.031634525, undercover −20.031634525.
    //   a b c d = 1520.031634525, e f = 1479.968365475.
    const g1 = { seats, roles: [C, C, C, C, U, U], winner: 'civilian' as const };
    const after1 = teamElo([g1]);
    expect(after1.a).toBeCloseTo(1520.031634525, 6);
    expect(after1.e).toBeCloseTo(1479.968365475, 6);
    // Game 2 (n = 1, K = 60): civilians a b e f (mean (2·1520.0316 + 2·1479.9684)/4 = 1500),
    //   undercover c d (mean 1520.031634525); the undercover team wins.
    //   E_C = 1 / (1 + 10^((1520.031634525 − 1620) / 400)) = 0.640023046
    //   civilians −60·0.640023046 = −38.401382731; undercover +60·(1 − 0.359976954) = +38.401382731.
    //   a b = 1481.630251794, e f = 1441.566982743, c d = 1558.433017257.
    const g2 = { seats, roles: [C, C, U, U, C, C], winner: 'undercover' as const };
    const after2 = teamElo([g1, g2]);
    expect(after2.a).toBeCloseTo(1481.630251794, 6);
    expect(after2.e).toBeCloseTo(1441.566982743, 6);
    expect(after2.c).toBeCloseTo(1558.433017257, 6);
    // Not zero-sum: each member moves by the team's K·(S − E), and the teams differ in size.
    //   Σ = 9000 + (4 − 2)·20.031634525 + (2 − 4)·38.401382731 = 8963.260503588
    expect(Object.values(after2).reduce((x, y) => x + y, 0)).toBeCloseTo(8963.260503588, 6);
  });

  it('leaves the audience seat out of the teams', () => {
    const r = teamElo([{ seats: ['a', 'b', 'c', 'x'], roles: [C, U, C, 'audience'], winner: 'civilian' }]);
    expect(r.x).toBeUndefined();
    // Civilians a c (1500), undercover b (1500): a, c +20.031634525, b −20.031634525.
    expect(r.a).toBeCloseTo(1520.031634525, 6);
    expect(r.b).toBeCloseTo(1479.968365475, 6);
  });
});
