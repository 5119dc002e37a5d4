// The word pairs (words.json, written for catarena, MIT like the repository): per category, pairs
// of related but different words. A game draws one pair and which side the civilians get.
import data from './words.json' with { type: 'json' };

export interface WordPair {
  category: string;
  /** Index in wordPairs(): the pair a game drew, as replays and reports name it. */
  index: number;
  words: readonly [string, string];
}

const PAIRS: readonly WordPair[] = Object.entries(data.categories as Record<string, string[][]>)
  .flatMap(([category, pairs]) => pairs.map((p) => ({ category, words: [p[0]!, p[1]!] as const })))
  .map((p, index) => ({ ...p, index }));

/** Every pair, in file order. */
export function wordPairs(): readonly WordPair[] {
  return PAIRS;
}

export function categories(): string[] {
  return Object.keys(data.categories);
}
