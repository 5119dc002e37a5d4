// The one place a game's format (its descriptor's `pairs`, `tables` or `duplicate`) turns a field
// of strategies into match specs, for a tourney round and for an arena alike; and, for adaptive
// repetitions, the schedule's units (a pairing, a duplicate pairing, a table series) and one more
// repetition of any of them.
import type { GameDescriptor } from '../../games/core/descriptor.ts';
import type { ForfeitPolicy, MatchLimits, MatchSpec } from '../../records/match.ts';
import { tableSpecs, tourneySeries, type TableKind, type TableSeries } from './batch.ts';
import { duplicateMatch, duplicateMatches } from './duplicate.ts';
import { gamePair, pairings, roundRobin } from './round-robin.ts';

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
  /**
   * A pairing's, duplicate match's or table series' own reps, given its strategies (the tourney:
   * an LLM-player's own settings wherever it plays); `reps` when absent.
   */
  repsFor?: (members: readonly string[]) => number;
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
  const { reps, repsFor, ...common } = settings;
  const own = (members: readonly string[]) => repsFor?.(members) ?? reps;
  const entrants = field.kind === 'arena' ? field.ids : field.rounds[field.round - 1]!.map((s) => s.id);
  const opponents =
    field.kind === 'arena'
      ? []
      : field.rounds
          .slice(0, field.round - 1)
          .flat()
          .map((s) => s.id);
  switch (descriptor.format) {
    case 'duplicate':
      if (!repsFor) return duplicateMatches({ ...common, entrants, opponents, boards: reps, reps: 1 });
      return pairings(entrants, opponents).flatMap(([a, b]) =>
        duplicateMatch({ ...common, boards: own([a, b]) }, a, b, 0),
      );
    case 'tables': {
      const maxSeats = descriptor.tables?.maxSeats;
      const series: TableSeries[] =
        field.kind === 'arena'
          ? [{ kind: 'round', label: 'arena', members: entrants }]
          : tourneySeries(field.rounds.slice(0, field.round), field.last);
      return series.flatMap((s) => tableSpecs(s, { ...common, tableRounds: own(s.members), maxSeats }));
    }
    case 'pairs': {
      if (!repsFor) return roundRobin({ ...common, entrants, opponents, reps });
      // A pair's seed depends on its repetition only: the pairings on the game's reps play the
      // same games as without repsFor.
      const most = Math.max(reps, ...pairings(entrants, opponents).map((p) => own(p)));
      return roundRobin({ ...common, entrants, opponents, reps: most }).filter((s) => (s.rep ?? 0) < own(s.seats));
    }
  }
}

/**
 * A unit of the schedule that can be played once more: a pairing of two strategies (one more
 * colour-swapped game pair), a duplicate pairing (one more match of `reps` boards) or a table
 * series (one more group of table rounds: one per seat, so every member plays every seat of the
 * same deals; a series split over several tables: one more table round).
 */
export interface ScheduleUnit {
  key: string;
  /** Strategy ids the unit's games are between (every two of them meet). */
  members: string[];
  /** Games (journal entries) one more repetition adds. */
  cost: number;
  /** Table series: what it measures, and its first unused table round. */
  table?: { kind: TableKind; label: string; nextRound: number; roundsPerRep: number };
  /** Pairings and matches: the first unused repetition index. */
  nextRep?: number;
}

/** The units of a played schedule (the specs of every round of a track), in first-seen order. */
export function scheduleUnits(
  descriptor: GameDescriptor,
  specs: readonly MatchSpec[],
  settings: FieldSettings,
): ScheduleUnit[] {
  const units = new Map<string, ScheduleUnit>();
  for (const spec of specs) {
    if (spec.batch) {
      const { label, kind, round } = spec.batch;
      const unit = units.get(label) ?? {
        key: label,
        members: [],
        cost: 0,
        table: { kind, label, nextRound: 0, roundsPerRep: 1 },
      };
      units.set(label, unit);
      for (const id of spec.seats) if (!unit.members.includes(id)) unit.members.push(id);
      unit.table!.nextRound = Math.max(unit.table!.nextRound, round + 1);
      continue;
    }
    const key = (spec.pairing ?? spec.seats.join('~')).replace(/#\d+$/, '');
    const unit = units.get(key) ?? {
      key,
      members: spec.duplicate ? [...spec.duplicate.teams] : [...spec.seats],
      cost: 0,
      nextRep: 0,
    };
    units.set(key, unit);
    unit.nextRep = Math.max(unit.nextRep!, (spec.rep ?? 0) + 1);
  }
  const maxSeats = descriptor.tables?.maxSeats ?? 12;
  for (const unit of units.values()) {
    if (unit.table) {
      const k = unit.members.length;
      const split = k > maxSeats;
      unit.table.roundsPerRep = split ? 1 : k;
      // Whole seat-rotation groups: the next group starts at the next multiple of k.
      if (!split) unit.table.nextRound = Math.ceil(unit.table.nextRound / k) * k;
      unit.cost = split ? Math.ceil(k / maxSeats) : k;
    } else {
      unit.cost = descriptor.format === 'duplicate' ? 2 * (settings.repsFor?.(unit.members) ?? settings.reps) : 2;
    }
  }
  return [...units.values()];
}

/**
 * The specs of repetition `index` (0 = the unit's first unused one) of a unit: for pairings and
 * matches repetition nextRep + index, for table series the table rounds of group index after
 * nextRound. Numbering by index, not by how often a unit was chosen, lets a resumed run tell
 * from a game's repetition which batch of adaptive repetitions it belongs to.
 */
export function moreSpecs(
  descriptor: GameDescriptor,
  unit: ScheduleUnit,
  index: number,
  settings: FieldSettings,
): MatchSpec[] {
  const { reps, repsFor, ...common } = settings;
  if (unit.table) {
    const { kind, label, nextRound, roundsPerRep } = unit.table;
    const first = nextRound + index * roundsPerRep;
    const maxSeats = descriptor.tables?.maxSeats;
    return tableSpecs(
      { kind, label, members: unit.members },
      { ...common, tableRounds: first + roundsPerRep, maxSeats },
    ).filter((s) => s.batch!.round >= first);
  }
  const [a, b] = unit.members as [string, string];
  const rep = unit.nextRep! + index;
  return descriptor.format === 'duplicate'
    ? duplicateMatch({ ...common, boards: repsFor?.(unit.members) ?? reps }, a, b, rep)
    : gamePair(common, a, b, rep);
}
