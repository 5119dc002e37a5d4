// File helpers every layer uses: copy a bot folder, list and hash its files, test a path.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';

/** sha256 over every file's relative path and bytes, in sorted order. */
export async function hashDir(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const files = (await listFiles(dir)).sort();
  for (const rel of files) {
    hash.update(rel).update('\u0000');
    hash.update(await fs.readFile(path.join(dir, rel))).update('\u0000');
  }
  return hash.digest('hex');
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

/** Whether a file or folder exists (any error reading it counts as no). */
export async function pathExists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await fs.readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/** Files a running bot leaves behind that are not code. */
const SKIP = new Set(['__pycache__', 'nohup.out', 'node_modules', '.git']);

export async function copyTree(from: string, to: string): Promise<void> {
  await fs.cp(from, to, { recursive: true, filter: (src) => !SKIP.has(path.basename(src)), verbatimSymlinks: true });
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
