// What `catarena probe` counts as an endgame state and as the same action (docs/probe.md). A game
// says its own in its descriptor's `probe`; a game that says nothing gets the default: the last
// 10 decisions of each game, actions equal when their encodings are.
import type { Seat } from '../../records/match.ts';
import { stableStringify } from '../../util/content-id.ts';
import type { WireAdapter } from './wire.ts';

export interface ProbeRules {
  /** The endgame definition and the action key, in words (written with the results). */
  endgame: string;
  actionKey: string;
  /** Whether the decision due before move `ply` (of `plies` in the game), in `state`, is an endgame decision point. */
  isEndgame(state: unknown, ply: number, plies: number): boolean;
  /** Where in the game the decision is, for people. */
  where(state: unknown, ply: number, plies: number): string;
  /** The action's comparison key: equal keys = the same action. */
  key(adapter: WireAdapter<unknown, unknown>, state: unknown, seat: Seat, action: unknown): string;
}

/** Decisions within the last LAST_PLIES moves of a game (Gomoku, chess, and the default). */
export const LAST_PLIES = 10;

/** The same action = the same encoding. */
export const encodedKey: ProbeRules['key'] = (adapter, _state, _seat, action) =>
  stableStringify(adapter.encode(action));

export const DEFAULT_PROBE_RULES: ProbeRules = {
  endgame: `the decisions of the last ${LAST_PLIES} moves of each game`,
  actionKey: 'the action as the game encodes it (the same move = the same action)',
  isEndgame: (_state, ply, plies) => ply >= plies - LAST_PLIES,
  where: (_state, ply, plies) => `ply ${ply + 1} of ${plies}`,
  key: encodedKey,
};
