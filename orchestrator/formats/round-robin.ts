// Round-robin schedules for two-player games: every pair, colours swapped, R repetitions.
// Both colour-swapped games of a repetition share one seed, so they are played on the same
// random setup (the Gomoku variant's forbidden cells): the colour advantage cancels out.
import type { ForfeitPolicy, MatchLimits, MatchSpec } from '../../records/match.ts';
import { deriveSeed } from '../../util/rng.ts';

export interface RoundRobinOptions {
  game: string;
  variant: string;
  /** Strategy ids that play each other. */
  entrants: string[];
  /** Strategies the entrants also play (earlier rounds), but that do not play each other again. */
  opponents?: string[];
  /** Colour-swapped game pairs per pairing. */
  reps: number;
  seed: number;
  limits: MatchLimits;
  policy: ForfeitPolicy;
  /** Protocol options for every match (chess: {algorithm}). */
  options?: Record<string, string | number>;
}

/**
 * Every pairing of a round: entrants against each other and each entrant against every opponent
 * (earlier rounds' strategies, which do not play each other again). Throws on repeated ids.
 */
export function pairings(entrants: readonly string[], opponents: readonly string[] = []): Array<[string, string]> {
  if (new Set([...entrants, ...opponents]).size !== entrants.length + opponents.length)
    throw new Error('strategy ids must be unique');
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < entrants.length; i++) {
    for (let j = i + 1; j < entrants.length; j++) pairs.push([entrants[i]!, entrants[j]!]);
    for (const old of opponents) pairs.push([entrants[i]!, old]);
  }
  return pairs;
}

export function roundRobin(options: RoundRobinOptions): MatchSpec[] {
  const { reps } = options;
  if (reps < 1) throw new Error(`reps must be at least 1, got ${reps}`);
  const pairs = pairings(options.entrants, options.opponents);
  // Repetition-major order: every pairing progresses evenly, so a stopped run is balanced.
  const specs: MatchSpec[] = [];
  for (let rep = 0; rep < reps; rep++) for (const [a, b] of pairs) specs.push(...gamePair(options, a, b, rep));
  return specs;
}

/** Repetition `rep` of the pairing a~b: two games, colours swapped, one seed. */
export function gamePair(
  options: Omit<RoundRobinOptions, 'entrants' | 'opponents' | 'reps'>,
  a: string,
  b: string,
  rep: number,
): MatchSpec[] {
  const pairing = `${a}~${b}#${rep}`;
  const seed = deriveSeed(options.seed, options.game, options.variant, a, b, rep);
  return [
    [a, b],
    [b, a],
  ].map((seats) => ({
    game: options.game,
    variant: options.variant,
    seats,
    seed,
    limits: options.limits,
    policy: options.policy,
    ...(options.options ? { options: options.options } : {}),
    pairing,
    rep,
  }));
}
