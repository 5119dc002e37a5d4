// Builds the Docker image bots run in (catarena/bot-runtime) without any container registry:
// debootstrap a Debian rootfs from the apt mirror, tar it, `docker import` it. The recipe lives in
// docker/bot-runtime/recipe.json; the image tag is a hash of its canonical content, so a build is
// skipped when the tag exists, and the rootfs tarball is cached (CATARENA_IMAGE_CACHE, default
// /var/cache/catarena/images) so a rebuild on the same machine takes seconds.
//
//   node --import tsx docker/build-images.ts [--force] [--mirror URL] [--cache-dir DIR]
//
// prints the tag on stdout; progress goes to stderr.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { z } from 'zod';
import { BOT_RECIPE_PATH, shortHash } from './image-tags.ts';
import { isProcessGone } from '../util/procfs.mjs';

export const DEFAULT_RECIPE_PATH = BOT_RECIPE_PATH;
export const DEFAULT_CACHE_DIR = '/var/cache/catarena/images';
export const DEFAULT_MIRROR = 'http://deb.debian.org/debian';

const RecipeSchema = z.object({
  image: z.string().regex(/^[a-z0-9][a-z0-9._/-]*$/, 'image must be a lowercase repository name without tag'),
  description: z.string().optional(),
  suite: z.string().regex(/^[a-z0-9-]+$/),
  variant: z.string().regex(/^[a-z0-9-]+$/),
  packages: z.array(z.string().regex(/^[a-z0-9][a-z0-9.+-]*$/)).min(1),
  cleanup: z.array(z.string().min(1)),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()),
});
export type Recipe = z.infer<typeof RecipeSchema>;

export interface EnsureImageOptions {
  /** Rebuild from debootstrap even when the image and the cached tarball exist. */
  force?: boolean;
  /** Debian mirror for debootstrap; default: env CATARENA_DEBIAN_MIRROR, then the host's apt sources. */
  mirror?: string;
  /** Where rootfs tarballs are cached; default: env CATARENA_IMAGE_CACHE, then /var/cache/catarena/images. */
  cacheDir?: string;
  /** Recipe file; default docker/bot-runtime/recipe.json. */
  recipePath?: string;
  /** Progress lines; default: written to stderr. */
  log?: (line: string) => void;
}

export interface EnsureImageResult {
  tag: string;
  /** false when the tag already existed and nothing was done. */
  built: boolean;
  seconds: number;
  /** Where the image came from: it existed, imported from the cached tarball, or debootstrapped now. */
  source: 'existing' | 'cache' | 'debootstrap';
}

/** An error whose message says what to do; the CLI prints only the message. */
export class ImageBuildError extends Error {
  override name = 'ImageBuildError';
}

// ---------------------------------------------------------------------------------------------
// Recipe and tag

export function loadRecipe(recipePath: string = DEFAULT_RECIPE_PATH): Recipe {
  return parseRecipeFile(recipePath, RecipeSchema);
}

/** A recipe file checked against its schema; errors name the file and each bad field. */
export function parseRecipeFile<T>(file: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ImageBuildError(`cannot read recipe ${file}: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new ImageBuildError(`invalid recipe ${file}: ${issues}`);
  }
  return parsed.data;
}

/** First 12 hex digits of sha256 of the recipe's canonical JSON (formatting and key order don't count). */
export function recipeHash(recipe: Recipe): string {
  return shortHash(recipe);
}

// ---------------------------------------------------------------------------------------------
// Host probes

/** The Debian mirror apt uses here: prefers an entry for `suite`, else the first one. */
export function hostDebianMirror(suite = 'bookworm'): string | undefined {
  const sources = readIfExists('/etc/apt/sources.list.d/debian.sources');
  const fromDeb822 = sources === undefined ? undefined : parseDeb822Mirror(sources, suite);
  if (fromDeb822) return fromDeb822;
  const list = readIfExists('/etc/apt/sources.list');
  return list === undefined ? undefined : parseSourcesListMirror(list, suite);
}

/** The URI of a deb822 sources file (Types: deb / URIs: ... / Suites: ...). */
export function parseDeb822Mirror(text: string, suite?: string): string | undefined {
  const stanzas = text.split(/\n\s*\n/).map((stanza) => {
    const fields = new Map<string, string>();
    for (const line of stanza.split('\n')) {
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line.trim());
      if (m && !line.trimStart().startsWith('#')) fields.set(m[1]!.toLowerCase(), m[2]!.trim());
    }
    return fields;
  });
  const candidates = stanzas.filter(
    (f) => f.get('uris') && (f.get('types') ?? 'deb').split(/\s+/).includes('deb') && f.get('enabled') !== 'no',
  );
  const match =
    (suite && candidates.find((f) => (f.get('suites') ?? '').split(/\s+/).includes(suite))) || candidates[0];
  return match?.get('uris')?.split(/\s+/)[0]?.replace(/\/+$/, '') || undefined;
}

/** The URI of a one-line-style sources.list ("deb [opts] URI suite components"). */
export function parseSourcesListMirror(text: string, suite?: string): string | undefined {
  const entries: { uri: string; suite: string }[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    const m = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/.exec(line);
    if (m) entries.push({ uri: m[1]!.replace(/\/+$/, ''), suite: m[2]! });
  }
  return ((suite && entries.find((e) => e.suite === suite)) || entries[0])?.uri;
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function resolveMirror(explicit: string | undefined, suite: string): string {
  return (explicit || process.env.CATARENA_DEBIAN_MIRROR || hostDebianMirror(suite) || DEFAULT_MIRROR).replace(
    /\/+$/,
    '',
  );
}

function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

const DOCKER_HINT =
  'start dockerd: `sudo bash scripts/start-docker.sh` (installs docker.io if needed, starts dockerd, logs to /var/log/catarena-dockerd.log)';

/** Throws an ImageBuildError saying what to do when the Docker daemon cannot be used. */
export async function checkDocker(): Promise<string> {
  const r = await execa('docker', ['info', '--format', '{{.ServerVersion}}'], { reject: false, timeout: 30_000 });
  if ((r as { code?: string }).code === 'ENOENT') {
    throw new ImageBuildError(`the docker CLI is not installed. ${DOCKER_HINT}, or \`apt-get install docker.io\``);
  }
  const version = String(r.stdout ?? '').trim();
  if (r.exitCode === 0 && version && !version.includes('<no value>')) return version;
  const detail =
    String(r.stderr ?? '')
      .trim()
      .split('\n')
      .filter(Boolean)
      .slice(-1)[0] ?? `exit code ${r.exitCode}`;
  if (/permission denied/i.test(detail)) {
    throw new ImageBuildError(
      `cannot use the Docker daemon (${detail}): run as root, or add this user to the "docker" group`,
    );
  }
  throw new ImageBuildError(`the Docker daemon is not reachable (${detail}). ${DOCKER_HINT}`);
}

export async function imageId(ref: string): Promise<string | undefined> {
  const r = await execa('docker', ['image', 'inspect', '--format', '{{.Id}}', ref], { reject: false, timeout: 30_000 });
  return r.exitCode === 0 ? String(r.stdout).trim() || undefined : undefined;
}

// ---------------------------------------------------------------------------------------------
// Build

const inFlight = new Map<string, Promise<EnsureImageResult>>();

/**
 * Makes sure the bot runtime image for the current recipe exists locally and is also tagged
 * `:latest`. Does nothing when the hash tag exists (unless force); otherwise imports the cached
 * rootfs tarball, or debootstraps one (root needed), caches it and imports it.
 */
export function ensureBotRuntimeImage(options: EnsureImageOptions = {}): Promise<EnsureImageResult> {
  const key = `${path.resolve(options.recipePath ?? DEFAULT_RECIPE_PATH)}|${options.force ? 'force' : ''}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = ensureImage(options).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function ensureImage(options: EnsureImageOptions): Promise<EnsureImageResult> {
  const started = Date.now();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const elapsed = () => Math.round((Date.now() - started) / 100) / 10;
  const recipe = loadRecipe(options.recipePath);
  const hash = recipeHash(recipe);
  const tag = `${recipe.image}:${hash}`;
  const latest = `${recipe.image}:latest`;

  await checkDocker();
  if (!options.force) {
    const id = await imageId(tag);
    if (id) {
      await tagLatest(id, tag, latest);
      log(`bot-runtime: up to date (${tag})`);
      return { tag, built: false, seconds: elapsed(), source: 'existing' };
    }
  }

  const cacheDir = path.resolve(options.cacheDir || process.env.CATARENA_IMAGE_CACHE || DEFAULT_CACHE_DIR);
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.accessSync(cacheDir, fs.constants.W_OK);
  } catch (err) {
    throw new ImageBuildError(
      `cannot write the image cache ${cacheDir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): ` +
        'run as root, or set CATARENA_IMAGE_CACHE to a writable directory',
    );
  }

  const release = await acquireLock(path.join(cacheDir, `bot-runtime-${hash}.lock`), log);
  try {
    // Another process may have built it while we waited for the lock.
    if (!options.force) {
      const id = await imageId(tag);
      if (id) {
        await tagLatest(id, tag, latest);
        log(`bot-runtime: up to date (${tag}, built by another process)`);
        return { tag, built: false, seconds: elapsed(), source: 'existing' };
      }
    }
    const tarball = path.join(cacheDir, `bot-runtime-${hash}.tar`);
    let source: EnsureImageResult['source'] = 'cache';
    if (options.force || !fs.existsSync(tarball)) {
      source = 'debootstrap';
      await buildRootfsTarball(recipe, hash, tarball, cacheDir, resolveMirror(options.mirror, recipe.suite), log);
    } else {
      log(`bot-runtime: using cached rootfs ${tarball}`);
    }
    const previous = await imageId(tag);
    await importTarball(recipe, hash, tarball, tag, log);
    const id = await imageId(tag);
    if (!id) throw new ImageBuildError(`docker import reported success but ${tag} does not exist`);
    await tagLatest(id, tag, latest);
    if (previous && previous !== id) {
      // The image a --force rebuild replaced: remove it if nothing else uses it.
      await execa('docker', ['image', 'rm', previous], { reject: false, timeout: 60_000 });
    }
    log(`bot-runtime: built ${tag} (also ${latest}) in ${elapsed()}s`);
    return { tag, built: true, seconds: elapsed(), source };
  } finally {
    release();
  }
}

async function tagLatest(id: string, tag: string, latest: string): Promise<void> {
  if ((await imageId(latest)) === id) return;
  const r = await execa('docker', ['tag', tag, latest], { reject: false, timeout: 30_000 });
  if (r.exitCode !== 0) throw new ImageBuildError(`docker tag ${tag} ${latest} failed: ${String(r.stderr).trim()}`);
}

async function buildRootfsTarball(
  recipe: Recipe,
  hash: string,
  tarball: string,
  cacheDir: string,
  mirror: string,
  log: (line: string) => void,
): Promise<void> {
  const { debootstrap, tar } = rootfsTools(tarball);
  // A fixed work dir per recipe, guarded by the lock: a run that was killed is cleaned up here.
  const work = path.join(cacheDir, `.build-bot-runtime-${hash}`);
  await removeTree(work, log);
  const rootfs = path.join(work, 'rootfs');
  fs.mkdirSync(rootfs, { recursive: true });
  fs.chmodSync(rootfs, 0o755); // becomes "/" of the image: must not inherit a restrictive umask
  const started = Date.now();
  const secs = () => `${Math.round((Date.now() - started) / 1000)}s`;
  try {
    await runDebootstrap({ debootstrap, recipe, rootfs, mirror, cacheDir, hash, log, secs });
    log(`debootstrap: [${secs()}] done; cleaning up ${recipe.cleanup.join(' ')}`);
    await unmountUnder(rootfs);
    for (const pattern of recipe.cleanup) removeGlob(rootfs, pattern);
    await tarRootfs(tar, rootfs, tarball, log, secs);
  } finally {
    await removeTree(work, log);
  }
}

/** debootstrap and tar, as root: what building the rootfs needs, or an error that says what to do. */
function rootfsTools(tarball: string): { debootstrap: string; tar: string } {
  if (process.getuid?.() !== 0) {
    throw new ImageBuildError(
      `building the bot runtime rootfs needs root (debootstrap): run \`sudo npm run images\`, ` +
        `or place a rootfs tarball at ${tarball}`,
    );
  }
  const debootstrap = findExecutable('debootstrap');
  if (!debootstrap) {
    throw new ImageBuildError(
      'debootstrap is not installed: apt-get install debootstrap (or run `sudo bash scripts/start-docker.sh`)',
    );
  }
  const tar = findExecutable('tar');
  if (!tar) throw new ImageBuildError('tar is not installed: apt-get install tar');
  return { debootstrap, tar };
}

/** debootstrap of the recipe into rootfs, its progress logged; on failure its log is saved beside the cache. */
async function runDebootstrap(d: {
  debootstrap: string;
  recipe: Recipe;
  rootfs: string;
  mirror: string;
  cacheDir: string;
  hash: string;
  log: (line: string) => void;
  secs: () => string;
}): Promise<void> {
  const { recipe, rootfs, mirror, log, secs } = d;
  log(
    `debootstrap: ${recipe.suite} (${recipe.variant}) from ${mirror} with ${recipe.packages.length} packages (about a minute)`,
  );
  const args = [`--variant=${recipe.variant}`, `--include=${recipe.packages.join(',')}`, recipe.suite, rootfs, mirror];
  const proc = execa(d.debootstrap, args, {
    all: true,
    reject: false,
    timeout: 30 * 60_000,
    env: { DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C' },
  });
  const tail = await followDebootstrap(proc.iterable({ from: 'all' }), log, secs);
  const result = await proc;
  if (result.exitCode !== 0 || result.failed) {
    const saved = path.join(d.cacheDir, `bot-runtime-${d.hash}.debootstrap.log`);
    try {
      fs.copyFileSync(path.join(rootfs, 'debootstrap', 'debootstrap.log'), saved);
    } catch {
      fs.writeFileSync(saved, `${tail.join('\n')}\n`);
    }
    const why = result.timedOut ? 'timed out' : `exit code ${result.exitCode ?? result.signal}`;
    throw new ImageBuildError(
      `debootstrap failed (${why}) after ${secs()}:\n  ${tail.slice(-8).join('\n  ')}\n` +
        `full log: ${saved}. Check that the mirror ${mirror} is reachable ` +
        '(override with --mirror URL or CATARENA_DEBIAN_MIRROR).',
    );
  }
}

/**
 * debootstrap's output, logged by phase: one line when the verb changes (Retrieving and Validating
 * alternate per package, so they count as one), the milestones, warnings and errors, and a
 * heartbeat every 10 s. Returns the last 30 lines.
 */
async function followDebootstrap(
  lines: AsyncIterable<unknown>,
  log: (line: string) => void,
  secs: () => string,
): Promise<string[]> {
  const tail: string[] = [];
  let phase = '';
  let lastPrint = Date.now();
  for await (const line of lines) {
    const text = String(line).trimEnd();
    if (!text) continue;
    tail.push(text);
    if (tail.length > 30) tail.shift();
    const m = /^([IWE]): (\S+)/.exec(text);
    const kind = m?.[1];
    const verb = m?.[2] === 'Validating' ? 'Retrieving' : (m?.[2] ?? '');
    const milestone = /required packages|core packages|base system/i.test(text);
    if (
      kind === 'W' ||
      kind === 'E' ||
      (kind === 'I' && verb !== phase) ||
      milestone ||
      Date.now() - lastPrint > 10_000
    ) {
      log(`debootstrap: [${secs()}] ${text.replace(/^I: /, '')}`);
      lastPrint = Date.now();
    }
    if (kind === 'I') phase = verb;
  }
  return tail;
}

/** The rootfs as a tarball with numeric owners, written beside and renamed into place. */
async function tarRootfs(
  tar: string,
  rootfs: string,
  tarball: string,
  log: (line: string) => void,
  secs: () => string,
): Promise<void> {
  const partial = `${tarball}.partial-${process.pid}`;
  log(`tar: writing ${tarball}`);
  const t = await execa(tar, ['--numeric-owner', '-C', rootfs, '-cf', partial, '.'], { reject: false, all: true });
  if (t.exitCode !== 0) {
    fs.rmSync(partial, { force: true });
    throw new ImageBuildError(
      `tar of the rootfs failed: ${String(t.all ?? '')
        .trim()
        .split('\n')
        .slice(-3)
        .join(' / ')}`,
    );
  }
  fs.renameSync(partial, tarball);
  log(`tar: [${secs()}] ${(fs.statSync(tarball).size / 2 ** 20).toFixed(0)} MiB cached`);
}

async function importTarball(
  recipe: Recipe,
  hash: string,
  tarball: string,
  tag: string,
  log: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  log(`import: docker import ${path.basename(tarball)} as ${tag}`);
  const changes = [
    ...Object.entries(recipe.env).map(([k, v]) => `ENV ${k}=${JSON.stringify(v)}`),
    `LABEL org.catarena.image=${JSON.stringify(recipe.image)} org.catarena.recipe-hash=${JSON.stringify(hash)}`,
  ];
  const r = await execa(
    'docker',
    [
      'import',
      '--message',
      `catarena ${recipe.image} recipe ${hash}`,
      ...changes.flatMap((c) => ['--change', c]),
      tarball,
      tag,
    ],
    { reject: false, all: true, timeout: 20 * 60_000 },
  );
  if (r.exitCode !== 0) {
    throw new ImageBuildError(
      `docker import of ${tarball} failed: ${String(r.all ?? '').trim()}\n` +
        `(if the tarball is damaged, delete it or rerun with --force)`,
    );
  }
  log(`import: [${Math.round((Date.now() - started) / 100) / 10}s] done`);
}

// ---------------------------------------------------------------------------------------------
// Filesystem helpers

/** Removes rootfs-relative paths; `*` is allowed in the last path segment only. */
function removeGlob(rootfs: string, pattern: string): void {
  const rel = pattern.replace(/^\/+/, '');
  const parts = rel.split('/');
  if (
    !rel ||
    parts.some((p) => p === '..' || p === '.' || p === '') ||
    parts.slice(0, -1).some((p) => p.includes('*'))
  ) {
    throw new ImageBuildError(`bad cleanup path "${pattern}": use a relative path, with * only in its last part`);
  }
  const dir = path.join(rootfs, ...parts.slice(0, -1));
  const last = parts[parts.length - 1]!;
  if (!last.includes('*')) {
    fs.rmSync(path.join(dir, last), { recursive: true, force: true });
    return;
  }
  const re = new RegExp(
    `^${last
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (re.test(name)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
}

/** Mount points at or below dir (debootstrap mounts /proc, /sys, /dev parts while it runs). */
function mountsUnder(dir: string): string[] {
  const text = readIfExists('/proc/self/mountinfo') ?? '';
  const unescapeOctal = (s: string) =>
    s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return text
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((m): m is string => !!m)
    .map(unescapeOctal)
    .filter((m) => m === dir || m.startsWith(`${dir}/`));
}

async function unmountUnder(dir: string): Promise<void> {
  for (let round = 0; round < 3; round++) {
    const mounts = mountsUnder(dir).sort((a, b) => b.length - a.length);
    if (!mounts.length) return;
    for (const m of mounts) await execa('umount', [m], { reject: false });
  }
  for (const m of mountsUnder(dir).sort((a, b) => b.length - a.length))
    await execa('umount', ['-l', m], { reject: false });
}

/** rm -rf that never descends into something still mounted inside (e.g. a bind-mounted /dev). */
async function removeTree(dir: string, log: (line: string) => void): Promise<void> {
  if (!fs.existsSync(dir)) return;
  await unmountUnder(dir);
  const left = mountsUnder(dir);
  if (left.length) {
    log(`warning: not removing ${dir}: still mounted: ${left.join(', ')}`);
    return;
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** An exclusive lock file holding our pid; a lock whose process is gone is taken over. */
async function acquireLock(file: string, log: (line: string) => void): Promise<() => void> {
  const deadline = Date.now() + 45 * 60_000;
  let waited = false;
  for (;;) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = Number(readIfExists(file)?.trim());
    if (!pidAlive(pid)) {
      fs.rmSync(file, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new ImageBuildError(`timed out waiting for the build lock ${file} (held by pid ${pid})`);
    if (!waited) log(`bot-runtime: waiting for another build (pid ${pid}, lock ${file})`);
    waited = true;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** A lock holder still runs (a zombie or a vanished pid does not; this process does). */
const pidAlive = (pid: number): boolean => pid === process.pid || !isProcessGone(pid);

// ---------------------------------------------------------------------------------------------
// CLI

function usage(): string {
  return [
    'usage: node --import tsx docker/build-images.ts [--force] [--mirror URL] [--cache-dir DIR]',
    '  builds catarena/bot-runtime:<recipe hash> (and :latest) offline with debootstrap + docker import;',
    '  prints the tag. --force rebuilds the rootfs even if the image or the cached tarball exists.',
    `  env: CATARENA_DEBIAN_MIRROR, CATARENA_IMAGE_CACHE (default ${DEFAULT_CACHE_DIR})`,
  ].join('\n');
}

/** `docker build` of a prepared context under the given tags, with the legacy builder: it needs no BuildKit component and never pulls a local FROM image. */
export async function dockerBuild(context: string, ...tags: string[]): Promise<void> {
  const b = await execa('docker', ['build', '-q', ...tags.flatMap((t) => ['-t', t]), context], {
    reject: false,
    all: true,
    timeout: 20 * 60_000,
    env: { DOCKER_BUILDKIT: '0' },
  });
  if (b.exitCode !== 0)
    throw new ImageBuildError(
      `docker build of ${tags[0]} failed:\n  ${String(b.all ?? '')
        .trim()
        .split('\n')
        .slice(-8)
        .join('\n  ')}`,
    );
}

/** An image builder's flags: --force, --cache-dir DIR, and the `valued` flags; `--flag=value` works too. */
export function parseImageArgs(
  argv: string[],
  usage: () => string,
  valued: string[] = [],
): { help: true } | { help: false; force: boolean; cacheDir?: string; values: Record<string, string> } {
  const parsed = {
    help: false as const,
    force: false,
    cacheDir: undefined as string | undefined,
    values: {} as Record<string, string>,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (!v) throw new ImageBuildError(`${flag} needs a value\n${usage()}`);
      return v;
    };
    if (flag === '--force') parsed.force = true;
    else if (flag === '--cache-dir') parsed.cacheDir = value();
    else if (valued.includes(flag)) parsed.values[flag] = value();
    else if (flag === '--help' || flag === '-h') return { help: true };
    else throw new ImageBuildError(`unknown argument ${arg}\n${usage()}`);
  }
  return parsed;
}

/** Runs an image builder invoked as a script: its own errors print as their message, others with their stack; exit 1. */
export function runImageScript(name: string, run: () => Promise<void>): void {
  run().catch((err: unknown) => {
    process.stderr.write(
      `${name}: ${err instanceof ImageBuildError ? err.message : ((err as Error).stack ?? String(err))}\n`,
    );
    process.exitCode = 1;
  });
}

export async function main(argv: string[]): Promise<number> {
  const args = parseImageArgs(argv, usage, ['--mirror']);
  if (args.help) {
    console.log(usage());
    return 0;
  }
  const options: EnsureImageOptions = {
    force: args.force || undefined,
    cacheDir: args.cacheDir,
    mirror: args.values['--mirror'],
  };
  const result = await ensureBotRuntimeImage(options);
  console.log(result.tag);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runImageScript('build-images', async () => {
    process.exitCode = await main(process.argv.slice(2));
  });
}
