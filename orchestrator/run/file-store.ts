// The run directory's content-addressed store (store/<2 hex>/<sha256>[x]): a finished run keeps one
// copy of each distinct file of its workspaces and round logs, hard-linked from where agents and
// users expect it. Every round-n workspace holds a copy of every round n−1 bot and the round n−1
// logs, so most of a run's bytes are the same files many times.
//
// Only folders nothing writes any more are linked: a finished run's workspaces (agents develop
// in copies, built before) and round logs (later workspaces copy them). Strategy folders are not:
// bots run in place (process sandbox) and may write their own files, and a hard link would carry
// such a write into every copy. Store files are read-only, a second guard for non-root writers.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface StoreStats {
  /** Files looked at. */
  files: number;
  /** Files replaced by a link to the store (or that would be, with dryRun). */
  linked: number;
  /** Bytes no longer stored twice. */
  bytesFreed: number;
}

/**
 * A store file's name: the content's sha256, plus "x" for an executable file (a link shares its
 * mode). Read through one reused buffer: a round's log files can be large, and a Buffer per read
 * would pile up outside the heap until a GC.
 */
async function keyOf(file: string, executable: boolean, chunk: Buffer): Promise<string> {
  const hash = createHash('sha256');
  const handle = await fs.open(file, 'r');
  try {
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (!bytesRead) break;
      hash.update(chunk.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return `${hash.digest('hex')}${executable ? 'x' : ''}`;
}

/**
 * Replaces each regular file under `dirs` by a hard link to its store file (creating it from the
 * first copy found). Symlinks are left alone; a file already linked (more than one link) is skipped,
 * so a second pass is cheap. With `dryRun`, counts what would be freed and changes nothing.
 */
export async function linkIntoStore(
  storeDir: string,
  dirs: readonly string[],
  options: { dryRun?: boolean } = {},
): Promise<StoreStats> {
  const stats: StoreStats = { files: 0, linked: 0, bytesFreed: 0 };
  const seen = new Set<string>(); // with dryRun: keys a real pass would have put in the store
  const chunk = Buffer.allocUnsafe(1 << 16);
  for (const dir of dirs) {
    for await (const file of regularFiles(dir)) {
      stats.files++;
      const st = await fs.lstat(file);
      if (st.nlink > 1) continue;
      const executable = (st.mode & 0o111) !== 0;
      const key = await keyOf(file, executable, chunk);
      const target = path.join(storeDir, key.slice(0, 2), key);
      const stored = await fs.lstat(target).catch(() => null);
      if (options.dryRun) {
        if (stored || seen.has(key)) {
          stats.linked++;
          stats.bytesFreed += st.size;
        }
        seen.add(key);
        continue;
      }
      if (!stored) {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.link(file, target);
        await fs.chmod(target, executable ? 0o555 : 0o444);
        continue;
      }
      // Link beside the file, then rename over it: the path always names a complete file.
      const tmp = `${file}.store-link`;
      await fs.rm(tmp, { force: true });
      await fs.link(target, tmp);
      await fs.rename(tmp, file);
      stats.linked++;
      stats.bytesFreed += st.size;
    }
  }
  return stats;
}

/** Removes store files no longer linked from anywhere; returns the bytes freed. */
export async function dropUnlinked(storeDir: string, options: { dryRun?: boolean } = {}): Promise<number> {
  let freed = 0;
  for await (const file of regularFiles(storeDir)) {
    const st = await fs.lstat(file);
    if (st.nlink > 1) continue;
    freed += st.size;
    if (!options.dryRun) await fs.rm(file, { force: true });
  }
  return freed;
}

async function* regularFiles(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* regularFiles(file);
    else if (entry.isFile()) yield file;
  }
}
