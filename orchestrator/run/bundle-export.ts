// `catarena export --bundle`: a run directory as one .tar.gz for publishing (docs/bundles.md):
// the journal with its chain proof, replays, strategies as played, round logs, config, format,
// provenance, W and metrics, recordings/ when the run has them, and MANIFEST.sha256 last (every
// other file's SHA-256, in `sha256sum -c` form). Agents' files are untrusted: links are never
// followed (a link is left out and named), nor sockets, fifos or devices read.
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isRoundDirName, RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';
import { TarGzWriter } from '../../util/tar.ts';
import { pathExists } from '../../util/fs.ts';
import { CHAIN_GENESIS, readKey } from './journal-chain.ts';
import { readIndexFile } from './run-index.ts';
import { runState } from './run-state.ts';
import { RunDir } from './run-dir.ts';

/** The manifest's name in a bundle: `<sha256>  <path>` per file, as sha256sum writes it. */
export const MANIFEST = 'MANIFEST.sha256';
/** The journal's chain proof in a bundle: the run's key, disclosed on purpose, and the run index's seal. */
export const CHAIN_PROOF = 'journal-chain.json';

/** journal-chain.json: what anyone needs to re-check the journal's chain without the run directory. */
export interface ChainProof {
  algorithm: 'HMAC-SHA256';
  genesis: string;
  /** journal.key, in hex: the run is over, so the secret that kept bots from forging lines is published. */
  key: string;
  /** The run index entry with its seal (line count, last chain value, MAC), when the run was indexed. */
  indexEntry?: unknown;
}

export interface BundleOptions {
  /** The file to write (default: <run-dir>.bundle.tar.gz beside the run directory). */
  out?: string;
  /** Overwrite an existing file. */
  force?: boolean;
}

export interface BundleExport {
  file: string;
  files: number;
  bytes: number;
  /** Files left out, with why (links, sockets, fifos, unreadable names). */
  skipped: string[];
}

/** The top-level files a bundle carries when the run has them. */
const ROOT_FILES = [
  RUN_FILES.format,
  RUN_FILES.config,
  RUN_FILES.rules,
  RUN_FILES.runId,
  RUN_FILES.journal,
  RUN_FILES.provenance,
  RUN_FILES.metrics,
  RUN_FILES.reportMd,
  RUN_FILES.combined,
  RUN_FILES.arena,
  RUN_FILES.results,
  RUN_FILES.crosstableCsv,
  RUN_FILES.crosstableTxt,
];
/** Per track: W and metrics (the rest of a track folder is rebuilt by `catarena report`). */
const TRACK_FILES = [RUN_FILES.W, RUN_FILES.WCsv, RUN_FILES.metrics, RUN_FILES.autoReps];
/** Per round: the strategies as played and the round logs; never the workspaces (what agents saw, large). */
const ROUND_FOLDERS = [RUN_DIRS.strategies, RUN_DIRS.logs];
const REPLAY = /\.json(\.gz)?$/;

/** A name the manifest can hold on one line (sha256sum escapes these; we leave them out). */
const listable = (rel: string) => !/[\n\r\\]/.test(rel);

/** The bundle's paths (relative, '/') for the run at `root`, prefixed by `prefix`, with what was left out. */
async function selectRun(root: string, prefix: string, picked: string[], skipped: string[]): Promise<void> {
  const rel = (...parts: string[]) => [prefix, ...parts].filter(Boolean).join('/');
  const addIfFile = async (parts: string[]) => {
    const st = await fs.lstat(path.join(root, ...parts)).catch(() => null);
    if (st?.isFile()) picked.push(rel(...parts));
    else if (st) skipped.push(`${rel(...parts)}: not a regular file`);
  };
  for (const f of ROOT_FILES) await addIfFile([f]);
  for (const f of await names(path.join(root, RUN_DIRS.replays)))
    if (REPLAY.test(f)) await addIfFile([RUN_DIRS.replays, f]);
  for (const track of await names(path.join(root, RUN_DIRS.tracks))) {
    for (const f of TRACK_FILES) await addIfFile([RUN_DIRS.tracks, track, f]);
    for (const round of (await names(path.join(root, RUN_DIRS.tracks, track))).filter(isRoundDirName))
      for (const folder of ROUND_FOLDERS)
        await walk(root, [RUN_DIRS.tracks, track, round, folder], rel, picked, skipped);
  }
  await walk(root, [RUN_DIRS.recordings], rel, picked, skipped); // the model exchanges, opaque here
  for (const r of (await names(path.join(root, RUN_DIRS.repeats))).filter((r) => /^\d+$/.test(r)))
    await selectRun(path.join(root, RUN_DIRS.repeats, r), rel(RUN_DIRS.repeats, r), picked, skipped);
}

/** A folder's entry names, sorted; none when it is missing (or is not a folder). */
async function names(dir: string): Promise<string[]> {
  const st = await fs.lstat(dir).catch(() => null);
  if (!st?.isDirectory()) return [];
  return (await fs.readdir(dir)).sort();
}

/** Every regular file under root/parts, by lstat: a link is listed as skipped, never followed. */
async function walk(
  root: string,
  parts: string[],
  rel: (...parts: string[]) => string,
  picked: string[],
  skipped: string[],
): Promise<void> {
  const st = await fs.lstat(path.join(root, ...parts)).catch(() => null);
  if (!st) return;
  if (st.isSymbolicLink()) skipped.push(`${rel(...parts)}: a symbolic link (not followed)`);
  else if (st.isDirectory())
    for (const name of await names(path.join(root, ...parts))) await walk(root, [...parts, name], rel, picked, skipped);
  else if (!st.isFile()) skipped.push(`${rel(...parts)}: a socket, fifo or device`);
  else if (!listable(rel(...parts)))
    skipped.push(`${JSON.stringify(rel(...parts))}: a name with a newline or backslash`);
  else picked.push(rel(...parts));
}

/**
 * Opens a file of the run for reading without following a link (O_NOFOLLOW) or blocking on a
 * fifo (O_NONBLOCK), and checks it is still the regular file that was listed.
 */
async function openRegular(file: string): Promise<{ handle: fs.FileHandle; size: number } | string> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'became a symbolic link (not followed)' : `unreadable (${code})`;
  }
  const st = await handle.stat();
  if (st.isFile()) return { handle, size: st.size };
  await handle.close();
  return 'not a regular file';
}

/** The chain proof: the key (when the journal is chained) and the run's index entry with its seal. */
async function chainProof(run: RunDir): Promise<ChainProof | null> {
  const key = await readKey(run.journalFile);
  if (!key) return null;
  const entry = (await readIndexFile(run.indexFile).catch(() => [])).find((e) => path.resolve(e.runDir) === run.root);
  return {
    algorithm: 'HMAC-SHA256',
    genesis: CHAIN_GENESIS,
    key: key.toString('hex'),
    ...(entry ? { indexEntry: entry } : {}),
  };
}

/** Refuses what should not be published as is: no run there, or a run still playing (its key still guards appends). */
async function checkExportable(run: RunDir): Promise<void> {
  if (!(await pathExists(run.root))) throw new Error(`${run.root} does not exist`);
  const journal = (await pathExists(run.journalFile)) || (await pathExists(path.join(run.root, RUN_DIRS.repeats)));
  if (!journal)
    throw new Error(
      `${run.root} is not a run directory (no journal.jsonl; give the folder "catarena tourney", "play" or "arena" wrote)`,
    );
  if (runState(run.root).state === 'running')
    throw new Error(
      `${run.root} is still running: export it once it has finished (its journal's key still guards the games being added)`,
    );
}

/** Writes the bundle of the run at `runDirArg`. */
export async function exportBundle(runDirArg: string, options: BundleOptions = {}): Promise<BundleExport> {
  const run = new RunDir(runDirArg);
  await checkExportable(run);
  const file = path.resolve(options.out ?? `${run.root.replace(/\/+$/, '')}.bundle.tar.gz`);
  if (file === run.root || file.startsWith(`${run.root}${path.sep}`))
    throw new Error(`${file} is inside the run directory: write the bundle elsewhere (--out <file>)`);
  if (!options.force && (await pathExists(file)))
    throw new Error(`${file} exists: choose another --out, or --force to overwrite it`);
  const picked: string[] = [];
  const skipped: string[] = [];
  await selectRun(run.root, '', picked, skipped);
  const proofs = [
    run,
    ...(await names(path.join(run.root, RUN_DIRS.repeats)))
      .filter((r) => /^\d+$/.test(r))
      .map((r) => new RunDir(path.join(run.root, RUN_DIRS.repeats, r))),
  ];
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Written beside, then moved into place: a failed export leaves no half bundle and keeps the old file.
  const partial = `${file}.partial-${process.pid}`;
  const tar = await TarGzWriter.create(partial);
  const manifest: string[] = [];
  let bytes = 0;
  try {
    for (const rel of picked) {
      const opened = await openRegular(path.join(run.root, ...rel.split('/')));
      if (typeof opened === 'string') {
        skipped.push(`${rel}: ${opened}`);
        continue;
      }
      try {
        manifest.push(`${await tar.addHandle(rel, opened.handle, opened.size)}  ${rel}`);
        bytes += opened.size;
      } finally {
        await opened.handle.close();
      }
    }
    for (const r of proofs) {
      const proof = await chainProof(r);
      if (!proof) continue;
      const rel = [path.relative(run.root, r.root).split(path.sep).join('/'), CHAIN_PROOF].filter(Boolean).join('/');
      manifest.push(`${await tar.addBuffer(rel, Buffer.from(`${JSON.stringify(proof, null, 2)}\n`))}  ${rel}`);
    }
    await tar.addBuffer(MANIFEST, Buffer.from(`${manifest.join('\n')}\n`));
    await tar.close();
    // Without --force, link() refuses a file that appeared meanwhile.
    if (options.force) await fs.rename(partial, file);
    else await fs.link(partial, file);
  } catch (err) {
    tar.abort();
    throw err;
  } finally {
    await fs.rm(partial, { force: true });
  }
  return { file, files: manifest.length + 1, bytes, skipped };
}
