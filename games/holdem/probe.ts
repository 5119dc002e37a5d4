// What `catarena probe` counts as a Hold'em endgame decision (the turn and the river) and as the
// same action (its class, and for a raise its size bucket).
import type { Seat } from '../../records/match.ts';
import type { ProbeRules } from '../core/probe.ts';
import type { Action } from './hand.ts';
import type { TableState } from './table.ts';

/** Raise buckets: the raise's size above the current bet as a fraction of the pot before it. */
export const RAISE_BUCKETS: Array<{ upTo: number; name: string }> = [
  { upTo: 0.5, name: 'raise:<=0.5pot' },
  { upTo: 1, name: 'raise:0.5-1pot' },
  { upTo: 2, name: 'raise:1-2pot' },
  { upTo: Infinity, name: 'raise:>2pot' },
];

/**
 * Fold, check, call, all_in, or raise with its bucket. A raise or call that puts in the seat's
 * whole stack is all_in (the same chips move).
 */
export function holdemKey(state: TableState, seat: Seat, action: Action): string {
  const h = state.hand;
  const p = h.seats[seat]!;
  if (action.action === 'call' && h.currentBet - p.streetBet >= p.stack) return 'all_in';
  if (action.action !== 'raise') return action.action;
  if (action.amount! >= p.stack + p.streetBet) return 'all_in';
  const pot = h.seats.reduce((sum, s) => sum + s.committed, 0);
  const fraction = pot > 0 ? (action.amount! - h.currentBet) / pot : Infinity;
  return RAISE_BUCKETS.find((b) => fraction <= b.upTo)!.name;
}

export const holdemProbe: ProbeRules = {
  endgame:
    'the decisions on the turn and the river (the last streets of a hand), of every hand of the table, with the cards that seat saw',
  actionKey: `the action class (fold, check, call, all_in, raise) and for a raise its size above the current bet as a fraction of the pot: ${RAISE_BUCKETS.map((b) => b.name).join(', ')}; a raise or call of the whole stack is all_in`,
  isEndgame: (state) => {
    const street = (state as TableState).hand.street;
    return street === 'turn' || street === 'river';
  },
  where: (state) => `${(state as TableState).hand.street}, hand ${(state as TableState).handNumber}`,
  key: (_adapter, state, seat, action) => holdemKey(state as TableState, seat, action as Action),
};
