// Games in flight, as the match runner sees them: one event when a game starts, one per move,
// one when it ends. The runner emits them to an optional observer (RunMatchOptions.onLive); the
// run directory appends them to live.jsonl for `catarena serve`, and the human seat reads them
// in-process to show its page the board. `state` is the rules' state, in-process only: it is
// never written (a live.jsonl line carries the spec and the move records, enough to rebuild it).
import type { MatchSpec, MoveRecord, Seat } from './match.ts';

export type LiveEvent =
  | { type: 'start'; id: string; gameId: string; spec: MatchSpec; setup: unknown; at: string; state?: unknown }
  | { type: 'move'; id: string; gameId: string; move: MoveRecord; at: string; state?: unknown }
  | { type: 'turn'; id: string; gameId: string; seat: Seat; deadlineMs: number; at: string; state?: unknown }
  | {
      type: 'end';
      id: string;
      gameId: string;
      scores: number[];
      winner: Seat | null;
      termination: string;
      reason: string;
      at: string;
    };

export type LiveListener = (event: LiveEvent) => void;
