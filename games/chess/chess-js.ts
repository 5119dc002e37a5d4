// chess.js, loaded on first use: commands that know the games but play no standard chess (help,
// a Gomoku validation) do not pay for loading it.
import { createRequire } from 'node:module';
import type { Chess } from 'chess.js';

let loaded: typeof import('chess.js') | undefined;

/** A chess.js board at a FEN. */
export function chessJs(fen: string): Chess {
  loaded ??= createRequire(import.meta.url)('chess.js') as typeof import('chess.js');
  return new loaded.Chess(fen);
}
