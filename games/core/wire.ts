// The wire-protocol adapter of a game: translates between the pure state and CATArena's bot
// protocol, and serves the game-server API bots may call back into. Rules never see bot JSON;
// adapters never decide who won (except for the forfeit a policy prescribes).
import type { FailureKind, ForfeitPolicy, Seat } from '../../records/match.ts';
import { drawOf, winFor, type Game, type Outcome } from './game.ts';
import type { Rng } from '../../util/rng.ts';

/** One HTTP call to a bot: POST path with a JSON body (with `form`, a flat record sent form-encoded). */
export interface WireCall {
  path: string;
  body: unknown;
  form?: boolean;
}

/** What the adapter learns of a call that failed with an HTTP status (for CATArena's retries). */
export interface HttpFailure {
  status?: number;
  /** The start of the answer's body. */
  text?: string;
}

/**
 * A bot's answer as an action, or why it is none. `catarena` says how CATArena's arena treated the
 * answer where that differs from `kind` (a malformed move it forwarded to its server, which
 * rejected it like an illegal one): the `catarena` forfeit policy resolves by it.
 */
export type ParseResult<A> =
  | { ok: true; action: A }
  | { ok: false; kind: 'malformed' | 'illegal'; message: string; catarena?: FailureKind };

/** What a failure turns into: the game ends with an outcome, or a default action is played. */
export type FailureResolution<A> = { end: Outcome } | { action: A };

export interface TurnContext {
  /** The id the bot sees (CATArena shape, e.g. gomoku_1a2b3c4d). */
  gameId: string;
  /** Where the bot can reach the game-server API for this game. */
  gameServerUrl: string;
  /** Per-match protocol options (e.g. chess's `algorithm` field). */
  options?: Record<string, string | number>;
  /** The strategy id per seat (Hold'em uses them as player ids). */
  seatIds?: readonly string[];
}

export interface WireAdapter<S, A> {
  readonly game: Game<S, A, unknown>;
  /** Prefix of server game ids ('gomoku_'), or one per variant ('chess_' / 'chess_magic_'). */
  readonly idPrefix: string | Record<string, string>;
  /** The CATArena game-server port bots may hard-code, per variant. */
  readonly catarenaServerPort: Record<string, number>;
  /** Health check kind for bots of this game. */
  readonly health: { kind: 'http'; path: string; statuses?: string[] } | { kind: 'tcp' };
  join?(state: S, seat: Seat, ctx: TurnContext): WireCall;
  turn(state: S, seat: Seat, ctx: TurnContext): WireCall;
  parse(body: unknown, state: S, seat: Seat): ParseResult<A>;
  /**
   * The answer a bot would send for an action (the inverse of `parse`): how the human seat
   * (orchestrator/human/) answers the runner's turn call with what the person chose.
   */
  answer?(action: A, state: S, seat: Seat): unknown;
  leave?(state: S, seat: Seat, ctx: TurnContext): WireCall;
  /**
   * CATArena's second attempt at a join the bot refused (Bridge: a 400 whose text says "Missing"
   * is retried once as a form post with the fields in the query): the call, or null for none.
   */
  retryJoin?(failure: HttpFailure, state: S, seat: Seat, ctx: TurnContext): WireCall | null;
  /**
   * CATArena's second attempt at a turn answered with an HTTP error (Bridge: once more with a
   * minimal body); its answer is read by `parseRetry`. Within the same move deadline.
   */
  retryTurn?(state: S, seat: Seat, ctx: TurnContext): WireCall;
  parseRetry?(body: unknown, state: S, seat: Seat): ParseResult<A>;
  /** A join that fails: how the game ends, or null to play on (CATArena's bridge ignores it). */
  onJoinFailure(state: S, seat: Seat, policy: ForfeitPolicy): Outcome | null;
  /** Seats in the order join_game is called (default: seat order). */
  readonly joinOrder?: readonly Seat[];
  /** A turn that fails (timeout, HTTP error, malformed, illegal, crash) under a policy. */
  onFailure(state: S, seat: Seat, failure: FailureKind, policy: ForfeitPolicy): FailureResolution<A>;
  /**
   * Games that seat many players replace a bot that never started by a stand-in playing this
   * action (Hold'em: always fold) instead of ending the game; the seat is flagged in the result.
   */
  standIn?(state: S, seat: Seat): A;
  /** The action as it appears in replays and game-server history (JSON). */
  encode(action: A): unknown;
  /**
   * The action from its encoding (a replay's recorded action), so that applying it plays what was
   * played; throws on a value `encode` cannot have written.
   */
  decode(encoded: unknown): A;
  /** Setup worth recording in a replay without re-running (forbidden cells, a deal …). */
  setup?(state: S): unknown;
  /** The game-server API (CATArena shapes) for this game's live games. */
  readonly server: GameServerRoutes<S>;
}

/** A live game as the game-server API sees it. */
export interface LiveGame<S = unknown> {
  id: string;
  variant: string;
  state: S;
  /** Moves in order, with ISO timestamps (CATArena's history shape is built from this). */
  history: Array<{ seat: Seat; action: unknown; timestamp: string }>;
  /** The strategy id per seat, where the game shows them to bots (Hold'em player ids). */
  seatIds?: readonly string[];
  /** Games the arena plays reject moves posted by others; self-play games accept them. */
  managedByArena: boolean;
  createdAt: string;
}

export interface RouteReply {
  status: number;
  body: unknown;
}

/**
 * Whose private state one game-server request may read: the seats its caller holds in the game.
 * The game server knows them from the sandbox that relayed the request (orchestrator/game-server/
 * seat-ledger.ts), never from the request's query or body, which only name the seat asked for.
 */
export interface Viewer {
  /** The caller holds `seat`: its private state may be served (no record is made either way). */
  holds(seat: Seat): boolean;
  /**
   * The request names `seat` to read its private state: `holds(seat)`; when false the request is
   * recorded against the caller (hidden_info_request), and the route serves the public view, or
   * 403 where the route has nothing public to serve.
   */
  asksFor(seat: Seat): boolean;
}

/** A request nobody vouched for in a game it holds no seat of: the public view only. */
export const SPECTATOR: Viewer = { holds: () => false, asksFor: () => false };
/** The creator of a self-play game: every seat is theirs. */
export const EVERY_SEAT: Viewer = { holds: () => true, asksFor: () => true };

/** Game-specific routes under /games/{id}/… plus game creation for self-play. */
export interface GameServerRoutes<S> {
  /**
   * The game's routes serve some seat's private state (cards, words, roles): the server then
   * records a seat whose bot it cannot vouch for as `hidden_info_not_enforced`. Absent for games
   * with nothing private (Gomoku, Chess).
   */
  readonly hidesInformation?: boolean;
  /**
   * The state of a self-play game from POST /games's body (Bridge: seed, board_id); without it
   * the server calls `game.init(variant, rng)`. Throwing answers 400 with the message.
   */
  create?(body: unknown, variant: string, rng: Rng): S;
  /** Reply for POST /games (self-play games created by bots or agents during development). */
  created(game: LiveGame<S>, body?: unknown): RouteReply;
  /**
   * GET|POST /games/{id}/<sub>?<query>; null → 404 Endpoint not found. `viewer` (default: a
   * spectator) says which seats' private state this request may read.
   */
  route(
    game: LiveGame<S>,
    method: string,
    sub: string,
    body: unknown,
    query: URLSearchParams,
    viewer?: Viewer,
  ): RouteReply | null;
  /** Extra fields of GET /health. */
  healthExtras?(variant: string): Record<string, unknown>;
}

/**
 * The forfeit rules of two-player games where CATArena's arena turns an illegal move into an
 * "error" draw (Gomoku, Chess): under `catarena` that draw, otherwise the failing seat loses.
 */
export const twoPlayerForfeits = {
  onJoinFailure: (_state: unknown, seat: Seat): Outcome => winFor(seat === 0 ? 1 : 0, 'join_failed'),
  onFailure(_state: unknown, seat: Seat, failure: FailureKind, policy: ForfeitPolicy): { end: Outcome } {
    if (policy === 'catarena' && failure === 'illegal') return { end: drawOf('error') };
    return { end: winFor(seat === 0 ? 1 : 0, failure) };
  },
};

/** What a decode throws for a value its game's encode cannot have written. */
export function undecodable(game: string, encoded: unknown): Error {
  return new Error(`not a recorded ${game} action: ${JSON.stringify(encoded)?.slice(0, 200)}`);
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
