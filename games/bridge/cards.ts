// Seats, cards and board conventions for duplicate bridge, in CATArena's wire format
// (docs/catarena-compat.md §5.1): seats 0=N 1=E 2=S 3=W, cards rank then UPPERCASE
// suit ('AS', 'TH', '2C'). Board conventions (dealer, vulnerability) follow real duplicate bridge,
// not CATArena: its board 16 is "none" instead of EW (§5.4); ours is the standard table.
import type { Rng } from '../../util/rng.ts';

// ---------------------------------------------------------------------------------------------
// Seats

export type Seat = 0 | 1 | 2 | 3;
/** 0 = NS (even seats), 1 = EW (odd seats): the index of every `[NS, EW]` pair on the wire. */
export type Partnership = 0 | 1;

export const SEATS: readonly Seat[] = [0, 1, 2, 3];
/** The arena's names for the seats (CATArena's `position` in /get_action). */
export const SEAT_NAMES = ['north', 'east', 'south', 'west'] as const;
/** The server's one-letter positions. */
export const SEAT_LETTERS = ['N', 'E', 'S', 'W'] as const;
export type SeatName = (typeof SEAT_NAMES)[number];
export type SeatLetter = (typeof SEAT_LETTERS)[number];

export function isSeat(value: unknown): value is Seat {
  return value === 0 || value === 1 || value === 2 || value === 3;
}

function checkSeat(seat: number): Seat {
  if (!isSeat(seat)) throw new Error(`invalid seat ${JSON.stringify(seat)} (expected 0..3 = N E S W)`);
  return seat;
}

export function partnershipOf(seat: Seat): Partnership {
  return (checkSeat(seat) % 2) as Partnership;
}

export function partnerOf(seat: Seat): Seat {
  return ((checkSeat(seat) + 2) % 4) as Seat;
}

/** Left-hand opponent: the next seat clockwise, who bids after `seat` and leads against its contracts. */
export function lhoOf(seat: Seat): Seat {
  return ((checkSeat(seat) + 1) % 4) as Seat;
}

/** Right-hand opponent: the previous seat clockwise. */
export function rhoOf(seat: Seat): Seat {
  return ((checkSeat(seat) + 3) % 4) as Seat;
}

/** Seat from a name, a letter or a number ('south', 'S', 2 → 2). */
export function parseSeat(value: string | number): Seat {
  if (typeof value === 'number') return checkSeat(value);
  const v = value.trim();
  const byName = SEAT_NAMES.indexOf(v.toLowerCase() as SeatName);
  if (byName >= 0) return byName as Seat;
  const byLetter = SEAT_LETTERS.indexOf(v.toUpperCase() as SeatLetter);
  if (byLetter >= 0) return byLetter as Seat;
  throw new Error(`invalid seat ${JSON.stringify(value)} (expected north/east/south/west, N/E/S/W or 0..3)`);
}

// ---------------------------------------------------------------------------------------------
// Cards

export type RankChar = '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'T' | 'J' | 'Q' | 'K' | 'A';
export type SuitChar = 'C' | 'D' | 'H' | 'S';
/** A card as it travels on the wire: `${rank}${suit}`, e.g. 'AS', 'TH', '2C'. */
export type Card = `${RankChar}${SuitChar}`;

/** Ranks low to high: rank_idx 0..12 (2 → 0, A → 12). */
export const RANK_CHARS = '23456789TJQKA';
/** Suits low to high, also the bidding order below NT: suit_idx C0 D1 H2 S3. */
export const SUIT_CHARS = 'CDHS';
export const SUITS: readonly SuitChar[] = ['C', 'D', 'H', 'S'];
export const SUIT_NAMES: Readonly<Record<SuitChar, string>> = { C: 'Clubs', D: 'Diamonds', H: 'Hearts', S: 'Spades' };

export interface ParsedCard {
  /** 2..14 (ten = 10, jack = 11, queen = 12, king = 13, ace = 14). */
  rank: number;
  suit: SuitChar;
}

/** CATArena's card object inside game states (§5.1). */
export interface CardObject {
  suit: SuitChar;
  rank: RankChar;
  /** 13 × suit_idx + rank_idx: 0 (2C) .. 51 (AS). */
  card_id: number;
  /** 2..14. */
  value: number;
  suit_name: string;
}

export function isCard(value: unknown): value is Card {
  return (
    typeof value === 'string' && value.length === 2 && RANK_CHARS.includes(value[0]!) && SUIT_CHARS.includes(value[1]!)
  );
}

export function parseCard(card: string): ParsedCard {
  if (!isCard(card))
    throw new Error(`invalid card ${JSON.stringify(card)} (expected rank 23456789TJQKA + suit CDHS, e.g. "AS")`);
  return { rank: RANK_CHARS.indexOf(card[0]!) + 2, suit: card[1] as SuitChar };
}

export function formatCard(rank: number, suit: SuitChar): Card {
  if (!Number.isInteger(rank) || rank < 2 || rank > 14) throw new Error(`invalid rank ${rank}`);
  if (!SUITS.includes(suit)) throw new Error(`invalid suit ${JSON.stringify(suit)}`);
  return `${RANK_CHARS[rank - 2]}${suit}` as Card;
}

/** Rank 2..14 of a valid card. */
export function rankOf(card: Card): number {
  return RANK_CHARS.indexOf(card[0]!) + 2;
}

export function suitOf(card: Card): SuitChar {
  return card[1] as SuitChar;
}

/** CATArena's card_id: 13 × suit_idx + rank_idx, so 2C = 0 … AC = 12, 2D = 13 … AS = 51. */
/** card_id and CATArena object per card, worked out once (only valid cards get in: 52 at most): every Bridge turn body lists hands. */
const idOf = new Map<string, number>();
const objectOf = new Map<string, CardObject>();

export function cardId(card: Card): number {
  let id = idOf.get(card);
  if (id === undefined) {
    const { rank, suit } = parseCard(card);
    id = 13 * SUIT_CHARS.indexOf(suit) + (rank - 2);
    idOf.set(card, id);
  }
  return id;
}

export function cardFromId(id: number): Card {
  if (!Number.isInteger(id) || id < 0 || id > 51) throw new Error(`invalid card_id ${id} (expected 0..51)`);
  return formatCard((id % 13) + 2, SUITS[Math.floor(id / 13)]!);
}

/** A fresh object each call: callers may change theirs. */
export function cardObject(card: Card): CardObject {
  let object = objectOf.get(card);
  if (!object) {
    const { rank, suit } = parseCard(card);
    object = { suit, rank: card[0] as RankChar, card_id: cardId(card), value: rank, suit_name: SUIT_NAMES[suit] };
    objectOf.set(card, object);
  }
  return { ...object };
}

/** Parse a space/comma separated list ('AS KD 7H') or pass an array through, validating each card. */
export function parseCards(cards: string | readonly string[]): Card[] {
  const list = typeof cards === 'string' ? cards.split(/[\s,]+/).filter(Boolean) : cards;
  return list.map((c) => {
    parseCard(c);
    return c as Card;
  });
}

/** The 52-card deck in CATArena's construction order, suit-major: 2C…AC, 2D…AD, 2H…AH, 2S…AS (card_id order). */
export function deck(): Card[] {
  const out: Card[] = [];
  for (const suit of SUITS) for (let rank = 2; rank <= 14; rank++) out.push(formatCard(rank, suit));
  return out;
}

/**
 * Display order for a hand: spades, hearts, diamonds, clubs, each from ace down, the way hand
 * diagrams are printed. A comparator for Array.prototype.sort.
 */
export function compareForDisplay(a: Card, b: Card): number {
  const bySuit = SUIT_CHARS.indexOf(suitOf(b)) - SUIT_CHARS.indexOf(suitOf(a));
  return bySuit !== 0 ? bySuit : rankOf(b) - rankOf(a);
}

/** CATArena's order, in which its servers list a hand and the legal cards: clubs to spades, each 2 to A (card_id). */
export function inCardIdOrder(cards: readonly Card[]): Card[] {
  return cards.slice().sort((a, b) => cardId(a) - cardId(b));
}

export function sortHand(cards: readonly Card[]): Card[] {
  return cards.slice().sort(compareForDisplay);
}

/**
 * A random board: four hands of 13 indexed by seat (N, E, S, W), each sorted for display
 * (spades first, high to low). Like CATArena the shuffled deck is dealt one card at a time
 * (card k to seat k mod 4); the deal depends only on the Rng's state, so a seeded Rng replays it.
 * (CATArena's own deals use CPython's Mersenne Twister and can't be reproduced here, §5.4.)
 */
export function dealBoard(rng: Rng): Card[][] {
  const shuffled = rng.shuffle(deck());
  const hands: Card[][] = [[], [], [], []];
  shuffled.forEach((card, k) => hands[k % 4]!.push(card));
  return hands.map(sortHand);
}

/** Milton Work high-card points: A 4, K 3, Q 2, J 1. */
export function highCardPoints(cards: readonly Card[]): number {
  let hcp = 0;
  for (const card of cards) {
    const { rank } = parseCard(card);
    if (rank > 10) hcp += rank - 10;
  }
  return hcp;
}

// ---------------------------------------------------------------------------------------------
// Board conventions (standard duplicate; boards are numbered from 1 and the pattern repeats every 16)

export interface Vulnerability {
  ns: boolean;
  ew: boolean;
}

function checkBoard(board: number): number {
  if (!Number.isInteger(board) || board < 1) throw new Error(`invalid board number ${board} (expected an integer ≥ 1)`);
  return board;
}

/** The dealer rotates N, E, S, W from board 1. */
export function dealerOf(board: number): Seat {
  return ((checkBoard(board) - 1) % 4) as Seat;
}

// The standard 16-board cycle, indexed by (board − 1) mod 16: each row of four boards shifts the
// "none, NS, EW, both" pattern one place, so every dealer sees every vulnerability once.
const VULNERABILITY_CYCLE: readonly ('none' | 'ns' | 'ew' | 'both')[] = [
  'none',
  'ns',
  'ew',
  'both', // boards 1–4
  'ns',
  'ew',
  'both',
  'none', // boards 5–8
  'ew',
  'both',
  'none',
  'ns', // boards 9–12
  'both',
  'none',
  'ns',
  'ew', // boards 13–16
];

export function vulnerabilityOf(board: number): Vulnerability {
  const v = VULNERABILITY_CYCLE[(checkBoard(board) - 1) % 16]!;
  return { ns: v === 'ns' || v === 'both', ew: v === 'ew' || v === 'both' };
}

/** Whether the side of `seat` is vulnerable. */
export function isVulnerable(vul: Vulnerability, seat: Seat): boolean {
  return partnershipOf(seat) === 0 ? vul.ns : vul.ew;
}
