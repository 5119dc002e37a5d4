// The chess replay (games/chess/pgn.ts replayChess) takes each ply's SAN from the rules' verdict
// (written when the move was played, or again from the rules' own move table) instead of generating
// the legal moves again (parseFen, findMove, sanOf). Here
// seeded random games of both rule sets are replayed and every ply compared with that older path,
// written out below on chess-core asked directly: the same SAN, FEN, check and obstacle flags.
import { describe, expect, it } from 'vitest';
import * as core from '../games/chess/engine/chess-core.mjs';
import { replayChess, sanOf } from '../games/chess/pgn.ts';
import { chess, forgetPositions, type ChessState } from '../games/chess/rules.ts';
import { DEFAULT_LIMITS, matchId, type MatchSpec, type MoveRecord, type Replay } from '../records/match.ts';
import { createRng } from '../util/rng.ts';

/** A random game played with the rules, as a replay. */
function randomGame(variant: 'standard' | 'variant', seed: number): { replay: Replay; states: ChessState[] } {
  const spec: MatchSpec = { game: 'chess', variant, seats: ['a', 'b'], seed, limits: DEFAULT_LIMITS, policy: 'strict' };
  const rng = createRng(seed * 31 + 7);
  let state = chess.init(variant, createRng(seed));
  const states = [state];
  const moves: MoveRecord[] = [];
  while (!state.result) {
    const seat = chess.toMove(state)!;
    const legal = chess.legalActions(state, seat);
    const uci = legal[rng.int(0, legal.length - 1)]!;
    moves.push({ ply: moves.length, seat, action: uci, latencyMs: 1 });
    state = chess.apply(state, seat, uci);
    states.push(state);
  }
  const outcome = state.result!;
  const replay = {
    result: {
      id: matchId(spec),
      spec,
      winner: outcome.winner ?? null,
      scores: outcome.scores,
      termination: 'normal',
      reason: outcome.reason,
      plies: moves.length,
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 1,
      seatStats: [],
    },
    moves,
  } as unknown as Replay;
  return { replay, states };
}

/** The SAN of each ply as replayChess computed it before: a fresh parse, findMove and sanOf per ply. */
function oldSans(states: ChessState[], replay: Replay): string[] {
  return replay.moves.map((m, i) => {
    const s = states[i]!;
    const options = { obstacles: s.obstacles.map(core.parseSquare) };
    const position = core.parseFen(s.fen, { chess960: s.variant === 'variant' });
    const move = core.findMove(position, String(m.action), options)!;
    return sanOf(position, move, options);
  });
}

describe('chess replay from the rules tables', () => {
  for (const variant of ['standard', 'variant'] as const) {
    it(`${variant}: SAN, FEN, check and obstacle of every ply of 16 random games equal the older path`, () => {
      let plies = 0;
      let checks = 0;
      for (let seed = 1; seed <= 16; seed++) {
        const { replay, states } = randomGame(variant, seed);
        // interleave another game's replay, as reports of a tourney see them; half the games
        // replayed with nothing remembered of them, half soon after they were played
        if (seed % 2 === 0) replayChess(randomGame(variant, seed + 100).replay);
        else forgetPositions();
        const game = replayChess(replay);
        const sans = oldSans(states, replay);
        expect(game.plies.map((p) => p.san)).toEqual(sans);
        expect(game.plies.map((p) => p.fen)).toEqual(states.slice(1).map((s) => s.fen));
        expect(game.plies.map((p) => p.check)).toEqual(sans.map((san) => /[+#]$/.test(san)));
        expect(game.plies.map((p) => p.obstacle)).toEqual(states.at(-1)!.moves.map((m) => m.obstacle));
        expect(game.final).toEqual(states.at(-1));
        plies += game.plies.length;
        checks += sans.filter((san) => san.endsWith('+')).length;
      }
      expect(plies).toBeGreaterThan(1000);
      expect(checks).toBeGreaterThan(10);
    });
  }
});

describe('chess rules: the position after a move from one board', () => {
  // Castling rights with a rook outward of the castling rook (X-FEN names it by file), en passant
  // legal and not, promotions, a king missing, in both rule sets.
  const cases: [variant: 'standard' | 'variant', fen: string, obstacles: string[]][] = [
    ['variant', '1r2k1rr/p6p/8/8/8/8/P6P/RR2K1R1 w GBgb - 0 1', []],
    ['variant', 'r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1', ['c3', 'f3']],
    ['variant', 'rk4rr/8/8/3pP3/8/8/8/RK4RR w GAga d6 0 1', ['d7', 'e7']],
    ['variant', '4r3/8/8/8/8/8/8/R3K2R b KQ - 0 1', ['a3', 'h3']],
    ['standard', 'r3k2r/pppq1ppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 9', []],
    ['standard', 'r3k2r/1P4P1/8/8/8/8/6p1/R3K2R b KQkq - 0 1', []],
    ['standard', '8/8/8/2k5/3pP3/8/8/4K2R b K e3 0 1', []],
  ];
  it('FEN, check and mate of every legal move equal chess-core asked directly', () => {
    let moves = 0;
    for (const [variant, fen, obstacles] of cases) {
      const base = chess.init(variant, createRng(1));
      const s: ChessState = { ...base, fen, obstacles, keys: [fen.split(' ').slice(0, 4).join(' ')] };
      const options = { obstacles: obstacles.map(core.parseSquare) };
      const pos = core.parseFen(fen, variant === 'variant' ? { chess960: true } : {});
      for (const move of core.legalMoves(pos, options)) {
        const uci = core.moveToUci(pos, move);
        const next = core.applyMove(pos, move, options);
        const after = chess.apply(s, chess.toMove(s)!, uci);
        expect(after.fen, `${fen} ${uci}`).toBe(core.toFen(next, { enPassant: 'legal' }));
        const mate = core.inCheck(next) && core.legalMoves(next, options).length === 0;
        expect(after.result?.reason === 'checkmate', `${fen} ${uci}`).toBe(mate);
        moves++;
      }
    }
    expect(moves).toBeGreaterThan(100);
  });
});
