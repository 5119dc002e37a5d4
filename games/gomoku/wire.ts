// CATArena's Gomoku wire protocol (compat §2.1–2.2, §2.4): the bot calls and the game-server API.

import {
  twoPlayerForfeits,
  undecodable,
  type LiveGame,
  type ParseResult,
  type RouteReply,
  type WireAdapter,
} from '../core/wire.ts';
import {
  BOARD_SIZE,
  FORBIDDEN_COUNT,
  gameStatus,
  gomoku,
  tripletCounts,
  type GomokuMove,
  type GomokuState,
} from './rules.ts';

const COLOURS = ['black', 'white'] as const;

/** The server's error text for each rules verdict (CATArena's wording). */
const MOVE_ERRORS: Record<string, string> = {
  game_over: 'Game is already over',
  not_your_turn: 'Not your turn',
  off_board: 'Position out of board',
  occupied: 'Position already occupied',
  forbidden: 'Position is forbidden',
  bad_shape: 'Position must be a list with 2 elements',
};

function currentPlayer(state: GomokuState): string {
  // After the game ends CATArena's server leaves current_player on the colour that moved last.
  if (state.toMove !== null) return COLOURS[state.toMove];
  return state.moves.length ? COLOURS[state.moves[state.moves.length - 1]!.seat] : 'black';
}

/** GET /games/{id}/state's body for a state (also the final_state of CATArena's reports). */
export function stateBody(s: GomokuState): Record<string, unknown> {
  const body: Record<string, unknown> = {
    current_player: currentPlayer(s),
    board: s.board,
    last_move: s.lastMove,
    game_status: gameStatus(s),
  };
  if (s.variant === 'variant') {
    const counts = tripletCounts(s);
    body.black_triplets_count = counts.black;
    body.white_triplets_count = counts.white;
    body.forbidden_points = s.forbidden;
  }
  return body;
}

/** POST /games/{id}/move: only self-play games accept moves from outside. */
function postMove(game: LiveGame<GomokuState>, body: unknown): RouteReply {
  if (game.managedByArena) {
    return {
      status: 403,
      body: { status: 'invalid_move', error: 'Moves in arena games are made by the arena; answer /get_move instead' },
    };
  }
  const req = (body ?? {}) as { player?: unknown; position?: unknown };
  if (req.player === undefined || req.position === undefined)
    return { status: 400, body: { error: 'Player and position must be specified' } };
  const seat = COLOURS.indexOf(req.player as (typeof COLOURS)[number]);
  if (seat < 0) return { status: 400, body: { error: "Player must be 'black' or 'white'" } };
  const verdict = gomoku.validate(game.state, seat, req.position as GomokuMove);
  if (verdict) return { status: 400, body: { status: 'invalid_move', error: MOVE_ERRORS[verdict] ?? verdict } };
  game.state = gomoku.apply(game.state, seat, req.position as GomokuMove);
  game.history.push({ seat, action: req.position, timestamp: new Date().toISOString() });
  const reply: Record<string, unknown> = { status: 'valid_move', game_status: gameStatus(game.state) };
  if (game.state.variant === 'variant') {
    const counts = tripletCounts(game.state);
    reply.black_triplets_count = counts.black;
    reply.white_triplets_count = counts.white;
  }
  return { status: 200, body: reply };
}

export const gomokuWire: WireAdapter<GomokuState, GomokuMove> = {
  game: gomoku,
  idPrefix: 'gomoku_',
  catarenaServerPort: { standard: 9000, variant: 20000 },
  health: { kind: 'http', path: '/health' },

  join: (_s, seat, ctx) => ({
    path: '/join_game',
    body: { game_id: ctx.gameId, my_color: COLOURS[seat], game_server_url: ctx.gameServerUrl },
  }),
  turn: (s, seat, ctx) => ({
    path: '/get_move',
    body: { game_id: ctx.gameId, board: s.board, current_player: COLOURS[seat] },
  }),
  leave: (_s, _seat, ctx) => ({ path: '/leave_game', body: { game_id: ctx.gameId } }),

  parse(body: unknown): ParseResult<GomokuMove> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return { ok: false, kind: 'malformed', message: 'answer is not a JSON object with "move"' };
    }
    const move = (body as { move?: unknown }).move;
    if (move === undefined || move === null) return { ok: false, kind: 'malformed', message: 'answer has no "move"' };
    // A move that is not a pair of integers is malformed. CATArena's arena forwarded it to its
    // server, which rejected it (400/500): an "error" draw, as an illegal move, under `catarena`.
    if (!Array.isArray(move) || move.length !== 2 || !move.every((x) => Number.isInteger(x))) {
      return {
        ok: false,
        kind: 'malformed',
        message: `"move" is not a pair of integers [row, col]: ${JSON.stringify(move).slice(0, 80)}`,
        catarena: 'illegal',
      };
    }
    return { ok: true, action: move as GomokuMove };
  },

  answer: (move) => ({ move }),

  ...twoPlayerForfeits,

  encode: (move) => move,
  decode: (encoded) => {
    if (Array.isArray(encoded) && encoded.length === 2 && encoded.every(Number.isInteger)) return encoded as GomokuMove;
    throw undecodable('gomoku', encoded);
  },
  setup: (s) => (s.variant === 'variant' ? { forbidden: s.forbidden } : null),

  server: {
    created: (game) => ({
      status: 201,
      body: {
        game_id: game.id,
        first_player: 'black',
        board_size: BOARD_SIZE,
        ...(game.variant === 'variant' ? { forbidden_points_count: FORBIDDEN_COUNT } : {}),
      },
    }),
    route(game, method, sub, body) {
      const g = game as LiveGame<GomokuState>;
      if (method === 'GET' && sub === 'state') return { status: 200, body: stateBody(g.state) };
      if (method === 'GET' && sub === 'history') {
        const moves = g.history.map((h) => ({ player: COLOURS[h.seat], position: h.action, timestamp: h.timestamp }));
        return { status: 200, body: { moves } };
      }
      if (method === 'GET' && sub === 'forbidden_points' && g.variant === 'variant') {
        return {
          status: 200,
          body: {
            game_id: g.id,
            forbidden_points: g.state.forbidden,
            forbidden_points_count: g.state.forbidden.length,
          },
        };
      }
      if (method === 'POST' && sub === 'move') return postMove(g, body);
      return null;
    },
    healthExtras: (variant) => ({
      board_size: BOARD_SIZE,
      ...(variant === 'variant' ? { version: 'gomoku_v1.0' } : {}),
    }),
  },
};
