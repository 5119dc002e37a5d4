// Rebuilds a game's final position from its replay, so reports can show CATArena's final_state
// without having kept the live game: the same seeded init the runner used, then every action that
// was played. A null action is the failing request that ended the game; nothing was played then.
import { createRng } from '../games/core/rng.ts';
import { adapterFor } from '../games/registry.ts';
import type { ChessState } from '../games/chess/rules.ts';
import { stateBody as chessStateBody } from '../games/chess/wire.ts';
import { stateBody as gomokuStateBody } from '../games/gomoku/wire.ts';
import type { GomokuState } from '../games/gomoku/rules.ts';
import type { Replay } from '../orchestrator/match/types.ts';
import { initSetup } from '../orchestrator/match/runner.ts';

/** The game's own state after the replay's moves. */
export function replayState(replay: Replay): unknown {
  const { spec } = replay.result;
  const game = adapterFor(spec.game).game;
  let state = game.init(spec.variant, createRng(spec.seed), initSetup(spec));
  for (const move of replay.moves) {
    if (move.action === null) continue;
    // Recorded actions are the adapter's encoding; for Gomoku and chess (UCI text) that is the
    // action itself. A game whose encoding differs needs a decode step here before it gets a state
    // body below.
    state = game.apply(state, move.seat, move.action);
  }
  return state;
}

/** CATArena's GET /games/{id}/state body per game, for the games that have one. */
const STATE_BODIES: Record<string, (state: unknown) => unknown> = {
  gomoku: (state) => gomokuStateBody(state as GomokuState),
  chess: (state) => chessStateBody(state as ChessState),
};

/** The final state in CATArena's shape (the report's final_state), or null for games without one yet. */
export function finalState(replay: Replay): unknown {
  const body = STATE_BODIES[replay.result.spec.game];
  return body ? body(replayState(replay)) : null;
}
