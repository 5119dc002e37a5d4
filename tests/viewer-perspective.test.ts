// The replay viewers' data drawn from a perspective (games/core/viewer.ts), the games' rules
// playing seeded random legal moves: at every step of a Hold'em table round, a Bridge board and
// an Undercover game (both rule sets), the data holds none of what the perspective's seat may not
// see by the game's own seat view, and all of its own; a public perspective (no seats) holds no
// seat's private card or word. Without a perspective the data is the analysts' full replay.
import { describe, expect, it } from 'vitest';
import { adapterFor } from '../games/registry.ts';
import { initSetup } from '../games/core/game.ts';
import type { ViewerPerspective } from '../games/core/viewer.ts';
import { DEFAULT_LIMITS, type MatchSpec, type Replay } from '../records/match.ts';
import { createRng } from '../util/rng.ts';
import { viewerData as holdemData, type HoldemViewerExtra } from '../games/holdem/viewer/data.ts';
import { viewerData as bridgeData, type BridgeFrame } from '../games/bridge/viewer/data.ts';
import { viewerData as undercoverData, type UndercoverViewerExtra } from '../games/undercover/viewer/data.ts';
import { dummyOf, openingLeadMade, type BridgeState } from '../games/bridge/rules.ts';
import { playerView, type UndercoverState } from '../games/undercover/rules.ts';

/** A game played with seeded random legal moves: its replay and the rules' state after each move. */
function playRandom(game: string, variant: string, seats: number, seed: number, options?: Record<string, number>) {
  const adapter = adapterFor(game);
  const rules = adapter.game;
  const spec: MatchSpec = {
    game,
    variant,
    seats: Array.from({ length: seats }, (_, i) => `bot${i}`),
    seed,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    ...(options ? { options } : {}),
  };
  const pick = createRng(seed + 1);
  let state = rules.init(variant, createRng(seed), initSetup(spec));
  const states = [state];
  const moves: Replay['moves'] = [];
  for (let ply = 0; rules.toMove(state) !== null && ply < 400; ply++) {
    const seat = rules.toMove(state)!;
    const legal = rules.legalActions(state, seat);
    const action = legal[pick.int(0, legal.length - 1)];
    state = rules.apply(state, seat, action);
    states.push(state);
    moves.push({ ply, seat, action: adapter.encode(action), latencyMs: 1 });
  }
  const replayAt = (n: number): Replay => ({
    result: {
      id: `${game}-test`,
      spec,
      serverGameId: 'g',
      scores: spec.seats.map(() => 0),
      winner: null,
      termination: 'normal',
      reason: 'in progress',
      offender: null,
      plies: n,
      seatStats: [],
      startedAt: '',
      durationMs: 0,
    },
    setup: null,
    moves: moves.slice(0, n),
  });
  return { states, replayAt, moves: moves.length };
}

/** Steps to look at: every one of a short game, some of a long one. */
const stepsOf = (n: number) => [...new Set([0, 1, 2, 5, 9, 17, 33, 65, n >> 1, n - 1, n])].filter((k) => k <= n);

describe('viewer data drawn from a perspective', () => {
  it("Hold'em: another seat's hole cards only once shown at a showdown", () => {
    const { replayAt, moves } = playRandom('holdem', 'standard', 3, 11, { handCap: 12 });
    for (const n of stepsOf(moves)) {
      const full = holdemData(replayAt(n)).extra as unknown as HoldemViewerExtra;
      for (const perspective of [{ seats: [1] }, { seats: [] }] as ViewerPerspective[]) {
        const seen = holdemData(replayAt(n), perspective);
        const x = seen.extra as unknown as HoldemViewerExtra;
        const text = JSON.stringify(seen);
        x.hands.forEach((h, k) => {
          const shown = new Set((h.sd ?? []).map(([s]) => s));
          h.hole.forEach((cards, seat) => {
            const real = full.hands[k]!.hole[seat];
            if (real === null) return expect(cards).toBeNull();
            if (perspective.seats.includes(seat) || shown.has(seat)) return expect(cards).toEqual(real);
            expect(cards).toEqual(['?', '?']);
            expect(text).not.toContain(JSON.stringify(real));
          });
        });
      }
    }
    expect(JSON.stringify(holdemData(replayAt(moves)))).not.toContain('"?"'); // no perspective: everything
  });

  it("Bridge: another seat's hand only when it is dummy after the opening lead", () => {
    const { states, replayAt, moves } = playRandom('bridge', 'variant', 4, 5);
    for (const n of stepsOf(moves)) {
      for (const perspective of [{ seats: [0, 2] }, { seats: [] }] as ViewerPerspective[]) {
        const data = bridgeData(replayAt(n), perspective);
        const frames = data.frames as BridgeFrame[];
        frames.forEach((f, k) => {
          const s = states[k] as BridgeState;
          f.h.forEach((hand, seat) => {
            const open =
              perspective.seats.includes(seat) ||
              (dummyOf(s) === seat && openingLeadMade(s)) ||
              // the dummy seat (a seat of the perspective's) sees the declarer's hand when its card is due
              (seat === ((dummyOf(s) ?? 0) + 2) % 4 &&
                perspective.seats.includes(dummyOf(s) ?? -1) &&
                s.toMove === dummyOf(s) &&
                s.phase === 'playing');
            expect(hand === '?').toBe(!open);
          });
          if (f.g) f.g.forEach((c, seat) => perspective.seats.includes(seat) || expect(c).toBeNull());
        });
        const deal = (states[0] as BridgeState).hands;
        for (let seat = 0; seat < 4; seat++) {
          if (perspective.seats.includes(seat)) continue;
          if (!frames.some((f) => f.h[seat] === deal[seat]!.join('')))
            expect(JSON.stringify(data)).not.toContain(deal[seat]!.join(''));
          expect(JSON.stringify(data)).not.toContain(JSON.stringify(deal[seat]));
        }
      }
    }
  });

  it.each(['standard', 'variant'])(
    "Undercover (%s): a seat's own word and role only, and closed ballots",
    (variant) => {
      const { states, replayAt, moves } = playRandom('undercover', variant, 5, 3);
      for (const n of stepsOf(moves)) {
        const s = states[n] as UndercoverState;
        const full = undercoverData(replayAt(n)).extra as unknown as UndercoverViewerExtra;
        for (const seat of [0, 1, 2, 3, 4]) {
          const data = undercoverData(replayAt(n), { seats: [seat] });
          const x = data.extra as unknown as UndercoverViewerExtra;
          const view = playerView(s, seat);
          const audience = full.audience;
          x.seatWords.forEach((w, other) =>
            expect(w).toBe(other === seat || other === audience ? full.seatWords[other] : '?'),
          );
          x.roles.forEach((r, other) =>
            expect(r).toBe(other === audience ? 'audience' : other === seat ? (view.role ?? '?') : '?'),
          );
          expect(x.words).toEqual(view.words ?? { civilian: '?', undercover: '?' });
          // Another seat's word is nowhere in the data unless the seat knows it.
          const text = JSON.stringify(data);
          const known = new Set([view.word, ...Object.values((view.words as object) ?? {})]);
          for (const w of [full.words.civilian, full.words.undercover])
            if (!known.has(w)) expect(text).not.toContain(w);
          // A ballot of another seat shows once its vote is closed (the rules' own list).
          const closed = (view.votes as Array<{ voter: number }>).length;
          expect(x.ballots.filter((b) => b.voter !== seat).length).toBeLessThanOrEqual(closed);
        }
        const everyone = undercoverData(replayAt(n), { seats: [] }).extra as unknown as UndercoverViewerExtra;
        if (variant === 'standard') expect(everyone.words).toEqual({ civilian: '?', undercover: '?' });
        expect(everyone.seatWords.filter((w, seat) => seat !== everyone.audience && w !== '?')).toEqual([]);
      }
    },
  );
});
