// The chess rules remember recent positions' legal moves and move verdicts (games/chess/rules.ts).
// Here random games, several interleaved as a tourney plays them, are checked move by move
// against chess-core asked directly with no cache: the same verdict for every legal move and for
// names that are not legal, and the same position, repetition key and outcome after each move.
import { describe, expect, it } from 'vitest';
import { chess, type ChessState } from '../games/chess/rules.ts';
import * as core from '../games/chess/engine/chess-core.mjs';
import { createRng } from '../util/rng.ts';

/** The position after `uci` as chess-core says it, asked afresh (what the rules computed before they cached). */
function direct(s: ChessState, uci: string) {
  const variant = s.variant === 'variant';
  const options = variant ? { obstacles: s.obstacles.map(core.parseSquare) } : undefined;
  const pos = variant ? core.parseFen(s.fen, { chess960: true }) : core.parseFen(s.fen);
  const move = core.findMove(pos, uci, options);
  if (!move) return null;
  const next = core.applyMove(pos, move, options);
  return {
    fen: core.toFen(next, { enPassant: 'legal' }),
    key: core.positionKey(next),
    noMoves: core.legalMoves(next, options).length === 0,
    inCheck: core.inCheck(next),
  };
}

function directLegal(s: ChessState): string[] {
  const variant = s.variant === 'variant';
  const pos = variant ? core.parseFen(s.fen, { chess960: true }) : core.parseFen(s.fen);
  const options = variant ? { obstacles: s.obstacles.map(core.parseSquare) } : undefined;
  return core.legalMoves(pos, options).flatMap((m) => (variant ? [core.moveToUci(pos, m)] : core.moveUcis(pos, m)));
}

describe('chess rules with remembered positions', () => {
  for (const variant of ['standard', 'variant'] as const) {
    it(`${variant}: 12 interleaved random games agree with chess-core asked directly at every ply`, () => {
      const rng = createRng(variant === 'standard' ? 7 : 8);
      let games = Array.from({ length: 12 }, (_, i) => chess.init(variant, createRng(1000 + i)));
      let plies = 0;
      let ends = 0;
      while (games.length > 0) {
        const next: ChessState[] = [];
        for (const s of games) {
          const seat = chess.toMove(s)!;
          const legal = directLegal(s);
          expect(legal.length).toBeGreaterThan(0);
          if (variant === 'variant') expect(chess.legalActions(s, seat)).toEqual(legal);
          // every legal name in the variant (a list lookup); four in standard chess (each a verdict)
          const asked = variant === 'variant' ? legal : [0, 1, 2, 3].map(() => legal[rng.int(0, legal.length - 1)]!);
          for (const uci of asked) expect(chess.validate(s, seat, uci)).toBeNull();
          // names that are not moves here: a legal move's reverse, a null move, a promotion letter added
          for (const bad of [`${legal[0]!.slice(2, 4)}${legal[0]!.slice(0, 2)}`, 'a1a1', `${legal[0]!.slice(0, 4)}q`])
            if (!legal.includes(bad)) expect(chess.validate(s, seat, bad)).toBe('illegal');
          const uci = legal[rng.int(0, legal.length - 1)]!;
          const want = direct(s, uci)!;
          const after = chess.apply(s, seat, uci);
          plies++;
          expect(after.fen).toBe(want.fen);
          expect(after.keys.at(-1)).toBe(want.key);
          if (want.noMoves) expect(after.result?.reason).toBe(want.inCheck ? 'checkmate' : 'stalemate');
          else expect(['checkmate', 'stalemate']).not.toContain(after.result?.reason);
          if (after.result) ends++;
          else next.push(after);
        }
        games = next;
      }
      expect(ends).toBe(12);
      expect(plies).toBeGreaterThan(600);
    }, 120_000);
  }

  it('after double pushes, with and without an en-passant capture, agrees with chess-core asked directly', () => {
    // 1. e4: the FEN drops e3 (no capture can use it); 3. e5 d5: it keeps d6 (exd6 is legal), and exd6 follows.
    let s = chess.init('standard', createRng(1));
    const fens: string[] = [];
    for (const uci of ['e2e4', 'a7a6', 'e4e5', 'd7d5', 'e5d6', 'e7d6', 'd1h5', 'g7g6', 'h5g6', 'f7g6']) {
      const seat = chess.toMove(s)!;
      expect([...new Set(chess.legalActions(s, seat))].sort()).toEqual([...new Set(directLegal(s))].sort());
      expect(chess.validate(s, seat, uci)).toBeNull();
      const want = direct(s, uci)!;
      s = chess.apply(s, seat, uci);
      expect(s.fen).toBe(want.fen);
      expect(s.keys.at(-1)).toBe(want.key);
      expect(s.result).toBeNull();
      fens.push(s.fen);
    }
    expect(fens[0]).toContain(' b KQkq - ');
    expect(fens[3]).toContain(' w KQkq d6 ');
  });
});
