// Offline characters: a prior over the heuristic Gomoku bot's knobs (round 1) plus a learning rule
// (round ≥ 2) that reads the previous round's standings and the other agents' parameters.
// No LLM: these are the reference agents that let a tournament run anywhere. The same characters
// play chess with their own knobs, priors and rules in chess-characters.ts; the types below are
// generic over the knob set (default: Gomoku's).
import type { Rng } from '../../games/core/rng.ts';
import type { HeadToHead } from '../../orchestrator/tourney/types.ts';

/** What an offline agent tunes. `ratio` is the growth of the window weights per extra stone. */
export interface Knobs {
  attack: number;
  defense: number;
  depth: number;
  candidates: number;
  timeBudgetMs: number;
  centerBias: number;
  randomness: number;
  ratio: number;
}
export const KNOB_NAMES = ['attack', 'defense', 'depth', 'candidates', 'timeBudgetMs', 'centerBias', 'randomness', 'ratio'] as const;

/**
 * Hard limits for every offline bot. timeBudgetMs: the bot clamps below 50, and the default
 * 4-round tournament must finish in minutes on 2 cores; depth > 4 would not fit that budget.
 */
export const LIMITS: Record<keyof Knobs, readonly [number, number]> = {
  attack: [0.2, 3],
  defense: [0.2, 3],
  depth: [1, 4],
  candidates: [3, 16],
  timeBudgetMs: [50, 120],
  centerBias: [0, 2],
  randomness: [0, 1],
  ratio: [3, 25],
};

export type Prior<K = Knobs> = Record<keyof K, readonly [number, number]>;

/** One previous-round strategy whose params.json could be read, best score first in a field. */
export interface FieldEntry<K = Knobs> {
  agent: string;
  id: string;
  score: number;
  knobs: K;
  /** This strategy's record against the learner's previous strategy, if they met. */
  vsMe?: HeadToHead;
}

export interface LearnInput<K = Knobs> {
  self: string;
  own: K;
  /** Previous-round strategies with readable params, sorted best score first (self included). */
  field: FieldEntry<K>[];
  rng: Rng;
}

export interface LearnResult<K = Knobs> {
  knobs: K;
  /** Plain-words reasons, copied into the log and NOTES.md. */
  notes: string[];
}

export interface Character<K = Knobs> {
  name: string;
  summary: string;
  prior: Prior<K>;
  learnRule: string;
  learn(input: LearnInput<K>): LearnResult<K>;
  /** The character's invariant (e.g. defense ≥ attack), applied after every change. */
  shape(k: K): K;
}

// ---- helpers shared by the rules -------------------------------------------------------------

export const clamp = (v: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, v));
/** Triangular noise in [-1, 1]: mutations are mostly small. */
export const noise = (rng: Rng) => rng.float() + rng.float() - 1;
export const fmt = (v: number) => String(Math.round(v * 100) / 100);

export function clampKnobs(k: Knobs): Knobs {
  const out = { ...k };
  for (const name of KNOB_NAMES) out[name] = clamp(k[name], LIMITS[name]);
  out.depth = Math.round(out.depth);
  out.candidates = Math.round(out.candidates);
  out.timeBudgetMs = Math.round(out.timeBudgetMs);
  if (out.randomness < 0.02) out.randomness = 0; // below one point of noise: switch it off
  return out;
}

export function drawFromPrior(prior: Prior, rng: Rng): Knobs {
  const k = {} as Knobs;
  for (const name of KNOB_NAMES) {
    const [lo, hi] = prior[name];
    k[name] = name === 'depth' || name === 'candidates' ? rng.int(lo, hi) : lo + (hi - lo) * rng.float();
  }
  return clampKnobs(k);
}

/**
 * Moves `from` a fraction t toward `to`. Integers round toward the target so a half step still
 * moves; ratio, attack and defense blend geometrically (they act multiplicatively).
 */
export function blend(from: Knobs, to: Knobs, t: number): Knobs {
  const out = { ...from };
  for (const name of KNOB_NAMES) {
    const a = from[name], b = to[name];
    let v = name === 'ratio' || name === 'attack' || name === 'defense' ? a * (b / a) ** t : a + (b - a) * t;
    if (name === 'depth' || name === 'candidates') v = b > a ? Math.ceil(v - 1e-9) : Math.floor(v + 1e-9);
    out[name] = v;
  }
  return clampKnobs(out);
}

/** A small random step around k (scale ≈ relative size of the step). */
export function mutate(k: Knobs, rng: Rng, scale = 0.1): Knobs {
  const out = { ...k };
  for (const name of ['attack', 'defense', 'ratio', 'centerBias', 'timeBudgetMs'] as const) out[name] *= 1 + scale * noise(rng);
  if (rng.float() < scale * 3) out.candidates += rng.int(0, 1) ? 1 : -1;
  return clampKnobs(out);
}

/** After a round there is evidence to act on, so exploration noise is halved. */
export function settle(k: Knobs, notes: string[]): Knobs {
  if (k.randomness === 0) return k;
  const randomness = k.randomness / 2;
  notes.push(`halved move noise (randomness ${fmt(k.randomness)} → ${fmt(randomness)}): the report gives evidence, so exploration matters less`);
  return clampKnobs({ ...k, randomness });
}

/**
 * The exploration step of a strategy nobody beat: search more, in the character's preferred
 * direction first (deeper or wider), the other one once that is at its limit.
 */
export function explore(k: Knobs, prefer: 'depth' | 'width'): { knobs: Knobs; note: string } {
  const deeper = k.depth < LIMITS.depth[1], wider = k.candidates < LIMITS.candidates[1];
  if (deeper && (prefer === 'depth' || !wider || k.candidates >= 12)) {
    return { knobs: { ...k, depth: k.depth + 1 }, note: `one ply deeper (depth ${k.depth} → ${k.depth + 1})` };
  }
  if (wider) {
    const c = Math.min(LIMITS.candidates[1], k.candidates + 2);
    return { knobs: { ...k, candidates: c }, note: `wider search (${k.candidates} → ${c} candidates)` };
  }
  return { knobs: k, note: 'already at full depth and width: small mutation only' };
}

const describe = (e: FieldEntry) => `${e.id} (score ${fmt(e.score)}, depth ${e.knobs.depth}, ${e.knobs.candidates} candidates, attack ${fmt(e.knobs.attack)}, defense ${fmt(e.knobs.defense)})`;
export const rivalsOf = <K>(input: LearnInput<K>) => input.field.filter((e) => e.agent !== input.self);
/** Rivals that scored more than half against me, best first. */
export const beatersOf = <K>(input: LearnInput<K>) =>
  rivalsOf(input).filter((e) => e.vsMe && e.vsMe.games > 0 && e.vsMe.score > 0.5).sort((a, b) => b.vsMe!.score - a.vsMe!.score);

// ---- the characters --------------------------------------------------------------------------

const cautious: Character = {
  name: 'cautious',
  summary: 'defence first: blocks early, searches deeper and narrower, takes its time',
  prior: {
    attack: [0.6, 0.9], defense: [1.2, 1.6], depth: [2, 2], candidates: [4, 6],
    timeBudgetMs: [80, 120], centerBias: [0.2, 0.6], randomness: [0.15, 0.35], ratio: [4, 7],
  },
  learnRule: 'hill-climb: if beaten, move halfway toward the top rival; if unbeaten, one ply deeper (wider once at depth 4); defense ≥ attack',
  learn(input) {
    const notes: string[] = [];
    const beaters = beatersOf(input);
    const best = rivalsOf(input)[0];
    let k = input.own;
    if (beaters.length && best) {
      notes.push(`beaten by ${beaters.map((e) => `${e.id} (scored ${fmt(e.vsMe!.score)} against me)`).join(', ')}`);
      notes.push(`moving halfway toward the best-scoring rival ${describe(best)}`);
      // Depth is the cautious player's safety: it follows a deeper winner, never a shallower one.
      const moved = blend(k, best.knobs, 0.5);
      k = { ...moved, depth: Math.max(k.depth, moved.depth) };
    } else {
      const step = explore(mutate(k, input.rng, 0.05), 'depth');
      notes.push(`unbeaten${best ? ` (best rival ${best.id} scored ${fmt(best.score)})` : ''}: ${step.note}, the cautious way to get stronger`);
      k = step.knobs;
    }
    return { knobs: settle(k, notes), notes };
  },
  shape(k) {
    // Cautious never values its own shapes above the opponent's: at worst it makes them equal.
    if (k.attack <= k.defense) return k;
    const m = (k.attack + k.defense) / 2;
    return { ...k, attack: m, defense: m };
  },
};

const aggressive: Character = {
  name: 'aggressive',
  summary: 'attack first: races its own shapes, searches wide and fast',
  prior: {
    attack: [1.3, 1.7], defense: [0.6, 0.9], depth: [1, 2], candidates: [8, 12],
    timeBudgetMs: [50, 70], centerBias: [0, 0.2], randomness: [0.3, 0.6], ratio: [12, 18],
  },
  learnRule: 'counter the field: take on the depth, width and budget of whoever beat it (or the top rival); vs a defender attack harder, vs a racer widen and defend more; if on top, widen; attack > defense',
  learn(input) {
    const notes: string[] = [];
    const beaters = beatersOf(input);
    const target = beaters[0] ?? rivalsOf(input)[0];
    let k = { ...input.own };
    if (!target || (!beaters.length && target.score <= (input.field.find((e) => e.agent === input.self)?.score ?? 0))) {
      const step = explore(mutate(k, input.rng, 0.05), 'width');
      notes.push(`nobody beat me and I topped the field: press on, ${step.note}`);
      return { knobs: settle(step.knobs, notes), notes };
    }
    const why = beaters.length ? `${target.id} beat me (scored ${fmt(target.vsMe!.score)} against me)` : `${target.id} topped the standings`;
    const t = target.knobs;
    // Out-calculate the target: at least its depth, width and budget; take half its balance.
    k.depth = Math.max(k.depth, t.depth);
    k.timeBudgetMs = Math.max(k.timeBudgetMs, t.timeBudgetMs);
    k.ratio = k.ratio * (t.ratio / k.ratio) ** 0.5;
    k.defense = k.defense * (t.defense / k.defense) ** 0.5;
    if (t.defense >= t.attack) {
      notes.push(`${why}; it is defensive (defense ${fmt(t.defense)} ≥ attack ${fmt(t.attack)}): search at least its depth ${t.depth} and one wider than its ${t.candidates} candidates, attack 10% harder, defence weight halfway to its ${fmt(t.defense)}`);
      k.attack *= 1.1;
      k.candidates = Math.max(k.candidates, t.candidates + 1);
    } else {
      notes.push(`${why}; it is a racer too (attack ${fmt(t.attack)}): match its depth ${t.depth}, two wider than its ${t.candidates} candidates to see its threats, defence weight halfway to its ${fmt(t.defense)}`);
      k.candidates = Math.max(k.candidates, t.candidates + 2);
    }
    notes.push(`now depth ${k.depth}, ${Math.round(k.candidates)} candidates, ${Math.round(k.timeBudgetMs)} ms`);
    return { knobs: settle(clampKnobs(k), notes), notes };
  },
  shape(k) {
    // Aggressive always values its own shapes strictly more than the opponent's.
    if (k.attack > k.defense) return k;
    return { ...k, attack: Math.min(LIMITS.attack[1], k.defense * 1.1), defense: Math.min(k.defense, LIMITS.attack[1] / 1.1) };
  },
};

const imitator: Character = {
  name: 'imitator',
  summary: 'no creed of its own: copies whatever won last round, with a small twist',
  prior: {
    attack: [0.8, 1.2], defense: [0.8, 1.2], depth: [1, 2], candidates: [5, 9],
    timeBudgetMs: [50, 100], centerBias: [0, 0.4], randomness: [0.3, 0.6], ratio: [5, 15],
  },
  learnRule: 'copy the params of the top-scoring strategy of the previous round, mutate slightly; if it was top itself, one ply deeper',
  learn(input) {
    const notes: string[] = [];
    const top = input.field[0]!;
    let k = mutate(top.knobs, input.rng, 0.06);
    if (top.agent === input.self) {
      // Nobody better to copy: the only way up is to search more.
      const step = explore(k, 'depth');
      notes.push(`I topped the standings (${describe(top)}): nobody to copy, so ${step.note}`);
      k = step.knobs;
    } else {
      notes.push(`copying the top of the standings: ${describe(top)}`);
    }
    notes.push('mutated slightly (±6% on weights and budget, maybe ±1 candidate) so it is not a pure clone');
    return { knobs: settle(k, notes), notes };
  },
  shape: (k) => k,
};

export const CHARACTERS: Record<string, Character> = { cautious, aggressive, imitator };
