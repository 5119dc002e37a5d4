// The heuristic Hold'em bot's knobs as a ParamSpace (games/holdem/bots/heuristic/params.json).
//
// A table tournament asks for thousands of actions, so every offline Hold'em bot is fast: at most
// 60 ms per action and a few hundred Monte-Carlo samples (simulations × depth ≤ 1200).
import { fmt } from '../../../agents/offline/core/knob-ops.ts';
import type { ParamSpace } from '../../../agents/offline/core/param-space.ts';

export interface HoldemKnobs {
  /** How strong a pre-flop hand it needs, and its margin over the pot odds (0..1). */
  tightness: number;
  /** Raise rather than call, and bet bigger (0..1). */
  aggression: number;
  /** How often it bets or raises without the cards (0..0.3). */
  bluff: number;
  /** Monte-Carlo samples per decision, before the depth multiplier. */
  simulations: number;
  /** Multiplies simulations (samples = simulations × depth). */
  depth: number;
  timeBudgetMs: number;
  /** Noise on the hand strength and bet sizes it acts on (0..1). */
  randomness: number;
}

/**
 * Hard limits for every offline Hold'em bot (the bot itself accepts simulations 50–5000, depth
 * 1–4, 20–2000 ms). tightness and aggression stay off 0 so the characters' strict orderings hold.
 */
const LIMITS: ParamSpace<HoldemKnobs>['limits'] = {
  tightness: [0.05, 0.95],
  aggression: [0.05, 1],
  bluff: [0, 0.3],
  simulations: [50, 400],
  depth: [1, 3],
  timeBudgetMs: [20, 60],
  randomness: [0, 1],
};

export const HOLDEM_SPACE: ParamSpace<HoldemKnobs> = {
  names: ['tightness', 'aggression', 'bluff', 'simulations', 'depth', 'timeBudgetMs', 'randomness'],
  limits: LIMITS,
  counts: ['depth', 'simulations'],
  // A sample count acts by ratio: halfway from 100 to 400 samples is 200.
  geometric: ['simulations'],
  mutation: {
    jitter: ['tightness', 'aggression', 'bluff', 'simulations', 'timeBudgetMs'],
    words: 'tightness, aggression, bluffing, samples and budget',
  },
  // Betting and raising against hand selection.
  style: { bold: 'aggression', safe: 'tightness' },
  /** More samples: one depth step (the sample multiplier), else more simulations, else more time. */
  explore(k, prefer) {
    const deeper = k.depth < LIMITS.depth[1],
      wider = k.simulations < LIMITS.simulations[1];
    if (deeper && (prefer === 'depth' || !wider)) {
      return {
        knobs: { ...k, depth: k.depth + 1 },
        note: `more samples per decision (depth ${k.depth} → ${k.depth + 1}, ${k.simulations * k.depth} → ${k.simulations * (k.depth + 1)} samples)`,
      };
    }
    if (wider) {
      const s = Math.min(LIMITS.simulations[1], Math.round(k.simulations * 1.5));
      return { knobs: { ...k, simulations: s }, note: `more simulations (${k.simulations} → ${s} per depth step)` };
    }
    if (k.timeBudgetMs < LIMITS.timeBudgetMs[1]) {
      const t = Math.min(LIMITS.timeBudgetMs[1], k.timeBudgetMs + 10);
      return { knobs: { ...k, timeBudgetMs: t }, note: `more time per action (${k.timeBudgetMs} → ${t} ms)` };
    }
    return { knobs: k, note: 'already at full samples and time: small mutation only' };
  },
  describe: (e) =>
    `${e.id} (score ${fmt(e.score)}, tightness ${fmt(e.knobs.tightness)}, aggression ${fmt(e.knobs.aggression)}, bluff ${fmt(e.knobs.bluff)}, ${e.knobs.simulations}×${e.knobs.depth} samples, ${e.knobs.timeBudgetMs} ms)`,
};
