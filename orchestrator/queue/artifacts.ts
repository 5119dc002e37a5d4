// The content-addressed artifact store that carries strategy code to workers. A strategy folder is
// packed (paths, modes, bytes; gzip) into Redis under its sha256 (the same hash as the strategy
// record's), so any worker that can reach the queue can run it; no shared file system is needed.
// Workers unpack into a local cache, check the hash, and reuse the folder for every later job.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Redis } from 'ioredis';
import { hashDir, listFiles } from '../tourney/strategy-store.ts';
import { PREFIX } from './connection.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const artifactKey = (hash: string) => `${PREFIX}:artifact:${hash}`;

export interface ArtifactStoreOptions {
  /** Largest packed strategy accepted (default 64 MiB): bots are code, not data sets. */
  maxBytes?: number;
  /** How long an artifact stays in Redis after its last upload (default 30 days). */
  ttlSeconds?: number;
}

interface Packed {
  files: Array<{ path: string; mode: number; data: string }>;
}

export class ArtifactStore {
  private readonly maxBytes: number;
  private readonly ttlSeconds: number;

  constructor(private readonly redis: Redis, options: ArtifactStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 << 20;
    this.ttlSeconds = options.ttlSeconds ?? 30 * 24 * 3600;
  }

  /** Uploads a folder under its hash unless it is already there (then only refreshes its expiry). */
  async put(dir: string, hash?: string): Promise<string> {
    const id = hash ?? (await hashDir(dir));
    if (await this.redis.expire(artifactKey(id), this.ttlSeconds)) return id;
    const files: Packed['files'] = [];
    for (const rel of (await listFiles(dir)).sort()) {
      const file = path.join(dir, rel);
      const [data, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
      files.push({ path: rel, mode: stat.mode & 0o777, data: data.toString('base64') });
    }
    const packed = await gzipAsync(Buffer.from(JSON.stringify({ files } satisfies Packed)));
    if (packed.length > this.maxBytes) {
      throw new Error(`strategy ${dir} packs to ${(packed.length / 2 ** 20).toFixed(1)} MiB, over the ${(this.maxBytes / 2 ** 20).toFixed(0)} MiB artifact limit; remove data files or large dependencies from the bot folder`);
    }
    await this.redis.set(artifactKey(id), packed, 'EX', this.ttlSeconds);
    return id;
  }

  async has(hash: string): Promise<boolean> {
    return (await this.redis.exists(artifactKey(hash))) === 1;
  }

  /**
   * The local folder holding the artifact, unpacked into `cacheDir/<hash>` on first use and
   * checked against its hash; throws when Redis does not have it (an infrastructure failure).
   */
  async fetch(hash: string, cacheDir: string): Promise<string> {
    const dir = path.join(cacheDir, hash);
    if (await exists(dir)) return dir;
    const packed = await this.redis.getBuffer(artifactKey(hash));
    if (!packed) throw new Error(`artifact ${hash.slice(0, 12)} is not in Redis (expired, or Redis lost its data); the coordinator uploads it again when it re-queues the match`);
    const { files } = JSON.parse((await gunzipAsync(packed)).toString('utf8')) as Packed;
    const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await fs.mkdir(tmp, { recursive: true });
    for (const file of files) {
      const target = path.join(tmp, file.path);
      if (!target.startsWith(`${tmp}${path.sep}`)) throw new Error(`artifact ${hash.slice(0, 12)} has a path outside its folder: ${file.path}`);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, Buffer.from(file.data, 'base64'), { mode: file.mode });
    }
    const actual = await hashDir(tmp);
    if (actual !== hash) {
      await fs.rm(tmp, { recursive: true, force: true });
      throw new Error(`artifact ${hash.slice(0, 12)} unpacked to content with hash ${actual.slice(0, 12)}; refusing to run it`);
    }
    // Another job of this worker may have unpacked it meanwhile: the first rename wins.
    await fs.rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      await fs.rm(tmp, { recursive: true, force: true });
      if (!(await exists(dir))) throw err;
    });
    return dir;
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
