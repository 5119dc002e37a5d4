// Matches are data: a MatchSpec goes in, a MatchResult comes out. Both are JSON; the spec's id is
// a hash of its content, so a journal can tell which specs already have results.
import { contentId } from '../util/content-id.ts';

/** A seat at a game, 0-based in the game's seat order (black = 0, white = 1 …). */
export type Seat = number;

/** Why a seat failed to produce a legal action. */
export type FailureKind = 'timeout' | 'http_error' | 'malformed' | 'illegal' | 'crash';

/** `strict` (default): every failure loses; `catarena`: CATArena's exact outcomes. */
export type ForfeitPolicy = 'strict' | 'catarena';

export interface MatchLimits {
  /** Per-move deadline; the request is aborted when it passes. */
  moveMs: number;
  /** Deadline for join_game / leave_game calls. */
  joinMs: number;
  /** Largest bot answer accepted, in bytes. */
  maxResponseBytes: number;
  /** Per-move deadlines of particular strategies (by id) instead of `moveMs`: a human seat's, LLM-players' own (the paper's Table 6). */
  seatMoveMs?: Record<string, number>;
}

export const DEFAULT_LIMITS: MatchLimits = { moveMs: 10_000, joinMs: 5_000, maxResponseBytes: 1 << 20 };

/**
 * How long a bot may take to start and answer its health check, unless a config or flag says
 * otherwise: the one default the sandboxes, the tourney config and `play` share.
 */
export const BOT_START_TIMEOUT_MS = 20_000;

export interface MatchSpec {
  game: string;
  variant: string;
  /** Strategy id per seat (seat 0 = black / white for chess …). */
  seats: string[];
  seed: number;
  limits: MatchLimits;
  policy: ForfeitPolicy;
  /** Protocol options passed to the adapter (chess: {algorithm: 'simple'}). */
  options?: Record<string, string | number>;
  /** Grouping for analysis: colour-swapped games of one pairing share `pairing`. */
  pairing?: string;
  rep?: number;
  /** Batch tables (Hold'em): which table series, table round and table this game is. */
  batch?: { kind: 'own' | 'round' | 'field'; label: string; round: number; table: number };
  /** Duplicate matches (Bridge): the match, its two teams (A first), the board and the room. */
  duplicate?: { match: string; teams: [string, string]; board: number; boards: number; room: 'open' | 'closed' };
}

/** How a game ended: `normal` when the rules ended it, else the failure that did. */
export type Termination = 'normal' | FailureKind | 'join_failed';

export interface MoveRecord {
  ply: number;
  seat: Seat;
  /** The action played (encoded), or null when the seat failed. */
  action: unknown;
  latencyMs: number;
  /** Present when the bot's answer failed and a fallback decided. */
  error?: { kind: FailureKind; message: string };
  /** The HTTP error after which the move was asked again, as CATArena's arena does (Bridge). */
  retriedAfter?: string;
  /** True when a stand-in played for a bot that never started (no request was made). */
  standIn?: boolean;
}

export interface SeatStats {
  moves: number;
  totalMs: number;
  maxMs: number;
  errors: Partial<Record<FailureKind | 'join_failed', number>>;
  /**
   * The join requests the runner sent this seat's bot (its retry included: Bridge asks a join
   * refused with "Missing …" once more), in a game with a join step; 0 for a seat never asked
   * (the game ended first). Absent in a game without joins and in results recorded before.
   */
  joins?: number;
}

export interface MatchResult {
  id: string;
  spec: MatchSpec;
  /** The id the bots saw (gomoku_xxxxxxxx). */
  serverGameId: string;
  scores: number[];
  winner: Seat | null;
  termination: Termination;
  /** The rules' reason ('five_in_row') or the failure's message. */
  reason: string;
  /** The seat whose failure ended the game, if any. */
  offender: Seat | null;
  /** Finishing place per seat (1 = best) for games of more than two seats. */
  places?: number[];
  /** Game-specific facts (Hold'em: final chips). */
  detail?: Record<string, unknown>;
  /** Seats played by a stand-in because their bot never started (flagged, Hold'em). */
  standIns?: Array<{ seat: Seat; reason: string }>;
  plies: number;
  seatStats: SeatStats[];
  startedAt: string;
  durationMs: number;
  /** The sandbox kind the bots ran in (process, docker), as the executor that played it knew. */
  sandbox?: string;
  /** Set when `--reuse` copied this result from an earlier run (that run's id). */
  reusedFrom?: string;
  /**
   * What catarena saw a seat's bot attempt against the game's integrity (a request for another
   * seat's private state, a sandbox limit that killed it), or could not enforce; the reports name
   * each against the seat's strategy. Absent when nothing was seen.
   */
  integrity?: IntegrityEvent[];
}

/** One kind of attempt (or unenforced rule) seen for one seat in one game. */
export interface IntegrityEvent {
  seat: Seat;
  /**
   * `hidden_info_request`: asked the game server for a seat's private state it does not hold;
   * `hidden_info_not_enforced`: the seat's bot could only be served by trusting the name it sent;
   * `sandbox_limit`: its bot hit a sandbox limit (processes, memory, file size, CPU time) and was
   * stopped; `sandbox_escape`: a process of its bot outlived its game and was killed.
   */
  kind: 'hidden_info_request' | 'hidden_info_not_enforced' | 'sandbox_limit' | 'sandbox_escape';
  /** How many times in this game. */
  count: number;
  /** One example, for the report ("GET /games/holdem_1a2b/state?player_id=3"). */
  detail: string;
}

/** Everything needed to replay and inspect one game. */
export interface Replay {
  result: MatchResult;
  /** Game-specific setup worth seeing without re-running (forbidden cells, deal …). */
  setup: unknown;
  moves: MoveRecord[];
}

export function matchId(spec: MatchSpec): string {
  return contentId(spec, 20);
}
