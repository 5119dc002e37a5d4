// CATArena's chess wire protocol (compat §3.1–3.4): POST /move {fen, algorithm, game_id,
// current_player} → {"move": "<uci>"}, no join_game; and the game-server API the variant bots
// must call to see the obstacles (they are not in the FEN), on CATArena's ports 9020 / 9021.
import { chessJs } from './chess-js.ts';
import {
  twoPlayerForfeits,
  undecodable,
  type LiveGame,
  type ParseResult,
  type RouteReply,
  type WireAdapter,
} from '../core/wire.ts';
import * as core from './engine/chess-core.mjs';
import { chess, legalUci, type ChessState } from './rules.ts';

const COLOURS = ['white', 'black'] as const;
export const DEFAULT_ALGORITHM = 'simple';

const MOVE_ERRORS: Record<string, string> = {
  game_over: 'Game is already over',
  not_your_turn: 'Not your turn',
  bad_format: 'Invalid move format',
  illegal: 'Invalid move',
};

const currentPlayer = (s: ChessState) => COLOURS[s.fen.split(' ')[1] === 'b' ? 1 : 0];

function isCheck(s: ChessState): boolean {
  if (s.variant === 'standard') return chessJs(s.fen).inCheck();
  return core.inCheck(core.parseFen(s.fen, { chess960: true }));
}

export function stateBody(s: ChessState): Record<string, unknown> {
  const check = isCheck(s);
  const body: Record<string, unknown> = {
    current_player: currentPlayer(s),
    fen: s.fen,
    last_move: s.moves.at(-1)?.uci ?? null,
    game_status: s.status,
    is_check: check,
    is_checkmate: s.result?.reason === 'checkmate',
    is_stalemate: s.result?.reason === 'stalemate',
    legal_moves: legalUci(s).filter((m) => s.variant === 'variant' || !isRookCastleAlias(s, m)),
  };
  if (s.variant === 'variant') {
    Object.assign(body, {
      chess960: true,
      chess960_pos: s.chess960Pos,
      obstacles: s.obstacles,
      mutated_piece_type: s.mutatedPieceType,
      extra_move_available: false,
      pending_square: null,
    });
  }
  return body;
}

/** e1h1-style aliases are accepted in standard chess but not listed (python-chess lists e1g1). */
function isRookCastleAlias(s: ChessState, uci: string): boolean {
  return /^e[18][ah][18]$/.test(uci) && uci[1] === uci[3] && chessJs(s.fen).get(uci.slice(0, 2) as never)?.type === 'k';
}

function legalMovesBody(g: LiveGame<ChessState>) {
  const s = g.state;
  const moves = legalUci(s).filter((m) => s.variant === 'variant' || !isRookCastleAlias(s, m));
  const san =
    s.variant === 'standard'
      ? new Map(
          chessJs(s.fen)
            .moves({ verbose: true })
            .map((m) => [`${m.from}${m.to}${m.promotion ?? ''}`, m.san]),
        )
      : new Map<string, string>();
  return {
    game_id: g.id,
    current_player: currentPlayer(s),
    legal_moves: moves.map((uci) => ({
      uci,
      san: san.get(uci) ?? null,
      from_square: uci.slice(0, 2),
      to_square: uci.slice(2, 4),
      promotion: uci[4] ?? null,
    })),
    ...(s.variant === 'variant' ? { extra_move_available: false, pending_square: null } : {}),
  };
}

function boardVisual(fen: string): string {
  const rows = fen.split(' ')[0]!.split('/');
  return rows
    .map((r) =>
      r
        .replace(/\d/g, (d) => '.'.repeat(Number(d)))
        .split('')
        .join(' '),
    )
    .join('\n');
}

function postMove(g: LiveGame<ChessState>, body: unknown): RouteReply {
  if (g.managedByArena)
    return {
      status: 403,
      body: { status: 'invalid_move', error: 'Moves in arena games are made by the arena; answer /move instead' },
    };
  const req = (body ?? {}) as { player?: unknown; move?: unknown };
  const seat = COLOURS.indexOf(req.player as (typeof COLOURS)[number]);
  const verdict = seat < 0 ? 'not_your_turn' : chess.validate(g.state, seat, req.move as string);
  if (verdict) return { status: 400, body: { status: 'invalid_move', error: MOVE_ERRORS[verdict] ?? verdict } };
  g.state = chess.apply(g.state, seat, req.move as string);
  const last = g.state.moves.at(-1)!;
  g.history.push({ seat, action: req.move, timestamp: new Date().toISOString() });
  return {
    status: 200,
    body: {
      status: 'valid_move',
      game_status: g.state.status,
      message: `Move ${last.uci} played`,
      new_state: stateBody(g.state),
      ...(g.state.variant === 'variant'
        ? { extra: last.obstacle ? { obstacle_effect: `piece_removed_by_obstacle@${last.uci.slice(2, 4)}` } : {} }
        : {}),
    },
  };
}

export const chessWire: WireAdapter<ChessState, string> = {
  game: chess,
  idPrefix: { standard: 'chess_', variant: 'chess_magic_' },
  catarenaServerPort: { standard: 9020, variant: 9021 },
  health: { kind: 'http', path: '/health' },

  turn: (s, seat, ctx) => ({
    path: '/move',
    body: {
      fen: s.fen,
      algorithm: ctx.options?.algorithm ?? DEFAULT_ALGORITHM,
      game_id: ctx.gameId,
      current_player: COLOURS[seat],
    },
  }),

  parse(body: unknown): ParseResult<string> {
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return { ok: false, kind: 'malformed', message: 'answer is not a JSON object with "move"' };
    const move = (body as { move?: unknown }).move;
    if (move === undefined || move === null) return { ok: false, kind: 'malformed', message: 'answer has no "move"' };
    // Not a string: malformed. CATArena forwarded it to its server, which rejected it: an "error"
    // draw, as an illegal move, under `catarena`. A string's format and legality are the rules' verdict.
    if (typeof move !== 'string')
      return {
        ok: false,
        kind: 'malformed',
        message: `"move" is not a UCI string: ${JSON.stringify(move).slice(0, 80)}`,
        catarena: 'illegal',
      };
    return { ok: true, action: move };
  },

  answer: (move) => ({ move }),

  ...twoPlayerForfeits,

  encode: (move) => move,
  decode: (encoded) => {
    if (typeof encoded === 'string') return encoded;
    throw undecodable('chess', encoded);
  },
  setup: (s) =>
    s.variant === 'variant' ? { chess960_pos: s.chess960Pos, obstacles: s.obstacles, fen: s.keys[0] } : null,

  server: {
    created: (g) => {
      const s = g.state as ChessState;
      return {
        status: 201,
        body: {
          game_id: g.id,
          first_player: 'white',
          fen: s.fen,
          message: 'Game created',
          ...(s.variant === 'variant'
            ? {
                chess960: true,
                chess960_pos: s.chess960Pos,
                obstacles: s.obstacles,
                mutated_piece_type: s.mutatedPieceType,
              }
            : {}),
        },
      };
    },
    route(game, method, sub, body) {
      const g = game as LiveGame<ChessState>;
      const s = g.state;
      if (method === 'GET' && sub === 'state') return { status: 200, body: stateBody(s) };
      if (method === 'GET' && sub === 'history')
        return {
          status: 200,
          body: {
            moves: s.moves.map((m) => ({
              player: COLOURS[m.seat],
              move: m.uci,
              ...(s.variant === 'variant' ? { obstacle: m.obstacle } : {}),
            })),
          },
        };
      if (method === 'GET' && sub === 'board')
        return {
          status: 200,
          body: {
            game_id: g.id,
            board_visual: boardVisual(s.fen),
            fen: s.fen,
            ...(s.variant === 'variant' ? { obstacles: s.obstacles } : {}),
          },
        };
      if (method === 'GET' && sub === 'legal_moves') return { status: 200, body: legalMovesBody(g) };
      if (method === 'POST' && sub === 'move') return postMove(g, body);
      return null;
    },
    healthExtras: (variant) => ({
      server: variant === 'variant' ? 'Chess Magic HTTP Server' : 'Chess HTTP Server',
      version: '1.0',
      timestamp: new Date().toISOString(),
    }),
  },
};
