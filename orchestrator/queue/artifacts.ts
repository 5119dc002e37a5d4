// The content-addressed artifact store that carries strategy code to workers. A strategy folder is
// packed (paths, modes, bytes, in-folder symlinks; gzip) into Redis under the sha256 of its files
// (the hash strategy records use), so any worker that can reach the queue can run it; no shared
// file system is needed.
// Workers unpack into a local cache, check the hash, and reuse the folder for every later job.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Redis } from 'ioredis';
import { hashDir, listFiles, pathExists } from '../../util/fs.ts';
import { touchArtifact } from './artifact-cache.ts';
import { PREFIX } from './connection.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const artifactKey = (hash: string) => `${PREFIX}:artifact:${hash}`;
/** Packs above this size are uploaded over a connection of their own without a socket timeout. */
const LARGE_PACK_BYTES = 1 << 20;

export interface ArtifactStoreOptions {
  /** Largest packed strategy accepted (default 64 MiB): bots are code, not data sets. */
  maxBytes?: number;
  /** How long an artifact stays in Redis after its last upload (default 30 days). */
  ttlSeconds?: number;
}

interface Packed {
  files: Array<{ path: string; mode: number; data: string }>;
  /** Symbolic links (relative path → target), recreated as links; not part of the hash. */
  links?: Array<{ path: string; target: string }>;
}

export class ArtifactStore {
  private readonly maxBytes: number;
  private readonly ttlSeconds: number;

  constructor(
    private readonly redis: Redis,
    options: ArtifactStoreOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? 64 << 20;
    this.ttlSeconds = options.ttlSeconds ?? 30 * 24 * 3600;
  }

  /**
   * Uploads a folder under the hash of its content as it is now (only refreshing the expiry when
   * Redis already has it). Symbolic links that stay inside the folder travel as links.
   */
  async put(dir: string): Promise<string> {
    const id = await hashDir(dir);
    if (await this.redis.expire(artifactKey(id), this.ttlSeconds)) return id;
    const files: Packed['files'] = [];
    for (const rel of (await listFiles(dir)).sort()) {
      const file = path.join(dir, rel);
      const [data, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
      files.push({ path: rel, mode: stat.mode & 0o755, data: data.toString('base64') });
    }
    const links = await listLinks(dir);
    const packed = await gzipAsync(Buffer.from(JSON.stringify({ files, links } satisfies Packed)));
    if (packed.length > this.maxBytes) {
      throw new Error(
        `strategy ${dir} packs to ${(packed.length / 2 ** 20).toFixed(1)} MiB, over the ${(this.maxBytes / 2 ** 20).toFixed(0)} MiB artifact limit; remove data files or large dependencies from the bot folder`,
      );
    }
    // Redis answers a SET only once it has all of it: a large pack on a slow link can take longer
    // than a connection waits for an answer (socketTimeout), so it goes over one that waits.
    const large = packed.length > LARGE_PACK_BYTES;
    const uploader = large ? this.redis.duplicate({ socketTimeout: undefined }) : this.redis;
    if (large) uploader.on('error', () => {}); // a failure rejects the SET below
    try {
      await uploader.set(artifactKey(id), packed, 'EX', this.ttlSeconds);
    } finally {
      if (large) uploader.disconnect();
    }
    return id;
  }

  /**
   * The local folder holding the artifact, unpacked into `cacheDir/<hash>` on first use and
   * checked against its hash; throws when Redis does not have it (an infrastructure failure).
   */
  async fetch(hash: string, cacheDir: string): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(hash))
      throw new Error(`artifact id ${JSON.stringify(hash).slice(0, 80)} is not a sha256 hex digest`);
    const dir = path.join(cacheDir, hash);
    if (await pathExists(dir)) {
      await touchArtifact(dir); // used now: kept by the cache's eviction (artifact-cache.ts)
      return dir;
    }
    const packed = await this.redis.getBuffer(artifactKey(hash));
    if (!packed)
      throw new Error(
        `artifact ${hash.slice(0, 12)} is not in Redis (expired, or Redis lost its data); the coordinator uploads it again when it re-queues the match`,
      );
    const { files, links = [] } = JSON.parse((await gunzipAsync(packed)).toString('utf8')) as Packed;
    const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    await fs.mkdir(tmp, { recursive: true });
    const inside = (rel: string, base = tmp) => {
      const target = path.resolve(base, rel);
      if (!target.startsWith(`${tmp}${path.sep}`))
        throw new Error(`artifact ${hash.slice(0, 12)} has a path outside its folder: ${rel}`);
      return target;
    };
    for (const file of files) {
      const target = inside(file.path);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, Buffer.from(file.data, 'base64'), { mode: file.mode & 0o755 });
    }
    for (const link of links) {
      const at = inside(link.path);
      inside(link.target, path.dirname(at)); // a link may only point inside the folder
      await fs.mkdir(path.dirname(at), { recursive: true });
      await fs.symlink(link.target, at);
    }
    const actual = await hashDir(tmp);
    if (actual !== hash) {
      await fs.rm(tmp, { recursive: true, force: true });
      throw new Error(
        `artifact ${hash.slice(0, 12)} unpacked to content with hash ${actual.slice(0, 12)}; refusing to run it`,
      );
    }
    // Another job of this worker may have unpacked it meanwhile: the first rename wins.
    await fs.rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      await fs.rm(tmp, { recursive: true, force: true });
      if (!(await pathExists(dir))) throw err;
    });
    return dir;
  }
}

/** Symbolic links under `dir` whose targets stay inside it (others would not exist on a worker). */
async function listLinks(dir: string, prefix = ''): Promise<Array<{ path: string; target: string }>> {
  const out: Array<{ path: string; target: string }> = [];
  const entries = await fs.readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listLinks(dir, rel)));
    else if (entry.isSymbolicLink()) {
      const target = await fs.readlink(path.join(dir, rel));
      const resolved = path.resolve(dir, prefix, target);
      if (resolved.startsWith(`${path.resolve(dir)}${path.sep}`)) out.push({ path: rel, target });
    }
  }
  return out;
}
