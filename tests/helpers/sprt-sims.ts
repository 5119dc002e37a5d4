// Seeded SPRT simulations (tests/sprt.test.ts; at full size in `npm run bench -- coverage`):
// game pairs of two independent games, 30% draws, A truly `elo` stronger, tested by the
// pentanomial GSPRT of reports/metrics/sprt.ts until it decides.
import { createRng } from '../../util/rng.ts';
import {
  decide,
  llrOf,
  REGULARIZATION,
  scoreOfElo,
  sprtBounds,
  type SprtDecision,
} from '../../reports/metrics/sprt.ts';

export const PENTA = [0, 0.25, 0.5, 0.75, 1];

export function simulateSprt(
  seed: number,
  elo: number,
  test: { elo0: number; elo1: number },
  maxPairs = 20_000,
): { decision: SprtDecision; pairs: number } {
  const rng = createRng(seed);
  const s = scoreOfElo(elo);
  const draw = 0.3;
  const game = () => {
    const x = rng.float();
    return x < s - draw / 2 ? 2 : x < s + draw / 2 ? 1 : 0; // half-points
  };
  const counts = [0, 0, 0, 0, 0];
  const bounds = sprtBounds({ alpha: 0.05, beta: 0.05 });
  for (let n = 1; n <= maxPairs; n++) {
    counts[game() + game()]!++;
    const decision = decide(
      llrOf({ values: PENTA, counts: counts.map((c) => c || REGULARIZATION), n }, test.elo0, test.elo1),
      bounds,
    );
    if (decision !== 'continue') return { decision, pairs: n };
  }
  return { decision: 'continue', pairs: maxPairs };
}

/** `sims` seeded tests (seeds 7000, 7001, …): the share of each decision and the mean number of pairs. */
export function sprtOutcomes(elo: number, test: { elo0: number; elo1: number }, sims: number) {
  const runs = Array.from({ length: sims }, (_, i) => simulateSprt(7_000 + i, elo, test));
  const rate = (d: SprtDecision) => runs.filter((r) => r.decision === d).length / sims;
  return {
    H0: rate('H0'),
    H1: rate('H1'),
    undecided: rate('continue'),
    meanPairs: runs.reduce((a, r) => a + r.pairs, 0) / sims,
  };
}

/** Runs per error-rate check in the suite (the bench runs 1000). */
export const ERROR_RATE_RUNS = 400;
