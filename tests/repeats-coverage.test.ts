// Do the combined intervals over repeats (reports/metrics/repeats.ts) cover the agents' true mean
// metric about 95% of the time, when every development draws the bot's strength anew? Simulated
// studies (tests/helpers/coverage-sims.ts on tests/helpers/simulated-field.ts): agents whose
// strategies' Elo is drawn around a known mean with a known per-agent SD in every repeat; games
// from the Davidson model of the drawn strengths. The truth is the metric's mean over developments
// (Monte Carlo over 4000 developed fields of expected scores). The single-run intervals (one
// repeat's smoothed bootstrap, which covers the games' luck only) are checked against the same
// truth for comparison.
// 50 studies per K (200 checks per metric), seeded; these seeds measure: K = 2 combined 1/1/1,
// K = 4 0.995/0.965/0.995, K = 8 0.97/0.95/0.98; single run S 0.68–0.735, L 0.565–0.61. Over 200
// checks a true 95% lands in [0.895, 0.99] with probability 99.8% (binomialBand); intervals that
// cover the games' luck only (the single-run ones, 0.57–0.74) are far below.
// `npm run bench -- coverage` runs the 150 studies per K of docs/metrics.md's table.
import { describe, expect, it } from 'vitest';
import { coverageOverRepeats, DEVELOPING, KEYS, trueMeans } from './helpers/coverage-sims.ts';

/** Studies per K (the bench: 150). */
const STUDIES = 50;

describe('combined intervals over repeats cover the true mean metric (development and game variance)', () => {
  const truth = trueMeans(DEVELOPING);
  for (const K of [2, 4, 8]) {
    it(`K = ${K} repeats: 95% combined intervals of S, L, C cover the true mean at least 93% of the time (at most 99% from K = 8); single-run intervals far less`, () => {
      const c = coverageOverRepeats(DEVELOPING, K, STUDIES, truth);
      const f = (r: Record<string, number>) => KEYS.map((k) => `${k} ${r[k]!.toFixed(3)}`).join(' ');
      console.log(
        `repeats coverage K=${K}: combined ${f(c.combined)} (S width ${c.width.combined.toFixed(3)}); single run ${f(c.single)} (S width ${c.width.single.toFixed(3)})`,
      );
      for (const k of KEYS) {
        expect(c.combined[k]).toBeGreaterThan(0.93);
        // Two repeats bound development's variance poorly (Student's t with 1 df): the intervals
        // are wide and over-cover; from 8 they are near the nominal 95%.
        if (K >= 8) expect(c.combined[k]).toBeLessThan(0.99);
      }
      expect(c.single.S).toBeLessThan(0.8);
      expect(c.single.L).toBeLessThan(0.7);
    });
  }
});
