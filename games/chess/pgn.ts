// Chess replays as people read them: every ply re-applied with the game's own rules (rules.ts),
// its SAN (written here on chess-core, so the same code serves standard chess, Chess960 and the
// obstacle variant; chess.js is the oracle in the tests), and the whole game as PGN.
//
// PGN: the Seven Tag Roster (Event, Site, Date, Round, White, Black, Result), then Termination,
// PlyCount, catarena's own GameId, and for the variant `[Variant "Chess960"]`, `[SetUp "1"]`,
// `[FEN "<X-FEN of the start>"]` and `[Obstacles "a3 h3 …"]`. Each move carries its thinking time
// as `{[%emt h:mm:ss.s]}` (optional), a failure that ended the game a comment before the result.
//
// A variant game in which no piece ever ended its move on an obstacle is a legal Chess960 game
// (obstacles block nothing and do not change which moves are legal), so it is exported as one.
// Once a piece has been removed by an obstacle, no PGN reader can follow the game: it is written
// with `[Variant "Chess960 with obstacles"]`, a comment that says so and a comment at every
// removal, and flagged `representable: false` (`catarena export --pgn` skips it without --all).
import type { MoveRecord, Replay } from '../../records/match.ts';
import { initSetup } from '../core/game.ts';
import { twoSeatResultLine } from '../core/viewer.ts';
import { createRng } from '../../util/rng.ts';
import * as core from './engine/chess-core.mjs';
import { chess, plyFacts, sanFrom, type ChessState } from './rules.ts';

/** One ply as played, with what the viewer and the PGN need. */
export interface ChessPly {
  ply: number;
  seat: number;
  uci: string;
  san: string;
  /** The position after the move (the rules' FEN: chess.js's for standard, X-FEN for the variant). */
  fen: string;
  from: string;
  /** The square the move names (Chess960 castling: the rook's square, as in UCI). */
  to: string;
  /** The side to move is in check after the move (a side without a king never is). */
  check: boolean;
  /** The moving piece ended on an obstacle and was removed (variant). */
  obstacle: boolean;
}

/** A chess replay re-applied ply by ply. */
export interface ChessGame {
  variant: string;
  startFen: string;
  obstacles: string[];
  chess960Pos: number | null;
  plies: ChessPly[];
  /** The state after the last ply. */
  final: ChessState;
  /** The move record whose failure ended the game, if one did (its action is null). */
  failure?: MoveRecord;
}

/**
 * SAN of a legal move in a position (chess-core), as chess.js writes it: castling O-O / O-O-O
 * (Chess960 too), file/rank disambiguation among legal moves only, `x` for captures (en passant
 * included), `=Q` promotions, `+` / `#` from the position after the move (obstacles applied).
 */
export function sanOf(position: core.Position, move: core.Move, options: core.RulesOptions = {}): string {
  const next = core.applyMove(position, move, options);
  const check = core.inCheck(next);
  const mate = check && core.legalMoves(next, options).length === 0;
  return sanFrom(position, move, () => core.legalMoves(position, options), check, mate);
}

/** Re-applies a chess replay with the game's rules (the same seeded init as the match runner). */
export function replayChess(replay: Replay): ChessGame {
  const { spec } = replay.result;
  if (spec.game !== 'chess') throw new Error(`${replay.result.id} is a ${spec.game} game, not chess`);
  let state = chess.init(spec.variant, createRng(spec.seed), initSetup(spec));
  const start = state;
  const plies: ChessPly[] = [];
  let failure: MoveRecord | undefined;
  for (const record of replay.moves) {
    if (record.action === null || record.action === undefined) {
      failure = record;
      continue;
    }
    const uci = String(record.action);
    // The rules' own verdict, shared with apply below: the SAN the rules wrote when the move was played.
    const facts = plyFacts(state, uci);
    if (!facts) throw new Error(`${replay.result.id}: ply ${record.ply} ${uci} is not legal in ${state.fen}`);
    const { san } = facts;
    state = chess.apply(state, record.seat, uci);
    const played = state.moves.at(-1)!;
    plies.push({
      ply: record.ply,
      seat: record.seat,
      uci,
      san,
      fen: state.fen,
      from: uci.slice(0, 2),
      to: uci.slice(2, 4),
      check: /[+#]$/.test(san),
      obstacle: played.obstacle,
    });
  }
  return {
    variant: state.variant,
    startFen: start.fen,
    obstacles: start.obstacles,
    chess960Pos: start.chess960Pos,
    plies,
    final: state,
    ...(failure ? { failure } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The result in words and as PGN

const COLOURS = ['white', 'black'] as const;

const REASON_WORDS: Record<string, string> = {
  fivefold_repetition: 'fivefold repetition',
  seventyfive_moves: 'the 75-move rule',
  threefold_repetition: 'threefold repetition',
  fifty_moves: 'the fifty-move rule',
  insufficient_material: 'insufficient material',
  max_moves: 'the 200-ply cap',
};

/** One line: "white wins: checkmate", "draw: stalemate", "black wins: white timed out". */
export function chessResultLine(result: Replay['result']): string {
  return twoSeatResultLine(result, COLOURS, REASON_WORDS);
}

/** PGN's Result: 1-0, 0-1, 1/2-1/2, or * when the scores say neither. */
export function pgnResult(result: Replay['result']): string {
  if (result.winner === 0) return '1-0';
  if (result.winner === 1) return '0-1';
  const [w, b] = result.scores;
  if (w !== undefined && w === b && w > 0) return '1/2-1/2';
  return '*';
}

/** PGN's Termination tag for how the game ended. */
function pgnTermination(result: Replay['result']): string {
  if (result.termination === 'normal') return result.reason === 'max_moves' ? 'adjudication' : 'normal';
  if (result.termination === 'timeout') return 'time forfeit';
  if (result.termination === 'illegal' || result.termination === 'malformed') return 'rules infraction';
  return 'abandoned';
}

/**
 * A tag pair. PGN escapes " and \ inside values with a backslash, but chess.js (and other readers)
 * reject escapes, so a quote becomes ' and a backslash / instead: every reader takes the file.
 */
const tag = (name: string, value: string | number) =>
  `[${name} "${String(value)
    .replace(/\\/g, '/')
    .replace(/"/g, "'")
    .replace(/[\r\n]+/g, ' ')}"]`;
/** A PGN comment: braces cannot nest, so none inside. */
const comment = (text: string) =>
  `{${text
    .replace(/[{}]/g, (c) => (c === '{' ? '(' : ')'))
    .replace(/\s+/g, ' ')
    .trim()}}`;

/** h:mm:ss.sss, the %emt (elapsed move time) of a move. */
function emt(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = (total % 60_000) / 1000;
  return `${h}:${String(m).padStart(2, '0')}:${s.toFixed(3).padStart(6, '0')}`;
}

/** A token's words; a command inside a comment ([%emt 0:00:01.500]) stays one word. */
function words(token: string): string[] {
  const out: string[] = [];
  for (const part of token.split(' ')) {
    const prev = out.at(-1);
    if (prev !== undefined && /\[%[^\]]*$/.test(prev)) out[out.length - 1] = `${prev} ${part}`;
    else out.push(part);
  }
  return out;
}

/** Movetext wrapped at 79 characters, as the PGN export format asks (comments break between words). */
function wrap(tokens: string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const token of tokens.flatMap(words)) {
    if (line && line.length + 1 + token.length > 79) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

export interface PgnOptions {
  /** Event tag (default "catarena chess <variant>"). */
  event?: string;
  /** Site tag (default "catarena"). */
  site?: string;
  /** Round tag (default "-"). */
  round?: string;
  /** Each move's thinking time as {[%emt …]} (default true). */
  times?: boolean;
}

export interface ChessPgn {
  /** The PGN of the game, ending with a newline. */
  pgn: string;
  /** False when a piece was removed by an obstacle: no PGN reader can follow the game. */
  representable: boolean;
  /** Why not, in one line (absent when representable). */
  note?: string;
}

/** A chess replay as PGN (see the top of this file for the tags and the variant). */
export function chessPgn(replay: Replay, options: PgnOptions = {}, game: ChessGame = replayChess(replay)): ChessPgn {
  const { result } = replay;
  const { spec } = result;
  const variant = game.variant === 'variant';
  const moveNo = (fen: string) => Number(fen.split(' ')[5] ?? '1');
  const hit = game.plies.findIndex((p) => p.obstacle);
  const representable = hit < 0;
  let note: string | undefined;
  if (!representable) {
    const before = hit === 0 ? game.startFen : game.plies[hit - 1]!.fen;
    const at = `${moveNo(before)}${before.split(' ')[1] === 'b' ? '...' : '.'} ${game.plies[hit]!.san}`;
    note = `not valid Chess960 from ${at}, where a piece ended its move on an obstacle and was removed`;
  }

  const tags = [
    tag('Event', options.event ?? `catarena chess ${spec.variant}`),
    tag('Site', options.site ?? 'catarena'),
    tag(
      'Date',
      /^\d{4}-\d\d-\d\d/.test(result.startedAt) ? result.startedAt.slice(0, 10).replace(/-/g, '.') : '????.??.??',
    ),
    tag('Round', options.round ?? '-'),
    tag('White', spec.seats[0] ?? '?'),
    tag('Black', spec.seats[1] ?? '?'),
    tag('Result', pgnResult(result)),
  ];
  if (variant) {
    tags.push(
      tag('Variant', representable ? 'Chess960' : 'Chess960 with obstacles'),
      tag('SetUp', '1'),
      tag('FEN', game.startFen),
      tag('Obstacles', game.obstacles.join(' ')),
    );
  }
  tags.push(tag('Termination', pgnTermination(result)), tag('PlyCount', game.plies.length), tag('GameId', result.id));
  if (result.startedAt.length >= 19) tags.push(tag('UTCTime', result.startedAt.slice(11, 19)));

  const tokens: string[] = [];
  if (!representable) tokens.push(comment(`catarena variant: obstacles on ${game.obstacles.join(' ')}; ${note}`));
  const latency = new Map(replay.moves.map((m) => [m.ply, m.latencyMs]));
  let before = game.startFen;
  game.plies.forEach((p, k) => {
    const white = before.split(' ')[1] !== 'b';
    if (white) tokens.push(`${moveNo(before)}.`);
    else if (k === 0 || tokens.at(-1)!.startsWith('{')) tokens.push(`${moveNo(before)}...`);
    tokens.push(p.san);
    const notes: string[] = [];
    if (options.times !== false && latency.has(p.ply)) notes.push(`[%emt ${emt(latency.get(p.ply)!)}]`);
    if (p.obstacle) notes.push(`piece removed by the obstacle on ${p.uci.slice(2, 4)}`);
    const error = replay.moves.find((m) => m.ply === p.ply)?.error;
    if (error) notes.push(`${error.kind}: ${error.message}`);
    if (notes.length) tokens.push(comment(notes.join(' ')));
    before = p.fen;
  });
  if (result.termination !== 'normal' || result.reason === 'max_moves') {
    const failure = game.failure?.error ? ` (${game.failure.error.kind}: ${game.failure.error.message})` : '';
    const text = `${chessResultLine(result)}${result.termination === 'normal' ? '' : failure}`;
    // One comment after a move: chess.js, for one, refuses two in a row.
    if (tokens.at(-1)?.startsWith('{')) tokens.push(comment(`${tokens.pop()!.slice(1, -1)} ${text}`));
    else tokens.push(comment(text));
  }
  tokens.push(pgnResult(result));
  return { pgn: `${tags.join('\n')}\n\n${wrap(tokens)}\n`, representable, ...(note ? { note } : {}) };
}

/** Several games as one PGN file (a blank line between games). */
export function pgnFile(games: readonly string[]): string {
  return games.map((g) => g.trimEnd()).join('\n\n') + (games.length ? '\n' : '');
}
