// Undercover's team Elo (games/undercover/team-elo.ts): CK-Arena's per-seat terms from a game's
// recorded history, and its update, against numbers computed by hand.
import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import type { Role } from '../games/undercover/roles.ts';
import { initUndercover, undercover, wordOf, type UndercoverState } from '../games/undercover/rules.ts';
import {
  civilianExpectation,
  kFactor,
  seatTerms,
  teamElo,
  teamEloState,
  teamGameOf,
  type RatedHistory,
} from '../games/undercover/team-elo.ts';

const C: Role = 'civilian';
const U: Role = 'undercover';

/**
 * Plays a standard game with the given roles through the rules engine: every statement passes
 * the check unless its seat is in `fails[round]` (then the seat says its own word); votes are
 * `votes[round][ballot][voter]`.
 */
function play(
  roles: Role[],
  votes: Record<number, Array<Record<number, number>>>,
  fails: Record<number, number[]> = {},
): UndercoverState {
  let s: UndercoverState = { ...initUndercover('standard', createRng(1), { seats: roles.length }), roles };
  for (let guard = 0; s.phase !== 'over' && guard < 100; guard++) {
    const seat = undercover.toMove(s)!;
    if (s.phase === 'speak') {
      const statement = fails[s.round]?.includes(seat)
        ? wordOf(s, seat)!
        : `zq${s.round}x${seat} blorp${seat}w${s.round}`;
      s = undercover.apply(s, seat, { kind: 'speak', statement });
    } else {
      s = undercover.apply(s, seat, { kind: 'vote', target: votes[s.round]![s.ballot]![seat]! });
    }
  }
  expect(s.phase).toBe('over');
  return s;
}

const history = (s: UndercoverState): RatedHistory => ({
  roles: s.roles,
  winner: s.finished!.winner,
  rounds: s.round,
  eliminated: s.eliminated,
  ballots: s.ballots,
});

// Game 1: a b c = civilian civilian undercover. Round 1: a → c, b → a, c → a: a (civilian) is
// out; 1 undercover against 1 civilian: the undercover team wins after 1 round.
const game1 = () => play([C, C, U], { 1: [{ 0: 2, 1: 0, 2: 0 }] });
// Game 2: a b a c = civilian undercover civilian civilian (a holds seats 0 and 2).
//   Round 1: seats 0, 1, 2 → 3, seat 3 → 1: seat 3 (c, civilian) is out.
//   Round 2: seats 0, 2 → 1, seat 1 → 0: seat 1 (b, the undercover) is out; civilians win.
const game2 = () => play([C, U, C, C], { 1: [{ 0: 3, 1: 3, 2: 3, 3: 1 }], 2: [{ 0: 1, 1: 0, 2: 1 }] });
// Game 3: a a d = civilian undercover civilian (a on both teams). Round 1: seat 2 (d) says its
// word and is out at once; 1 undercover against 1 civilian: the undercover team wins, no vote.
const game3 = () => play([C, U, C], {}, { 1: [2] });

describe("CK-Arena's per-seat terms from the recorded history", () => {
  it('survival is (r − 1)/R for a seat out in round r of R, 1 for a survivor; accuracy leaves out the round a seat went out in', () => {
    // Game 1, R = 1. a: out in round 1 → (1 − 1)/1 = 0; its one ballot (→ c, correct) was in
    // its own elimination round, so none counts → 0/max(1, 0) = 0 (rules.ts's detail says 1).
    // b: survived → 1; b → a names a civilian → 0/1. c: survived → 1; c → a is correct → 1/1.
    expect(seatTerms(history(game1()))).toEqual([
      { win: 0, survival: 0, accuracy: 0 },
      { win: 0, survival: 1, accuracy: 0 },
      { win: 1, survival: 1, accuracy: 1 },
    ]);
    // Game 2, R = 2. Seats 0 and 2: survived; → 3 (civilian, wrong), → 1 (undercover, right): 1/2.
    // Seat 1 (b): out in round 2 → (2 − 1)/2 = 0.5; counted: its round-1 ballot → 3, a civilian,
    // right for the undercover → 1/1. Seat 3 (c): out in round 1 → 0, no ballot counted → 0.
    expect(seatTerms(history(game2()))).toEqual([
      { win: 1, survival: 1, accuracy: 0.5 },
      { win: 0, survival: 0.5, accuracy: 1 },
      { win: 1, survival: 1, accuracy: 0.5 },
      { win: 1, survival: 0, accuracy: 0 },
    ]);
    // Game 3: no ballot at all → accuracy 0 everywhere; d out in round 1 of 1 → 0.
    expect(seatTerms(history(game3()))).toEqual([
      { win: 0, survival: 1, accuracy: 0 },
      { win: 1, survival: 1, accuracy: 0 },
      { win: 0, survival: 0, accuracy: 0 },
    ]);
  });

  it('counts the round a statement-check elimination ends the game in (R = rounds played)', () => {
    // a b c d = C C C U. Round 1: seats 0, 1 → 2, seats 2, 3 → 0: a tie; revote among 0 and 2:
    // seats 0, 1, 3 → 2, seat 2 → 0: seat 2 (civilian) is out. Round 2: seat 1 says its word and
    // is out; 1 civilian against 1 undercover ends the game before round 2's vote.
    const s = play(
      [C, C, C, U],
      {
        1: [
          { 0: 2, 1: 2, 2: 0, 3: 0 },
          { 0: 2, 1: 2, 2: 0, 3: 2 },
        ],
      },
      { 2: [1] },
    );
    expect(s.finished).toMatchObject({ winner: 'undercover' });
    const t = seatTerms(history(s));
    // R = 2: seat 2 out in round 1 → 0; seat 1 out in round 2 → (2 − 1)/2 = 0.5 (CK-Arena's
    // rating.py divides by the voting rounds, 1 here, and records a judge's elimination as round
    // −1: see docs/undercover.md). Seat 1's ballots of round 1 (→ 2, → 2) name a civilian: 0/2.
    // Seat 3 (undercover): → 0, → 2, both civilians: 2/2.
    expect(t.map((x) => x.survival)).toEqual([1, 0.5, 0, 1]);
    expect(t.map((x) => x.accuracy)).toEqual([0, 0, 0, 1]);
  });
});

describe('team Elo', () => {
  it("K decays with a strategy's own rated games: K(g) = 5 + 55·exp(−⌊g/12⌋/2.5)", () => {
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

  it('rates three games by hand: composite actual score, team expectation, own-count K, one move per strategy', () => {
    const g1 = teamGameOf(['a', 'b', 'c'], history(game1()));
    const g2 = teamGameOf(['a', 'b', 'a', 'c'], history(game2()));
    const g3 = teamGameOf(['a', 'a', 'd'], history(game3()));
    // a has 11 rated games before game 1, everyone else none; all start at 1500.
    const start = { played: { a: 11 } };

    // Game 1: K = 60 for all (a: K(11), b, c: K(0)). R_C = 1500, R_U = 1500 → E_C = 0.666139425,
    //   E_U = 0.333860575. Composite S = 0.75·win + 0.15·survival + 0.10·accuracy:
    //   a: 0 → 60·(0 − 0.666139425) = −39.968365475 → 1460.031634525
    //   b: 0.15 → 60·(0.15 − 0.666139425) = −30.968365475 → 1469.031634525
    //   c: 0.75 + 0.15 + 0.10 = 1 → 60·(1 − 0.333860575) = +39.968365475 → 1539.968365475
    //   (The team's 1/0 would have moved a and b alike by −39.97.)
    const after1 = teamEloState([g1], start);
    expect(after1.rating.a).toBeCloseTo(1460.031634525, 6);
    expect(after1.rating.b).toBeCloseTo(1469.031634525, 6);
    expect(after1.rating.c).toBeCloseTo(1539.968365475, 6);
    expect(after1.played).toEqual({ a: 12, b: 1, c: 1 });

    // Game 2: civilian seats a, a, c: R_C = (2·1460.031634525 + 1539.968365475)/3 = 1486.677211508;
    //   R_U = b = 1469.031634525. Exponent (1469.031634525 − 1606.677211508)/400 = −0.344113942;
    //   10^−0.344113942 = 0.452778772 → E_C = 1/1.452778772 = 0.688336049, E_U = 0.311663951.
    //   a has 12 rated games: K(12) = 41.867602532 (b and c: K(1) = 60; a global game index of 1
    //   would have given a 60 too). Both a seats: S = 0.75 + 0.15 + 0.10·0.5 = 0.95, so
    //   a moves once by 41.867602532·(0.95 − 0.688336049) = +10.955242303 → 1470.986876828
    //   (adding its two seats' moves would have been +21.91).
    //   b: S = 0.15·0.5 + 0.10·1 = 0.175 → 60·(0.175 − 0.311663951) = −8.199837068 → 1460.831797457
    //   c: S = 0.75 → 60·(0.75 − 0.688336049) = +3.699837068 → 1543.668202543
    const after2 = teamEloState([g1, g2], start);
    expect(after2.rating.a).toBeCloseTo(1470.986876828, 6);
    expect(after2.rating.b).toBeCloseTo(1460.831797457, 6);
    expect(after2.rating.c).toBeCloseTo(1543.668202543, 6);
    expect(after2.played).toEqual({ a: 13, b: 2, c: 2 });

    // Game 3: civilian seats a, d: R_C = (1470.986876828 + 1500)/2 = 1485.493438414; R_U = a =
    //   1470.986876828. Exponent (1470.986876828 − 1605.493438414)/400 = −0.336266404;
    //   10^−0.336266404 = 0.461034681 → E_C = 1/1.461034681 = 0.684446450, E_U = 0.315553550.
    //   a, K(13) = 41.867602532: civilian seat S = 0.15 → 41.8676·(0.15 − 0.684446450) = −22.375991524;
    //   undercover seat S = 0.75 + 0.15 = 0.9 → 41.8676·(0.9 − 0.315553550) = +24.469371650;
    //   mean = +1.046690063 (= K·((0.15 + 0.9)/2 − (E_C + E_U)/2) = K·0.025) → 1472.033566891.
    //   d (new, K(0) = 60): S = 0 → 60·(0 − 0.684446450) = −41.066786972 → 1458.933213028.
    const after3 = teamEloState([g1, g2, g3], start);
    expect(after3.rating.a).toBeCloseTo(1472.033566891, 6);
    expect(after3.rating.d).toBeCloseTo(1458.933213028, 6);
    expect(after3.rating.b).toBeCloseTo(1460.831797457, 6);
    expect(after3.played).toEqual({ a: 14, b: 2, c: 2, d: 1 });
    expect(teamElo([g1, g2, g3], start)).toEqual(after3.rating);
  });

  it('leaves the audience seat out of the teams', () => {
    // Civilians a c, undercover b, audience x; civilians win, everyone survives, no ballots:
    //   a, c: S = 0.75 + 0.15 = 0.9 → 60·(0.9 − 0.666139425) = +14.031634525
    //   b: S = 0.15 → 60·(0.15 − 0.333860575) = −11.031634525
    const r = teamElo([
      {
        seats: ['a', 'b', 'c', 'x'],
        roles: [C, U, C, 'audience'],
        winner: 'civilian',
        survival: [1, 1, 1, 0],
        accuracy: [0, 0, 0, 0],
      },
    ]);
    expect(r.x).toBeUndefined();
    expect(r.a).toBeCloseTo(1514.031634525, 6);
    expect(r.b).toBeCloseTo(1488.968365475, 6);
  });
});
