// The run directory's content-addressed store (store/<sha256>[x][.gz]): a finished run keeps one
// copy of each distinct file of its workspaces and round logs, hard-linked from where agents and
// users expect it. Every round-n workspace holds a copy of every round n−1 bot and the round n−1
// logs, so most of a run's bytes are the same files many times.
//
// Only folders nothing writes any more are linked: a finished run's workspaces (agents develop
// in copies, built before) and round logs (later workspaces copy them). Strategy folders are not:
// bots run in place (process sandbox) and may write their own files, and a hard link would carry
// such a write into every copy. Store files are read-only, a second guard for non-root writers.
//
// Log files (what `compress` selects) of COMPRESS_MIN bytes or more are stored gzip-compressed:
// store/<sha256 of the content>.gz, linked as <name>.gz where <name> was. CATArena's round logs are
// JSON and text that shrink five- to tenfold, and nothing reads them once the run is over but a
// user (zcat) or a workspace built from them, which gets them back uncompressed (util/fs.ts
// expandGzFiles).
//
// Runs written before kept the store in folders by the key's first two hex digits
// (store/<2 hex>/<key>); migrateStoreLayout moves those entries up (the same inodes, so every link
// stays).
//
// Per file the store makes a handful of system calls on small files, and makes them synchronously:
// a promise each (node:fs/promises) is a hop to libuv's thread pool and back, which on a 2-core VM
// cost about eight times the call itself (45 µs of CPU against 5.5 µs for an lstat; a default
// tourney made some 50,000 of them here). The loop is given back every SLICE_MS, so games other
// tracks have in flight do not wait on a long pass.
import { createHash } from 'node:crypto';
import fsSync, { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { dirEntries, openToRead } from '../../util/fs.ts';

/** The suffix of a compressed log file, at its place and in the store. */
export const GZ_EXT = '.gz';
/** Smaller files gain nothing on disk: a file takes at least one 4 KiB block, compressed or not. */
export const COMPRESS_MIN = 8192;

export interface StoreStats {
  /** Files looked at. */
  files: number;
  /** Files replaced by a link to the store (or that would be, with dryRun). */
  linked: number;
  /** Bytes no longer stored twice. */
  bytesFreed: number;
  /** Log files now stored gzip-compressed (or that would be). */
  compressed: number;
  /** Bytes freed by compressing them (content bytes before minus after). */
  compressedFreed: number;
}

/** Bytes read at a time: files are hashed and compressed in pieces, never held whole. */
const PIECE = 1 << 16;

/** The longest stretch of synchronous store work before the event loop gets its turn. */
const SLICE_MS = 4;

/** A function to await between files: it gives the event loop a turn once SLICE_MS have passed. */
function slicer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < SLICE_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

/** lstat, or null for a path that cannot be read (missing, or a parent that is no folder). */
function lstatOrNull(file: string): fsSync.Stats | null {
  try {
    return fsSync.lstatSync(file);
  } catch {
    return null;
  }
}

/**
 * A store file's name: the content's sha256, plus "x" for an executable file (a link shares its
 * mode). Read through one reused buffer: a round's log files grow with its games, and a whole-file
 * Buffer each would pile up outside the heap (and in malloc's arenas) until a GC.
 */
function keyOf(file: string, executable: boolean, piece: Buffer): string {
  const hash = createHash('sha256');
  for (const bytes of pieces(file, piece)) hash.update(bytes);
  return `${hash.digest('hex')}${executable ? 'x' : ''}`;
}

/**
 * The pieces of `file` in order, each read into `piece` (valid until the next is asked for). Opened
 * with openToRead: agents wrote these folders, and a file swapped for a link or a FIFO since it was
 * listed is neither followed nor waited on, for the hash and the compression alike.
 */
function* pieces(file: string, piece: Buffer): Generator<Buffer> {
  const fd = openToRead(file);
  try {
    for (let n = fsSync.readSync(fd, piece); n > 0; n = fsSync.readSync(fd, piece)) yield piece.subarray(0, n);
  } finally {
    fsSync.closeSync(fd);
  }
}

/**
 * `file` gzip-compressed into `dest` (written as dest.tmp, then renamed, read-only), or with no
 * `dest` only counted; returns the compressed size. Read through the same reused buffer, each piece
 * compressed before the next is read: a stream's own Buffer per piece would be garbage outside the
 * heap, and V8 collects that only after some 64 MB of it.
 */
async function gzipFile(file: string, dest: string | null, piece: Buffer): Promise<number> {
  let bytes = 0;
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  const tmp = `${dest}.tmp`;
  if (dest) await fs.rm(tmp, { force: true });
  const gz = zlib.createGzip();
  const written = pipeline(gz, dest ? createWriteStream(tmp, { mode: 0o444 }) : counter);
  try {
    for (const chunk of pieces(file, piece))
      await new Promise<void>((resolve, reject) => gz.write(chunk, (err) => (err ? reject(err) : resolve())));
    gz.end();
  } catch (err) {
    gz.destroy();
    written.catch(() => {});
    throw err;
  }
  await written;
  if (!dest) return bytes;
  await fs.rename(tmp, dest);
  return (await fs.stat(dest)).size;
}

/**
 * Replaces each regular file under `dirs` by a hard link to its store file (creating it from the
 * first copy found); a file `compress` selects, of COMPRESS_MIN bytes or more, by a link named
 * <name>.gz to its compressed store file. Symlinks are left alone; a file already linked (more
 * than one link) is skipped unless it is still to be compressed, so a second pass is cheap. With
 * `dryRun`, counts what would be freed and changes nothing.
 */
export async function linkIntoStore(
  storeDir: string,
  dirs: readonly string[],
  options: { dryRun?: boolean; compress?: (file: string) => boolean } = {},
): Promise<StoreStats> {
  const stats: StoreStats = { files: 0, linked: 0, bytesFreed: 0, compressed: 0, compressedFreed: 0 };
  const seen = new Set<string>(); // with dryRun: store names a real pass would have made
  const superseded = new Map<string, number>(); // plain store files whose content is now stored compressed
  if (!options.dryRun) await migrateStoreLayout(storeDir);
  const piece = Buffer.allocUnsafe(PIECE);
  const pause = slicer();
  for (const dir of dirs) {
    for (const file of regularFiles(dir)) {
      await pause();
      stats.files++;
      const st = fsSync.lstatSync(file);
      if (!st.isFile()) continue; // swapped for something else since it was listed
      const pack = st.size >= COMPRESS_MIN && !file.endsWith(GZ_EXT) && (options.compress?.(file) ?? false);
      if (st.nlink > 1 && !pack) continue;
      const executable = (st.mode & 0o111) !== 0;
      const key = keyOf(file, executable, piece);
      const name = pack ? `${key}${GZ_EXT}` : key;
      const target = path.join(storeDir, name);
      const stored = seen.has(name) || isStored(storeDir, name);
      const place = pack ? `${file}${GZ_EXT}` : file;
      if (pack) {
        stats.compressed++;
        if (!stored) {
          if (!options.dryRun) fsSync.mkdirSync(storeDir, { recursive: true });
          const packed = await gzipFile(file, options.dryRun ? null : target, piece);
          // The plain copy goes: this file's own bytes, or (a run stored before) the plain store file.
          stats.compressedFreed += st.size - packed;
          if (st.nlink > 1) superseded.set(path.join(storeDir, key), st.size);
        } else if (st.nlink === 1) stats.compressedFreed += st.size;
        seen.add(name);
        if (options.dryRun) continue;
        replaceByLink(target, place);
        if (place !== file) fsSync.rmSync(file, { force: true });
        continue;
      }
      if (options.dryRun) {
        if (stored) {
          stats.linked++;
          stats.bytesFreed += st.size;
        }
        seen.add(name);
        continue;
      }
      if (!stored) {
        fsSync.mkdirSync(storeDir, { recursive: true });
        fsSync.linkSync(file, target);
        fsSync.chmodSync(target, executable ? 0o555 : 0o444);
        continue;
      }
      replaceByLink(target, file);
      stats.linked++;
      stats.bytesFreed += st.size;
    }
  }
  if (!options.dryRun) {
    for (const [plain, size] of superseded) {
      const st = lstatOrNull(plain);
      if (st && st.nlink === 1) fsSync.rmSync(plain, { force: true });
      else if (st) stats.compressedFreed -= size; // still linked from elsewhere: kept
    }
  }
  return stats;
}

/** Whether the store has `name`, where this layout keeps it or (before migrateStoreLayout) where runs written before did. */
function isStored(storeDir: string, name: string): boolean {
  return [path.join(storeDir, name), path.join(storeDir, name.slice(0, 2), name)].some((file) => lstatOrNull(file));
}

/** Links `target` at `place`: beside it, then renamed over it, so the path always names a complete file. */
function replaceByLink(target: string, place: string): void {
  const tmp = `${place}.store-link`;
  fsSync.rmSync(tmp, { force: true });
  fsSync.linkSync(target, tmp);
  fsSync.renameSync(tmp, place);
}

/** store/<2 hex>/<key> (runs written before) → store/<key>: renamed, so every link to it stays. */
export async function migrateStoreLayout(storeDir: string): Promise<void> {
  for (const entry of dirEntries(storeDir)) {
    if (!entry.isDirectory() || !/^[0-9a-f]{2}$/.test(entry.name)) continue;
    const sub = path.join(storeDir, entry.name);
    for (const name of fsSync.readdirSync(sub)) {
      const to = path.join(storeDir, name);
      if (lstatOrNull(to)) continue; // kept where it is; dropUnlinked removes it once unlinked
      fsSync.renameSync(path.join(sub, name), to);
    }
    try {
      fsSync.rmdirSync(sub);
    } catch {}
  }
}

/** Removes store files no longer linked from anywhere (and folders left empty); returns the bytes freed. */
export async function dropUnlinked(storeDir: string, options: { dryRun?: boolean } = {}): Promise<number> {
  let freed = 0;
  const pause = slicer();
  for (const file of regularFiles(storeDir)) {
    await pause();
    const st = fsSync.lstatSync(file);
    if (st.nlink > 1) continue;
    freed += st.size;
    if (!options.dryRun) fsSync.rmSync(file, { force: true });
  }
  if (!options.dryRun)
    for (const entry of dirEntries(storeDir))
      if (entry.isDirectory())
        try {
          fsSync.rmdirSync(path.join(storeDir, entry.name));
        } catch {}
  return freed;
}

function* regularFiles(dir: string): Generator<string> {
  for (const entry of dirEntries(dir)) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* regularFiles(file);
    else if (entry.isFile()) yield file;
  }
}
