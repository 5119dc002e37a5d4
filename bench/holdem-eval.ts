// Hold'em hand-evaluator speed: evaluate7 calls per second on random seeded 7-card hands, for the
// standard deck (phe, wrapped) and the 36-card short deck (our 21-subset enumeration). The hands are
// dealt before timing; each call includes card validation.
import { createRng } from '../util/rng.ts';
import { deck, type HoldemVariant } from '../games/holdem/cards.ts';
import { evaluate7 } from '../games/holdem/evaluator.ts';

export async function benchHoldemEval(hands = 200_000) {
  const rows = (['standard', 'variant'] as HoldemVariant[]).map((variant) => {
    const rng = createRng(12345);
    const full = deck(variant);
    const dealt = Array.from({ length: hands }, () => rng.shuffle(full).slice(0, 7));
    let checksum = 0;
    for (let i = 0; i < Math.min(20_000, hands); i++) checksum += evaluate7(dealt[i]!, variant).value; // warm up the JIT
    const t0 = performance.now();
    for (const cards of dealt) checksum += evaluate7(cards, variant).value;
    const seconds = (performance.now() - t0) / 1000;
    return {
      deck: variant === 'variant' ? 'short deck (36)' : 'standard (52)',
      hands,
      seconds: +seconds.toFixed(3),
      evalsPerSecond: Math.round(hands / seconds),
      checksum,
    };
  });
  console.log("Hold'em evaluate7 on random 7-card hands");
  console.table(rows.map(({ checksum: _c, ...r }) => r));
  return rows.map(({ checksum: _c, ...r }) => r);
}

// Run directly: node --import tsx bench/holdem-eval.ts
if (import.meta.url === `file://${process.argv[1]}`) await benchHoldemEval();
