// PGN export of chess replays (games/chess/pgn.ts) and `catarena export --pgn`: SAN against
// chess.js, standard games through chess.js's loadPgn, Chess960 games (no obstacle touched) read
// back move by move, obstacle games flagged, failures in Result/Termination, and the CLI on a
// real run directory played by the reference bots.
import fs from 'node:fs';
import path from 'node:path';
import { Chess } from 'chess.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as core from '../games/chess/engine/chess-core.mjs';
import { chessPgn, pgnFile, replayChess, sanOf } from '../games/chess/pgn.ts';
import { chess } from '../games/chess/rules.ts';
import { createRng } from '../util/rng.ts';
import { replayState } from '../games/replay.ts';
import { DEFAULT_LIMITS, matchId, type MatchSpec, type MoveRecord, type Replay } from '../records/match.ts';
import { tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';
import { readReplaySync } from './helpers/replays.ts';

/** Deterministic pseudo-random choice. */
function chooser(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/** A replay made with the rules directly (no bots): `moves` UCI, then optionally a timeout. */
function syntheticReplay(
  variant: 'standard' | 'variant',
  seed: number,
  moves: string[],
  timeoutAfter: boolean,
): Replay {
  const spec: MatchSpec = {
    game: 'chess',
    variant,
    seats: ['alpha', 'beta "the second"'],
    seed,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
  };
  let state = chess.init(variant, createRng(seed));
  const records: MoveRecord[] = moves.map((uci, ply) => {
    const seat = state.fen.split(' ')[1] === 'b' ? 1 : 0;
    state = chess.apply(state, seat, uci);
    return { ply, seat, action: uci, latencyMs: 40 + ply };
  });
  const toMove = state.fen.split(' ')[1] === 'b' ? 1 : 0;
  if (timeoutAfter)
    records.push({
      ply: moves.length,
      seat: toMove,
      action: null,
      latencyMs: 10_000,
      error: { kind: 'timeout', message: 'no answer in 10000 ms' },
    });
  const outcome = state.result;
  const winner = timeoutAfter ? 1 - toMove : (outcome?.winner ?? null);
  return {
    setup: null,
    moves: records,
    result: {
      id: matchId(spec),
      spec,
      serverGameId: 'chess_00000000',
      scores: winner === null ? [0.5, 0.5] : winner === 0 ? [1, 0] : [0, 1],
      winner,
      termination: timeoutAfter ? 'timeout' : 'normal',
      reason: timeoutAfter ? 'no answer in 10000 ms' : (outcome?.reason ?? 'max_moves'),
      offender: timeoutAfter ? toMove : null,
      plies: records.length,
      seatStats: [],
      startedAt: '2026-03-04T05:06:07.000Z',
      durationMs: 1000,
    },
  };
}

/** A Chess960 game that castles and never lands on an obstacle, ended by a timeout. */
function chess960Game(): { replay: Replay; castled: string } {
  for (let seed = 1; seed < 200; seed++) {
    const pick = chooser(seed);
    let state = chess.init('variant', createRng(seed));
    const obstacles = state.obstacles.map(core.parseSquare);
    const moves: string[] = [];
    let castled = '';
    while (moves.length < 50 && !state.result) {
      const pos = core.parseFen(state.fen, { chess960: true });
      const legal = core
        .legalMoves(pos, { obstacles })
        .filter((m) => !obstacles.includes(m.to) || m.castleRook !== undefined);
      if (!legal.length) break;
      const castle = legal.find((m) => m.castleRook !== undefined);
      // Prefer castling, then moves off the back rank (so castling becomes possible).
      const developing = legal.filter((m) => Math.floor(m.from / 8) === 0 || Math.floor(m.from / 8) === 7);
      const move =
        castle ?? (developing.length && pick(3) ? developing[pick(developing.length)]! : legal[pick(legal.length)]!);
      const uci = core.moveToUci(pos, move);
      if (move.castleRook !== undefined) castled ||= sanOf(pos, move, { obstacles });
      state = chess.apply(state, pos.turn === 'w' ? 0 : 1, uci);
      moves.push(uci);
    }
    if (castled && !state.result) return { replay: syntheticReplay('variant', seed, moves, true), castled };
  }
  throw new Error('no castling Chess960 game found');
}

/** Reads a Chess960 PGN back with chess-core: the FEN tag, then each SAN matched among the legal moves. */
function readChess960(pgn: string): { fen: string; headers: Record<string, string> } {
  const headers = Object.fromEntries(
    [...pgn.matchAll(/^\[(\w+) "((?:[^"\\]|\\.)*)"\]$/gm)].map((m) => [m[1]!, m[2]!.replace(/\\(.)/g, '$1')]),
  );
  const movetext = pgn.split(/\n\n/)[1]!.replace(/\{[^}]*\}/g, ' ');
  const tokens = movetext.split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
  let pos = core.parseFen(headers.FEN!, { chess960: true });
  for (const san of tokens) {
    const move = core.legalMoves(pos).find((m) => sanOf(pos, m) === san);
    if (!move) throw new Error(`${san} is not legal in ${core.toFen(pos)}`);
    pos = core.applyMove(pos, move);
  }
  return { fen: core.toFen(pos, { enPassant: 'legal' }), headers };
}

describe('SAN and PGN of replays', () => {
  it('writes the SAN chess.js writes (random games, and positions with every rare case)', () => {
    const same = (fen: string) => {
      const board = new Chess(fen);
      const pos = core.parseFen(fen);
      for (const m of board.moves({ verbose: true }))
        expect(sanOf(pos, core.findMove(pos, `${m.from}${m.to}${m.promotion ?? ''}`)!), fen).toBe(m.san);
      return board.moves();
    };
    // Castling both ways, en passant, promotions with capture and check, mate, pieces told apart
    // by file, by rank and by both (three queens), and a pinned rival that needs no telling apart.
    expect(same('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1')).toEqual(expect.arrayContaining(['O-O', 'O-O-O', 'Rxa8+']));
    expect(same('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2')).toContain('exd6');
    expect(same('1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1')).toEqual(expect.arrayContaining(['a8=Q', 'axb8=Q+', 'axb8=N']));
    expect(same('6k1/5ppp/8/8/8/8/8/R3K2R w KQ - 0 1')).toEqual(expect.arrayContaining(['Ra8#', 'O-O-O']));
    expect(same('1k6/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1')).toEqual(expect.arrayContaining(['Qa4d4', 'Qhd4', 'Q1d4', 'Q4d1']));
    expect(same('4k3/8/8/8/8/R7/8/R3K3 w - - 0 1')).toEqual(expect.arrayContaining(['R3a2', 'R1a2']));
    expect(same('4k3/8/8/8/8/8/1N3N2/4K3 w - - 0 1')).toEqual(expect.arrayContaining(['Nbd3', 'Nfd3']));
    expect(same('4k3/4r3/8/8/8/8/4N3/2N1K3 w - - 0 1')).toContain('Nd3'); // Ne2 is pinned: no disambiguation
    const pick = chooser(11);
    let moves = 0;
    for (let g = 0; g < 5; g++) {
      const board = new Chess();
      for (let ply = 0; ply < 150 && !board.isGameOver(); ply++) {
        const legal = board.moves({ verbose: true });
        const m = legal[pick(legal.length)]!;
        const pos = core.parseFen(board.fen());
        expect(sanOf(pos, core.findMove(pos, `${m.from}${m.to}${m.promotion ?? ''}`)!)).toBe(m.san);
        board.move(m);
        moves++;
      }
    }
    expect(moves).toBeGreaterThan(300);
  });

  it('a standard game with a failure: Result, Termination and the failure as a comment; chess.js reads it', () => {
    const replay = syntheticReplay('standard', 5, ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'e1h1'], true);
    const { pgn, representable } = chessPgn(replay);
    expect(representable).toBe(true);
    const board = new Chess();
    board.loadPgn(pgn);
    expect(board.getHeaders()).toMatchObject({
      Event: 'catarena chess standard',
      Site: 'catarena',
      Date: '2026.03.04',
      Round: '-',
      White: 'alpha',
      Black: "beta 'the second'",
      Result: '1-0',
      Termination: 'time forfeit',
      PlyCount: '7',
      GameId: replay.result.id,
    });
    expect(board.history()).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Nf6', 'O-O']); // e1h1, king takes rook, is O-O
    expect(board.fen()).toBe((replayState(replay) as { fen: string }).fen);
    expect(pgn.replace(/\s+/g, ' ')).toContain(
      '4. O-O {[%emt 0:00:00.046] white wins: black timed out (timeout: no answer in 10000 ms)} 1-0',
    );
    expect(pgn.trimEnd().endsWith('1-0')).toBe(true);
    for (const line of pgn.split('\n')) expect(line.length).toBeLessThan(80);
    expect(chessPgn(replay, { times: false }).pgn).not.toContain('%emt');
  });

  it('a Chess960 game that no obstacle touched is written as Chess960 with its FEN, and reads back to the same position', () => {
    const { replay, castled } = chess960Game();
    const game = replayChess(replay);
    const { pgn, representable, note } = chessPgn(replay);
    expect(representable).toBe(true);
    expect(note).toBeUndefined();
    const back = readChess960(pgn);
    expect(back.headers).toMatchObject({
      Variant: 'Chess960',
      SetUp: '1',
      FEN: game.startFen,
      Obstacles: game.obstacles.join(' '),
      Result: replay.result.winner === 0 ? '1-0' : '0-1',
    });
    expect(game.obstacles).toHaveLength(12);
    expect(back.fen).toBe(game.final.fen);
    expect(pgn).toMatch(new RegExp(`\\s${castled}\\s`));
  });

  it('a variant game where an obstacle removed a piece is flagged, with a comment at the start and at the removal', () => {
    const seed = 9;
    const state = chess.init('variant', createRng(seed));
    const pos = core.parseFen(state.fen, { chess960: true });
    const obstacles = state.obstacles.map(core.parseSquare);
    // A knight or pawn move onto an obstacle (ranks 3 and 6 hold some for most seeds).
    const onto = core.legalMoves(pos, { obstacles }).find((m) => obstacles.includes(m.to));
    expect(onto, `seed ${seed} has a first move onto an obstacle`).toBeTruthy();
    const uci = core.moveToUci(pos, onto!);
    const replay = syntheticReplay('variant', seed, [uci], true);
    const { pgn, representable, note } = chessPgn(replay);
    expect(representable).toBe(false);
    expect(note).toMatch(/^not valid Chess960 from 1\. \S+, where a piece ended its move on an obstacle/);
    expect(pgn).toContain('[Variant "Chess960 with obstacles"]');
    expect(pgn).toContain(`piece removed by the obstacle on ${uci.slice(2, 4)}`);
    expect(pgnFile([pgn, pgn]).split('[Event ')).toHaveLength(3);
  });
});

describe('catarena export --pgn', () => {
  let runDir = '';
  beforeAll(async () => {
    runDir = path.join(tempDir('catarena-pgn-'), 'run');
    for (const variant of ['standard', 'variant']) {
      const r = await catarena(
        'play',
        'builtin:heuristic',
        'builtin:random',
        '-g',
        'chess',
        '-V',
        variant,
        '--games',
        '2',
        '--run-dir',
        runDir,
        '--move-timeout',
        '5000',
      );
      expect(r.code, r.stderr).toBe(0);
    }
  }, 120_000);

  const journal = () =>
    fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Replay['result']);
  const readReplay = (id: string) => readReplaySync(runDir, id);
  const games = (file: string) => fs.readFileSync(file, 'utf8').split(/\n\n(?=\[Event )/);

  it('writes every standard game and the representable variant games into <run-dir>/games.pgn; chess.js replays each', async () => {
    const results = journal();
    expect(results).toHaveLength(4);
    const representable = results.filter((r) => chessPgn(readReplay(r.id)).representable);
    const r = await catarena('export', '--pgn', runDir);
    expect(r.code, r.stderr).toBe(0);
    const file = path.join(runDir, 'games.pgn');
    expect(r.stdout).toContain(`exported ${representable.length} chess games to ${file}`);
    if (representable.length < 4) expect(r.stdout).toContain(`skipped ${4 - representable.length} variant game`);
    const texts = games(file);
    expect(texts).toHaveLength(representable.length);
    for (const text of texts) {
      const id = /\[GameId "(\w+)"\]/.exec(text)![1]!;
      const result = results.find((x) => x.id === id)!;
      const final = (replayState(readReplay(id)) as { fen: string }).fen;
      const expected = {
        White: result.spec.seats[0],
        Black: result.spec.seats[1],
        Result: result.winner === 0 ? '1-0' : result.winner === 1 ? '0-1' : '1/2-1/2',
      };
      if (result.spec.variant === 'standard') {
        const board = new Chess();
        board.loadPgn(text);
        expect(board.getHeaders()).toMatchObject(expected);
        expect(board.fen()).toBe(final);
        expect(board.history().length).toBe(result.plies);
      } else {
        const back = readChess960(text);
        expect(back.headers).toMatchObject({ ...expected, Variant: 'Chess960' });
        expect(back.fen).toBe(final);
      }
    }
  });

  it('--all adds the obstacle games, -o names the file; --help says what is skipped', async () => {
    const out = path.join(tempDir('catarena-pgn-out-'), 'sub', 'all.pgn');
    const r = await catarena('export', '--pgn', runDir, '--all', '-o', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`exported 4 chess games to ${out}`);
    const texts = games(out);
    expect(texts).toHaveLength(4);
    for (const text of texts.filter((t) => t.includes('Chess960 with obstacles')))
      expect(text.replace(/\s+/g, ' ')).toMatch(
        /\{catarena variant: obstacles on (?:[a-h][1-8] ){11}[a-h][1-8]; not valid Chess960/,
      );
    const help = await catarena('export', '--help');
    for (const words of ['--pgn', '--all', '-o, --out', 'games.pgn', 'obstacle']) expect(help.stdout).toContain(words);
  });

  it('says clearly when the folder is not a run directory, holds no chess games, or no format is given', async () => {
    const empty = tempDir('catarena-pgn-empty-');
    const notRun = await catarena('export', '--pgn', empty);
    expect(notRun.code).toBe(1);
    expect(notRun.stderr).toContain(`${empty} is not a run directory (no journal.jsonl`);
    const gone = await catarena('export', '--pgn', path.join(empty, 'nope'));
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('does not exist');
    const gomoku = tempDir('catarena-pgn-gomoku-');
    fs.writeFileSync(
      path.join(gomoku, 'journal.jsonl'),
      `${JSON.stringify({ id: 'g1', spec: { game: 'gomoku', variant: 'standard', seats: ['a', 'b'] } })}\n`,
    );
    const none = await catarena('export', '--pgn', gomoku);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has no chess games');
    const noFormat = await catarena('export', runDir);
    expect(noFormat.code).toBe(1);
    expect(noFormat.stderr).toContain('choose a format: --pgn');
  });
});
