// Texas Hold'em hand evaluation, correct poker (none of CATArena's ASCII tie-break bugs, see
// docs/catarena-compat.md §4.3): the best five of 5–7 cards, as a number where higher is better.
//
// standard (52 cards): the npm package `phe` (strength 1 = royal flush .. 7462 = worst, lower is
//   better), wrapped as value = 7463 − strength. Wheel A-2-3-4-5 is the lowest straight.
// variant (36-card short deck 6..A): our own evaluator, enumerating the C(n,5) five-card subsets
//   (21 for seven cards). Category order is the standard one with exactly ONE swap, as CATArena
//   does: a flush beats a full house. Three of a kind stays BELOW a straight (some short-deck
//   rule sets swap those too; CATArena does not, and neither do we). The ace also plays low in
//   A-6-7-8-9, the lowest straight (9-high).
//   Value encoding: strength * 16^5 + k1 * 16^4 + k2 * 16^3 + k3 * 16^2 + k4 * 16 + k5, where
//   strength is the category's place in the short-deck order (0 high card .. 8 straight flush)
//   and k1..k5 are ranks 2..14 ordered by (count desc, rank desc), zero-padded; straights and
//   straight flushes carry only their top card (9 for A-6-7-8-9).
//
// Values are comparable only within one variant.
import { createRequire } from 'node:module';
import type pheModule from 'phe';
import { lowestRank, RANK_CHARS, SUIT_CHARS, type Card, type HoldemVariant } from './cards.ts';

export type HandCategory =
  | 'high-card'
  | 'pair'
  | 'two-pair'
  | 'three-of-a-kind'
  | 'straight'
  | 'flush'
  | 'full-house'
  | 'four-of-a-kind'
  | 'straight-flush';

/** Categories from weakest to strongest, per variant. */
export const CATEGORY_ORDER: Record<HoldemVariant, readonly HandCategory[]> = {
  standard: [
    'high-card',
    'pair',
    'two-pair',
    'three-of-a-kind',
    'straight',
    'flush',
    'full-house',
    'four-of-a-kind',
    'straight-flush',
  ],
  variant: [
    'high-card',
    'pair',
    'two-pair',
    'three-of-a-kind',
    'straight',
    'full-house',
    'flush',
    'four-of-a-kind',
    'straight-flush',
  ],
};

export interface HandValue {
  /** Higher is better; equal values split the pot. Comparable within one variant only. */
  value: number;
  category: HandCategory;
}

// phe's handRank: 0 straight flush .. 8 high card.
const PHE_CATEGORY: readonly HandCategory[] = [
  'straight-flush',
  'four-of-a-kind',
  'full-house',
  'flush',
  'straight',
  'three-of-a-kind',
  'two-pair',
  'pair',
  'high-card',
];
const PHE_SUIT: Record<string, number> = { s: 0, h: 1, d: 2, c: 3 };

// Card string → [rank 2..14, suit 0..3, phe code, unique id 0..51].
interface CardInfo {
  rank: number;
  suit: number;
  phe: number;
  id: number;
}
const CARD_INFO = new Map<string, CardInfo>();
for (let r = 0; r < 13; r++) {
  for (let s = 0; s < 4; s++) {
    const card = RANK_CHARS[r]! + SUIT_CHARS[s]!;
    CARD_INFO.set(card, { rank: r + 2, suit: s, phe: (r << 2) | PHE_SUIT[SUIT_CHARS[s]!]!, id: r * 4 + s });
  }
}

function lookup(cards: readonly string[], variant: HoldemVariant): CardInfo[] {
  if (!Array.isArray(cards) || cards.length < 5 || cards.length > 7) {
    throw new Error(`a hand needs 5 to 7 cards, got ${Array.isArray(cards) ? cards.length : typeof cards}`);
  }
  const low = lowestRank(variant);
  const out: CardInfo[] = [];
  for (const card of cards) {
    const info = CARD_INFO.get(card);
    if (!info) throw new Error(`invalid card ${JSON.stringify(card)}`);
    if (info.rank < low) throw new Error(`card ${card} is not in the ${variant} deck`);
    for (const prev of out) if (prev.id === info.id) throw new Error(`duplicate card ${card}`);
    out.push(info);
  }
  return out;
}

// ---- standard: phe -------------------------------------------------------------------------

// phe builds large lookup tables when loaded: load it on the first evaluation, not with the rules
// (every command that knows the games would pay for it, `catarena --help` included).
let pheLoaded: typeof pheModule | undefined;
const phe = () => (pheLoaded ??= createRequire(import.meta.url)('phe') as typeof pheModule);

function evaluateStandard(info: CardInfo[]): HandValue {
  const strength = phe().evaluateCardCodes(info.map((c) => c.phe));
  return { value: 7463 - strength, category: PHE_CATEGORY[phe().handRank(strength)]! };
}

// ---- short deck: our own -------------------------------------------------------------------

const SHORT = CATEGORY_ORDER.variant;
const S_HIGH = 0,
  S_PAIR = 1,
  S_TWO_PAIR = 2,
  S_TRIPS = 3,
  S_STRAIGHT = 4,
  S_FULL_HOUSE = 5,
  S_FLUSH = 6,
  S_QUADS = 7,
  S_STRAIGHT_FLUSH = 8;
const B = 16;
const CAT_BASE = B ** 5;

/** All index 5-subsets of n cards (n = 5, 6, 7). */
function subsets(n: number): number[][] {
  const out: number[][] = [];
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++)
      for (let c = b + 1; c < n; c++)
        for (let d = c + 1; d < n; d++) for (let e = d + 1; e < n; e++) out.push([a, b, c, d, e]);
  return out;
}
const SUBSETS: Record<number, number[][]> = { 5: subsets(5), 6: subsets(6), 7: subsets(7) };

const counts = new Int8Array(15);
const groupRanks = new Int8Array(5); // distinct ranks ordered by (count desc, rank desc)

/** Short-deck value of exactly five cards (ranks 6..14, suits 0..3). */
function shortFive(r0: number, r1: number, r2: number, r3: number, r4: number, flush: boolean): number {
  counts[r0]!++;
  counts[r1]!++;
  counts[r2]!++;
  counts[r3]!++;
  counts[r4]!++;
  // Order distinct ranks by count desc, then rank desc: scan counts 4..1, ranks 14..6.
  let n = 0;
  let top = 0; // multiplicity of the first (largest) group
  for (let c = 4; c >= 1; c--) {
    for (let r = 14; r >= 6; r--) {
      if (counts[r] === c) {
        if (n === 0) top = c;
        groupRanks[n++] = r;
      }
    }
  }
  counts[r0] = 0;
  counts[r1] = 0;
  counts[r2] = 0;
  counts[r3] = 0;
  counts[r4] = 0;
  if (n === 5) {
    const hi = groupRanks[0]!,
      lo = groupRanks[4]!;
    let straightTop = 0;
    if (hi - lo === 4) straightTop = hi;
    else if (hi === 14 && groupRanks[1] === 9 && lo === 6) straightTop = 9; // A-6-7-8-9, ace low
    if (straightTop) return (flush ? S_STRAIGHT_FLUSH : S_STRAIGHT) * CAT_BASE + straightTop;
    return (flush ? S_FLUSH : S_HIGH) * CAT_BASE + pack(5);
  }
  let cat: number;
  if (n === 2)
    cat = top === 4 ? S_QUADS : S_FULL_HOUSE; // 4+1 or 3+2
  else if (n === 3)
    cat = top === 3 ? S_TRIPS : S_TWO_PAIR; // 3+1+1 or 2+2+1
  else cat = S_PAIR; // n === 4: 2+1+1+1
  if (flush && cat < S_FLUSH) cat = S_FLUSH; // unreachable with one deck (a flush has 5 distinct ranks)
  return cat * CAT_BASE + pack(n);
}

function pack(n: number): number {
  let v = 0;
  for (let i = 0; i < 5; i++) v = v * B + (i < n ? groupRanks[i]! : 0);
  return v;
}

function evaluateShort(info: CardInfo[]): HandValue {
  let best = -1;
  for (const [a, b, c, d, e] of SUBSETS[info.length]!) {
    const A = info[a!]!,
      Bc = info[b!]!,
      C = info[c!]!,
      D = info[d!]!,
      E = info[e!]!;
    const flush = A.suit === Bc.suit && A.suit === C.suit && A.suit === D.suit && A.suit === E.suit;
    const v = shortFive(A.rank, Bc.rank, C.rank, D.rank, E.rank, flush);
    if (v > best) best = v;
  }
  return { value: best, category: SHORT[Math.floor(best / CAT_BASE)]! };
}

// ---- public API ----------------------------------------------------------------------------

/**
 * Value of the best five-card hand among 5–7 cards (hole cards + board). Throws on an invalid,
 * duplicate or off-deck card (2–5 in the short deck) or a wrong card count.
 */
export function evaluate7(cards: readonly string[], variant: HoldemVariant = 'standard'): HandValue {
  const info = lookup(cards, variant);
  return variant === 'variant' ? evaluateShort(info) : evaluateStandard(info);
}

/** Sign of a − b: > 0 if hand a wins, < 0 if b wins, 0 for a split. */
export function compareHands(a: readonly string[], b: readonly string[], variant: HoldemVariant = 'standard'): number {
  return Math.sign(evaluate7(a, variant).value - evaluate7(b, variant).value);
}

/** The five cards that make the best hand (the first such subset when several tie). */
export function bestFive(cards: readonly string[], variant: HoldemVariant = 'standard'): { cards: Card[] } & HandValue {
  lookup(cards, variant);
  let best: { cards: Card[] } & HandValue = { cards: [], value: -1, category: 'high-card' };
  for (const idx of SUBSETS[cards.length]!) {
    const five = idx.map((i) => cards[i]!) as Card[];
    const v = evaluate7(five, variant);
    if (v.value > best.value) best = { cards: five, ...v };
  }
  return best;
}

/**
 * Indices of the winners among several hands (all of them on a split).
 * Each entry is the full 5–7 cards of one player.
 */
export function winners(hands: readonly (readonly string[])[], variant: HoldemVariant = 'standard'): number[] {
  const values = hands.map((h) => evaluate7(h, variant).value);
  const top = Math.max(...values);
  return values.flatMap((v, i) => (v === top ? [i] : []));
}
