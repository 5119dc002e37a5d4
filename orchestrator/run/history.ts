// `catarena history`: each agent's scores across indexed runs, oldest first — the strategy-coding
// mean score S and the learning score L of the leaderboard, per run.
// Runs played under different rules of a game (games/core/descriptor.ts `rulesVersion`, chess's
// `adjudication`) are flagged: their scores for that game do not compare game by game.
import { rulesChanges, rulesOfEntry, type RunIndexEntry } from './run-index.ts';
import { opponentCodeOf, type OpponentCode } from '../../records/opponent-code.ts';
import { checkIndexedRun } from './index-seal.ts';
import { agentIdOf } from '../../agents/core/agent-id.ts';
import { configChanges } from '../../records/run-changes.ts';
import type { HistoryStatus, RunEnd } from '../../records/run-end.ts';

/**
 * The agent id a user named: an id as reports show it ("cautious", "v1"), or the spec it came
 * from ("offline:cautious", "claude-code#v1"). Ids never hold ":" or "#", so those name a spec.
 */
export function agentIdFromName(name: string): string {
  if (!/[:#]/.test(name)) return name;
  try {
    return agentIdOf(name);
  } catch {
    return name;
  }
}

/** A run's opponentCode, and its change from the run before it ("visible → hidden"). */
function opponentCodeOfRun(
  e: RunIndexEntry,
  before: RunIndexEntry | undefined,
): Pick<HistoryRow, 'opponentCode' | 'opponentCodeChanged'> {
  const now = opponentCodeOf(e);
  const was = before ? opponentCodeOf(before) : now;
  return { opponentCode: now, ...(was !== now ? { opponentCodeChanged: `${was} → ${now}` } : {}) };
}

/**
 * The indexed runs whose journal and index entry check out (index-seal.ts), and a line for each
 * that does not: refused, or with `acceptTampered` kept and named. Runs whose journal is not on
 * this machine (another machine's queued runs) are counted as not checked.
 */
export async function checkedRuns(
  entries: RunIndexEntry[],
  acceptTampered = false,
): Promise<{ entries: RunIndexEntry[]; notes: string[] }> {
  const kept: RunIndexEntry[] = [];
  const notes: string[] = [];
  let unverified = 0;
  let unchecked = 0;
  for (const entry of entries) {
    const checked = await checkIndexedRun(entry);
    if (!checked) unchecked++;
    else if (checked.integrity.state === 'unverified') unverified++;
    if (checked?.integrity.state !== 'tampered') {
      kept.push(entry);
      continue;
    }
    const { line, reason } = checked.integrity;
    notes.push(
      `${acceptTampered ? 'shown though tampered' : 'left out'}: ${entry.runId}: ${checked.file}:${line}: ${reason}` +
        (acceptTampered ? '' : ` (catarena report ${entry.runDir} says more; --accept-tampered shows it)`),
    );
    if (acceptTampered) kept.push(entry);
  }
  if (unverified)
    notes.push(
      `${unverified} run(s) unverified: journals written before catarena chained them, or a --repeats study's own line`,
    );
  if (unchecked) notes.push(`${unchecked} run(s) not checked: their run directory is not on this machine`);
  return { entries: kept, notes };
}

export interface HistoryRow {
  /** finished, or how a run or night that did not finish ended (records/run-end.ts). */
  status: HistoryStatus;
  runId: string;
  /** When it finished (or ended otherwise, or was last heard of). */
  finishedAt: string;
  schedule?: string;
  /** A night's firing time, for a night that did not finish. */
  firedAt?: string;
  /** Why it did not finish (one line). */
  reason?: string;
  matches: number;
  reused: number;
  scores: Record<string, { meanS: number | null; meanL: number | null }>;
  /** Per game, the rules it was played under ("v2", "v2 adjudication=engine"). */
  rules: Record<string, string>;
  /** Games this run played under other rules than the run before it in the list ("chess v1 → v2"). */
  rulesChanged: string[];
  /** What its agents saw of rivals (config opponentCode). */
  opponentCode?: OpponentCode;
  /** The run before it in the list had another opponentCode ("visible → hidden"): its learning scores do not compare. */
  opponentCodeChanged?: string;
  /**
   * Its setup changed from the finished run before it of the same schedule (records/run-changes.ts):
   * scores before and after do not compare, and history marks the change.
   */
  configChanged?: string[];
  /** --anchors: each agent's last strategy per track on its anchor pool ("cautious gomoku-standard 132 [80, 190] pool v1"). */
  anchored?: string[];
}

export interface HistoryOptions {
  /** Runs and nights that did not finish (history-sources.ts). */
  ends?: RunEnd[];
  /** Indexed runs whose folder is gone: shown as "folder deleted". */
  deleted?: Set<string>;
  /** Only this schedule's runs and nights. */
  schedule?: string;
}

export function historyRows(entries: RunIndexEntry[], agentName?: string, options: HistoryOptions = {}): HistoryRow[] {
  const agent = agentName && agentIdFromName(agentName);
  const sorted = [...entries]
    .filter((e) => options.schedule === undefined || e.schedule === options.schedule)
    .sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
  const lastOfSeries = new Map<string | undefined, RunIndexEntry>();
  const finished = sorted
    .map((e, i): HistoryRow => {
      const before = lastOfSeries.get(e.schedule);
      lastOfSeries.set(e.schedule, e);
      const changed = before ? configChanges(before, e) : [];
      return {
        status: options.deleted?.has(e.runDir) ? 'folder deleted' : 'finished',
        runId: e.runId,
        finishedAt: e.finishedAt,
        schedule: e.schedule,
        matches: e.matches,
        reused: e.reused,
        scores: Object.fromEntries(
          e.leaderboard
            .filter((row) => !agent || row.agent === agent)
            .map((row) => [row.agent, { meanS: row.meanS, meanL: row.meanL }]),
        ),
        rules: rulesOfEntry(e),
        rulesChanged: i > 0 ? rulesChanges(sorted[i - 1]!, e) : [],
        ...opponentCodeOfRun(e, sorted[i - 1]),
        ...(changed.length ? { configChanged: changed } : {}),
        ...anchoredLines(e, agent),
      };
    })
    .filter((row) => !agent || Object.keys(row.scores).length);
  // A night that did not finish has no scores; it is every agent's night, so --agent keeps it.
  const unfinished = (options.ends ?? [])
    .filter((e) => options.schedule === undefined || e.schedule === options.schedule)
    .map(
      (e): HistoryRow => ({
        status: e.status,
        runId: e.runId,
        finishedAt: e.at,
        ...(e.schedule ? { schedule: e.schedule } : {}),
        ...(e.firedAt ? { firedAt: e.firedAt } : {}),
        ...(e.reason ? { reason: e.reason } : {}),
        matches: 0,
        reused: 0,
        scores: {},
        rules: {},
        rulesChanged: [],
      }),
    );
  return [...finished, ...unfinished].sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
}

/** A run's anchored ratings (--anchors) as words, the agent's only with --agent. */
function anchoredLines(e: RunIndexEntry, agent: string | undefined): Pick<HistoryRow, 'anchored'> {
  const lines = (e.anchored ?? [])
    .filter((a) => !agent || a.agent === agent)
    .map(
      (a) =>
        `${a.agent}@${a.round} ${a.track} ${Math.round(a.elo)} [${Math.round(a.lo)}, ${Math.round(a.hi)}] pool v${a.pool}`,
    );
  return lines.length ? { anchored: lines } : {};
}

const num = (v: number | null, signed = false) => (v === null ? '–' : `${signed && v >= 0 ? '+' : ''}${v.toFixed(3)}`);

export function formatHistory(rows: HistoryRow[]): string {
  if (!rows.length)
    return 'no finished runs are indexed here yet (runs are indexed in <out>/index.jsonl when they finish)';
  const agents = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort();
  const head = ['ended (UTC)', 'status', 'run', 'games', 'reused', ...agents.map((a) => `${a} S / L`)];
  const cells = (r: HistoryRow) => [
    r.finishedAt.slice(0, 16).replace('T', ' '),
    r.status,
    r.runId,
    r.status === 'finished' || r.status === 'folder deleted' ? String(r.matches) : '',
    r.status === 'finished' || r.status === 'folder deleted' ? String(r.reused) : '',
    ...agents.map((a) => (r.scores[a] ? `${num(r.scores[a].meanS)} / ${num(r.scores[a].meanL, true)}` : '')),
  ];
  const body = rows.map(cells);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  // A change of setup is a line of its own between the rows: scores on its two sides do not compare.
  const marked = rows.flatMap((r, i) => [
    ...(r.configChanged
      ? [`── ${r.schedule ? `${r.schedule}: ` : ''}setup changed: ${r.configChanged.join(', ')} ──`]
      : []),
    line(body[i]!) + (r.reason ? `  (${r.reason.slice(0, 200)})` : ''),
    ...(r.anchored ? [`    anchor scale: ${r.anchored.join(' · ')}`] : []),
  ]);
  const changes = rows
    .filter((r) => r.rulesChanged.length)
    .map(
      (r) =>
        `rules changed in ${r.runId}: ${r.rulesChanged.join(', ')} (its scores in ${r.rulesChanged.map((c) => c.split(' ')[0]).join(', ')} do not compare with the runs before it)`,
    );
  const opponentChanges = rows
    .filter((r) => r.opponentCodeChanged)
    .map(
      (r) =>
        `opponents' code changed in ${r.runId}: ${r.opponentCodeChanged} (what agents saw of rivals differs: its learning scores do not compare with the runs before it)`,
    );
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...marked,
    '',
    "S: strategy-coding score, L: global learning score, each the mean over the run's tracks (Mean S / Mean L in report.md's leaderboard).",
    ...(rows.some((r) => r.anchored)
      ? [
          "anchor scale: Elo on the game's anchor pool (--anchors; docs/anchors.md), the same scale in every run of one pool version.",
        ]
      : []),
    ...(rows.some((r) => r.status !== 'finished')
      ? [
          'status: finished, failed (for good, after its retries), killed (its process gone without a word), missed (no worker ran it), interrupted, running, or folder deleted (indexed, its folder gone).',
        ]
      : []),
    ...changes,
    ...opponentChanges,
  ].join('\n');
}
