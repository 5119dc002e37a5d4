// A game in flight as its replay viewer draws it: the moves so far as a partial Replay, through
// the game's own viewer data (games/<game>/viewer/data.ts). The human seat's page and
// `catarena serve`'s live boards both draw the last step of it.
import type { ViewerData, ViewerPerspective } from '../../games/core/viewer.ts';
import type { MatchSpec, MoveRecord, Replay, Seat } from '../../records/match.ts';
import { viewerDataOf } from './replay-page.ts';

export interface LiveGameView {
  id: string;
  gameId: string;
  spec: MatchSpec;
  setup: unknown;
  moves: MoveRecord[];
  ended?: { scores: number[]; winner: Seat | null; termination: string; reason: string };
}

/**
 * The viewer data of a game so far; `status` replaces the result line while it runs. With a
 * `perspective`, it is drawn as those seats may see it (games/core/viewer.ts): the caller gives
 * none once the game may be shown in full. Null for a game without a viewer (or one it cannot draw yet).
 */
export async function liveViewerData(
  game: LiveGameView,
  status = 'in progress',
  perspective?: ViewerPerspective,
): Promise<ViewerData | null> {
  const { spec } = game;
  const replay: Replay = {
    result: {
      id: game.id,
      spec,
      serverGameId: game.gameId,
      scores: game.ended?.scores ?? spec.seats.map(() => 0),
      winner: game.ended?.winner ?? null,
      termination: (game.ended?.termination ?? 'normal') as Replay['result']['termination'],
      reason: game.ended?.reason ?? 'in progress',
      offender: null,
      plies: game.moves.length,
      seatStats: [],
      startedAt: '',
      durationMs: 0,
    },
    setup: game.setup,
    moves: game.moves,
  };
  const data = await viewerDataOf(replay, perspective).catch(() => null);
  if (data && !game.ended) data.result = status;
  return data;
}
