// Ratings for the tables of a track (Hold'em, Undercover): Plackett–Luce (plackett-luce.ts) over
// each table's finishing places, per strategy and per agent (all of an agent's strategies as one
// player; its seats at one table are one player on several seats), on the Elo scale
// 400·log10(π), so 400 Elo between two players means they finish in that order 10 times in 11 at
// any table. Intervals: a percentile bootstrap over table groups (the tables of one seat-rotation
// group share deals, so they are resampled together), each sample refitted. Elo 0 is the anchor
// as in ratings.ts (its own rating exactly 0, no interval), else the mean of the rated players.
// docs/metrics.md "Ratings for tables".
import { createRng, deriveSeed } from '../../util/rng.ts';
import { placesOf } from './batch.ts';
import { percentile } from './bootstrap.ts';
import { addRanking, emptyStages, fitPlackettLuce, type StageSet } from './plackett-luce.ts';
import type { StrategyKey } from './score-matrix.ts';
import type { MatchResult } from '../../records/match.ts';
import type { Rating, TableRatings } from '../../records/metrics.ts';

export interface TableRatingsOptions {
  /** A strategy label (agent@round) or an agent id (its round-1 strategy, and the agent itself); default: the mean. */
  anchor?: string;
  /** Bootstrap samples (default 1000). */
  samples?: number;
  /** Run seed; the stream is deriveSeed('metrics.table-ratings', seed) (default 1). */
  seed?: number;
  level?: number;
}

export const TABLE_RATINGS_DEFAULTS: Required<Omit<TableRatingsOptions, 'anchor'>> = {
  samples: 1000,
  seed: 1,
  level: 0.95,
};

const ELO_PER_NAT = 400 / Math.LN10;

/** A result of more than two seats, or with places: a table (not a duplicate room). */
export const isTableResult = (r: Pick<MatchResult, 'spec' | 'places'>): boolean =>
  !r.spec.duplicate && (r.spec.seats.length > 2 || r.places !== undefined);

interface Players {
  ids: string[];
  /** Tables each sat at with another player. */
  games: number[];
  stages: StageSet;
}

/** The stages of every table with seats mapped to players by `playerOf`, units by `unitOf`. */
function stagesFor(
  tables: readonly MatchResult[],
  order: readonly string[],
  playerOf: (seatId: string) => string,
  unitOf: (r: MatchResult) => number,
): Players {
  // Rated: players that met another player at some table.
  const seen = new Set(
    tables.flatMap((r) => {
      const players = new Set(r.spec.seats.map(playerOf));
      return players.size > 1 ? [...players] : [];
    }),
  );
  const ids = order.filter((id) => seen.has(id));
  const index = new Map(ids.map((id, i) => [id, i]));
  const stages = emptyStages(ids.length);
  const games = ids.map(() => 0);
  for (const r of tables) {
    const players = r.spec.seats.map((s) => index.get(playerOf(s))!);
    const distinct = new Set(players);
    // A table of one player's seats only (an agent's own table) says nothing of it: left out.
    if (distinct.size < 2) continue;
    addRanking(stages, players, placesOf(r), unitOf(r));
    for (const p of distinct) games[p]!++;
  }
  return { ids, games, stages };
}

/** Point fit and percentile-bootstrap intervals, on the Elo scale relative to the anchor (an index) or the mean. */
function rate(players: Players, anchor: number | null, draws: readonly Float64Array[], level: number): Rating[] {
  const { ids, stages } = players;
  if (!ids.length) return [];
  const point = fitPlackettLuce(stages);
  const elo = (theta: ArrayLike<number>, i: number) =>
    (theta[i]! - (anchor === null ? 0 : theta[anchor]!)) * ELO_PER_NAT;
  const samples = draws.map(
    (unitWeights) => fitPlackettLuce(stages, { unitWeights, start: point.theta, tolerance: 1e-6 }).theta,
  );
  const tail = (1 - level) / 2;
  return ids.map((id, i) => {
    const value = elo(point.theta, i);
    if (i === anchor) return { id, elo: 0, lo: 0, hi: 0, games: players.games[i]! };
    const sorted = Float64Array.from(samples, (theta) => elo(theta, i)).sort();
    return {
      id,
      elo: value,
      lo: sorted.length ? percentile(sorted, tail) : value,
      hi: sorted.length ? percentile(sorted, 1 - tail) : value,
      games: players.games[i]!,
    };
  });
}

/** Draw counts per unit for each bootstrap sample (units drawn with replacement, as many as there are). */
function unitDraws(units: number, samples: number, seed: number): Float64Array[] {
  const rng = createRng(deriveSeed('metrics.table-ratings', seed));
  return Array.from({ length: samples }, () => {
    const counts = new Float64Array(units);
    for (let d = 0; d < units; d++) counts[rng.int(0, units - 1)]! += 1;
    return counts;
  });
}

/**
 * Plackett–Luce ratings of the track's table results (`results` in match-id order; others are
 * ignored), or null when the track has no tables. `keyOf` maps a strategy id to (agent, round);
 * `agents` and `rounds` give the order the players are listed in.
 */
export function tableRatings(
  results: readonly MatchResult[],
  keyOf: (id: string) => StrategyKey,
  agents: readonly string[],
  rounds: number,
  options: TableRatingsOptions = {},
): TableRatings | null {
  const { samples, seed, level } = { ...TABLE_RATINGS_DEFAULTS, ...options };
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`tableRatings: bad sample count ${samples}`);
  if (!(level > 0 && level < 1)) throw new Error(`tableRatings: level ${level} outside (0, 1)`);
  const tables = results.filter(isTableResult);
  if (!tables.length) return null;
  const unitIds = new Map<string, number>();
  const unitOf = (r: MatchResult) => {
    const key = r.spec.pairing ?? r.id;
    if (!unitIds.has(key)) unitIds.set(key, unitIds.size);
    return unitIds.get(key)!;
  };
  const label = (id: string) => `${keyOf(id).agent}@${keyOf(id).round}`;
  const labels = agents.flatMap((a) => Array.from({ length: rounds }, (_, k) => `${a}@${k + 1}`));
  const strategies = stagesFor(tables, labels, label, unitOf);
  const byAgent = stagesFor(tables, agents, (id) => keyOf(id).agent, unitOf);
  const draws = unitDraws(unitIds.size, samples, seed);

  const anchor = options.anchor;
  const anchorAgent =
    anchor === undefined ? undefined : anchor.includes('@') ? anchor.slice(0, anchor.lastIndexOf('@')) : anchor;
  const anchorLabel = anchor === undefined ? undefined : anchor.includes('@') ? anchor : `${anchor}@1`;
  const strategyAnchor = anchorLabel === undefined ? -1 : strategies.ids.indexOf(anchorLabel);
  const agentAnchor = anchorAgent === undefined ? -1 : byAgent.ids.indexOf(anchorAgent);
  const anchored = strategyAnchor >= 0;
  return {
    model: 'plackett-luce',
    anchor: anchored ? anchorLabel! : 'mean',
    ties: 'averaged over tie orders',
    intervals: { method: 'percentile bootstrap', unit: 'table group', samples, seed, level },
    tables: tables.length,
    units: unitIds.size,
    tiedTables: tables.filter((r) => new Set(placesOf(r)).size < r.spec.seats.length).length,
    strategies: rate(strategies, anchored ? strategyAnchor : null, draws, level),
    agents:
      byAgent.ids.length > 1 ? rate(byAgent, anchored && agentAnchor >= 0 ? agentAnchor : null, draws, level) : [],
  };
}
