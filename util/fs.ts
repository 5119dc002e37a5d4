// File helpers every layer uses: copy a bot folder, list and hash its files, test a path.
// Copying, listing and hashing a folder make their system calls synchronously: they run on small
// folders (a bot, a workspace, a round's logs), and a promise per call (node:fs/promises) is a hop
// to libuv's thread pool and back that on a 2-core VM cost about eight times the call (45 µs of
// CPU against 5.5 µs for an lstat). The async signatures stay, for callers and for other homes.
import { createHash } from 'node:crypto';
import fsSync, { type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';

/** sha256 over every file's relative path and bytes, in sorted order. */
export async function hashDir(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const files = filesUnder(dir).sort();
  for (const rel of files) {
    hash.update(rel).update('\u0000');
    const fd = openToRead(path.join(dir, rel));
    try {
      hash.update(fsSync.readFileSync(fd)).update('\u0000');
    } finally {
      fsSync.closeSync(fd);
    }
  }
  return hash.digest('hex');
}

/**
 * Opens a file listed in a folder an agent or a bot may write, to read it synchronously: a file
 * swapped for a link since it was listed is not followed (ELOOP), and one swapped for a FIFO is not
 * waited on (it opens at once and reads empty), which would stop the whole process.
 */
export function openToRead(file: string): number {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fsSync.constants;
  return fsSync.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
}

/** A folder's entries, or none when it cannot be read. */
export function dirEntries(dir: string): fsSync.Dirent[] {
  try {
    return fsSync.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * Writes `data` to `<file>.tmp`, then renames it over `file`: a reader (or a run killed mid-write)
 * finds the whole old file or the whole new one, never a part.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  await fs.writeFile(`${file}.tmp`, data, options);
  await fs.rename(`${file}.tmp`, file);
}

/** A text file's contents, or undefined when it does not exist; any other error is thrown. */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Whether a file or folder exists (any error reading it counts as no). */
export async function pathExists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** The regular files under `dir`, as paths relative to it (none when it cannot be read). */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  return filesUnder(dir, prefix);
}

function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of dirEntries(path.join(dir, prefix))) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(dir, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** Files a running bot leaves behind that are not code. */
const SKIP = new Set(['__pycache__', 'nohup.out', 'node_modules', '.git']);

/**
 * Copies a folder an agent or a bot may have written, files and folders only. Symbolic links are
 * dropped, never copied nor followed: `rootdir -> /` would otherwise land in the strategy folder,
 * every rival's next workspace and what `catarena serve` shows. Links that stay inside go too:
 * whether a link stays inside cannot be told from its text (`up -> .` makes `x -> up/../etc`
 * leave the folder), the strategy's hash (hashDir) does not cover links, and an honest bot has
 * no need of one. FIFOs, sockets and devices are dropped as well. Returns what was dropped, as
 * `path -> target` (or `path (a fifo)`), for the strategy's build log.
 */
export async function copyTree(from: string, to: string): Promise<string[]> {
  const dropped: string[] = [];
  const root = fsSync.realpathSync(from);
  const realParent = (src: string) => {
    try {
      return fsSync.realpathSync(path.dirname(src));
    } catch {
      return '';
    }
  };
  const keep = (src: string): boolean => {
    if (SKIP.has(path.basename(src))) return false;
    const st = fsSync.lstatSync(src);
    // A folder swapped for a link while it is copied would be read through it: its entries are not.
    const parent = src === from ? root : realParent(src);
    if (parent !== root && !parent.startsWith(`${root}${path.sep}`)) return false;
    if (st.isFile() || st.isDirectory()) return true;
    dropped.push(describeOther(src, path.relative(from, src) || '.', st));
    return false;
  };
  fsSync.cpSync(from, to, { recursive: true, filter: keep });
  // A file swapped for a link between the filter's look and the copy is copied as a link: sweep.
  for (const [file, st] of otherEntries(to)) {
    dropped.push(describeOther(file, path.relative(to, file), st));
    fsSync.rmSync(file, { force: true });
  }
  return dropped;
}

/** Everything under `dir` (not following links) that is neither a file nor a folder. */
function otherEntries(dir: string): Array<[string, Stats]> {
  const out: Array<[string, Stats]> = [];
  for (const entry of dirEntries(dir)) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...otherEntries(file));
    else if (!entry.isFile()) out.push([file, fsSync.lstatSync(file)]);
  }
  return out;
}

/** `"rel" -> "target"` for a link, `"rel" (a fifo)` for the rest; quoted, as an agent chose the names. */
function describeOther(file: string, rel: string, st: Stats): string {
  const name = JSON.stringify(rel.slice(0, 200));
  if (!st.isSymbolicLink()) return `${name} (${st.isFIFO() ? 'a fifo' : st.isSocket() ? 'a socket' : 'a device'})`;
  let target = '?';
  try {
    target = fsSync.readlinkSync(file);
  } catch {}
  return `${name} -> ${JSON.stringify(target.slice(0, 200))}`;
}

/** What copyTree would copy from a folder: the files' bytes as their sizes say, and the entries. */
export interface TreeSize {
  bytes: number;
  entries: number;
}

/**
 * The size of what copyTree copies from `dir` (the same names skipped, links and special files not
 * counted nor followed), counted until it passes `stopPast`: a folder of a million files is not
 * walked to its end to be refused. Bytes are apparent sizes: a sparse file of 100 GB takes 4 KiB
 * on disk and 100 GB in every copy.
 */
export function treeSize(dir: string, stopPast: TreeSize = { bytes: Infinity, entries: Infinity }): TreeSize {
  const size: TreeSize = { bytes: 0, entries: 0 };
  const walk = (folder: string): boolean => {
    for (const entry of dirEntries(folder)) {
      if (SKIP.has(entry.name) || !(entry.isFile() || entry.isDirectory())) continue;
      const file = path.join(folder, entry.name);
      size.entries++;
      if (entry.isFile()) size.bytes += fsSync.lstatSync(file, { throwIfNoEntry: false })?.size ?? 0;
      if (size.bytes > stopPast.bytes || size.entries > stopPast.entries) return false;
      if (entry.isDirectory() && !walk(file)) return false;
    }
    return true;
  };
  walk(dir);
  return size;
}

/** The build log's line for what copyTree dropped ('' when nothing was). */
export function droppedText(dropped: readonly string[]): string {
  return dropped.length
    ? `dropped ${dropped.length} link(s) or special file(s) the copy does not keep: ${dropped.slice(0, 20).join(', ')}${dropped.length > 20 ? ', …' : ''}`
    : '';
}

/**
 * Each <name>.gz under `dir` back to <name>, uncompressed and writable: a finished run keeps its
 * larger log files compressed in its store (orchestrator/run/file-store.ts), and a workspace built
 * from them gets them as the round wrote them.
 */
export async function expandGzFiles(dir: string): Promise<void> {
  for (const rel of await listFiles(dir)) {
    if (!rel.endsWith('.gz')) continue;
    const file = path.join(dir, rel);
    await fs.writeFile(file.slice(0, -'.gz'.length), zlib.gunzipSync(await fs.readFile(file)), { mode: 0o644 });
    await fs.rm(file, { force: true });
  }
}
