// A Hold'em table tournament: the blind schedule (paper's 29 levels of 24 hands), button
// rotation, heads-up order, eliminations and places, the hand cap, duplicate deals, and chip
// conservation over 10,000 hands of random players.
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../util/rng.ts';
import type { Action } from '../games/holdem/hand.ts';
import {
  blindLevel,
  handLogs,
  holdem,
  paperBlinds,
  tableValidActions,
  type TableState,
} from '../games/holdem/table.ts';

function randomAction(s: TableState, rng: Rng): Action {
  const valid = tableValidActions(s);
  const v = valid[rng.int(0, valid.length - 1)]!;
  if (v.action === 'raise') return { action: 'raise', amount: rng.int(v.min, v.max) };
  return { action: v.action };
}

/** Plays a table to the end with `policy`, checking chip conservation after every action. */
function playOut(s: TableState, policy: (s: TableState) => Action, onAction?: (s: TableState) => void): TableState {
  for (let k = 0; k < 1_000_000 && holdem.outcome(s) === null; k++) {
    const seat = holdem.toMove(s)!;
    s = holdem.apply(s, seat, policy(s));
    onAction?.(s);
  }
  return s;
}

const chipsOf = (s: TableState) =>
  (s.hand.result ? s.hand.result.stacks : s.hand.seats.map((p) => p.stack + p.committed)).reduce((a, b) => a + b, 0);
const passive = (s: TableState): Action =>
  tableValidActions(s).some((v) => v.action === 'check') ? { action: 'check' } : { action: 'call' };

describe('blind schedule', () => {
  it('is the paper’s: 10/20 for hands 1–24, 20/30 from hand 25, 7500/15000 after hand 696', () => {
    const b = paperBlinds();
    expect(b).toHaveLength(29);
    expect(blindLevel(b, 1)).toMatchObject({ level: 1, smallBlind: 10, bigBlind: 20 });
    expect(blindLevel(b, 24)).toMatchObject({ level: 1, bigBlind: 20 });
    expect(blindLevel(b, 25)).toMatchObject({ level: 2, smallBlind: 20, bigBlind: 30 });
    expect(blindLevel(b, 696)).toMatchObject({ level: 29, bigBlind: 15000 });
    expect(blindLevel(b, 720)).toMatchObject({ level: 29, smallBlind: 7500, bigBlind: 15000 });
  });

  it('applies a new level on the hand it starts (no one-hand lag)', () => {
    let s = holdem.init('standard', createRng(3), { seats: 3, options: { handsPerLevel: 2, startingChips: 100000 } });
    const seen: Array<[number, number]> = [];
    s = playOut(s, passive, (t) => {
      if (!t.finished && seen.at(-1)?.[0] !== t.handNumber) seen.push([t.handNumber, t.hand.bigBlind]);
    });
    const posted = handLogs(s).map((log) => log.hand.history.find((h) => h.action === 'big_blind')!.amount);
    expect(posted.slice(0, 6)).toEqual([20, 20, 30, 30, 40, 40]);
  });
});

describe('table flow', () => {
  it('moves the button one seat with chips per hand', () => {
    let s = holdem.init('standard', createRng(5), { seats: 4, options: { handCap: 6, startingChips: 100000 } });
    s = playOut(s, passive);
    const buttons = handLogs(s).map((l) => l.hand.button);
    for (let i = 1; i < buttons.length; i++) expect(buttons[i]).toBe((buttons[i - 1]! + 1) % 4);
  });

  it('heads-up: the button posts the small blind and acts first pre-flop, last after the flop', () => {
    let s = holdem.init('standard', createRng(9), { seats: 2 });
    const h = s.hand;
    expect(h.sbSeat).toBe(h.button);
    expect(h.toAct).toBe(h.button);
    s = holdem.apply(s, h.button, { action: 'call' });
    s = holdem.apply(s, h.bbSeat, { action: 'check' });
    expect(s.hand.street).toBe('flop');
    expect(s.hand.toAct).toBe(h.bbSeat);
  });

  it('ends at the hand cap; the chip leader wins and places follow chips', () => {
    let s = holdem.init('standard', createRng(11), { seats: 3, options: { handCap: 4 } });
    s = playOut(s, (t) => (t.hand.toAct === 0 ? { action: 'fold' } : passive(t)));
    expect(s.handNumber).toBe(4);
    const out = holdem.outcome(s)!;
    expect(out.reason).toBe('hand_cap');
    const chips = out.detail!.chips as number[];
    expect(chips.reduce((a, b) => a + b, 0)).toBe(6000);
    const leader = chips.indexOf(Math.max(...chips));
    if (chips.filter((c) => c === chips[leader]).length === 1) {
      expect(out.winner).toBe(leader);
      expect(out.scores[leader]).toBe(1);
    }
    for (let a = 0; a < 3; a++)
      for (let b = 0; b < 3; b++) if (chips[a]! > chips[b]!) expect(out.places![a]).toBeLessThan(out.places![b]!);
  });

  it('eliminates busted players; the last one standing wins; earlier busts place lower', () => {
    const rng = createRng(21);
    let s = holdem.init('standard', createRng(21), { seats: 5, options: { startingChips: 200 } });
    s = playOut(s, (t) => {
      // Everyone shoves or calls: tables end within a few hands.
      const valid = tableValidActions(t);
      const allIn = valid.find((v) => v.action === 'all_in');
      return allIn && rng.float() < 0.7 ? { action: 'all_in' } : passive(t);
    });
    const out = holdem.outcome(s)!;
    expect(out.reason).toBe('last_player');
    const chips = out.detail!.chips as number[];
    expect(chips.filter((c) => c > 0)).toEqual([1000]);
    expect(out.places![out.winner!]).toBe(1);
    expect(s.eliminated).toHaveLength(4);
    for (let i = 1; i < s.eliminated.length; i++) {
      const [early, late] = [s.eliminated[i - 1]!, s.eliminated[i]!];
      if (early.hand < late.hand) expect(out.places![early.seat]).toBeGreaterThan(out.places![late.seat]!);
    }
    // Busted seats are dealt out of later hands.
    for (const log of handLogs(s))
      for (const e of s.eliminated) if (e.hand < log.number) expect(log.hand.seats[e.seat]!.status).toBe('out');
  });

  it('deals the same cards to the same seats for the same seed (duplicate deals)', () => {
    const a = holdem.init('variant', createRng(77), { seats: 6 });
    const b = holdem.init('variant', createRng(77), { seats: 6 });
    const c = holdem.init('variant', createRng(78), { seats: 6 });
    expect(a.hand.seats.map((p) => p.hole)).toEqual(b.hand.seats.map((p) => p.hole));
    expect(a.hand.deckBoard).toEqual(b.hand.deckBoard);
    expect(a.hand.seats.map((p) => p.hole)).not.toEqual(c.hand.seats.map((p) => p.hole));
    for (const p of a.hand.seats) for (const card of p.hole) expect('6789TJQKA').toContain(card[0]);
  });

  it('rejects bad setups with a clear error', () => {
    expect(() => holdem.init('standard', createRng(1), { seats: 13 })).toThrow(/2–12/);
    expect(() => holdem.init('omaha', createRng(1), { seats: 3 })).toThrow(/unknown hold'em variant/);
    expect(() => holdem.init('standard', createRng(1), { seats: 3, options: { handCap: 'x' } })).toThrow(/handCap/);
  });
});

describe('conservation', () => {
  it('keeps the total chips constant over 10,000 hands of random players, both decks', () => {
    const rng = createRng(2024);
    let hands = 0;
    let tables = 0;
    while (hands < 10_000) {
      const variant = tables % 2 ? 'variant' : 'standard';
      const seats = 2 + (tables % 11);
      let s = holdem.init(variant, createRng(tables + 1), { seats, options: { handCap: 300 } });
      const total = seats * 2000;
      s = playOut(
        s,
        (t) => randomAction(t, rng),
        (t) => {
          // Checked at every action; expect runs only on a failure (it costs more than the check).
          if (chipsOf(t) !== total) expect(chipsOf(t)).toBe(total);
          for (const p of t.hand.seats) if (!(p.stack >= 0)) expect(p.stack).toBeGreaterThanOrEqual(0);
        },
      );
      const out = holdem.outcome(s)!;
      expect((out.detail!.chips as number[]).reduce((a, b) => a + b, 0)).toBe(total);
      expect(out.scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      for (const log of handLogs(s)) expect(log.hand.result!.net.reduce((a, b) => a + b, 0)).toBe(0);
      hands += s.handNumber;
      tables++;
    }
    expect(hands).toBeGreaterThanOrEqual(10_000);
  }, 120_000);
});
