// Chess rules through the Game interface: end conditions, the CATArena variant's setup and
// obstacles, and validation of whatever a bot sends.
import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import { chess, legalUci, MAX_PLIES, type ChessState } from '../games/chess/rules.ts';

const play = (s: ChessState, moves: string[]) => moves.reduce((st, m) => chess.apply(st, chess.toMove(st)!, m), s);
const start = (variant = 'standard', seed = 1) => chess.init(variant, createRng(seed));

describe('standard chess', () => {
  it("ends in checkmate (fool's mate) with black winning", () => {
    const s = play(start(), ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
    expect(s.result).toEqual({ scores: [0, 1], reason: 'checkmate', winner: 1 });
    expect(s.status).toBe('black_win');
    expect(chess.toMove(s)).toBeNull();
  });

  // CATArena's servers end a game only on the automatic draws (compat §3.2): fivefold repetition
  // and the 75-move rule; threefold and fifty moves are claims nobody makes there (issue 29).
  it('draws by fivefold repetition, not threefold, by default', () => {
    const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
    const thrice = play(start(), [...shuffle, ...shuffle]);
    expect(thrice.result).toBeNull();
    const fourTimes = play(thrice, [...shuffle, ...shuffle.slice(0, 3)]);
    expect(fourTimes.result).toBeNull();
    const fiveTimes = play(fourTimes, [shuffle[3]!]);
    expect(fiveTimes.result).toEqual({ scores: [0.5, 0.5], reason: 'fivefold_repetition', winner: null });
    expect(fiveTimes.status).toBe('draw_fivefold_repetition');
  });

  it('with adjudication "engine", draws by threefold repetition and the fifty-move rule', () => {
    const engine = () => chess.init('standard', createRng(1), { options: { adjudication: 'engine' } });
    const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
    const twice = play(engine(), [...shuffle, ...shuffle.slice(0, 3)]);
    expect(twice.result).toBeNull();
    const thrice = play(twice, [shuffle[3]!]);
    expect(thrice.result?.reason).toBe('threefold_repetition');
    expect(thrice.status).toBe('draw_threefold_repetition');
    const fifty = { ...engine(), fen: '4k3/8/8/8/8/8/8/R3K3 w - - 99 80' };
    expect(chess.apply(fifty, 0, 'a1a2').status).toBe('draw_fifty_moves');
    expect(() => chess.init('standard', createRng(1), { options: { adjudication: 'claims' } })).toThrow(/adjudication/);
  });

  it('draws at the 200-ply cap', () => {
    // A game that has already played 199 plies: the 200th ends it, whatever the position.
    const s = {
      ...start(),
      moves: Array.from({ length: MAX_PLIES - 1 }, (_, i) => ({ seat: i % 2, uci: 'a1a1', obstacle: false })),
    };
    const end = chess.apply(s, 0, 'e2e4');
    expect(end.result).toEqual({ scores: [0.5, 0.5], reason: 'max_moves', winner: null });
    expect(end.status).toBe('max_moves');
    expect(chess.apply(start(), 0, 'e2e4').result).toBeNull();
  });

  it('draws by the 75-move rule (not the fifty-move rule) and by insufficient material', () => {
    const fifty = { ...start(), fen: '4k3/8/8/8/8/8/8/R3K3 w - - 99 80' };
    expect(chess.apply(fifty, 0, 'a1a2').result).toBeNull();
    const seventyFive = { ...start(), fen: '4k3/8/8/8/8/8/8/R3K3 w - - 149 80' };
    expect(chess.apply(seventyFive, 0, 'a1a2').result?.reason).toBe('seventyfive_moves');
    expect(chess.apply(seventyFive, 0, 'a1a2').status).toBe('draw_seventyfive_moves');
    const bare = { ...start(), fen: '4k3/8/8/8/8/8/3n4/4K3 w - - 0 1' };
    expect(chess.apply(bare, 0, 'e1d2').result?.reason).toBe('insufficient_material');
  });

  it('accepts castling as king-takes-rook as well as the king two-step', () => {
    const open = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6'];
    const a = play(start(), [...open, 'e1h1']);
    const b = play(start(), [...open, 'e1g1']);
    expect(a.fen).toBe(b.fen);
    expect(a.fen.split(' ')[0]).toBe('r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1');
  });

  it('validates anything a bot may send', () => {
    const s = start();
    expect(chess.validate(s, 0, 'e2e4')).toBeNull();
    expect(chess.validate(s, 1, 'e7e5')).toBe('not_your_turn');
    for (const bad of ['', 'e2', 'E2E4', 'e7e8Q', 42, null, ['e2e4'], 'e2e4 '])
      expect(chess.validate(s, 0, bad as never)).toBe('bad_format');
    expect(chess.validate(s, 0, 'e2e5')).toBe('illegal');
    expect(chess.validate(s, 0, '0000')).toBe('bad_format');
    // As python-chess (CATArena's server) judges it: a promotion letter on a move that promotes nothing is illegal.
    expect(chess.validate(s, 0, 'e2e4q')).toBe('illegal');
    const promoting = { ...start(), fen: '8/4P1k1/8/8/8/8/8/4K3 w - - 0 1' };
    expect(chess.validate(promoting, 0, 'e7e8')).toBe('illegal');
    expect(chess.apply(promoting, 0, 'e7e8n').fen).toBe('4N3/6k1/8/8/8/8/8/4K3 b - - 0 1');
  });

  it("judges insufficient material as python-chess does (CATArena's standard server)", () => {
    const after = (fen: string, move: string) => chess.apply({ ...start(), fen }, 0, move).result?.reason ?? null;
    expect(after('4k3/8/8/8/8/8/3b4/4K3 w - - 0 1', 'e1d2')).toBe('insufficient_material'); // K v K
    expect(after('4k3/8/8/8/8/8/3b4/B3K3 w - - 0 1', 'e1d2')).toBe('insufficient_material'); // K+B v K
    expect(after('4kb2/8/8/8/8/8/8/B3K3 w - - 0 1', 'e1e2')).toBe('insufficient_material'); // bishops on one colour (a1, f8: dark)
    expect(after('2b1k3/8/8/8/8/8/8/B3K3 w - - 0 1', 'e1e2')).toBeNull(); // bishops on both colours (a1 dark, c8 light)
    expect(after('4k3/8/8/8/8/8/8/NN2K3 w - - 0 1', 'e1e2')).toBeNull(); // two knights can mate (with help)
    expect(after('4kn2/8/8/8/8/8/8/N3K3 w - - 0 1', 'e1e2')).toBeNull(); // K+N v K+N: python-chess calls it sufficient
  });
});

describe("CATArena's variant (Chess960 + obstacles)", () => {
  it('draws its setup from the seed: same seed, same position and obstacles', () => {
    const a = start('variant', 11);
    const b = start('variant', 11);
    const c = start('variant', 12);
    expect(a.fen).toBe(b.fen);
    expect(a.obstacles).toEqual(b.obstacles);
    expect([a.fen, a.obstacles.join()]).not.toEqual([c.fen, c.obstacles.join()]);
  });

  it('places 12 obstacles on ranks 3–6, mirrored left-right, sorted a1→h8', () => {
    for (let seed = 0; seed < 20; seed++) {
      const s = start('variant', seed);
      expect(s.obstacles).toHaveLength(12);
      for (const sq of s.obstacles) {
        expect(Number(sq[1])).toBeGreaterThanOrEqual(3);
        expect(Number(sq[1])).toBeLessThanOrEqual(6);
        const mirror = `${String.fromCharCode(104 - (sq.charCodeAt(0) - 97))}${sq[1]}`;
        expect(s.obstacles).toContain(mirror);
      }
      const index = (sq: string) => (Number(sq[1]) - 1) * 8 + sq.charCodeAt(0) - 97;
      expect(s.obstacles.map(index)).toEqual([...s.obstacles.map(index)].sort((x, y) => x - y));
      expect(s.chess960Pos).toBeGreaterThanOrEqual(0);
      expect(s.chess960Pos).toBeLessThanOrEqual(959);
      expect(s.fen.split(' ')[2]).toBe('KQkq');
    }
  });

  it('removes a piece whose move ends on an obstacle', () => {
    let s = start('variant', 5);
    // Find a pawn push of white that lands on an obstacle (ranks 3/4 hold some), and play it.
    const onObstacle = legalUci(s).find((m) => s.obstacles.includes(m.slice(2, 4)));
    expect(onObstacle).toBeDefined();
    const before = s.fen
      .split(' ')[0]!
      .replace(/\d/g, (d) => '.'.repeat(Number(d)))
      .replace(/\//g, '');
    s = chess.apply(s, 0, onObstacle!);
    const after = s.fen
      .split(' ')[0]!
      .replace(/\d/g, (d) => '.'.repeat(Number(d)))
      .replace(/\//g, '');
    expect(after.replace(/\./g, '').length).toBe(before.replace(/\./g, '').length - 1);
    expect(s.moves.at(-1)).toEqual({ seat: 0, uci: onObstacle, obstacle: true });
  });

  it('takes castling only as king-takes-rook', () => {
    // Position 518 is the standard set-up: clear the way and castle as e1h1; e1g1 is refused.
    let s = start('variant', 1);
    s = { ...s, fen: 'r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1', chess960Pos: 518, obstacles: [] };
    expect(chess.validate(s, 0, 'e1h1')).toBeNull();
    expect(chess.validate(s, 0, 'e1g1')).toBe('illegal');
    const after = chess.apply(s, 0, 'e1h1');
    expect(after.fen.split(' ')[0]).toBe('r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1');
  });

  // Issue 29: CATArena's server pushes a double push onto an obstacle and then removes the pawn;
  // python-chess keeps the ep square, so the adjacent pawn may capture en passant.
  it('allows en passant of a pawn that vanished on an obstacle, as CATArena does', () => {
    const setup = (fen: string, obstacles: string[]): ChessState => ({
      ...start('variant', 1),
      fen,
      obstacles,
      keys: [fen.split(' ').slice(0, 4).join(' ')],
    });
    const s = play(setup('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', ['d4', 'e4']), [
      'a2a3',
      'f7f5',
      'a3a4',
      'f5f4',
      'e2e4',
    ]);
    expect(s.fen).toBe('rnbqkbnr/ppppp1pp/8/8/P4p2/8/1PPP1PPP/RNBQKBNR b KQkq e3 0 3');
    expect(s.moves.at(-1)).toEqual({ seat: 0, uci: 'e2e4', obstacle: true });
    expect(chess.validate(s, 1, 'f4e3')).toBeNull();
    expect(chess.apply(s, 1, 'f4e3').fen).toBe('rnbqkbnr/ppppp1pp/8/8/P7/4p3/1PPP1PPP/RNBQKBNR w KQkq - 0 4');
    // The only move of a side without a king: the game goes on instead of ending in stalemate.
    const t = play(setup('7k/5p2/6p1/6P1/8/8/8/8 b - - 0 1', ['c5', 'f5']), ['f7f5']);
    expect(t.result).toBeNull();
    expect(t.status).toBe('ongoing');
    expect(t.fen).toBe('7k/8/6p1/6P1/8/8/8/8 w - f6 0 2');
    expect(legalUci(t)).toEqual(['g5f6']);
  });
});
