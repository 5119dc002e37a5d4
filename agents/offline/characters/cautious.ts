// The cautious character: a hill-climber that keeps its guard up (its safe weight never below its
// bold one) and gets stronger by searching more, never less.
import { blend, fmt, mutate, settle } from '../core/knob-ops.ts';
import { beatersOf, rivalsOf, type Character, type Creed } from '../core/learning.ts';
import type { Knobs, ParamSpace } from '../core/param-space.ts';

export function cautious<K extends Knobs<K>>(space: ParamSpace<K>, creed: Creed<K>): Character<K> {
  const { bold, safe } = space.style;
  return {
    name: 'cautious',
    ...creed,
    learn(input) {
      const notes: string[] = [];
      const beaters = beatersOf(input);
      const best = rivalsOf(input)[0];
      let k = input.own;
      if (beaters.length && best) {
        notes.push(`beaten by ${beaters.map((e) => `${e.id} (scored ${fmt(e.vsMe!.score)} against me)`).join(', ')}`);
        notes.push(`moving halfway toward the best-scoring rival ${space.describe(best)}`);
        // Depth is the cautious player's safety: it follows a deeper winner, never a shallower one.
        const moved = blend(space, k, best.knobs, 0.5);
        k = { ...moved, depth: Math.max(k.depth, moved.depth) };
      } else {
        const step = space.explore(mutate(space, k, input.rng, 0.05), 'depth');
        notes.push(
          `unbeaten${best ? ` (best rival ${best.id} scored ${fmt(best.score)})` : ''}: ${step.note}, the cautious way to get stronger`,
        );
        k = step.knobs;
      }
      return { knobs: settle(space, k, notes), notes };
    },
    shape(k) {
      // Cautious never weighs its bold side above its safe side: at worst it weighs them equally.
      if (k[bold] <= k[safe]) return k;
      const m = (k[bold] + k[safe]) / 2;
      return { ...k, [bold]: m, [safe]: m };
    },
  };
}
