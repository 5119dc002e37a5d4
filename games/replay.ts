// A replay's states for callers that know the game only by id (tests, tools): the registry's
// adapter and games/core/replay.ts. A game's own modules call replayStateWith with their adapter.
import type { Replay } from '../records/match.ts';
import { replayStateWith } from './core/replay.ts';
import { gameDescriptor } from './registry.ts';

/** The game's own state after the replay's moves. */
export function replayState(replay: Replay): unknown {
  return replayStateWith(gameDescriptor(replay.result.spec.game).wire, replay);
}

/** The final state in CATArena's shape (the report's final_state), or null for games without one. */
export function finalState(replay: Replay): unknown {
  const { stateBody } = gameDescriptor(replay.result.spec.game);
  return stateBody ? stateBody(replayState(replay)) : null;
}
