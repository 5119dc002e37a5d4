// CK-Arena's team Elo for Undercover, as catarena computes it over a sequence of games:
// * every strategy starts at 1500;
// * a game's teams are its civilian seats and its undercover seats (the variant's audience seat is
//   no team member and keeps its rating); a team's rating is the mean of its members' ratings;
// * the civilians' expected score carries the role-bias offset: E_C = 1 / (1 + 10^((R_U − (R_C + 120)) / 400)),
//   E_U = 1 − E_C (civilians, the majority, win more often by the rules: beating that is no skill);
// * K decays per batch of 12 games: K(n) = 5 + 55·exp(−⌊n/12⌋ / 2.5), n = games rated before this one;
// * every member of a team moves by K·(S − E) with S = 1 for the winning team, 0 for the other,
//   all from the ratings before the game.
import type { Role, Team } from './roles.ts';

export const ELO_START = 1500;
export const ROLE_BIAS = 120;

export function kFactor(gamesBefore: number): number {
  return 5 + 55 * Math.exp(-Math.floor(gamesBefore / 12) / 2.5);
}

export interface TeamGame {
  /** Strategy id per seat. */
  seats: readonly string[];
  roles: readonly Role[];
  winner: Team;
}

export function civilianExpectation(civilians: number, undercover: number): number {
  return 1 / (1 + 10 ** ((undercover - (civilians + ROLE_BIAS)) / 400));
}

/** Ratings per strategy id after the games, in order. */
export function teamElo(games: readonly TeamGame[], start: Record<string, number> = {}): Record<string, number> {
  const rating: Record<string, number> = { ...start };
  const get = (id: string) => rating[id] ?? ELO_START;
  games.forEach((g, n) => {
    const team = (t: Team) => g.seats.filter((_, seat) => g.roles[seat] === t);
    const civ = team('civilian');
    const spy = team('undercover');
    if (!civ.length || !spy.length) return;
    const mean = (ids: string[]) => ids.reduce((a, id) => a + get(id), 0) / ids.length;
    const eC = civilianExpectation(mean(civ), mean(spy));
    const k = kFactor(n);
    const sC = g.winner === 'civilian' ? 1 : 0;
    const delta = new Map<string, number>();
    for (const id of civ) delta.set(id, (delta.get(id) ?? 0) + k * (sC - eC));
    for (const id of spy) delta.set(id, (delta.get(id) ?? 0) + k * (1 - sC - (1 - eC)));
    for (const [id, d] of delta) rating[id] = get(id) + d;
  });
  return rating;
}
