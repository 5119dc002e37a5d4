// Duplicate team matches (Bridge): a partnership is one strategy in both seats. Each pairing plays
// `boards` boards in two rooms with the same deal: in the open room A sits North–South and B
// East–West, in the closed room the other way round. One game = one board in one room, as in
// CATArena (its own server game id, joins and state); reports/metrics/duplicate.ts turns the two
// rooms of each board into IMPs and a match into VPs.
import { deriveSeed } from '../../util/rng.ts';
import type { ForfeitPolicy, MatchLimits, MatchSpec } from '../../records/match.ts';
import { pairings } from './round-robin.ts';

export interface DuplicateOptions {
  game: string;
  variant: string;
  /** Strategy ids that play each other. */
  entrants: string[];
  /** Strategies the entrants also play (earlier rounds), but that do not play each other again. */
  opponents?: string[];
  /** Boards per match (the paper: 12). */
  boards: number;
  /** Matches per pairing. */
  reps: number;
  seed: number;
  limits: MatchLimits;
  policy: ForfeitPolicy;
  options?: Record<string, string | number>;
}

export type Room = 'open' | 'closed';

/** Seats N, E, S, W: the NS team in seats 0 and 2, the EW team in 1 and 3. */
export function roomSeats(a: string, b: string, room: Room): string[] {
  return room === 'open' ? [a, b, a, b] : [b, a, b, a];
}

export function duplicateMatches(options: DuplicateOptions): MatchSpec[] {
  const { boards, reps } = options;
  if (boards < 1) throw new Error(`boards must be at least 1, got ${boards}`);
  if (reps < 1) throw new Error(`reps must be at least 1, got ${reps}`);
  const pairs = pairings(options.entrants, options.opponents);
  // Match-major: a stopped run has whole matches rather than one board of every match.
  const specs: MatchSpec[] = [];
  for (let rep = 0; rep < reps; rep++) for (const [a, b] of pairs) specs.push(...duplicateMatch(options, a, b, rep));
  return specs;
}

/** Match `rep` of the pairing a~b: every board in the open and the closed room. */
export function duplicateMatch(
  options: Omit<DuplicateOptions, 'entrants' | 'opponents' | 'reps'>,
  a: string,
  b: string,
  rep: number,
): MatchSpec[] {
  const match = `${a}~${b}#${rep}`;
  const specs: MatchSpec[] = [];
  for (let board = 1; board <= options.boards; board++) {
    const seed = deriveSeed(options.seed, options.game, options.variant, a, b, rep, board);
    for (const room of ['open', 'closed'] as const) {
      specs.push({
        game: options.game,
        variant: options.variant,
        seats: roomSeats(a, b, room),
        seed,
        limits: options.limits,
        policy: options.policy,
        options: { ...options.options, board },
        pairing: match,
        rep,
        duplicate: { match, teams: [a, b], board, boards: options.boards, room },
      });
    }
  }
  return specs;
}
