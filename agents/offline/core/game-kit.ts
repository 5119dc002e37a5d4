// What a game brings to the offline agents: its parameter space, its characters, and the
// reference bot they tune (which files to copy, how params.json reads and writes).
import type { Character, CharacterName } from './learning.ts';
import type { Knobs, ParamSpace } from './param-space.ts';

export interface GameKit<K extends Knobs<K>> {
  space: ParamSpace<K>;
  characters: Record<CharacterName, Character<K>>;
  /** Files copied from games/<game>/bots/heuristic (params.json is written, not copied). */
  botFiles: string[];
  /** Knobs from any params.json object (another agent's may be partial or odd); null if unusable. */
  fromParams(raw: unknown): K | null;
  /** params.json fields after name, round and character. */
  params(k: K, seed: number): Record<string, unknown>;
  /** The last paragraph of NOTES.md. */
  about: string;
}
