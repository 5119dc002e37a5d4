// Arithmetic on a game's knobs, driven by its ParamSpace: clamping, drawing from a prior,
// blending toward a rival, random steps and settling. The same for every game.
import type { Rng } from '../../../util/rng.ts';
import type { Knobs, KnobName, ParamSpace, Prior, Range } from './param-space.ts';

export const clamp = (v: number, [lo, hi]: Range) => Math.min(hi, Math.max(lo, v));
/** Triangular noise in [-1, 1]: mutations are mostly small. */
export const noise = (rng: Rng) => rng.float() + rng.float() - 1;
export const fmt = (v: number) => String(Math.round(v * 100) / 100);

/** A copy of k whose knobs can be written by name. */
const writable = <K extends Knobs<K>>(k: K) => ({ ...k }) as Record<KnobName<K>, number>;

/** Writes one knob by name: every knob is a number, which TypeScript cannot see through a generic key. */
export function setKnob<K extends Knobs<K>>(k: K, name: KnobName<K>, v: number): void {
  (k as Record<KnobName<K>, number>)[name] = v;
}

/** Into the limits; counts and milliseconds are whole numbers. */
export function clampKnobs<K extends Knobs<K>>(space: ParamSpace<K>, k: K): K {
  const out = writable(k);
  for (const name of space.names) out[name] = clamp(k[name], space.limits[name]);
  for (const name of space.counts) out[name] = Math.round(out[name]);
  out.timeBudgetMs = Math.round(out.timeBudgetMs);
  if (out.randomness < 0.02) out.randomness = 0; // too little noise to matter: switch it off
  return out as K;
}

export function drawFromPrior<K extends Knobs<K>>(space: ParamSpace<K>, prior: Prior<K>, rng: Rng): K {
  const k = {} as Record<KnobName<K>, number>;
  for (const name of space.names) {
    const [lo, hi] = prior[name];
    k[name] = space.counts.includes(name) ? rng.int(lo, hi) : lo + (hi - lo) * rng.float();
  }
  return clampKnobs(space, k as K);
}

/** One knob a fraction t of the way from a to b (unrounded). */
export function toward<K extends Knobs<K>>(
  space: ParamSpace<K>,
  name: KnobName<K>,
  a: number,
  b: number,
  t: number,
): number {
  return space.geometric.includes(name) ? a * (b / a) ** t : a + (b - a) * t;
}

/** Moves `from` a fraction t toward `to`. Counts round toward the target so a half step still moves. */
export function blend<K extends Knobs<K>>(space: ParamSpace<K>, from: K, to: K, t: number): K {
  const out = writable(from);
  for (const name of space.names) {
    const a = from[name],
      b = to[name];
    let v = toward(space, name, a, b, t);
    if (space.counts.includes(name)) v = b > a ? Math.ceil(v - 1e-9) : Math.floor(v + 1e-9);
    out[name] = v;
  }
  return clampKnobs(space, out as K);
}

/** A small random step around k (scale ≈ relative size of the step). */
export function mutate<K extends Knobs<K>>(space: ParamSpace<K>, k: K, rng: Rng, scale = 0.1): K {
  const out = writable(k);
  for (const name of space.mutation.jitter) out[name] *= 1 + scale * noise(rng);
  const { nudge } = space.mutation;
  if (nudge && rng.float() < scale * 3) out[nudge] += rng.int(0, 1) ? 1 : -1;
  return clampKnobs(space, out as K);
}

/** After a round there is evidence to act on, so exploration noise is halved. */
export function settle<K extends Knobs<K>>(space: ParamSpace<K>, k: K, notes: string[]): K {
  if (k.randomness === 0) return k;
  const randomness = k.randomness / 2;
  notes.push(
    `halved move noise (randomness ${fmt(k.randomness)} → ${fmt(randomness)}): the report gives evidence, so exploration matters less`,
  );
  return clampKnobs(space, { ...k, randomness });
}
