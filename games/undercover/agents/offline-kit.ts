// Undercover for the offline agents: the three characters' priors and words, and the reference
// heuristic bot's params.json.
import { aggressive, cautious, imitator } from '../../../agents/offline/characters/index.ts';
import type { GameKit } from '../../../agents/offline/core/game-kit.ts';
import { clampKnobs, fmt } from '../../../agents/offline/core/knob-ops.ts';
import { UNDERCOVER_SPACE, type UndercoverKnobs } from './knobs.ts';

/** The bot's own defaults (engine.mjs DEFAULTS), for params.json files that leave knobs out. */
const BOT_DEFAULTS: UndercoverKnobs = {
  vagueness: 0.5,
  boldness: 0.3,
  bandwagon: 0.3,
  depth: 2,
  timeBudgetMs: 50,
  randomness: 0.1,
};

/** Knobs from any params.json object; missing, null or non-numeric knobs take the bot's defaults. */
export function undercoverKnobsFromParams(raw: unknown): UndercoverKnobs | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const obj = raw as Record<string, unknown>;
  const k = { ...BOT_DEFAULTS };
  for (const name of UNDERCOVER_SPACE.names) {
    const v = Number(obj[name]);
    if (obj[name] !== undefined && obj[name] !== null && obj[name] !== '' && Number.isFinite(v)) k[name] = v;
  }
  return clampKnobs(UNDERCOVER_SPACE, k);
}

export const offlineKit: GameKit<UndercoverKnobs> = {
  space: UNDERCOVER_SPACE,
  characters: {
    cautious: cautious(UNDERCOVER_SPACE, {
      summary: 'keeps its word hidden: vague category clues, never proves its side, votes on its own evidence',
      prior: {
        vagueness: [0.7, 0.9],
        boldness: [0, 0.15],
        bandwagon: [0.05, 0.25],
        depth: [1, 2],
        timeBudgetMs: [40, 60],
        randomness: [0.05, 0.2],
      },
      learnRule:
        'hill-climb: if beaten, move halfway toward the top rival (never fewer clues); if unbeaten, one more clue per statement; vagueness ≥ boldness',
    }),
    aggressive: aggressive(UNDERCOVER_SPACE, {
      summary:
        'plays its hand openly: specific clues, names the other word to prove it is a civilian, follows the table',
      prior: {
        vagueness: [0.1, 0.35],
        boldness: [0.6, 0.9],
        bandwagon: [0.4, 0.7],
        depth: [1, 2],
        timeBudgetMs: [20, 40],
        randomness: [0.1, 0.3],
      },
      learnRule:
        'counter the field: take on the clue count of whoever beat it (or the top rival); vs a hider prove its side more, vs another prover follow the votes more; boldness > vagueness',
      counter: {
        halfway: ['vagueness'],
        vsCautious: {
          note: (t) =>
            `it hides (vagueness ${fmt(t.vagueness)} ≥ boldness ${fmt(t.boldness)}): prove my side more than its ${fmt(t.boldness)}`,
          outdo: { knob: 'boldness', by: 0.1 },
        },
        vsBold: {
          note: (t) =>
            `it proves its side too (boldness ${fmt(t.boldness)}): follow the table's votes more than its ${fmt(t.bandwagon)}`,
          halfway: ['boldness'],
          outdo: { knob: 'bandwagon', by: 0.1 },
        },
        progress: (k) =>
          `now vagueness ${fmt(k.vagueness)}, boldness ${fmt(k.boldness)}, bandwagon ${fmt(k.bandwagon)}, ${k.depth} clues`,
      },
    }),
    imitator: imitator(UNDERCOVER_SPACE, {
      summary: 'no creed of its own: copies whatever won last round, with a small twist',
      prior: {
        vagueness: [0.35, 0.65],
        boldness: [0.2, 0.5],
        bandwagon: [0.2, 0.5],
        depth: [1, 3],
        timeBudgetMs: [30, 60],
        randomness: [0.1, 0.3],
      },
      learnRule:
        'copy the params of the top-scoring strategy of the previous round, mutate slightly; if it was top itself, one more clue',
    }),
  },
  botFiles: ['start_ai.sh', 'bot.mjs', 'bot-http.mjs', 'engine.mjs', 'statement-check.mjs', 'words.json'],
  fromParams: undercoverKnobsFromParams,
  params: (k, seed) => ({
    vagueness: +fmt(k.vagueness),
    boldness: +fmt(k.boldness),
    bandwagon: +fmt(k.bandwagon),
    depth: k.depth,
    timeBudgetMs: k.timeBudgetMs,
    randomness: +fmt(k.randomness),
    seed,
  }),
  about:
    'The bot is the reference heuristic Undercover bot (clues from the embedded word-pair association list, evidence-based votes); only params.json differs. vagueness = category clues instead of related words, boldness = naming the other word to prove its side, bandwagon = following the last ballot, depth = clues per statement, randomness = noise on its vote.',
};
