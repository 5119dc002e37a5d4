// Hand evaluation and Monte-Carlo equity for the heuristic Hold'em bot (plain node, no
// dependencies, self-contained: this folder is copied into sandboxes alone).
//
// Decks:  "standard" – 52 cards; the wheel A-2-3-4-5 is the lowest straight.
//         "short"    – 36 cards 6..A (CATArena's "variant"; "variant" is accepted as an alias):
//                      a flush beats a full house, A-6-7-8-9 is the lowest straight (9-high);
//                      every other category keeps its standard place.
// Cards:  strings rank + suit ('As', 'Td', '6h'), or internally codes (rank − 2) * 4 + suit,
//         rank 2..14, suit c d h s = 0..3.
// Values: category * 16^5 + five tie-break ranks packed base 16 (count desc, rank desc);
//         straights carry only their top card (5 for the wheel, 9 for A-6-7-8-9). Higher is
//         better; values compare only within one deck.

export const RANKS = '23456789TJQKA';
export const SUITS = 'cdhs';

const B4 = 16 ** 4, B3 = 16 ** 3, B2 = 16 ** 2;
const CAT = 16 ** 5;

// Category numbers per deck (weakest = 0).
const STD = { high: 0, pair: 1, twoPair: 2, trips: 3, straight: 4, flush: 5, fullHouse: 6, quads: 7, straightFlush: 8 };
const SHORT = { ...STD, flush: 6, fullHouse: 5 };
export const CATEGORY_NAMES = {
  standard: ['high-card', 'pair', 'two-pair', 'three-of-a-kind', 'straight', 'flush', 'full-house', 'four-of-a-kind', 'straight-flush'],
  short: ['high-card', 'pair', 'two-pair', 'three-of-a-kind', 'straight', 'full-house', 'flush', 'four-of-a-kind', 'straight-flush'],
};

/** "short" for the 36-card deck (also "variant"/"short_deck"/"six_plus"), else "standard". */
export function normDeck(deck) {
  if (typeof deck !== 'string') return 'standard';
  const d = deck.toLowerCase().replace(/[\s_-]+/g, '');
  return d === 'short' || d === 'variant' || d === 'shortdeck' || d === 'sixplus' ? 'short' : 'standard';
}

/** Card string → code 0..51, or -1 if it is not a card. */
export function cardCode(card) {
  if (typeof card !== 'string' || card.length !== 2) return -1;
  const r = RANKS.indexOf(card[0]);
  const s = SUITS.indexOf(card[1]);
  return r < 0 || s < 0 ? -1 : r * 4 + s;
}

export const codeRank = (code) => (code >> 2) + 2;
export const codeCard = (code) => RANKS[code >> 2] + SUITS[code & 3];

/** Every card code of a deck, in order. */
export function deckCodes(deck) {
  const lo = normDeck(deck) === 'short' ? 6 : 2;
  const out = [];
  for (let c = (lo - 2) * 4; c < 52; c++) out.push(c);
  return out;
}

// Straight tops for every 15-bit rank mask (bit r = rank r present, r = 2..14), one table per deck.
function straightTable(short) {
  const t = new Int8Array(1 << 15);
  for (let m = 0; m < 1 << 15; m++) {
    let top = 0;
    for (let hi = 14; hi >= 6 && !top; hi--) if (((m >> (hi - 4)) & 31) === 31) top = hi;
    if (!top) {
      if (short) {
        const low = (1 << 14) | (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9);
        if ((m & low) === low) top = 9;
      } else {
        const wheel = (1 << 14) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5);
        if ((m & wheel) === wheel) top = 5;
      }
    }
    t[m] = top;
  }
  return t;
}
const STRAIGHT = { standard: straightTable(false), short: straightTable(true) };

// Scratch buffers (the evaluator is synchronous, so one set is enough).
const rankCount = new Int8Array(15);
const suitMask = new Int32Array(4);
const suitCount = new Int8Array(4);

/** The top n ranks of a mask, packed base 16 into 5 slots (zero-padded). */
function topRanks(mask, n) {
  let v = 0, k = 0;
  for (let r = 14; r >= 2 && k < n; r--) {
    if (mask & (1 << r)) {
      v = v * 16 + r;
      k++;
    }
  }
  for (; k < 5; k++) v *= 16;
  return v;
}

/**
 * Value of the best five of the given card codes (5 to 7, distinct). `short` selects the short
 * deck's order. codes[0..n-1] are read; the array is not modified.
 */
export function evalCodes(codes, n, short) {
  const cats = short ? SHORT : STD;
  const straights = short ? STRAIGHT.short : STRAIGHT.standard;
  suitMask[0] = suitMask[1] = suitMask[2] = suitMask[3] = 0;
  suitCount[0] = suitCount[1] = suitCount[2] = suitCount[3] = 0;
  let mask = 0;
  for (let i = 0; i < n; i++) {
    const c = codes[i];
    const r = (c >> 2) + 2, s = c & 3;
    rankCount[r]++;
    suitMask[s] |= 1 << r;
    suitCount[s]++;
    mask |= 1 << r;
  }
  let flushSuit = -1;
  for (let s = 0; s < 4; s++) if (suitCount[s] >= 5) flushSuit = s;

  // Groups by multiplicity, highest rank first; clears the counts on the way.
  let quad = 0, trip1 = 0, trip2 = 0, pair1 = 0, pair2 = 0, pair3 = 0;
  for (let r = 14; r >= 2; r--) {
    const k = rankCount[r];
    if (!k) continue;
    rankCount[r] = 0;
    if (k === 4) quad = r;
    else if (k === 3) {
      if (!trip1) trip1 = r;
      else if (!trip2) trip2 = r;
    } else if (k === 2) {
      if (!pair1) pair1 = r;
      else if (!pair2) pair2 = r;
      else if (!pair3) pair3 = r;
    }
  }

  if (flushSuit >= 0) {
    const sf = straights[suitMask[flushSuit]];
    if (sf) return cats.straightFlush * CAT + sf * B4;
  }
  let best = 0;
  if (quad) {
    const kick = topRanks(mask & ~(1 << quad), 1) / B4;
    best = cats.quads * CAT + quad * B4 + kick * B3;
    return best; // nothing but a straight flush beats quads, and that was checked
  }
  if (trip1 && (trip2 || pair1)) {
    const p = Math.max(trip2, pair1);
    const v = cats.fullHouse * CAT + trip1 * B4 + p * B3;
    if (v > best) best = v;
  }
  if (flushSuit >= 0) {
    const v = cats.flush * CAT + topRanks(suitMask[flushSuit], 5);
    if (v > best) best = v;
  }
  if (best) return best;
  const st = straights[mask];
  if (st) return cats.straight * CAT + st * B4;
  if (trip1) return cats.trips * CAT + trip1 * B4 + topRanks(mask & ~(1 << trip1), 2) / 16;
  if (pair2) {
    const rest = mask & ~(1 << pair1) & ~(1 << pair2);
    return cats.twoPair * CAT + pair1 * B4 + pair2 * B3 + (topRanks(rest, 1) / B4) * B2;
  }
  if (pair1) return cats.pair * CAT + pair1 * B4 + topRanks(mask & ~(1 << pair1), 3) / 16;
  return cats.high * CAT + topRanks(mask, 5);
}

function toCodes(cards) {
  if (!Array.isArray(cards) || cards.length < 5 || cards.length > 7) throw new Error('a hand needs 5 to 7 cards');
  const codes = cards.map((c) => (typeof c === 'number' ? c : cardCode(c)));
  for (let i = 0; i < codes.length; i++) {
    if (!Number.isInteger(codes[i]) || codes[i] < 0 || codes[i] > 51) throw new Error(`invalid card ${JSON.stringify(cards[i])}`);
    for (let j = 0; j < i; j++) if (codes[j] === codes[i]) throw new Error(`duplicate card ${JSON.stringify(cards[i])}`);
  }
  return codes;
}

/** Value of the best five of 5–7 cards (strings or codes); higher is better. */
export function rank7(cards, deck = 'standard') {
  const codes = toCodes(cards);
  return evalCodes(codes, codes.length, normDeck(deck) === 'short');
}

/** Category name of rank7's value. */
export function categoryOf(value, deck = 'standard') {
  return CATEGORY_NAMES[normDeck(deck)][Math.floor(value / CAT)];
}

/** Sign of a − b: > 0 if hand a wins. */
export function compare7(a, b, deck = 'standard') {
  return Math.sign(rank7(a, deck) - rank7(b, deck));
}

/**
 * Monte-Carlo equity of `hole` (2 codes) with `board` (0–5 codes) against `opponents` random
 * hands: the expected share of the pot at showdown (ties split). Options: samples (max count),
 * deadline (Date.now() value at which to stop), rng (() => [0,1)), dead (known-dead codes).
 * Returns { equity, samples }.
 */
export function equity(hole, board, opponents, { deck = 'standard', samples = 500, deadline = Infinity, rng = Math.random, dead = [] } = {}) {
  const short = normDeck(deck) === 'short';
  const used = new Set([...hole, ...board, ...dead]);
  const stub = deckCodes(deck).filter((c) => !used.has(c));
  const opp = Math.max(1, Math.min(opponents | 0, Math.floor((stub.length - (5 - board.length)) / 2)));
  const need = 5 - board.length + 2 * opp;
  const mine = new Int32Array(7);
  const theirs = new Int32Array(7);
  mine[0] = hole[0];
  mine[1] = hole[1];
  for (let i = 0; i < board.length; i++) mine[2 + i] = theirs[2 + i] = board[i];
  let total = 0, n = 0;
  const max = Math.max(1, samples | 0);
  while (n < max) {
    if ((n & 31) === 31 && Date.now() >= deadline) break;
    // Partial Fisher–Yates: the first `need` cards of the stub are this sample's.
    for (let i = 0; i < need; i++) {
      const j = i + Math.floor(rng() * (stub.length - i));
      const t = stub[i];
      stub[i] = stub[j];
      stub[j] = t;
    }
    let k = 0;
    for (let i = board.length; i < 5; i++) mine[2 + i] = theirs[2 + i] = stub[k++];
    const me = evalCodes(mine, 7, short);
    let better = false, ties = 0;
    for (let o = 0; o < opp; o++) {
      theirs[0] = stub[k++];
      theirs[1] = stub[k++];
      const v = evalCodes(theirs, 7, short);
      if (v > me) {
        better = true;
        break;
      }
      if (v === me) ties++;
    }
    if (!better) total += 1 / (ties + 1);
    n++;
  }
  return { equity: n ? total / n : 0, samples: n };
}
