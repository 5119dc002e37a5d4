// The aggressive character: leads with its bold weight (always strictly above its safe one) and
// answers whoever beat it by out-searching it and countering its style.
import { clampKnobs, fmt, mutate, setKnob, settle, toward } from '../core/knob-ops.ts';
import { beatersOf, rivalsOf, type Character, type Creed } from '../core/learning.ts';
import type { Knobs, KnobName, ParamSpace } from '../core/param-space.ts';

/** One way of answering a target, beyond the moves every answer makes. */
export interface Answer<K> {
  /** What this answer does and why, after "<target> beat me; " (in the notes). */
  note(target: K): string;
  /** Knobs to move halfway toward the target's. */
  halfway?: readonly KnobName<K>[];
  /** A count to set above the target's (e.g. a wider search that sees its threats). */
  outdo?: { knob: KnobName<K>; by: number };
}

/** How the aggressive character counters in one game. */
export interface Counter<K> {
  /** Knobs moved halfway toward any target's: taking on half its balance. */
  halfway: readonly KnobName<K>[];
  /** Against a target whose safe weight is at least its bold one; the bold weight also grows 10%. */
  vsCautious: Answer<K>;
  /** Against a target that leads with its bold weight too. */
  vsBold: Answer<K>;
  /** The resulting search, in a few words (in the notes). */
  progress(k: K): string;
}

export function aggressive<K extends Knobs<K>>(
  space: ParamSpace<K>,
  creed: Creed<K> & { counter: Counter<K> },
): Character<K> {
  const { bold, safe } = space.style;
  const { counter, ...words } = creed;
  return {
    name: 'aggressive',
    ...words,
    learn(input) {
      const notes: string[] = [];
      const beaters = beatersOf(input);
      const target = beaters[0] ?? rivalsOf(input)[0];
      const myScore = input.field.find((e) => e.agent === input.self)?.score ?? 0;
      if (!target || (!beaters.length && target.score <= myScore)) {
        const step = space.explore(mutate(space, input.own, input.rng, 0.05), 'width');
        notes.push(`nobody beat me and I topped the field: press on, ${step.note}`);
        return { knobs: settle(space, step.knobs, notes), notes };
      }
      const why = beaters.length
        ? `${target.id} beat me (scored ${fmt(target.vsMe!.score)} against me)`
        : `${target.id} topped the standings`;
      const t = target.knobs;
      const k = { ...input.own };
      const halfway = (names: readonly KnobName<K>[]) => {
        for (const name of names) setKnob(k, name, toward(space, name, k[name], t[name], 0.5));
      };
      // Out-calculate the target: at least its depth and budget; take half its balance.
      k.depth = Math.max(k.depth, t.depth);
      k.timeBudgetMs = Math.max(k.timeBudgetMs, t.timeBudgetMs);
      halfway(counter.halfway);
      const answer = t[safe] >= t[bold] ? counter.vsCautious : counter.vsBold;
      notes.push(`${why}; ${answer.note(t)}`);
      // Against a defender, attack harder: its blocks must fall behind.
      if (answer === counter.vsCautious) setKnob(k, bold, k[bold] * 1.1);
      halfway(answer.halfway ?? []);
      if (answer.outdo) {
        const { knob, by } = answer.outdo;
        setKnob(k, knob, Math.max(k[knob], t[knob] + by));
      }
      notes.push(counter.progress(k));
      return { knobs: settle(space, clampKnobs(space, k), notes), notes };
    },
    shape(k) {
      // Aggressive always weighs its bold side strictly above its safe side.
      if (k[bold] > k[safe]) return k;
      const top = space.limits[bold][1];
      return { ...k, [bold]: Math.min(top, k[safe] * 1.1), [safe]: Math.min(k[safe], top / 1.1) };
    },
  };
}
