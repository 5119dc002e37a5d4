// One hand of no-limit Texas Hold'em as a pure state machine, with correct rules (not CATArena's
// bugs; see the compatibility notes). The state is plain JSON: `applyAction` returns a new state
// and never mutates its input. The showdown comparison is injected (`rank`), so this module does
// not depend on the hand evaluator.
//
// Dealing order (from the pre-shuffled `deck`, no burn cards): hole cards one at a time, two
// rounds, to the seats still in (stack > 0) clockwise starting with the first one left of the
// button (so the button gets its cards last); then the next five cards are the board: flop
// (3), turn (1), river (1).
//
// Rules decisions, where real rule sets differ:
// * Antes are posted first, then blinds; a short stack posts what it has and is all-in.
// * The amount to call pre-flop is always the nominal big blind (or more), even if the big blind
//   was posted short (TDA practice); any excess nobody matched is returned as an uncalled bet,
//   and chips of folded players above every live player's commitment go to the top pot.
// * The minimum raise is the size of the last FULL raise on the street (at least the big blind).
//   A short all-in raise does not change it. A player who has already acted may raise again only
//   if the total raised since they last acted is at least a full raise (so several short all-ins
//   that add up to a full raise reopen the betting, TDA-style).
// * Raising is not offered when no other player could respond (everyone else all-in or folded).
// * A `raise` to exactly the player's whole stack is accepted as an all-in even below the minimum.
// * Folding is always legal, even when checking is free.
// * Heads-up the button must be a seat with chips; with 3+ seats it must be a seat with chips too
//   (no dead button; the caller moves the button to a seat that is in).
// * Split pots are paid in whole chips; odd chips go one each to the winners in clockwise order
//   starting left of the button. All hands still live at showdown are shown.

export type Street = 'preflop' | 'flop' | 'turn' | 'river';
export type ActionType = 'fold' | 'check' | 'call' | 'raise' | 'all_in';
export type Rank = (cards7: string[]) => number;

export interface Action {
  action: ActionType;
  /** For `raise`: the total street bet after the raise (raise TO). Ignored otherwise. */
  amount?: number;
}

export interface HandConfig {
  /** Chips per seat (2–12 seats). A seat with 0 chips is out of this hand. */
  stacks: number[];
  /** Seat index of the button; must be a seat with chips. */
  button: number;
  smallBlind: number;
  bigBlind: number;
  ante?: number;
  /** Pre-shuffled deck; needs 2 × (seats in) + 5 cards. */
  deck: string[];
}

export type SeatStatus = 'active' | 'folded' | 'all_in' | 'out';

export interface SeatState {
  stack: number;
  hole: string[];
  /** Chips put in on the current street. */
  streetBet: number;
  /** Chips put in during the whole hand (antes and blinds included). */
  committed: number;
  status: SeatStatus;
  /** The street's highest bet when this seat last acted voluntarily; null = not acted yet. */
  actedAt: number | null;
}

export interface HistoryEntry {
  street: Street;
  seat: number;
  action: ActionType | 'ante' | 'small_blind' | 'big_blind';
  /** Chips moved into the pot by this action (0 for fold and check). */
  amount: number;
  /** The seat's total street bet after this action. */
  to: number;
}

export interface PotResult {
  amount: number;
  eligible: number[];
  winners: number[];
  shares: Array<{ seat: number; amount: number }>;
}

export interface HandResult {
  /** Final stacks per seat. */
  stacks: number[];
  /** Stack change per seat over the hand. */
  net: number[];
  pots: PotResult[];
  /** Uncalled bet given back to its owner, if any. */
  returned: { seat: number; amount: number } | null;
  /** Seats that showed their cards at showdown (empty when everyone else folded). */
  showdown: number[];
  board: string[];
}

export interface HandState {
  button: number;
  smallBlind: number;
  bigBlind: number;
  ante: number;
  sbSeat: number;
  bbSeat: number;
  startStacks: number[];
  seats: SeatState[];
  street: Street | 'complete';
  /** Board cards dealt so far. */
  board: string[];
  /** The five board cards reserved from the deck (hidden until dealt). */
  deckBoard: string[];
  /** Highest street bet to match. */
  currentBet: number;
  /** Size of the last full raise on this street (at least the big blind). */
  minRaise: number;
  /** Seat to act, or null when the hand is complete. */
  toAct: number | null;
  history: HistoryEntry[];
  result: HandResult | null;
}

export type ValidAction =
  | { action: 'fold' }
  | { action: 'check' }
  | { action: 'call'; amount: number }
  | { action: 'raise'; min: number; max: number }
  | { action: 'all_in'; amount: number };

const STREETS: Street[] = ['preflop', 'flop', 'turn', 'river'];

function isWhole(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

function nextSeat(n: number, from: number, pred: (seat: number) => boolean): number | null {
  for (let k = 1; k <= n; k++) {
    const seat = (from + k) % n;
    if (pred(seat)) return seat;
  }
  return null;
}

function post(s: HandState, seat: number, chips: number, action: HistoryEntry['action'], street: Street): number {
  const p = s.seats[seat]!;
  const pay = Math.min(chips, p.stack);
  p.stack -= pay;
  p.committed += pay;
  if (action !== 'ante') p.streetBet += pay;
  if (p.stack === 0 && p.status === 'active') p.status = 'all_in';
  if (pay > 0 || action !== 'ante') s.history.push({ street, seat, action, amount: pay, to: p.streetBet });
  return pay;
}

/** Deal a new hand and post antes and blinds. */
export function startHand(config: HandConfig, rank: Rank): HandState {
  const { stacks, button, smallBlind, bigBlind, deck } = config;
  const ante = config.ante ?? 0;
  const n = stacks.length;
  if (n < 2 || n > 12) throw new Error(`hold'em: 2–12 seats, got ${n}`);
  if (!stacks.every(isWhole)) throw new Error("hold'em: stacks must be whole numbers ≥ 0");
  if (!isWhole(smallBlind) || !isWhole(bigBlind) || !isWhole(ante) || bigBlind < 1) {
    throw new Error("hold'em: blinds and ante must be whole numbers (big blind ≥ 1)");
  }
  const inSeats = stacks.map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
  if (inSeats.length < 2) throw new Error("hold'em: at least two seats need chips");
  if (!Number.isInteger(button) || button < 0 || button >= n || stacks[button]! <= 0) {
    throw new Error("hold'em: the button must be a seat with chips");
  }
  if (deck.length < 2 * inSeats.length + 5) throw new Error("hold'em: deck too short");

  const s: HandState = {
    button,
    smallBlind,
    bigBlind,
    ante,
    sbSeat: -1,
    bbSeat: -1,
    startStacks: stacks.slice(),
    seats: stacks.map((stack) => ({
      stack,
      hole: [],
      streetBet: 0,
      committed: 0,
      status: stack > 0 ? 'active' : 'out',
      actedAt: null,
    })),
    street: 'preflop',
    board: [],
    deckBoard: [],
    currentBet: 0,
    minRaise: bigBlind,
    toAct: null,
    history: [],
    result: null,
  };
  const isIn = (i: number): boolean => s.seats[i]!.status !== 'out';
  // Deal order: clockwise from the first seat left of the button.
  const order: number[] = [];
  for (let seat = nextSeat(n, button, isIn)!; order.length < inSeats.length; seat = nextSeat(n, seat, isIn)!) {
    order.push(seat);
  }
  let d = 0;
  for (let round = 0; round < 2; round++) for (const seat of order) s.seats[seat]!.hole.push(deck[d++]!);
  s.deckBoard = deck.slice(d, d + 5);

  if (ante > 0) for (const seat of order) post(s, seat, ante, 'ante', 'preflop');
  const headsUp = inSeats.length === 2;
  s.sbSeat = headsUp ? button : nextSeat(n, button, isIn)!;
  s.bbSeat = nextSeat(n, s.sbSeat, isIn)!;
  post(s, s.sbSeat, smallBlind, 'small_blind', 'preflop');
  post(s, s.bbSeat, bigBlind, 'big_blind', 'preflop');
  s.currentBet = Math.max(bigBlind, ...s.seats.map((p) => p.streetBet));
  advance(s, s.bbSeat, rank);
  return s;
}

function needsToAct(s: HandState, seat: number): boolean {
  const p = s.seats[seat]!;
  return p.status === 'active' && (p.actedAt === null || p.streetBet < s.currentBet);
}

function roundComplete(s: HandState): boolean {
  const canAct = s.seats.map((p, i) => (p.status === 'active' ? i : -1)).filter((i) => i >= 0);
  if (canAct.length === 0) return true;
  if (canAct.length === 1) return s.seats[canAct[0]!]!.streetBet >= s.currentBet;
  return canAct.every((i) => !needsToAct(s, i));
}

/** Move the hand on after `from` acted (or the blinds were posted). Mutates `s`. */
function advance(s: HandState, from: number, rank: Rank): void {
  const n = s.seats.length;
  const live = s.seats.filter((p) => p.status === 'active' || p.status === 'all_in').length;
  if (live <= 1) return finish(s, rank);
  if (!roundComplete(s)) {
    s.toAct = nextSeat(n, from, (i) => needsToAct(s, i));
    return;
  }
  // Street over.
  for (const p of s.seats) {
    p.streetBet = 0;
    p.actedAt = null;
  }
  s.currentBet = 0;
  s.minRaise = s.bigBlind;
  const canAct = s.seats.filter((p) => p.status === 'active').length;
  if (canAct <= 1 || s.street === 'river') {
    s.board = s.deckBoard.slice();
    return finish(s, rank);
  }
  const next = STREETS[STREETS.indexOf(s.street as Street) + 1]!;
  s.street = next;
  s.board = s.deckBoard.slice(0, next === 'flop' ? 3 : next === 'turn' ? 4 : 5);
  s.toAct = nextSeat(n, s.button, (i) => s.seats[i]!.status === 'active');
}

/** Clockwise order starting left of the button (for odd chips). */
function clockwiseFromButton(s: HandState, seats: number[]): number[] {
  const n = s.seats.length;
  const dist = (i: number): number => (i - s.button - 1 + 2 * n) % n;
  return seats.slice().sort((a, b) => dist(a) - dist(b));
}

function finish(s: HandState, rank: Rank): void {
  const n = s.seats.length;
  s.toAct = null;
  s.street = 'complete';
  const live = s.seats.map((p, i) => (p.status === 'active' || p.status === 'all_in' ? i : -1)).filter((i) => i >= 0);
  const committed = s.seats.map((p) => p.committed);
  const payout = new Array<number>(n).fill(0);
  let returned: HandResult['returned'] = null;
  const pots: PotResult[] = [];
  const strength = new Map<number, number>();
  const showdown = live.length >= 2 ? clockwiseFromButton(s, live) : [];
  for (const seat of showdown) strength.set(seat, rank([...s.seats[seat]!.hole, ...s.board]));

  const levels = [...new Set(committed.filter((c) => c > 0))].sort((a, b) => a - b);
  let prev = 0;
  const raw: Array<{ amount: number; eligible: number[] }> = [];
  for (const level of levels) {
    let amount = 0;
    const contributors: number[] = [];
    committed.forEach((c, i) => {
      const part = Math.min(c, level) - Math.min(c, prev);
      if (part > 0) {
        amount += part;
        contributors.push(i);
      }
    });
    const eligible = live.filter((i) => committed[i]! >= level);
    if (contributors.length === 1 && eligible.length === 1 && eligible[0] === contributors[0]) {
      returned = { seat: contributors[0]!, amount };
      payout[contributors[0]!]! += amount;
    } else {
      const last = raw[raw.length - 1];
      // Dead money above every live player's commitment (e.g. a small blind that folded to a
      // short all-in big blind) joins the highest pot the live players contest.
      if (eligible.length === 0 && last) last.amount += amount;
      else if (eligible.length === 0) raw.push({ amount, eligible: live });
      else if (last && last.eligible.join() === eligible.join()) last.amount += amount;
      else raw.push({ amount, eligible });
    }
    prev = level;
  }
  for (const pot of raw) {
    let winners: number[];
    if (pot.eligible.length === 1) winners = pot.eligible;
    else {
      const best = Math.max(...pot.eligible.map((i) => strength.get(i)!));
      winners = clockwiseFromButton(
        s,
        pot.eligible.filter((i) => strength.get(i) === best),
      );
    }
    const each = Math.floor(pot.amount / winners.length);
    const odd = pot.amount - each * winners.length;
    const shares = winners.map((seat, k) => ({ seat, amount: each + (k < odd ? 1 : 0) }));
    for (const sh of shares) payout[sh.seat]! += sh.amount;
    pots.push({ amount: pot.amount, eligible: pot.eligible, winners, shares });
  }
  for (let i = 0; i < n; i++) {
    const p = s.seats[i]!;
    p.stack += payout[i]!;
  }
  const stacks = s.seats.map((p) => p.stack);
  s.result = {
    stacks,
    net: stacks.map((c, i) => c - s.startStacks[i]!),
    pots,
    returned,
    showdown,
    board: s.board.slice(),
  };
}

/** Whether the seat to act may (re-)raise at all, ignoring the chip count. */
function mayRaise(s: HandState, seat: number): boolean {
  const p = s.seats[seat]!;
  if (p.actedAt !== null && s.currentBet - p.actedAt < s.minRaise) return false;
  // Somebody else must be able to respond.
  return s.seats.some((q, i) => i !== seat && q.status === 'active');
}

/** Legal actions for the seat to act (empty when the hand is complete). */
export function validActions(s: HandState): ValidAction[] {
  if (s.toAct === null) return [];
  const seat = s.toAct;
  const p = s.seats[seat]!;
  const out: ValidAction[] = [{ action: 'fold' }];
  const toCall = s.currentBet - p.streetBet;
  if (toCall <= 0) out.push({ action: 'check' });
  else out.push({ action: 'call', amount: Math.min(toCall, p.stack) });
  const max = p.stack + p.streetBet;
  const canRaise = mayRaise(s, seat) && max > s.currentBet;
  const min = s.currentBet + s.minRaise;
  if (canRaise && max >= min) out.push({ action: 'raise', min, max });
  if (max <= s.currentBet || canRaise) out.push({ action: 'all_in', amount: p.stack });
  return out;
}

/** Why `action` by `seat` is illegal now, or null if it is legal. */
export function validate(s: HandState, seat: number, action: Action): string | null {
  if (s.toAct === null) return 'The hand is over';
  if (seat !== s.toAct) return 'Not your turn';
  if (!action || typeof action !== 'object') return 'Action must be an object';
  if (action.amount !== undefined && !(typeof action.amount === 'number' && Number.isInteger(action.amount))) {
    return 'Bet amount must be an integer';
  }
  const p = s.seats[seat]!;
  const max = p.stack + p.streetBet;
  switch (action.action) {
    case 'fold':
      return null;
    case 'check':
      return p.streetBet === s.currentBet ? null : `Cannot check facing a bet of ${s.currentBet}`;
    case 'call':
      return p.streetBet < s.currentBet ? null : 'Nothing to call';
    case 'all_in':
      if (max <= s.currentBet) return null;
      return mayRaise(s, seat) ? null : 'Raising is not open to you';
    case 'raise': {
      const to = action.amount;
      if (to === undefined) return 'Raise needs an amount (the total street bet)';
      if (!mayRaise(s, seat)) return 'Raising is not open to you';
      if (to > max) return `Not enough chips to raise to ${to} (max ${max})`;
      if (to <= s.currentBet) return `Raise must be above the current bet of ${s.currentBet}`;
      if (to < s.currentBet + s.minRaise && to !== max) {
        return `Raise must be to at least ${s.currentBet + s.minRaise}`;
      }
      return null;
    }
    default:
      return `Invalid action: ${String((action as { action: unknown }).action)}`;
  }
}

/** Apply a legal action by `seat`; throws with the reason if it is illegal. Returns a new state. */
export function applyAction(state: HandState, seat: number, action: Action, rank: Rank): HandState {
  const reason = validate(state, seat, action);
  if (reason) throw new Error(reason);
  const s = copyHand(state);
  const p = s.seats[seat]!;
  const street = s.street as Street;
  const before = p.streetBet;
  const betBefore = s.currentBet;
  let kind = action.action;
  switch (action.action) {
    case 'fold':
      p.status = 'folded';
      break;
    case 'check':
      break;
    case 'call':
      post1(p, Math.min(s.currentBet - p.streetBet, p.stack));
      break;
    case 'all_in':
      post1(p, p.stack);
      break;
    case 'raise':
      post1(p, action.amount! - p.streetBet);
      if (p.stack === 0) kind = 'all_in';
      break;
  }
  if (p.streetBet > betBefore) {
    const inc = p.streetBet - betBefore;
    if (inc >= s.minRaise) s.minRaise = inc; // a full raise; a short all-in leaves it
    s.currentBet = p.streetBet;
  }
  if (p.status === 'active') p.actedAt = s.currentBet;
  s.history.push({ street, seat, action: kind, amount: p.streetBet - before, to: p.streetBet });
  advance(s, seat, rank);
  return s;
}

/**
 * A copy that applyAction may mutate: seats and the history array are new, everything the
 * action cannot change (hole cards, the reserved board, past history entries) is shared.
 */
function copyHand(state: HandState): HandState {
  return {
    ...state,
    startStacks: state.startStacks,
    seats: state.seats.map((p) => ({ ...p })),
    board: state.board.slice(),
    history: state.history.slice(),
  };
}

function post1(p: SeatState, chips: number): void {
  p.stack -= chips;
  p.streetBet += chips;
  p.committed += chips;
  if (p.stack === 0) p.status = 'all_in';
}

/** What a player who gave an invalid answer does: check if free, otherwise fold. */
export function defaultAction(s: HandState): Action {
  if (s.toAct === null) return { action: 'fold' };
  const p = s.seats[s.toAct]!;
  return p.streetBet === s.currentBet ? { action: 'check' } : { action: 'fold' };
}

/** What a player who did not answer in time does: fold (even when a check was free). */
export function timeoutAction(_s?: HandState): Action {
  return { action: 'fold' };
}
