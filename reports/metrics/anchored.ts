// Ratings on an anchor pool's scale (docs/anchors.md). `fitPool`: the pool's own round robin,
// fitted once: two-player games (and duplicate matches, and nothing else) by Bradley–Terry with
// Davidson draws (davidson.ts) with Wald intervals; tables by Plackett–Luce (table-ratings.ts)
// with bootstrap intervals; Elo 400·log10(π), 0 = the pool's mean. `rateAgainstAnchors`: one
// bot's strength with the anchors' ratings (and ν) held fixed: the one-parameter maximum of the
// same likelihood, with a Wald interval from its curvature (the anchors' own uncertainty is not
// added: it is common to every bot rated on that pool version, so it does not change comparisons).
import { pairwiseGames, placesOf } from './batch.ts';
import { addGame, emptyRecord, fitDavidson, thetaCovariance } from './davidson.ts';
import { normalQuantile } from './normal.ts';
import { addRanking, emptyStages, type StageSet } from './plackett-luce.ts';
import { isTableResult, tableRatings } from './table-ratings.ts';
import type { MatchResult } from '../../records/match.ts';
import type { AnchorRating, PoolFit } from '../../records/anchors.ts';

export const ELO_PER_NAT = 400 / Math.LN10;

type Model = PoolFit['model'];

const asKey = (id: string) => ({ agent: id, round: 1 });

/** The pool's ratings from its round robin. `ids`: the anchors, in the pool's order. */
export function fitPool(
  results: readonly MatchResult[],
  ids: readonly string[],
  model: Model,
  options: { level?: number; seed?: number; samples?: number } = {},
): { ratings: AnchorRating[]; drawParameter?: number; intervals: string } {
  const level = options.level ?? 0.95;
  if (model === 'plackett-luce') {
    const samples = options.samples ?? 1000;
    const fit = tableRatings(results, asKey, ids, 1, { seed: options.seed ?? 1, samples, level });
    if (!fit) throw new Error('fitPool: no table results');
    const byId = new Map(fit.strategies.map((r) => [r.id.slice(0, r.id.lastIndexOf('@')), r]));
    return {
      ratings: ids.map((id) => ({ ...(byId.get(id) ?? { elo: 0, lo: 0, hi: 0, games: 0 }), id })),
      intervals: `percentile bootstrap over table groups, ${samples} samples`,
    };
  }
  const index = new Map(ids.map((id, i) => [id, i]));
  const P = ids.length;
  const record = emptyRecord(P);
  const games = new Array<number>(P).fill(0);
  for (const g of pairwiseGames(results, asKey)) {
    const i = index.get(g.a.agent);
    const j = index.get(g.b.agent);
    if (i === undefined || j === undefined || i === j) continue;
    addGame(record, P, i, j, g.scoreA);
    games[i]!++;
    games[j]!++;
  }
  const fit = fitDavidson(record, P);
  const cov = thetaCovariance(fit);
  const z = normalQuantile(1 - (1 - level) / 2);
  const ratings = ids.map((id, i) => {
    const elo = fit.theta[i]! * ELO_PER_NAT;
    const half = z * Math.sqrt(Math.max(0, cov[i * P + i]!)) * ELO_PER_NAT;
    return { id, elo, lo: elo - half, hi: elo + half, games: games[i]! };
  });
  return { ratings, drawParameter: fit.nu, intervals: 'Wald, observed information' };
}

/** The pool version's fixed part of the likelihood: anchors' strengths (nats) and ν. */
export interface FixedPool {
  model: Model;
  anchors: ReadonlyArray<Pick<AnchorRating, 'id' | 'elo'>>;
  drawParameter?: number;
}

/** log-likelihood of the candidate's strength θ (nats) given its games against fixed anchors. */
type LogLik = (theta: number) => number;

/** Davidson: every pairwise game of the candidate against an anchor, plus the prior (1 virtual game, half won, spread over the anchors). */
function pairLogLik(results: readonly MatchResult[], candidate: string, pool: FixedPool): { f: LogLik; games: number } {
  const anchorTheta = new Map(pool.anchors.map((a) => [a.id, a.elo / ELO_PER_NAT]));
  const nu = pool.drawParameter ?? 0;
  const terms: Array<{ t: number; x: number }> = [];
  for (const g of pairwiseGames(results, asKey)) {
    const mine = g.a.agent === candidate ? 'a' : g.b.agent === candidate ? 'b' : null;
    const other = mine === 'a' ? g.b.agent : g.a.agent;
    const t = anchorTheta.get(other);
    if (!mine || t === undefined) continue;
    terms.push({ t, x: mine === 'a' ? g.scoreA : 1 - g.scoreA });
  }
  const perAnchor = 1 / pool.anchors.length;
  const f = (theta: number) => {
    let sum = 0;
    // x = ½ from a game is a draw (as davidson.ts addGame counts it); the prior's ½ is half a win.
    const one = (t: number, x: number, draw: boolean) => {
      const pc = Math.exp(theta);
      const pa = Math.exp(t);
      const root = nu * Math.sqrt(pc * pa);
      const logD = Math.log(pc + pa + root);
      if (draw && x === 0.5 && nu > 0) return Math.log(nu) + (theta + t) / 2 - logD;
      return x * (theta - logD) + (1 - x) * (t - logD);
    };
    for (const { t, x } of terms) sum += one(t, x, true);
    for (const a of pool.anchors) sum += perAnchor * one(a.elo / ELO_PER_NAT, 0.5, false);
    return sum;
  };
  return { f, games: terms.length };
}

/** Plackett–Luce: every table the candidate sat at (its stages), anchors fixed; prior as two-player ties. */
function tableLogLik(
  results: readonly MatchResult[],
  candidate: string,
  pool: FixedPool,
): { f: LogLik; games: number } {
  const ids = [candidate, ...pool.anchors.map((a) => a.id)];
  const index = new Map(ids.map((id, i) => [id, i]));
  const set: StageSet = emptyStages(ids.length);
  let games = 0;
  for (const r of results.filter(isTableResult)) {
    if (!r.spec.seats.includes(candidate)) continue;
    const players = r.spec.seats.map((s) => index.get(s));
    if (players.some((p) => p === undefined)) continue;
    addRanking(set, players as number[], placesOf(r), 0);
    games++;
  }
  const fixed = pool.anchors.map((a) => a.elo / ELO_PER_NAT);
  const perAnchor = 1 / pool.anchors.length;
  const f = (theta: number) => {
    const th = (p: number) => (p === 0 ? theta : fixed[p - 1]!);
    let sum = 0;
    for (let c = 0; c < set.chainStages.length; c++) {
      const seats = set.chainSeat.slice(set.chainOffsets[c], set.chainOffsets[c + 1]);
      for (let t = 0; t < set.chainStages[c]!; t++) {
        let total = 0;
        for (let u = t; u < seats.length; u++) total += Math.exp(th(seats[u]!));
        sum += th(seats[t]!) - Math.log(total);
      }
    }
    for (let s = 0; s < set.weight.length; s++) {
      let total = 0;
      for (let k = set.offsets[s]!; k < set.offsets[s + 1]!; k++) {
        total += set.mult[k]! * Math.exp(th(set.member[k]!));
        sum += set.credit[k]! * th(set.member[k]!);
      }
      sum -= set.weight[s]! * Math.log(total);
    }
    for (const t of fixed) sum += perAnchor * ((theta + t) / 2 - Math.log(Math.exp(theta) + Math.exp(t)));
    return sum;
  };
  return { f, games };
}

/** The maximum of a concave function of one variable: bisection on its (central-difference) slope. */
function argmax(f: LogLik, lo = -30, hi = 30): number {
  const slope = (x: number) => (f(x + 1e-6) - f(x - 1e-6)) / 2e-6;
  for (let k = 0; k < 80; k++) {
    const mid = (lo + hi) / 2;
    if (slope(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The candidate's rating on the pool's scale with a Wald interval at `level`. */
export function rateAgainstAnchors(
  results: readonly MatchResult[],
  candidate: string,
  pool: FixedPool,
  level = 0.95,
): Omit<AnchorRating, 'id'> {
  if (!pool.anchors.length) throw new Error('rateAgainstAnchors: the pool has no anchors');
  const { f, games } = (pool.model === 'plackett-luce' ? tableLogLik : pairLogLik)(results, candidate, pool);
  const theta = argmax(f);
  const h = 1e-3;
  const information = -(f(theta + h) - 2 * f(theta) + f(theta - h)) / (h * h);
  const z = normalQuantile(1 - (1 - level) / 2);
  const elo = theta * ELO_PER_NAT;
  const half = (z / Math.sqrt(Math.max(information, 1e-12))) * ELO_PER_NAT;
  return { elo, lo: elo - half, hi: elo + half, games };
}
