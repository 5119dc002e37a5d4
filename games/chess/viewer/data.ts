// The chess replay viewer's data (games/core/viewer.ts): every ply re-applied with the game's own
// rules (games/chess/pgn.ts replayChess, on rules.ts), so standard chess and the variant
// (Chess960 start, obstacles that remove a piece ending its move on them) are both exact.
//
// Moves are written in SAN (O-O / O-O-O for Chess960 castling too); each move's note keeps the
// UCI the bot sent (Chess960 castling as king-takes-rook, "f1h1") and says when an obstacle
// removed the piece. frames[k] is the position after k moves: {fen, from, to, check, obstacle}
// (frames[0]: {fen} of the start; a failed request repeats the previous FEN with `failed`).
// `extra` holds the obstacles, the Chess960 start number, and the game's PGN (pgn.ts) with
// whether a PGN reader can follow it (a variant game where an obstacle removed a piece cannot).
import type { ViewerData, ViewerMove } from '../../core/viewer.ts';
import type { Replay } from '../../../records/match.ts';
import { chessPgn, chessResultLine, replayChess } from '../pgn.ts';

export interface ChessFrame {
  fen: string;
  from?: string;
  to?: string;
  check?: boolean;
  obstacle?: boolean;
  failed?: boolean;
}

export function viewerData(replay: Replay): ViewerData {
  const { result } = replay;
  const { spec } = result;
  const game = replayChess(replay);
  const byPly = new Map(game.plies.map((p) => [p.ply, p]));
  const moves: ViewerMove[] = [];
  const frames: ChessFrame[] = [{ fen: game.startFen }];
  for (const record of replay.moves) {
    const error = record.error ? `${record.error.kind}: ${record.error.message}` : undefined;
    const ply = record.action === null || record.action === undefined ? undefined : byPly.get(record.ply);
    if (!ply) {
      moves.push({
        ply: record.ply,
        seat: record.seat,
        text: '—',
        latencyMs: record.latencyMs,
        ...(error ? { error } : {}),
      });
      frames.push({ fen: frames.at(-1)!.fen, failed: true });
      continue;
    }
    const note = ply.obstacle ? `${ply.uci}, removed by the obstacle on ${ply.to}` : ply.uci;
    moves.push({
      ply: record.ply,
      seat: record.seat,
      text: ply.san,
      latencyMs: record.latencyMs,
      ...(error ? { error } : {}),
      note,
    });
    frames.push({
      fen: ply.fen,
      from: ply.from,
      to: ply.to,
      ...(ply.check ? { check: true } : {}),
      ...(ply.obstacle ? { obstacle: true } : {}),
    });
  }
  const pgn = chessPgn(replay, {}, game);
  return {
    game: 'chess',
    variant: spec.variant,
    id: result.id,
    seats: [...spec.seats],
    seatNames: ['white', 'black'],
    pairedMoves: true,
    moves,
    frames,
    result: chessResultLine(result),
    extra: {
      obstacles: game.obstacles,
      chess960Pos: game.chess960Pos,
      pgn: pgn.pgn,
      pgnRepresentable: pgn.representable,
      ...(pgn.note ? { pgnNote: pgn.note } : {}),
    },
  };
}
