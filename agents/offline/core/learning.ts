// What a character is and what it learns from: the previous round's field of strategies, each
// with its score, its knobs and its record against the learner.
import type { Rng } from '../../../util/rng.ts';
import type { HeadToHead } from '../../../records/tourney.ts';
import type { Prior } from './param-space.ts';

/** The characters: every game has all of them, in this order (the order the CLI lists them). */
export const CHARACTER_NAMES = ['cautious', 'aggressive', 'imitator'] as const;
export type CharacterName = (typeof CHARACTER_NAMES)[number];

/** One previous-round strategy whose params.json could be read, best score first in a field. */
export interface FieldEntry<K> {
  agent: string;
  id: string;
  score: number;
  knobs: K;
  /** This strategy's record against the learner's previous strategy, if they met. */
  vsMe?: HeadToHead;
}

export interface LearnInput<K> {
  self: string;
  own: K;
  /** Previous-round strategies with readable params, sorted best score first (self included). */
  field: FieldEntry<K>[];
  rng: Rng;
}

export interface LearnResult<K> {
  knobs: K;
  /** Plain-words reasons, copied into the log and NOTES.md. */
  notes: string[];
}

/** A character's words and round-1 guess for one game: the rule itself is the same everywhere. */
export interface Creed<K> {
  summary: string;
  prior: Prior<K>;
  learnRule: string;
}

export interface Character<K> extends Creed<K> {
  name: string;
  /** Round ≥ 2: the new knobs from the previous round's field. */
  learn(input: LearnInput<K>): LearnResult<K>;
  /** The character's invariant (e.g. defense ≥ attack), applied after every change. */
  shape(k: K): K;
}

export const rivalsOf = <K>(input: LearnInput<K>) => input.field.filter((e) => e.agent !== input.self);
/** Rivals that scored more than half against me, best first. */
export const beatersOf = <K>(input: LearnInput<K>) =>
  rivalsOf(input)
    .filter((e) => e.vsMe && e.vsMe.games > 0 && e.vsMe.score > 0.5)
    .sort((a, b) => b.vsMe!.score - a.vsMe!.score);
