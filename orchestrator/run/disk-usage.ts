// How much a folder takes on disk, as `du` counts it: allocated blocks, each hard-linked file once.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface DiskUsage {
  /** Allocated bytes (st_blocks × 512), each inode once. */
  bytes: number;
  /** Bytes of content (st_size), each inode once. */
  apparent: number;
  files: number;
}

/** Disk usage of `dir`, in total and per top-level entry (a hard link counts where it is met first). */
export async function diskUsage(dir: string): Promise<DiskUsage & { byEntry: Record<string, DiskUsage> }> {
  const seen = new Set<string>();
  const total: DiskUsage = { bytes: 0, apparent: 0, files: 0 };
  const byEntry: Record<string, DiskUsage> = {};
  const walk = async (p: string, into: DiskUsage) => {
    const st = await fs.lstat(p).catch(() => null);
    if (!st) return;
    const key = `${st.dev}:${st.ino}`;
    if (!seen.has(key)) {
      seen.add(key);
      into.bytes += st.blocks * 512;
      into.apparent += st.isDirectory() ? 0 : st.size;
      if (!st.isDirectory()) into.files++;
    }
    if (st.isDirectory())
      for (const name of await fs.readdir(p).catch(() => [] as string[])) await walk(path.join(p, name), into);
  };
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    const u = (byEntry[name] = { bytes: 0, apparent: 0, files: 0 });
    await walk(path.join(dir, name), u);
    total.bytes += u.bytes;
    total.apparent += u.apparent;
    total.files += u.files;
  }
  return { ...total, byEntry };
}

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
