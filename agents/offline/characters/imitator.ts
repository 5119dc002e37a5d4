// The imitator: no creed of its own, it copies the previous round's winner with a small twist.
import { mutate, settle } from '../core/knob-ops.ts';
import type { Character, Creed } from '../core/learning.ts';
import type { Knobs, ParamSpace } from '../core/param-space.ts';

export function imitator<K extends Knobs<K>>(space: ParamSpace<K>, creed: Creed<K>): Character<K> {
  return {
    name: 'imitator',
    ...creed,
    learn(input) {
      const notes: string[] = [];
      const top = input.field[0]!;
      let k = mutate(space, top.knobs, input.rng, 0.06);
      if (top.agent === input.self) {
        // Nobody better to copy: the only way up is to search more.
        const step = space.explore(k, 'depth');
        notes.push(`I topped the standings (${space.describe(top)}): nobody to copy, so ${step.note}`);
        k = step.knobs;
      } else {
        notes.push(`copying the top of the standings: ${space.describe(top)}`);
      }
      notes.push(`mutated slightly (±6% on ${space.mutation.words}) so it is not a pure clone`);
      return { knobs: settle(space, k, notes), notes };
    },
    shape: (k) => k,
  };
}
