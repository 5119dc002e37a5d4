// Chess as a pure game on our own move generator (engine/chess-core.mjs; chess.js can neither castle
// in Chess960 nor play on after a king is gone): `standard` and `variant` (CATArena's Chess960 +
// obstacles). The standard legal-move list bots receive keeps chess.js's order.
// Actions are UCI strings. Both rule sets end as CATArena's servers end them: checkmate,
// stalemate, insufficient material, fivefold repetition and the 75-move rule, checked in that
// order, plus its arena's 200-ply cap; the option `adjudication: 'engine'` ends games on threefold
// repetition and the fifty-move rule instead (compat Part A §7).
import { drawOf, winFor, type Game, type GameSetup, type Outcome } from '../core/game.ts';
import type { Seat } from '../../records/match.ts';
import type { Rng } from '../../util/rng.ts';
import * as core from './engine/chess-core.mjs';

export type ChessVariant = 'standard' | 'variant';
export const MAX_PLIES = 200;
export const OBSTACLE_PAIRS = 6;
const MUTATED_TYPES = ['pawn', 'knight', 'bishop', 'rook'] as const;
const COLOURS = ['white', 'black'] as const;

/**
 * Which automatic draws end a game: `catarena` (default), the automatic draws CATArena's servers
 * apply (python-chess's fivefold repetition and 75-move rule; nobody claims a draw there), or
 * `engine`, engine-match adjudication: threefold repetition and the fifty-move rule.
 */
export const ADJUDICATIONS = ['catarena', 'engine'] as const;
export type ChessAdjudication = (typeof ADJUDICATIONS)[number];
export const DEFAULT_ADJUDICATION: ChessAdjudication = 'catarena';

/** The match options chess reads, checked: an error message per bad option (empty when all are good). */
export function chessOptionErrors(options: Record<string, unknown> | undefined): string[] {
  const value = options?.adjudication;
  if (value === undefined || (ADJUDICATIONS as readonly unknown[]).includes(value)) return [];
  return [
    `adjudication: expected ${ADJUDICATIONS.map((a) => `"${a}"`).join(' or ')} (default "${DEFAULT_ADJUDICATION}": fivefold repetition and the 75-move rule, as CATArena; "engine": threefold repetition and the fifty-move rule), got ${JSON.stringify(value)}`,
  ];
}

function adjudicationOf(setup: GameSetup | undefined): ChessAdjudication {
  const errors = chessOptionErrors(setup?.options);
  if (errors.length) throw new Error(`chess: ${errors.join('; ')}`);
  return (setup?.options?.adjudication as ChessAdjudication | undefined) ?? DEFAULT_ADJUDICATION;
}

export interface ChessState {
  variant: ChessVariant;
  fen: string;
  /** Variant: obstacle squares, sorted a1→h8 (a piece ending its move on one is removed). */
  obstacles: string[];
  chess960Pos: number | null;
  /** Variant: reported like CATArena's server; its extra-move rule never triggers there, nor here. */
  mutatedPieceType: string | null;
  moves: { seat: Seat; uci: string; obstacle: boolean }[];
  /** Repetition keys of every position so far, the start included. */
  keys: string[];
  /** Which draws end the game (absent: `catarena`, CATArena's). */
  adjudication?: ChessAdjudication;
  /** CATArena's game_status: ongoing, white_win, black_win, draw_* or max_moves. */
  status: string;
  result: Outcome | null;
}

const filesOf = (sq: number) => sq % 8;
const rankOf = (sq: number) => Math.floor(sq / 8);

/** pgn.ts's sanOf given the position's legal moves (asked only for a piece move) and what follows the move. */
export function sanFrom(
  position: core.Position,
  move: core.Move,
  legal: () => readonly core.Move[],
  check: boolean,
  mate: boolean,
): string {
  const piece = position.board[move.from];
  if (!piece) throw new Error(`no piece on ${core.squareName(move.from)}`);
  let san: string;
  if (move.castleRook !== undefined && move.castleRook !== null) {
    san = filesOf(move.castleRook) > filesOf(move.from) ? 'O-O' : 'O-O-O';
  } else {
    const type = piece.toUpperCase();
    const capture = move.captured !== undefined;
    if (type === 'P') {
      san = `${capture ? `${'abcdefgh'[filesOf(move.from)]}x` : ''}${core.squareName(move.to)}${move.promotion ? `=${move.promotion.toUpperCase()}` : ''}`;
    } else {
      const rivals = legal().filter(
        (m) =>
          m.to === move.to && m.from !== move.from && m.castleRook === undefined && position.board[m.from] === piece,
      );
      let which = '';
      if (rivals.length) {
        const name = core.squareName(move.from);
        if (!rivals.some((m) => filesOf(m.from) === filesOf(move.from))) which = name[0]!;
        else if (!rivals.some((m) => rankOf(m.from) === rankOf(move.from))) which = name[1]!;
        else which = name;
      }
      san = `${type}${which}${capture ? 'x' : ''}${core.squareName(move.to)}`;
    }
  }
  if (check) san += mate ? '#' : '+';
  return san;
}

// ---------------------------------------------------------------------------------------------
// The two backends: legal moves as UCI, applying one, and what the new position means.

interface Verdict {
  fen: string;
  /** The move's SAN (pgn.ts's sanOf), for replays. */
  san: string;
  key: string;
  obstacle: boolean;
  noMoves: boolean;
  inCheck: boolean;
  insufficient: boolean;
  halfmove: number;
}

// chess.js's move order (Chess._moves, chess.js 1.x), which the standard legal-move list keeps:
// from-squares a8→h1; each piece's offsets in chess.js's 0x88 numbering (−16 = one rank up), a
// slider's ray outward; a pawn's push, double push, then its two captures (towards file −1 then
// +1 for white, +1 then −1 for black); promotions n, b, r, q; castling after every other move,
// king side first.
const CJS_PAWN_OFFSETS = { w: [-16, -32, -17, -15], b: [16, 32, 17, 15] };
const CJS_OFFSETS: Record<string, number[]> = {
  n: [-18, -33, -31, -14, 18, 33, 31, 14],
  b: [-17, -15, 17, 15],
  r: [-16, 1, 16, -1],
  q: [-17, -16, -15, 1, 17, 16, 15, -1],
  k: [-17, -16, -15, 1, 17, 16, 15, -1],
};
const CJS_PROMOTIONS = 'nbrq';
const cjsSquare = (s: number) => (7 - (s >> 3)) * 16 + (s & 7);

function chessJsOrder(pos: core.Position, m: core.Move): number {
  if (m.castleRook !== undefined) return 2 ** 30 + (m.to > m.from ? 0 : 1);
  const from = cjsSquare(m.from);
  const to = cjsSquare(m.to);
  const letter = pos.board[m.from]!;
  let slot = -1;
  if (letter === 'P' || letter === 'p') slot = CJS_PAWN_OFFSETS[pos.turn].indexOf(to - from);
  else {
    const offsets = CJS_OFFSETS[letter.toLowerCase()]!;
    for (let j = 0; j < offsets.length && slot < 0; j++) {
      for (let t = from + offsets[j]!, k = 0; !(t & 0x88); t += offsets[j]!, k++)
        if (t === to) {
          slot = j * 8 + k;
          break;
        }
    }
  }
  if (slot < 0) throw new Error(`chess: no chess.js order for ${core.moveToUci(pos, m)}`);
  return (from * 64 + slot) * 4 + (m.promotion ? CJS_PROMOTIONS.indexOf(m.promotion) : 0);
}

/**
 * The legal moves as UCI in chess.js's order (what chess.js's moves({ verbose: true }) lists):
 * chess-core's moves, which tests/chess-engine.test.ts checks against chess.js at every ply of 200
 * games, sorted by chessJsOrder; ~20× cheaper than chess.js's verbose list (a SAN and two FENs per
 * move). Then, as CATArena's standard server (python-chess) also takes them, castling as
 * king-takes-rook (e1h1) after the list.
 */
function standardLegal(fen: string): string[] {
  const pos = core.parseFen(fen);
  const moves = core
    .legalMoves(pos)
    .map((m) => ({ m, order: chessJsOrder(pos, m) }))
    .sort((a, b) => a.order - b.order);
  const out = moves.map(({ m }) => core.moveToUci(pos, m));
  for (const { m } of moves)
    if (m.castleRook !== undefined) out.push(`${core.squareName(m.from)}${core.squareName(m.castleRook)}`);
  return out;
}

// validate() and apply() see the same (fen, move) in turn, and the replays of the round logs and
// the viewers see a game's moves again soon after it ends: remember the recent verdicts so a move
// is worked out once. Pure: the key is the whole input. Bounded: a few MB.
const verdicts = new Map<string, Verdict | null>();
const VERDICTS_KEPT = 16_384;

function remember<K, V>(cache: Map<K, V>, key: K, value: V, kept = 256): V {
  cache.set(key, value);
  if (cache.size > kept) cache.delete(cache.keys().next().value!);
  return value;
}

/** A position's legal moves: canonical UCI names in generation order, and each name findMove accepts. */
interface MoveTable {
  pos: core.Position;
  /** The legal moves in generation order (core.legalMoves). */
  moves: core.Move[];
  ucis: string[];
  byUci: Map<string, core.Move>;
  /** Whether the side to move is in check (core.inCheck). */
  inCheck: boolean;
}

// The legal moves of recent positions (several games play at once): a position's moves are
// generated once, when the previous move's verdict asks whether any exist, and serve the
// validation and the move of the next ply. Pure: the key is the whole input.
const tables = new Map<string, MoveTable>();

const tableKey = (fen: string, obstacles: string[] | null) => (obstacles ? `${fen}|${obstacles.join(',')}` : fen);

/**
 * A position's table from one engine board: what core.legalMoves and core.inCheck compute, each of
 * which would build a board of its own (legal() makes and unmakes every move, so the board is the
 * position again when inCheck() reads it).
 */
function tableOf(pos: core.Position, obstacles: string[] | null): MoveTable {
  const board = new core.Board(pos, obstacles ? { obstacles: obstacles.map(core.parseSquare) } : undefined);
  return tableOn(board, pos);
}

/** The table of `pos` on a board standing at it. */
function tableOn(board: core.Board, pos: core.Position): MoveTable {
  const legal = board.legal().map((m) => board.decode(m));
  const byUci = new Map<string, core.Move>();
  // The first legal move a name fits wins, as in core.findMove.
  for (const m of legal) for (const uci of core.moveUcis(pos, m)) if (!byUci.has(uci)) byUci.set(uci, m);
  return { pos, moves: legal, ucis: legal.map((m) => core.moveToUci(pos, m)), byUci, inCheck: board.inCheck() };
}

/**
 * A legal move of a table played on one engine board: the position after it (core.applyMove), its
 * table, and its FEN as core.toFen(next, { enPassant: 'legal' }) writes it, the en-passant square
 * only when a capture there is legal (the next table says). Three boards before: applyMove's,
 * toFen's and the next table's.
 */
function play(
  table: MoveTable,
  move: core.Move,
  obstacles: string[] | null,
): { next: core.Position; fen: string; after: MoveTable } {
  const board = new core.Board(table.pos, obstacles ? { obstacles: obstacles.map(core.parseSquare) } : undefined);
  board.make(board.encode(move));
  const next = board.toPosition();
  const after = tableOn(board, next);
  const ep = next.ep !== null && after.moves.some((m) => m.enPassant) ? next.ep : null;
  return { next, fen: fenOf(next, ep), after };
}

const FILES = 'abcdefgh';

/** core.toFen's text of a position with the given en-passant square. */
function fenOf(pos: core.Position, ep: number | null): string {
  // An array joined, not a string appended to: the FEN is kept (verdicts, tables), and appending
  // would keep it as a tree of small pieces.
  const rows: string[] = [];
  for (let r = 7; r >= 0; r--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pos.board[r * 8 + f];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      row += p;
    }
    rows.push(empty ? row + empty : row);
  }
  const castling = castlingField(pos) ?? core.toFen(pos).split(' ')[2];
  return [rows.join('/'), pos.turn, castling, ep === null ? '-' : core.squareName(ep), pos.halfmove, pos.fullmove].join(
    ' ',
  );
}

/**
 * The X-FEN castling field as core.toFen writes it (python-chess's castling_xfen): per colour the
 * king side first, K/Q for the outermost rook on its side of the king, else the rook's file
 * letter; `-` for none. Undefined when a right has no king on its back rank (core.toFen decides).
 */
function castlingField(pos: core.Position): string | undefined {
  let out = '';
  for (const colour of ['w', 'b'] as const) {
    const files = pos.castling[colour];
    if (!files.length) continue;
    const rank = colour === 'w' ? 0 : 56;
    const [king, rook] = colour === 'w' ? ['K', 'R'] : ['k', 'r'];
    let kingFile = -1;
    for (let f = 0; f < 8; f++) if (pos.board[rank + f] === king) kingFile = f;
    if (kingFile < 0) return undefined;
    const letters = (side: 1 | -1) => {
      for (const f of files) {
        if (side > 0 ? f <= kingFile : f >= kingFile) continue;
        let outermost = true;
        for (let g = f + side; g >= 0 && g <= 7; g += side) if (pos.board[rank + g] === rook) outermost = false;
        const ch = outermost ? (side > 0 ? 'k' : 'q') : FILES[f]!;
        out += colour === 'w' ? ch.toUpperCase() : ch;
      }
    };
    letters(1);
    letters(-1);
  }
  return out || '-';
}

/** The legal moves at a FEN (with the variant's obstacles, as squares a1→h8, or null for standard chess). */
function movesAt(fen: string, obstacles: string[] | null): MoveTable {
  const key = tableKey(fen, obstacles);
  const known = tables.get(key);
  if (known) return known;
  const pos = obstacles ? core.parseFen(fen, { chess960: true }) : core.parseFen(fen);
  return remember(tables, key, tableOf(pos, obstacles));
}

/**
 * Whether the side to move after a move has no legal move, and whether it is in check, from the
 * table `play` built. Without an en-passant square, the position is what parsing its FEN gives, so
 * the table is kept under that FEN for the next ply. After a double push the FEN may drop the
 * en-passant square (no capture can use it), so that FEN's table is built when the next ply needs it.
 */
function nextVerdict(
  played: { next: core.Position; fen: string; after: MoveTable },
  obstacles: string[] | null,
): { noMoves: boolean; inCheck: boolean } {
  if (played.next.ep === null) {
    const key = tableKey(played.fen, obstacles);
    if (!tables.has(key)) remember(tables, key, played.after);
  }
  return { noMoves: played.after.ucis.length === 0, inCheck: played.after.inCheck };
}

/**
 * The verdict of a standard move, or null when it is not legal: on chess-core, which
 * tests/chess-engine.test.ts checks against chess.js (legal moves, check, mate, stalemate and FEN
 * at every ply of 200 games) and published perft counts; 5–10× cheaper than a chess.js board per
 * ply. Castling may be sent as the king's two-step (e1g1) or, as CATArena's standard server
 * (python-chess) also takes it, king-takes-rook (e1h1). Insufficient material is python-chess's rule.
 */
/** The verdict of a legal move of `table`, played with the variant's obstacles (null: standard chess). */
function verdictOf(table: MoveTable, move: core.Move, obstacles: string[] | null, obstacle: boolean): Verdict {
  const played = play(table, move, obstacles);
  const { next, fen } = played; // chess.js's FEN: the ep square only when a capture there is legal
  const after = nextVerdict(played, obstacles);
  return {
    fen,
    key: keyOf(fen), // core.positionKey(next)
    obstacle,
    ...after,
    insufficient: core.insufficientMaterial(next),
    halfmove: next.halfmove,
    san: sanFrom(table.pos, move, () => table.moves, after.inCheck, after.noMoves),
  };
}

function standardTry(fen: string, uci: string): Verdict | null {
  const key = `${fen}|${uci}`;
  if (verdicts.has(key)) return verdicts.get(key)!;
  const move = UCI.test(uci) ? (movesAt(fen, null).byUci.get(uci) ?? null) : null;
  const verdict = move ? verdictOf(movesAt(fen, null), move, null, false) : null;
  return remember(verdicts, key, verdict, VERDICTS_KEPT);
}

function standardApply(fen: string, uci: string): Verdict {
  const verdict = standardTry(fen, uci);
  if (!verdict) throw new Error(`illegal move ${uci}`);
  return verdict;
}

function variantLegal(s: ChessState): string[] {
  return movesAt(s.fen, s.obstacles).ucis.slice();
}

/** The repetition key of a FEN: its first four fields (a slice, sharing the FEN's memory). */
function keyOf(fen: string): string {
  let end = -1;
  for (let n = 0; n < 4; n++) end = fen.indexOf(' ', end + 1);
  return fen.slice(0, end);
}

const variantKey = (s: ChessState, uci: string) => `${s.fen}|${s.obstacles.join(',')}|${uci}`;

function variantApply(s: ChessState, uci: string): Verdict {
  const key = variantKey(s, uci);
  const known = verdicts.get(key);
  if (known) return known;
  const table = movesAt(s.fen, s.obstacles);
  // core.findMove: in Chess960 a move has one name, its canonical UCI.
  const move = UCI.test(uci) ? table.byUci.get(uci) : undefined;
  if (!move) throw new Error(`illegal move ${uci}`);
  // As CATArena's history entry: the move's target square is an obstacle (castling: the rook's square).
  const verdict = verdictOf(table, move, s.obstacles, s.obstacles.includes(uci.slice(2, 4)));
  remember(verdicts, key, verdict, VERDICTS_KEPT);
  return verdict;
}

// ---------------------------------------------------------------------------------------------

function initialVariant(rng: Rng): Pick<ChessState, 'fen' | 'obstacles' | 'chess960Pos' | 'mutatedPieceType'> {
  const n = rng.int(0, 959);
  // CATArena: empty squares on files a–d, ranks 3–6, shuffled; each taken with its mirror (file 7−f).
  const candidates: number[] = [];
  for (let rank = 2; rank <= 5; rank++) for (let file = 0; file <= 3; file++) candidates.push(rank * 8 + file);
  const chosen = rng
    .shuffle(candidates)
    .slice(0, OBSTACLE_PAIRS)
    .flatMap((sq) => [sq, sq - (sq % 8) + (7 - (sq % 8))]);
  return {
    fen: core.toFen(core.chess960Position(n)),
    obstacles: chosen.sort((a, b) => a - b).map(core.squareName),
    chess960Pos: n,
    mutatedPieceType: MUTATED_TYPES[rng.int(0, MUTATED_TYPES.length - 1)]!,
  };
}

const turnOf = (fen: string): Seat => (fen.split(' ')[1] === 'b' ? 1 : 0);
const UCI = /^[a-h][1-8][a-h][1-8][qrbn]?$/;

export function legalUci(state: ChessState): string[] {
  if (state.result) return [];
  return state.variant === 'standard' ? standardLegal(state.fen) : variantLegal(state);
}

/** Forgets the remembered tables and verdicts (tests: the replay path with nothing remembered). */
export function forgetPositions(): void {
  tables.clear();
  verdicts.clear();
}

/** A legal move as the rules see it: what a replay shows beside the position. */
export interface ChessPlyFacts {
  /** Standard algebraic notation, as pgn.ts's sanOf writes it. */
  san: string;
  /** After the move: the side to move is in check, and has no legal move. */
  inCheck: boolean;
  noMoves: boolean;
}

/**
 * The facts of playing `uci` in `s`, or null when it is not legal: the verdict validate() and
 * apply() share (usually still remembered from the game), so applying the move next is free.
 */
export function plyFacts(s: ChessState, uci: string): ChessPlyFacts | null {
  if (!UCI.test(uci)) return null;
  let verdict: Verdict | null;
  if (s.variant === 'standard') verdict = standardTry(s.fen, uci);
  else if (verdicts.has(variantKey(s, uci)) || movesAt(s.fen, s.obstacles).byUci.has(uci))
    verdict = variantApply(s, uci);
  else verdict = null;
  return verdict && { san: verdict.san, inCheck: verdict.inCheck, noMoves: verdict.noMoves };
}

export const chess: Game<ChessState, string, ChessState> = {
  id: 'chess',
  variants: ['standard', 'variant'],
  seatNames: () => COLOURS,

  init(variant, rng, gameSetup) {
    const adjudication = adjudicationOf(gameSetup);
    const setup =
      variant === 'variant'
        ? initialVariant(rng)
        : { fen: core.STANDARD_FEN, obstacles: [], chess960Pos: null, mutatedPieceType: null };
    const key =
      variant === 'variant'
        ? core.positionKey(core.parseFen(setup.fen, { chess960: true }))
        : setup.fen.split(' ').slice(0, 4).join(' ');
    return {
      variant: variant as ChessVariant,
      ...setup,
      moves: [],
      keys: [key],
      ...(adjudication === 'engine' ? { adjudication } : {}),
      status: 'ongoing',
      result: null,
    };
  },

  toMove: (s) => (s.result ? null : turnOf(s.fen)),

  validate(s, seat, action) {
    if (s.result) return 'game_over';
    if (seat !== turnOf(s.fen)) return 'not_your_turn';
    if (typeof action !== 'string' || !UCI.test(action)) return 'bad_format';
    if (s.variant === 'standard') return standardTry(s.fen, action) ? null : 'illegal';
    return movesAt(s.fen, s.obstacles).ucis.includes(action) ? null : 'illegal';
  },

  legalActions: (s) => legalUci(s),

  apply(s, seat, action) {
    const verdict = s.variant === 'standard' ? standardApply(s.fen, action) : variantApply(s, action);
    const keys = [...s.keys, verdict.key];
    const moves = [...s.moves, { seat, uci: action, obstacle: verdict.obstacle }];
    const next: ChessState = { ...s, fen: verdict.fen, moves, keys };
    const mover = seat;
    // CATArena's servers check, after each move: checkmate, stalemate, insufficient material,
    // fivefold repetition, the 75-move rule (python-chess's is_* in this order, so a stalemate with
    // insufficient material is `draw_stalemate` there, though python-chess's outcome() would name
    // insufficient material first); its arena then stops at 200 plies.
    const [repetitions, halfmoves, repetition, moveRule] =
      s.adjudication === 'engine'
        ? [3, 100, 'threefold_repetition', 'fifty_moves']
        : [5, 150, 'fivefold_repetition', 'seventyfive_moves'];
    let outcome: Outcome | null = null;
    let status = 'ongoing';
    if (verdict.noMoves && verdict.inCheck)
      [outcome, status] = [winFor(mover, 'checkmate'), mover === 0 ? 'white_win' : 'black_win'];
    else if (verdict.noMoves) [outcome, status] = [drawOf('stalemate'), 'draw_stalemate'];
    else if (verdict.insufficient) [outcome, status] = [drawOf('insufficient_material'), 'draw_insufficient_material'];
    else if (keys.filter((k) => k === verdict.key).length >= repetitions)
      [outcome, status] = [drawOf(repetition), `draw_${repetition}`];
    else if (verdict.halfmove >= halfmoves) [outcome, status] = [drawOf(moveRule), `draw_${moveRule}`];
    else if (moves.length >= MAX_PLIES) [outcome, status] = [drawOf('max_moves'), 'max_moves'];
    return { ...next, status, result: outcome };
  },

  outcome: (s) => s.result,
  view: (s) => s,
};
