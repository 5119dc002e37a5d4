// Do the combined intervals over repeats (reports/metrics/repeats.ts) cover the agents' true mean
// metric about 95% of the time, when every development draws the bot's strength anew? Simulated
// studies (tests/helpers/simulated-field.ts): agents whose strategies' Elo is drawn around a known
// mean with a known per-agent SD in every repeat; games from the Davidson model of the drawn
// strengths. The truth is the metric's mean over developments (Monte Carlo over 4000 developed
// fields of expected scores). The single-run intervals (one repeat's smoothed bootstrap, which
// covers the games' luck only) are checked against the same truth for comparison.
import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed } from '../util/rng.ts';
import { bootstrapWithDraws } from '../reports/metrics/bootstrap.ts';
import { computeAll } from '../reports/metrics/metrics.ts';
import { combineRepeats, type RepeatTrackSample } from '../reports/metrics/repeats.ts';
import { developField, simulateTourney, trueMatrix, type DevelopingField } from './helpers/simulated-field.ts';

const KEYS = ['S', 'L', 'C'] as const;

export const DEVELOPING: DevelopingField = {
  agents: ['a', 'b', 'c', 'd'],
  rounds: 3,
  nu: 0,
  elo: [
    [-100, -60, -80],
    [0, 50, 120],
    [60, 40, 30],
    [150, 160, 210],
  ],
  sd: [100, 150, 200, 250],
};

/** The true mean of S, L and C per agent over developments. */
export function trueMeans(field: DevelopingField, draws = 4000): Record<string, Record<(typeof KEYS)[number], number>> {
  const rng = createRng(deriveSeed('repeats-truth', field.sd.join(',')));
  const sums = Object.fromEntries(field.agents.map((a) => [a, { S: 0, L: 0, C: 0 }]));
  for (let d = 0; d < draws; d++) {
    const m = computeAll(trueMatrix(developField(field, rng))).perAgent;
    for (const a of field.agents) for (const k of KEYS) sums[a]![k] += m[a]![k]! / draws;
  }
  return sums;
}

export function coverageOverRepeats(field: DevelopingField, K: number, studies: number, truth = trueMeans(field)) {
  const hits = { combined: { S: 0, L: 0, C: 0 }, single: { S: 0, L: 0, C: 0 } };
  const width = { combined: 0, single: 0 };
  for (let t = 0; t < studies; t++) {
    const rng = createRng(deriveSeed('repeats-coverage', K, t));
    const repeats: RepeatTrackSample[] = [];
    let single: ReturnType<typeof bootstrapWithDraws>['result'] | undefined;
    for (let r = 0; r < K; r++) {
      const games = simulateTourney(developField(field, rng), 1, rng);
      const b = bootstrapWithDraws(field.agents, field.rounds, games, { samples: 200, seed: t * 100 + r });
      single ??= b.result;
      const p = (k: 'S' | 'L' | 'C') => field.agents.map((a) => b.result.perAgent[a]![k].point);
      repeats.push({
        point: {
          S: p('S'),
          L: p('L'),
          C: p('C'),
          SI: field.agents.map(() => null),
          G: field.agents.map((a) => b.result.perAgent[a]!.G.map((g) => g.point)),
        },
        draws: b.draws,
      });
    }
    const c = combineRepeats(field.agents, field.rounds, repeats, { samples: 400, seed: t }).result;
    for (const a of field.agents) {
      for (const k of KEYS) {
        const v = truth[a]![k];
        const ci = c.perAgent[a]![k];
        const si = single!.perAgent[a]![k];
        if (ci.lo! <= v && v <= ci.hi!) hits.combined[k]++;
        if (si.lo! <= v && v <= si.hi!) hits.single[k]++;
        if (k === 'S') {
          width.combined += (ci.hi! - ci.lo!) / (studies * field.agents.length);
          width.single += (si.hi! - si.lo!) / (studies * field.agents.length);
        }
      }
    }
  }
  const n = studies * field.agents.length;
  const share = (h: Record<string, number>) =>
    Object.fromEntries(KEYS.map((k) => [k, h[k]! / n])) as Record<(typeof KEYS)[number], number>;
  return { combined: share(hits.combined), single: share(hits.single), width };
}

describe('combined intervals over repeats cover the true mean metric (development and game variance)', () => {
  const truth = trueMeans(DEVELOPING);
  for (const K of [2, 4, 8]) {
    it(`K = ${K} repeats: 95% combined intervals of S, L, C cover the true mean at least 93% of the time (at most 99% from K = 8); single-run intervals far less`, () => {
      const c = coverageOverRepeats(DEVELOPING, K, 150, truth);
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
