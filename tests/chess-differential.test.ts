// Differential test of catarena's chess rules (games/chess/rules.ts on engine/chess-core.mjs)
// against an independent oracle of CATArena's servers (tests/helpers/chess-oracle.mjs, on
// chessops): random games of both rule sets, each ply's legal moves, FEN (the ep square
// included) and status compared, so the final outcome and its termination too. The games lean
// towards what tells rule sets apart: captures and en passant (a pawn that vanished on an
// obstacle included), shuffling pieces (repetitions, the move rules) and moving back and forth.
// The suite plays seeds 1-50 of each rule set and the two seeds that reach an ending the first 50
// do not (standard: a stalemate at seed 85; Chess960: the move cap at seed 186): every ending the
// 200 games per rule set played here before reached, in a quarter of their plies.
// CHESS_DIFF_GAMES=1500 plays seeds 1-1500 per rule set instead.
import { describe, expect, it } from 'vitest';
import { chess, legalUci, type ChessState } from '../games/chess/rules.ts';
import { createRng, type Rng } from '../util/rng.ts';
import { replay } from './helpers/chess-oracle.mjs';

const GAMES = Number(process.env.CHESS_DIFF_GAMES ?? 50);
const seedsUpTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** The seeds played per rule set: 1 … GAMES, and the rare endings' seeds by default. */
const SEEDS = {
  standard: process.env.CHESS_DIFF_GAMES ? seedsUpTo(GAMES) : [...seedsUpTo(GAMES), 85],
  variant: process.env.CHESS_DIFF_GAMES ? seedsUpTo(GAMES) : [...seedsUpTo(GAMES), 186],
};
/** The suite's default per test (60 s) on a loaded CI machine, more for more games. */
const TIMEOUT = 60_000 * Math.max(1, GAMES / 50);

/** Standard chess also accepts castling as king-takes-rook (e1h1); bots are shown (and python-chess lists) the two-step. */
function shown(s: ChessState): string[] {
  const legal = legalUci(s);
  if (s.variant === 'variant') return legal.sort();
  const board = boardOf(s.fen);
  return legal.filter((m) => !(/^e1[ah]1$|^e8[ah]8$/.test(m) && board[sq(m)]?.toLowerCase() === 'k')).sort();
}

type Style = 'random' | 'captures' | 'shuffle' | 'back-and-forth';
const STYLES: Style[] = ['random', 'captures', 'shuffle', 'back-and-forth'];

function boardOf(fen: string): (string | null)[] {
  const board: (string | null)[] = Array(64).fill(null);
  fen
    .split(' ')[0]!
    .split('/')
    .forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else board[(7 - i) * 8 + file++] = ch;
      }
    });
  return board;
}
const sq = (name: string) => name.charCodeAt(0) - 97 + 8 * (Number(name[1]) - 1);

/** A move in the game's style: captures (en passant first), quiet piece moves, or undoing one's last move. */
function pick(rng: Rng, style: Style, s: ChessState, legal: string[]): string {
  const any = () => legal[rng.int(0, legal.length - 1)]!;
  if (style === 'random' || rng.float() < 0.15) return any();
  const board = boardOf(s.fen);
  const pawn = (m: string) => board[sq(m)]?.toLowerCase() === 'p';
  const prefer = (moves: string[]) => (moves.length ? moves[rng.int(0, moves.length - 1)]! : any());
  if (style === 'captures') {
    const ep = s.fen.split(' ')[3];
    const enPassant = legal.filter((m) => ep !== '-' && m.slice(2, 4) === ep && pawn(m));
    if (enPassant.length) return prefer(enPassant);
    const doublePush = legal.filter((m) => pawn(m) && Math.abs(Number(m[3]) - Number(m[1])) === 2);
    if (doublePush.length && rng.float() < 0.3) return prefer(doublePush);
    const white = (p: string | null | undefined) => p !== null && p !== undefined && p === p.toUpperCase();
    return prefer(
      legal.filter((m) => board[sq(m.slice(2, 4))] !== null && white(board[sq(m.slice(2, 4))]) !== white(board[sq(m)])),
    );
  }
  if (style === 'shuffle') return prefer(legal.filter((m) => !pawn(m) && board[sq(m.slice(2, 4))] === null));
  // back-and-forth: play one's own previous move backwards when possible.
  const mine = s.moves.at(-2)?.uci;
  const back = mine ? `${mine.slice(2, 4)}${mine.slice(0, 2)}` : '';
  return legal.includes(back) ? back : prefer(legal.filter((m) => !pawn(m) && board[sq(m.slice(2, 4))] === null));
}

interface Ply {
  fen: string;
  legal: string[];
  status: string;
}

function playOne(
  variant: 'standard' | 'variant',
  seed: number,
  adjudication: 'catarena' | 'engine',
): { s: ChessState; plies: Ply[] } {
  const rng = createRng(seed * 7919 + 17);
  const style = STYLES[seed % STYLES.length]!;
  let s = chess.init(variant, createRng(seed), adjudication === 'engine' ? { options: { adjudication } } : undefined);
  const plies: Ply[] = [{ fen: s.fen, legal: shown(s), status: s.status }];
  while (!s.result) {
    s = chess.apply(s, chess.toMove(s)!, pick(rng, style, s, plies.at(-1)!.legal));
    plies.push({ fen: s.fen, legal: s.result ? [] : shown(s), status: s.status });
  }
  return { s, plies };
}

/** Plays a game per seed and compares every ply with the oracle; returns how the games ended. */
function differential(
  variant: 'standard' | 'variant',
  seeds: number[],
  adjudication: 'catarena' | 'engine' = 'catarena',
): Record<string, number> {
  const endings: Record<string, number> = {};
  for (const seed of seeds) {
    const { s, plies } = playOne(variant, seed, adjudication);
    const oracle = replay({
      variant,
      chess960Pos: s.chess960Pos ?? 518,
      obstacles: s.obstacles,
      moves: s.moves.map((m) => m.uci),
      adjudication,
    }).plies;
    expect(oracle).toHaveLength(plies.length);
    for (let i = 0; i < plies.length; i++) {
      const ours = plies[i]!,
        theirs = oracle[i]!;
      const same =
        ours.fen === theirs.fen &&
        ours.status === theirs.status &&
        (theirs.status !== 'ongoing' || ours.legal.join() === theirs.legal.join());
      if (same) continue; // expect() per ply would cost more than the rules
      const where = `${variant} game ${seed} (Chess960 ${s.chess960Pos}, obstacles ${s.obstacles.join(' ')}), ply ${i}: ${s.moves
        .slice(0, i)
        .map((m) => m.uci)
        .join(' ')}`;
      expect({ fen: ours.fen, status: ours.status, legal: ours.legal }, where).toEqual({
        fen: theirs.fen,
        status: theirs.status,
        legal: theirs.status === 'ongoing' ? theirs.legal : ours.legal,
      });
    }
    endings[s.status] = (endings[s.status] ?? 0) + 1;
  }
  return endings;
}

describe("chess rules against an independent oracle of CATArena's servers (chessops)", () => {
  it('the oracle itself: Chess960 numbering and the issue 29 repros', () => {
    const start = replay({ variant: 'variant', chess960Pos: 518, moves: [] }).plies[0]!;
    expect(start.fen).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(replay({ variant: 'variant', chess960Pos: 0, moves: [] }).plies[0]!.fen.split('/')[7]).toBe(
      'BBQNNRKR w KQkq - 0 1',
    );
    const vanished = replay({
      variant: 'variant',
      chess960Pos: 518,
      obstacles: ['d4', 'e4'],
      moves: ['a2a3', 'f7f5', 'a3a4', 'f5f4', 'e2e4'],
    }).plies.at(-1)!;
    expect(vanished.fen).toBe('rnbqkbnr/ppppp1pp/8/8/P4p2/8/1PPP1PPP/RNBQKBNR b KQkq e3 0 3');
    expect(vanished.legal).toContain('f4e3');
    const live = replay({
      variant: 'variant',
      fen: '7k/5p2/6p1/6P1/8/8/8/8 b - - 0 1',
      obstacles: ['c5', 'f5'],
      moves: ['f7f5'],
    }).plies.at(-1)!;
    expect(live).toEqual({ fen: '7k/8/6p1/6P1/8/8/8/8 w - f6 0 2', legal: ['g5f6'], status: 'ongoing' });
  });

  it(
    `standard chess: ${SEEDS.standard.length} games, every ply`,
    () => {
      const endings = differential('standard', SEEDS.standard);
      // The styles reach the draws that tell CATArena's rules from engine adjudication.
      const reached = ['white_win', 'black_win', 'draw_fivefold_repetition', 'max_moves', 'draw_insufficient_material'];
      if (!process.env.CHESS_DIFF_GAMES) reached.push('draw_stalemate');
      for (const status of reached) expect(endings[status], JSON.stringify(endings)).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    `Chess960 with obstacles: ${SEEDS.variant.length} games, every ply`,
    () => {
      const endings = differential('variant', SEEDS.variant);
      const reached = ['white_win', 'draw_stalemate', 'draw_fivefold_repetition', 'draw_insufficient_material'];
      if (!process.env.CHESS_DIFF_GAMES) reached.push('max_moves');
      for (const status of reached) expect(endings[status], JSON.stringify(endings)).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'adjudication "engine": threefold repetition and fifty moves, in both rule sets',
    () => {
      const endings = { ...differential('standard', seedsUpTo(Math.ceil(GAMES / 5)), 'engine') };
      for (const [k, v] of Object.entries(differential('variant', seedsUpTo(Math.ceil(GAMES / 5)), 'engine')))
        endings[k] = (endings[k] ?? 0) + v;
      expect(endings.draw_threefold_repetition, JSON.stringify(endings)).toBeGreaterThan(0);
    },
    TIMEOUT,
  );
});
