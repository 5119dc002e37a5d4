// Who plays what at an Undercover table of n seats: the roles, the audience seat of the variant,
// and the composite score of CK-Arena (0.75·win + 0.15·survival + 0.10·voting accuracy).
export type Role = 'civilian' | 'undercover' | 'audience';
export type Team = 'civilian' | 'undercover';

export const MIN_SEATS = 2;
export const MAX_SEATS = 10;
export const DEFAULT_SEATS = 6;

/** Undercover players among `players` speakers: a third, at least one (6 → 2, as CK-Arena's 4 + 2). */
export function undercoverCount(players: number): number {
  return Math.max(1, Math.floor(players / 3));
}

/** The composite score of one seat (CK-Arena): win, survival and voting accuracy, each in [0, 1]. */
export function compositeScore(win: number, survival: number, accuracy: number): number {
  return 0.75 * win + 0.15 * survival + 0.1 * accuracy;
}

/** A vote is correct when it names the other team: civilians and the audience name undercover players, undercover players civilians. */
export function voteCorrect(voter: Role, target: Role): boolean {
  return voter === 'undercover' ? target === 'civilian' : target === 'undercover';
}

/** The team a role wins with (the audience wins when the civilians do). */
export const teamOf = (role: Role): Team => (role === 'undercover' ? 'undercover' : 'civilian');
