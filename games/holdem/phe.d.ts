// Minimal types for the CommonJS package `phe` (poker hand evaluator, standard 52-card deck).
// Its strengths are 1 (royal flush) .. 7462 (worst high card): LOWER is better.
declare module 'phe' {
  interface Phe {
    /** 5–7 cards like 'As', 'Td' → strength 1..7462, lower is better. */
    evaluateCards(cards: readonly string[]): number;
    /** Same without the array check. */
    evaluateCardsFast(cards: readonly string[]): number;
    /** 5–7 card codes (rank index 0..12 (2..A) << 2 | suit s0 h1 d2 c3) → strength. */
    evaluateCardCodes(codes: readonly number[]): number;
    /** 5–7 cards → category 0 straight flush .. 8 high card. */
    rankCards(cards: readonly string[]): number;
    /** Strength → category 0 straight flush .. 8 high card. */
    handRank(strength: number): number;
    /** Category names indexed by handRank: 'Straight Flush' .. 'High Card'. */
    rankDescription: readonly string[];
    cardCode(rank: string, suit: string): number;
  }
  const phe: Phe;
  export default phe;
}
