// Batch tables for multi-player games (Hold'em), metrics.md "Batch games": the paper's three
// table kinds, each played for many tournament rounds ("table rounds") with shuffled seats.
//
//   own   — one agent's strategies of every round at one table   → S_i^n (win rates)
//   round — every agent's round-n strategy at one table          → B_i^n
//   field — all T·N strategies, shuffled into tables of ≤ 12     → G_i^n, A_i^n
//
// Seats and deals: table rounds come in groups of k (k = players at the table). A group shares
// one random seating and one deal seed, and its k rounds rotate the seating by one seat each: every
// strategy plays every seat of the same deals (duplicate deals; they diverge once stacks differ,
// but the cards start identical). A field larger than one table is re-split at random every table
// round, so every pair of strategies meets; those tables get their own deal seeds.
import { createRng, deriveSeed } from '../../util/rng.ts';
import type { ForfeitPolicy, MatchLimits, MatchSpec } from '../../records/match.ts';

export type TableKind = 'own' | 'round' | 'field';
export const TABLE_KINDS: readonly TableKind[] = ['own', 'round', 'field'];

export interface BatchOptions {
  game: string;
  variant: string;
  /** Table rounds (tournament rounds) per table; the paper plays 100. */
  tableRounds: number;
  /** Most players at one table (the paper's 12). */
  maxSeats?: number;
  seed: number;
  limits: MatchLimits;
  policy: ForfeitPolicy;
  options?: Record<string, string | number>;
}

/** One table series: who sits at it and what it measures. */
export interface TableSeries {
  kind: TableKind;
  /** Stable name: own:<agent>, round:<n>, field. */
  label: string;
  members: string[];
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Splits `items` into ⌈n / max⌉ tables whose sizes differ by at most one. */
export function splitTables<T>(items: readonly T[], max: number): T[][] {
  const count = Math.ceil(items.length / max);
  const out: T[][] = Array.from({ length: count }, () => []);
  items.forEach((item, i) => out[i % count]!.push(item));
  return out;
}

/** The match specs of one table series (one spec per table per table round). */
export function tableSpecs(series: TableSeries, options: BatchOptions): MatchSpec[] {
  const { members } = series;
  const max = options.maxSeats ?? 12;
  if (options.tableRounds < 1) throw new Error(`table rounds must be at least 1, got ${options.tableRounds}`);
  if (members.length < 2) return []; // nobody to play
  if (new Set(members).size !== members.length) throw new Error(`table ${series.label}: strategy ids must be unique`);
  const base = {
    game: options.game,
    variant: options.variant,
    limits: options.limits,
    policy: options.policy,
    ...(options.options ? { options: options.options } : {}),
  };
  const batch = (round: number, table: number) => ({ kind: series.kind, label: series.label, round, table });
  const specs: MatchSpec[] = [];

  if (members.length <= max) {
    const k = members.length;
    for (let round = 0; round < options.tableRounds; round++) {
      const group = Math.floor(round / k);
      const seating = createRng(deriveSeed(options.seed, series.label, 'seating', group)).shuffle(members);
      specs.push({
        ...base,
        seats: rotate(seating, round % k),
        seed: deriveSeed(options.seed, series.label, 'deal', group),
        pairing: `${series.label}#${group}`,
        rep: round,
        batch: batch(round, 0),
      });
    }
    return specs;
  }

  for (let round = 0; round < options.tableRounds; round++) {
    const shuffled = createRng(deriveSeed(options.seed, series.label, 'split', round)).shuffle(members);
    splitTables(shuffled, max).forEach((seats, table) => {
      specs.push({
        ...base,
        seats,
        seed: deriveSeed(options.seed, series.label, 'deal', round, table),
        pairing: `${series.label}#${round}`,
        rep: round,
        batch: batch(round, table),
      });
    });
  }
  return specs;
}

/**
 * The series of a tourney round: `round` tables for round n's strategies, and after the last
 * round (`final`) the `own` tables of every agent and the `field` of every strategy.
 */
export function tourneySeries(byRound: Array<Array<{ id: string; agent: string }>>, final: boolean): TableSeries[] {
  const n = byRound.length;
  const series: TableSeries[] = [{ kind: 'round', label: `round:${n}`, members: byRound[n - 1]!.map((s) => s.id) }];
  if (!final) return series;
  const all = byRound.flat();
  const agents = [...new Set(all.map((s) => s.agent))];
  if (n > 1)
    for (const agent of agents)
      series.push({
        kind: 'own',
        label: `own:${agent}`,
        members: all.filter((s) => s.agent === agent).map((s) => s.id),
      });
  if (n > 1) series.push({ kind: 'field', label: 'field', members: all.map((s) => s.id) });
  return series;
}
