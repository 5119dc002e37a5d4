// The heuristic chess bot's knobs as a ParamSpace (games/chess/bots/heuristic/params.json).
//
// Time matters more here than in Gomoku: a chess game is up to 200 plies, so every offline chess
// bot searches at depth ≤ 2 within 10–30 ms per move, and the default four-game tournament stays
// within 3 minutes (a depth-3 bot spends 3× the CPU a move, and chess was half the default run's CPU).
import { fmt } from '../../../agents/offline/core/knob-ops.ts';
import type { ParamSpace } from '../../../agents/offline/core/param-space.ts';

export interface ChessKnobs {
  depth: number;
  timeBudgetMs: number;
  /** Multiplies every piece value: higher = greedier. */
  materialScale: number;
  mobility: number;
  pst: number;
  kingSafety: number;
  /** × 100 cp of noise on the root scores. */
  randomness: number;
}

/** Hard limits for every offline chess bot (the bot itself accepts depth 1–5, 5–9000 ms). */
const LIMITS: ParamSpace<ChessKnobs>['limits'] = {
  depth: [1, 2],
  timeBudgetMs: [10, 30],
  materialScale: [0.5, 2],
  mobility: [0, 3],
  pst: [0, 3],
  kingSafety: [0, 3],
  randomness: [0, 1],
};

export const CHESS_SPACE: ParamSpace<ChessKnobs> = {
  names: ['depth', 'timeBudgetMs', 'materialScale', 'mobility', 'pst', 'kingSafety', 'randomness'],
  limits: LIMITS,
  counts: ['depth'],
  geometric: [],
  mutation: { jitter: ['materialScale', 'mobility', 'pst', 'kingSafety', 'timeBudgetMs'], words: 'weights and budget' },
  // Activity against material.
  style: { bold: 'mobility', safe: 'materialScale' },
  /** One ply deeper, or more time once at the depth limit (chess has no width knob). */
  explore(k) {
    if (k.depth < LIMITS.depth[1])
      return { knobs: { ...k, depth: k.depth + 1 }, note: `one ply deeper (depth ${k.depth} → ${k.depth + 1})` };
    if (k.timeBudgetMs < LIMITS.timeBudgetMs[1]) {
      const t = Math.min(LIMITS.timeBudgetMs[1], k.timeBudgetMs + 5);
      return { knobs: { ...k, timeBudgetMs: t }, note: `more time per move (${k.timeBudgetMs} → ${t} ms)` };
    }
    return { knobs: k, note: 'already at full depth and time: small mutation only' };
  },
  describe: (e) =>
    `${e.id} (score ${fmt(e.score)}, depth ${e.knobs.depth}, ${e.knobs.timeBudgetMs} ms, material ×${fmt(e.knobs.materialScale)}, mobility ${fmt(e.knobs.mobility)}, pst ${fmt(e.knobs.pst)})`,
};
