// CATArena's Hold'em report files (compat §4.7), round_report.json for tables and the Markdown
// win-rate section, from real tables: seeded tables played in-process with the rules engine and
// recorded the way the match runner records them, and a real arena run with the builtin bots.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng, deriveSeed } from '../util/rng.ts';
import {
  DEFAULT_LIMITS,
  type FailureKind,
  matchId,
  type MatchResult,
  type MatchSpec,
  type MoveRecord,
  type Replay,
  type SeatStats,
} from '../records/match.ts';
import { handLogs, holdem, tableConfig, type HandLog, type TableState } from '../games/holdem/table.ts';
import { holdemWire } from '../games/holdem/wire.ts';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { initSetup } from '../games/core/game.ts';
import type { StrategyRecord, TourneySummary, TrackSummary } from '../records/tourney.ts';
import {
  buildHoldemReport,
  holdemRoundTables,
  holdemTournamentId,
  type HoldemTournamentReport,
} from '../games/holdem/reports/catarena-report.ts';
import { renderReportMarkdown, summaryInput } from '../reports/sections/index.ts';
import { pairwiseGames, tableWinRates } from '../reports/metrics/batch.ts';
import { bootstrapMetrics } from '../reports/metrics/bootstrap.ts';
import { ratings } from '../reports/metrics/ratings.ts';
import { computeAll } from '../reports/metrics/metrics.ts';
import { fromGames } from '../reports/metrics/score-matrix.ts';
import { replayState } from '../games/replay.ts';
import { buildRoundReport, writeRoundLogs, type RoundLogsInput } from '../reports/round-logs.ts';
import { errorRates, leaderboard } from '../reports/summary.ts';
import { createSandbox } from '../sandbox/index.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { readReplaySync } from './helpers/replays.ts';

// ---------------------------------------------------------------------------------------------
// Tables played in-process: a seeded random policy, failures and stand-ins as the runner records them.

interface TablePlan {
  n: number;
  seats: string[];
  kind: 'own' | 'round' | 'field';
  label: string;
  round: number;
  table?: number;
  /** The seat's k-th decision (0-based) fails with this kind; the adapter's fallback is played. */
  fail?: Array<{ seat: number; at: number; kind: FailureKind }>;
  /** Seats whose bot never started: an always-fold stand-in plays them. */
  standIn?: number[];
}

const OPTIONS = { startingChips: 400, handCap: 40, handsPerLevel: 4 };
const MOVE_MS = 3_000;

function playTable(plan: TablePlan): Replay {
  const spec: MatchSpec = {
    game: 'holdem',
    variant: 'standard',
    seats: plan.seats,
    seed: deriveSeed('holdem-report-test', plan.n),
    limits: { ...DEFAULT_LIMITS, moveMs: MOVE_MS },
    policy: 'strict',
    options: OPTIONS,
    pairing: `${plan.label}#0`,
    rep: plan.round,
    batch: { kind: plan.kind, label: plan.label, round: plan.round, table: plan.table ?? 0 },
  };
  let state = holdem.init(spec.variant, createRng(spec.seed), initSetup(spec));
  const policy = createRng(deriveSeed('policy', plan.n));
  const stats: SeatStats[] = plan.seats.map(() => ({ moves: 0, totalMs: 0, maxMs: 0, errors: {} }));
  const decisions = plan.seats.map(() => 0);
  const moves: MoveRecord[] = [];
  while (!holdem.outcome(state)) {
    const seat = holdem.toMove(state)!;
    if (plan.standIn?.includes(seat)) {
      const action = holdemWire.standIn!(state, seat);
      state = holdem.apply(state, seat, action);
      moves.push({ ply: moves.length, seat, action: holdemWire.encode(action), latencyMs: 0, standIn: true });
      continue;
    }
    const k = decisions[seat]!++;
    const fail = plan.fail?.find((f) => f.seat === seat && f.at === k);
    let latencyMs = 5 + seat + (moves.length % 4) / 4;
    let action;
    if (fail) {
      if (fail.kind === 'timeout') latencyMs = MOVE_MS;
      stats[seat]!.errors[fail.kind] = (stats[seat]!.errors[fail.kind] ?? 0) + 1;
      const resolution = holdemWire.onFailure(state, seat, fail.kind, spec.policy);
      if (!('action' in resolution)) throw new Error("hold'em failures never end a table");
      action = resolution.action;
    } else {
      // Random legal actions, folding only when a check is not free: showdowns and fold wins both occur.
      const legal = holdem.legalActions(state, seat);
      const options = legal.some((a) => a.action === 'check') ? legal.filter((a) => a.action !== 'fold') : legal;
      action = options[policy.int(0, options.length - 1)]!;
    }
    stats[seat]!.moves++;
    stats[seat]!.totalMs += latencyMs;
    stats[seat]!.maxMs = Math.max(stats[seat]!.maxMs, latencyMs);
    state = holdem.apply(state, seat, action);
    moves.push({
      ply: moves.length,
      seat,
      action: holdemWire.encode(action),
      latencyMs,
      ...(fail ? { error: { kind: fail.kind, message: fail.kind } } : {}),
    });
  }
  for (const seat of plan.standIn ?? []) stats[seat]!.errors.crash = 1;
  const outcome = holdem.outcome(state)!;
  const result: MatchResult = {
    id: matchId(spec),
    spec,
    serverGameId: `holdem_${String(plan.n).padStart(8, '0')}`,
    scores: outcome.scores,
    winner: outcome.winner,
    termination: 'normal',
    reason: outcome.reason,
    offender: null,
    places: outcome.places!,
    detail: outcome.detail!,
    ...(plan.standIn?.length ? { standIns: plan.standIn.map((seat) => ({ seat, reason: 'no start_ai.sh' })) } : {}),
    plies: moves.length,
    seatStats: stats,
    startedAt: new Date(Date.UTC(2025, 2, 4, 5, plan.n)).toISOString(),
    durationMs: 100 + plan.n,
  };
  return { result, setup: holdemWire.setup!(state), moves };
}

// Round 2 (the last) of a three-agent track: four round-2 tables (passed out of order), with a
// timeout, an illegal answer and a stand-in; the final own and field tables come along.
const R2 = ['alpha@r2', 'beta@r2', 'gamma@r2'];
const ROUND_PLANS: TablePlan[] = [
  { n: 3, seats: [R2[2]!, R2[0]!, R2[1]!], kind: 'round', label: 'round:2', round: 2 },
  {
    n: 1,
    seats: R2,
    kind: 'round',
    label: 'round:2',
    round: 0,
    fail: [
      { seat: 0, at: 0, kind: 'timeout' },
      { seat: 1, at: 0, kind: 'illegal' },
    ],
  },
  {
    n: 2,
    seats: [R2[1]!, R2[2]!, R2[0]!],
    kind: 'round',
    label: 'round:2',
    round: 1,
    standIn: [1],
    fail: [{ seat: 2, at: 0, kind: 'malformed' }],
  },
  {
    n: 4,
    seats: [R2[0]!, R2[2]!, R2[1]!],
    kind: 'round',
    label: 'round:2',
    round: 3,
    fail: [
      { seat: 1, at: 0, kind: 'http_error' },
      { seat: 2, at: 0, kind: 'timeout' },
    ],
  },
];
const FINAL_PLANS: TablePlan[] = [
  { n: 5, seats: ['alpha@r1', 'alpha@r2'], kind: 'own', label: 'own:alpha', round: 0 },
  {
    n: 6,
    seats: ['beta@r2', 'alpha@r1', 'gamma@r1', 'alpha@r2', 'beta@r1', 'gamma@r2'],
    kind: 'field',
    label: 'field',
    round: 0,
  },
];
const ROUND_TABLES = ROUND_PLANS.map(playTable);
const FINAL_TABLES = FINAL_PLANS.map(playTable);
const ALL = [...ROUND_TABLES, ...FINAL_TABLES];
/** CATArena round order: by table round. */
const ORDERED = [...ROUND_TABLES].sort((a, b) => a.result.spec.batch!.round - b.result.spec.batch!.round);

function record(agent: string, round: number): StrategyRecord {
  return {
    id: `${agent}@r${round}`,
    agent,
    agentKind: `offline:${agent}`,
    round,
    game: 'holdem',
    variant: 'standard',
    dir: `/runs/x/${agent}/${round}`,
    hash: 'cd'.repeat(32),
    status: 'ok',
    cost: { wallMs: 1000, toolCalls: 1, tokens: null, linesOfCode: 10 },
    buildLog: '',
  };
}

const STRATEGIES = [1, 2].flatMap((round) => ['alpha', 'beta', 'gamma'].map((agent) => record(agent, round)));
const INPUT: RoundLogsInput = {
  game: 'holdem',
  variant: 'standard',
  round: 2,
  policy: 'strict',
  strategies: STRATEGIES,
  results: ALL.map((r) => r.result),
  replays: ALL,
  now: new Date('2025-03-04T06:00:00Z'),
};
const nameOf = (id: string) => `${id.split('@')[0]} AI (round ${id.split('@r')[1]})`;

const HISTORY_NAME = /^history_tourney_[0-9a-f]{6}_round_\d+\.json$/;
const REPORT_NAME = /^tournament_report_tourney_[0-9a-f]{6}\.json$/;
const ACTIONS = ['fold', 'check', 'call', 'raise', 'all_in'];
const PHASES = ['preflop', 'flop', 'turn', 'river'];

type Json = Record<string, any>;

/** Moves of `id` over some tables. */
function movesOf(id: string, replays: Replay[]): MoveRecord[] {
  return replays.flatMap((r) => r.moves.filter((m) => r.result.spec.seats[m.seat] === id));
}

/**
 * Checks a table's history file against its hands: three entries per hand in order, the hand
 * record's shape, winners, and chips conserved from one hand to the next and into the final chips.
 */
function checkHistory(history: Json[], replay: Replay): { hands: number; showdowns: number; foldWins: number } {
  const state = replayState(replay) as TableState;
  const logs: HandLog[] = handLogs(state);
  const ids = replay.result.spec.seats;
  expect(logs.length).toBeGreaterThan(0);
  expect(history).toHaveLength(3 * logs.length);
  let showdowns = 0;
  let foldWins = 0;
  let stacks: Record<string, number> = Object.fromEntries(
    ids.map((id) => [id, tableConfig(replay.result.spec.options).startingChips]),
  );
  logs.forEach((log, h) => {
    const [sb, bb, rec] = history.slice(3 * h, 3 * h + 3) as [Json, Json, Json];
    expect(Object.keys(sb)).toEqual(['actions']);
    expect(Object.keys(bb)).toEqual(['actions']);
    expect(sb.actions).toHaveLength(1);
    expect(bb.actions).toHaveLength(1);
    expect(sb.actions[0]).toMatchObject({ player_id: ids[log.hand.sbSeat], action: 'small_blind', phase: 'preflop' });
    expect(bb.actions[0]).toMatchObject({ player_id: ids[log.hand.bbSeat], action: 'big_blind', phase: 'preflop' });
    expect(Object.keys(rec)).toEqual(['hand_number', 'players', 'actions', 'community_cards', 'result']);
    expect(rec.hand_number).toBe(h + 1);

    // Everyone dealt in, with their hole cards and the stack they started the hand with.
    const inHand = ids.filter((id) => stacks[id]! > 0);
    expect(Object.keys(rec.players).sort()).toEqual([...inHand].sort());
    const cards = new Set<string>();
    for (const id of inHand) {
      const p = rec.players[id];
      expect(p).toEqual({ name: id, initial_chips: stacks[id], hole_cards: log.hand.seats[ids.indexOf(id)]!.hole });
      expect(p.hole_cards).toHaveLength(2);
      for (const c of p.hole_cards) cards.add(c);
    }

    // Actions without the blinds; board by street.
    for (const a of rec.actions) {
      expect(Object.keys(a)).toEqual(['player_id', 'action', 'amount', 'phase']);
      expect(ACTIONS).toContain(a.action);
      expect(PHASES).toContain(a.phase);
    }
    const board = log.hand.result!.board;
    const cc = rec.community_cards;
    expect(Object.keys(cc)).toEqual(
      ['flop', 'turn', 'river'].slice(0, board.length === 5 ? 3 : board.length === 4 ? 2 : board.length === 3 ? 1 : 0),
    );
    if (board.length >= 3) expect(cc.flop).toEqual(board.slice(0, 3));
    if (board.length >= 4) expect(cc.turn).toBe(board[3]);
    if (board.length >= 5) expect(cc.river).toBe(board[4]);
    for (const c of board) cards.add(c);
    expect(cards.size).toBe(2 * inHand.length + board.length); // no card dealt twice

    // Contributions from the wire records: blinds, call/all_in = chips added, raise = raise-to.
    const put: Record<string, number> = {};
    const streetBet: Record<string, number> = {};
    let phase = 'preflop';
    for (const a of [sb.actions[0], bb.actions[0], ...rec.actions]) {
      if (a.phase !== phase) {
        phase = a.phase;
        for (const k of Object.keys(streetBet)) streetBet[k] = 0;
      }
      const before = streetBet[a.player_id] ?? 0;
      const added = a.action === 'raise' ? a.amount - before : a.amount;
      expect(added).toBeGreaterThanOrEqual(0);
      put[a.player_id] = (put[a.player_id] ?? 0) + added;
      streetBet[a.player_id] = before + added;
    }

    // Winners: event win; a fold win is {event, player_id, amount} only.
    const winners: Json[] = rec.result.winners;
    expect(Object.keys(rec.result)).toEqual(['winners']);
    expect(winners.length).toBeGreaterThan(0);
    const folded = new Set(rec.actions.filter((a: Json) => a.action === 'fold').map((a: Json) => a.player_id));
    const standing = inHand.filter((id) => !folded.has(id));
    for (const w of winners) {
      expect(w.event).toBe('win');
      expect(inHand).toContain(w.player_id);
      expect(standing).toContain(w.player_id);
      expect(w.amount).toBeGreaterThan(0);
    }
    if (log.hand.result!.showdown.length === 0) {
      foldWins++;
      expect(standing).toHaveLength(1);
      for (const w of winners) expect(Object.keys(w)).toEqual(['event', 'player_id', 'amount']);
    } else {
      showdowns++;
      expect(board).toHaveLength(5);
      for (const w of winners) {
        expect(Object.keys(w)).toEqual(['event', 'player_id', 'name', 'amount', 'pot_index', 'hand']);
        expect(w.name).toBe(w.player_id);
        expect(w.hand).toHaveLength(5);
        for (const c of w.hand) expect([...rec.players[w.player_id].hole_cards, ...board]).toContain(c);
      }
    }

    // Chips conserve: the pots paid equal what went in, less an uncalled bet given back.
    const returned = log.hand.result!.returned;
    const paid = winners.reduce((s, w) => s + w.amount, 0);
    const putIn = Object.values(put).reduce((s, v) => s + v, 0);
    expect(paid + (returned?.amount ?? 0)).toBe(putIn);
    const next = { ...stacks };
    for (const [id, v] of Object.entries(put)) next[id]! -= v;
    for (const w of winners) next[w.player_id]! += w.amount;
    if (returned) next[ids[returned.seat]!]! += returned.amount;
    expect(ids.map((id) => next[id])).toEqual(log.hand.result!.stacks);
    stacks = next;
  });
  expect(ids.map((id) => stacks[id])).toEqual(replay.result.detail!.chips);
  return { hands: logs.length, showdowns, foldWins };
}

// ---------------------------------------------------------------------------------------------

describe("writeRoundLogs for holdem (CATArena Hold'em arena files)", () => {
  let root: string;
  let dir: string;
  let paths: string[];
  let names: string[];
  let tid: string;
  let report: HoldemTournamentReport;
  const readJson = async (name: string) => JSON.parse(await readFile(join(dir, name), 'utf8'));

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'catarena-holdem-logs-'));
    dir = join(root, 'logs');
    paths = await writeRoundLogs(dir, INPUT);
    names = await readdir(dir);
    tid = holdemTournamentId(holdemRoundTables(INPUT.results));
    report = await readJson(`tournament_report_${tid}.json`);
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('the tables are what they claim', () => {
    expect(ALL.every((r) => r.result.places && r.result.detail)).toBe(true);
    for (const r of ALL) expect(r.result.scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(ROUND_TABLES[2]!.moves.filter((m) => m.standIn).length).toBeGreaterThan(0);
    // Every planned failure happened.
    ROUND_PLANS.forEach((plan, i) => {
      const key = (e: { seat: number; kind: string }) => `${e.seat}:${e.kind}`;
      const errors = ROUND_TABLES[i]!.moves.filter((m) => m.error).map((m) =>
        key({ seat: m.seat, kind: m.error!.kind }),
      );
      expect(errors.sort()).toEqual((plan.fail ?? []).map(key).sort());
    });
    expect(ALL.some((r) => r.result.reason === 'last_player')).toBe(true);
  });

  it("writes CATArena's names: one history per round table, the report and its misspelt copy", () => {
    expect(tid).toMatch(/^tourney_[0-9a-f]{6}$/);
    expect(paths.map((p) => p.slice(dir.length + 1)).sort()).toEqual([...names].sort());
    const histories = names.filter((n) => HISTORY_NAME.test(n)).sort();
    expect(histories).toEqual([1, 2, 3, 4].map((k) => `history_${tid}_round_${k}.json`).sort());
    expect(names.filter((n) => REPORT_NAME.test(n))).toEqual([`tournament_report_${tid}.json`]);
    expect(names.sort()).toEqual(
      [...histories, 'round_report.json', `tournament_report_${tid}.json`, `tournament_repost_${tid}.json`].sort(),
    );
    // The round-2 prompt's globs.
    expect(names.filter((n) => /^tournament_repost_tourney_.+\.json$/.test(n))).toHaveLength(1);
    expect(names.filter((n) => /^history_tourney_.+\.json$/.test(n))).toHaveLength(4);
  });

  it('the tournament id is stable and depends on the round tables only', () => {
    expect(holdemTournamentId(holdemRoundTables([...INPUT.results].reverse()))).toBe(tid);
    expect(holdemTournamentId(holdemRoundTables(INPUT.results.slice(1)))).not.toBe(tid);
    // own and field tables are not rounds of this report.
    expect(holdemRoundTables(INPUT.results).map((r) => r.id)).toEqual(ORDERED.map((r) => r.result.id));
  });

  it("history files: three entries per hand, hand records in CATArena's shape, chips conserved", async () => {
    let showdowns = 0;
    let foldWins = 0;
    for (const [k, replay] of ORDERED.entries()) {
      const history = await readJson(`history_${tid}_round_${k + 1}.json`);
      const c = checkHistory(history, replay);
      showdowns += c.showdowns;
      foldWins += c.foldWins;
    }
    expect(showdowns).toBeGreaterThan(0);
    expect(foldWins).toBeGreaterThan(0);
  });

  it('the report: keys, config, round files', () => {
    expect(Object.keys(report)).toEqual([
      'tournament_id',
      'config',
      'overall_stats',
      'ai_technical_statistics',
      'round_history_files',
    ]);
    expect(report.tournament_id).toBe(tid);
    expect(report.config).toEqual({
      tournament: {
        max_players: 12,
        rounds: 4,
        initial_chips: 400,
        max_hands_per_round: 40,
        hands_per_level: 4,
        delay_between_hands: 0,
      },
      timeout: 3,
      ais: R2.map((id) => ({ ai_id: id, ai_name: nameOf(id), port: null, description: `strategy ${id}` })),
    });
    expect(report.round_history_files).toEqual(
      Object.fromEntries([1, 2, 3, 4].map((k) => [String(k), join('logs', `history_${tid}_round_${k}.json`)])),
    );
    for (const path of Object.values(report.round_history_files)) expect(existsSync(join(root, path))).toBe(true);
  });

  it('overall_stats: wins add up to the tables, actions and times from the moves, errors by kind', () => {
    expect(Object.keys(report.overall_stats)).toEqual(R2);
    const wins = Object.values(report.overall_stats).reduce((s, o) => s + o.wins, 0);
    expect(wins).toBeCloseTo(ROUND_TABLES.length, 12);
    for (const id of R2) {
      const o = report.overall_stats[id]!;
      expect(Object.keys(o)).toEqual([
        'ai_name',
        'wins',
        'chips',
        'total_actions',
        'total_thinking_time',
        'timeouts',
        'action_errors',
        'avg_thinking_time',
      ]);
      const moves = movesOf(id, ROUND_TABLES);
      expect(o.ai_name).toBe(nameOf(id));
      expect(o.chips).toBe(0);
      expect(o.total_actions).toBe(moves.length);
      expect(o.wins).toBe(
        ROUND_TABLES.reduce((s, r) => s + (r.result.scores[r.result.spec.seats.indexOf(id)] ?? 0), 0),
      );
      expect(o.total_thinking_time).toBeCloseTo(moves.reduce((s, m) => s + m.latencyMs, 0) / 1000, 9);
      expect(o.avg_thinking_time).toBeCloseTo(o.total_thinking_time / o.total_actions, 12);
    }
    // alpha: a timeout (table round 0) and a malformed answer (round 1); beta: an illegal answer
    // (round 0) and a timeout (round 3); gamma: a stand-in (round 1) and an HTTP error (round 3).
    expect(report.overall_stats['alpha@r2']).toMatchObject({ timeouts: 1, action_errors: 0 });
    expect(report.overall_stats['beta@r2']).toMatchObject({ timeouts: 1, action_errors: 1 });
    expect(report.overall_stats['gamma@r2']).toMatchObject({ timeouts: 0, action_errors: 0 });
  });

  it('ai_technical_statistics: per round, actions by name and errors', () => {
    const t = report.ai_technical_statistics;
    expect(Object.keys(t)).toEqual(R2);
    for (const id of R2) {
      expect(t[id]!.ai_name).toBe(nameOf(id));
      expect(Object.keys(t[id]!.rounds)).toEqual(['1', '2', '3', '4']);
      ORDERED.forEach((replay, k) => {
        const r = t[id]!.rounds[String(k + 1)]!;
        expect(Object.keys(r)).toEqual(['actions', 'http_errors', 'action_errors']);
        const moves = movesOf(id, [replay]);
        const counts: Record<string, number> = {};
        for (const m of moves)
          counts[(m.action as { action: string }).action] = (counts[(m.action as { action: string }).action] ?? 0) + 1;
        expect(r.actions).toEqual(counts);
        for (const name of Object.keys(r.actions)) expect(ACTIONS).toContain(name);
        expect(Object.values(r.actions).reduce((a, b) => a + b, 0)).toBe(moves.length);
      });
    }
    // Round numbers: 1 = table round 0, 2 = round 1, 4 = round 3.
    expect(t['alpha@r2']!.rounds['1']).toMatchObject({ http_errors: 1, action_errors: 0 });
    expect(t['alpha@r2']!.rounds['2']).toMatchObject({ http_errors: 1, action_errors: 0 });
    expect(t['beta@r2']!.rounds['1']).toMatchObject({ http_errors: 0, action_errors: 1 });
    expect(t['beta@r2']!.rounds['4']).toMatchObject({ http_errors: 1, action_errors: 0 });
    expect(t['gamma@r2']!.rounds['4']).toMatchObject({ http_errors: 1, action_errors: 0 });
    // A stand-in's folds: one failed request (connection) per decision.
    const standIns = ORDERED[1]!.moves.filter((m) => m.standIn).length;
    expect(t['gamma@r2']!.rounds['2']).toMatchObject({
      http_errors: standIns,
      action_errors: 0,
      actions: { fold: standIns },
    });
    // The history's actions of a player are its moves (a raise to the whole stack shows as all_in there).
    ORDERED.forEach((replay, k) => {
      const history = replayState(replay) as TableState;
      for (const id of R2) {
        const seat = replay.result.spec.seats.indexOf(id);
        const played = handLogs(history).flatMap((l) =>
          l.hand.history.filter((e) => e.seat === seat && ACTIONS.includes(e.action)),
        );
        const total = Object.values(t[id]!.rounds[String(k + 1)]!.actions).reduce((a, b) => a + b, 0);
        expect(played).toHaveLength(total);
      }
    });
  });

  it('the misspelt copy is the same report', async () => {
    expect(await readFile(join(dir, `tournament_repost_${tid}.json`), 'utf8')).toBe(
      await readFile(join(dir, `tournament_report_${tid}.json`), 'utf8'),
    );
  });

  it("a split win counts its share; a missing replay falls back to the runner's totals", () => {
    const [a, b] = ORDERED;
    const split: MatchResult = { ...a!.result, scores: [0.5, 0.5, 0], places: [1, 1, 3], winner: null };
    const r = buildHoldemReport({
      tournamentId: 'tourney_abcdef',
      tables: [split, b!.result],
      replays: new Map([[b!.result.serverGameId, b!]]),
      nameOf,
      order: [],
      historyPath: (k) => `logs/h${k}.json`,
    });
    const seats = split.spec.seats;
    expect(r.overall_stats[seats[0]!]!.wins).toBe(0.5 + b!.result.scores[b!.result.spec.seats.indexOf(seats[0]!)]!);
    expect(Object.values(r.overall_stats).reduce((s, o) => s + o.wins, 0)).toBeCloseTo(2, 12);
    // Without the replay: moves and errors from seatStats, no per-action counts.
    const alpha = r.ai_technical_statistics['alpha@r2']!.rounds['1']!;
    expect(alpha).toEqual({ actions: {}, http_errors: 1, action_errors: 0 });
    expect(r.overall_stats['alpha@r2']!.total_actions).toBe(
      split.seatStats[0]!.moves + movesOf('alpha@r2', [b!]).length,
    );
    expect(Object.keys(r.overall_stats)).toEqual(split.spec.seats); // order of appearance
  });
});

describe('round_report.json for tables', () => {
  const rr = buildRoundReport(INPUT);

  it('pairwise: who finished ahead at each shared table', () => {
    const expected: Record<string, Record<string, { games: number; wins: number; draws: number; losses: number }>> = {};
    for (const r of INPUT.results) {
      r.spec.seats.forEach((a, i) =>
        r.spec.seats.forEach((b, j) => {
          if (i === j) return;
          const h = ((expected[a] ??= {})[b] ??= { games: 0, wins: 0, draws: 0, losses: 0 });
          h.games++;
          h[r.places![i]! < r.places![j]! ? 'wins' : r.places![i] === r.places![j] ? 'draws' : 'losses']++;
        }),
      );
    }
    for (const [a, row] of Object.entries(expected)) {
      for (const [b, h] of Object.entries(row)) {
        expect(rr.pairwise[a]![b]).toMatchObject(h);
        expect(rr.pairwise[a]![b]!.score).toBeCloseTo((h.wins + 0.5 * h.draws) / h.games, 12);
        // Complementary: a's wins are b's losses.
        expect(rr.pairwise[b]![a]!.wins).toBe(h.losses);
      }
    }
    expect(Object.keys(rr.pairwise).sort()).toEqual(Object.keys(expected).sort());
    // The round-2 strategies shared the four round tables and the field table.
    expect(rr.pairwise['alpha@r2']!['beta@r2']!.games).toBe(5);
    expect(rr.pairwise['alpha@r2']!['alpha@r1']!.games).toBe(2); // own and field
  });

  it('standings: tables won/lost/split, win rate, average place and chips, request errors', () => {
    expect(rr.games).toBe(ALL.length);
    const ids = rr.standings.map((s) => s.id);
    expect([...ids].sort()).toEqual(STRATEGIES.map((s) => s.id).sort());
    for (const s of rr.standings) {
      const mine = ALL.filter((r) => r.result.spec.seats.includes(s.id)).map((r) => ({
        r: r.result,
        seat: r.result.spec.seats.indexOf(s.id),
      }));
      expect(s.games).toBe(mine.length);
      expect(s.wins + s.draws + s.losses).toBe(mine.length);
      expect(s.wins).toBe(mine.filter(({ r, seat }) => r.scores[seat] === 1).length);
      expect(s.score).toBeCloseTo(mine.reduce((t, { r, seat }) => t + r.scores[seat]!, 0) / mine.length, 12);
      expect(s.avgPlace).toBeCloseTo(mine.reduce((t, { r, seat }) => t + r.places![seat]!, 0) / mine.length, 12);
      expect(s.avgChips).toBeCloseTo(
        mine.reduce((t, { r, seat }) => t + (r.detail!.chips as number[])[seat]!, 0) / mine.length,
        12,
      );
    }
    // Sorted by win rate, then average place.
    for (let i = 1; i < rr.standings.length; i++) {
      const [p, q] = [rr.standings[i - 1]!, rr.standings[i]!];
      expect(p.score > q.score || (p.score === q.score && p.avgPlace! <= q.avgPlace!)).toBe(true);
    }
    const by = Object.fromEntries(rr.standings.map((s) => [s.id, s]));
    expect(by['alpha@r2']!.errors).toEqual({ timeout: 1, malformed: 1 });
    expect(by['beta@r2']!.errors).toEqual({ illegal: 1, timeout: 1 });
    expect(by['gamma@r2']!.errors).toEqual({ crash: 1, http_error: 1 });
    // A failure at a table folds instead of ending the game: only the stand-in is a "failure".
    expect(by['gamma@r2']!.failures).toEqual({ stand_in: 1 });
    expect(by['alpha@r2']!.failures).toEqual({});
    expect(by['alpha@r1']).toMatchObject({ agent: 'alpha', round: 1, games: 2, errors: {} });
  });

  it('is what writeRoundLogs writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'catarena-holdem-rr-'));
    try {
      await writeRoundLogs(dir, INPUT);
      expect(JSON.parse(await readFile(join(dir, 'round_report.json'), 'utf8'))).toEqual(
        JSON.parse(JSON.stringify(rr)),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("report.md: Hold'em table win rates", () => {
  const agents = ['alpha', 'beta', 'gamma'];
  const results = INPUT.results;
  const keyOf = (id: string) => ({ agent: id.split('@')[0]!, round: Number(id.split('@r')[1]) });
  const games = pairwiseGames(results, keyOf);
  const W = fromGames(agents, 2, games);
  const rates = tableWinRates(results);
  const holdemTrack: TrackSummary = {
    game: 'holdem',
    variant: 'standard',
    agents,
    rounds: 2,
    policy: 'strict',
    W: W.toJSON(),
    metrics: computeAll(W),
    bootstrap: bootstrapMetrics(agents, 2, games, { samples: 10, seed: 1 }),
    elo: {},
    ratings: ratings(W, games),
    errors: errorRates(results, (id) => id.split('@')[0]!),
    cost: {},
    strategies: STRATEGIES.map(({ id, agent, round, status, hash }) => ({ id, agent, round, status, hash })),
    games: results.length,
    tableWinRates: rates,
  };
  const summary = (tracks: TrackSummary[]): TourneySummary => ({
    runId: 'run-holdem',
    runDir: '/runs/run-holdem',
    createdAt: '2025-03-04T05:00:00.000Z',
    finishedAt: '2025-03-04T07:00:00.000Z',
    config: { rounds: 2, games: ['holdem'] },
    tracks,
    generalizability: {},
    leaderboard: leaderboard(tracks),
  });

  it('has the section, the note on where W comes from, and a row per strategy', () => {
    const md = renderReportMarkdown(summaryInput(summary([holdemTrack])));
    expect(md).toContain("## Table win rates (paper figures for Hold'em)");
    expect(md).toMatch(
      /W, Elo and the metrics above come from the pairwise projection.*who finished ahead.*"Batch games".*the paper's win rates/s,
    );
    expect(md).toContain('| Strategy | Own tables | Round tables | Field tables |');
    const row = (id: string) => md.split('\n').find((l) => l.startsWith(`| ${id} |`))!;
    const cell = (w: { tables: number; wins: number; rate: number } | undefined) =>
      w ? `${w.rate.toFixed(3)} (${Number.isInteger(w.wins) ? w.wins : w.wins.toFixed(2)}/${w.tables})` : '—';
    for (const id of STRATEGIES.map((s) => s.id)) {
      expect(row(id)).toBe(
        `| ${id} | ${cell(rates.own?.[id])} | ${cell(rates.round?.[id])} | ${cell(rates.field?.[id])} |`,
      );
    }
    expect(rates.round!['alpha@r2']!.tables).toBe(4);
    expect(row('alpha@r2')).toMatch(/\(\d+\/4\)/);
    expect(row('beta@r1')).toMatch(/^\| beta@r1 \| — \| — \| \d\.\d{3} \(\d\/1\) \|$/);
    // After the Elo section, before the failed strategies.
    expect(md.indexOf('## Table win rates')).toBeGreaterThan(md.indexOf('## Ratings (Bradley–Terry'));
    expect(md.indexOf('## Table win rates')).toBeLessThan(md.indexOf('## Failed strategies'));
  });

  it('is absent for tracks without table win rates', () => {
    const { tableWinRates: _, ...plain } = holdemTrack;
    expect(renderReportMarkdown(summaryInput(summary([plain])))).not.toMatch(/table win rates/i);
  });
});

// ---------------------------------------------------------------------------------------------
// A real arena run: the builtin Hold'em bots through the process sandbox.

describe("Hold'em report files from a real arena run", () => {
  const sandbox = createSandbox('process');
  afterAll(() => sandbox.close());

  it('three random/heuristic tables give consistent history files and stats', async () => {
    const runDir = tempDir('catarena-holdem-arena-');
    const hosts = new GameServerPool();
    try {
      const bots = [
        { id: 'random', dir: BUILTIN('random', 'holdem') },
        { id: 'heuristic', dir: BUILTIN('heuristic', 'holdem') },
        { id: 'random-2', dir: BUILTIN('random', 'holdem') },
      ];
      const out = await runArena({
        game: 'holdem',
        variant: 'standard',
        bots,
        reps: 3,
        seed: 5,
        concurrency: 2,
        limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
        policy: 'strict',
        runDir,
        sandbox,
        hosts,
        startTimeoutMs: 10_000,
        protocolOptions: { handCap: 60 },
      });
      expect(out.results).toHaveLength(3);
      const replays: Replay[] = await Promise.all(out.results.map(async (r) => readReplaySync(runDir, r.id)));
      const logs = join(runDir, 'round-logs');
      await writeRoundLogs(logs, {
        game: 'holdem',
        variant: 'standard',
        round: 1,
        policy: 'strict',
        strategies: [],
        results: out.results,
        replays,
      });
      const names = await readdir(logs);
      const histories = names.filter((n) => HISTORY_NAME.test(n));
      expect(histories).toHaveLength(3);
      const reportName = names.find((n) => REPORT_NAME.test(n))!;
      const report: HoldemTournamentReport = JSON.parse(await readFile(join(logs, reportName), 'utf8'));
      const tid = reportName.slice('tournament_report_'.length, -'.json'.length);
      expect(names).toContain(`tournament_repost_${tid}.json`);

      const ordered = holdemRoundTables(out.results).map((r) => replays.find((x) => x.result.id === r.id)!);
      for (const [k, replay] of ordered.entries()) {
        expect(report.round_history_files[String(k + 1)]).toBe(
          join('round-logs', `history_${tid}_round_${k + 1}.json`),
        );
        checkHistory(JSON.parse(await readFile(join(logs, `history_${tid}_round_${k + 1}.json`), 'utf8')), replay);
      }
      expect(Object.values(report.overall_stats).reduce((s, o) => s + o.wins, 0)).toBeCloseTo(3, 12);
      for (const bot of bots) {
        const o = report.overall_stats[bot.id]!;
        expect(o.ai_name).toBe(`${bot.id} AI (round 1)`);
        expect(o.total_actions).toBe(movesOf(bot.id, replays).length);
        // Real bots: every move was a request.
        expect(o.total_actions).toBe(
          out.results.reduce((s, r) => s + r.seatStats[r.spec.seats.indexOf(bot.id)]!.moves, 0),
        );
      }
      expect(report.config.tournament).toMatchObject({ rounds: 3, max_hands_per_round: 60, initial_chips: 2000 });
    } finally {
      await hosts.closeAll();
      await rm(runDir, { recursive: true, force: true });
    }
  }, 60_000);
});
