// The offline characters playing chess: a prior over the heuristic chess bot's knobs
// (games/chess/bots/heuristic/params.json) for round 1, and learning rules for round ≥ 2 that read
// the previous round's standings and the other agents' parameters, as for Gomoku.
//
// Time matters more here than in Gomoku: a chess game is up to 200 plies, so every offline chess
// bot thinks 20–60 ms per move at depth ≤ 3 and a default tournament stays fast.
import type { Rng } from '../../games/core/rng.ts';
import { beatersOf, clamp, fmt, noise, rivalsOf, type Character, type FieldEntry, type Prior } from './characters.ts';

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
export const CHESS_KNOB_NAMES = ['depth', 'timeBudgetMs', 'materialScale', 'mobility', 'pst', 'kingSafety', 'randomness'] as const;

/** Hard limits for every offline chess bot (the bot itself accepts depth 1–5, 20–9000 ms). */
export const CHESS_LIMITS: Record<keyof ChessKnobs, readonly [number, number]> = {
  depth: [1, 3],
  timeBudgetMs: [20, 60],
  materialScale: [0.5, 2],
  mobility: [0, 3],
  pst: [0, 3],
  kingSafety: [0, 3],
  randomness: [0, 1],
};

/** The bot's own defaults (bot.mjs DEFAULTS), for params.json files that leave knobs out. */
export const CHESS_BOT_DEFAULTS: ChessKnobs = { depth: 3, timeBudgetMs: 300, materialScale: 1, mobility: 1, pst: 1, kingSafety: 1, randomness: 0 };

export function clampChess(k: ChessKnobs): ChessKnobs {
  const out = { ...k };
  for (const name of CHESS_KNOB_NAMES) out[name] = clamp(Number.isFinite(k[name]) ? k[name] : CHESS_BOT_DEFAULTS[name], CHESS_LIMITS[name]);
  out.depth = Math.round(out.depth);
  out.timeBudgetMs = Math.round(out.timeBudgetMs);
  if (out.randomness < 0.02) out.randomness = 0; // below 2 cp of noise: switch it off
  return out;
}

export function drawChess(prior: Prior<ChessKnobs>, rng: Rng): ChessKnobs {
  const k = {} as ChessKnobs;
  for (const name of CHESS_KNOB_NAMES) {
    const [lo, hi] = prior[name];
    k[name] = name === 'depth' ? rng.int(lo, hi) : lo + (hi - lo) * rng.float();
  }
  return clampChess(k);
}

/** Moves `from` a fraction t toward `to` (linear; depth rounds toward the target). */
export function blendChess(from: ChessKnobs, to: ChessKnobs, t: number): ChessKnobs {
  const out = { ...from };
  for (const name of CHESS_KNOB_NAMES) {
    const a = from[name], b = to[name];
    let v = a + (b - a) * t;
    if (name === 'depth') v = b > a ? Math.ceil(v - 1e-9) : Math.floor(v + 1e-9);
    out[name] = v;
  }
  return clampChess(out);
}

/** A small random step around k: the weights and the budget, relatively. */
export function mutateChess(k: ChessKnobs, rng: Rng, scale = 0.1): ChessKnobs {
  const out = { ...k };
  for (const name of ['materialScale', 'mobility', 'pst', 'kingSafety', 'timeBudgetMs'] as const) out[name] *= 1 + scale * noise(rng);
  return clampChess(out);
}

export function settleChess(k: ChessKnobs, notes: string[]): ChessKnobs {
  if (k.randomness === 0) return k;
  const randomness = k.randomness / 2;
  notes.push(`halved move noise (randomness ${fmt(k.randomness)} → ${fmt(randomness)}): the report gives evidence, so exploration matters less`);
  return clampChess({ ...k, randomness });
}

/** Search more: one ply deeper, or more time once at the depth limit. */
export function exploreChess(k: ChessKnobs): { knobs: ChessKnobs; note: string } {
  if (k.depth < CHESS_LIMITS.depth[1]) return { knobs: { ...k, depth: k.depth + 1 }, note: `one ply deeper (depth ${k.depth} → ${k.depth + 1})` };
  if (k.timeBudgetMs < CHESS_LIMITS.timeBudgetMs[1]) {
    const t = Math.min(CHESS_LIMITS.timeBudgetMs[1], k.timeBudgetMs + 10);
    return { knobs: { ...k, timeBudgetMs: t }, note: `more time per move (${k.timeBudgetMs} → ${t} ms)` };
  }
  return { knobs: k, note: 'already at full depth and time: small mutation only' };
}

const describe = (e: FieldEntry<ChessKnobs>) =>
  `${e.id} (score ${fmt(e.score)}, depth ${e.knobs.depth}, ${e.knobs.timeBudgetMs} ms, material ×${fmt(e.knobs.materialScale)}, mobility ${fmt(e.knobs.mobility)}, pst ${fmt(e.knobs.pst)})`;

// ---- the characters --------------------------------------------------------------------------

const cautious: Character<ChessKnobs> = {
  name: 'cautious',
  summary: 'material first: counts pieces before activity, guards its king, searches deeper and takes its time',
  prior: {
    depth: [2, 2], timeBudgetMs: [40, 60], materialScale: [1.2, 1.6], mobility: [0.2, 0.6],
    pst: [0.6, 1], kingSafety: [1.2, 2], randomness: [0.15, 0.35],
  },
  learnRule: 'hill-climb: if beaten, move halfway toward the top rival (never shallower); if unbeaten, one ply deeper (more time at depth 3); materialScale ≥ mobility',
  learn(input) {
    const notes: string[] = [];
    const beaters = beatersOf(input);
    const best = rivalsOf(input)[0];
    let k = input.own;
    if (beaters.length && best) {
      notes.push(`beaten by ${beaters.map((e) => `${e.id} (scored ${fmt(e.vsMe!.score)} against me)`).join(', ')}`);
      notes.push(`moving halfway toward the best-scoring rival ${describe(best)}`);
      const moved = blendChess(k, best.knobs, 0.5);
      k = { ...moved, depth: Math.max(k.depth, moved.depth) };
    } else {
      const step = exploreChess(mutateChess(k, input.rng, 0.05));
      notes.push(`unbeaten${best ? ` (best rival ${best.id} scored ${fmt(best.score)})` : ''}: ${step.note}, the cautious way to get stronger`);
      k = step.knobs;
    }
    return { knobs: settleChess(k, notes), notes };
  },
  shape(k) {
    // Cautious never values activity above material: at worst it weighs them equally.
    if (k.mobility <= k.materialScale) return k;
    const m = (k.mobility + k.materialScale) / 2;
    return { ...k, mobility: m, materialScale: m };
  },
};

const aggressive: Character<ChessKnobs> = {
  name: 'aggressive',
  summary: 'activity first: values mobility over material, searches shallow and fast',
  prior: {
    depth: [1, 1], timeBudgetMs: [20, 30], materialScale: [0.7, 1], mobility: [1.5, 2.5],
    pst: [1, 1.5], kingSafety: [0.2, 0.6], randomness: [0.3, 0.6],
  },
  learnRule: 'counter the field: take on the depth and budget of whoever beat it (or the top rival) and half its material weight; vs a materialist even more mobility, vs another attacker its piece placement; if on top, search deeper; mobility > materialScale',
  learn(input) {
    const notes: string[] = [];
    const beaters = beatersOf(input);
    const target = beaters[0] ?? rivalsOf(input)[0];
    let k = { ...input.own };
    if (!target || (!beaters.length && target.score <= (input.field.find((e) => e.agent === input.self)?.score ?? 0))) {
      const step = exploreChess(mutateChess(k, input.rng, 0.05));
      notes.push(`nobody beat me and I topped the field: press on, ${step.note}`);
      return { knobs: settleChess(step.knobs, notes), notes };
    }
    const why = beaters.length ? `${target.id} beat me (scored ${fmt(target.vsMe!.score)} against me)` : `${target.id} topped the standings`;
    const t = target.knobs;
    k.depth = Math.max(k.depth, t.depth);
    k.timeBudgetMs = Math.max(k.timeBudgetMs, t.timeBudgetMs);
    k.materialScale += (t.materialScale - k.materialScale) / 2;
    if (t.materialScale >= t.mobility) {
      notes.push(`${why}; it is a materialist (material ×${fmt(t.materialScale)} ≥ mobility ${fmt(t.mobility)}): search at least its depth ${t.depth}, material weight halfway to its, mobility 10% higher`);
      k.mobility *= 1.1;
    } else {
      notes.push(`${why}; it is an attacker too (mobility ${fmt(t.mobility)}): match its depth ${t.depth}, material weight, piece placement and king safety halfway to its`);
      k.pst += (t.pst - k.pst) / 2;
      k.kingSafety += (t.kingSafety - k.kingSafety) / 2;
    }
    notes.push(`now depth ${k.depth}, ${Math.round(k.timeBudgetMs)} ms, material ×${fmt(k.materialScale)}, mobility ${fmt(k.mobility)}`);
    return { knobs: settleChess(clampChess(k), notes), notes };
  },
  shape(k) {
    // Aggressive always weighs activity strictly above material.
    if (k.mobility > k.materialScale) return k;
    const top = CHESS_LIMITS.mobility[1];
    return { ...k, mobility: Math.min(top, k.materialScale * 1.1), materialScale: Math.min(k.materialScale, top / 1.1) };
  },
};

const imitator: Character<ChessKnobs> = {
  name: 'imitator',
  summary: 'no creed of its own: copies whatever won last round, with a small twist',
  prior: {
    depth: [1, 2], timeBudgetMs: [20, 50], materialScale: [0.8, 1.2], mobility: [0.6, 1.4],
    pst: [0.6, 1.4], kingSafety: [0.6, 1.4], randomness: [0.3, 0.6],
  },
  learnRule: 'copy the params of the top-scoring strategy of the previous round, mutate slightly; if it was top itself, one ply deeper',
  learn(input) {
    const notes: string[] = [];
    const top = input.field[0]!;
    let k = mutateChess(top.knobs, input.rng, 0.06);
    if (top.agent === input.self) {
      const step = exploreChess(k);
      notes.push(`I topped the standings (${describe(top)}): nobody to copy, so ${step.note}`);
      k = step.knobs;
    } else {
      notes.push(`copying the top of the standings: ${describe(top)}`);
    }
    notes.push('mutated slightly (±6% on weights and budget) so it is not a pure clone');
    return { knobs: settleChess(k, notes), notes };
  },
  shape: (k) => k,
};

export const CHESS_CHARACTERS: Record<string, Character<ChessKnobs>> = { cautious, aggressive, imitator };
