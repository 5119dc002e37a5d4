// Undercover's wire protocol (CATArena has no such game; this follows its style: one POST per
// decision, JSON in and out; documented in env/develop_instruction.md):
//   POST /join   {game_id, game_server_url, player_id, seat, players, rules, word, role?, words?, audience}
//   POST /speak  {game_id, player_id, seat, word, …the public state}      → {"statement": "…"}
//   POST /vote   {game_id, player_id, seat, word, candidates, …the public state} → {"vote": <seat>}
// Failures never end the game: a speech that fails (timeout, HTTP error, crash, garbage) is no
// statement and eliminates the speaker, as a statement that fails the check does; a vote that
// fails (or names a seat it may not) is lost. The same under both forfeit policies. A join that
// fails is ignored: the bot is asked again at its turn.
// The game server shows the public history: GET /games/{id}/state (?seat=<n> adds that seat's word,
// and its role in the variant, for the bot holding seat n only; anyone else gets the public view and
// the request is recorded against the caller) and GET /games/{id}/history.
import type { Seat } from '../../records/match.ts';
import {
  isRecord,
  undecodable,
  type LiveGame,
  type ParseResult,
  type RouteReply,
  SPECTATOR,
  type TurnContext,
  type Viewer,
  type WireAdapter,
} from '../core/wire.ts';
import { playerView, undercover, voteTargets, wordOf, type UndercoverAction, type UndercoverState } from './rules.ts';
import { MAX_STATEMENT_CHARS } from './engine/statement-check.mjs';

/** Player ids per seat: the strategy ids the match gave, else player_<seat>. */
export function playerIds(seats: number, ids?: readonly string[]): string[] {
  return Array.from({ length: seats }, (_, i) => ids?.[i] ?? `player_${i}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseAnswer(body: unknown, s: UndercoverState, seat: Seat): ParseResult<UndercoverAction> {
  if (!isObject(body)) return { ok: false, kind: 'malformed', message: 'answer is not a JSON object' };
  if (s.phase === 'speak') {
    if (typeof body.statement !== 'string')
      return { ok: false, kind: 'malformed', message: 'answer has no "statement" string' };
    return { ok: true, action: { kind: 'speak', statement: cutStatement(body.statement) } };
  }
  const vote = body.vote;
  if (vote === undefined || vote === null) return { ok: false, kind: 'malformed', message: 'answer has no "vote"' };
  const target = typeof vote === 'string' && /^\d+$/.test(vote) ? Number(vote) : vote;
  const fault = undercover.validate(s, seat, { kind: 'vote', target: target as Seat });
  return fault
    ? { ok: false, kind: 'illegal', message: `vote ${JSON.stringify(vote)}: ${fault}` }
    : { ok: true, action: { kind: 'vote', target: target as Seat } };
}

/**
 * A statement over the game's limit (MAX_STATEMENT_CHARS) fails the check and eliminates its
 * speaker whatever follows; only its start is kept, with a note of its length, so a 1 MB
 * statement is neither stored (replay, round report, strategy record) nor sent to every rival
 * whole. The cut text is still over the limit, so it fails the same way (as too long; one with
 * no letter in its first characters fails as too long rather than empty).
 */
export function cutStatement(text: string): string {
  if (text.length <= MAX_STATEMENT_CHARS) return text;
  const end = /[\ud800-\udbff]/.test(text[MAX_STATEMENT_CHARS - 1]!) ? MAX_STATEMENT_CHARS - 1 : MAX_STATEMENT_CHARS;
  return `${text.slice(0, end)} … [cut by catarena: ${text.length} characters; the limit is ${MAX_STATEMENT_CHARS}]`;
}

/** The public state as `seat` sees it, with the game id and the player ids. */
function turnBody(s: UndercoverState, seat: Seat, ctx: TurnContext): Record<string, unknown> {
  const ids = playerIds(s.seats, ctx.seatIds);
  return { game_id: ctx.gameId, player_id: ids[seat], players: ids, ...playerView(s, seat) };
}

function stateRoute(g: LiveGame<UndercoverState>, query: URLSearchParams, viewer: Viewer): RouteReply {
  const asked = query.get('seat');
  const seat = asked === null ? null : Number(asked);
  if (seat !== null && (!Number.isInteger(seat) || seat < 0 || seat >= g.state.seats))
    return { status: 404, body: { error: 'Seat not found' } };
  const shown = seat !== null && viewer.asksFor(seat) ? seat : null;
  return {
    status: 200,
    body: { game_id: g.id, players: playerIds(g.state.seats, g.seatIds), ...playerView(g.state, shown) },
  };
}

export const undercoverWire: WireAdapter<UndercoverState, UndercoverAction> = {
  game: undercover,
  idPrefix: 'undercover_',
  catarenaServerPort: { standard: 9030, variant: 9031 },
  health: { kind: 'http', path: '/health' },

  join(s, seat, ctx) {
    const ids = playerIds(s.seats, ctx.seatIds);
    const role = s.roles[seat];
    return {
      path: '/join',
      body: {
        game_id: ctx.gameId,
        game_server_url: ctx.gameServerUrl,
        player_id: ids[seat],
        seat,
        players: ids,
        rules: s.variant,
        word: wordOf(s, seat),
        audience: s.audience,
        ...(s.variant === 'variant'
          ? {
              role,
              ...(role === 'audience' ? {} : { words: { civilian: s.pair.civilian, undercover: s.pair.undercover } }),
            }
          : {}),
      },
    };
  },
  turn(s, seat, ctx) {
    const body = turnBody(s, seat, ctx);
    return s.phase === 'vote'
      ? { path: '/vote', body: { ...body, candidates: voteTargets(s, seat) } }
      : { path: '/speak', body };
  },
  parse: parseAnswer,
  answer: (a) => (a.kind === 'speak' ? { statement: a.statement } : a.kind === 'vote' ? { vote: a.target } : {}),
  onJoinFailure: () => null,
  onFailure: (s) => ({ action: s.phase === 'vote' ? { kind: 'abstain' } : { kind: 'silent' } }),
  standIn: (s) => (s.phase === 'vote' ? { kind: 'abstain' } : { kind: 'silent' }),

  encode: (a) => a,
  decode: (encoded) => {
    const a = isRecord(encoded) ? encoded : {};
    const ok =
      (a.kind === 'speak' && typeof a.statement === 'string') ||
      (a.kind === 'vote' && Number.isInteger(a.target)) ||
      a.kind === 'silent' ||
      a.kind === 'abstain';
    if (ok) return encoded as UndercoverAction;
    throw undecodable('undercover', encoded);
  },
  setup: (s) => ({ pair: s.pair, roles: s.roles, order: s.order, audience: s.audience, max_rounds: s.maxRounds }),

  server: {
    hidesInformation: true,
    created: () => ({
      status: 501,
      body: {
        error: 'undercover self-play games are not served here; test your bot with `catarena play undercover …`',
      },
    }),
    route(game, method, sub, _body, query, viewer = SPECTATOR) {
      const g = game as LiveGame<UndercoverState>;
      if (method !== 'GET') return null;
      if (sub === 'state') return stateRoute(g, query, viewer);
      if (sub === 'history')
        return {
          status: 200,
          body: {
            game_id: g.id,
            statements: playerView(g.state, null).statements,
            votes: playerView(g.state, null).votes,
          },
        };
      return null;
    },
  },
};
