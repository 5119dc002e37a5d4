// Rebuilds a game's state from its replay, so reports can show CATArena's final_state without
// having kept the live game: the same seeded init the runner used, then every recorded action,
// decoded by the game's wire adapter. A null action is the failing request that ended the game;
// nothing was played then. The caller passes the game's adapter (a game's own report writer, its
// own; everyone else, the registry's: games/replay.ts).
import type { Replay } from '../../records/match.ts';
import { initSetup } from './game.ts';
import { createRng } from '../../util/rng.ts';
import type { WireAdapter } from './wire.ts';

/** The game's own state after the replay's moves. */
export function replayStateWith<S, A>(wire: WireAdapter<S, A>, replay: Replay): S {
  const { spec } = replay.result;
  const { game } = wire;
  let state = game.init(spec.variant, createRng(spec.seed), initSetup(spec));
  for (const move of replay.moves) {
    if (move.action === null) continue;
    state = game.apply(state, move.seat, wire.decode(move.action));
  }
  return state;
}
