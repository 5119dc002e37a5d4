// What `catarena probe` counts as the same chess move: the position the move leads to, so castling
// given as king-to-square (e1g1) or king-takes-rook (e1h1) is one move. Endgame: the default.
import { DEFAULT_PROBE_RULES, type ProbeRules } from '../core/probe.ts';
import type { ChessState } from './rules.ts';

export const chessProbe: ProbeRules = {
  ...DEFAULT_PROBE_RULES,
  actionKey: 'the position after the move (FEN), so both UCI spellings of a castling are the same action',
  key: (adapter, state, seat, action) => (adapter.game.apply(state, seat, action) as ChessState).fen,
};
