// Gomoku rules from hand-built positions. Expected values are reasoned from CATArena's rules
// (docs/catarena-compat.md §2.3–2.4), not read back from the engine.
import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import {
  BOARD_SIZE,
  FORBIDDEN_COUNT,
  gameStatus,
  gomoku,
  tripletCounts,
  type GomokuMove,
  type GomokuState,
} from '../games/gomoku/rules.ts';

/** A fresh game; the variant gets no forbidden cells so hand-built lines are never blocked. */
function fresh(variant: 'standard' | 'variant' = 'standard'): GomokuState {
  const s = gomoku.init(variant, createRng(1));
  return variant === 'variant' ? { ...s, forbidden: [] } : s;
}

/** Plays moves alternately starting with black: black[0], white[0], black[1], … */
function interleave(black: GomokuMove[], white: GomokuMove[]): GomokuMove[] {
  const out: GomokuMove[] = [];
  for (let k = 0; k < Math.max(black.length, white.length); k++) {
    if (k < black.length) out.push(black[k]!);
    if (k < white.length) out.push(white[k]!);
  }
  return out;
}

function play(state: GomokuState, moves: GomokuMove[]): GomokuState {
  for (const m of moves) state = gomoku.apply(state, state.toMove!, m);
  return state;
}

// Filler stones far from the action, two cells apart: they never form a line of 2+.
const FILL_TOP: GomokuMove[] = [
  [0, 0],
  [0, 2],
  [0, 4],
  [0, 6],
  [0, 8],
  [0, 10],
  [0, 12],
];
const FILL_BOTTOM: GomokuMove[] = [
  [14, 0],
  [14, 2],
  [14, 4],
  [14, 6],
  [14, 8],
  [14, 10],
  [14, 12],
];

const LINES: Record<string, GomokuMove[]> = {
  horizontal: [
    [7, 3],
    [7, 4],
    [7, 5],
    [7, 6],
    [7, 7],
  ],
  vertical: [
    [3, 7],
    [4, 7],
    [5, 7],
    [6, 7],
    [7, 7],
  ],
  diagonal: [
    [3, 3],
    [4, 4],
    [5, 5],
    [6, 6],
    [7, 7],
  ],
  antiDiagonal: [
    [3, 11],
    [4, 10],
    [5, 9],
    [6, 8],
    [7, 7],
  ],
};

describe('gomoku standard', () => {
  it('starts empty with black to move', () => {
    const s = fresh();
    expect(s.board.length).toBe(15);
    expect(s.board.every((row) => row.length === 15 && row.every((c) => c === 0))).toBe(true);
    expect(gomoku.toMove(s)).toBe(0);
    expect(gomoku.seatNames('standard')).toEqual(['black', 'white']);
    expect(s.forbidden).toEqual([]);
    expect(gomoku.legalActions(s, 0)).toHaveLength(225);
    expect(gameStatus(s)).toBe('ongoing');
  });

  for (const [name, line] of Object.entries(LINES)) {
    it(`black wins with five ${name}`, () => {
      let s = play(fresh(), interleave(line.slice(0, 4), FILL_TOP.slice(0, 4)));
      expect(s.result).toBeNull(); // four is not enough
      expect(s.toMove).toBe(0);
      s = gomoku.apply(s, 0, line[4]!);
      expect(gomoku.outcome(s)).toEqual({ scores: [1, 0], reason: 'five_in_row', winner: 0 });
      expect(gomoku.toMove(s)).toBeNull();
      expect(gameStatus(s)).toBe('black_win');
    });

    it(`white wins with five ${name}`, () => {
      // Black fills first, so white's fifth stone comes after black's fifth filler.
      let s = play(fresh(), interleave(FILL_BOTTOM.slice(0, 5), line.slice(0, 4)));
      expect(s.result).toBeNull();
      expect(s.toMove).toBe(1);
      s = gomoku.apply(s, 1, line[4]!);
      expect(s.result).toEqual({ scores: [0, 1], reason: 'five_in_row', winner: 1 });
      expect(gameStatus(s)).toBe('white_win');
    });
  }

  it('a five with a gap does not win; filling the gap makes six, which wins (overline)', () => {
    const black: GomokuMove[] = [
      [7, 3],
      [7, 4],
      [7, 6],
      [7, 7],
      [7, 8],
    ];
    let s = play(fresh(), interleave(black, FILL_TOP.slice(0, 5)));
    expect(s.result).toBeNull(); // five stones, not five in a row
    s = gomoku.apply(s, 0, [7, 5]);
    expect(s.result?.winner).toBe(0);
    expect(s.result?.reason).toBe('five_in_row');
  });

  it('four blocked by the opponent stays undecided', () => {
    const s = play(fresh(), [
      [7, 3],
      [7, 7],
      [7, 4],
      [0, 0],
      [7, 5],
      [0, 2],
      [7, 6],
    ]);
    expect(s.result).toBeNull();
    expect(s.board[7]).toEqual([0, 0, 0, 1, 1, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0]);
    expect(tripletCounts(s)).toEqual({ black: 0, white: 0 }); // standard tracks no triplets
  });

  it('apply is immutable and the state is JSON-serialisable', () => {
    const s0 = fresh();
    const s1 = gomoku.apply(s0, 0, [7, 7]);
    expect(s0.board[7]![7]).toBe(0);
    expect(s0.moves).toEqual([]);
    expect(s1.board[7]![7]).toBe(1);
    expect(s1.board[0]).toBe(s0.board[0]); // untouched rows are shared
    expect(s1.moves).toEqual([{ seat: 0, move: [7, 7] }]);
    expect(s1.lastMove).toEqual([7, 7]);
    expect(s1.toMove).toBe(1);
    expect(JSON.parse(JSON.stringify(s1))).toEqual(s1);
  });
});

/** Pattern for a drawn full board: 2-wide stripes, each row shifted by 2 columns. */
const stripe = (i: number, j: number): 1 | 2 => ((j + 2 * i) % 4 < 2 ? 1 : 2);

function longestRun(colour: (i: number, j: number) => number): number {
  let best = 0;
  for (const [di, dj] of [
    [0, 1],
    [1, 0],
    [1, 1],
    [1, -1],
  ] as const) {
    for (let i = 0; i < 15; i++) {
      for (let j = 0; j < 15; j++) {
        let k = 1;
        while (i + k * di < 15 && j + k * dj >= 0 && j + k * dj < 15 && colour(i + k * di, j + k * dj) === colour(i, j))
          k++;
        best = Math.max(best, k);
      }
    }
  }
  return best;
}

function stripeGame(): GomokuMove[] {
  const black: GomokuMove[] = [];
  const white: GomokuMove[] = [];
  for (let i = 0; i < 15; i++) for (let j = 0; j < 15; j++) (stripe(i, j) === 1 ? black : white).push([i, j]);
  return interleave(black, white);
}

describe('gomoku full board', () => {
  it('the stripe pattern has no line longer than 2 and 113 black / 112 white stones', () => {
    expect(longestRun(stripe)).toBe(2);
    let black = 0;
    for (let i = 0; i < 15; i++) for (let j = 0; j < 15; j++) if (stripe(i, j) === 1) black++;
    expect(black).toBe(113);
  });

  it('filling the board without a five is a draw (standard)', () => {
    const moves = stripeGame();
    const s = play(fresh(), moves.slice(0, 224));
    expect(s.result).toBeNull();
    expect(gomoku.legalActions(s, 0)).toEqual([moves[224]]);
    const end = gomoku.apply(s, 0, moves[224]!);
    expect(end.result).toEqual({ scores: [0.5, 0.5], reason: 'board_full', winner: null });
    expect(gameStatus(end)).toBe('draw');
    expect(gomoku.validate(end, 1, [0, 0])).toBe('game_over');
  });

  it('the same pattern is a draw in the variant too (no triplet anywhere)', () => {
    const end = play(fresh('variant'), stripeGame());
    expect(end.result?.reason).toBe('board_full');
    expect(tripletCounts(end)).toEqual({ black: 0, white: 0 });
  });
});

describe('gomoku variant: two triplets', () => {
  it('one 3-line does not win; a second separate 3-line does', () => {
    const black: GomokuMove[] = [
      [7, 5],
      [7, 6],
      [7, 7],
      [10, 5],
      [10, 6],
      [10, 7],
    ];
    let s = play(fresh('variant'), interleave(black.slice(0, 3), FILL_TOP.slice(0, 2)));
    expect(s.result).toBeNull();
    expect(s.triplets[0]).toEqual(['7,5 7,6 7,7']);
    expect(tripletCounts(s)).toEqual({ black: 1, white: 0 });
    s = play(s, interleave(FILL_TOP.slice(2, 5), black.slice(3, 5))); // white, black, white, black, white
    expect(s.result).toBeNull();
    s = gomoku.apply(s, 0, [10, 7]);
    expect(s.result).toEqual({ scores: [1, 0], reason: 'two_triplets', winner: 0 });
    expect(new Set(s.triplets[0])).toEqual(new Set(['7,5 7,6 7,7', '10,5 10,6 10,7']));
    expect(gameStatus(s)).toBe('black_win');
  });

  it('five in a row alone is not the rule: four in a row already wins (two overlapping triplets)', () => {
    let s = play(
      fresh('variant'),
      interleave(
        [
          [7, 3],
          [7, 4],
          [7, 5],
        ],
        FILL_TOP.slice(0, 3),
      ),
    );
    expect(s.result).toBeNull(); // one triplet
    s = gomoku.apply(s, 0, [7, 6]);
    // List from (7,6): (7,6), then − side (7,5),(7,4),(7,3) → windows {4,5,6} new, {3,4,5} already stored.
    expect(s.result?.reason).toBe('two_triplets');
    expect(new Set(s.triplets[0])).toEqual(new Set(['7,3 7,4 7,5', '7,4 7,5 7,6']));
  });

  it('a single move making a 4-line from nothing wins at once (X X _ X)', () => {
    const s = play(
      fresh('variant'),
      interleave(
        [
          [7, 3],
          [7, 4],
          [7, 6],
          [7, 5],
        ],
        FILL_TOP.slice(0, 3),
      ),
    );
    // List from (7,5): (7,5),(7,6),(7,4),(7,3) → {5,6,4} and {6,4,3} (the second is an artefact).
    expect(s.result?.winner).toBe(0);
    expect(new Set(s.triplets[0])).toEqual(new Set(['7,4 7,5 7,6', '7,3 7,4 7,6']));
  });

  it('a move completing 3-lines in two directions wins', () => {
    const s = play(
      fresh('variant'),
      interleave(
        [
          [7, 5],
          [7, 6],
          [5, 7],
          [6, 7],
          [7, 7],
        ],
        FILL_TOP.slice(0, 4),
      ),
    );
    expect(s.result?.reason).toBe('two_triplets');
    expect(new Set(s.triplets[0])).toEqual(new Set(['5,7 6,7 7,7', '7,5 7,6 7,7']));
  });

  it('filling the middle of X X _ X X (a five) stores CATArena’s three triplets', () => {
    const s = play(
      fresh('variant'),
      interleave(
        [
          [7, 5],
          [7, 6],
          [7, 8],
          [7, 9],
          [7, 7],
        ],
        FILL_TOP.slice(0, 4),
      ),
    );
    // List (7,7),(7,8),(7,9),(7,6),(7,5); windows of 3 list entries, each sorted.
    expect(new Set(s.triplets[0])).toEqual(new Set(['7,7 7,8 7,9', '7,6 7,8 7,9', '7,5 7,6 7,9']));
    expect(tripletCounts(s)).toEqual({ black: 3, white: 0 });
    expect(s.result?.reason).toBe('two_triplets');
  });

  it('uses CATArena’s direction signs: (1,-1) lists (8,6),(9,5) before (6,8),(5,9)', () => {
    const s = play(
      fresh('variant'),
      interleave(
        [
          [5, 9],
          [6, 8],
          [8, 6],
          [9, 5],
          [7, 7],
        ],
        FILL_TOP.slice(0, 4),
      ),
    );
    expect(new Set(s.triplets[0])).toEqual(new Set(['7,7 8,6 9,5', '6,8 8,6 9,5', '5,9 6,8 9,5']));
  });

  it('white wins too, and triplets are per colour', () => {
    const white: GomokuMove[] = [
      [3, 3],
      [4, 4],
      [5, 5],
      [3, 10],
      [4, 10],
      [5, 10],
    ];
    const black: GomokuMove[] = [
      [10, 1],
      [10, 2],
      [10, 3],
      [13, 0],
      [13, 2],
      [13, 4],
    ];
    let s = play(fresh('variant'), interleave(black, white.slice(0, 5)));
    expect(tripletCounts(s)).toEqual({ black: 1, white: 1 });
    expect(s.result).toBeNull();
    s = gomoku.apply(s, 1, [5, 10]);
    expect(s.result).toEqual({ scores: [0, 1], reason: 'two_triplets', winner: 1 });
    expect(gameStatus(s)).toBe('white_win');
  });
});

describe('gomoku variant: forbidden cells', () => {
  it('15 distinct on-board cells, deterministic per seed', () => {
    const a = gomoku.init('variant', createRng(42)).forbidden;
    const b = gomoku.init('variant', createRng(42)).forbidden;
    const c = gomoku.init('variant', createRng(43)).forbidden;
    expect(FORBIDDEN_COUNT).toBe(15);
    expect(a).toHaveLength(15);
    expect(new Set(a.map(([i, j]) => `${i},${j}`)).size).toBe(15);
    expect(a.every(([i, j]) => i >= 0 && i < BOARD_SIZE && j >= 0 && j < BOARD_SIZE)).toBe(true);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('cover the whole board over many seeds, centre and corners included', () => {
    const hits = new Set<string>();
    for (let seed = 0; seed < 300; seed++) {
      for (const [i, j] of gomoku.init('variant', createRng(seed)).forbidden) hits.add(`${i},${j}`);
    }
    for (const cell of ['7,7', '0,0', '0,14', '14,0', '14,14']) expect(hits.has(cell)).toBe(true);
  });

  it('are illegal and excluded from legalActions', () => {
    const s = gomoku.init('variant', createRng(7));
    const legal = gomoku.legalActions(s, 0);
    expect(legal).toHaveLength(225 - 15);
    const legalKeys = new Set(legal.map(([i, j]) => `${i},${j}`));
    for (const [i, j] of s.forbidden) {
      expect(legalKeys.has(`${i},${j}`)).toBe(false);
      expect(gomoku.validate(s, 0, [i, j])).toBe('forbidden');
      expect(() => gomoku.apply(s, 0, [i, j])).toThrow(/forbidden/);
    }
  });
});

describe('gomoku validate', () => {
  it('rejects garbage without throwing', () => {
    const s = fresh();
    const garbage: unknown[] = [
      'x',
      null,
      undefined,
      3,
      1.5,
      {},
      { 0: 1, 1: 2, length: 2 },
      [],
      [1],
      [1, 2, 3],
      [1.5, 2],
      ['1', '2'],
      [NaN, 1],
      [Infinity, 0],
      [true, false],
      [[1], [2]],
      [null, null],
    ];
    for (const g of garbage) expect(gomoku.validate(s, 0, g as GomokuMove)).toBe('bad_shape');
    for (const g of [
      [-1, 0],
      [15, 0],
      [0, 15],
      [0, -3],
      [1e20, 0],
    ]) {
      expect(gomoku.validate(s, 0, g as GomokuMove)).toBe('off_board');
    }
    expect(() => gomoku.apply(s, 0, 'x' as unknown as GomokuMove)).toThrow(/bad_shape/);
  });

  it('occupied and not-your-turn', () => {
    const s = gomoku.apply(fresh(), 0, [7, 7]);
    expect(gomoku.validate(s, 1, [7, 7])).toBe('occupied');
    expect(gomoku.validate(s, 0, [7, 8])).toBe('not_your_turn');
    expect(gomoku.validate(s, 2, [7, 8])).toBe('not_your_turn');
    expect(gomoku.validate(s, 1, [7, 8])).toBeNull();
    expect(gomoku.legalActions(s, 0)).toEqual([]);
    expect(gomoku.legalActions(s, 1)).toHaveLength(224);
    expect(() => gomoku.apply(s, 0, [7, 8])).toThrow(/not_your_turn/);
  });

  it('game over blocks every further move', () => {
    const s = play(fresh(), interleave(LINES.horizontal!, FILL_TOP.slice(0, 4)));
    expect(gomoku.validate(s, 1, [9, 9])).toBe('game_over');
    expect(gomoku.validate(s, 0, [9, 9])).toBe('game_over');
    expect(gomoku.legalActions(s, 1)).toEqual([]);
    expect(() => gomoku.apply(s, 1, [9, 9])).toThrow(/game_over/);
  });

  it('unknown variants are rejected', () => {
    expect(() => gomoku.init('renju', createRng(1))).toThrow();
  });
});
