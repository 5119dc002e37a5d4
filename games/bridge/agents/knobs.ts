// The heuristic bridge bot's knobs as a ParamSpace (games/bridge/bots/heuristic/params.json).
//
// The characters stand on aggression (bold: compete, bid games light) against discipline (safe:
// the HCP it wants before it opens). Both are 0..1 so they compare: discipline is the bot's
// openMin rescaled, openMin = 10 + 4 × discipline (10..14 HCP); every other knob is the bot's own.
// A board is about 60 decisions of well under a millisecond each, so time is no issue: the
// budget stays at 20–60 ms like every offline bot, and "searching more" means reasoning with more
// of what the defence can see (depth 1 own hand, 2 + the auction, 3 + dummy's cards).
import { fmt } from '../../../agents/offline/core/knob-ops.ts';
import type { ParamSpace } from '../../../agents/offline/core/param-space.ts';

export interface BridgeKnobs {
  /** Competing and game bidding: the law of total tricks ±1 level, ±1 point for game (0..1). */
  aggression: number;
  /** (openMin − 10) / 4: how many HCP it wants before it opens (0..1 ↔ 10..14 HCP). */
  discipline: number;
  /** HCP needed to overcall (7..12). */
  overcallMin: number;
  /** Combined points the side needs to bid game (23..27; lower = bolder). */
  gameBonus: number;
  /** Defensive tricks above those needed before a penalty double (2..6). */
  doubleMargin: number;
  /** Combined points for a slam (31..35). */
  slamMin: number;
  /** 0 passive leads (sequences, trumps), 1 aggressive (long suits). */
  leadStyle: number;
  /** What the defence reasons with: 1 own hand, 2 + the auction, 3 + dummy's cards. */
  depth: number;
  timeBudgetMs: number;
  /** Valuation jitter (±randomness/2 HCP) and lead tie-breaks, from the request's content hash. */
  randomness: number;
}

/** openMin ↔ discipline. */
export const openMinOf = (discipline: number): number => 10 + 4 * discipline;
export const disciplineOf = (openMin: number): number => (openMin - 10) / 4;

/**
 * Hard limits for every offline bridge bot (the bot's own ranges, except that aggression and
 * discipline stay off 0 so the characters' strict orderings hold, and 20–60 ms of budget).
 */
const LIMITS: ParamSpace<BridgeKnobs>['limits'] = {
  aggression: [0.05, 1],
  discipline: [0.05, 1],
  overcallMin: [7, 12],
  gameBonus: [23, 27],
  doubleMargin: [2, 6],
  slamMin: [31, 35],
  leadStyle: [0, 1],
  depth: [1, 3],
  timeBudgetMs: [20, 60],
  randomness: [0, 1],
};

export const BRIDGE_SPACE: ParamSpace<BridgeKnobs> = {
  names: [
    'aggression',
    'discipline',
    'overcallMin',
    'gameBonus',
    'doubleMargin',
    'slamMin',
    'leadStyle',
    'depth',
    'timeBudgetMs',
    'randomness',
  ],
  limits: LIMITS,
  counts: ['leadStyle', 'depth'],
  geometric: [],
  mutation: {
    jitter: ['aggression', 'discipline', 'overcallMin', 'gameBonus', 'doubleMargin', 'slamMin', 'timeBudgetMs'],
    nudge: 'leadStyle',
    words:
      'aggression, opening and overcall strength, game, double and slam thresholds, budget (and now and then the lead style)',
  },
  // Competing against sound openings.
  style: { bold: 'aggression', safe: 'discipline' },
  /** Reason with more (one depth step); at full depth, bid games a little more soundly. */
  explore(k) {
    if (k.depth < LIMITS.depth[1]) {
      const what = ['', 'its own hand', 'the auction too', "dummy's cards too"];
      return {
        knobs: { ...k, depth: k.depth + 1 },
        note: `the defence reasons with more (depth ${k.depth} → ${k.depth + 1}: ${what[k.depth + 1]})`,
      };
    }
    if (k.gameBonus < LIMITS.gameBonus[1]) {
      const g = Math.min(LIMITS.gameBonus[1], k.gameBonus + 0.5);
      return {
        knobs: { ...k, gameBonus: g },
        note: `already at full depth: bid games a little more soundly (gameBonus ${fmt(k.gameBonus)} → ${fmt(g)})`,
      };
    }
    return { knobs: k, note: 'already at full depth and the soundest game bidding: small mutation only' };
  },
  describe: (e) =>
    `${e.id} (score ${fmt(e.score)}, aggression ${fmt(e.knobs.aggression)}, openMin ${fmt(openMinOf(e.knobs.discipline))}, game at ${fmt(e.knobs.gameBonus)}, double margin ${fmt(e.knobs.doubleMargin)}, ${e.knobs.leadStyle ? 'aggressive' : 'passive'} leads, depth ${e.knobs.depth})`,
};
