// CK-Arena's Elo for Undercover (its paper "Is your LLM really mastering the concept?", §3 and
// App. D; the formulas and constants as its repository's rating.py computes them,
// NonZeroSumEloRatingSystem with the team-average expectation its script selects), as catarena
// computes it over a sequence of games. Where and why catarena differs: docs/undercover.md,
// "Scores and ratings".
// * Every strategy starts at 1500 (CK-Arena: 1000; only differences enter an update, so the
//   start is an offset of every rating, nothing more).
// * Expected score from the teams' ratings before the game: a team's rating is the mean over its
//   seats; the civilians get the +120 role-balance offset (rating.py's default; its script passes
//   115): E_C = 1 / (1 + 10^((R_U − (R_C + 120)) / 400)), E_U = 1 − E_C.
// * Actual score per seat: the composite 0.75·win + 0.15·survival + 0.10·voting accuracy, where
//   win = the seat's team won; survival = 1 if still in at the end, else (r − 1) / R with r the
//   round the seat went out in and R the rounds played; voting accuracy = correct ballots /
//   max(1, ballots cast in the rounds before the seat went out), a ballot being correct when it
//   names the other team (lost ballots count as cast and wrong).
// * K decays with the strategy's own count g of games rated before this one:
//   K(g) = 5 + 55·exp(−⌊g/12⌋ / 2.5).
// * A seat moves by K·(S − E); a strategy on several seats of one game moves once, by the mean
//   of its seats' moves, and its count g grows by one.
// The variant's audience seat is on no team: it is not rated and does not count in a team's mean.
import { compositeScore, teamOf, voteCorrect, type Role, type Team } from './roles.ts';

export const ELO_START = 1500;
export const ROLE_BIAS = 120;
/** K(g) = K_MIN + (K_MAX − K_MIN)·exp(−⌊g / K_STEP⌋ / K_TAU) (rating.py's get_k_factor). */
export const K_MAX = 60;
export const K_MIN = 5;
export const K_TAU = 2.5;
export const K_STEP = 12;

/** K for a strategy that has had `gamesPlayed` rated games before this one. */
export function kFactor(gamesPlayed: number): number {
  return K_MIN + (K_MAX - K_MIN) * Math.exp(-Math.floor(Math.max(0, gamesPlayed) / K_STEP) / K_TAU);
}

export function civilianExpectation(civilians: number, undercover: number): number {
  return 1 / (1 + 10 ** ((undercover - (civilians + ROLE_BIAS)) / 400));
}

/** What the update needs of one game, per seat. */
export interface TeamGame {
  /** Strategy id per seat. */
  seats: readonly string[];
  roles: readonly Role[];
  winner: Team;
  /** CK-Arena's survival per seat (seatTerms). */
  survival: readonly number[];
  /** CK-Arena's voting accuracy per seat (seatTerms). */
  accuracy: readonly number[];
}

/** A game's recorded history as far as the actual score needs it (UndercoverState has all of it). */
export interface RatedHistory {
  roles: readonly Role[];
  winner: Team;
  /** Rounds played (the round the game ended in). */
  rounds: number;
  eliminated: ReadonlyArray<{ seat: number; round: number }>;
  ballots: ReadonlyArray<{ round: number; voter: number; target: number | null }>;
}

/** CK-Arena's win, survival and voting accuracy per seat (the audience gets zeros; it is not rated). */
export function seatTerms(h: RatedHistory): Array<{ win: number; survival: number; accuracy: number }> {
  return h.roles.map((role, seat) => {
    if (role === 'audience') return { win: 0, survival: 0, accuracy: 0 };
    const out = h.eliminated.find((e) => e.seat === seat)?.round ?? null;
    const counted = h.ballots.filter((b) => b.voter === seat && (out === null || b.round < out));
    const correct = counted.filter((b) => b.target !== null && voteCorrect(role, h.roles[b.target]!)).length;
    return {
      win: teamOf(role) === h.winner ? 1 : 0,
      survival: out === null ? 1 : (out - 1) / Math.max(h.rounds, 1),
      accuracy: correct / Math.max(counted.length, 1),
    };
  });
}

/** The update's view of one game from its seats and recorded history. */
export function teamGameOf(seats: readonly string[], h: RatedHistory): TeamGame {
  const terms = seatTerms(h);
  return {
    seats,
    roles: h.roles,
    winner: h.winner,
    survival: terms.map((t) => t.survival),
    accuracy: terms.map((t) => t.accuracy),
  };
}

export interface EloState {
  rating: Record<string, number>;
  /** Rated games per strategy (the g of K(g)). */
  played: Record<string, number>;
}

/** Ratings and rated-game counts after the games, in order, from `start` (default: none rated). */
export function teamEloState(games: readonly TeamGame[], start: Partial<EloState> = {}): EloState {
  const rating: Record<string, number> = { ...start.rating };
  const played: Record<string, number> = { ...start.played };
  const get = (id: string) => rating[id] ?? ELO_START;
  for (const g of games) {
    const team = (t: Team) => g.seats.filter((_, seat) => g.roles[seat] === t);
    const civ = team('civilian');
    const spy = team('undercover');
    if (!civ.length || !spy.length) continue;
    const mean = (ids: string[]) => ids.reduce((a, id) => a + get(id), 0) / ids.length;
    const eC = civilianExpectation(mean(civ), mean(spy));
    const moves = new Map<string, number[]>();
    g.seats.forEach((id, seat) => {
      const role = g.roles[seat]!;
      if (role === 'audience') return;
      const s = compositeScore(teamOf(role) === g.winner ? 1 : 0, g.survival[seat]!, g.accuracy[seat]!);
      const e = role === 'civilian' ? eC : 1 - eC;
      const k = kFactor(played[id] ?? 0);
      moves.set(id, [...(moves.get(id) ?? []), k * (s - e)]);
    });
    // All moves come from the ratings before the game; then each strategy moves once.
    for (const [id, ds] of moves) {
      rating[id] = get(id) + ds.reduce((a, d) => a + d, 0) / ds.length;
      played[id] = (played[id] ?? 0) + 1;
    }
  }
  return { rating, played };
}

/** Ratings per strategy id after the games, in order. */
export function teamElo(games: readonly TeamGame[], start: Partial<EloState> = {}): Record<string, number> {
  return teamEloState(games, start).rating;
}
