// Types of tests/helpers/chess-oracle.mjs (the chessops-based oracle of the chess differential test).
export const MAX_PLIES: number;
export function chess960BackRank(n: number): string;
export interface OraclePly {
  fen: string;
  /** Legal moves as UCI, sorted (castling king-takes-rook in the variant, the king's two-step in standard chess). */
  legal: string[];
  /** CATArena's game_status after this ply: ongoing, white_win, black_win, draw_* or max_moves. */
  status: string;
}
export function replay(game: {
  variant?: 'standard' | 'variant';
  chess960Pos?: number;
  fen?: string;
  obstacles?: string[];
  moves: string[];
  adjudication?: 'catarena' | 'engine';
  maxPlies?: number;
}): { plies: OraclePly[] };
