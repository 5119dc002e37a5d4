// The coverage simulations behind tests/intervals-coverage.test.ts and tests/repeats-coverage.test.ts,
// shared with `npm run bench -- coverage` (bench/coverage.ts), which runs them at the sizes docs/metrics.md
// reports (600 checks per metric and setting); the tests run a third of that, with thresholds from
// the binomial bound below. Pure CPU, seeded.
import { createRng, deriveSeed } from '../../util/rng.ts';
import { bootstrapMetrics, bootstrapWithDraws } from '../../reports/metrics/bootstrap.ts';
import { computeAll } from '../../reports/metrics/metrics.ts';
import { ratings } from '../../reports/metrics/ratings.ts';
import { combineRepeats, type RepeatTrackSample } from '../../reports/metrics/repeats.ts';
import { fromGames } from '../../reports/metrics/score-matrix.ts';
import {
  developField,
  simulateTourney,
  trueMatrix,
  type DevelopingField,
  type SimulatedField,
} from './simulated-field.ts';

export const KEYS = ['S', 'L', 'C'] as const;
type Key = (typeof KEYS)[number];
export type Shares = Record<Key, number>;

/**
 * The band [lo, hi] that the observed share of n independent checks lands in with probability at
 * least 1 − 2·risk when each check holds with probability p (exact binomial tails). Checks of one
 * simulated tourney share its games, so the real spread is somewhat wider: the tests take p at
 * the edge of what is acceptable and a small risk.
 */
export function binomialBand(n: number, p: number, risk = 0.001): { lo: number; hi: number } {
  // log C(n, k) p^k (1 − p)^(n − k), summed from each end until the tail passes `risk`.
  const logPmf: number[] = [];
  let logC = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log(n - k + 1) - Math.log(k);
    logPmf.push(logC + k * Math.log(p) + (n - k) * Math.log1p(-p));
  }
  let lo = 0;
  for (let tail = 0; lo <= n && tail + Math.exp(logPmf[lo]!) <= risk; lo++) tail += Math.exp(logPmf[lo]!);
  let hi = n;
  for (let tail = 0; hi >= 0 && tail + Math.exp(logPmf[hi]!) <= risk; hi--) tail += Math.exp(logPmf[hi]!);
  return { lo: lo / n, hi: hi / n };
}

const ELO = [
  [-100, -60, -80],
  [0, 50, 120],
  [60, 40, 30],
  [150, 160, 210],
];
/** The three fields of the single-run coverage checks. */
export const FIELDS: Record<string, SimulatedField> = {
  'chess-like (draws)': { agents: ['a', 'b', 'c', 'd'], rounds: 3, nu: 0.6, elo: ELO },
  'gomoku-like (no draws)': { agents: ['a', 'b', 'c', 'd'], rounds: 3, nu: 0, elo: ELO },
  'a wide field': {
    agents: ['a', 'b', 'c'],
    rounds: 4,
    nu: 0.2,
    elo: [
      [-300, 0, 100, 200],
      [0, 0, 0, 0],
      [300, 250, 200, 400],
    ],
  },
};

/** Share of `trials` simulated tourneys whose 95% bootstrap intervals of S, L and C hold the true value. */
export function intervalCoverage(name: string, field: SimulatedField, reps: number, trials: number): Shares {
  const truth = computeAll(trueMatrix(field)).perAgent;
  const hits = { S: 0, L: 0, C: 0 };
  for (let t = 0; t < trials; t++) {
    const games = simulateTourney(field, reps, createRng(deriveSeed('coverage', name, reps, t)));
    const b = bootstrapMetrics(field.agents, field.rounds, games, { samples: 300, seed: t });
    for (const agent of field.agents) {
      for (const key of KEYS) {
        const iv = b.perAgent[agent]![key];
        const v = truth[agent]![key]!;
        if (iv.lo! <= v && v <= iv.hi!) hits[key]++;
      }
    }
  }
  const n = trials * field.agents.length;
  return { S: hits.S / n, L: hits.L / n, C: hits.C / n };
}

/** Share of strategies (but the anchor a@1) whose Elo interval holds the true Elo gap, and how many were checked. */
export function ratingCoverage(name: string, field: SimulatedField, trials: number): { share: number; checks: number } {
  let hits = 0;
  let checks = 0;
  for (let t = 0; t < trials; t++) {
    const games = simulateTourney(field, 1, createRng(deriveSeed('rating-coverage', name, t)));
    const W = fromGames(field.agents, field.rounds, games);
    const { model } = bootstrapWithDraws(field.agents, field.rounds, games, { samples: 1, seed: t });
    const r = ratings(W, games, { anchor: 'a@1', dispersion: model.dispersion, strategyFit: model.fit });
    for (const s of r.strategies) {
      if (s.id === 'a@1') continue;
      const [agent, round] = s.id.split('@');
      const truth = field.elo[field.agents.indexOf(agent!)]![Number(round) - 1]! - field.elo[0]![0]!;
      checks++;
      if (s.lo <= truth && truth <= s.hi) hits++;
    }
  }
  return { share: hits / checks, checks };
}

/** The developing field of the repeats check: per-agent SD of a development's Elo 100 … 250. */
export const DEVELOPING: DevelopingField = {
  agents: ['a', 'b', 'c', 'd'],
  rounds: 3,
  nu: 0,
  elo: ELO,
  sd: [100, 150, 200, 250],
};

/** The true mean of S, L and C per agent over developments (Monte Carlo over `draws` developed fields). */
export function trueMeans(field: DevelopingField, draws = 4000): Record<string, Shares> {
  const rng = createRng(deriveSeed('repeats-truth', field.sd.join(',')));
  const sums = Object.fromEntries(field.agents.map((a) => [a, { S: 0, L: 0, C: 0 }]));
  for (let d = 0; d < draws; d++) {
    const m = computeAll(trueMatrix(developField(field, rng))).perAgent;
    for (const a of field.agents) for (const k of KEYS) sums[a]![k] += m[a]![k]! / draws;
  }
  return sums;
}

/**
 * `studies` simulated studies of K repeats each: the share of (study, agent) whose combined 95%
 * interval over the repeats holds the true mean, and the same for the first repeat's own interval.
 */
export function coverageOverRepeats(
  field: DevelopingField,
  K: number,
  studies: number,
  truth = trueMeans(field),
): { combined: Shares; single: Shares; width: { combined: number; single: number } } {
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
      const p = (k: Key) => field.agents.map((a) => b.result.perAgent[a]![k].point);
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
  const share = (h: Shares) => Object.fromEntries(KEYS.map((k) => [k, h[k] / n])) as Shares;
  return { combined: share(hits.combined), single: share(hits.single), width };
}
