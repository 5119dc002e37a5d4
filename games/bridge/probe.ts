// What `catarena probe` counts as a Bridge endgame decision: the card plays of a board's last six
// tricks. The same action is the same card.
import { encodedKey, type ProbeRules } from '../core/probe.ts';
import type { BridgeState } from './rules.ts';

/** Card plays from this trick on (the last six tricks). */
export const BRIDGE_FROM_TRICK = 8;

export const bridgeProbe: ProbeRules = {
  endgame: `the card plays of the last ${14 - BRIDGE_FROM_TRICK} tricks of a board (trick ${BRIDGE_FROM_TRICK} on), with the cards that seat saw (its hand, dummy's once shown, the tricks played)`,
  actionKey: 'the card played',
  isEndgame: (state) => {
    const s = state as BridgeState;
    return s.phase === 'playing' && s.tricks.length >= BRIDGE_FROM_TRICK - 1;
  },
  where: (state) =>
    `trick ${(state as BridgeState).tricks.length + 1}, card ${(state as BridgeState).trick.length + 1}`,
  key: encodedKey,
};
