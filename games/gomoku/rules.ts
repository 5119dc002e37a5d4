// Pure Gomoku engine, CATArena-compatible (standard server and the "forbidden points + two
// triplets" variant server). See docs/catarena-compat.md §2.3–2.4.
import { drawOf, winFor, type Game, type Outcome } from '../core/game.ts';
import type { Seat } from '../../records/match.ts';
import type { Rng } from '../../util/rng.ts';

export const BOARD_SIZE = 15;
/** CATArena's variant: min(size, size² / 4) forbidden cells. */
export const FORBIDDEN_COUNT = Math.min(BOARD_SIZE, Math.floor((BOARD_SIZE * BOARD_SIZE) / 4));

export type GomokuVariant = 'standard' | 'variant';
/** [i, j] = board[i][j]: row, column, 0-based. */
export type GomokuMove = [number, number];
export type GomokuStatus = 'ongoing' | 'black_win' | 'white_win' | 'draw';

export interface GomokuState {
  variant: GomokuVariant;
  /** board[i][j]: 0 empty, 1 black, 2 white. Forbidden cells stay 0, as on CATArena's server. */
  board: number[][];
  toMove: 0 | 1 | null;
  moves: { seat: 0 | 1; move: GomokuMove }[];
  /** Variant only; empty in standard. */
  forbidden: GomokuMove[];
  /**
   * Variant only: per seat, the triplets CATArena's server has stored (never cleared), each as
   * its sorted coordinates "i,j i,j i,j". The reported *_triplets_count is the length.
   */
  triplets: [string[], string[]];
  lastMove: GomokuMove | null;
  result: Outcome | null;
}

// CATArena's direction order and sign (server.py find_new_triplets): the sign decides which
// non-contiguous "artefact" triplets get stored, so it must match for the counts to match.
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

const inBoard = (i: number, j: number): boolean => i >= 0 && i < BOARD_SIZE && j >= 0 && j < BOARD_SIZE;

/** Sorted-coordinate key of a triplet, as Python's tuple(sorted(...)) orders it. */
export function tripletKey(cells: readonly (readonly [number, number])[]): string {
  return [...cells]
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([i, j]) => `${i},${j}`)
    .join(' ');
}

/** The mover's run through (i, j) in the order CATArena lists it: new stone, + side, − side. */
function runThrough(board: number[][], i: number, j: number, di: number, dj: number, colour: number) {
  const run: [number, number][] = [[i, j]];
  for (let k = 1; inBoard(i + k * di, j + k * dj) && board[i + k * di]![j + k * dj] === colour; k++) {
    run.push([i + k * di, j + k * dj]);
  }
  for (let k = 1; inBoard(i - k * di, j - k * dj) && board[i - k * di]![j - k * dj] === colour; k++) {
    run.push([i - k * di, j - k * dj]);
  }
  return run;
}

function isForbidden(state: GomokuState, i: number, j: number): boolean {
  return state.forbidden.some(([fi, fj]) => fi === i && fj === j);
}

/** CATArena's game_status string for a state. */
export function gameStatus(state: GomokuState): GomokuStatus {
  if (!state.result) return 'ongoing';
  if (state.result.winner === 0) return 'black_win';
  if (state.result.winner === 1) return 'white_win';
  return 'draw';
}

/** Per-colour stored-triplet counts (black_triplets_count / white_triplets_count). */
export function tripletCounts(state: GomokuState): { black: number; white: number } {
  return { black: state.triplets[0].length, white: state.triplets[1].length };
}

function drawForbidden(rng: Rng): GomokuMove[] {
  // Same procedure as server.py: draw (x, y) uniformly until FORBIDDEN_COUNT distinct cells.
  const seen = new Set<number>();
  const out: GomokuMove[] = [];
  while (out.length < FORBIDDEN_COUNT) {
    const i = rng.int(0, BOARD_SIZE - 1);
    const j = rng.int(0, BOARD_SIZE - 1);
    if (seen.has(i * BOARD_SIZE + j)) continue;
    seen.add(i * BOARD_SIZE + j);
    out.push([i, j]);
  }
  return out;
}

export const gomoku: Game<GomokuState, GomokuMove, GomokuState> = {
  id: 'gomoku',
  variants: ['standard', 'variant'],

  seatNames: () => ['black', 'white'],

  init(variant: string, rng: Rng): GomokuState {
    if (variant !== 'standard' && variant !== 'variant') throw new Error(`unknown gomoku variant '${variant}'`);
    return {
      variant,
      board: Array.from({ length: BOARD_SIZE }, () => Array<number>(BOARD_SIZE).fill(0)),
      toMove: 0,
      moves: [],
      forbidden: variant === 'variant' ? drawForbidden(rng) : [],
      triplets: [[], []],
      lastMove: null,
      result: null,
    };
  },

  toMove: (state) => state.toMove,

  validate(state: GomokuState, seat: Seat, action: unknown): string | null {
    if (state.result || state.toMove === null) return 'game_over';
    if (seat !== state.toMove) return 'not_your_turn';
    if (!Array.isArray(action) || action.length !== 2 || !action.every((x) => Number.isInteger(x))) {
      return 'bad_shape';
    }
    const [i, j] = action as [number, number];
    if (!inBoard(i, j)) return 'off_board';
    if (state.board[i]![j] !== 0) return 'occupied';
    if (isForbidden(state, i, j)) return 'forbidden';
    return null;
  },

  legalActions(state: GomokuState, seat: Seat): GomokuMove[] {
    if (state.result || seat !== state.toMove) return [];
    const blocked = new Set(state.forbidden.map(([i, j]) => i * BOARD_SIZE + j));
    const out: GomokuMove[] = [];
    for (let i = 0; i < BOARD_SIZE; i++) {
      for (let j = 0; j < BOARD_SIZE; j++) {
        if (state.board[i]![j] === 0 && !blocked.has(i * BOARD_SIZE + j)) out.push([i, j]);
      }
    }
    return out;
  },

  apply(state: GomokuState, seat: Seat, action: GomokuMove): GomokuState {
    const why = gomoku.validate(state, seat, action);
    if (why) throw new Error(`illegal gomoku move ${JSON.stringify(action)} by seat ${seat}: ${why}`);
    const mover = seat as 0 | 1;
    const colour = mover + 1;
    const [i, j] = action;
    const board = state.board.slice();
    board[i] = board[i]!.slice();
    board[i]![j] = colour;
    const move: GomokuMove = [i, j];
    const moves = [...state.moves, { seat: mover, move }];

    let result: Outcome | null = null;
    let triplets = state.triplets;
    if (state.variant === 'standard') {
      // Five OR MORE through the new stone (the server counts overlines).
      for (const [di, dj] of DIRECTIONS) {
        if (runThrough(board, i, j, di, dj, colour).length >= 5) {
          result = winFor(mover, 'five_in_row');
          break;
        }
      }
    } else {
      // Every window of 3 consecutive LIST entries is a triplet (CATArena's quirk, kept for
      // exact counts); five in a row is not checked.
      const mine = new Set(state.triplets[mover]);
      const before = mine.size;
      for (const [di, dj] of DIRECTIONS) {
        const run = runThrough(board, i, j, di, dj, colour);
        for (let k = 0; k + 3 <= run.length; k++) mine.add(tripletKey(run.slice(k, k + 3)));
      }
      if (mine.size !== before) {
        const updated = [...mine];
        triplets = mover === 0 ? [updated, state.triplets[1]] : [state.triplets[0], updated];
      }
      if (mine.size >= 2) result = winFor(mover, 'two_triplets');
    }
    // Full board: no playable cell left. (CATArena's variant server never sees its board full
    // because forbidden cells stay 0; the arena then ends it as an 'error' draw. Same score.)
    if (!result && moves.length >= BOARD_SIZE * BOARD_SIZE - state.forbidden.length) {
      result = drawOf('board_full');
    }
    return {
      variant: state.variant,
      board,
      toMove: result ? null : ((1 - mover) as 0 | 1),
      moves,
      forbidden: state.forbidden,
      triplets,
      lastMove: move,
      result,
    };
  },

  outcome: (state) => state.result,

  view: (state) => state,
};
