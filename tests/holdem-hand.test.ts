// One hand of no-limit hold'em: blinds, action order, raise sizes, side pots, odd chips, and chip
// conservation over many random hands. The showdown ranking is a stand-in so these tests do not
// depend on the hand evaluator.
import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import {
  applyAction,
  defaultAction,
  startHand,
  timeoutAction,
  validActions,
  validate,
  type Action,
  type HandConfig,
  type HandState,
  type Rank,
} from '../games/holdem/hand.ts';

const RANKS = '23456789TJQKA';
const FULL_DECK = [...RANKS].flatMap((r) => [...'shdc'].map((s) => r + s));

/** Stand-in: high card only, best five ranks as a base-13 number (ties are common, on purpose). */
const highCard: Rank = (cards) => {
  const vals = cards
    .map((c) => RANKS.indexOf(c[0]!))
    .sort((a, b) => b - a)
    .slice(0, 5);
  return vals.reduce((acc, v) => acc * 13 + v, 0);
};

/** Stand-in: strength set by the test per seat's first hole card. */
function byHole(strengths: Record<string, number>): Rank {
  return (cards) => strengths[cards[0]!] ?? 0;
}

/** A deck giving each seat the listed hole cards (seat → [c1, c2]) and then `board`. */
function deckFor(stacks: number[], button: number, holes: Record<number, [string, string]>, board: string[]): string[] {
  const n = stacks.length;
  const order: number[] = [];
  for (let k = 1; k <= n; k++) {
    const seat = (button + k) % n;
    if (stacks[seat]! > 0) order.push(seat);
  }
  const used = new Set<string>([...Object.values(holes).flat(), ...board]);
  const spare = FULL_DECK.filter((c) => !used.has(c));
  const hole = (seat: number, i: 0 | 1): string => holes[seat]?.[i] ?? spare.shift()!;
  const first = order.map((s) => hole(s, 0));
  const second = order.map((s) => hole(s, 1));
  const rest = FULL_DECK.filter((c) => !used.has(c) && !first.includes(c) && !second.includes(c));
  return [...first, ...second, ...board, ...rest];
}

function cfg(stacks: number[], button: number, extra: Partial<HandConfig> = {}): HandConfig {
  return { stacks, button, smallBlind: 10, bigBlind: 20, deck: FULL_DECK, ...extra };
}

/** Apply a list of actions, each by the seat to act (checked against `seat`). */
function play(s: HandState, rank: Rank, moves: Array<[number, Action]>): HandState {
  for (const [seat, action] of moves) {
    expect(s.toAct, `expected seat ${seat} to act`).toBe(seat);
    s = applyAction(s, seat, action, rank);
  }
  return s;
}

const fold: Action = { action: 'fold' };
const check: Action = { action: 'check' };
const call: Action = { action: 'call' };
const allIn: Action = { action: 'all_in' };
const raise = (amount: number): Action => ({ action: 'raise', amount });

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('blinds and order of play', () => {
  it('heads-up: the button posts the small blind, acts first pre-flop and last after', () => {
    let s = startHand(cfg([1000, 1000], 0), highCard);
    expect(s.sbSeat).toBe(0);
    expect(s.bbSeat).toBe(1);
    expect(s.seats.map((p) => p.streetBet)).toEqual([10, 20]);
    expect(s.toAct).toBe(0);
    s = play(s, highCard, [[0, call]]);
    expect(s.toAct).toBe(1); // big blind option
    expect(validActions(s).map((a) => a.action)).toEqual(['fold', 'check', 'raise', 'all_in']);
    s = play(s, highCard, [[1, check]]);
    expect(s.street).toBe('flop');
    expect(s.board).toEqual(FULL_DECK.slice(4, 7));
    expect(s.seats[1]!.hole).toEqual([FULL_DECK[0], FULL_DECK[2]]); // non-button dealt first
    expect(s.toAct).toBe(1);
    s = play(s, highCard, [
      [1, check],
      [0, check],
    ]);
    expect(s.street).toBe('turn');
    expect(s.toAct).toBe(1);
  });

  it('six players: SB and BB left of the button, UTG first pre-flop, SB first after', () => {
    const rank = highCard;
    let s = startHand(cfg([500, 500, 500, 500, 500, 500], 2), rank);
    expect([s.sbSeat, s.bbSeat]).toEqual([3, 4]);
    expect(s.seats[3]!.streetBet).toBe(10);
    expect(s.seats[4]!.streetBet).toBe(20);
    expect(s.toAct).toBe(5);
    expect(s.history.map((h) => [h.seat, h.action, h.amount])).toEqual([
      [3, 'small_blind', 10],
      [4, 'big_blind', 20],
    ]);
    s = play(s, rank, [
      [5, call],
      [0, fold],
      [1, call],
      [2, call],
      [3, call],
      [4, check],
    ]);
    expect(s.street).toBe('flop');
    expect(s.toAct).toBe(3);
    s = play(s, rank, [
      [3, check],
      [4, check],
      [5, check],
      [1, check],
      [2, check],
    ]);
    expect(s.street).toBe('turn');
    expect(s.toAct).toBe(3);
  });

  it('skips seats with no chips and lets a short big blind go all-in', () => {
    let s = startHand(cfg([500, 0, 500, 15], 0), highCard);
    expect([s.sbSeat, s.bbSeat]).toEqual([2, 3]);
    expect(s.seats[1]!.status).toBe('out');
    expect(s.seats[3]!.status).toBe('all_in');
    expect(s.seats[3]!.streetBet).toBe(15);
    expect(s.currentBet).toBe(20); // the nominal big blind still has to be called
    expect(s.toAct).toBe(0);
    s = play(s, highCard, [
      [0, call],
      [2, call],
    ]);
    expect(s.street).toBe('flop');
    expect(s.toAct).toBe(2);
  });
});

describe('raise sizes', () => {
  it('minimum raise is the last full raise, at least the big blind', () => {
    let s = startHand(cfg([1000, 1000, 1000, 1000], 0), highCard);
    // UTG = seat 3
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 40, max: 1000 });
    expect(validate(s, 3, raise(39))).toMatch(/at least 40/);
    s = play(s, highCard, [[3, raise(60)]]); // a raise of 40
    expect(s.minRaise).toBe(40);
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 100, max: 1000 });
    expect(validate(s, 0, raise(99))).toMatch(/at least 100/);
    s = play(s, highCard, [[0, raise(150)]]); // a re-raise of 90
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 240, max: 1000 });
    expect(validActions(s)).toContainEqual({ action: 'call', amount: 140 }); // SB has 10 in
    s = play(s, highCard, [
      [1, fold],
      [2, call],
      [3, call],
    ]);
    // New street: the minimum bet is the big blind again.
    expect(s.street).toBe('flop');
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 20, max: 850 });
  });

  it('a short all-in does not reopen raising for a player who already acted, but does for one who has not', () => {
    // Button 0, SB 1 (70 chips), BB 2, UTG 3.
    let s = startHand(cfg([1000, 70, 1000, 1000], 0), highCard);
    s = play(s, highCard, [
      [3, raise(60)],
      [0, call],
      [1, allIn],
    ]); // SB all-in to 70: +10, short
    expect(s.currentBet).toBe(70);
    expect(s.minRaise).toBe(40);
    // BB has not acted yet: may re-raise, to at least 70 + 40.
    expect(s.toAct).toBe(2);
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 110, max: 1000 });
    s = play(s, highCard, [[2, call]]);
    // UTG acted at 60 and faces only the short raise: call or fold.
    expect(s.toAct).toBe(3);
    expect(validActions(s)).toEqual([{ action: 'fold' }, { action: 'call', amount: 10 }]);
    expect(validate(s, 3, raise(200))).toMatch(/not open/);
    expect(validate(s, 3, allIn)).toMatch(/not open/);
    expect(validate(s, 3, call)).toBeNull();
    s = play(s, highCard, [
      [3, call],
      [0, call],
    ]);
    expect(s.street).toBe('flop');
  });

  it('short all-ins adding up to a full raise reopen raising', () => {
    // Button 0, SB 1, BB 2, seat 3, seat 4 (75 chips), seat 5 (100 chips).
    let s = startHand(cfg([1000, 1000, 1000, 1000, 75, 100], 0), highCard);
    s = play(s, highCard, [
      [3, raise(60)],
      [4, allIn],
    ]); // 60: a full raise of 40; 75: +15, short
    expect(s.minRaise).toBe(40);
    s = play(s, highCard, [[5, allIn]]); // 100: +25, short again, but 40 above seat 3's 60
    expect(s.minRaise).toBe(40);
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 140, max: 1000 });
    s = play(s, highCard, [
      [0, call],
      [1, call],
      [2, call],
    ]);
    expect(s.toAct).toBe(3);
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 140, max: 1000 });
    expect(validate(s, 3, allIn)).toBeNull();
    s = play(s, highCard, [[3, raise(300)]]);
    expect(s.toAct).toBe(0); // everyone who can still act must answer the full raise
  });
});

describe('pots', () => {
  it('three all-ins of different sizes make a main pot, two side pots and an uncalled bet', () => {
    // Seats 0..3 with 100, 300, 600, 1000; button 3, SB 0, BB 1, UTG 2.
    const stacks = [100, 300, 600, 1000];
    const rank = byHole({ '2c': 4, '3c': 3, '4c': 2, '5c': 1 });
    const deck = deckFor(stacks, 3, { 0: ['2c', '7d'], 1: ['3c', '7h'], 2: ['4c', '7s'], 3: ['5c', '8d'] }, [
      'Ad',
      'Kd',
      'Qh',
      '9s',
      '6c',
    ]);
    let s = startHand({ stacks, button: 3, smallBlind: 5, bigBlind: 10, deck }, rank);
    expect(s.toAct).toBe(2);
    s = play(s, rank, [
      [2, allIn],
      [3, allIn],
      [0, allIn],
      [1, allIn],
    ]);
    expect(s.street).toBe('complete');
    const r = s.result!;
    expect(r.board).toEqual(['Ad', 'Kd', 'Qh', '9s', '6c']);
    expect(r.pots).toEqual([
      { amount: 400, eligible: [0, 1, 2, 3], winners: [0], shares: [{ seat: 0, amount: 400 }] },
      { amount: 600, eligible: [1, 2, 3], winners: [1], shares: [{ seat: 1, amount: 600 }] },
      { amount: 600, eligible: [2, 3], winners: [2], shares: [{ seat: 2, amount: 600 }] },
    ]);
    expect(r.returned).toEqual({ seat: 3, amount: 400 });
    expect(r.stacks).toEqual([400, 600, 600, 400]);
    expect(r.net).toEqual([300, 300, 0, -600]);
    expect(r.showdown).toEqual([0, 1, 2, 3]);
  });

  it('splits in whole chips, the odd chip to the first winner left of the button', () => {
    // Button 0, SB 1, BB 2. SB folds: pot 10 + 10 + 5 = 25, split by seats 0 and 2.
    const stacks = [1000, 1000, 1000];
    const rank = byHole({ Ah: 9, As: 9, '2c': 1 });
    const deck = deckFor(stacks, 0, { 0: ['Ah', '3d'], 1: ['2c', '4d'], 2: ['As', '5d'] }, [
      'Kc',
      'Qc',
      'Jd',
      '9h',
      '7s',
    ]);
    let s = startHand({ stacks, button: 0, smallBlind: 5, bigBlind: 10, deck }, rank);
    s = play(s, rank, [
      [0, call],
      [1, fold],
      [2, check],
    ]);
    for (let street = 0; street < 3; street++)
      s = play(s, rank, [
        [2, check],
        [0, check],
      ]);
    const r = s.result!;
    expect(r.pots).toEqual([
      {
        amount: 25,
        eligible: [0, 2],
        winners: [2, 0],
        shares: [
          { seat: 2, amount: 13 },
          { seat: 0, amount: 12 },
        ],
      },
    ]);
    expect(r.stacks).toEqual([1002, 995, 1003]);
    expect(r.showdown).toEqual([2, 0]);
  });

  it('returns an uncalled bet when the other player folds', () => {
    let s = startHand(cfg([1000, 1000], 0), highCard);
    s = play(s, highCard, [
      [0, raise(100)],
      [1, fold],
    ]);
    expect(s.result!.returned).toEqual({ seat: 0, amount: 80 });
    expect(s.result!.pots).toEqual([{ amount: 40, eligible: [0], winners: [0], shares: [{ seat: 0, amount: 40 }] }]);
    expect(s.result!.stacks).toEqual([1020, 980]);
    expect(s.result!.showdown).toEqual([]);
    expect(s.result!.board).toEqual([]);
  });

  it('everyone folds to the big blind', () => {
    let s = startHand(cfg([500, 500, 500, 500, 500, 500], 2), highCard);
    s = play(s, highCard, [
      [5, fold],
      [0, fold],
      [1, fold],
      [2, fold],
      [3, fold],
    ]);
    expect(s.street).toBe('complete');
    expect(s.toAct).toBeNull();
    expect(s.result!.stacks).toEqual([500, 500, 500, 490, 510, 500]);
    expect(s.result!.returned).toEqual({ seat: 4, amount: 10 });
    expect(s.result!.showdown).toEqual([]);
    expect(validActions(s)).toEqual([]);
  });

  it('showdown where the board plays: the pot is split', () => {
    const stacks = [1000, 1000];
    const deck = deckFor(stacks, 0, { 0: ['2c', '3d'], 1: ['4h', '5c'] }, ['As', 'Ks', 'Qs', 'Js', '9d']);
    let s = startHand({ stacks, button: 0, smallBlind: 10, bigBlind: 20, deck }, highCard);
    s = play(s, highCard, [
      [0, call],
      [1, check],
    ]);
    for (let street = 0; street < 3; street++)
      s = play(s, highCard, [
        [1, check],
        [0, check],
      ]);
    const r = s.result!;
    expect(r.board).toEqual(['As', 'Ks', 'Qs', 'Js', '9d']);
    expect(r.showdown).toEqual([1, 0]);
    expect(r.pots[0]!.winners).toEqual([1, 0]);
    expect(r.stacks).toEqual([1000, 1000]);
  });

  it('a small blind folding to a short all-in big blind leaves its chips in the pot', () => {
    let s = startHand(cfg([1000, 1000, 5], 0), highCard); // BB (seat 2) all-in for 5
    expect(s.currentBet).toBe(20);
    s = play(s, highCard, [
      [0, fold],
      [1, fold],
    ]);
    expect(s.result!.pots).toEqual([{ amount: 15, eligible: [2], winners: [2], shares: [{ seat: 2, amount: 15 }] }]);
    expect(s.result!.returned).toBeNull();
    expect(s.result!.stacks).toEqual([1000, 990, 15]);
  });

  it('deals the rest of the board when all-in pre-flop', () => {
    let s = startHand(cfg([300, 300], 1), highCard);
    s = play(s, highCard, [
      [1, allIn],
      [0, call],
    ]);
    expect(s.street).toBe('complete');
    expect(s.result!.board).toHaveLength(5);
    expect(sum(s.result!.stacks)).toBe(600);
  });
});

describe('validate and default actions', () => {
  it('rejects illegal actions with a reason', () => {
    const s = startHand(cfg([1000, 1000, 1000, 1000], 0), highCard); // UTG = 3 to act, faces 20
    expect(validate(s, 0, call)).toBe('Not your turn');
    expect(validate(s, 3, raise(30))).toMatch(/at least 40/);
    expect(validate(s, 3, raise(1001))).toMatch(/Not enough chips/);
    expect(validate(s, 3, check)).toMatch(/Cannot check/);
    expect(validate(s, 3, raise(40.5))).toMatch(/integer/);
    expect(validate(s, 3, { action: 'call', amount: 20.0000001 })).toMatch(/integer/);
    expect(validate(s, 3, { action: 'bet' as never })).toMatch(/Invalid action/);
    expect(validate(s, 3, raise(1000))).toBeNull();
    expect(() => applyAction(s, 0, call, highCard)).toThrow('Not your turn');
  });

  it('accepts a raise to the whole stack below the minimum as an all-in', () => {
    let s = startHand(cfg([1000, 1000, 1000, 35], 0), highCard);
    expect(validActions(s)).toEqual([
      { action: 'fold' },
      { action: 'call', amount: 20 },
      { action: 'all_in', amount: 35 },
    ]);
    s = play(s, highCard, [[3, raise(35)]]); // +15: less than a full raise
    expect(s.seats[3]!.status).toBe('all_in');
    expect(s.currentBet).toBe(35);
    expect(s.minRaise).toBe(20);
    expect(s.history.at(-1)).toEqual({ street: 'preflop', seat: 3, action: 'all_in', amount: 35, to: 35 });
    expect(validActions(s)).toContainEqual({ action: 'raise', min: 55, max: 1000 });
  });

  it('default action checks when free and folds otherwise; timeout always folds', () => {
    let s = startHand(cfg([1000, 1000], 0), highCard);
    expect(defaultAction(s)).toEqual({ action: 'fold' });
    s = play(s, highCard, [[0, call]]);
    expect(defaultAction(s)).toEqual({ action: 'check' });
    expect(timeoutAction(s)).toEqual({ action: 'fold' });
  });
});

describe('random hands', () => {
  it('conserve chips, stay legal and serialisable over 10,000 hands', () => {
    const rng = createRng(20240611);
    let actions = 0;
    let showdowns = 0;
    let sidePots = 0;
    for (let h = 0; h < 10_000; h++) {
      const n = rng.int(2, 12);
      const stacks = Array.from({ length: n }, () => (rng.float() < 0.15 ? 0 : rng.int(1, 400)));
      while (stacks.filter((c) => c > 0).length < 2) stacks[rng.int(0, n - 1)] = rng.int(1, 400);
      const inSeats = stacks.map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
      const button = inSeats[rng.int(0, inSeats.length - 1)]!;
      const bigBlind = rng.int(1, 40);
      const smallBlind = rng.int(0, bigBlind);
      const ante = rng.float() < 0.2 ? rng.int(1, 5) : 0;
      const total = sum(stacks);
      let s = startHand({ stacks, button, smallBlind, bigBlind, ante, deck: rng.shuffle(FULL_DECK) }, highCard);
      let guard = 0;
      while (s.toAct !== null) {
        if (++guard > 500) throw new Error('hand does not end');
        const seat = s.toAct;
        const legal = validActions(s);
        if (legal.length === 0) throw new Error('no legal action');
        const pick = legal[rng.int(0, legal.length - 1)]!;
        let action: Action =
          pick.action === 'raise'
            ? raise(rng.float() < 0.5 ? pick.min : rng.int(pick.min, pick.max))
            : { action: pick.action };
        if (rng.float() < 0.05) action = defaultAction(s);
        const reason = validate(s, seat, action);
        if (reason !== null) throw new Error(`legal action rejected: ${reason}`);
        const before = h % 20 === 0 ? JSON.stringify(s) : '';
        const next = applyAction(s, seat, action, highCard);
        if (before && JSON.stringify(s) !== before) throw new Error('input state mutated');
        s = next;
        actions++;
        const inPlay = sum(s.seats.map((p) => p.stack + p.committed));
        if (s.toAct !== null && inPlay !== total) throw new Error(`chips not conserved mid-hand ${h}`);
      }
      const r = s.result!;
      expect(sum(r.stacks)).toBe(total);
      expect(r.stacks.every((c) => Number.isInteger(c) && c >= 0)).toBe(true);
      expect(sum(r.net)).toBe(0);
      expect(sum(r.pots.map((p) => p.amount)) + (r.returned?.amount ?? 0)).toBe(sum(s.seats.map((p) => p.committed)));
      for (const pot of r.pots) expect(sum(pot.shares.map((x) => x.amount))).toBe(pot.amount);
      if (r.showdown.length > 0) showdowns++;
      if (r.pots.length > 1) sidePots++;
      if (h % 20 === 0) expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    }
    expect(actions).toBeGreaterThan(10_000);
    expect(showdowns).toBeGreaterThan(100);
    expect(sidePots).toBeGreaterThan(100);
  });
});
