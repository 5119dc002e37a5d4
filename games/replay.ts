// Rebuilds a game's final position from its replay, so reports can show CATArena's final_state
// without having kept the live game: the same seeded init the runner used, then every action that
// was played. A null action is the failing request that ended the game; nothing was played then.
import type { Replay } from '../model/match.ts';
import { initSetup } from './core/game.ts';
import { createRng } from './core/rng.ts';
import { gameDescriptor } from './registry.ts';

/** The game's own state after the replay's moves. */
export function replayState(replay: Replay): unknown {
  const { spec } = replay.result;
  const game = gameDescriptor(spec.game).wire.game;
  let state = game.init(spec.variant, createRng(spec.seed), initSetup(spec));
  for (const move of replay.moves) {
    if (move.action === null) continue;
    // Recorded actions are the adapter's encoding; for Gomoku and chess (UCI text) that is the
    // action itself. A game whose encoding differs needs a decode step before it can have a
    // stateBody in its descriptor.
    state = game.apply(state, move.seat, move.action);
  }
  return state;
}

/** The final state in CATArena's shape (the report's final_state), or null for games without one. */
export function finalState(replay: Replay): unknown {
  const { stateBody } = gameDescriptor(replay.result.spec.game);
  return stateBody ? stateBody(replayState(replay)) : null;
}
