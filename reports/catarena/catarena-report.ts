// CATArena's arena report (compat §2.7) built from our match results: the JSON report, the CSV
// cross-table, the history JSON and a readable text version. Shapes and key order follow the
// shipped gomoku arena (gomoku_Arena/arena.py generate_report / save_*), so agents that learned
// to read those files can read ours. Game-specific parts (seat names, history and state shapes)
// come in through CatarenaGameShapes. The games are read one replay at a time and their entries
// spooled (log-files.ts), so a round's report is never held in memory whole.
import type { MatchResult, Replay } from '../../records/match.ts';
import { crossTable, csv, wdl, type CrossRow, type Record3 } from '../tables/crosstable.ts';
import { JsonArraySpool, type LogFile, type Spool } from './log-files.ts';

/** What a game's CATArena report writer gets: round n's games, the report time and the players' names. */
export interface WriterContext {
  /** Round n's games, in schedule order. */
  results: MatchResult[];
  /**
   * A game's replay, read from the run when asked (undefined: it has none). Writers ask for one
   * at a time and let it go, so a round's replays are never in memory together.
   */
  replay(result: MatchResult): Promise<Replay | undefined>;
  now: Date;
  /** The folder the files are written to. */
  dir: string;
  /** Participant order (round n's strategies first). */
  order: string[];
  /** Display name per strategy id: "<agent> AI (round <n>)". */
  nameOf(id: string): string;
  /** Header lines for text reports (game, variant, round, policy). */
  extra: string[];
  /** Opens a file of the logs (`name` relative to `dir`, subfolders allowed); written paths are listed in closing order. */
  create(name: string): Promise<LogFile>;
  /** A temporary spool, removed when the round's logs are written. */
  spool(): Spool;
}

/** Writes the CATArena arena's report files for one game into the round's logs, in writing order. */
export type CatarenaWriter = (ctx: WriterContext) => Promise<void>;

/** Writes a whole (small) file of the logs. */
export async function writeLogFile(ctx: WriterContext, name: string, text: string): Promise<void> {
  const file = await ctx.create(name);
  await file.write(text);
  await file.close();
}

export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export type EndReason = 'win' | 'draw' | 'timeout' | 'error';

/** What differs per game: seat names (player_<name> keys) and the history / final_state shapes. */
export interface CatarenaGameShapes {
  seatNames: readonly string[];
  /** The server's GET history body for a game, or null (no replay). */
  history(replay: Replay): unknown;
  /** The server's GET state body after the game, or null. */
  finalState(replay: Replay): unknown;
}

export interface AiStats {
  name: string;
  wins: number;
  draws: number;
  losses: number;
  /** Seconds of thinking over the moves played. */
  total_time: number;
  total_moves: number;
  games_played: number;
  /** Games this AI lost with end_reason "timeout". */
  timeouts: number;
  avg_thinking_time: number;
}

export type GameEntry = Record<string, unknown> & {
  game_id: string;
  winner: string | null;
  end_reason: EndReason;
  duration: number;
};

export interface CatarenaReport {
  tournament_id: string;
  start_time: string;
  participants: Array<{ id: string; name: string }>;
  total_games: number;
  ai_stats: Record<string, AiStats>;
  matrix: Record<string, Record<string, string>>;
  results: GameEntry[];
}

/**
 * CATArena's end_reason for our termination. Every bot failure that loses the game is reported as
 * "timeout" (the arena's word for a bot that gave no move); an illegal move is the arena's "error".
 */
export function endReason(result: MatchResult): EndReason {
  switch (result.termination) {
    case 'normal':
      return result.winner === null ? 'draw' : 'win';
    case 'illegal':
      return 'error';
    default:
      return 'timeout';
  }
}

/** Python's datetime.now().strftime('%Y-%m-%d %H:%M:%S'): local time, as the arena writes it. */
export function pythonTimestamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/**
 * Thinking time per seat over the moves actually played, as the arena counts it (a failed request
 * adds neither a move nor time). Without a replay, the runner's per-seat totals are the fallback.
 */
function thinking(result: MatchResult, replay: Replay | undefined): Array<{ moves: number; ms: number }> {
  if (!replay) return result.seatStats.map((s) => ({ moves: s.moves, ms: s.totalMs }));
  const out = result.spec.seats.map(() => ({ moves: 0, ms: 0 }));
  for (const m of replay.moves) {
    if (m.action === null) continue;
    out[m.seat]!.moves++;
    out[m.seat]!.ms += m.latencyMs;
  }
  return out;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export interface BuildOptions {
  tournamentId: string;
  startTime: string;
  shapes: CatarenaGameShapes;
}

/** The report without its games, which are spooled: `results` stands for them in JSON. */
export type CatarenaReportHead = Omit<CatarenaReport, 'results'> & { results: JsonArraySpool };

/**
 * The report of the context's games: every game's entry goes to `results` (spooled, in game
 * order) and its text line to `lines` ("\n" before each), its replay read and dropped in turn.
 */
export async function buildCatarenaReport(
  ctx: Pick<WriterContext, 'results' | 'replay' | 'order' | 'nameOf' | 'spool'>,
  opts: BuildOptions,
): Promise<{ report: CatarenaReportHead; lines: Spool }> {
  const { results } = ctx;
  const { shapes } = opts;
  const rows = crossTable(results, ctx.order).filter((r) => r.games > 0);
  const time = new Map(rows.map((r) => [r.id, { moves: 0, ms: 0, timeouts: 0 }]));
  const entries = new JsonArraySpool(ctx.spool(), 1);
  const lines = ctx.spool();
  for (const result of results) {
    const replay = await ctx.replay(result);
    const seats = result.spec.seats;
    const reason = endReason(result);
    thinking(result, replay).forEach((t, seat) => {
      const acc = time.get(seats[seat]!);
      if (!acc) return;
      acc.moves += t.moves;
      acc.ms += t.ms;
      // The arena charges a "timeout" game to its loser.
      if (reason === 'timeout' && result.winner !== null && result.winner !== seat) acc.timeouts++;
    });
    const players = Object.fromEntries(shapes.seatNames.map((name, seat) => [`player_${name}`, seats[seat] ?? null]));
    const entry: GameEntry = {
      game_id: result.serverGameId,
      ...players,
      winner: result.winner === null ? null : seats[result.winner]!,
      end_reason: reason,
      duration: round(result.durationMs / 1000, 2),
      game_history: replay ? shapes.history(replay) : null,
      final_state: replay ? shapes.finalState(replay) : null,
    };
    await entries.push(entry);
    await lines.write(`\n${gameLine(entry, entries.count)}`);
  }

  const ai_stats: Record<string, AiStats> = {};
  const matrix: Record<string, Record<string, string>> = {};
  for (const r of rows) {
    const t = time.get(r.id)!;
    const totalTime = t.ms / 1000;
    ai_stats[r.id] = {
      name: ctx.nameOf(r.id),
      ...r.total,
      total_time: round(totalTime, 6),
      total_moves: t.moves,
      games_played: r.games,
      timeouts: t.timeouts,
      avg_thinking_time: t.moves ? round(totalTime / t.moves, 6) : 0,
    };
    matrix[r.id] = Object.fromEntries(rows.map((o) => [o.id, vsCell(r, o.id)]));
  }
  const report = {
    tournament_id: opts.tournamentId,
    start_time: opts.startTime,
    participants: rows.map((r) => ({ id: r.id, name: ctx.nameOf(r.id) })),
    total_games: results.length,
    ai_stats,
    matrix,
    results: entries,
  };
  return { report, lines };
}

/** '-' against itself; a pair that did not meet counts 0/0/0, as the arena's matrix does. */
function vsCell(row: CrossRow, other: string): string {
  return other === row.id ? '-' : wdl(row.vs[other] ?? { wins: 0, draws: 0, losses: 0 });
}

const slashes = (r: Record3) => `${r.wins}/${r.draws}/${r.losses}`;

/** The arena's CSV (save_csv_report): Python's csv module, so CRLF line ends. */
export function reportCsv(report: Omit<CatarenaReport, 'results'>): string {
  const ids = report.participants.map((p) => p.id);
  const lines = [['AI vs AI', ...report.participants.map((p) => p.name), '总胜/平/负', '超时次数', '平均思考时间(秒)']];
  for (const p of report.participants) {
    const s = report.ai_stats[p.id]!;
    const cells = ids.map((o) =>
      o === p.id ? '-' : report.matrix[p.id]![o]!.replace(/^(\d+)W\/(\d+)D\/(\d+)L$/, '$1/$2/$3'),
    );
    lines.push([p.name, ...cells, slashes(s), String(s.timeouts), s.avg_thinking_time.toFixed(4)]);
  }
  return `${lines.map((l) => l.map(csv).join(',')).join('\r\n')}\r\n`;
}

/** tournament_report_history_<id>.json: the games without the stats. */
export function historyReport(report: CatarenaReportHead) {
  return {
    tournament_id: report.tournament_id,
    start_time: report.start_time,
    total_games: report.total_games,
    detailed_results: report.results,
  };
}

/** The arena's .txt report, in English: stats table, matrix, then one line per game (`lines`). */
export async function writeReportText(
  file: LogFile,
  report: CatarenaReportHead,
  lines: Spool,
  title: string,
  extra: string[] = [],
): Promise<void> {
  const rule = '-'.repeat(80);
  const out = ['='.repeat(60), title, '='.repeat(60), ''];
  out.push(
    `Tournament ID: ${report.tournament_id}`,
    `Start time: ${report.start_time}`,
    `Total games: ${report.total_games}`,
    ...extra,
    '',
  );
  out.push('Participants:', ...report.participants.map((p) => `  - ${p.name} (ID: ${p.id})`), '');
  const width = Math.max(15, ...report.participants.map((p) => p.name.length + 1));
  out.push('AI statistics:', rule);
  out.push(
    `${'AI name'.padEnd(width)} ${'W'.padEnd(4)} ${'D'.padEnd(4)} ${'L'.padEnd(4)} ${'Games'.padEnd(6)} ${'Timeouts'.padEnd(9)} Avg thinking time (s)`,
  );
  out.push(rule);
  for (const p of report.participants) {
    const s = report.ai_stats[p.id]!;
    const cols = [s.wins, s.draws, s.losses].map((n) => String(n).padEnd(4)).join(' ');
    out.push(
      `${s.name.padEnd(width)} ${cols} ${String(s.games_played).padEnd(6)} ${String(s.timeouts).padEnd(9)} ${s.avg_thinking_time.toFixed(3)}`,
    );
  }
  out.push('', "Win/draw/loss matrix (row's record against the column):", rule);
  const cell = Math.max(12, ...report.participants.map((p) => p.name.length + 1));
  out.push(`${'AI name'.padEnd(width)}${report.participants.map((p) => p.name.padEnd(cell)).join('')}`.trimEnd(), rule);
  for (const p of report.participants) {
    out.push(
      `${p.name.padEnd(width)}${report.participants.map((o) => report.matrix[p.id]![o.id]!.padEnd(cell)).join('')}`.trimEnd(),
    );
  }
  out.push('', 'Games:', rule);
  await file.write(out.join('\n'));
  await file.copy(lines);
  await file.write('\n');
}

/** A game's line of the text report (k: 1-based). */
function gameLine(g: GameEntry, k: number): string {
  const players = Object.entries(g).filter(([key]) => key.startsWith('player_'));
  const vs = players.map(([key, id]) => `${String(id)} (${key.slice('player_'.length)})`).join(' vs ');
  return `${String(k).padStart(2)}. ${g.game_id} - ${vs} - winner: ${g.winner ?? 'draw'} - duration: ${g.duration}s - end reason: ${g.end_reason}`;
}
