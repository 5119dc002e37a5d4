// The Gomoku replay viewer's data (games/core/viewer.ts), computed with the game's own rules.
//
// Coordinates: CATArena's moves are [i, j] = board[i][j], row i and column j, 0-based, and the
// viewer draws row 0 at the top. A move is written as people write Gomoku/Renju moves: the
// column as a letter a–o (j = 0 → a, left to right) and the row as a number 1–15 counted from the
// bottom (i = 14 → 1, i = 0 → 15), so the centre [7, 7] is "h8". Each move's note keeps the raw
// "[i, j]" for comparing with a bot's own logs.
//
// Frames are small: frames[0] is null (the empty board) and frames[k] is the cell [i, j] the k-th
// move filled (null for a failed request, which ended the game without a stone). The renderer
// rebuilds step k from frames 1..k and the movers' seats. `extra` holds what does not change:
// the board size, the variant's forbidden cells, and the cells to highlight at the end (the
// winning five, or the winner's stored triplets in the variant).
import { twoSeatResultLine, type ViewerData, type ViewerMove } from '../../core/viewer.ts';
import { initSetup } from '../../core/game.ts';
import { createRng } from '../../../util/rng.ts';
import type { Replay } from '../../../records/match.ts';
import { BOARD_SIZE, gomoku, type GomokuMove, type GomokuState } from '../rules.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** "h8" for [7, 7] (see the top of this file). */
export function cellName([i, j]: readonly [number, number], size = BOARD_SIZE): string {
  return `${LETTERS[j]}${size - i}`;
}

const REASON_WORDS: Record<string, string> = {
  five_in_row: 'five in a row',
  two_triplets: 'two triplets',
  board_full: 'the board is full',
};

const resultLine = (result: Replay['result'], names: readonly string[]) =>
  twoSeatResultLine(result, names, REASON_WORDS);

/** The five (or more) in a row through the last stone, if the last move made one. */
function winningLine(state: GomokuState): GomokuMove[] {
  const last = state.lastMove;
  if (!last) return [];
  const [i, j] = last;
  const colour = state.board[i]![j]!;
  const at = (a: number, b: number) =>
    a >= 0 && a < BOARD_SIZE && b >= 0 && b < BOARD_SIZE && state.board[a]![b] === colour;
  for (const [di, dj] of [
    [1, 0],
    [0, 1],
    [1, 1],
    [1, -1],
  ] as const) {
    const run: GomokuMove[] = [[i, j]];
    for (let k = 1; at(i + k * di, j + k * dj); k++) run.push([i + k * di, j + k * dj]);
    for (let k = 1; at(i - k * di, j - k * dj); k++) run.unshift([i - k * di, j - k * dj]);
    if (run.length >= 5) return run;
  }
  return [];
}

export function viewerData(replay: Replay): ViewerData {
  const { result } = replay;
  const { spec } = result;
  const names = [...gomoku.seatNames(spec.variant)];
  let state = gomoku.init(spec.variant, createRng(spec.seed), initSetup(spec));
  const moves: ViewerMove[] = [];
  const frames: unknown[] = [null];
  for (const record of replay.moves) {
    const action = record.action as GomokuMove | null;
    const error = record.error ? `${record.error.kind}: ${record.error.message}` : undefined;
    if (action === null || action === undefined) {
      moves.push({
        ply: record.ply,
        seat: record.seat,
        text: '—',
        latencyMs: record.latencyMs,
        ...(error ? { error } : {}),
      });
      frames.push(null);
      continue;
    }
    state = gomoku.apply(state, record.seat, action);
    moves.push({
      ply: record.ply,
      seat: record.seat,
      text: cellName(action),
      latencyMs: record.latencyMs,
      ...(error ? { error } : {}),
      note: `[${action[0]}, ${action[1]}]`,
    });
    frames.push([action[0], action[1]]);
  }
  let highlight: GomokuMove[] = [];
  let highlightKind: 'five' | 'triplets' | null = null;
  if (result.termination === 'normal' && state.result?.reason === 'five_in_row') {
    highlight = winningLine(state);
    highlightKind = 'five';
  } else if (
    result.termination === 'normal' &&
    state.result?.reason === 'two_triplets' &&
    state.result.winner !== null
  ) {
    const cells = new Map<string, GomokuMove>();
    for (const key of state.triplets[state.result.winner as 0 | 1]) {
      for (const cell of key.split(' ')) cells.set(cell, cell.split(',').map(Number) as GomokuMove);
    }
    highlight = [...cells.values()];
    highlightKind = 'triplets';
  }
  return {
    game: 'gomoku',
    variant: spec.variant,
    id: result.id,
    seats: [...spec.seats],
    seatNames: names,
    moves,
    frames,
    result: resultLine(result, names),
    extra: { size: BOARD_SIZE, forbidden: state.forbidden, highlight, highlightKind },
  };
}
