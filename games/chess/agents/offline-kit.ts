// Chess for the offline agents: the three characters' priors and words, and the reference
// heuristic chess bot's params.json.
import { aggressive, cautious, imitator } from '../../../agents/offline/characters/index.ts';
import type { GameKit } from '../../../agents/offline/core/game-kit.ts';
import { clampKnobs, fmt } from '../../../agents/offline/core/knob-ops.ts';
import { CHESS_SPACE, type ChessKnobs } from './knobs.ts';

/** The bot's own defaults (bot.mjs DEFAULTS), for params.json files that leave knobs out. */
const BOT_DEFAULTS: ChessKnobs = {
  depth: 3,
  timeBudgetMs: 300,
  materialScale: 1,
  mobility: 1,
  pst: 1,
  kingSafety: 1,
  randomness: 0,
};

/** Knobs from any params.json object; missing, null or non-numeric knobs take the bot's defaults. */
export function chessKnobsFromParams(raw: unknown): ChessKnobs | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const obj = raw as Record<string, unknown>;
  const k = { ...BOT_DEFAULTS };
  for (const name of CHESS_SPACE.names) {
    const v = Number(obj[name]);
    if (obj[name] !== undefined && obj[name] !== null && Number.isFinite(v)) k[name] = v;
  }
  return clampKnobs(CHESS_SPACE, k);
}

export const offlineKit: GameKit<ChessKnobs> = {
  space: CHESS_SPACE,
  characters: {
    cautious: cautious(CHESS_SPACE, {
      summary: 'material first: counts pieces before activity, guards its king, searches deeper and takes its time',
      prior: {
        depth: [2, 2],
        timeBudgetMs: [20, 30],
        materialScale: [1.2, 1.6],
        mobility: [0.2, 0.6],
        pst: [0.6, 1],
        kingSafety: [1.2, 2],
        randomness: [0.15, 0.35],
      },
      learnRule:
        'hill-climb: if beaten, move halfway toward the top rival (never shallower); if unbeaten, one ply deeper (more time at depth 3); materialScale ≥ mobility',
    }),
    aggressive: aggressive(CHESS_SPACE, {
      summary: 'activity first: values mobility over material, searches shallow and fast',
      prior: {
        depth: [1, 1],
        timeBudgetMs: [10, 15],
        materialScale: [0.7, 1],
        mobility: [1.5, 2.5],
        pst: [1, 1.5],
        kingSafety: [0.2, 0.6],
        randomness: [0.3, 0.6],
      },
      learnRule:
        'counter the field: take on the depth and budget of whoever beat it (or the top rival) and half its material weight; vs a materialist even more mobility, vs another attacker its piece placement; if on top, search deeper; mobility > materialScale',
      counter: {
        halfway: ['materialScale'],
        vsCautious: {
          note: (t) =>
            `it is a materialist (material ×${fmt(t.materialScale)} ≥ mobility ${fmt(t.mobility)}): search at least its depth ${t.depth}, material weight halfway to its, mobility 10% higher`,
        },
        vsBold: {
          note: (t) =>
            `it is an attacker too (mobility ${fmt(t.mobility)}): match its depth ${t.depth}, material weight, piece placement and king safety halfway to its`,
          halfway: ['pst', 'kingSafety'],
        },
        progress: (k) =>
          `now depth ${k.depth}, ${Math.round(k.timeBudgetMs)} ms, material ×${fmt(k.materialScale)}, mobility ${fmt(k.mobility)}`,
      },
    }),
    imitator: imitator(CHESS_SPACE, {
      summary: 'no creed of its own: copies whatever won last round, with a small twist',
      prior: {
        depth: [1, 2],
        timeBudgetMs: [10, 25],
        materialScale: [0.8, 1.2],
        mobility: [0.6, 1.4],
        pst: [0.6, 1.4],
        kingSafety: [0.6, 1.4],
        randomness: [0.3, 0.6],
      },
      learnRule:
        'copy the params of the top-scoring strategy of the previous round, mutate slightly; if it was top itself, one ply deeper',
    }),
  },
  botFiles: ['start_ai.sh', 'bot.mjs', 'bot-http.mjs', 'engine.mjs', 'chess-core.mjs', 'chess-requests.mjs'],
  fromParams: chessKnobsFromParams,
  params: (k, seed) => ({
    depth: k.depth,
    timeBudgetMs: k.timeBudgetMs,
    materialScale: +fmt(k.materialScale),
    mobility: +fmt(k.mobility),
    pst: +fmt(k.pst),
    kingSafety: +fmt(k.kingSafety),
    randomness: +fmt(k.randomness),
    seed,
  }),
  about:
    "The bot is the reference heuristic chess bot (material + piece-square tables + mobility, alpha-beta with iterative deepening); only params.json differs. materialScale multiplies the piece values; mobility, pst and kingSafety weigh their terms (1 = the bot's defaults); randomness × 100 cp of noise on the root moves.",
};
