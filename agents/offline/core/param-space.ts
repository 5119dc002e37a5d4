// A game's parameter space: the knobs of its heuristic reference bot, described as data plus a few
// small functions, so the characters' learning rules (characters/) can be written once for every
// game. Each game fills one in (gomoku/knobs.ts, chess/knobs.ts); knob-ops.ts does the arithmetic.
import type { FieldEntry } from './learning.ts';

/** Knobs every offline bot has: the rules and the agent use them by name. */
export interface BaseKnobs {
  depth: number;
  timeBudgetMs: number;
  /** Move noise; halved once a round report gives evidence to act on. */
  randomness: number;
}

/** A knob set: named numbers, with at least the base knobs. */
export type Knobs<K> = BaseKnobs & Record<keyof K, number>;
export type KnobName<K> = keyof K & string;
export type Range = readonly [number, number];
/** A character's round-1 guess: each knob drawn uniformly from its range. */
export type Prior<K> = Record<keyof K, Range>;

export interface ParamSpace<K extends Knobs<K>> {
  /** Every knob, in the order they are drawn, tabulated and logged (the order the rng is used). */
  names: readonly KnobName<K>[];
  /** Hard limits for every offline bot of the game. */
  limits: Record<keyof K, Range>;
  /** Knobs that count something (plies, moves): drawn as integers, blended by whole steps. */
  counts: readonly KnobName<K>[];
  /** Knobs that act multiplicatively: blended geometrically, so a half step is a ratio's root. */
  geometric: readonly KnobName<K>[];
  /** A small random step: these knobs scaled by ±a few % (in this order), maybe a count ±1. */
  mutation: { jitter: readonly KnobName<K>[]; nudge?: KnobName<K> /** For the notes. */; words: string };
  /**
   * The axis the characters stand on: `bold` is the weight an attacker leads with (its own
   * threats, activity), `safe` its counterweight (the opponent's threats, material).
   */
  style: { bold: KnobName<K>; safe: KnobName<K> };
  /** Search more, in the preferred direction first where the game has two (deeper or wider). */
  explore(k: K, prefer: 'depth' | 'width'): { knobs: K; note: string };
  /** One previous-round strategy in a few words, for the notes. */
  describe(e: FieldEntry<K>): string;
}
