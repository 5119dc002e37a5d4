// A worker's artifact cache (<work-dir>/artifacts/<sha256>/, unpacked strategy folders) is bounded
// by age: a folder no job has used for `maxAgeMs` is deleted (ArtifactStore.fetch touches a folder
// each time a job uses it), and so is an unpack left half-done by a kill. Each night's new
// strategies add 2–3 MB; without this the cache only grows. A folder deleted here that a job wants
// again is fetched from Redis again (while Redis keeps it: 30 days after its last upload).
import fs from 'node:fs/promises';
import path from 'node:path';
import { listFiles } from '../../util/fs.ts';

export const ARTIFACT_CACHE_DEFAULTS = {
  /** Delete a cached artifact no job has used for this many days (worker --artifact-days). */
  maxAgeDays: 14,
  /** How often a worker sweeps its cache. */
  sweepEveryMs: 3_600_000,
  /** A half-done unpack (<hash>.tmp-…) older than this was left by a kill. */
  staleTmpMs: 3_600_000,
};

/** Marks a cached artifact as used now. */
export const touchArtifact = (dir: string) => {
  const now = new Date();
  return fs.utimes(dir, now, now).catch(() => undefined);
};

/** Deletes cached artifacts unused for `maxAgeMs` and stale unpacks; returns what it freed. */
export async function evictArtifacts(
  cacheDir: string,
  options: { maxAgeMs: number; now?: number },
): Promise<{ removed: number; bytes: number }> {
  const now = options.now ?? Date.now();
  let removed = 0;
  let bytes = 0;
  for (const name of await fs.readdir(cacheDir).catch(() => [] as string[])) {
    const hash = /^[0-9a-f]{64}$/.test(name);
    const tmp = /^[0-9a-f]{64}\.tmp-/.test(name);
    if (!hash && !tmp) continue; // not ours
    const dir = path.join(cacheDir, name);
    const stat = await fs.stat(dir).catch(() => null);
    if (!stat?.isDirectory()) continue;
    const age = now - stat.mtimeMs;
    if (age < (hash ? options.maxAgeMs : ARTIFACT_CACHE_DEFAULTS.staleTmpMs)) continue;
    bytes += await folderBytes(dir);
    await fs.rm(dir, { recursive: true, force: true });
    removed++;
  }
  return { removed, bytes };
}

const folderBytes = async (dir: string) => {
  let sum = 0;
  for (const rel of await listFiles(dir).catch(() => [] as string[]))
    sum += (await fs.lstat(path.join(dir, rel)).catch(() => null))?.size ?? 0;
  return sum;
};
