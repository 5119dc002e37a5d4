// The heuristic Gomoku bot's knobs as a ParamSpace (games/gomoku/bots/heuristic/params.json).
import { fmt } from '../../../agents/offline/core/knob-ops.ts';
import type { ParamSpace } from '../../../agents/offline/core/param-space.ts';

/** What an offline agent tunes. `ratio` is the growth of the window weights per extra stone. */
export interface GomokuKnobs {
  attack: number;
  defense: number;
  depth: number;
  candidates: number;
  timeBudgetMs: number;
  centerBias: number;
  randomness: number;
  ratio: number;
}

/**
 * Hard limits for every offline bot. timeBudgetMs: the bot clamps below 50, and the default
 * 4-round tournament of all four games must finish within 3 minutes on 2 cores: depth 4 spent
 * 2–3× the CPU of depth 3 a move, so 3 is the limit.
 */
const LIMITS: ParamSpace<GomokuKnobs>['limits'] = {
  attack: [0.2, 3],
  defense: [0.2, 3],
  depth: [1, 3],
  candidates: [3, 16],
  timeBudgetMs: [50, 120],
  centerBias: [0, 2],
  randomness: [0, 1],
  ratio: [3, 25],
};

export const GOMOKU_SPACE: ParamSpace<GomokuKnobs> = {
  names: ['attack', 'defense', 'depth', 'candidates', 'timeBudgetMs', 'centerBias', 'randomness', 'ratio'],
  limits: LIMITS,
  counts: ['depth', 'candidates'],
  // Each scales the shape weights, so a half step toward a rival is a ratio's square root.
  geometric: ['ratio', 'attack', 'defense'],
  mutation: {
    jitter: ['attack', 'defense', 'ratio', 'centerBias', 'timeBudgetMs'],
    nudge: 'candidates',
    words: 'weights and budget, maybe ±1 candidate',
  },
  // Own shapes against the opponent's.
  style: { bold: 'attack', safe: 'defense' },
  /** Deeper or wider, the character's way first, the other once that is at its limit. */
  explore(k, prefer) {
    const deeper = k.depth < LIMITS.depth[1],
      wider = k.candidates < LIMITS.candidates[1];
    if (deeper && (prefer === 'depth' || !wider || k.candidates >= 12)) {
      return { knobs: { ...k, depth: k.depth + 1 }, note: `one ply deeper (depth ${k.depth} → ${k.depth + 1})` };
    }
    if (wider) {
      const c = Math.min(LIMITS.candidates[1], k.candidates + 2);
      return { knobs: { ...k, candidates: c }, note: `wider search (${k.candidates} → ${c} candidates)` };
    }
    return { knobs: k, note: 'already at full depth and width: small mutation only' };
  },
  describe: (e) =>
    `${e.id} (score ${fmt(e.score)}, depth ${e.knobs.depth}, ${e.knobs.candidates} candidates, attack ${fmt(e.knobs.attack)}, defense ${fmt(e.knobs.defense)})`,
};
