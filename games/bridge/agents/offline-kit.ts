// Contract bridge for the offline agents: the three characters' priors and words, and the
// reference heuristic bridge bot's params.json (discipline is written as the bot's openMin).
import { aggressive, cautious, imitator } from '../../../agents/offline/characters/index.ts';
import type { GameKit } from '../../../agents/offline/core/game-kit.ts';
import { clampKnobs, fmt } from '../../../agents/offline/core/knob-ops.ts';
import { BRIDGE_SPACE, disciplineOf, openMinOf, type BridgeKnobs } from './knobs.ts';

/** The bot's own defaults (strategy.mjs DEFAULTS), for params.json files that leave knobs out. */
const BOT_DEFAULTS: BridgeKnobs = {
  aggression: 0.5,
  discipline: disciplineOf(12),
  overcallMin: 8,
  gameBonus: 25,
  doubleMargin: 3,
  slamMin: 33,
  leadStyle: 0,
  depth: 3,
  timeBudgetMs: 50,
  randomness: 0,
};

const num = (v: unknown): number | null =>
  v !== undefined && v !== null && v !== '' && typeof v !== 'boolean' && Number.isFinite(Number(v)) ? Number(v) : null;

/** Knobs from any params.json object; missing, null or non-numeric knobs take the bot's defaults. */
export function bridgeKnobsFromParams(raw: unknown): BridgeKnobs | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const obj = raw as Record<string, unknown>;
  const k = { ...BOT_DEFAULTS };
  for (const name of BRIDGE_SPACE.names) {
    if (name === 'discipline') continue;
    const v = num(obj[name]);
    if (v !== null) k[name] = v;
  }
  const openMin = num(obj.openMin);
  if (openMin !== null) k.discipline = disciplineOf(openMin);
  return clampKnobs(BRIDGE_SPACE, k);
}

export const offlineKit: GameKit<BridgeKnobs> = {
  space: BRIDGE_SPACE,
  characters: {
    cautious: cautious(BRIDGE_SPACE, {
      summary:
        'a disciplined partner: sound openings and overcalls, games and slams only with the values, doubles only sure sets, passive leads',
      prior: {
        aggression: [0.1, 0.3],
        discipline: [0.6, 0.85],
        overcallMin: [9.5, 11],
        gameBonus: [25.5, 26.5],
        doubleMargin: [3.5, 4.5],
        slamMin: [33.5, 35],
        leadStyle: [0, 0],
        depth: [1, 2],
        timeBudgetMs: [40, 60],
        randomness: [0.1, 0.25],
      },
      learnRule:
        'hill-climb: if beaten, move halfway toward the top rival (never reasoning with less); if unbeaten, reason with more (depth), then bid games more soundly; discipline ≥ aggression',
    }),
    aggressive: aggressive(BRIDGE_SPACE, {
      summary:
        'a bidder: opens light, overcalls and competes, stretches for games and slams, doubles freely and leads from long suits',
      prior: {
        aggression: [0.7, 0.95],
        discipline: [0.1, 0.35],
        overcallMin: [7, 8],
        gameBonus: [23, 24.5],
        doubleMargin: [2, 2.8],
        slamMin: [31, 32.5],
        leadStyle: [1, 1],
        depth: [1, 1],
        timeBudgetMs: [20, 35],
        randomness: [0.25, 0.5],
      },
      learnRule:
        'counter the field: take on the depth of whoever beat it (or the top rival) and half its opening discipline; vs a disciplined side compete more and overcall lighter, vs another bidder take on half its game and double thresholds; if on top, reason with more; aggression > discipline',
      counter: {
        halfway: ['discipline'],
        vsCautious: {
          note: (t) =>
            `it is disciplined (discipline ${fmt(t.discipline)} ≥ aggression ${fmt(t.aggression)}) and lets part-scores go: at least its depth ${t.depth}, 10% more aggression, overcall as light as halfway to its ${fmt(t.overcallMin)} HCP, opening strength halfway to its`,
          halfway: ['overcallMin'],
        },
        vsBold: {
          note: (t) =>
            `it bids too (aggression ${fmt(t.aggression)}): at least its depth ${t.depth}, its game and double thresholds (${fmt(t.gameBonus)}, ${fmt(t.doubleMargin)}) and opening strength halfway, to punish its overbids`,
          halfway: ['gameBonus', 'doubleMargin'],
        },
        progress: (k) =>
          `now aggression ${fmt(k.aggression)}, openMin ${fmt(openMinOf(k.discipline))}, overcallMin ${fmt(k.overcallMin)}, game at ${fmt(k.gameBonus)}, double margin ${fmt(k.doubleMargin)}, depth ${k.depth}`,
      },
    }),
    imitator: imitator(BRIDGE_SPACE, {
      summary: 'no creed of its own: copies whatever won last round, with a small twist',
      prior: {
        aggression: [0.4, 0.6],
        discipline: [0.4, 0.6],
        overcallMin: [8, 9.5],
        gameBonus: [24.5, 25.5],
        doubleMargin: [2.8, 3.5],
        slamMin: [32.5, 33.5],
        leadStyle: [0, 1],
        depth: [1, 2],
        timeBudgetMs: [25, 50],
        randomness: [0.2, 0.4],
      },
      learnRule:
        'copy the params of the top-scoring strategy of the previous round, mutate slightly; if it was top itself, reason with more',
    }),
  },
  botFiles: ['start_ai.sh', 'bot.mjs', 'bot-http.mjs', 'strategy.mjs'],
  fromParams: bridgeKnobsFromParams,
  params: (k, seed) => ({
    openMin: +fmt(openMinOf(k.discipline)),
    overcallMin: +fmt(k.overcallMin),
    gameBonus: +fmt(k.gameBonus),
    doubleMargin: +fmt(k.doubleMargin),
    slamMin: +fmt(k.slamMin),
    leadStyle: k.leadStyle,
    aggression: +fmt(k.aggression),
    depth: k.depth,
    timeBudgetMs: k.timeBudgetMs,
    randomness: +fmt(k.randomness),
    seed,
  }),
  about:
    "The bot is the reference heuristic bridge bot (natural bidding on HCP and distribution, standard leads and follow rules, declarer draws trumps and cashes winners; the variant's partner card exchange); only params.json differs. openMin = 10 + 4 × discipline = HCP to open, overcallMin = HCP to overcall, aggression = competing (law of total tricks ±1 level) and ±1 point on the game threshold, gameBonus = combined points for game, doubleMargin = spare defensive tricks before a penalty double, slamMin = combined points for slam, leadStyle 0 passive / 1 long-suit leads, depth = what the defence reasons with (1 own hand, 2 + the auction, 3 + dummy's cards), randomness = a deterministic valuation jitter.",
};
