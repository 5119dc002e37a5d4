// Playing cards for Texas Hold'em, in CATArena's wire format: two characters, rank then suit,
// e.g. 'As', 'Td', '6h'. Ranks 23456789TJQKA, suits c d h s (lowercase).
//   standard: the 52-card deck.
//   variant:  CATArena's "Six Plus" short deck, 36 cards 6..A (see docs/catarena-compat.md §4.4).
import type { Rng } from '../../util/rng.ts';

export type HoldemVariant = 'standard' | 'variant';
export const HOLDEM_VARIANTS: readonly HoldemVariant[] = ['standard', 'variant'];

export type RankChar = '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | 'T' | 'J' | 'Q' | 'K' | 'A';
export type SuitChar = 'c' | 'd' | 'h' | 's';
/** A card as it travels on the wire: `${rank}${suit}`. */
export type Card = `${RankChar}${SuitChar}`;

export const RANK_CHARS = '23456789TJQKA';
export const SUIT_CHARS = 'cdhs';

export interface ParsedCard {
  /** 2..14 (ten = 10, jack = 11, queen = 12, king = 13, ace = 14). */
  rank: number;
  suit: SuitChar;
}

/** The lowest rank in a variant's deck: 2 (standard) or 6 (short deck). */
export function lowestRank(variant: HoldemVariant): number {
  return variant === 'variant' ? 6 : 2;
}

export function isCard(value: unknown): value is Card {
  return (
    typeof value === 'string' && value.length === 2 && RANK_CHARS.includes(value[0]!) && SUIT_CHARS.includes(value[1]!)
  );
}

/** True if the card exists in the variant's deck (no 2–5 in the short deck). */
export function inDeck(card: string, variant: HoldemVariant): card is Card {
  return isCard(card) && rankOf(card) >= lowestRank(variant);
}

export function parseCard(card: string): ParsedCard {
  if (!isCard(card))
    throw new Error(`invalid card ${JSON.stringify(card)} (expected rank 23456789TJQKA + suit cdhs, e.g. "As")`);
  return { rank: RANK_CHARS.indexOf(card[0]!) + 2, suit: card[1] as SuitChar };
}

export function formatCard(rank: number, suit: SuitChar): Card {
  if (!Number.isInteger(rank) || rank < 2 || rank > 14) throw new Error(`invalid rank ${rank}`);
  if (!SUIT_CHARS.includes(suit)) throw new Error(`invalid suit ${JSON.stringify(suit)}`);
  return `${RANK_CHARS[rank - 2]}${suit}` as Card;
}

/** Rank 2..14 of a card already known to be valid. */
export function rankOf(card: Card): number {
  return RANK_CHARS.indexOf(card[0]!) + 2;
}

/** Parse a space/comma separated list ('As Kd 7h') or pass an array through, validating each card. */
export function parseCards(cards: string | readonly string[]): Card[] {
  const list = typeof cards === 'string' ? cards.split(/[\s,]+/).filter(Boolean) : cards;
  return list.map((c) => {
    parseCard(c);
    return c as Card;
  });
}

/** The ordered (unshuffled) deck: 52 cards, or 36 (6..A) for the short-deck variant. */
export function deck(variant: HoldemVariant): Card[] {
  const out: Card[] = [];
  for (let rank = lowestRank(variant); rank <= 14; rank++)
    for (const suit of SUIT_CHARS) out.push(formatCard(rank, suit as SuitChar));
  return out;
}

/** A shuffled deck from the given seeded Rng (reproducible: same Rng state, same order). */
export function shuffledDeck(variant: HoldemVariant, rng: Rng): Card[] {
  return rng.shuffle(deck(variant));
}
