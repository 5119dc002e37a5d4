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
import { gomoku, type GomokuMove, type GomokuState } from '../games/gomoku/rules.ts';
import { stateBody } from '../games/gomoku/wire.ts';
import type { StrategyRecord, TourneySummary, TrackSummary } from '../records/tourney.ts';
import { bootstrapMetrics } from '../reports/metrics/bootstrap.ts';
import { computeAll, generalizability } from '../reports/metrics/metrics.ts';
import { fromMatrix } from '../reports/metrics/score-matrix.ts';
import { renderLeaderboard } from '../reports/leaderboard-text.ts';
import { renderReportMarkdown, summaryInput } from '../reports/sections/index.ts';

const renderMd = (s: Parameters<typeof summaryInput>[0]) => renderReportMarkdown(summaryInput(s));
import { finalState } from '../games/replay.ts';
import { buildRoundReport, writeRoundLogs, type RoundLogsInput } from '../reports/round-logs.ts';
import { costByAgent, errorRates, leaderboard, withRankProbabilities } from '../reports/summary.ts';
import { AGENTS, WORKED } from './fixtures/worked-vector.ts';

// ---------------------------------------------------------------------------------------------
// Games built with the real rules engine, recorded the way the match runner records them.

interface GameSpec {
  n: number;
  black: string;
  white: string;
  moves: GomokuMove[];
  latencyMs: number;
  variant?: string;
  seed?: number;
  policy?: 'strict' | 'catarena';
  /** The seat to move after `moves` fails with this kind (timeout latency 10 s). */
  fail?: FailureKind;
  /** This seat's join_game failed: no moves at all. */
  joinFail?: 0 | 1;
}

const START = Date.parse('2025-03-04T05:06:07.000Z');

function play(g: GameSpec): { replay: Replay; state: GomokuState } {
  const spec: MatchSpec = {
    game: 'gomoku',
    variant: g.variant ?? 'standard',
    seats: [g.black, g.white],
    seed: g.seed ?? g.n,
    limits: DEFAULT_LIMITS,
    policy: g.policy ?? 'catarena',
    pairing: `p${g.n}`,
  };
  let state = gomoku.init(spec.variant, createRng(spec.seed));
  const stats: SeatStats[] = [0, 1].map(() => ({ moves: 0, totalMs: 0, maxMs: 0, errors: {} }));
  const moves: MoveRecord[] = [];
  const record = (seat: 0 | 1, action: unknown, latencyMs: number, error?: { kind: FailureKind; message: string }) => {
    stats[seat]!.moves++;
    stats[seat]!.totalMs += latencyMs;
    stats[seat]!.maxMs = Math.max(stats[seat]!.maxMs, latencyMs);
    moves.push({ ply: moves.length, seat, action, latencyMs, ...(error ? { error } : {}) });
  };
  let outcome: Outcome;
  let termination: Termination = 'normal';
  let offender: 0 | 1 | null = null;
  if (g.joinFail !== undefined) {
    stats[g.joinFail]!.errors.join_failed = 1;
    outcome = winFor(1 - g.joinFail, 'join_failed');
    termination = 'join_failed';
    offender = g.joinFail;
  } else {
    for (const move of g.moves) {
      const seat = state.toMove!;
      state = gomoku.apply(state, seat, move);
      record(seat, move, g.latencyMs);
    }
    if (g.fail) {
      const seat = state.toMove!;
      stats[seat]!.errors[g.fail] = 1;
      record(seat, null, g.fail === 'timeout' ? 10_000 : g.latencyMs, { kind: g.fail, message: g.fail });
      outcome = g.fail === 'illegal' && spec.policy === 'catarena' ? drawOf('error') : winFor(1 - seat, g.fail);
      termination = g.fail;
      offender = seat;
    } else {
      outcome = state.result!;
      expect(outcome).not.toBeNull();
    }
  }
  const result: MatchResult = {
    id: matchId(spec),
    spec,
    serverGameId: `gomoku_game${g.n}`,
    scores: outcome.scores,
    winner: outcome.winner,
    termination,
    reason: outcome.reason,
    offender,
    plies: moves.filter((m) => m.action !== null).length,
    seatStats: stats,
    startedAt: new Date(START + g.n * 60_000).toISOString(),
    durationMs: 1234.5 + g.n,
  };
  return { replay: { result, setup: null, moves }, state };
}

/** Black makes five on row 7 (cols 3..7) while white plays row 0. */
const FIVE: GomokuMove[] = [
  [7, 3],
  [0, 0],
  [7, 4],
  [0, 1],
  [7, 5],
  [0, 2],
  [7, 6],
  [0, 3],
  [7, 7],
];

// Round 2 of a two-agent track: the two round-2 bots meet twice, and each meets alpha's round-1 bot.
const G1 = play({ n: 1, black: 'alpha@r2', white: 'beta@r2', moves: FIVE, latencyMs: 12 }); // alpha wins
const G2 = play({
  n: 2,
  black: 'beta@r2',
  white: 'alpha@r2',
  moves: [
    [7, 7],
    [8, 8],
    [6, 6],
    [9, 9],
  ],
  latencyMs: 30,
  fail: 'timeout',
}); // beta times out
const G3 = play({
  n: 3,
  black: 'alpha@r2',
  white: 'alpha@r1',
  moves: [
    [7, 7],
    [0, 0],
    [7, 8],
  ],
  latencyMs: 20,
  fail: 'illegal',
}); // catarena: draw
const G4 = play({ n: 4, black: 'beta@r2', white: 'alpha@r1', moves: [], latencyMs: 0, joinFail: 1 }); // alpha@r1 fails to join
const GAMES = [G1, G2, G3, G4];

function record(
  agent: string,
  round: number,
  cost: Partial<StrategyRecord['cost']> = {},
  status: 'ok' | 'failed' = 'ok',
): StrategyRecord {
  return {
    id: `${agent}@r${round}`,
    agent,
    agentKind: `offline:${agent}`,
    round,
    game: 'gomoku',
    variant: 'standard',
    dir: `/runs/x/${agent}/${round}`,
    hash: 'ab'.repeat(32),
    status,
    ...(status === 'failed' ? { failure: 'start_ai.sh exited with code 1' } : {}),
    cost: { wallMs: 1000, toolCalls: 1, tokens: null, linesOfCode: 10, ...cost },
    buildLog: '',
  };
}

const STRATEGIES = [record('alpha', 1), record('beta', 1), record('alpha', 2), record('beta', 2)];
const NOW = new Date('2025-03-04T06:00:00.000Z');
const TS = Math.floor(NOW.getTime() / 1000);
const INPUT: RoundLogsInput = {
  game: 'gomoku',
  variant: 'standard',
  round: 2,
  policy: 'catarena',
  strategies: STRATEGIES,
  results: GAMES.map((g) => g.replay.result),
  replays: GAMES.map((g) => g.replay),
  now: NOW,
};

// ---------------------------------------------------------------------------------------------

describe('writeRoundLogs (CATArena files for the next round)', () => {
  let dir: string;
  let paths: string[];
  const readJson = async (name: string) => JSON.parse(await readFile(join(dir, name), 'utf8'));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catarena-logs-'));
    paths = await writeRoundLogs(join(dir, 'logs'), INPUT);
    dir = join(dir, 'logs');
  });
  afterAll(async () => rm(join(dir, '..'), { recursive: true, force: true }));

  it('writes CATArena names, including the one the round-2 prompt globs', async () => {
    const names = (await readdir(dir)).sort();
    expect(names).toHaveLength(6);
    expect(paths.map((p) => p.slice(dir.length + 1)).sort()).toEqual(names);
    const tid = `tournament_${TS}`;
    expect(names).toEqual(
      [
        `gomoku_arena_report_${TS}.csv`,
        'round_report.json',
        `tournament_report_${tid}.csv`,
        `tournament_report_${tid}.json`,
        `tournament_report_${tid}.txt`,
        `tournament_report_history_${tid}.json`,
      ].sort(),
    );
    for (const n of names.filter((x) => x !== 'round_report.json')) expect(n).toMatch(/_(\d{10})\.(json|csv|txt)$/);
    expect(names.some((n) => /^.+_arena_report_.+\.csv$/.test(n))).toBe(true);
  });

  it('the JSON report has the arena keys, stats and matrix', async () => {
    const r = await readJson(`tournament_report_tournament_${TS}.json`);
    expect(Object.keys(r)).toEqual([
      'tournament_id',
      'start_time',
      'participants',
      'total_games',
      'ai_stats',
      'matrix',
      'results',
    ]);
    expect(r.tournament_id).toBe(`tournament_${TS}`);
    expect(r.start_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(r.total_games).toBe(4);
    // Round-2 strategies first (given order), then the older opponent that played.
    expect(r.participants).toEqual([
      { id: 'alpha@r2', name: 'alpha AI (round 2)' },
      { id: 'beta@r2', name: 'beta AI (round 2)' },
      { id: 'alpha@r1', name: 'alpha AI (round 1)' },
    ]);
    expect(Object.keys(r.ai_stats['alpha@r2'])).toEqual([
      'name',
      'wins',
      'draws',
      'losses',
      'total_time',
      'total_moves',
      'games_played',
      'timeouts',
      'avg_thinking_time',
    ]);
    // alpha@r2: 5 moves × 12 ms (G1) + 2 × 30 ms (G2) + 2 × 20 ms (G3) = 160 ms over 9 moves.
    expect(r.ai_stats['alpha@r2']).toMatchObject({
      wins: 2,
      draws: 1,
      losses: 0,
      total_moves: 9,
      games_played: 3,
      timeouts: 0,
    });
    expect(r.ai_stats['alpha@r2'].total_time).toBeCloseTo(0.16, 9);
    // beta@r2: the timed-out request is not a move (arena semantics): 4 × 12 + 2 × 30 = 108 ms / 6.
    expect(r.ai_stats['beta@r2']).toMatchObject({ wins: 1, draws: 0, losses: 2, total_moves: 6, timeouts: 1 });
    expect(r.ai_stats['beta@r2'].avg_thinking_time).toBeCloseTo(0.018, 9);
    // alpha@r1 lost G4 on a failed join: a "timeout" game charged to it.
    expect(r.ai_stats['alpha@r1']).toMatchObject({ wins: 0, draws: 1, losses: 1, total_moves: 1, timeouts: 1 });
    expect(r.matrix).toEqual({
      'alpha@r2': { 'alpha@r2': '-', 'beta@r2': '2W/0D/0L', 'alpha@r1': '0W/1D/0L' },
      'beta@r2': { 'alpha@r2': '0W/0D/2L', 'beta@r2': '-', 'alpha@r1': '1W/0D/0L' },
      'alpha@r1': { 'alpha@r2': '0W/1D/0L', 'beta@r2': '0W/0D/1L', 'alpha@r1': '-' },
    });
  });

  it('maps terminations to end_reason and fills each game entry', async () => {
    const r = await readJson(`tournament_report_tournament_${TS}.json`);
    expect(r.results.map((g: { end_reason: string }) => g.end_reason)).toEqual(['win', 'timeout', 'error', 'timeout']);
    expect(r.results.map((g: { winner: string | null }) => g.winner)).toEqual([
      'alpha@r2',
      'alpha@r2',
      null,
      'beta@r2',
    ]);
    const g1 = r.results[0];
    expect(Object.keys(g1)).toEqual([
      'game_id',
      'player_black',
      'player_white',
      'winner',
      'end_reason',
      'duration',
      'game_history',
      'final_state',
    ]);
    expect(g1).toMatchObject({
      game_id: 'gomoku_game1',
      player_black: 'alpha@r2',
      player_white: 'beta@r2',
      duration: 1.24,
    });
    expect(g1.game_history.moves).toHaveLength(9);
    expect(g1.game_history.moves[0]).toEqual({
      player: 'black',
      position: [7, 3],
      timestamp: new Date(START + 60_000 + 12).toISOString(),
    });
    expect(g1.game_history.moves[1]).toMatchObject({ player: 'white', position: [0, 0] });
    // The final state is the position the rules reached, in the server's state shape.
    expect(g1.final_state).toEqual(stateBody(G1.state));
    expect(g1.final_state).toMatchObject({ game_status: 'black_win', current_player: 'black', last_move: [7, 7] });
    expect(g1.final_state.board[7].slice(3, 8)).toEqual([1, 1, 1, 1, 1]);
    // G2 stopped on beta's timeout: null action skipped, game still "ongoing" on the server.
    expect(r.results[1].game_history.moves).toHaveLength(4);
    expect(r.results[1].final_state).toMatchObject({
      game_status: 'ongoing',
      current_player: 'black',
      last_move: [9, 9],
    });
    // G4 never started: empty history, empty board.
    expect(r.results[3].game_history).toEqual({ moves: [] });
    expect(r.results[3].final_state).toMatchObject({
      game_status: 'ongoing',
      current_player: 'black',
      last_move: null,
    });
  });

  it('the CSV has the arena header and per-opponent W/D/L rows, under both names', async () => {
    const csv = await readFile(join(dir, `tournament_report_tournament_${TS}.csv`), 'utf8');
    expect(await readFile(join(dir, `gomoku_arena_report_${TS}.csv`), 'utf8')).toBe(csv);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'AI vs AI,alpha AI (round 2),beta AI (round 2),alpha AI (round 1),总胜/平/负,超时次数,平均思考时间(秒)',
    );
    // 160 ms / 9 moves = 0.01778 s
    expect(lines[1]).toBe('alpha AI (round 2),-,2/0/0,0/1/0,2/1/0,0,0.0178');
    expect(lines[2]).toBe('beta AI (round 2),0/0/2,-,1/0/0,1/0/2,1,0.0180');
    expect(lines[3]).toBe('alpha AI (round 1),0/1/0,0/0/1,-,0/1/1,1,0.0200');
    expect(lines[4]).toBe('');
  });

  it('the history JSON and the text report', async () => {
    const h = await readJson(`tournament_report_history_tournament_${TS}.json`);
    expect(Object.keys(h)).toEqual(['tournament_id', 'start_time', 'total_games', 'detailed_results']);
    expect(h.detailed_results).toHaveLength(4);
    expect(h.detailed_results[2]).toMatchObject({ game_id: 'gomoku_game3', winner: null, end_reason: 'error' });
    const txt = await readFile(join(dir, `tournament_report_tournament_${TS}.txt`), 'utf8');
    expect(txt).toContain('Gomoku AI tournament report');
    expect(txt).toContain('alpha AI (round 2) (ID: alpha@r2)');
    expect(txt).toContain(
      ' 3. gomoku_game3 - alpha@r2 (black) vs alpha@r1 (white) - winner: draw - duration: 1.24s - end reason: error',
    );
    expect(txt).toMatch(/beta AI \(round 2\)\s+0W\/0D\/2L\s+-\s+1W\/0D\/0L/);
  });

  it('round_report.json: standings and pairwise over round n games', async () => {
    const rr = await readJson('round_report.json');
    expect(rr).toEqual(buildRoundReport(INPUT));
    expect(rr).toMatchObject({ game: 'gomoku', variant: 'standard', round: 2, policy: 'catarena', games: 4 });
    expect(rr.strategies).toHaveLength(4);
    expect(rr.standings.map((s: { id: string }) => s.id)).toEqual(['alpha@r2', 'beta@r2', 'alpha@r1']);
    const [a2, b2, a1] = rr.standings;
    expect(a2).toMatchObject({ agent: 'alpha', round: 2, games: 3, wins: 2, draws: 1, losses: 0, failures: {} });
    expect(a2.score).toBeCloseTo(2.5 / 3, 12);
    expect(a2.avgMoveMs).toBeCloseTo(160 / 9, 9);
    // Request latencies here: the 10 s timeout counts (3 requests in G2).
    expect(b2).toMatchObject({ games: 3, wins: 1, losses: 2, failures: { timeout: 1 } });
    expect(b2.avgMoveMs).toBeCloseTo((48 + 60 + 10_000) / 7, 9);
    expect(a1).toMatchObject({
      agent: 'alpha',
      round: 1,
      games: 2,
      draws: 1,
      losses: 1,
      score: 0.25,
      failures: { illegal: 1, join_failed: 1 },
    });
    expect(rr.pairwise['alpha@r2']['beta@r2']).toEqual({ games: 2, wins: 2, draws: 0, losses: 0, score: 1 });
    expect(rr.pairwise['beta@r2']['alpha@r2']).toEqual({ games: 2, wins: 0, draws: 0, losses: 2, score: 0 });
    expect(rr.pairwise['alpha@r1']['alpha@r2']).toEqual({ games: 1, wins: 0, draws: 1, losses: 0, score: 0.5 });
    expect(rr.pairwise['beta@r2']['alpha@r1']).toEqual({ games: 1, wins: 1, draws: 0, losses: 0, score: 1 });
  });
});

describe('variant final_state and games without a CATArena writer', () => {
  it('rebuilds a random variant game with forbidden points and triplet counts', () => {
    const rng = createRng(99);
    let state = gomoku.init('variant', createRng(7));
    const moves: GomokuMove[] = [];
    while (!state.result) {
      const legal = gomoku.legalActions(state, state.toMove!);
      const move = legal[rng.int(0, legal.length - 1)]!;
      moves.push(move);
      state = gomoku.apply(state, state.toMove!, move);
    }
    const { replay, state: built } = play({
      n: 9,
      black: 'a@r1',
      white: 'b@r1',
      moves,
      latencyMs: 5,
      variant: 'variant',
      seed: 7,
    });
    const body = finalState(replay) as Record<string, unknown>;
    expect(body).toEqual(stateBody(built));
    expect(body.forbidden_points).toEqual(state.forbidden);
    expect(body.forbidden_points).toHaveLength(15);
    expect(body.game_status).toMatch(/^(black_win|white_win|draw)$/);
    expect((body.black_triplets_count as number) + (body.white_triplets_count as number)).toBeGreaterThanOrEqual(2);
  });

  it('writes only round_report.json for a game with no writer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'catarena-logs-'));
    try {
      const written = await writeRoundLogs(dir, { ...INPUT, game: 'holdem', results: [], replays: [] });
      expect(written).toEqual([join(dir, 'round_report.json')]);
      expect(JSON.parse(await readFile(written[0]!, 'utf8'))).toMatchObject({
        game: 'holdem',
        games: 0,
        standings: [],
        pairwise: {},
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Summary helpers

describe('summary helpers', () => {
  it('errorRates: requests = moves asked + joins; join_failed is an http_error', () => {
    const rates = errorRates(INPUT.results, (id) => id.split('@')[0]!);
    // alpha: G1 5+1, G2 2+1, G3 (2+1)+(2+1), G4 1 join (the failed one) = 16 requests; illegal 1, http 1.
    expect(rates.alpha).toEqual({
      requests: 16,
      timeout: 0,
      http_error: 1,
      malformed: 0,
      illegal: 1,
      crash: 0,
      rate: 2 / 16,
    });
    // beta: G1 4+1, G2 3+1 (the timed-out request included), G4 0+1 = 10 requests; 1 timeout.
    expect(rates.beta).toEqual({
      requests: 10,
      timeout: 1,
      http_error: 0,
      malformed: 0,
      illegal: 0,
      crash: 0,
      rate: 0.1,
    });
  });

  it("errorRates: the runner's recorded joins (retries included) count; a line without them is inferred as before", () => {
    const { replay } = play({ n: 5, black: 'a@r1', white: 'b@r1', moves: [], latencyMs: 0, joinFail: 0 });
    const inferred = errorRates([replay.result], (id) => id.split('@')[0]!);
    const recorded: MatchResult = {
      ...replay.result,
      seatStats: [
        { ...replay.result.seatStats[0]!, joins: 2 }, // refused once, asked again, failed: one join_failed over two requests
        { ...replay.result.seatStats[1]!, joins: 0 }, // the game ended before its join
      ],
    };
    const rates = errorRates([recorded], (id) => id.split('@')[0]!);
    expect(rates.a!.requests).toBe(inferred.a!.requests + 1);
    expect(rates.a!.http_error).toBe(1);
    expect(rates.b!.requests).toBe(inferred.b!.requests);
  });

  it('errorRates: a bot that never started counts one failed request', () => {
    const { replay } = play({ n: 5, black: 'a@r1', white: 'b@r1', moves: [], latencyMs: 0, joinFail: 0 });
    const result: MatchResult = {
      ...replay.result,
      termination: 'crash',
      seatStats: [
        { moves: 0, totalMs: 0, maxMs: 0, errors: { crash: 1 } },
        { moves: 0, totalMs: 0, maxMs: 0, errors: {} },
      ],
    };
    const rates = errorRates([result], (id) => id.split('@')[0]!);
    expect(rates.a).toMatchObject({ requests: 1, crash: 1, rate: 1 });
    expect(rates.b).toMatchObject({ requests: 0, rate: 0 });
  });

  it('costByAgent sums rounds; tokens only when reported', () => {
    const cost = costByAgent([
      record('alpha', 1, { wallMs: 1000, toolCalls: 3, linesOfCode: 100 }),
      record('alpha', 2, { wallMs: 2500, toolCalls: 4, linesOfCode: 150 }),
      record('beta', 1, { wallMs: 500, toolCalls: 10, tokens: { input: 100, output: 50 }, linesOfCode: 80 }),
      record('beta', 2, { wallMs: 700, toolCalls: 2, tokens: { input: 200, output: 20 }, linesOfCode: 90 }),
    ]);
    expect(cost).toEqual({
      alpha: { wallMs: 3500, toolCalls: 7, tokens: null, linesOfCode: 250, rounds: 2 },
      beta: { wallMs: 1200, toolCalls: 12, tokens: { input: 300, output: 70 }, linesOfCode: 170, rounds: 2 },
    });
  });

  it('leaderboard rank probabilities: bootstrap samples combine track by track, ties split the places', () => {
    const perAgent = (S: number, L: number) => ({ S, L }) as TrackSummary['metrics']['perAgent'][string];
    const tracks = [
      {
        agents: ['x', 'y'],
        metrics: { perAgent: { x: perAgent(0.8, 0.1), y: perAgent(0.2, 0) } } as unknown as TrackSummary['metrics'],
      },
      {
        agents: ['x', 'y'],
        metrics: { perAgent: { x: perAgent(0.6, 0.1), y: perAgent(0.4, 0) } } as unknown as TrackSummary['metrics'],
      },
    ];
    const board = leaderboard(tracks);
    expect(board.map((e) => e.agent)).toEqual(['x', 'y']);
    // Sample 1: x ahead in both tracks; 2: y ahead in both; 3: split (x first on one track, y on the other) = a tie; 4: x ahead.
    const draws = (S: number[][], L: number[][]) => ({ agents: ['x', 'y'], draws: { S, L } });
    const withP = withRankProbabilities(board, [
      draws(
        [
          [1, 0],
          [0, 1],
          [1, 0],
          [1, 0],
        ],
        [
          [1, 0],
          [0, 1],
          [1, 0],
          [1, 0],
        ],
      ),
      draws(
        [
          [1, 0],
          [0, 1],
          [0, 1],
          [1, 0],
        ],
        [
          [1, 0],
          [0, 1],
          [0, 1],
          [1, 0],
        ],
      ),
    ]);
    expect(withP[0]).toMatchObject({ agent: 'x', rankProbabilities: [0.625, 0.375], aboveNext: 0.625 });
    expect(withP[1]).toMatchObject({ agent: 'y', rankProbabilities: [0.375, 0.625], aboveNext: null });
    const md = renderMd({ ...SUMMARY, leaderboard: withP });
    expect(md).toContain('| 1 | x | 1.000 | 1.000 | 0.700 | 0.100 | 0.63 | ≈ 0.63 |');
    expect(md).toContain('| 2 | y | 2.000 | 2.000 | 0.300 | 0.000 | 0.63 | — |');
  });

  it('leaderboard: mean ranks over tracks, ties and nulls', () => {
    const board = leaderboard([STD_TRACK, VAR_TRACK]);
    // S ranks: standard 3,2,1; variant 1, 2.5, 2.5. L ranks: standard 3,1,2; variant all null.
    expect(board.map((e) => e.agent)).toEqual(['1', '2', '0']);
    const by = Object.fromEntries(board.map((e) => [e.agent, e]));
    expect(by['0']).toEqual({ agent: '0', meanRankS: 2, meanRankL: 3, meanS: 0.53125, meanL: -0.078125 });
    expect(by['1']).toEqual({ agent: '1', meanRankS: 2.25, meanRankL: 1, meanS: 0.375, meanL: 0.0625 });
    expect(by['2']).toEqual({ agent: '2', meanRankS: 1.75, meanRankL: 2, meanS: 0.59375, meanL: -0.0546875 });
  });
});

// ---------------------------------------------------------------------------------------------
// Markdown report, from the worked vector of docs/metrics.md

const W_STD = fromMatrix(AGENTS, 3, WORKED);
// One round on the variant (so L, C are null and SI undefined); B¹ = 0.75, 0.375, 0.375.
const W_VAR = fromMatrix(AGENTS, 1, [
  [null, 0.5, 1],
  [0.5, null, 0.25],
  [0, 0.75, null],
]);

function track(variant: string, W: typeof W_STD, extra: Partial<TrackSummary> = {}): TrackSummary {
  return {
    game: 'gomoku',
    variant,
    agents: AGENTS,
    rounds: W.rounds,
    policy: 'strict',
    W: W.toJSON(),
    metrics: computeAll(W),
    // No games: every interval is empty, so the report shows points only (CIs are patched below).
    bootstrap: bootstrapMetrics(AGENTS, W.rounds, [], { samples: 10 }),
    elo: { '0@1': 0, '2@1': 12.345 },
    ratings: {
      model: 'davidson',
      anchor: '0@1',
      drawParameter: 0.25,
      dispersion: 1.1,
      level: 0.95,
      strategies: [
        { id: '0@1', elo: 0, lo: 0, hi: 0, games: 8 },
        { id: '2@1', elo: 12.345, lo: -80.2, hi: 104.9, games: 8 },
      ],
      agents: [
        { id: '0', elo: 0, lo: 0, hi: 0, games: 16 },
        { id: '2', elo: -3.2, lo: -50, hi: 43.6, games: 16 },
      ],
    },
    errors: {},
    cost: {},
    strategies: [],
    games: 36,
    ...extra,
  };
}

const STD_TRACK = track('standard', W_STD, {
  errors: errorRates(INPUT.results, (id) => id.split('@')[0]!),
  cost: costByAgent([
    record('alpha', 1, { wallMs: 65_000, toolCalls: 7, linesOfCode: 120 }),
    record('beta', 1, { tokens: { input: 1200, output: 340 } }),
  ]),
  strategies: [
    { id: '0@r1', agent: '0', round: 1, status: 'ok', hash: 'h' },
    { id: '1@r2', agent: '1', round: 2, status: 'failed', failure: 'no start_ai.sh', hash: 'h' },
  ],
});
STD_TRACK.bootstrap.perAgent['2']!.S = { point: 0.8125, lo: 0.5, hi: 0.75, samples: 10 };
const VAR_TRACK = track('variant', W_VAR, { games: 6 });

const SUMMARY: TourneySummary = {
  runId: 'run-2025-03-04',
  runDir: '/runs/run-2025-03-04',
  createdAt: '2025-03-04T05:00:00.000Z',
  finishedAt: '2025-03-04T07:00:00.000Z',
  config: {
    rounds: 3,
    games: ['gomoku'],
    variants: ['standard', 'variant'],
    policy: 'strict',
    perGame: { gomoku: { reps: 2 } },
  },
  tracks: [STD_TRACK, VAR_TRACK],
  generalizability: { gomoku: generalizability(W_STD, W_VAR) },
  leaderboard: leaderboard([STD_TRACK, VAR_TRACK]),
};

describe('renderMarkdown', () => {
  const md = renderMd(SUMMARY);

  it('has every section heading', () => {
    for (const heading of [
      '# CATArena tournament report: run-2025-03-04',
      '## Leaderboard (Table 3 layout)',
      '## Strategy coding, global learning and generalizability (Table 4 layout)',
      '### gomoku',
      '## Learning details (Tables 9–11 layout)',
      '### gomoku-standard',
      '### gomoku-variant',
      '## HTTP error rates per agent (Table 16 layout)',
      '## Cost per agent (Table 17 layout)',
      '## Score matrices W',
      '## Rank probabilities',
      '## Ratings (Bradley–Terry with Davidson draws)',
      '## Failed strategies',
    ]) {
      expect(md).toContain(heading);
    }
  });

  it('header names the run, agents, games, rule sets, rounds, policy and config', () => {
    expect(md).toContain('- Agents (3): 0, 1, 2');
    expect(md).toContain('- Games played: 42 (gomoku-standard: 36, gomoku-variant: 6)');
    expect(md).toContain('- Rule sets: gomoku-standard, gomoku-variant');
    expect(md).toContain('- Rounds: gomoku-standard 3, gomoku-variant 1');
    expect(md).toContain('- Forfeit policy in force: strict');
    expect(md).toContain(
      '- Config: rounds=3 · games=gomoku · variants=standard,variant · policy=strict · perGame={"gomoku":{"reps":2}}',
    );
  });

  it('Table 3 rows: average ranks and means', () => {
    expect(md).toContain('| 1 | 1 | 2.250 | 1.000 | 0.375 | 0.063 |');
    expect(md).toContain('| 3 | 0 | 2.000 | 3.000 | 0.531 | -0.078 |'); // V8 prints 0.53125 as 0.531
  });

  it('Table 4: S.C. with its interval, G.L., G.A.', () => {
    expect(md).toContain('| Agent | standard S.C. | standard G.L. | variant S.C. | variant G.L. | G.A. |');
    // Agent 2: S = 0.8125 → 0.813 with the patched CI; L = −0.0546875; variant S = 0.375, L —; U = 0.375 − 0.8125.
    expect(md).toContain('| 2 | 0.813 [0.50, 0.75] | -0.055 | 0.375 | — | -0.438 |');
    expect(md).toContain('| 0 | 0.313 | -0.078 | 0.750 | — | 0.438 |');
  });

  it('learning details: G, B, A, C, self scores, SI and field trends', () => {
    expect(md).toContain('| 0 | 0.563 | 0.406 | 0.563 | -0.078 |'); // G^1..3, L
    expect(md).toContain('| 1 | 0.375 | 0.375 | 0.875 | 0.375 | 0.688 | 0.156 |'); // B^1..3, A^2..3, C
    expect(md).toContain('| 2 | 0.375 | 0.750 | 0.375 | 0.000 |'); // a defined zero SI
    expect(md).toContain('| 0 | — | n/a (undefined) |'); // one-round track: S^1 none, SI undefined
    expect(md).toContain('DIS_std = 0.489 · DIS_range = 0.569 · Trend_mean = -0.500');
    expect(md).toContain('DIS_std = n/a (undefined) · DIS_range = n/a (undefined) · Trend_mean = n/a (undefined)');
  });

  it('error rates as percentages of requests', () => {
    // alpha 16 requests: illegal 1 = 6.25%, http 1 = 6.25%, rate 12.50%; beta 10: timeout 10.00%.
    expect(md).toContain('| gomoku-standard | alpha | 16 | 0.00% | 6.25% | 0.00% | 6.25% | 0.00% | 12.50% |');
    expect(md).toContain('| gomoku-standard | beta | 10 | 10.00% | 0.00% | 0.00% | 0.00% | 0.00% | 10.00% |');
  });

  it('cost, W matrix, ratings and failures', () => {
    expect(md).toContain('| gomoku-standard | alpha | 1 | 1 min 05 s | 7 | — | 120 |');
    expect(md).toContain('| gomoku-standard | beta | 1 | 1.0 s | 1 | 1200 input + 340 output tokens | 10 |');
    expect(md).toContain('| W | 0@1 | 0@2 | 0@3 | 1@1 | 1@2 | 1@3 | 2@1 | 2@2 | 2@3 |');
    expect(md).toContain('| 0@1 | · | 0.75 | 0.50 | 0.25 | 1.00 | 0.63 | 0.38 | 0.88 | 0.13 |');
    // A pair that never met shows '?'.
    const gap = fromMatrix(AGENTS, 1, [
      [null, 0.5, 1],
      [0.5, null, null],
      [0, null, null],
    ]);
    expect(renderMd({ ...SUMMARY, tracks: [track('variant', gap)] })).toContain('| 2@1 | 0.00 | ? | · |');
    expect(md).toContain('Elo 0 = 0@1 (anchor) · draw parameter ν = 0.250 · dispersion φ = 1.10 · 95% intervals.');
    expect(md).toContain('| 2@1 | 12.3 | [-80, 105] | 8 |');
    expect(md).toContain('| 0@1 | 0.0 | anchor | 8 |');
    expect(md).toContain('| 2 | -3.2 | [-50, 44] | 16 |');
    expect(md).toContain('- gomoku-standard · `1@r2`: no start_ai.sh');
  });

  it('renderLeaderboard: short plain text', () => {
    const text = renderLeaderboard(SUMMARY);
    const lines = text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(lines[0]).toBe('Leaderboard: mean rank over 2 track(s), 1 = best');
    expect(lines[2]).toMatch(/^1\s+1\s+2\.25\s+1\.00\s+0\.375\/0\.063\s+0\.375\/—$/);
    expect(lines).toHaveLength(5);
    const many: TourneySummary = {
      ...SUMMARY,
      leaderboard: Array.from({ length: 30 }, (_, k) => ({
        agent: `a${k}`,
        meanRankS: k,
        meanRankL: k,
        meanS: null,
        meanL: null,
      })),
    };
    const long = renderLeaderboard(many).split('\n');
    expect(long.length).toBeLessThanOrEqual(13);
    expect(long.at(-1)).toBe('… 20 more agent(s) in report.md');
  });
});
