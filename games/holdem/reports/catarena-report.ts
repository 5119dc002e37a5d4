// CATArena's Hold'em arena report files (compat §4.5–4.7) built from our table results, so that
// round n+1's agents find what CATArena's round-2 prompt points them to:
//
//   history_<tournament_id>_round_<k>.json   one per table ("round" in CATArena's words): the
//                                            server's full_history list, three entries per hand
//   tournament_report_<tournament_id>.json   {tournament_id, config, overall_stats,
//                                            ai_technical_statistics, round_history_files}
//   tournament_repost_<tournament_id>.json   the same report under the misspelt name the prompt
//                                            tells agents to look for (compat §4.7, last line)
//
// Decisions:
// * CATArena plays `rounds` tables of all its AIs; our round-n series does the same with round n's
//   strategies (spec.batch.kind 'round'). Those tables, ordered by table round then table, are
//   CATArena's rounds 1..K. The own and field tables added after the last round are left out:
//   they are a different population (and nobody reads the logs after the last round). Results
//   without a batch (ad-hoc tables) count as round tables.
// * Player ids are the strategy ids (the ids the bots saw at the table); ai_name is the report's
//   display name ("<agent> AI (round <n>)").
// * wins = tables won; a tie for the chip lead at the hand cap (a split win) counts its share, as
//   the paper's win rate (TrackSummary.tableWinRates) does. CATArena has no split: it gives a tie
//   to the earlier player in config order. So wins can be fractional, and they add up to the
//   number of tables.
// * Counts per request (replay move) of a strategy's seats: total_actions = every decision at its
//   seats, including the fold/check our fallback played after a failure and the folds of an
//   always-fold stand-in; actions = the action played, by name (blinds are not actions);
//   http_errors = timeout, HTTP error, malformed answer and crash, plus one per stand-in move
//   (CATArena would have asked the dead bot and failed to connect); action_errors = illegal
//   answers (the server's 400s); timeouts = timeouts. Thinking time = request latency in seconds.
// * round_history_files paths are the file name joined to the log folder's name ("logs/…"): the
//   folder is copied into the next round's workspace as `logs`, where an absolute run path would
//   not resolve.
// * tournament_id = "tourney_" + 6 hex digits of a hash over the tables' match ids: stable across
//   a resumed run.
// * The tables' replays are read one at a time: each gives its history file and its counts, and
//   is let go before the next.
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import type { FailureKind, MatchResult, Replay } from '../../../records/match.ts';
import { handLogs, tableConfig, type TableState } from '../table.ts';
import { fullHistoryEntries, holdemWire } from '../wire.ts';
import { holdem } from '../index.ts';
import { replayStateWith } from '../../core/replay.ts';
import { writeLogFile, type CatarenaWriter } from '../../../reports/catarena/catarena-report.ts';

export interface HoldemOverallStats {
  ai_name: string;
  /** Tables won; a split win counts its share. */
  wins: number;
  /** Always 0, as in CATArena (never updated there). */
  chips: 0;
  total_actions: number;
  /** Seconds. */
  total_thinking_time: number;
  timeouts: number;
  action_errors: number;
  /** Seconds per action. */
  avg_thinking_time: number;
}

export interface HoldemRoundStats {
  actions: Record<string, number>;
  http_errors: number;
  action_errors: number;
}

export interface HoldemTournamentReport {
  tournament_id: string;
  config: HoldemArenaConfig;
  overall_stats: Record<string, HoldemOverallStats>;
  ai_technical_statistics: Record<string, { ai_name: string; rounds: Record<string, HoldemRoundStats> }>;
  round_history_files: Record<string, string>;
}

/** CATArena's arena config dict (compat §4.6), filled from the tables' specs. */
export interface HoldemArenaConfig {
  tournament: {
    max_players: number;
    rounds: number;
    initial_chips: number;
    max_hands_per_round: number;
    /** Ours: hands per blind level (CATArena reads levels from blind_structure_file; 24 there). */
    hands_per_level: number;
    delay_between_hands: number;
  };
  /** The bot timeout, seconds. */
  timeout: number;
  ais: Array<{ ai_id: string; ai_name: string; port: null; description: string }>;
}

/** The tables CATArena would call the rounds of this report, in order (see the decisions above). */
export function holdemRoundTables(results: readonly MatchResult[]): MatchResult[] {
  return results
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => (r.spec.batch?.kind ?? 'round') === 'round')
    .sort(
      (x, y) =>
        (x.r.spec.batch?.round ?? 0) - (y.r.spec.batch?.round ?? 0) ||
        (x.r.spec.batch?.table ?? 0) - (y.r.spec.batch?.table ?? 0) ||
        x.i - y.i,
    )
    .map(({ r }) => r);
}

/** "tourney_<6 hex>" from the tables' match ids. */
export function holdemTournamentId(tables: readonly MatchResult[]): string {
  return `tourney_${createHash('sha256')
    .update(tables.map((t) => t.id).join('\n'))
    .digest('hex')
    .slice(0, 6)}`;
}

/** The full_history list of one table: three entries per hand, player ids = strategy ids. */
export function tableHistory(replay: Replay): unknown[] {
  const state: TableState = replayStateWith(holdemWire, replay);
  const ids = replay.result.spec.seats;
  return handLogs(state).flatMap((log) => fullHistoryEntries(log, ids, state.variant));
}

export interface SeatCounts {
  actions: Record<string, number>;
  moves: number;
  seconds: number;
  timeouts: number;
  httpErrors: number;
  actionErrors: number;
}

const HTTP_KINDS: readonly FailureKind[] = ['timeout', 'http_error', 'malformed', 'crash'];

/** Per-seat counts from the replay's moves; without a replay, the runner's totals (no actions). */
function seatCounts(result: MatchResult, replay: Replay | undefined): SeatCounts[] {
  const out = result.spec.seats.map(
    (): SeatCounts => ({ actions: {}, moves: 0, seconds: 0, timeouts: 0, httpErrors: 0, actionErrors: 0 }),
  );
  if (!replay) {
    result.seatStats.forEach((s, seat) => {
      const c = out[seat]!;
      c.moves = s.moves;
      c.seconds = s.totalMs / 1000;
      c.timeouts = s.errors.timeout ?? 0;
      c.httpErrors = HTTP_KINDS.reduce((n, k) => n + (s.errors[k] ?? 0), 0);
      c.actionErrors = s.errors.illegal ?? 0;
    });
    return out;
  }
  for (const m of replay.moves) {
    const c = out[m.seat]!;
    c.moves++;
    c.seconds += m.latencyMs / 1000;
    const name = (m.action as { action?: unknown } | null)?.action;
    if (typeof name === 'string') c.actions[name] = (c.actions[name] ?? 0) + 1;
    if (m.standIn) c.httpErrors++;
    const kind = m.error?.kind;
    if (kind === 'timeout') c.timeouts++;
    if (kind && HTTP_KINDS.includes(kind)) c.httpErrors++;
    if (kind === 'illegal') c.actionErrors++;
  }
  return out;
}

export interface HoldemReportOptions {
  tournamentId: string;
  /** Round tables in CATArena round order (holdemRoundTables). */
  tables: MatchResult[];
  /** Replays by serverGameId, or `counts`: each table's per-seat counts, in `tables` order. */
  replays?: Map<string, Replay>;
  counts?: SeatCounts[][];
  nameOf(id: string): string;
  /** Participant order; ids not listed follow in order of appearance. Ids without tables are left out. */
  order: string[];
  /** History file path per round k (1-based), as round_history_files shows it. */
  historyPath(k: number): string;
}

export function buildHoldemReport(opts: HoldemReportOptions): HoldemTournamentReport {
  const seated = new Set(opts.tables.flatMap((t) => t.spec.seats));
  const ids = [...new Set([...opts.order, ...opts.tables.flatMap((t) => t.spec.seats)])].filter((id) => seated.has(id));

  const overall_stats: HoldemTournamentReport['overall_stats'] = {};
  const ai_technical_statistics: HoldemTournamentReport['ai_technical_statistics'] = {};
  for (const id of ids) {
    const ai_name = opts.nameOf(id);
    overall_stats[id] = {
      ai_name,
      wins: 0,
      chips: 0,
      total_actions: 0,
      total_thinking_time: 0,
      timeouts: 0,
      action_errors: 0,
      avg_thinking_time: 0,
    };
    ai_technical_statistics[id] = { ai_name, rounds: {} };
  }

  const round_history_files: Record<string, string> = {};
  opts.tables.forEach((table, index) => {
    const k = String(index + 1);
    round_history_files[k] = opts.historyPath(index + 1);
    const counts = opts.counts?.[index] ?? seatCounts(table, opts.replays?.get(table.serverGameId));
    table.spec.seats.forEach((id, seat) => {
      const c = counts[seat]!;
      const o = overall_stats[id]!;
      o.wins += table.scores[seat] ?? 0;
      o.total_actions += c.moves;
      o.total_thinking_time += c.seconds;
      o.timeouts += c.timeouts;
      o.action_errors += c.actionErrors;
      // A strategy seated twice at one table cannot happen (table specs forbid it); merge anyway.
      const r = (ai_technical_statistics[id]!.rounds[k] ??= { actions: {}, http_errors: 0, action_errors: 0 });
      for (const [name, n] of Object.entries(c.actions)) r.actions[name] = (r.actions[name] ?? 0) + n;
      r.http_errors += c.httpErrors;
      r.action_errors += c.actionErrors;
    });
  });
  for (const o of Object.values(overall_stats))
    o.avg_thinking_time = o.total_actions ? o.total_thinking_time / o.total_actions : 0;

  const first = opts.tables[0];
  const table = tableConfig(first?.spec.options);
  const config: HoldemArenaConfig = {
    tournament: {
      max_players: holdem.tables!.maxSeats,
      rounds: opts.tables.length,
      initial_chips: table.startingChips,
      max_hands_per_round: table.handCap,
      hands_per_level: table.blinds[0]!.hands,
      delay_between_hands: 0,
    },
    timeout: first ? first.spec.limits.moveMs / 1000 : 3,
    ais: ids.map((id) => ({ ai_id: id, ai_name: opts.nameOf(id), port: null, description: `strategy ${id}` })),
  };

  return { tournament_id: opts.tournamentId, config, overall_stats, ai_technical_statistics, round_history_files };
}

/**
 * The Hold'em arena's files for one tourney round, in writing order: one history file per round
 * table, the tournament report, and the report again under CATArena's misspelt name. Nothing when
 * no round table was played.
 */
export const writeCatarenaReport: CatarenaWriter = async (ctx) => {
  const tables = holdemRoundTables(ctx.results);
  if (!tables.length) return;
  const tid = holdemTournamentId(tables);
  const historyName = (k: number) => `history_${tid}_round_${k}.json`;
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const counts: SeatCounts[][] = [];
  for (const [i, table] of tables.entries()) {
    const replay = await ctx.replay(table);
    counts.push(seatCounts(table, replay));
    await writeLogFile(ctx, historyName(i + 1), json(replay ? tableHistory(replay) : []));
  }
  const report = buildHoldemReport({
    tournamentId: tid,
    tables,
    counts,
    nameOf: ctx.nameOf,
    order: ctx.order,
    historyPath: (k) => join(basename(ctx.dir), historyName(k)),
  });
  const text = json(report);
  await writeLogFile(ctx, `tournament_report_${tid}.json`, text);
  // CATArena's Hold'em round-2 prompt tells agents to read `tournament_repost_tourney_*.json`
  // (sic, compat §4.7): an agent following it literally finds this copy.
  await writeLogFile(ctx, `tournament_repost_${tid}.json`, text);
};
