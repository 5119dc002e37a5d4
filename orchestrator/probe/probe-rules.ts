// What `catarena probe` counts as an endgame state and as the same action, per game, in one
// place (docs/probe.md). A game not listed here (a newly added one) gets the default: the last
// 10 decisions of each game, actions equal when their encodings are.
import type { Seat } from '../../model/match.ts';
import type { WireAdapter } from '../../games/core/wire.ts';
import type { TableState } from '../../games/holdem/table.ts';
import type { Action as HoldemAction } from '../../games/holdem/hand.ts';
import type { BridgeState } from '../../games/bridge/rules.ts';
import type { ChessState } from '../../games/chess/rules.ts';
import { stableStringify } from '../../util/content-id.ts';

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
/** Bridge: card plays from this trick on (the last six tricks). */
export const BRIDGE_FROM_TRICK = 8;

const encodedKey: ProbeRules['key'] = (adapter, _state, _seat, action) => stableStringify(adapter.encode(action));

const lastPlies: Pick<ProbeRules, 'isEndgame' | 'where'> = {
  isEndgame: (_state, ply, plies) => ply >= plies - LAST_PLIES,
  where: (_state, ply, plies) => `ply ${ply + 1} of ${plies}`,
};

const DEFAULT_RULES: ProbeRules = {
  endgame: `the decisions of the last ${LAST_PLIES} moves of each game`,
  actionKey: 'the action as the game encodes it (the same move = the same action)',
  ...lastPlies,
  key: encodedKey,
};

/** Raise buckets: the raise's size above the current bet as a fraction of the pot before it. */
export const RAISE_BUCKETS: Array<{ upTo: number; name: string }> = [
  { upTo: 0.5, name: 'raise:<=0.5pot' },
  { upTo: 1, name: 'raise:0.5-1pot' },
  { upTo: 2, name: 'raise:1-2pot' },
  { upTo: Infinity, name: 'raise:>2pot' },
];

/**
 * Hold'em: fold, check, call, all_in, or raise with its bucket. A raise or call that puts in the
 * seat's whole stack is all_in (the same chips move).
 */
export function holdemKey(state: TableState, seat: Seat, action: HoldemAction): string {
  const h = state.hand;
  const p = h.seats[seat]!;
  if (action.action === 'call' && h.currentBet - p.streetBet >= p.stack) return 'all_in';
  if (action.action !== 'raise') return action.action;
  if (action.amount! >= p.stack + p.streetBet) return 'all_in';
  const pot = h.seats.reduce((sum, s) => sum + s.committed, 0);
  const fraction = pot > 0 ? (action.amount! - h.currentBet) / pot : Infinity;
  return RAISE_BUCKETS.find((b) => fraction <= b.upTo)!.name;
}

const RULES: Record<string, ProbeRules> = {
  gomoku: DEFAULT_RULES,
  // The position the move leads to: castling given as king-to-square (e1g1) or king-takes-rook (e1h1) is one move.
  chess: {
    ...DEFAULT_RULES,
    actionKey: 'the position after the move (FEN), so both UCI spellings of a castling are the same action',
    key: (adapter, state, seat, action) => (adapter.game.apply(state, seat, action) as ChessState).fen,
  },
  holdem: {
    endgame: 'the decisions on the turn and the river (the last streets of a hand), of every hand of the table, with the cards that seat saw',
    actionKey: `the action class (fold, check, call, all_in, raise) and for a raise its size above the current bet as a fraction of the pot: ${RAISE_BUCKETS.map((b) => b.name).join(', ')}; a raise or call of the whole stack is all_in`,
    isEndgame: (state) => {
      const street = (state as TableState).hand.street;
      return street === 'turn' || street === 'river';
    },
    where: (state) => `${(state as TableState).hand.street}, hand ${(state as TableState).handNumber}`,
    key: (_adapter, state, seat, action) => holdemKey(state as TableState, seat, action as HoldemAction),
  },
  bridge: {
    endgame: `the card plays of the last ${14 - BRIDGE_FROM_TRICK} tricks of a board (trick ${BRIDGE_FROM_TRICK} on), with the cards that seat saw (its hand, dummy's once shown, the tricks played)`,
    actionKey: 'the card played',
    isEndgame: (state) => {
      const s = state as BridgeState;
      return s.phase === 'playing' && s.tricks.length >= BRIDGE_FROM_TRICK - 1;
    },
    where: (state) => `trick ${(state as BridgeState).tricks.length + 1}, card ${(state as BridgeState).trick.length + 1}`,
    key: encodedKey,
  },
};

export function probeRulesFor(game: string): ProbeRules {
  return RULES[game] ?? DEFAULT_RULES;
}
