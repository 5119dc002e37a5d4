// Gomoku for the offline agents: the three characters' priors and words, and the reference
// heuristic bot's params.json (window weights from one growth ratio).
import { aggressive, cautious, imitator } from '../../../agents/offline/characters/index.ts';
import type { GameKit } from '../../../agents/offline/core/game-kit.ts';
import { clampKnobs, fmt } from '../../../agents/offline/core/knob-ops.ts';
import { GOMOKU_SPACE, type GomokuKnobs } from './knobs.ts';

/** The bot's own defaults (bot.mjs DEFAULTS), for params.json files that leave knobs out. */
const BOT_DEFAULTS: GomokuKnobs = {
  attack: 1,
  defense: 1,
  depth: 4,
  candidates: 12,
  timeBudgetMs: 1500,
  centerBias: 0.1,
  randomness: 0,
  ratio: 10,
};

/** Window weights from one growth ratio; ratio 10 gives the engine's defaults. */
export function weightsFor(r: number): { standard: number[]; variant: number[] } {
  const round = (v: number) => Math.round(v * 100) / 100;
  return { standard: [0, 1, r, r * r, r ** 3, 100000].map(round), variant: [0, 3, 4 * r, 20 * r * r].map(round) };
}

/** Knobs from any params.json object; the ratio is read back from the standard weights. */
export function gomokuKnobsFromParams(raw: unknown): GomokuKnobs | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const obj = raw as Record<string, unknown>;
  const k = { ...BOT_DEFAULTS };
  for (const name of GOMOKU_SPACE.names) {
    const v = Number(obj[name]);
    if (name !== 'ratio' && obj[name] !== undefined && Number.isFinite(v)) k[name] = v;
  }
  const w = (obj.weights as { standard?: unknown } | undefined)?.standard;
  if (Array.isArray(w) && w.length === 6 && w.every(Number.isFinite) && w[1] > 0 && w[4] > 0)
    k.ratio = Math.cbrt(w[4] / w[1]);
  return clampKnobs(GOMOKU_SPACE, k);
}

export const offlineKit: GameKit<GomokuKnobs> = {
  space: GOMOKU_SPACE,
  characters: {
    cautious: cautious(GOMOKU_SPACE, {
      summary: 'defence first: blocks early, searches deeper and narrower, takes its time',
      prior: {
        attack: [0.6, 0.9],
        defense: [1.2, 1.6],
        depth: [2, 2],
        candidates: [4, 6],
        timeBudgetMs: [80, 120],
        centerBias: [0.2, 0.6],
        randomness: [0.15, 0.35],
        ratio: [4, 7],
      },
      learnRule:
        'hill-climb: if beaten, move halfway toward the top rival; if unbeaten, one ply deeper (wider once at depth 4); defense ≥ attack',
    }),
    aggressive: aggressive(GOMOKU_SPACE, {
      summary: 'attack first: races its own shapes, searches wide and fast',
      prior: {
        attack: [1.3, 1.7],
        defense: [0.6, 0.9],
        depth: [1, 2],
        candidates: [8, 12],
        timeBudgetMs: [50, 70],
        centerBias: [0, 0.2],
        randomness: [0.3, 0.6],
        ratio: [12, 18],
      },
      learnRule:
        'counter the field: take on the depth, width and budget of whoever beat it (or the top rival); vs a defender attack harder, vs a racer widen and defend more; if on top, widen; attack > defense',
      counter: {
        halfway: ['ratio', 'defense'],
        vsCautious: {
          note: (t) =>
            `it is defensive (defense ${fmt(t.defense)} ≥ attack ${fmt(t.attack)}): search at least its depth ${t.depth} and one wider than its ${t.candidates} candidates, attack 10% harder, defence weight halfway to its ${fmt(t.defense)}`,
          outdo: { knob: 'candidates', by: 1 },
        },
        vsBold: {
          note: (t) =>
            `it is a racer too (attack ${fmt(t.attack)}): match its depth ${t.depth}, two wider than its ${t.candidates} candidates to see its threats, defence weight halfway to its ${fmt(t.defense)}`,
          outdo: { knob: 'candidates', by: 2 },
        },
        progress: (k) =>
          `now depth ${k.depth}, ${Math.round(k.candidates)} candidates, ${Math.round(k.timeBudgetMs)} ms`,
      },
    }),
    imitator: imitator(GOMOKU_SPACE, {
      summary: 'no creed of its own: copies whatever won last round, with a small twist',
      prior: {
        attack: [0.8, 1.2],
        defense: [0.8, 1.2],
        depth: [1, 2],
        candidates: [5, 9],
        timeBudgetMs: [50, 100],
        centerBias: [0, 0.4],
        randomness: [0.3, 0.6],
        ratio: [5, 15],
      },
      learnRule:
        'copy the params of the top-scoring strategy of the previous round, mutate slightly; if it was top itself, one ply deeper',
    }),
  },
  botFiles: ['start_ai.sh', 'bot.mjs', 'bot-http.mjs', 'engine.mjs'],
  fromParams: gomokuKnobsFromParams,
  params: (k, seed) => ({
    attack: +fmt(k.attack),
    defense: +fmt(k.defense),
    depth: k.depth,
    candidates: k.candidates,
    timeBudgetMs: k.timeBudgetMs,
    centerBias: +fmt(k.centerBias),
    randomness: +fmt(k.randomness),
    seed,
    weights: weightsFor(k.ratio),
  }),
  about: `The bot is the reference heuristic bot (threat windows + alpha-beta); only params.json differs. ratio = weight growth per stone in a window (10 = the engine's default weights).`,
};
