// CATArena's Gomoku arena report files (compat §2.7) for round n's games: the JSON report, the CSV
// cross-table (also under the name CATArena's round-2 prompt globs for), a text version and the
// history, built by the generic CATArena report (reports/catarena/catarena-report.ts) one game at a
// time.
import type { Replay } from '../../../records/match.ts';
import {
  buildCatarenaReport,
  historyReport,
  pythonTimestamp,
  reportCsv,
  writeLogFile,
  writeReportText,
  type CatarenaGameShapes,
  type CatarenaWriter,
} from '../../../reports/catarena/catarena-report.ts';
import { replayStateWith } from '../../core/replay.ts';
import { gomokuWire, stateBody } from '../wire.ts';

interface GomokuStyle extends CatarenaGameShapes {
  title: string;
  /** File names for one report; `tid` = "tournament_<unix seconds>". */
  files(
    tid: string,
    unixSeconds: number,
  ): { json: string; csv: string; txt: string; history: string; extraCsv: string[] };
}

/** Wall-clock time of each played move: game start plus the latencies up to and including it. */
function moveTimes(replay: Replay): string[] {
  let t = Date.parse(replay.result.startedAt);
  return replay.moves.map((m) => new Date((t += m.latencyMs)).toISOString());
}

const gomokuStyle: GomokuStyle = {
  title: 'Gomoku AI tournament report',
  seatNames: ['black', 'white'],
  history(replay) {
    const times = moveTimes(replay);
    const moves = replay.moves.flatMap((m, k) =>
      m.action === null ? [] : [{ player: m.seat === 0 ? 'black' : 'white', position: m.action, timestamp: times[k]! }],
    );
    return { moves };
  },
  finalState: (replay) => stateBody(replayStateWith(gomokuWire, replay)),
  files: (tid, unixSeconds) => ({
    json: `tournament_report_${tid}.json`,
    csv: `tournament_report_${tid}.csv`,
    txt: `tournament_report_${tid}.txt`,
    history: `tournament_report_history_${tid}.json`,
    // CATArena's round-2 prompt globs <log_path>/*_arena_report_*.csv, which the shipped gomoku
    // arena's name does not match (compat §6.1): write the name the prompt expects as well.
    extraCsv: [`gomoku_arena_report_${unixSeconds}.csv`],
  }),
};

/** The gomoku arena's files (compat §2.7): players keyed by id, names beside them. */
export const writeCatarenaReport: CatarenaWriter = async (ctx) => {
  const unixSeconds = Math.floor(ctx.now.getTime() / 1000);
  const tid = `tournament_${unixSeconds}`;
  const { report, lines } = await buildCatarenaReport(ctx, {
    tournamentId: tid,
    startTime: pythonTimestamp(ctx.now),
    shapes: gomokuStyle,
  });
  const files = gomokuStyle.files(tid, unixSeconds);
  const json = await ctx.create(files.json);
  await json.writeJson(report, [report.results]);
  await json.close();
  const txt = await ctx.create(files.txt);
  await writeReportText(txt, report, lines, gomokuStyle.title, ctx.extra);
  await txt.close();
  const csv = reportCsv(report);
  await writeLogFile(ctx, files.csv, csv);
  for (const name of files.extraCsv) await writeLogFile(ctx, name, csv);
  const history = historyReport(report);
  const file = await ctx.create(files.history);
  await file.writeJson(history, [history.detailed_results]);
  await file.close();
};
