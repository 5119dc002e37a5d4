// Texas Hold'em cards and hand evaluation, both decks: hand-ranked examples for every category,
// ties, kickers, the wheel (standard) and A-6-7-8-9 (short deck), flush vs full house per deck, and
// a brute-force reference evaluator cross-checked on random seeded hands.
import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import {
  deck,
  formatCard,
  inDeck,
  isCard,
  parseCard,
  parseCards,
  shuffledDeck,
  type HoldemVariant,
} from '../games/holdem/cards.ts';
import {
  bestFive,
  CATEGORY_ORDER,
  compareHands,
  evaluate7,
  winners,
  type HandCategory,
} from '../games/holdem/evaluator.ts';

const h = (s: string) => s.split(' ');
const ev = (s: string, v: HoldemVariant = 'standard') => evaluate7(h(s), v);
const cmp = (a: string, b: string, v: HoldemVariant = 'standard') => compareHands(h(a), h(b), v);

describe('holdem cards', () => {
  it('builds the 52- and 36-card decks without duplicates', () => {
    const std = deck('standard'),
      short = deck('variant');
    expect(std).toHaveLength(52);
    expect(new Set(std).size).toBe(52);
    expect(short).toHaveLength(36);
    expect(new Set(short).size).toBe(36);
    expect(short.every((c) => '6789TJQKA'.includes(c[0]!))).toBe(true);
    expect(std.slice(0, 4)).toEqual(['2c', '2d', '2h', '2s']);
    expect(short.slice(-4)).toEqual(['Ac', 'Ad', 'Ah', 'As']);
  });

  it('parses and formats cards', () => {
    expect(parseCard('As')).toEqual({ rank: 14, suit: 's' });
    expect(parseCard('Td')).toEqual({ rank: 10, suit: 'd' });
    expect(parseCard('6h')).toEqual({ rank: 6, suit: 'h' });
    for (const c of deck('standard')) {
      const p = parseCard(c);
      expect(formatCard(p.rank, p.suit)).toBe(c);
    }
    expect(parseCards('As Kd, 7h')).toEqual(['As', 'Kd', '7h']);
    for (const bad of ['as', 'AS', '10h', '1c', 'A', 'Ax', '', 'Ass']) {
      expect(isCard(bad)).toBe(false);
      expect(() => parseCard(bad)).toThrow(/invalid card/);
    }
    expect(() => formatCard(15, 's')).toThrow();
    expect(inDeck('5c', 'standard')).toBe(true);
    expect(inDeck('5c', 'variant')).toBe(false);
    expect(inDeck('6c', 'variant')).toBe(true);
  });

  it('shuffles reproducibly from a seed', () => {
    const a = shuffledDeck('standard', createRng(42));
    const b = shuffledDeck('standard', createRng(42));
    const c = shuffledDeck('standard', createRng(43));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect([...a].sort()).toEqual([...deck('standard')].sort());
    expect([...shuffledDeck('variant', createRng(1))].sort()).toEqual([...deck('variant')].sort());
  });
});

// One 7-card example per category, weakest first; the same list must evaluate in CATEGORY_ORDER.
const CATEGORY_EXAMPLES: Record<HoldemVariant, [HandCategory, string][]> = {
  standard: [
    ['high-card', 'Ac Jd 9h 7s 5c 3d 2h'],
    ['pair', 'Jc Jd 9h 7s 5c 3d 2h'],
    ['two-pair', 'Ac Ad Kc Kd 5h 3s 2c'],
    ['three-of-a-kind', '7c 7d 7h Ks 2d 4c 9h'],
    ['straight', '9c Td Jh Qs Kc 2d 3h'],
    ['flush', 'Ah 9h 7h 4h 2h Kd Qc'],
    ['full-house', 'Kh Kd Kc 2s 2d 7c 9h'],
    ['four-of-a-kind', 'Ah Ad Ac As Kd 2c 3h'],
    ['straight-flush', 'As Ks Qs Js Ts 2d 3c'],
  ],
  variant: [
    ['high-card', 'Ac Jd 9h 7s 6c Kd Qh'],
    ['pair', 'Jc Jd 9h 7s 6c Ad Kh'],
    ['two-pair', 'Ac Ad Kc Kd 8h 6s 7c'],
    ['three-of-a-kind', '7c 7d 7h Ks Jd 9c 6h'],
    ['straight', '9c Td Jh Qs Kc 6d 7h'],
    ['full-house', 'Kh Kd Kc 6s 6d 7c 9h'],
    ['flush', 'Ah Jh 9h 7h 6h Kd Qc'],
    ['four-of-a-kind', '9h 9d 9c 9s Kd Qc 6h'],
    ['straight-flush', '6s 7s 8s 9s Ts Ad Kc'],
  ],
};

for (const variant of ['standard', 'variant'] as const) {
  describe(`holdem evaluator categories (${variant})`, () => {
    it.each(CATEGORY_EXAMPLES[variant])('%s: %s', (category, cards) => {
      expect(ev(cards, variant).category).toBe(category);
    });
    it('ranks the categories in the variant order', () => {
      const examples = CATEGORY_EXAMPLES[variant];
      expect(examples.map(([c]) => c)).toEqual(CATEGORY_ORDER[variant]);
      const values = examples.map(([, cards]) => ev(cards, variant).value);
      for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
    });
  });
}

// [description, variant, hand A, hand B, expected sign of A vs B]
type Case = [string, HoldemVariant, string, string, 1 | 0 | -1];
const CASES: Case[] = [
  // flush vs full house
  ['standard: full house beats flush', 'standard', 'Kh Kd Kc 2s 2d', 'Ah 9h 7h 4h 3h', 1],
  ['short: flush beats full house', 'variant', 'Kh Kd Kc 6s 6d', 'Ah Jh 9h 8h 7h', -1],
  [
    'standard, shared board Kh Kd 8h 7h Qc: KKK-QQ beats A-high flush',
    'standard',
    'Ks Qd Kh Kd 8h 7h Qc',
    'Ah 6h Kh Kd 8h 7h Qc',
    1,
  ],
  ['short, same cards: the flush wins', 'variant', 'Ks Qd Kh Kd 8h 7h Qc', 'Ah 6h Kh Kd 8h 7h Qc', -1],
  ['short: straight still beats three of a kind', 'variant', '9c Td Jh Qs Kc', 'Ac Ad As Kh Qd', 1],
  ['short: four of a kind beats a flush', 'variant', '6c 6d 6h 6s 7c', 'Ah Kh Qh Jh 9h', 1],
  // the wheel and the short-deck low straight
  ['standard: wheel is a straight, beats trips', 'standard', 'Ah 2c 3d 4s 5h 9c Kd', 'Ac Ad As Kh Qd', 1],
  ['standard: wheel is the lowest straight', 'standard', 'Ah 2c 3d 4s 5h 9c Kd', '2c 3d 4s 5h 6h Ad Kc', -1],
  ['standard: wheel ties wheel', 'standard', 'Ah 2c 3d 4s 5h', 'As 2d 3c 4h 5s', 0],
  ['standard: steel wheel is a straight flush below 6-high', 'standard', 'Ah 2h 3h 4h 5h', '2d 3d 4d 5d 6d', -1],
  ['standard: steel wheel beats quad aces', 'standard', 'Ah 2h 3h 4h 5h', 'Ac Ad As Ah Kd', 1],
  ['standard: A-6-7-8-9 is no straight', 'standard', 'Ah 6c 7d 8s 9h', '2c 2d 3h 4s 6c', -1],
  ['short: A-6-7-8-9 is a straight, beats trips', 'variant', 'Ah 6c 7d 8s 9h', 'Ac Ad As Kh Qd', 1],
  ['short: A-6-7-8-9 is the lowest straight', 'variant', 'Ah 6c 7d 8s 9h', '6c 7d 8s 9h Th', -1],
  ['short: A-6-7-8-9 suited is the lowest straight flush', 'variant', 'Ah 6h 7h 8h 9h', '6h 7h 8h 9h Th', -1],
  ['short: A-6-7-8-9 suited beats quad aces', 'variant', 'Ah 6h 7h 8h 9h', 'Ac Ad As Ah Kd', 1],
  ['short: broadway beats K-high', 'variant', 'Ah Kc Qd Js Th', '9h Kc Qd Js Th', 1],
  // splits
  ['standard: board broadway plays for both (split)', 'standard', '2c 3d As Ks Qd Jc Th', '4h 5h As Ks Qd Jc Th', 0],
  ['standard: same ranks, other suits (split)', 'standard', 'Ah Kh 9c 7d 4s', 'Ad Kd 9s 7c 4h', 0],
  ['short: board plays for both (split)', 'variant', '6c 7d As Ks Qd Jc Th', '6h 8h As Ks Qd Jc Th', 0],
  [
    'standard: quads on board, ace kicker on board (split)',
    'standard',
    'Kd Qd 9h 9d 9c 9s Ac',
    '2c 3c 9h 9d 9c 9s Ac',
    0,
  ],
  [
    'standard: two pair, sixth card does not play (split)',
    'standard',
    'Ac Ad Kc Kd Qh 3s 2c',
    'Ah As Kh Ks Qd 4s 3c',
    0,
  ],
  // kickers
  ['standard: high card decided by the 5th card', 'standard', '5d 2h Ac Kd 9h 7s 3c', '4d 2c Ac Kd 9h 7s 3c', 1],
  ['standard: pair decided by the 5th card', 'standard', '6d 3h Jc Jd 9h 7s 2c', '5d 3c Jc Jd 9h 7s 2c', 1],
  ['short: high card decided by the 5th card', 'variant', '9d Qh Ac Kd Jh 7s 6c', '8d Qs Ac Kd Jh 7s 6c', 1],
  ['short: pair decided by the 5th card', 'variant', '9d 7h Jc Jd Ah Ks 6c', '8d 7c Jc Jd Ah Ks 6c', 1],
  ['standard: two pair kicker', 'standard', 'Ac Ad Kc Kd 9h', 'Ah As Kh Ks 8d', 1],
  ['standard: higher second pair wins', 'standard', 'Ac Ad Kc Kd 2h', 'Ah As Qh Qs Kh', 1],
  ['standard: best two of three pairs', 'standard', 'Ac Ad 3c 3d 2h 2s Kd', 'Ah As 4h 4s 2d 2c 5h', -1],
  ['standard: trips kickers', 'standard', '7c 7d 7h Ks Qd', '7c 7d 7h Ks Jd', 1],
  ['standard: quads kicker', 'standard', 'Ad 3c 9h 9d 9c 9s 2c', 'Kd Qc 9h 9d 9c 9s 2c', 1],
  ['standard: full house by trips first', 'standard', 'Kh Kd Kc 2s 2d', 'Qh Qd Qc As Ad', 1],
  [
    'standard: two trips make a full house with the higher trips',
    'standard',
    'Kh Kd Kc Qs Qd Qc 2h',
    'Kh Kd Kc Js Jd Jc Ah',
    1,
  ],
  ['standard: flush compares all five cards', 'standard', 'Ah Kh 9h 7h 4h', 'As Ks 9s 7s 3s', 1],
  ['standard: six suited cards, the top five play', 'standard', 'Ah Kh 9h 7h 4h 2h 3c', 'As Ks 9s 7s 4s 3s 2s', 0],
  ['short: flush compares all five cards', 'variant', 'Ah Kh 9h 7h 6h', 'As Ks 9s 8s 6s', -1],
  ['short: full house by trips first', 'variant', '6h 6d 6c As Ad', 'Kh Kd Ks 7s 7d', -1],
  // best five of seven
  ['standard: board straight beats a pocket pair', 'standard', '2c 3d 5c 6d 7h 8s 9c', 'Ac Ad 5c 6d 7h Ks Qc', 1],
  [
    'standard: pocket aces play the board straight (split)',
    'standard',
    'Ac Ad 5c 6d 7h 8s 9c',
    '2c 3d 5c 6d 7h 8s 9c',
    0,
  ],
  ['standard: ten makes the higher straight', 'standard', 'Tc 2d 5c 6d 7h 8s 9c', 'Ac Ad 5c 6d 7h 8s 9c', 1],
  [
    'standard: six cards make a straight flush inside a straight',
    'standard',
    '9h 8h 7h 6h 5h Th Tc',
    'Ts Jd 9c 8c 7c 6c Qd',
    1,
  ],
  ['short: board straight plays', 'variant', '6c 6d Tc Jd Qh Ks Ac', '7c 7d Tc Jd Qh Ks Ac', 0],
];

describe('holdem evaluator: hand-ranked examples', () => {
  it.each(CASES)('%s', (_name, variant, a, b, expected) => {
    expect(cmp(a, b, variant)).toBe(expected);
    expect(cmp(b, a, variant)).toBe(-expected || 0);
  });

  it('works on 5, 6 and 7 cards and picks the best five', () => {
    expect(ev('As Ks Qs Js Ts').category).toBe('straight-flush');
    expect(ev('As Ks Qs Js Ts 9s').value).toBe(ev('As Ks Qs Js Ts').value);
    const best = bestFive(h('Ac Ad 5c 6d 7h 8s 9c'));
    expect(best.category).toBe('straight');
    expect([...best.cards].sort()).toEqual(['5c', '6d', '7h', '8s', '9c'].sort());
    const shortBest = bestFive(h('Ks 6h Kh Kd 8h 7h Ah'), 'variant');
    expect(shortBest.category).toBe('flush');
    expect(shortBest.cards.every((c) => c.endsWith('h'))).toBe(true);
    expect(shortBest.value).toBe(ev('Ks 6h Kh Kd 8h 7h Ah', 'variant').value);
  });

  it('finds the winners of a showdown, all of them on a split', () => {
    const board = 'As Ks Qd Jc 2h';
    expect(winners([h(`Tc 3d ${board}`), h(`Td 4h ${board}`), h(`Ac Ad ${board}`)])).toEqual([0, 1]);
    expect(winners([h(`Ac Ad ${board}`), h(`Tc 3d ${board}`)])).toEqual([1]);
  });

  it('rejects bad input', () => {
    expect(() => ev('As Ks Qs Js')).toThrow(/5 to 7/);
    expect(() => ev('As Ks Qs Js Ts 9s 8s 7s')).toThrow(/5 to 7/);
    expect(() => ev('As Ks Qs Js As')).toThrow(/duplicate/);
    expect(() => ev('As Ks Qs Js 1s')).toThrow(/invalid card/);
    expect(() => ev('As Ks Qs Js 2s', 'variant')).toThrow(/not in the variant deck/);
  });
});

// ---- independent brute-force reference ------------------------------------------------------
// Category + kickers as a tuple, by sorting and counting each 5-card subset; max over subsets.

function refFive(cards: string[], variant: HoldemVariant): number[] {
  const low = variant === 'variant' ? 6 : 2;
  const ranks = cards.map((c) => '23456789TJQKA'.indexOf(c[0]!) + 2).sort((a, b) => b - a);
  const flush = new Set(cards.map((c) => c[1])).size === 1;
  const key = [...new Set(ranks)].sort((a, b) => a - b).join(',');
  let straightTop = 0;
  for (let top = 14; top >= low + 4; top--)
    if (key === [top - 4, top - 3, top - 2, top - 1, top].join(',')) straightTop = top;
  if (key === [low, low + 1, low + 2, low + 3, 14].join(',')) straightTop = low + 3; // ace plays low
  const count = new Map<number, number>();
  for (const r of ranks) count.set(r, (count.get(r) ?? 0) + 1);
  const groups = [...count.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const shape = groups.map((g) => g[1]).join('');
  let category: HandCategory;
  if (straightTop && flush) category = 'straight-flush';
  else if (shape === '41') category = 'four-of-a-kind';
  else if (shape === '32') category = 'full-house';
  else if (flush) category = 'flush';
  else if (straightTop) category = 'straight';
  else if (shape === '311') category = 'three-of-a-kind';
  else if (shape === '221') category = 'two-pair';
  else if (shape === '2111') category = 'pair';
  else category = 'high-card';
  const order =
    variant === 'variant'
      ? [
          'high-card',
          'pair',
          'two-pair',
          'three-of-a-kind',
          'straight',
          'full-house',
          'flush',
          'four-of-a-kind',
          'straight-flush',
        ]
      : [
          'high-card',
          'pair',
          'two-pair',
          'three-of-a-kind',
          'straight',
          'flush',
          'full-house',
          'four-of-a-kind',
          'straight-flush',
        ];
  return [order.indexOf(category), ...(straightTop ? [straightTop] : groups.map((g) => g[0]))];
}

function lexCompare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

function refBest(cards: string[], variant: HoldemVariant): number[] {
  let best: number[] = [-1];
  const n = cards.length;
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0;
    for (let m = mask; m; m &= m - 1) bits++;
    if (bits !== 5) continue;
    const five = cards.filter((_, i) => mask & (1 << i));
    const v = refFive(five, variant);
    if (lexCompare(v, best) > 0) best = v;
  }
  return best;
}

const REF_ORDER: Record<HoldemVariant, HandCategory[]> = {
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

function crossCheck(variant: HoldemVariant, count: number, seed: number) {
  const rng = createRng(seed);
  const full = deck(variant);
  const hands: { cards: string[]; value: number; ref: number[] }[] = [];
  const categories = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const cards = rng.shuffle(full).slice(0, 7);
    const mine = evaluate7(cards, variant);
    const ref = refBest(cards, variant);
    expect(mine.category, cards.join(' ')).toBe(REF_ORDER[variant][ref[0]!]);
    categories.set(mine.category, (categories.get(mine.category) ?? 0) + 1);
    hands.push({ cards, value: mine.value, ref });
  }
  // Consecutive random pairs.
  let mismatches = 0;
  for (let i = 1; i < hands.length; i++) {
    const a = hands[i - 1]!,
      b = hands[i]!;
    if (Math.sign(a.value - b.value) !== lexCompare(a.ref, b.ref)) mismatches++;
  }
  // Every pair: both orders are total preorders, so agreeing on neighbours of the sorted list
  // (strictly greater or exactly equal) means agreeing on all count*(count-1)/2 pairs.
  const sorted = [...hands].sort((a, b) => a.value - b.value);
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!,
      b = sorted[i]!;
    if (Math.sign(b.value - a.value) !== lexCompare(b.ref, a.ref)) {
      mismatches++;
      if (mismatches < 5) console.error('mismatch', a.cards.join(' '), a.ref, '|', b.cards.join(' '), b.ref);
    }
  }
  expect(mismatches).toBe(0);
  return categories;
}

describe('holdem evaluator vs brute-force reference', () => {
  it('standard: 20,000 random seeded 7-card hands agree on category and every pairwise order', () => {
    const categories = crossCheck('standard', 20_000, 20240601);
    // The sample covers every category but (probably) straight flush; those are in the table above.
    for (const c of [
      'high-card',
      'pair',
      'two-pair',
      'three-of-a-kind',
      'straight',
      'flush',
      'full-house',
      'four-of-a-kind',
    ])
      expect(categories.get(c)).toBeGreaterThan(0);
  }, 60_000);

  it('short deck: 20,000 random seeded 7-card hands agree with the reference re-parameterised (6..A, flush > full house)', () => {
    const categories = crossCheck('variant', 20_000, 777);
    for (const c of CATEGORY_ORDER.variant) expect(categories.get(c)).toBeGreaterThan(0);
  }, 60_000);

  it('reference sanity: every straight and the low-ace straights', () => {
    expect(refBest(h('Ah 2c 3d 4s 5h'), 'standard')).toEqual([4, 5]);
    expect(refBest(h('Ah 6c 7d 8s 9h'), 'variant')).toEqual([4, 9]);
    expect(refBest(h('Ah 6c 7d 8s 9h'), 'standard')).toEqual([0, 14, 9, 8, 7, 6]);
    const ranks = '23456789TJQKA';
    for (const variant of ['standard', 'variant'] as const) {
      const low = variant === 'variant' ? 4 : 0;
      const values = [];
      const wheel = ['A', ...ranks.slice(low, low + 4)].map((r, i) => r + 'cdhsc'[i]!);
      values.push(evaluate7(wheel, variant).value);
      for (let top = low + 4; top < 13; top++)
        values.push(
          evaluate7(
            [...ranks.slice(top - 4, top + 1)].map((r, i) => r + 'cdhsc'[i]!),
            variant,
          ).value,
        );
      for (let i = 1; i < values.length; i++) expect(values[i]!).toBeGreaterThan(values[i - 1]!);
      expect(new Set([wheel].map((c) => evaluate7(c, variant).category))).toEqual(new Set(['straight']));
    }
  });
});
