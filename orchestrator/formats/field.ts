// The one place a game's format (its descriptor's `pairs`, `tables` or `duplicate`) turns a field
// of strategies into match specs, for a tourney round and for an arena alike.
import type { GameDescriptor } from '../../games/core/descriptor.ts';
import type { ForfeitPolicy, MatchLimits, MatchSpec } from '../../model/match.ts';
import { tableSpecs, tourneySeries, type TableSeries } from './batch.ts';
import { duplicateMatches } from './duplicate.ts';
import { roundRobin } from './round-robin.ts';

/** What every spec of the field shares. */
export interface FieldSettings {
  game: string;
  variant: string;
  seed: number;
  limits: MatchLimits;
  policy: ForfeitPolicy;
  options?: Record<string, string | number>;
  /** Game pairs per pairing, table rounds per table, or boards per duplicate match. */
  reps: number;
}

/**
 * Who meets whom. `arena`: every bot against every other (one table for table games). `round`:
 * round n of a tourney, its strategies against each other and every earlier strategy (table
 * games: the round-n table, and after the last round the own and field tables).
 */
export type Field =
  | { kind: 'arena'; ids: string[] }
  | { kind: 'round'; rounds: Array<Array<{ id: string; agent: string }>>; round: number; last: boolean };

export function fieldSpecs(descriptor: GameDescriptor, field: Field, settings: FieldSettings): MatchSpec[] {
  const { reps, ...common } = settings;
  const entrants = field.kind === 'arena' ? field.ids : field.rounds[field.round - 1]!.map((s) => s.id);
  const opponents = field.kind === 'arena' ? [] : field.rounds.slice(0, field.round - 1).flat().map((s) => s.id);
  switch (descriptor.format) {
    case 'duplicate':
      return duplicateMatches({ ...common, entrants, opponents, boards: reps, reps: 1 });
    case 'tables': {
      const maxSeats = descriptor.wire.tables?.maxSeats;
      const series: TableSeries[] = field.kind === 'arena' ? [{ kind: 'round', label: 'arena', members: entrants }] : tourneySeries(field.rounds.slice(0, field.round), field.last);
      return series.flatMap((s) => tableSpecs(s, { ...common, tableRounds: reps, maxSeats }));
    }
    case 'pairs':
      return roundRobin({ ...common, entrants, opponents, reps });
  }
}
