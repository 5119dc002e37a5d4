// One duplicate-bridge board in one room, as a pure game: auction, (variant) partner card
// exchange, play of 13 tricks, result. Real contract-bridge rules (Laws of Duplicate Bridge), in
// CATArena's encodings (docs/catarena-compat.md §5.1, §5.3, §5.5). Where CATArena's server breaks
// the laws we follow the laws:
// * the DEALER makes the first call (CATArena: the dealer's left-hand opponent);
// * a double applies only to the last bid, by an opponent, and a new bid clears it (CATArena: one
//   double per auction that carries over to later bids, redouble of a stale double);
// * the declarer is the first player of the declaring side who named the final strain
//   (CATArena: whoever bid last);
// * dummy's hand is exposed after the opening lead and dummy's cards are the declaring side's
//   decision (CATArena: hidden, and dummy's own AI plays them).
//
// Who acts: toMove() is the seat whose card or call is due, including the DUMMY seat when a card
// from dummy is due. The orchestrator sends that request to the dummy seat's bot; both partners
// run the same strategy, so the dummy seat's request is answered by the declaring side's
// strategy, with the declarer's information: view() gives the dummy seat the declarer's hand
// exactly when dummy's card is due.
//
// Variant 'variant' (CATArena's "bridge_magic"): when the auction ends in a contract, each player
// gives one card of their own hand to their partner. Players are asked in the fixed order N, S,
// E, W (the order CATArena's arena asks them). A side's two cards swap only once both partners
// have chosen, so the exchange is simultaneous: nobody gets their own card back or can pass on
// what they received. Nobody sees their partner's choice before making their own, and nobody
// ever sees the opponents' choices (CATArena's state leaks them).
//
// The deal comes from init's Rng only; the board number (option `board`, default 1) fixes dealer
// and vulnerability. Both rooms of a duplicate board are created with the same seed and board,
// so they play the same deal.
import type { Game, GameSetup, Outcome } from '../core/game.ts';
import type { Seat } from '../../records/match.ts';
import type { Rng } from '../../util/rng.ts';
import {
  dealBoard,
  dealerOf,
  isCard,
  rankOf,
  SEAT_NAMES,
  sortHand,
  suitOf,
  vulnerabilityOf,
  type Card,
} from './cards.ts';
import { nsScore, STRAINS, type Contract, type Strain } from './scoring.ts';

export const BRIDGE_VARIANTS = ['standard', 'variant'] as const;
export type BridgeVariant = (typeof BRIDGE_VARIANTS)[number];
/** The order in which the variant's exchange asks the players: N, S, E, W. */
export const EXCHANGE_ORDER: readonly Seat[] = [0, 2, 1, 3];

export type { Contract, Strain };
export type CallType = 'pass' | 'bid' | 'double' | 'redouble';
const CALL_TYPES: readonly string[] = ['pass', 'bid', 'double', 'redouble'];

export interface CallAction {
  type: 'call';
  call_type: CallType;
  level?: number;
  suit?: Strain;
}
export interface PlayAction {
  type: 'play';
  card: string;
}
export interface ExchangeAction {
  type: 'exchange';
  card: string;
}
export type BridgeAction = CallAction | PlayAction | ExchangeAction;

/** One call of the auction, in order. */
export interface Call {
  seat: Seat;
  call_type: CallType;
  level?: number;
  suit?: Strain;
}

/** [seat, card] in the order played. */
export type PlayedCard = [Seat, Card];

export interface Trick {
  leader: Seat;
  cards: PlayedCard[];
  winner: Seat;
}

export type Phase = 'bidding' | 'exchanging' | 'playing' | 'finished';

export interface ExchangeState {
  /** The card each seat gave, null until it chose. */
  given: (Card | null)[];
  /** The card each seat received, null until its side swapped. */
  received: (Card | null)[];
  /** Whether a side's swap is done: [NS, EW]. */
  swapped: [boolean, boolean];
}

export interface BridgeState {
  variant: BridgeVariant;
  /** 1-based board number. */
  board: number;
  dealer: Seat;
  vulnerability: { ns: boolean; ew: boolean };
  /** The hands as dealt, for records; never changes. */
  deal: Card[][];
  /** The cards each seat holds now (after the exchange, less the cards played). */
  hands: Card[][];
  phase: Phase;
  calls: Call[];
  contract: Contract | null;
  /** Variant only, from the end of a contract auction. */
  exchange: ExchangeState | null;
  /** The trick being played. */
  trick: PlayedCard[];
  tricks: Trick[];
  /** Tricks won [NS, EW]. */
  tricksWon: [number, number];
  toMove: Seat | null;
  result: Outcome | null;
}

// ---------------------------------------------------------------------------------------------
// Seats and cards

// Plain-number versions of cards.ts's seat helpers: the Game interface's seats are numbers.
const partnerOf = (seat: Seat): Seat => (seat + 2) % 4;
/** Left-hand opponent: the next seat clockwise. */
const lhoOf = (seat: Seat): Seat => (seat + 1) % 4;
/** 0 for NS, 1 for EW: the index into every [NS, EW] pair. */
const sideOf = (seat: Seat): 0 | 1 => (seat % 2) as 0 | 1;

/** Bid order: level×5 + C0 D1 H2 S3 NT4. */
export const bidRank = (level: number, strain: Strain): number => level * 5 + STRAINS.indexOf(strain);

// ---------------------------------------------------------------------------------------------
// Auction (pure functions of the call list)

interface AuctionStatus {
  /** The last bid and its index in the call list. */
  lastBid: (Call & { index: number }) | null;
  /** Double status of the last bid: a new bid clears it. */
  doubled: 0 | 1 | 2;
}

function auctionStatus(calls: readonly Call[]): AuctionStatus {
  for (let i = calls.length - 1; i >= 0; i--) {
    if (calls[i]!.call_type !== 'bid') continue;
    let doubled: 0 | 1 | 2 = 0;
    for (const c of calls.slice(i + 1)) {
      if (c.call_type === 'double') doubled = 1;
      else if (c.call_type === 'redouble') doubled = 2;
    }
    return { lastBid: { ...calls[i]!, index: i }, doubled };
  }
  return { lastBid: null, doubled: 0 };
}

/** Over after three passes in a row that follow a bid, or four passes to start. */
export function auctionOver(calls: readonly Call[]): boolean {
  if (calls.length < 4) return false;
  return calls.slice(-3).every((c) => c.call_type === 'pass');
}

/** Why `call` by `seat` is illegal after `calls` ("Illegal call" …), or null. Turn not checked. */
function callError(
  calls: readonly Call[],
  seat: Seat,
  call: { call_type: unknown; level?: unknown; suit?: unknown },
): string | null {
  if (typeof call.call_type !== 'string' || !CALL_TYPES.includes(call.call_type)) return 'Invalid call type';
  const { lastBid, doubled } = auctionStatus(calls);
  switch (call.call_type as CallType) {
    case 'pass':
      return null;
    case 'bid': {
      if (call.level === undefined || call.level === null || call.suit === undefined || call.suit === null) {
        return 'Missing level or suit for bid';
      }
      // A string level is rejected, as on CATArena's server.
      if (!Number.isInteger(call.level) || (call.level as number) < 1 || (call.level as number) > 7)
        return 'Invalid level or suit';
      if (!STRAINS.includes(call.suit as Strain)) return 'Invalid level or suit';
      if (lastBid && bidRank(call.level as number, call.suit as Strain) <= bidRank(lastBid.level!, lastBid.suit!))
        return 'Illegal call';
      return null;
    }
    case 'double':
      // Only the last bid, made by an opponent, not yet doubled.
      return lastBid && sideOf(lastBid.seat) !== sideOf(seat) && doubled === 0 ? null : 'Illegal call';
    case 'redouble':
      // Only an opponent's double of our side's last bid (so doubled === 1 means an opponent doubled).
      return lastBid && sideOf(lastBid.seat) === sideOf(seat) && doubled === 1 ? null : 'Illegal call';
  }
}

/** Every legal call for `seat` after `calls`: pass, each higher bid, then double / redouble. */
export function legalCalls(calls: readonly Call[], seat: Seat): CallAction[] {
  const out: CallAction[] = [{ type: 'call', call_type: 'pass' }];
  const { lastBid, doubled } = auctionStatus(calls);
  const floor = lastBid ? bidRank(lastBid.level!, lastBid.suit!) : -1;
  for (let level = 1; level <= 7; level++) {
    for (const suit of STRAINS)
      if (bidRank(level, suit) > floor) out.push({ type: 'call', call_type: 'bid', level, suit });
  }
  if (lastBid && sideOf(lastBid.seat) !== sideOf(seat) && doubled === 0)
    out.push({ type: 'call', call_type: 'double' });
  if (lastBid && sideOf(lastBid.seat) === sideOf(seat) && doubled === 1)
    out.push({ type: 'call', call_type: 'redouble' });
  return out;
}

/**
 * The contract of a finished auction, or null when it was passed out (or is not over). The
 * declarer is the first player of the side that made the last bid to have bid its strain.
 */
export function finalContract(calls: readonly Call[]): Contract | null {
  if (!auctionOver(calls)) return null;
  const { lastBid, doubled } = auctionStatus(calls);
  if (!lastBid) return null;
  const side = sideOf(lastBid.seat);
  const first = calls.find((c) => c.call_type === 'bid' && sideOf(c.seat) === side && c.suit === lastBid.suit)!;
  return {
    level: lastBid.level as Contract['level'],
    strain: lastBid.suit!,
    doubled,
    declarer: first.seat as Contract['declarer'],
  };
}

// ---------------------------------------------------------------------------------------------
// Play

/** The trump suit of a contract, null in no-trump. */
export const trumpOf = (contract: Contract): string | null => (contract.strain === 'NT' ? null : contract.strain);

/** The seat winning a (complete or partial) trick: highest trump, else highest of the suit led. */
export function trickWinner(cards: readonly PlayedCard[], trump: string | null): Seat {
  const led = suitOf(cards[0]![1]);
  let best = cards[0]!;
  for (const c of cards.slice(1)) {
    const [s, b] = [suitOf(c[1]), suitOf(best[1])];
    const beats = s === b ? rankOf(c[1]) > rankOf(best[1]) : s === trump || (s === led && b !== trump);
    if (beats) best = c;
  }
  return best[0];
}

/** The cards `seat` may play now: all its cards, or only those of the suit led if it has any. */
function playableCards(state: BridgeState, seat: Seat): Card[] {
  const hand = state.hands[seat]!;
  if (state.trick.length === 0) return hand.slice();
  const led = suitOf(state.trick[0]![1]);
  const follow = hand.filter((c) => suitOf(c) === led);
  return follow.length > 0 ? follow : hand.slice();
}

// ---------------------------------------------------------------------------------------------
// Board setup

function boardOption(options: GameSetup['options'] = {}): number {
  const raw = options.board ?? 1;
  const board = Number(raw);
  if (!Number.isInteger(board) || board < 1)
    throw new Error(`bridge option board must be an integer ≥ 1, got ${JSON.stringify(raw)}`);
  return board;
}

/**
 * A board with a given deal (hand-built tests, predeals, replays): hands by seat, 13 cards each.
 * Dealer and vulnerability come from the board number.
 */
export function boardFromDeal(
  variant: string,
  deal: readonly (readonly string[])[],
  options: GameSetup['options'] = {},
): BridgeState {
  if (!BRIDGE_VARIANTS.includes(variant as BridgeVariant))
    throw new Error(`unknown bridge variant "${variant}"; available: ${BRIDGE_VARIANTS.join(', ')}`);
  const all = deal.flat();
  if (deal.length !== 4 || deal.some((h) => h.length !== 13) || !all.every(isCard) || new Set(all).size !== 52) {
    throw new Error('bridge: a deal is 4 hands of 13 distinct cards');
  }
  const board = boardOption(options);
  const dealer = dealerOf(board);
  return {
    variant: variant as BridgeVariant,
    board,
    dealer,
    vulnerability: { ...vulnerabilityOf(board) },
    deal: deal.map((h) => h.slice() as Card[]),
    hands: deal.map((h) => h.slice() as Card[]),
    phase: 'bidding',
    calls: [],
    contract: null,
    exchange: null,
    trick: [],
    tricks: [],
    tricksWon: [0, 0],
    // Real rules: the dealer calls first.
    toMove: dealer,
    result: null,
  };
}

export function initBridge(variant: string, rng: Rng, setup: GameSetup = {}): BridgeState {
  if (setup.seats !== undefined && setup.seats !== 4)
    throw new Error(`bridge is played by 4 seats, got ${setup.seats}`);
  return boardFromDeal(variant, dealBoard(rng), setup.options);
}

// ---------------------------------------------------------------------------------------------
// Transitions

function finish(state: BridgeState, reason: 'passed_out' | 'played'): BridgeState {
  const contract = state.contract;
  const declarerTricks = contract ? state.tricksWon[sideOf(contract.declarer)] : null;
  const ns = contract ? nsScore(contract, declarerTricks!, state.vulnerability) : nsScore(null, 0, state.vulnerability);
  // Per-seat scores only say which side came out ahead; matches are scored from detail (IMPs).
  const nsPart = ns > 0 ? 1 : ns < 0 ? 0 : 0.5;
  const scores = [0, 1, 2, 3].map((seat) => (sideOf(seat) === 0 ? nsPart : 1 - nsPart));
  const places = scores.map((s) => (s === 0 ? 2 : 1));
  const result: Outcome = {
    scores,
    reason,
    winner: null,
    places,
    detail: {
      ns_score: ns,
      contract: contract ? { ...contract } : null,
      tricks: declarerTricks,
      tricks_won: [...state.tricksWon],
      vulnerability: { ...state.vulnerability },
      board: state.board,
      dealer: state.dealer,
    },
  };
  return { ...state, phase: 'finished', toMove: null, result };
}

function applyCall(state: BridgeState, seat: Seat, action: CallAction): BridgeState {
  const call: Call = { seat, call_type: action.call_type };
  if (action.call_type === 'bid') Object.assign(call, { level: action.level, suit: action.suit });
  const calls = [...state.calls, call];
  if (!auctionOver(calls)) return { ...state, calls, toMove: lhoOf(seat) };
  const contract = finalContract(calls);
  if (!contract) return finish({ ...state, calls }, 'passed_out');
  if (state.variant === 'variant') {
    const exchange: ExchangeState = {
      given: [null, null, null, null],
      received: [null, null, null, null],
      swapped: [false, false],
    };
    return { ...state, calls, contract, phase: 'exchanging', exchange, toMove: EXCHANGE_ORDER[0]! };
  }
  return { ...state, calls, contract, phase: 'playing', toMove: lhoOf(contract.declarer) };
}

function applyExchange(state: BridgeState, seat: Seat, card: Card): BridgeState {
  const ex = state.exchange!;
  const given = ex.given.slice();
  given[seat] = card;
  let { hands } = state;
  const received = ex.received.slice();
  const swapped: [boolean, boolean] = [...ex.swapped];
  const partner = partnerOf(seat);
  if (given[partner] !== null) {
    // Both partners have chosen: swap simultaneously (hands stay in cards.ts's display order).
    hands = hands.slice();
    for (const [from, to] of [
      [seat, partner],
      [partner, seat],
    ] as const) {
      hands[to] = sortHand(hands[to]!.map((c) => (c === given[to] ? given[from]! : c)));
      received[to] = given[from]!;
    }
    swapped[sideOf(seat)] = true;
  }
  const next = EXCHANGE_ORDER.find((s) => given[s] === null);
  const exchange: ExchangeState = { given, received, swapped };
  if (next !== undefined) return { ...state, hands, exchange, toMove: next };
  return { ...state, hands, exchange, phase: 'playing', toMove: lhoOf(state.contract!.declarer) };
}

function applyPlay(state: BridgeState, seat: Seat, card: Card): BridgeState {
  const hands = state.hands.slice();
  hands[seat] = hands[seat]!.filter((c) => c !== card);
  const trick: PlayedCard[] = [...state.trick, [seat, card]];
  if (trick.length < 4) return { ...state, hands, trick, toMove: lhoOf(seat) };
  const winner = trickWinner(trick, trumpOf(state.contract!));
  const tricksWon: [number, number] = [...state.tricksWon];
  tricksWon[sideOf(winner)]++;
  const tricks = [...state.tricks, { leader: trick[0]![0], cards: trick, winner }];
  const next: BridgeState = { ...state, hands, trick: [], tricks, tricksWon, toMove: winner };
  return tricks.length === 13 ? finish(next, 'played') : next;
}

function validateAction(state: BridgeState, seat: Seat, action: unknown): string | null {
  if (!action || typeof action !== 'object') return 'Invalid action';
  const a = action as Record<string, unknown>;
  switch (a.type) {
    case 'call':
      if (state.phase !== 'bidding') return 'Not in bidding phase';
      if (seat !== state.toMove) return 'Not your turn';
      return callError(state.calls, seat, a as { call_type: unknown; level?: unknown; suit?: unknown });
    case 'exchange':
      if (state.phase !== 'exchanging') return 'Not in exchanging phase';
      if (state.exchange!.given[seat] !== null) return 'Exchange already completed';
      if (seat !== state.toMove) return 'Not your turn';
      if (!isCard(a.card)) return 'Invalid card format';
      if (!state.hands[seat]!.includes(a.card)) return "You don't have this card";
      return null;
    case 'play':
      if (state.phase !== 'playing') return 'Not in playing phase';
      if (seat !== state.toMove) return 'Not your turn';
      if (!isCard(a.card)) return 'Invalid card format';
      if (!state.hands[seat]!.includes(a.card)) return "You don't have this card";
      if (!playableCards(state, seat).includes(a.card)) return 'Illegal card play';
      return null;
    default:
      return 'Invalid action type';
  }
}

function legalActionsFor(state: BridgeState, seat: Seat): BridgeAction[] {
  if (seat !== state.toMove) return [];
  switch (state.phase) {
    case 'bidding':
      return legalCalls(state.calls, seat);
    case 'exchanging':
      return state.hands[seat]!.map((card) => ({ type: 'exchange', card }));
    case 'playing':
      return playableCards(state, seat).map((card) => ({ type: 'play', card }));
    case 'finished':
      return [];
  }
}

function applyAction(state: BridgeState, seat: Seat, action: BridgeAction): BridgeState {
  const why = validateAction(state, seat, action);
  if (why) throw new Error(`illegal bridge action ${JSON.stringify(action)} by seat ${seat}: ${why}`);
  switch (action.type) {
    case 'call':
      return applyCall(state, seat, action);
    case 'exchange':
      return applyExchange(state, seat, action.card as Card);
    case 'play':
      return applyPlay(state, seat, action.card as Card);
  }
}

// ---------------------------------------------------------------------------------------------
// Accessors for the wire adapter (CATArena's state body is built from these)

export const contractOf = (state: BridgeState): Contract | null => state.contract;
export const declarerOf = (state: BridgeState): Seat | null => state.contract?.declarer ?? null;
export const dummyOf = (state: BridgeState): Seat | null =>
  state.contract ? partnerOf(state.contract.declarer) : null;
/** The auction so far, in order. */
export const biddingCalls = (state: BridgeState): Call[] => state.calls.map((c) => ({ ...c }));
/** The trick in progress as [[seat, card], …] (CATArena's current_trick). */
export const currentTrick = (state: BridgeState): PlayedCard[] => state.trick.map(([s, c]) => [s, c]);
/** Completed tricks with number (1-based), leader, cards and winner. */
export const trickHistory = (state: BridgeState): Array<Trick & { trick_number: number }> =>
  state.tricks.map((t, i) => ({
    trick_number: i + 1,
    leader: t.leader,
    cards: t.cards.map(([s, c]) => [s, c]),
    winner: t.winner,
  }));
/** Tricks won [NS, EW]. */
export const tricksWonOf = (state: BridgeState): [number, number] => [...state.tricksWon];
/** True once the opening lead is on the table (dummy is then exposed). */
export const openingLeadMade = (state: BridgeState): boolean => state.trick.length > 0 || state.tricks.length > 0;
/** NS's net score of a finished board, null while it runs. */
export const nsScoreOf = (state: BridgeState): number | null =>
  state.result ? (state.result.detail!.ns_score as number) : null;

// ---------------------------------------------------------------------------------------------
// Views

export interface BridgeView {
  seat: Seat;
  variant: BridgeVariant;
  board: number;
  dealer: Seat;
  vulnerability: { ns: boolean; ew: boolean };
  phase: Phase;
  toMove: Seat | null;
  /** This seat's cards. */
  hand: Card[];
  /** Cards held per seat (public: 13 less the cards played). */
  handSizes: number[];
  calls: Call[];
  contract: Contract | null;
  declarer: Seat | null;
  dummy: Seat | null;
  /** Dummy's cards, exposed to everyone after the opening lead. */
  dummyHand: Card[] | null;
  /** The declarer's cards, for the dummy seat only while a card from dummy is due. */
  declarerHand: Card[] | null;
  currentTrick: PlayedCard[];
  tricks: Array<Trick & { trick_number: number }>;
  tricksWon: [number, number];
  /** Variant: the card this seat gave and the one it received; the opponents' stay hidden. */
  exchange: { given: Card | null; received: Card | null; swapped: [boolean, boolean] } | null;
  result: Outcome | null;
}

/** What `seat` may see. */
export function viewFor(state: BridgeState, seat: Seat): BridgeView {
  const dummy = dummyOf(state);
  const declarer = declarerOf(state);
  const exposed = dummy !== null && openingLeadMade(state);
  const dummyActing = state.phase === 'playing' && dummy !== null && seat === dummy && state.toMove === dummy;
  return {
    seat,
    variant: state.variant,
    board: state.board,
    dealer: state.dealer,
    vulnerability: { ...state.vulnerability },
    phase: state.phase,
    toMove: state.toMove,
    hand: state.hands[seat]!.slice(),
    handSizes: state.hands.map((h) => h.length),
    calls: biddingCalls(state),
    contract: state.contract ? { ...state.contract } : null,
    declarer,
    dummy,
    dummyHand: exposed ? state.hands[dummy]!.slice() : null,
    declarerHand: dummyActing ? state.hands[declarer!]!.slice() : null,
    currentTrick: currentTrick(state),
    tricks: trickHistory(state),
    tricksWon: tricksWonOf(state),
    exchange: state.exchange
      ? {
          given: state.exchange.given[seat] ?? null,
          received: state.exchange.received[seat] ?? null,
          swapped: [...state.exchange.swapped],
        }
      : null,
    result: state.result,
  };
}

export const bridge: Game<BridgeState, BridgeAction, BridgeView> = {
  id: 'bridge',
  variants: BRIDGE_VARIANTS,
  seatNames: () => SEAT_NAMES,
  init: initBridge,
  toMove: (state) => state.toMove,
  validate: validateAction,
  legalActions: legalActionsFor,
  apply: applyAction,
  outcome: (state) => state.result,
  view: viewFor,
};
