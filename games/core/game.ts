// The pure game interface (OpenSpiel / boardgame.io style). A game knows its rules and nothing
// else: no I/O, no clock, no global randomness. Randomness enters only through init's Rng and is
// then part of the state, so apply() is deterministic.
import type { MatchSpec, Seat } from '../../records/match.ts';
import type { Rng } from '../../util/rng.ts';

export interface Outcome {
  /** Per-seat score in [0, 1] (win 1, draw 0.5, loss 0 for two-player games). */
  scores: number[];
  /** Why the game ended, in the rules' words: 'five_in_row', 'two_triplets', 'board_full' … */
  reason: string;
  /** The winning seat, or null for a draw / no single winner. */
  winner: Seat | null;
  /**
   * Finishing place per seat (1 = best; equal places tie) for games of more than two seats, where
   * `scores` alone cannot say who finished ahead of whom (Hold'em: the pairwise projection into W).
   */
  places?: number[];
  /** Game-specific facts worth keeping with the result (Hold'em: final chips, hands played). */
  detail?: Record<string, unknown>;
}

/** How a match sets a game up beyond its variant: the number of seats and per-match options. */
export interface GameSetup {
  seats?: number;
  options?: Record<string, string | number>;
}

/** What Game.init needs beyond the variant: the seat count and the match options. */
export function initSetup(spec: Pick<MatchSpec, 'seats' | 'options'>): GameSetup {
  return { seats: spec.seats.length, ...(spec.options ? { options: spec.options } : {}) };
}

export interface Game<S, A, V = S> {
  readonly id: string;
  readonly variants: readonly string[];
  /** Seat names in seat order, as the wire protocol calls them ('black', 'white'). */
  seatNames(variant: string): readonly string[];
  /** A new game; `setup` matters only to games with a variable seat count or match options. */
  init(variant: string, rng: Rng, setup?: GameSetup): S;
  /** The seat to act, or null when the game is over. */
  toMove(state: S): Seat | null;
  /** Null when the action is legal, else a short reason ('occupied', 'forbidden' …). */
  validate(state: S, seat: Seat, action: A): string | null;
  /** Legal actions where enumerable (used by random bots, validators and tests). */
  legalActions(state: S, seat: Seat): A[];
  /** Applies a legal action, returning the new state. Throws on an illegal one. */
  apply(state: S, seat: Seat, action: A): S;
  /** The result once the game is over, null while it is running. */
  outcome(state: S): Outcome | null;
  /** What a seat may see (identity for perfect-information games). */
  view(state: S, seat: Seat): V;
}

// biome-ignore lint/suspicious/noExplicitAny: any game's types
export type AnyGame = Game<any, any, any>;

/** Two-player result helpers. */
export function winFor(seat: Seat, reason: string): Outcome {
  return { scores: seat === 0 ? [1, 0] : [0, 1], reason, winner: seat };
}
export function drawOf(reason: string, seats = 2): Outcome {
  return { scores: Array(seats).fill(0.5), reason, winner: null };
}
