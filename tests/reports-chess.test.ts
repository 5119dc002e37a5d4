import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawOf, winFor, type Outcome } from '../games/core/game.ts';
import { createRng } from '../util/rng.ts';
import {
  DEFAULT_LIMITS,
  type FailureKind,
  matchId,
  type MatchResult,
  type MatchSpec,
  type MoveRecord,
  type Replay,
  type SeatStats,
  type Termination,
} from '../records/match.ts';
import { chess, type ChessState } from '../games/chess/rules.ts';
import { stateBody } from '../games/chess/wire.ts';
import type { StrategyRecord } from '../records/tourney.ts';
import { chessEndReason, chessStamp, pyFixed, pythonIsoformat } from '../games/chess/reports/catarena-report.ts';
import { finalState } from '../games/replay.ts';
import { writeRoundLogs, type RoundLogsInput } from '../reports/round-logs.ts';

// ---------------------------------------------------------------------------------------------
// Chess games built with the real rules engine, recorded the way the match runner records them.

interface GameSpec {
  n: number;
  white: string;
  black: string;
  moves: string[];
  variant?: 'standard' | 'variant';
  seed?: number;
  policy?: 'strict' | 'catarena';
  /** The side to move after `moves` fails with this kind. */
  fail?: FailureKind;
  /** The failure's message (the result's reason); defaults to the kind. */
  message?: string;
  /** Latency of the failed request (default: 10 s for a timeout, else the seat's latency). */
  failLatencyMs?: number;
}

const START = Date.parse('2025-03-04T05:06:07.000Z');
/** White thinks 10 ms per move, black 20 ms. */
const LATENCY = [10, 20] as const;

function play(g: GameSpec): { replay: Replay; state: ChessState } {
  const spec: MatchSpec = {
    game: 'chess',
    variant: g.variant ?? 'standard',
    seats: [g.white, g.black],
    seed: g.seed ?? g.n,
    limits: DEFAULT_LIMITS,
    policy: g.policy ?? 'catarena',
    options: { algorithm: 'simple' },
    pairing: `p${g.n}`,
  };
  let state = chess.init(spec.variant, createRng(spec.seed));
  const stats: SeatStats[] = [0, 1].map(() => ({ moves: 0, totalMs: 0, maxMs: 0, errors: {} }));
  const moves: MoveRecord[] = [];
  const record = (
    seat: 0 | 1,
    action: string | null,
    latencyMs: number,
    error?: { kind: FailureKind; message: string },
  ) => {
    stats[seat]!.moves++;
    stats[seat]!.totalMs += latencyMs;
    stats[seat]!.maxMs = Math.max(stats[seat]!.maxMs, latencyMs);
    moves.push({ ply: moves.length, seat, action, latencyMs, ...(error ? { error } : {}) });
  };
  for (const move of g.moves) {
    const seat = chess.toMove(state) as 0 | 1;
    expect(chess.validate(state, seat, move)).toBeNull();
    state = chess.apply(state, seat, move);
    record(seat, move, LATENCY[seat]);
  }
  let outcome: Outcome;
  let termination: Termination = 'normal';
  let offender: 0 | 1 | null = null;
  let reason: string;
  if (g.fail) {
    const seat = chess.toMove(state) as 0 | 1;
    const message = g.message ?? g.fail;
    stats[seat]!.errors[g.fail] = 1;
    record(seat, null, g.failLatencyMs ?? (g.fail === 'timeout' ? 10_000 : LATENCY[seat]), { kind: g.fail, message });
    outcome = g.fail === 'illegal' && spec.policy === 'catarena' ? drawOf('error') : winFor(1 - seat, g.fail);
    termination = g.fail;
    offender = seat;
    reason = message;
  } else {
    outcome = state.result!;
    expect(outcome).not.toBeNull();
    reason = outcome.reason;
  }
  const result: MatchResult = {
    id: matchId(spec),
    spec,
    serverGameId: `chess_game${g.n}`,
    scores: outcome.scores,
    winner: outcome.winner,
    termination,
    reason,
    offender,
    plies: moves.filter((m) => m.action !== null).length,
    seatStats: stats,
    startedAt: new Date(START + g.n * 60_000).toISOString(),
    durationMs: 1234.5 + g.n,
  };
  return { replay: { result, setup: null, moves }, state };
}

const SCHOLARS_MATE = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
/** Sam Loyd's ten-move stalemate: 1.e3 a5 2.Qh5 Ra6 3.Qxa5 h5 4.h4 Rah6 5.Qxc7 f6 6.Qxd7+ Kf7 7.Qxb7 Qd3 8.Qxb8 Qh7 9.Qxc8 Kg6 10.Qe6. */
const STALEMATE =
  'e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6'.split(' ');
/** Knights out and back four times: the start position for the fifth time (CATArena's fivefold draw). */
const FIVEFOLD = Array(4).fill('g1f3 g8f6 f3g1 f6g8').join(' ').split(' ');

/** Random legal moves until the game ends; the first seed whose game ends as `want`. */
function randomGame(
  variant: 'standard' | 'variant',
  want: (s: ChessState) => boolean,
  initSeed = (k: number) => k,
): { moves: string[]; seed: number } {
  for (let k = 1; k <= 50; k++) {
    const rng = createRng(1000 + k);
    let state = chess.init(variant, createRng(initSeed(k)));
    const moves: string[] = [];
    while (!state.result) {
      const legal = chess.legalActions(state, chess.toMove(state)!);
      const move = legal[rng.int(0, legal.length - 1)]!;
      moves.push(move);
      state = chess.apply(state, chess.toMove(state)!, move);
    }
    if (want(state)) return { moves, seed: initSeed(k) };
  }
  throw new Error('no random game of the wanted kind');
}

const CAPPED = randomGame('standard', (s) => s.status === 'max_moves');

// Round 2 of a two-agent track (catarena policy): the round-2 bots meet twice (colours swapped)
// and meet alpha's round-1 bot; beta's round-1 bot plays no game here.
const G1 = play({ n: 1, white: 'alpha@r2', black: 'beta@r2', moves: SCHOLARS_MATE }); // alpha mates
const G2 = play({ n: 2, white: 'beta@r2', black: 'alpha@r2', moves: STALEMATE }); // stalemate
const G3 = play({
  n: 3,
  white: 'alpha@r2',
  black: 'alpha@r1',
  moves: ['e2e4', 'e7e5', 'g1f3'],
  fail: 'illegal',
  message: 'illegal move "e5e4": illegal',
  failLatencyMs: 50,
});
const G4 = play({
  n: 4,
  white: 'beta@r2',
  black: 'alpha@r1',
  moves: ['e2e4'],
  fail: 'timeout',
  message: 'no answer within 10000 ms',
});
const G5 = play({ n: 5, white: 'alpha@r1', black: 'beta@r2', moves: CAPPED.moves }); // 200-ply cap
const GAMES = [G1, G2, G3, G4, G5];

function record(agent: string, round: number): StrategyRecord {
  return {
    id: `${agent}@r${round}`,
    agent,
    agentKind: `offline:${agent}`,
    round,
    game: 'chess',
    variant: 'standard',
    dir: `/runs/x/${agent}/${round}`,
    hash: 'ab'.repeat(32),
    status: 'ok',
    cost: { wallMs: 1000, toolCalls: 1, tokens: null, linesOfCode: 10 },
    buildLog: '',
  };
}

const NOW = new Date('2025-03-04T06:00:00.250Z');
const STAMP = chessStamp(NOW);
const TID = `chess_tournament_${STAMP}`;
const INPUT: RoundLogsInput = {
  game: 'chess',
  variant: 'standard',
  round: 2,
  policy: 'catarena',
  strategies: [record('alpha', 1), record('beta', 1), record('alpha', 2), record('beta', 2)],
  results: GAMES.map((g) => g.replay.result),
  replays: GAMES.map((g) => g.replay),
  now: NOW,
};
const A2 = 'alpha AI (round 2)';
const B2 = 'beta AI (round 2)';
const A1 = 'alpha AI (round 1)';

// ---------------------------------------------------------------------------------------------

describe('writeRoundLogs for chess (CATArena chess arena files)', () => {
  let root: string;
  let dir: string;
  let paths: string[];
  const readJson = async (name: string) => JSON.parse(await readFile(join(dir, name), 'utf8'));

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'catarena-chess-logs-'));
    dir = join(root, 'logs');
    paths = await writeRoundLogs(dir, INPUT);
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('the games are what they claim', () => {
    expect(G1.state.status).toBe('white_win');
    expect(G2.state.status).toBe('draw_stalemate');
    expect(G5.state.status).toBe('max_moves');
    expect(G5.state.moves).toHaveLength(200);
  });

  it('writes the chess arena file names, which the round-2 prompt globs find', async () => {
    expect(STAMP).toMatch(/^\d{8}_\d{6}$/);
    const names = (await readdir(dir)).sort();
    expect(paths.map((p) => p.slice(dir.length + 1)).sort()).toEqual(names);
    expect(names).toEqual(
      [
        `chess_arena_report_${STAMP}.csv`,
        `chess_arena_report_${STAMP}.json`,
        `chess_arena_report_${STAMP}.txt`,
        'round_report.json',
        `tournament_report_history_${TID}.json`,
      ].sort(),
    );
    for (const n of names.filter((x) => x.startsWith('chess_arena_report_')))
      expect(n).toMatch(/^chess_arena_report_\d{8}_\d{6}\.(json|txt|csv)$/);
    expect(names.filter((n) => /^.+_arena_report_.+\.csv$/.test(n))).toEqual([`chess_arena_report_${STAMP}.csv`]);
    expect(names.filter((n) => /^tournament_report_history_.+\.json$/.test(n))).toEqual([
      `tournament_report_history_chess_tournament_${STAMP}.json`,
    ]);
  });

  it('the JSON report: keys, participants by name, stats and matrix', async () => {
    const r = await readJson(`chess_arena_report_${STAMP}.json`);
    expect(Object.keys(r)).toEqual([
      'tournament_id',
      'timestamp',
      'participants',
      'total_games',
      'avg_time',
      'ai_stats',
      'matrix',
      'results',
    ]);
    expect(r.tournament_id).toBe(TID);
    expect(r.timestamp).toBe(pythonIsoformat(NOW));
    expect(r.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.250000$/);
    expect(r.participants).toEqual([A2, B2, A1]);
    expect(r.total_games).toBe(5);
    expect(r.avg_time).toBeCloseTo((1234.5 * 5 + 15) / 5 / 1000, 12);
    expect(Object.keys(r.ai_stats)).toEqual([A2, B2, A1]);
    expect(Object.keys(r.ai_stats[A2])).toEqual([
      'wins',
      'draws',
      'losses',
      'total_games',
      'total_time',
      'total_moves',
      'avg_time',
      'avg_score',
    ]);
    // alpha r2: G1 white (10 ms), G2 black (20 ms), G3 white (10 ms); both sides' plies 7 + 19 + 3.
    expect(r.ai_stats[A2]).toMatchObject({ wins: 1, draws: 2, losses: 0, total_games: 3, total_moves: 29 });
    expect(r.ai_stats[A2].total_time).toBeCloseTo(0.04, 12);
    expect(r.ai_stats[A2].avg_time).toBeCloseTo(0.04 / 3, 12);
    expect(r.ai_stats[A2].avg_score).toBeCloseTo(2 / 3, 12);
    // beta r2: G1 black L, G2 white D, G4 white W (timeout), G5 black D.
    expect(r.ai_stats[B2]).toMatchObject({
      wins: 1,
      draws: 2,
      losses: 1,
      total_games: 4,
      total_moves: 7 + 19 + 1 + 200,
      avg_score: 0.5,
    });
    expect(r.ai_stats[B2].avg_time).toBeCloseTo(0.06 / 4, 12);
    // alpha r1: G3 black (20 ms, then the illegal move's 50 ms: 35 ms), G4 black (no move: 0), G5 white.
    expect(r.ai_stats[A1]).toMatchObject({ wins: 0, draws: 2, losses: 1, total_games: 3, total_moves: 3 + 1 + 200 });
    expect(r.ai_stats[A1].total_time).toBeCloseTo(0.045, 12);
    const z = { wins: 0, draws: 0, losses: 0 };
    expect(r.matrix).toEqual({
      [A2]: { [A2]: z, [B2]: { wins: 1, draws: 1, losses: 0 }, [A1]: { wins: 0, draws: 1, losses: 0 } },
      [B2]: { [A2]: { wins: 0, draws: 1, losses: 1 }, [B2]: z, [A1]: { wins: 1, draws: 1, losses: 0 } },
      [A1]: { [A2]: { wins: 0, draws: 1, losses: 0 }, [B2]: { wins: 0, draws: 1, losses: 1 }, [A1]: z },
    });
  });

  it('game entries: fields, names, end_reason, times, history and final_state', async () => {
    const r = await readJson(`chess_arena_report_${STAMP}.json`);
    expect(r.results.map((g: { end_reason: string }) => g.end_reason)).toEqual([
      'win',
      'draw_stalemate',
      'error',
      'timeout',
      'max_moves',
    ]);
    expect(r.results.map((g: { winner: string | null }) => g.winner)).toEqual([A2, null, null, B2, null]);
    expect(r.results.map((g: { moves_count: number }) => g.moves_count)).toEqual([7, 19, 3, 1, 200]);
    const g1 = r.results[0];
    expect(Object.keys(g1)).toEqual([
      'game_id',
      'player_white',
      'player_black',
      'winner',
      'end_reason',
      'game_duration',
      'moves_count',
      'black_avg_time',
      'white_avg_time',
      'game_history',
      'final_state',
    ]);
    expect(g1).toMatchObject({
      game_id: 'chess_game1',
      player_white: A2,
      player_black: B2,
      game_duration: 1.2355,
      white_avg_time: 0.01,
      black_avg_time: 0.02,
    });
    expect(g1.game_history).toEqual({
      moves: SCHOLARS_MATE.map((move, k) => ({ player: k % 2 ? 'black' : 'white', move })),
    });
    expect(g1.final_state).toEqual(stateBody(G1.state));
    expect(g1.final_state).toEqual(finalState(G1.replay));
    expect(g1.final_state).toMatchObject({
      game_status: 'white_win',
      current_player: 'black',
      last_move: 'h5f7',
      is_check: true,
      is_checkmate: true,
      legal_moves: [],
    });
    expect(r.results[1].final_state).toMatchObject({
      game_status: 'draw_stalemate',
      is_stalemate: true,
      fen: '5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10',
    });
    // G3: the illegal move is timed (the arena times it before its POST fails) but not played.
    expect(r.results[2]).toMatchObject({ player_black: A1, winner: null, black_avg_time: 0.035, white_avg_time: 0.01 });
    expect(r.results[2].game_history.moves).toHaveLength(3);
    expect(r.results[2].final_state).toMatchObject({
      game_status: 'ongoing',
      current_player: 'black',
      last_move: 'g1f3',
    });
    // G4: the timed-out request is neither a move nor thinking time.
    expect(r.results[3]).toMatchObject({ winner: B2, black_avg_time: 0, white_avg_time: 0.01 });
    expect(r.results[3].final_state).toEqual(stateBody(G4.state));
    expect(r.results[4].final_state).toEqual(stateBody(G5.state));
    expect(r.results[4].final_state.game_status).toBe('max_moves');
  });

  it('the CSV: arena header, W-D-L cells and hand-computed rows', async () => {
    const lines = (await readFile(join(dir, `chess_arena_report_${STAMP}.csv`), 'utf8')).split('\r\n');
    expect(lines[0]).toBe(`胜负矩阵,${A2},${B2},${A1},总胜平负,平均得分,平均思考时间(秒)`);
    // alpha r2: 1-1-0 vs beta r2, 0-1-0 vs alpha r1; 1-2-0; (1 + 0.5·2)/3 = 0.667; 0.040 s / 3 games = 0.013.
    expect(lines[1]).toBe(`${A2},--,1-1-0,0-1-0,1-2-0,0.667,0.013`);
    // beta r2: (1 + 1)/4 = 0.500; (0.02 + 0.01 + 0.01 + 0.02)/4 = 0.015.
    expect(lines[2]).toBe(`${B2},0-1-1,--,1-1-0,1-2-1,0.500,0.015`);
    // alpha r1: 1/3 = 0.333; (0.035 + 0 + 0.01)/3 = 0.015.
    expect(lines[3]).toBe(`${A1},0-1-0,0-1-1,--,0-2-1,0.333,0.015`);
    expect(lines.slice(4)).toEqual(['']);
  });

  it('the history JSON and the English text report', async () => {
    const r = await readJson(`chess_arena_report_${STAMP}.json`);
    const h = await readJson(`tournament_report_history_${TID}.json`);
    expect(Object.keys(h)).toEqual([
      'tournament_id',
      'timestamp',
      'participants',
      'total_games',
      'avg_time',
      'detailed_results',
    ]);
    expect(h).toMatchObject({
      tournament_id: TID,
      timestamp: r.timestamp,
      participants: r.participants,
      total_games: 5,
      avg_time: r.avg_time,
    });
    expect(h.detailed_results).toEqual(r.results);
    const txt = await readFile(join(dir, `chess_arena_report_${STAMP}.txt`), 'utf8');
    expect(txt).toContain('Chess AI tournament report');
    expect(txt).toContain(`Tournament ID: ${TID}`);
    expect(txt).toContain('Game: chess (standard), round 2, forfeit policy: catarena');
    expect(txt).toContain(
      `${A2}:\n  Wins: 1\n  Draws: 2\n  Losses: 0\n  Total games: 3\n  Average thinking time: 0.013 s\n  Average score: 0.667`,
    );
    expect(txt).toMatch(/beta AI \(round 2\)\s+0-1-1\s+--\s+1-1-0/);
    expect(txt).toContain(
      `Game 3: ${A2} (white) vs ${A1} (black) [chess_game3]\n  Winner: draw\n  End reason: error\n  Duration: 1.24 s\n  Moves: 3`,
    );
  });

  it('round_report.json is still written', async () => {
    expect(JSON.parse(await readFile(join(dir, 'round_report.json'), 'utf8'))).toMatchObject({
      game: 'chess',
      round: 2,
      games: 5,
    });
  });
});

describe('chess end_reason mapping', () => {
  const reason = (g: Omit<GameSpec, 'n' | 'white' | 'black'>) => {
    const { replay } = play({ n: 90, white: 'w@r1', black: 'b@r1', ...g });
    return { end: chessEndReason(replay.result), winner: replay.result.winner };
  };

  it('rules endings: win, the draw statuses and the 200-ply cap', () => {
    expect(reason({ moves: SCHOLARS_MATE })).toEqual({ end: 'win', winner: 0 });
    expect(reason({ moves: STALEMATE })).toEqual({ end: 'draw_stalemate', winner: null });
    expect(reason({ moves: FIVEFOLD })).toEqual({ end: 'draw_fivefold_repetition', winner: null });
    expect(reason({ moves: CAPPED.moves })).toEqual({ end: 'max_moves', winner: null });
    const drawn = play({ n: 91, white: 'w@r1', black: 'b@r1', moves: STALEMATE }).replay.result;
    for (const [rule, status] of [
      ['insufficient_material', 'draw_insufficient_material'],
      ['seventyfive_moves', 'draw_seventyfive_moves'],
      // adjudication "engine"
      ['threefold_repetition', 'draw_threefold_repetition'],
      ['fifty_moves', 'draw_fifty_moves'],
    ]) {
      expect(chessEndReason({ ...drawn, reason: rule! })).toBe(status);
    }
  });

  it('bot failures under catarena and strict', () => {
    const after = ['e2e4'];
    expect(reason({ moves: after, fail: 'timeout' })).toEqual({ end: 'timeout', winner: 0 });
    expect(reason({ moves: after, fail: 'http_error', message: 'HTTP 500: oops' })).toEqual({
      end: 'http_error',
      winner: 0,
    });
    expect(reason({ moves: after, fail: 'crash', message: 'bot unreachable: ECONNREFUSED' })).toEqual({
      end: 'connection_error',
      winner: 0,
    });
    expect(reason({ moves: [], fail: 'crash', message: 'bot did not start: no start_ai.sh' })).toEqual({
      end: 'connection_error',
      winner: 1,
    });
    // A JSON answer without "move" is the arena's invalid_move; an answer it cannot read, none_move.
    expect(reason({ moves: after, fail: 'malformed', message: 'answer has no "move"' })).toEqual({
      end: 'invalid_move',
      winner: 0,
    });
    expect(reason({ moves: after, fail: 'malformed', message: 'answer is not JSON: "<html>"' })).toEqual({
      end: 'none_move',
      winner: 0,
    });
    expect(reason({ moves: after, fail: 'malformed', message: 'answer is not a JSON object with "move"' })).toEqual({
      end: 'none_move',
      winner: 0,
    });
    // Illegal: the arena's draw "error" under catarena; a loss named invalid_move under strict.
    expect(reason({ moves: after, fail: 'illegal', message: 'illegal move "e2e4": not_your_turn' })).toEqual({
      end: 'error',
      winner: null,
    });
    expect(
      reason({ moves: after, fail: 'illegal', policy: 'strict', message: 'illegal move "e8e6": illegal' }),
    ).toEqual({ end: 'invalid_move', winner: 0 });
  });
});

describe('chess variant reports', () => {
  it('history carries obstacle flags; final_state is the variant state body', async () => {
    const game = randomGame(
      'variant',
      (s) => s.moves.some((m) => m.obstacle),
      (k) => 70 + k,
    );
    const { replay, state } = play({
      n: 7,
      white: 'alpha@r1',
      black: 'beta@r1',
      moves: game.moves,
      variant: 'variant',
      seed: game.seed,
    });
    const root = await mkdtemp(join(tmpdir(), 'catarena-chess-variant-'));
    try {
      await writeRoundLogs(root, {
        ...INPUT,
        variant: 'variant',
        round: 1,
        strategies: INPUT.strategies.slice(0, 2),
        results: [replay.result],
        replays: [replay],
      });
      const r = JSON.parse(await readFile(join(root, `chess_arena_report_${STAMP}.json`), 'utf8'));
      const g = r.results[0];
      expect(r.participants).toEqual(['alpha AI (round 1)', 'beta AI (round 1)']);
      expect(g.game_history.moves).toEqual(
        state.moves.map((m) => ({ player: m.seat === 0 ? 'white' : 'black', move: m.uci, obstacle: m.obstacle })),
      );
      const flags = g.game_history.moves.map((m: { obstacle: boolean }) => m.obstacle);
      expect(flags).toContain(true);
      expect(flags).toContain(false);
      // A flagged move ended on an obstacle square.
      for (const m of g.game_history.moves.filter((x: { obstacle: boolean }) => x.obstacle))
        expect(state.obstacles).toContain(m.move.slice(2, 4));
      expect(g.final_state).toEqual(stateBody(state));
      expect(g.final_state).toMatchObject({
        chess960: true,
        chess960_pos: state.chess960Pos,
        obstacles: state.obstacles,
        extra_move_available: false,
        pending_square: null,
      });
      expect(g.final_state.obstacles).toHaveLength(12);
      expect(g.end_reason).toBe(chessEndReason(replay.result));
      expect(g.moves_count).toBe(game.moves.length);
      const txt = await readFile(join(root, `chess_arena_report_${STAMP}.txt`), 'utf8');
      expect(txt).toContain('Game: chess (variant), round 1, forfeit policy: catarena');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('Python number and time formats', () => {
  it('pyFixed rounds exact ties half to even, like f"{x:.3f}"', () => {
    expect(pyFixed(0.0625, 3)).toBe('0.062');
    expect(pyFixed(0.1875, 3)).toBe('0.188');
    expect(pyFixed(0.375, 2)).toBe('0.38');
    expect(pyFixed(0.125, 2)).toBe('0.12');
    expect(pyFixed(2.5, 0)).toBe('2');
    expect(pyFixed(-0.0625, 3)).toBe('-0.062');
    expect(pyFixed(2 / 3, 3)).toBe('0.667');
    expect(pyFixed(1.0005, 3)).toBe('1.000'); // not a tie in binary (1.000499…)
    expect(pyFixed(0.5, 3)).toBe('0.500');
  });

  it('stamps and isoformat in local time', () => {
    const d = new Date(2025, 0, 2, 3, 4, 5, 0);
    expect(chessStamp(d)).toBe('20250102_030405');
    expect(pythonIsoformat(d)).toBe('2025-01-02T03:04:05');
    expect(pythonIsoformat(new Date(2025, 0, 2, 3, 4, 5, 7))).toBe('2025-01-02T03:04:05.007000');
  });
});
