// The heuristic Undercover bot's knobs as a ParamSpace (games/undercover/bots/heuristic/params.json).
import { fmt } from '../../../agents/offline/core/knob-ops.ts';
import type { ParamSpace } from '../../../agents/offline/core/param-space.ts';

export interface UndercoverKnobs {
  /** How often a clue names only the category instead of a related word (0..1). */
  vagueness: number;
  /** How often a believed civilian names the other word of the pair, proving its side (0..1). */
  boldness: number;
  /** Weight of the last ballot's votes in its own vote (0..1). */
  bandwagon: number;
  /** Clue facts per statement (1..3). */
  depth: number;
  /** Unused by the bot's fast decisions; kept as the shared base knob. */
  timeBudgetMs: number;
  /** Noise on its vote (0..1). */
  randomness: number;
}

const LIMITS: ParamSpace<UndercoverKnobs>['limits'] = {
  vagueness: [0.05, 0.95],
  boldness: [0, 1],
  bandwagon: [0, 1],
  depth: [1, 3],
  timeBudgetMs: [20, 100],
  randomness: [0, 1],
};

export const UNDERCOVER_SPACE: ParamSpace<UndercoverKnobs> = {
  names: ['vagueness', 'boldness', 'bandwagon', 'depth', 'timeBudgetMs', 'randomness'],
  limits: LIMITS,
  counts: ['depth'],
  geometric: [],
  mutation: {
    jitter: ['vagueness', 'boldness', 'bandwagon'],
    nudge: 'depth',
    words: 'vagueness, boldness and bandwagon, maybe ±1 clue',
  },
  // Proving its side against hiding its word.
  style: { bold: 'boldness', safe: 'vagueness' },
  /** "Search more" in a word game: one more clue per statement, else follow the votes more. */
  explore(k) {
    if (k.depth < LIMITS.depth[1])
      return { knobs: { ...k, depth: k.depth + 1 }, note: `one more clue per statement (${k.depth} → ${k.depth + 1})` };
    if (k.bandwagon < LIMITS.bandwagon[1]) {
      const b = Math.min(LIMITS.bandwagon[1], k.bandwagon + 0.1);
      return {
        knobs: { ...k, bandwagon: b },
        note: `follow the table's votes more (bandwagon ${fmt(k.bandwagon)} → ${fmt(b)})`,
      };
    }
    return { knobs: k, note: 'already at full clues and bandwagon: small mutation only' };
  },
  describe: (e) =>
    `${e.id} (score ${fmt(e.score)}, vagueness ${fmt(e.knobs.vagueness)}, boldness ${fmt(e.knobs.boldness)}, bandwagon ${fmt(e.knobs.bandwagon)}, ${e.knobs.depth} clues)`,
};
