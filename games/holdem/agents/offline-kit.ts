// Texas Hold'em for the offline agents: the three characters' priors and words, and the reference
// heuristic Hold'em bot's params.json.
import { aggressive, cautious, imitator } from '../../../agents/offline/characters/index.ts';
import type { GameKit } from '../../../agents/offline/core/game-kit.ts';
import { clampKnobs, fmt } from '../../../agents/offline/core/knob-ops.ts';
import { HOLDEM_SPACE, type HoldemKnobs } from './knobs.ts';

/** The bot's own defaults (bot.mjs DEFAULTS), for params.json files that leave knobs out. */
const BOT_DEFAULTS: HoldemKnobs = {
  tightness: 0.5,
  aggression: 0.5,
  bluff: 0.05,
  simulations: 1000,
  depth: 1,
  timeBudgetMs: 100,
  randomness: 0.1,
};

/** Knobs from any params.json object; missing, null or non-numeric knobs take the bot's defaults. */
export function holdemKnobsFromParams(raw: unknown): HoldemKnobs | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const obj = raw as Record<string, unknown>;
  const k = { ...BOT_DEFAULTS };
  for (const name of HOLDEM_SPACE.names) {
    const v = Number(obj[name]);
    if (obj[name] !== undefined && obj[name] !== null && obj[name] !== '' && Number.isFinite(v)) k[name] = v;
  }
  return clampKnobs(HOLDEM_SPACE, k);
}

export const offlineKit: GameKit<HoldemKnobs> = {
  space: HOLDEM_SPACE,
  characters: {
    cautious: cautious(HOLDEM_SPACE, {
      summary: 'a rock: plays few hands, calls more than it raises, hardly bluffs, and samples more before it acts',
      prior: {
        tightness: [0.65, 0.85],
        aggression: [0.2, 0.4],
        bluff: [0, 0.03],
        simulations: [150, 250],
        depth: [1, 2],
        timeBudgetMs: [40, 60],
        randomness: [0.1, 0.25],
      },
      learnRule:
        'hill-climb: if beaten, move halfway toward the top rival (never fewer samples); if unbeaten, more samples per decision; tightness ≥ aggression',
    }),
    aggressive: aggressive(HOLDEM_SPACE, {
      summary: 'a maniac: plays many hands, raises rather than calls, bets big and bluffs often, and decides fast',
      prior: {
        tightness: [0.15, 0.35],
        aggression: [0.7, 0.95],
        bluff: [0.12, 0.22],
        simulations: [60, 120],
        depth: [1, 1],
        timeBudgetMs: [20, 35],
        randomness: [0.25, 0.5],
      },
      learnRule:
        'counter the field: take on the depth and budget of whoever beat it (or the top rival) and half its hand selection; vs a tight player raise and bluff more, vs another raiser sample more and match its bluffing halfway; if on top, more simulations; aggression > tightness',
      counter: {
        halfway: ['tightness'],
        vsCautious: {
          note: (t) =>
            `it is tight (tightness ${fmt(t.tightness)} ≥ aggression ${fmt(t.aggression)}) and folds too much: at least its depth ${t.depth}, 10% more aggression, bluff more than its ${fmt(t.bluff)}, hand selection halfway to its`,
          outdo: { knob: 'bluff', by: 0.03 },
        },
        vsBold: {
          note: (t) =>
            `it is a raiser too (aggression ${fmt(t.aggression)}): at least its depth ${t.depth} and more samples than its ${t.simulations} to call it down, hand selection and bluffing halfway to its`,
          halfway: ['bluff'],
          outdo: { knob: 'simulations', by: 50 },
        },
        progress: (k) =>
          `now tightness ${fmt(k.tightness)}, aggression ${fmt(k.aggression)}, bluff ${fmt(k.bluff)}, ${Math.round(k.simulations)}×${k.depth} samples, ${Math.round(k.timeBudgetMs)} ms`,
      },
    }),
    imitator: imitator(HOLDEM_SPACE, {
      summary: 'no creed of its own: copies whatever won last round, with a small twist',
      prior: {
        tightness: [0.4, 0.6],
        aggression: [0.4, 0.6],
        bluff: [0.03, 0.1],
        simulations: [100, 200],
        depth: [1, 2],
        timeBudgetMs: [25, 50],
        randomness: [0.2, 0.4],
      },
      learnRule:
        'copy the params of the top-scoring strategy of the previous round, mutate slightly; if it was top itself, more samples per decision',
    }),
  },
  botFiles: ['start_ai.sh', 'bot.mjs', 'bot-http.mjs', 'equity.mjs'],
  fromParams: holdemKnobsFromParams,
  params: (k, seed) => ({
    tightness: +fmt(k.tightness),
    aggression: +fmt(k.aggression),
    bluff: +fmt(k.bluff),
    simulations: k.simulations,
    depth: k.depth,
    timeBudgetMs: k.timeBudgetMs,
    randomness: +fmt(k.randomness),
    seed,
  }),
  about:
    "The bot is the reference heuristic Hold'em bot (pre-flop hand chart + Monte-Carlo equity against the pot odds, both decks); only params.json differs. tightness = how strong a hand it needs (and its margin over the pot odds), aggression = raising rather than calling and bet size, bluff = how often it bets without the cards, simulations × depth = Monte-Carlo samples per action (stopped at timeBudgetMs), randomness = noise on the strength it acts on.",
};
