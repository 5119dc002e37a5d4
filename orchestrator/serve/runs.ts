// What `catarena serve` knows of the runs folder, read from the run directories and never written:
// which runs there are, whether each is running, finished, interrupted or killed (status.json and
// its process), what it plays (config.json or arena.json), how far it is (the journal, the last
// progress line of live.jsonl), and for a tourney which agents are developing which strategy.
import { checkRunFormat } from '../run/run-format.ts';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { progressText, type LiveRecord } from '../run/run-dir.ts';
import { runHumans } from './spectator.ts';
import { tailInside } from './safe-file.ts';
import { verifyJournalFile } from '../run/journal-chain.ts';
import type { JournalIntegrity } from '../../records/journal-integrity.ts';

export { runState, type RunState } from '../run/run-state.ts';
import { runState, type RunState } from '../run/run-state.ts';
import { isRoundDirName, roundOfDirName, RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

export interface RunSummary {
  name: string;
  kind: string;
  state: RunState;
  startedAt?: string;
  updatedAt?: string;
  message?: string;
  /** Games in the journal. */
  games: number;
  /** What the journal's chain says: verified, unverified (an old run) or where it was tampered with. */
  journal?: JournalIntegrity;
  /** The last progress line (phase or tick) of live.jsonl. */
  progress?: string;
  /** One line of what it plays. */
  about: string;
  config?: unknown;
  /** Strategy ids a person plays in the run (the human seat). */
  humans?: string[];
  links: Record<string, string>;
}

/** The run directories under `out`, newest first. */
export async function listRuns(out: string): Promise<RunSummary[]> {
  const entries = await fsp.readdir(out, { withFileTypes: true }).catch(() => []);
  const runs: RunSummary[] = [];
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const dir = path.join(out, e.name);
    if (
      ![RUN_FILES.config, RUN_FILES.journal, RUN_FILES.status, RUN_FILES.arena].some((f) =>
        fs.existsSync(path.join(dir, f)),
      )
    )
      continue;
    runs.push(await runSummary(dir));
  }
  return runs.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? '') || b.name.localeCompare(a.name));
}

/**
 * The run's pages and files a page may link to, only those that exist now: its live page, its
 * report (a tourney writes report.html as it finishes; `play` and `arena` write none, so none is
 * linked), an arena's cross-table, and the replays of its finished games (served by `serve` from
 * replays/, for every kind of run: /run/<name>/replay?id=<id>).
 */
export function runLinks(dir: string): Record<string, string> {
  const base = `/run/${encodeURIComponent(path.basename(dir))}/`;
  const links: Record<string, string> = { live: base };
  const has = (f: string) => fs.existsSync(path.join(dir, f));
  if (has(RUN_FILES.reportHtml)) links.report = `${base}files/${RUN_FILES.reportHtml}`;
  if (has(RUN_FILES.crosstableTxt)) links.crosstable = `${base}files/${RUN_FILES.crosstableTxt}`;
  if (has(RUN_FILES.journal)) links.journal = `${base}files/${RUN_FILES.journal}`;
  if (has(RUN_DIRS.replays)) links.replays = `${base}replay`;
  return links;
}

export async function runSummary(dir: string): Promise<RunSummary> {
  const name = path.basename(dir);
  const { state, status } = runState(dir);
  const config = await readJson(path.join(dir, RUN_FILES.config));
  const arena = config
    ? undefined
    : ((await readJson(path.join(dir, RUN_FILES.arena))) as
        | { game?: string; variant?: string; bots?: Array<{ id: string }>; games?: number }
        | undefined);
  const c = config as { games?: string[]; rounds?: number; agents?: string[] } | undefined;
  const about = c
    ? `tourney: ${(c.games ?? []).join(', ')} · ${c.rounds} rounds · agents ${(c.agents ?? []).join(', ')}`
    : arena
      ? `${arena.game}/${arena.variant}: ${(arena.bots ?? []).map((b) => b.id).join(' vs ')} · ${arena.games} games`
      : 'run';
  const humans = runHumans(dir) ?? [];
  // The seed deals every card: a run a person is playing does not show it.
  const shown = (humans.length && state === 'running' ? withoutSeed(config ?? arena) : (config ?? arena)) as unknown;
  const links = runLinks(dir);
  return {
    name,
    kind: status?.kind ?? (config ? 'tourney' : arena ? 'arena' : 'run'),
    state,
    startedAt: status?.startedAt ?? (await fsp.stat(dir)).birthtime.toISOString(),
    updatedAt: status?.updatedAt,
    // A run from a newer catarena may mean something else by its files: say so on the run's row.
    message:
      (await checkRunFormat(dir).then(
        () => undefined,
        (err: Error) => err.message,
      )) ?? status?.message,
    games: countLines(path.join(dir, RUN_FILES.journal)),
    journal: await journalCheck(path.join(dir, RUN_FILES.journal)),
    progress: lastProgress(dir),
    about,
    config: shown,
    ...(humans.length ? { humans } : {}),
    links,
  };
}

export interface AgentRow {
  track: string;
  round: number;
  agent: string;
  state: 'developing' | 'ready' | 'failed';
  /** The strategy record's cost (tokens, dollars, wall time), once it is written. */
  cost?: unknown;
  failure?: string;
  /** The tail of its build log, or while it develops of its newest output file. */
  logTail: string;
}

const finishedRows = new Map<string, AgentRow>();

/** Rounds whose every agent has its strategy record: their rows never change. */
const finishedRounds = new Map<string, AgentRow[]>();

/**
 * Per track and round, each agent's strategy: developing (a workspace, no record yet), ready or
 * failed. `agentCount` is how many agents a round has (config.json): a round with that many records
 * is not looked at again.
 */
export async function agentRows(dir: string, agentCount?: number): Promise<AgentRow[]> {
  const rows: AgentRow[] = [];
  const tracksDir = path.join(dir, RUN_DIRS.tracks);
  for (const track of await fsp.readdir(tracksDir).catch(() => [] as string[])) {
    for (const round of (await fsp.readdir(path.join(tracksDir, track)).catch(() => [] as string[])).filter(
      isRoundDirName,
    )) {
      const roundDir = path.join(tracksDir, track, round);
      const done = finishedRounds.get(roundDir);
      if (done) {
        rows.push(...done);
        continue;
      }
      const before = rows.length;
      const agents = new Set<string>([
        ...(await fsp.readdir(path.join(roundDir, RUN_DIRS.workspaces)).catch(() => [] as string[])),
      ]);
      const strategies = await fsp.readdir(path.join(roundDir, RUN_DIRS.strategies)).catch(() => [] as string[]);
      for (const f of strategies) if (f.endsWith('.strategy.json')) agents.add(f.replace(/\.strategy\.json$/, ''));
      for (const agent of agents) {
        const base = path.join(roundDir, RUN_DIRS.strategies, agent);
        const known = finishedRows.get(base);
        if (known) {
          rows.push(known);
          continue;
        }
        const record = (await readJson(`${base}.strategy.json`)) as { cost?: unknown; failure?: string } | undefined;
        const n = roundOfDirName(round)!;
        if (record) {
          const row: AgentRow = {
            track,
            round: n,
            agent,
            state: record.failure ? 'failed' : 'ready',
            cost: record.cost,
            ...(record.failure ? { failure: record.failure } : {}),
            logTail: tailInside(dir, `${base}.build.log`),
          };
          finishedRows.set(base, row); // a strategy record is written once: never read again
          rows.push(row);
        } else
          rows.push({
            track,
            round: n,
            agent,
            state: 'developing',
            logTail: tailInside(dir, newestFile(path.join(roundDir, RUN_DIRS.workspaces, agent))),
          });
      }
      const mine = rows.slice(before);
      if (agentCount && mine.length >= agentCount && mine.every((r) => r.state !== 'developing'))
        finishedRounds.set(roundDir, mine);
    }
  }
  return rows.sort((a, b) => a.track.localeCompare(b.track) || a.round - b.round || a.agent.localeCompare(b.agent));
}

function withoutSeed(config: unknown): unknown {
  if (!config || typeof config !== 'object') return config;
  const { seed: _seed, ...rest } = config as Record<string, unknown>;
  return rest;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** How often a journal that keeps changing (a running run's) is verified again from its start. */
const RECHECK_MS = 10_000;
const journalChecks = new Map<string, { size: number; mtimeMs: number; at: number; integrity: JournalIntegrity }>();

/**
 * A journal's chain, verified from its start when the file changed (size or time), at most every
 * RECHECK_MS while it keeps changing: a finished run's journal is read once, and a line rewritten in
 * place (a result flipped, same size) shows within seconds. Undefined without a journal.
 */
export async function journalCheck(file: string): Promise<JournalIntegrity | undefined> {
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat) return undefined;
  const known = journalChecks.get(file);
  const same = known && known.size === stat.size && known.mtimeMs === stat.mtimeMs;
  if (known && (same || Date.now() - known.at < RECHECK_MS)) return known.integrity;
  const integrity = await verifyJournalFile(file);
  if (!integrity) return undefined;
  journalChecks.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, at: Date.now(), integrity });
  return integrity;
}

const lineCounts = new Map<string, { size: number; lines: number }>();
/** Lines of a file that only grows, counted from where the last count stopped. */
function countLines(file: string): number {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return 0;
  }
  const known = lineCounts.get(file);
  const from = known && known.size <= size ? known.size : 0;
  let lines = known && from ? known.lines : 0;
  if (size > from) {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(size - from);
      fs.readSync(fd, buf, 0, buf.length, from);
      for (const b of buf) if (b === 10) lines++;
    } finally {
      fs.closeSync(fd);
    }
  }
  lineCounts.set(file, { size, lines });
  return lines;
}

/** The last phase or tick line of a run's live.jsonl, as text. */
function lastProgress(dir: string): string | undefined {
  const text = tailInside(dir, path.join(dir, RUN_FILES.live), 16_384);
  const lines = text.split('\n').reverse();
  for (const line of lines) {
    if (!line.includes('"type":"phase"') && !line.includes('"type":"tick"')) continue;
    try {
      return progressText(JSON.parse(line) as Extract<LiveRecord, { type: 'phase' | 'tick' }>);
    } catch {
      // a torn or foreign line: look further back
    }
  }
  return undefined;
}

/** The newest file at the top of a folder; links are not files here (an agent may point one anywhere). */
function newestFile(dir: string): string | null {
  try {
    let best: { file: string; mtime: number } | null = null;
    for (const f of fs.readdirSync(dir)) {
      const file = path.join(dir, f);
      const st = fs.lstatSync(file);
      if (st.isFile() && (!best || st.mtimeMs > best.mtime)) best = { file, mtime: st.mtimeMs };
    }
    return best?.file ?? null;
  } catch {
    return null;
  }
}
