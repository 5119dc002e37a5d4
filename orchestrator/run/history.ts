// `catarena history`: each agent's scores across indexed runs, oldest first — the strategy-coding
// mean score S and the learning score L of the leaderboard, per run.
import type { RunIndexEntry } from './run-index.ts';

export interface HistoryRow {
  runId: string;
  finishedAt: string;
  schedule?: string;
  matches: number;
  reused: number;
  scores: Record<string, { meanS: number | null; meanL: number | null }>;
}

export function historyRows(entries: RunIndexEntry[], agent?: string): HistoryRow[] {
  return [...entries]
    .sort((a, b) => a.finishedAt.localeCompare(b.finishedAt))
    .map((e) => ({
      runId: e.runId,
      finishedAt: e.finishedAt,
      schedule: e.schedule,
      matches: e.matches,
      reused: e.reused,
      scores: Object.fromEntries(e.leaderboard.filter((row) => !agent || row.agent === agent).map((row) => [row.agent, { meanS: row.meanS, meanL: row.meanL }])),
    }))
    .filter((row) => !agent || Object.keys(row.scores).length);
}

const num = (v: number | null, signed = false) => (v === null ? '–' : `${signed && v >= 0 ? '+' : ''}${v.toFixed(3)}`);

export function formatHistory(rows: HistoryRow[]): string {
  if (!rows.length) return 'no finished runs are indexed here yet (runs are indexed in <out>/index.jsonl when they finish)';
  const agents = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort();
  const head = ['finished (UTC)', 'run', 'games', 'reused', ...agents.map((a) => `${a} S / L`)];
  const body = rows.map((r) => [
    r.finishedAt.slice(0, 16).replace('T', ' '),
    r.runId,
    String(r.matches),
    String(r.reused),
    ...agents.map((a) => (r.scores[a] ? `${num(r.scores[a].meanS)} / ${num(r.scores[a].meanL, true)}` : '')),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), '', "S: strategy-coding score, L: global learning score, each the mean over the run's tracks (Mean S / Mean L in report.md's leaderboard)."].join('\n');
}
