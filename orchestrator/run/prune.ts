// `catarena prune`: makes finished run directories small. Keeps the journal, W, metrics, reports,
// replays, strategies and everything `resume`, `report`, `--reuse` and `probe` read; drops what is
// no longer needed or can be rebuilt (live.jsonl's game lines, the per-game replay pages of older
// runs, which `catarena report` replaces by the shared page), gzips replays a run wrote before
// replays were compressed, and keeps one copy of each workspace and round-log file, the larger log files compressed
// (file-store.ts; a run written before gets the store's current layout).
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { pathExists, writeFileAtomic } from '../../util/fs.ts';
import { REPLAY_EXT, replayFile } from '../../records/replay-files.ts';
import { COMPRESS_MIN } from './file-store.ts';
import { REPLAY_PAGE, VIEW_INDEX } from '../../reports/html/replay-page.ts';
import { compactLiveFile, RunDir, type RunStatus } from './run-dir.ts';
import { RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

const gzip = promisify(zlib.gzip);

export interface PruneStep {
  what: string;
  files: number;
  bytes: number;
}

export interface PruneResult {
  runDir: string;
  dryRun: boolean;
  steps: PruneStep[];
  /** Bytes freed (or, with dryRun, that would be). */
  freed: number;
}

/**
 * Viewer files of a replays folder that prune drops: the page and data per game of runs written
 * before the shared page (`catarena report` writes the shared page instead). The shared page, its
 * script and the per-track bundles are kept: a few MB, and the report's replay links need them.
 */
const isOldViewerFile = (name: string, shared: boolean) =>
  name.endsWith('.view.js') ||
  (name.endsWith('.html') && name !== REPLAY_PAGE) ||
  (!shared && (name === RUN_FILES.viewer || name === REPLAY_PAGE));

/** Prunes one run directory (each repeat of a --repeats run too). */
export async function pruneRun(dir: string, options: { dryRun?: boolean } = {}): Promise<PruneResult> {
  const run = new RunDir(dir);
  const dryRun = options.dryRun ?? false;
  await checkPrunable(run);
  const steps: PruneStep[] = [];
  const repeats = await fs.readdir(path.join(run.root, RUN_DIRS.repeats)).catch(() => [] as string[]);
  for (const r of repeats) {
    const sub = await pruneRun(path.join(run.root, RUN_DIRS.repeats, r), options);
    for (const step of sub.steps) steps.push({ ...step, what: `repeat ${r}: ${step.what}` });
  }
  if (await pathExists(run.liveFile)) {
    steps.push({
      what: "live.jsonl's game lines (the journal has the games)",
      files: 0,
      bytes: await compactLiveFile(run.liveFile, { dryRun }),
    });
  }
  steps.push(await dropViewerData(run.replaysDir, dryRun), await gzipOldReplays(run.replaysDir, dryRun));
  const linked = await run.linkFinishedFiles({ dryRun });
  steps.push(
    {
      what: 'workspace and round-log files stored once (store/, hard links)',
      files: linked.linked,
      bytes: linked.bytesFreed,
    },
    {
      what: `log files of ${COMPRESS_MIN / 1024} KiB or more stored gzip-compressed (<name>.gz)`,
      files: linked.compressed,
      bytes: linked.compressedFreed,
    },
    { what: 'store files nothing links to', files: 0, bytes: linked.unlinkedFreed },
  );
  const kept = steps.filter((s) => s.bytes > 0 || s.files > 0);
  return { runDir: run.root, dryRun, steps: kept, freed: kept.reduce((sum, s) => sum + s.bytes, 0) };
}

/** A run that is still going, or never finished, is not pruned: a resume would write into linked files. */
async function checkPrunable(run: RunDir): Promise<void> {
  if (!(await pathExists(run.configFile)))
    throw new Error(
      `${run.root} is not a tournament run directory (no config.json); prune takes the folders "catarena tourney" wrote`,
    );
  const status = await fs
    .readFile(run.statusFile, 'utf8')
    .then((t) => JSON.parse(t) as RunStatus)
    .catch(() => null);
  if (status?.state === 'running')
    throw new Error(`${run.root} is running (status.json, pid ${status.pid}); prune it once it has finished`);
  const finished = (await run.hasSummary()) || (await pathExists(run.combinedFile));
  if (!finished)
    throw new Error(
      `${run.root} has not finished (no metrics.json): resume it first (catarena resume ${run.root}), then prune`,
    );
}

async function dropViewerData(replaysDir: string, dryRun: boolean): Promise<PruneStep> {
  const step: PruneStep = {
    what: 'replay pages per game (catarena report writes the shared replay page)',
    files: 0,
    bytes: 0,
  };
  const names = await fs.readdir(replaysDir).catch(() => [] as string[]);
  const shared = names.includes(VIEW_INDEX);
  for (const name of names) {
    if (!isOldViewerFile(name, shared)) continue;
    const file = path.join(replaysDir, name);
    step.files++;
    step.bytes += (await fs.stat(file)).size;
    if (!dryRun) await fs.rm(file);
  }
  return step;
}

/** replays/<id>.json of a run written before replays were compressed → <id>.json.gz. */
async function gzipOldReplays(replaysDir: string, dryRun: boolean): Promise<PruneStep> {
  const step: PruneStep = { what: 'replays compressed (<id>.json → <id>.json.gz)', files: 0, bytes: 0 };
  for (const name of await fs.readdir(replaysDir).catch(() => [] as string[])) {
    if (!name.endsWith('.json') || name.endsWith(REPLAY_EXT)) continue;
    const file = path.join(replaysDir, name);
    const text = await fs.readFile(file);
    const packed = await gzip(text);
    step.files++;
    step.bytes += text.length - packed.length;
    if (dryRun) continue;
    const target = replayFile(replaysDir, name.slice(0, -'.json'.length));
    await writeFileAtomic(target, packed);
    await fs.rm(file);
  }
  return step;
}
