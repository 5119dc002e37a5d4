// The Plackett–Luce model for finishing orders of games of many players (Hold'em tables,
// Undercover games): a table's order is built from the top, each place chosen among the players
// still unplaced with probability proportional to strength,
//   P(order) = Π_stages π_chosen / Σ_{k unplaced} π_k,
// so for any two players P(i ahead of j) = π_i / (π_i + π_j): the Bradley–Terry pair probability,
// and a two-player table is exactly a Bradley–Terry game. Fitted by maximum likelihood with
// Hunter's (2004) MM iteration
//   π_i ← (Σ_s w_s c_si) / Σ_s w_s m_si / Σ_k m_sk π_k
// over the stages s (a set of unplaced players with multiplicities m, a choice credit c summing to 1).
// Ties: a group of k tied players counts as the average over the k! orders that break it. At each
// step of the group the unplaced part of it is a uniformly random subset S, and the next chosen is
// uniform in S, so the group is the stages (S ∪ below) for every non-empty S ⊆ group, with weight
// 1/C(k, |S|) and credit 1/|S| to each member of S. A two-player tie is therefore half a win each,
// as in the Bradley–Terry ratings (davidson.ts). docs/metrics.md "Ratings for tables".
// A player on several seats of one table is one player with multiplicity; a stage whose unplaced
// seats all belong to one player carries no information and is dropped.

/** Exact ties enumerate 2^k subsets: no game catarena plays seats more than 12. */
export const MAX_TIE = 16;

export interface PlackettLuceOptions {
  /**
   * Virtual games per player (default 1), spread over its P − 1 opponents as two-player ties (half
   * won by each side), as davidson.ts does: keeps a player who always finished first finite and
   * connects players who never met.
   */
  prior?: number;
  maxIterations?: number;
  /** Stop when no log-strength moves more than this (default 1e-12: MM steps shrink slowly, so the stop is well below the precision wanted). */
  tolerance?: number;
}

export const PLACKETT_LUCE_DEFAULTS: Required<PlackettLuceOptions> = {
  prior: 1,
  maxIterations: 20_000,
  tolerance: 1e-12,
};

/**
 * Every table, tagged with its bootstrap unit (e.g. its table group). A table without ties is a
 * chain (its players best first; stage t is the suffix from t, so one pass of suffix sums serves
 * all its stages); a table with a tie is its stages, listed.
 */
export interface StageSet {
  players: number;
  units: number;
  /** Chain c's seats (player per seat, best first) are chainSeat[chainOffsets[c] .. chainOffsets[c+1]). */
  chainOffsets: number[];
  chainSeat: number[];
  /** Stages with information: the suffixes from 0 to chainStages[c] − 1 (later ones hold one player). */
  chainStages: number[];
  chainUnit: number[];
  /** Stage s's members are member[offsets[s] .. offsets[s+1]). */
  offsets: number[];
  /** Distinct player index of each member. */
  member: number[];
  /** Its seats among the unplaced (the multiplicity in the denominator). */
  mult: number[];
  /** Its share of the stage's choice, times the stage's weight. */
  credit: number[];
  /** The stage's weight (1/C(k, |S|) inside a tie group). */
  weight: number[];
  unit: number[];
}

export function emptyStages(players: number): StageSet {
  return {
    players,
    units: 0,
    chainOffsets: [0],
    chainSeat: [],
    chainStages: [],
    chainUnit: [],
    offsets: [0],
    member: [],
    mult: [],
    credit: [],
    weight: [],
    unit: [],
  };
}

function binomial(n: number, k: number): number {
  let out = 1;
  for (let i = 1; i <= k; i++) out = (out * (n - k + i)) / i;
  return out;
}

/** Appends one stage: the unplaced seats `remaining` (player per seat), credit shared by `chosen` (a subset of them). */
function pushStage(set: StageSet, remaining: number[], chosen: number[], weight: number, unit: number): void {
  const mult = new Map<number, number>();
  for (const p of remaining) mult.set(p, (mult.get(p) ?? 0) + 1);
  if (mult.size < 2) return; // one player left: certain, no information
  const credit = new Map<number, number>();
  for (const p of chosen) credit.set(p, (credit.get(p) ?? 0) + weight / chosen.length);
  for (const [p, m] of mult) {
    set.member.push(p);
    set.mult.push(m);
    set.credit.push(credit.get(p) ?? 0);
  }
  set.offsets.push(set.member.length);
  set.weight.push(weight);
  set.unit.push(unit);
}

/** Appends a table without ties: its players best first, up to the last suffix holding two players. */
function pushChain(set: StageSet, order: number[], unit: number): void {
  let stages = order.length - 1;
  while (stages > 0 && order.slice(stages - 1).every((p) => p === order[stages - 1])) stages--;
  if (stages === 0) return;
  set.chainSeat.push(...order);
  set.chainOffsets.push(set.chainSeat.length);
  set.chainStages.push(stages);
  set.chainUnit.push(unit);
}

/**
 * Adds one table: `players[seat]` the rated player's index, `places[seat]` its place (1 = best;
 * equal places tie). `unit` is the bootstrap unit it belongs to (units are numbered from 0).
 */
export function addRanking(set: StageSet, players: readonly number[], places: readonly number[], unit: number): void {
  if (players.length !== places.length) throw new Error('addRanking: one place per seat');
  set.units = Math.max(set.units, unit + 1);
  const distinct = [...new Set(places)].sort((a, b) => a - b);
  if (distinct.length === places.length) {
    pushChain(
      set,
      distinct.map((place) => players[places.indexOf(place)]!),
      unit,
    );
    return;
  }
  for (const place of distinct) {
    const group = players.filter((_, s) => places[s] === place);
    const below = players.filter((_, s) => places[s]! > place);
    const k = group.length;
    if (k > MAX_TIE) throw new Error(`addRanking: ${k} players tied at one place (at most ${MAX_TIE} are rated)`);
    for (let mask = 1; mask < 1 << k; mask++) {
      const subset = group.filter((_, g) => mask & (1 << g));
      if (subset.length === 1 && below.length === 0) continue; // the last seat: certain
      pushStage(set, [...subset, ...below], subset, 1 / binomial(k, subset.length), unit);
    }
  }
}

type Compiled = { [K in Exclude<keyof StageSet, 'players' | 'units'>]: Float64Array };

/** Typed copies of a stage set for the fit (a bootstrap refits one set a thousand times), cached per set and size. */
const compiledSets = new WeakMap<StageSet, { size: number; arrays: Compiled }>();
function compiled(set: StageSet): Compiled {
  const size = set.member.length + set.chainSeat.length;
  const hit = compiledSets.get(set);
  if (hit && hit.size === size) return hit.arrays;
  const { players: _p, units: _u, ...lists } = set;
  const arrays = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, Float64Array.from(v)])) as Compiled;
  compiledSets.set(set, { size, arrays });
  return arrays;
}

export interface PlackettLuceFit {
  /** Natural log-strengths θ = ln π, mean 0. */
  theta: Float64Array;
  iterations: number;
  converged: boolean;
}

/** Σ_s w_s c_si: each player's (weighted) choices, the numerator of the MM step, prior included. */
function choices(c: Compiled, P: number, chainScale: Float64Array, stageScale: Float64Array, prior: number) {
  const wins = new Float64Array(P).fill(prior / 2);
  chainScale.forEach((w, ch) => {
    for (let t = 0; t < c.chainStages[ch]!; t++) wins[c.chainSeat[c.chainOffsets[ch]! + t]!]! += w;
  });
  stageScale.forEach((w, s) => {
    for (let k = c.offsets[s]!; k < c.offsets[s + 1]!; k++) wins[c.member[k]!]! += w * c.credit[k]!;
  });
  return wins;
}

/** Σ_s w_s m_si / Σ_k m_sk π_k into `denom`: the MM step's denominator, prior included. */
function denominators(
  c: Compiled,
  pi: Float64Array,
  scale: { chains: Float64Array; stages: Float64Array },
  perPair: number,
  denom: Float64Array,
  suffix: Float64Array,
) {
  const P = pi.length;
  const chainScale = scale.chains;
  const stageScale = scale.stages;
  denom.fill(0);
  for (let ch = 0; ch < chainScale.length; ch++) {
    const w = chainScale[ch]!;
    if (w === 0) continue;
    const start = c.chainOffsets[ch]!;
    const k = c.chainOffsets[ch + 1]! - start;
    let total = 0;
    for (let u = k - 1; u >= 0; u--) suffix[u] = total += pi[c.chainSeat[start + u]!]!;
    // Seat u is unplaced in the stages 0..min(u, last): it gets Σ of their w / total.
    let running = 0;
    const last = c.chainStages[ch]! - 1;
    for (let u = 0; u < k; u++) {
      if (u <= last) running += w / suffix[u]!;
      denom[c.chainSeat[start + u]!]! += running;
    }
  }
  for (let s = 0; s < stageScale.length; s++) {
    if (stageScale[s] === 0) continue;
    let total = 0;
    for (let k = c.offsets[s]!; k < c.offsets[s + 1]!; k++) total += c.mult[k]! * pi[c.member[k]!]!;
    const w = (stageScale[s]! * c.weight[s]!) / total;
    for (let k = c.offsets[s]!; k < c.offsets[s + 1]!; k++) denom[c.member[k]!]! += w * c.mult[k]!;
  }
  for (let i = 0; i < P; i++) {
    for (let j = i + 1; j < P; j++) {
      const w = perPair / (pi[i]! + pi[j]!);
      denom[i]! += w;
      denom[j]! += w;
    }
  }
}

/**
 * The maximum-likelihood strengths with each unit's tables counted `unitWeights[u]` times (default
 * once; a bootstrap sample passes its draw counts). `start` warm-starts the iteration (θ).
 */
export function fitPlackettLuce(
  set: StageSet,
  options: PlackettLuceOptions & { unitWeights?: ArrayLike<number>; start?: ArrayLike<number> } = {},
): PlackettLuceFit {
  const { prior, maxIterations, tolerance } = { ...PLACKETT_LUCE_DEFAULTS, ...options };
  if (!(prior > 0)) throw new Error(`fitPlackettLuce: prior must be > 0, got ${prior}`);
  const P = set.players;
  const c = compiled(set);
  const scaleOf = (u: number) => options.unitWeights?.[u] ?? 1;
  const chainScale = Float64Array.from(c.chainUnit, scaleOf);
  const stageScale = Float64Array.from(c.unit, scaleOf);
  const perPair = P > 1 ? prior / (P - 1) : 0;
  const wins = choices(c, P, chainScale, stageScale, prior);
  const pi = Float64Array.from({ length: P }, (_, i) => Math.exp(options.start?.[i] ?? 0));
  const denom = new Float64Array(P);
  let longest = 0;
  for (let ch = 0; ch < chainScale.length; ch++)
    longest = Math.max(longest, c.chainOffsets[ch + 1]! - c.chainOffsets[ch]!);
  const suffix = new Float64Array(longest);
  let iterations = 0;
  let converged = P < 2;
  while (!converged && iterations < maxIterations) {
    iterations++;
    denominators(c, pi, { chains: chainScale, stages: stageScale }, perPair, denom, suffix);
    // Strengths are defined up to a common factor: fix the geometric mean at 1.
    let logMean = 0;
    for (let i = 0; i < P; i++) logMean += Math.log(wins[i]! / denom[i]!) / P;
    let moved = 0;
    for (let i = 0; i < P; i++) {
      const next = Math.exp(Math.log(wins[i]! / denom[i]!) - logMean);
      moved = Math.max(moved, Math.abs(Math.log(next) - Math.log(pi[i]!)));
      pi[i] = next;
    }
    converged = moved < tolerance;
  }
  return { theta: Float64Array.from(pi, (p) => Math.log(p)), iterations, converged };
}
