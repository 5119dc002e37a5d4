// CATArena's chess arena report (compat §3.5, §3.7) built from our match results: the JSON report,
// its text and CSV forms and the history JSON, with the names, keys and number formats of the
// shipped chess arena (chess_Arena/arena.py generate_report / save_*). Unlike the gomoku arena,
// the chess arena identifies players by name everywhere (participants, ai_stats, matrix, results).
import type { ChessState } from '../rules.ts';
import { chessWire, stateBody } from '../wire.ts';
import type { MatchResult, Replay } from '../../../records/match.ts';
import { replayStateWith } from '../../core/replay.ts';
import { csv } from '../../../reports/tables/crosstable.ts';
import type { CatarenaWriter, WriterContext } from '../../../reports/catarena/catarena-report.ts';
import { JsonArraySpool, type LogFile, type Spool } from '../../../reports/catarena/log-files.ts';

const COLOURS = ['white', 'black'] as const;

export interface ChessAiStats {
  wins: number;
  draws: number;
  losses: number;
  total_games: number;
  /** Sum over this AI's games of its average thinking time per move in that game (seconds). */
  total_time: number;
  /** Sum over this AI's games of the plies of BOTH players. */
  total_moves: number;
  /** total_time / total_games. */
  avg_time: number;
  /** (wins + 0.5·draws) / total_games. */
  avg_score: number;
}

export interface ChessGameEntry {
  game_id: string;
  player_white: string;
  player_black: string;
  winner: string | null;
  end_reason: string;
  /** Seconds. */
  game_duration: number;
  /** Plies played. */
  moves_count: number;
  black_avg_time: number;
  white_avg_time: number;
  /** GET /games/{id}/history body: {moves: [{player, move(, obstacle)}]}. */
  game_history: unknown;
  /** GET /games/{id}/state body of the final position. */
  final_state: unknown;
}

export interface ChessArenaReport {
  tournament_id: string;
  timestamp: string;
  participants: string[];
  total_games: number;
  /** Average game duration, seconds. */
  avg_time: number;
  ai_stats: Record<string, ChessAiStats>;
  matrix: Record<string, Record<string, { wins: number; draws: number; losses: number }>>;
  results: ChessGameEntry[];
}

/** The rules' draw reasons as the server's game_status (= the arena's end_reason). */
const DRAW_STATUS: Record<string, string> = {
  stalemate: 'draw_stalemate',
  insufficient_material: 'draw_insufficient_material',
  fivefold_repetition: 'draw_fivefold_repetition',
  seventyfive_moves: 'draw_seventyfive_moves',
  threefold_repetition: 'draw_threefold_repetition',
  fifty_moves: 'draw_fifty_moves',
  max_moves: 'max_moves',
};

/**
 * CATArena's chess end_reason for our termination (compat §3.1, §3.5):
 * - rules: `win`, or the draw's game_status (`draw_stalemate`, …, `max_moves`);
 * - timeout → `timeout`; http_error → `http_error`; a bot that cannot be reached (crash, failed
 *   join) → `connection_error` (CATArena itself prints `http_error` there, since requests' error
 *   text contains "HTTPConnectionPool"; ours says what happened, in the arena's vocabulary);
 * - malformed: a JSON answer without "move" (or with move null) is the arena's `invalid_move`
 *   (its `if not move` branch); any other unusable answer (not JSON, not an object, too large)
 *   raises inside get_ai_move and falls through to `none_move`;
 * - illegal: the arena's POST of the move fails and it records a draw `error`; that is our
 *   `catarena` policy. Under `strict` the illegal move loses, reported as `invalid_move`.
 */
export function chessEndReason(result: MatchResult): string {
  switch (result.termination) {
    case 'normal':
      return result.winner !== null ? 'win' : (DRAW_STATUS[result.reason] ?? `draw_${result.reason}`);
    case 'timeout':
      return 'timeout';
    case 'http_error':
      return 'http_error';
    case 'crash':
    case 'join_failed':
      return 'connection_error';
    case 'malformed':
      return /has no "move"/.test(result.reason) ? 'invalid_move' : 'none_move';
    case 'illegal':
      return result.spec.policy === 'catarena' ? 'error' : 'invalid_move';
  }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** strftime('%Y%m%d_%H%M%S') in local time: the tournament id and report name stamp. */
export function chessStamp(date: Date): string {
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}_${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** Python's datetime.now().isoformat(): local, no zone, microseconds only when non-zero. */
export function pythonIsoformat(date: Date): string {
  const base = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const ms = date.getMilliseconds();
  return ms ? `${base}.${pad(ms, 3)}000` : base;
}

/** Python's f"{x:.{digits}f}": like toFixed, except that an exact tie rounds half to even. */
export function pyFixed(x: number, digits: number): string {
  const fixed = x.toFixed(digits);
  // The exact binary value's decimals past `digits`; a tie is "5" then zeros (a short dyadic value).
  const tail =
    Math.abs(x)
      .toFixed(Math.min(100, digits + 60))
      .split('.')[1]
      ?.slice(digits) ?? '';
  if (!/^50*$/.test(tail) || Number(fixed.at(-1)) % 2 === 0) return fixed;
  // toFixed rounded the tie away from zero onto an odd digit: the even neighbour is one unit lower.
  const sign = fixed.startsWith('-') ? '-' : '';
  const units = (BigInt(fixed.replace(/[-.]/g, '')) - 1n).toString().padStart(digits + 1, '0');
  return digits ? `${sign}${units.slice(0, -digits)}.${units.slice(-digits)}` : `${sign}${units}`;
}

interface SeatTimes {
  moves: number;
  seconds: number;
}

/**
 * Thinking time per seat as the arena averages it: every move the bot returned, the plies played
 * plus an illegal move (the arena times it before its POST fails); a request that gave no move
 * (timeout, HTTP error, malformed answer) adds nothing. Without a replay: the runner's totals.
 */
function seatTimes(result: MatchResult, replay: Replay | undefined): SeatTimes[] {
  if (!replay) return result.seatStats.map((s) => ({ moves: s.moves, seconds: s.totalMs / 1000 }));
  const out = result.spec.seats.map(() => ({ moves: 0, seconds: 0 }));
  for (const m of replay.moves) {
    if (m.action === null && m.error?.kind !== 'illegal') continue;
    out[m.seat]!.moves++;
    out[m.seat]!.seconds += m.latencyMs / 1000;
  }
  return out;
}

/** The server's GET history and GET state bodies after the replay's moves. */
export function chessHistoryAndState(replay: Replay): { history: unknown; state: unknown } {
  const s: ChessState = replayStateWith(chessWire, replay);
  const variant = s.variant === 'variant';
  return {
    history: {
      moves: s.moves.map((m) => ({
        player: COLOURS[m.seat],
        move: m.uci,
        ...(variant ? { obstacle: m.obstacle } : {}),
      })),
    },
    state: stateBody(s),
  };
}

/** The report without its games, which are spooled: `results` stands for them in JSON. */
export type ChessReportHead = Omit<ChessArenaReport, 'results'> & { results: JsonArraySpool };

/**
 * The report of the context's games: every game's entry goes to `results` (spooled, in game
 * order) and its text block to `blocks`, its replay read and dropped in turn. Player names must
 * be distinct (the arena merges equal names); ids without games are left out.
 */
export async function buildChessReport(
  ctx: Pick<WriterContext, 'results' | 'replay' | 'order' | 'nameOf' | 'spool'>,
  opts: { tournamentId: string; timestamp: string },
): Promise<{ report: ChessReportHead; blocks: Spool }> {
  const played = new Set(ctx.results.flatMap((r) => r.spec.seats));
  const ids = [...new Set([...ctx.order, ...ctx.results.flatMap((r) => r.spec.seats)])].filter((id) => played.has(id));
  const participants = ids.map(ctx.nameOf);

  const ai_stats: Record<string, ChessAiStats> = {};
  const matrix: ChessArenaReport['matrix'] = {};
  for (const name of participants) {
    ai_stats[name] = {
      wins: 0,
      draws: 0,
      losses: 0,
      total_games: 0,
      total_time: 0,
      total_moves: 0,
      avg_time: 0,
      avg_score: 0,
    };
    matrix[name] = Object.fromEntries(participants.map((other) => [other, { wins: 0, draws: 0, losses: 0 }]));
  }

  const results = new JsonArraySpool(ctx.spool(), 1);
  const blocks = ctx.spool();
  let durations = 0;
  for (const result of ctx.results) {
    const replay = await ctx.replay(result);
    const [white, black] = result.spec.seats.map(ctx.nameOf) as [string, string];
    const times = seatTimes(result, replay).map((t) => (t.moves ? t.seconds / t.moves : 0));
    const movesCount = replay ? replay.moves.filter((m) => m.action !== null).length : result.plies;
    const winner = result.winner === null ? null : result.winner === 0 ? white : black;

    [white, black].forEach((name, seat) => {
      const s = ai_stats[name]!;
      s.total_games++;
      s.total_moves += movesCount;
      s.total_time += times[seat]!;
    });
    if (winner !== null) {
      const loser = winner === white ? black : white;
      ai_stats[winner]!.wins++;
      ai_stats[loser]!.losses++;
      matrix[winner]![loser]!.wins++;
      matrix[loser]![winner]!.losses++;
    } else {
      ai_stats[white]!.draws++;
      ai_stats[black]!.draws++;
      matrix[white]![black]!.draws++;
      matrix[black]![white]!.draws++;
    }

    const shown = replay ? chessHistoryAndState(replay) : { history: null, state: null };
    const entry: ChessGameEntry = {
      game_id: result.serverGameId,
      player_white: white,
      player_black: black,
      winner,
      end_reason: chessEndReason(result),
      game_duration: result.durationMs / 1000,
      moves_count: movesCount,
      black_avg_time: times[1]!,
      white_avg_time: times[0]!,
      game_history: shown.history,
      final_state: shown.state,
    };
    durations += entry.game_duration;
    await results.push(entry);
    await blocks.write(`\n${gameBlock(entry, results.count).join('\n')}`);
  }

  for (const s of Object.values(ai_stats)) {
    s.avg_time = s.total_games ? s.total_time / s.total_games : 0;
    s.avg_score = s.total_games ? (s.wins + 0.5 * s.draws) / s.total_games : 0;
  }
  const total = results.count;
  const report = {
    tournament_id: opts.tournamentId,
    timestamp: opts.timestamp,
    participants,
    total_games: total,
    avg_time: total ? durations / total : 0,
    ai_stats,
    matrix,
    results,
  };
  return { report, blocks };
}

const dashes = (r: { wins: number; draws: number; losses: number }) => `${r.wins}-${r.draws}-${r.losses}`;

/** save_csv_report: W-D-L cells, `--` on the diagonal; Python's csv module, so CRLF line ends. */
export function chessCsv(report: Omit<ChessArenaReport, 'results'>): string {
  const lines = [['胜负矩阵', ...report.participants, '总胜平负', '平均得分', '平均思考时间(秒)']];
  for (const name of report.participants) {
    const s = report.ai_stats[name]!;
    const cells = report.participants.map((o) => (o === name ? '--' : dashes(report.matrix[name]![o]!)));
    lines.push([name, ...cells, dashes(s), pyFixed(s.avg_score, 3), pyFixed(s.avg_time, 3)]);
  }
  return `${lines.map((l) => l.map(csv).join(',')).join('\r\n')}\r\n`;
}

/** save_detailed_report: tournament_report_history_<tournament_id>.json. */
export function chessHistoryReport(report: ChessReportHead) {
  return {
    tournament_id: report.tournament_id,
    timestamp: report.timestamp,
    participants: report.participants,
    total_games: report.total_games,
    avg_time: report.avg_time,
    detailed_results: report.results,
  };
}

/** save_text_report, in English: header, per-AI stats, W-D-L matrix, then one block per game (`blocks`). */
export async function writeChessText(
  file: LogFile,
  report: ChessReportHead,
  blocks: Spool,
  extra: string[] = [],
): Promise<void> {
  const rule = '-'.repeat(30);
  const out = ['Chess AI tournament report', '='.repeat(50)];
  out.push(
    `Tournament ID: ${report.tournament_id}`,
    `Time: ${report.timestamp}`,
    `Participants: ${report.participants.join(', ')}`,
  );
  out.push(
    `Total games: ${report.total_games}`,
    `Average game duration: ${pyFixed(report.avg_time, 2)} s`,
    ...extra,
    '',
  );
  out.push('AI statistics:', rule);
  for (const [name, s] of Object.entries(report.ai_stats)) {
    out.push(
      `${name}:`,
      `  Wins: ${s.wins}`,
      `  Draws: ${s.draws}`,
      `  Losses: ${s.losses}`,
      `  Total games: ${s.total_games}`,
    );
    out.push(`  Average thinking time: ${pyFixed(s.avg_time, 3)} s`, `  Average score: ${pyFixed(s.avg_score, 3)}`, '');
  }
  const width = Math.max(15, ...report.participants.map((p) => p.length + 2));
  out.push("Win-draw-loss matrix (row's record against the column):", rule);
  out.push(`${''.padStart(width)}${report.participants.map((p) => p.padStart(width)).join('')}`);
  for (const name of report.participants) {
    const cells = report.participants.map((o) =>
      (o === name ? '--' : dashes(report.matrix[name]![o]!)).padStart(width),
    );
    out.push(`${name.padStart(width)}${cells.join('')}`);
  }
  out.push('', 'Games:', rule);
  await file.write(out.join('\n'));
  await file.copy(blocks);
}

/** A game's lines of the text report (k: 1-based), the last one empty. */
function gameBlock(g: ChessGameEntry, k: number): string[] {
  return [
    `Game ${k}: ${g.player_white} (white) vs ${g.player_black} (black) [${g.game_id}]`,
    `  Winner: ${g.winner ?? 'draw'}`,
    `  End reason: ${g.end_reason}`,
    `  Duration: ${pyFixed(g.game_duration, 2)} s`,
    `  Moves: ${g.moves_count}`,
    '',
  ];
}

/**
 * The four files of one chess arena run, in writing order: chess_arena_report_<ts>.{json,txt,csv}
 * (the CSV matches the round-2 prompt's *_arena_report_*.csv glob) and
 * tournament_report_history_chess_tournament_<ts>.json. The arena stamps the id at start and the
 * report name at save time; both are `now` here.
 */
export const writeCatarenaReport: CatarenaWriter = async (ctx) => {
  const stamp = chessStamp(ctx.now);
  const tournamentId = `chess_tournament_${stamp}`;
  const { report, blocks } = await buildChessReport(ctx, { tournamentId, timestamp: pythonIsoformat(ctx.now) });
  const base = `chess_arena_report_${stamp}`;
  const json = await ctx.create(`${base}.json`);
  await json.writeJson(report, [report.results]);
  await json.close();
  const txt = await ctx.create(`${base}.txt`);
  await writeChessText(txt, report, blocks, ctx.extra);
  await txt.close();
  const csv = await ctx.create(`${base}.csv`);
  await csv.write(chessCsv(report));
  await csv.close();
  const history = chessHistoryReport(report);
  const file = await ctx.create(`tournament_report_history_${tournamentId}.json`);
  await file.writeJson(history, [history.detailed_results]);
  await file.close();
};
