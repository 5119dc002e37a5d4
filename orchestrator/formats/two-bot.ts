// How `play` lays out games between two bots in each format: a fixed number (colours alternate,
// table rounds, duplicate boards), or for `play --sprt` the most it may play and the unit the
// sequential test counts (a colour-swapped pair, a pair of table rounds on the same deals, a
// duplicate match).
import type { GameDescriptor } from '../../games/core/descriptor.ts';

/**
 * The most games one `play` or `arena` run schedules: its schedule is built, hashed and held before
 * the first game (100,000 gomoku games: about 4 s and 170 MB), so `--games 1e9` is refused at
 * once instead of filling the memory for minutes. A tourney bounds its numbers the same way.
 */
export const MAX_ARENA_GAMES = 100_000;

/** `play -n <n>`: the arena's repetitions and the games they make (Bridge: each board in both rooms). */
export function playSchedule(format: GameDescriptor['format'], n: number): { reps: number; total: number } {
  return { reps: format === 'pairs' ? Math.ceil(n / 2) : n, total: format === 'duplicate' ? 2 * n : n };
}

export interface SprtSchedule {
  /** Game pairs, table rounds, or boards per duplicate match. */
  reps: number;
  /** Games (journal entries) at most. */
  maxGames: number;
  /** Duplicate matches at most (Bridge). */
  matches?: number;
  /** One unit of the test, singular and plural. */
  unit: readonly [string, string];
  /** What the test's W-D-L counts. */
  counted: string;
}

/** `play --sprt -n <n>`: at most n games (Bridge: n boards, in matches of the game's default length). */
export function sprtSchedule(descriptor: Pick<GameDescriptor, 'format' | 'defaults'>, n: number): SprtSchedule {
  switch (descriptor.format) {
    case 'pairs':
      return { reps: Math.ceil(n / 2), maxGames: n, unit: ['pair', 'pairs'], counted: 'games' };
    case 'tables':
      // Two table rounds on the same deals, seats swapped, make a unit.
      return { reps: n, maxGames: n, unit: ['deal pair', 'deal pairs'], counted: 'table rounds' };
    case 'duplicate': {
      const reps = Math.min(n, descriptor.defaults.reps);
      const matches = Math.floor(n / reps);
      return { reps, maxGames: 2 * reps * matches, matches, unit: ['match', 'matches'], counted: 'matches' };
    }
  }
}
