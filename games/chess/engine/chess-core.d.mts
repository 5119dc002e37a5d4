// Types for chess-core.mjs: a dependency-free chess move generator for standard chess, Chess960
// and CATArena's obstacle variant. Plain JavaScript so that bot folders can carry a copy of it.

/** Squares are 0..63, a1 = 0, b1 = 1, …, h8 = 63. */
export type Square = number;
/** Pieces as FEN letters: uppercase white, lowercase black. */
export type Piece = 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k';
export type Color = 'w' | 'b';

/** A position as plain JSON data. */
export interface Position {
  /** 64 entries, a1..h8; null = empty. */
  board: (Piece | null)[];
  turn: Color;
  /** Files (0..7) of rooks that may still castle, per colour. */
  castling: { w: number[]; b: number[] };
  /** En-passant target square, or null. */
  ep: Square | null;
  halfmove: number;
  fullmove: number;
  /** Chess960 rules: castling encoded king-takes-rook, X-FEN castling field. */
  chess960: boolean;
}

export interface Move {
  from: Square;
  to: Square;
  /** Promotion piece, lowercase: 'q' | 'r' | 'b' | 'n'. */
  promotion?: 'q' | 'r' | 'b' | 'n';
  /** For castling: the castling rook's square ('to' is the king's destination square). */
  castleRook?: Square;
  /** The captured piece, if any (en passant included). */
  captured?: Piece;
  enPassant?: boolean;
}

export interface RulesOptions {
  /** Obstacle squares: a piece whose move ends on one is removed from the board. */
  obstacles?: Square[];
}

/**
 * Castling field: KQkq, X-FEN (K/Q = outermost rook on that side, letters = files) or Shredder
 * (letters). Rights without their king on the back rank or their rook are dropped (python-chess's
 * clean_castling_rights). Without options.chess960, a position is Chess960 when some right is not
 * a standard one (king on e, rooks on a/h). Throws on malformed FEN or two kings of one colour.
 */
export function parseFen(fen: string, options?: { chess960?: boolean }): Position;
/**
 * X-FEN castling field in Chess960 (K/Q for the outermost rook, else the file letter).
 * En passant: 'fen' (default) writes `position.ep` (set after every double push); 'legal' writes it
 * only when an en-passant capture is legal, as python-chess's `fen()` and chess.js's `fen()` do.
 */
export function toFen(position: Position, options?: { enPassant?: 'fen' | 'legal' }): string;
export const STANDARD_FEN: string;
/** Chess960 start position by Scharnagl number 0..959 (518 = the standard set-up). */
export function chess960Position(n: number): Position;
/** Legal moves of the side to move. A side without a king is never in check. */
export function legalMoves(position: Position, options?: RulesOptions): Move[];
/** The position after a legal move (obstacles remove the moving piece). Does not validate. */
export function applyMove(position: Position, move: Move, options?: RulesOptions): Position;
/** UCI text; castling as king-takes-own-rook in Chess960, as king two-step (e1g1) otherwise. */
export function moveToUci(position: Position, move: Move): string;
/** Every UCI string findMove accepts for a legal move (castling: king-takes-rook, and the king's two-step in standard chess). */
export function moveUcis(position: Position, move: Move): string[];
/** The legal move a UCI string names, or null. Accepts king-takes-rook castling always and e1g1-style only in standard chess. Promotion letters must be lowercase. */
export function findMove(position: Position, uci: string, options?: RulesOptions): Move | null;
export function inCheck(position: Position): boolean;
/**
 * python-chess's is_insufficient_material (what CATArena's servers apply): no pawns, rooks or queens,
 * and for each side either nothing but its king, or a lone knight (plus king) against an opponent
 * with nothing but a king and queens, or only bishops when every bishop on the board stands on
 * one square colour and there are no knights. So KN v KN and KB v KB (opposite colours) are NOT
 * insufficient, KB v KB on one colour is.
 */
export function insufficientMaterial(position: Position): boolean;
/** Board, side to move, castling and en-passant (only when an ep capture is legal, as in
 *  python-chess's transposition key): equal keys = the same position for repetition. */
export function positionKey(position: Position): string;
export function perft(position: Position, depth: number, options?: RulesOptions): number;
export function squareName(square: Square): string;
export function parseSquare(name: string): Square;

/**
 * The mutable 0x88 board behind the functions above, for bots that search. Moves are integers
 * (opaque; castling is encoded king-takes-rook). Squares inside are 0x88, so use decode() to read a
 * move. make() returns whether the move was legal (the mover's king not attacked, judged before
 * obstacle removal); call unmake() after every make(), legal or not.
 */
export class Board {
  constructor(position: Position, options?: RulesOptions);
  turn: 0 | 1;
  chess960: boolean;
  /** Pseudo-legal moves written into list from index n; returns the new length. */
  generate(list: Int32Array, n?: number): number;
  /** Legal moves. */
  legal(): number[];
  make(move: number): boolean;
  unmake(): void;
  inCheck(): boolean;
  perft(depth: number): number;
  decode(move: number): Move;
  encode(move: Move): number;
  toPosition(): Position;
}
