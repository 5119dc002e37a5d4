// Builds the image a queue worker runs in (catarena/worker) without any container registry: FROM
// the offline agent runtime image (bots' languages, the host's Node, the CLI agents), plus this
// project (sources, node_modules, compiled by scripts/build.mjs inside the build) and Debian's
// redis-server (its .debs fetched by `apt-get download` from the host's Debian mirror and unpacked
// into the image), so one image runs Redis, the workers and a coordinator (docs/deploy.md). The
// tag hashes the recipe, the base image tag, the Node version, the project's files and the installed
// node_modules tree, so a build is skipped while nothing changed and a changed source gets a new image.
//
//   node --import tsx docker/build-worker-image.ts [--force] [--cache-dir DIR]
//
// prints the tag on stdout; progress goes to stderr.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { z } from 'zod';
import { PROJECT_ROOT } from '../util/paths.ts';
import {
  checkDocker,
  DEFAULT_CACHE_DIR,
  ImageBuildError,
  dockerBuild,
  imageId,
  parseImageArgs,
  parseRecipeFile,
  runImageScript,
} from './build-images.ts';
import { ensureAgentRuntimeImage } from './build-agent-image.ts';
import { agentRuntimeTag, shortHash } from './image-tags.ts';

export const WORKER_RECIPE_PATH = path.join(PROJECT_ROOT, 'docker', 'worker', 'recipe.json');
/** Where the project lives in the image; `catarena` on the PATH runs its bin/catarena.mjs. */
export const WORKER_APP_DIR = '/opt/catarena/app';

const WorkerRecipeSchema = z.object({
  image: z.string().regex(/^[a-z0-9][a-z0-9._/-]*$/),
  description: z.string().optional(),
  /** Top-level files and folders of the project copied into the image. */
  project: z.array(z.string().regex(/^[\w.-]+$/)).min(1),
  /** Debian packages unpacked into the image (redis-server and the libraries the base lacks). */
  debs: z.array(z.string().regex(/^[a-z0-9][a-z0-9.+-]*$/)),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()),
});
export type WorkerRecipe = z.infer<typeof WorkerRecipeSchema>;

export function loadWorkerRecipe(file = WORKER_RECIPE_PATH): WorkerRecipe {
  return parseRecipeFile(file, WorkerRecipeSchema);
}

/** Folders never copied: dependencies come from node_modules (copied whole), builds are redone. */
const SKIP = new Set(['node_modules', '.build', '.git']);

/** The project's files the image carries, relative to the root, sorted. */
function projectFiles(recipe: WorkerRecipe): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const stat = fs.lstatSync(path.join(PROJECT_ROOT, rel));
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(path.join(PROJECT_ROOT, rel)))
        if (!SKIP.has(name) && !name.startsWith('__pycache__')) walk(path.join(rel, name));
    } else out.push(rel);
  };
  for (const top of recipe.project) walk(top);
  return out.sort();
}

/** sha256 over the project files' paths and contents (symlinks by their targets). */
function projectHash(files: string[]): string {
  const h = crypto.createHash('sha256');
  for (const rel of files) {
    const file = path.join(PROJECT_ROOT, rel);
    const stat = fs.lstatSync(file);
    h.update(`${rel}\0${stat.mode & 0o111 ? 'x' : '-'}\0`);
    h.update(stat.isSymbolicLink() ? fs.readlinkSync(file) : fs.readFileSync(file));
    h.update('\0');
  }
  return h.digest('hex');
}

/**
 * What npm installed, as it recorded it (node_modules/.package-lock.json): the image copies
 * node_modules, and a tree that lacks a package the lock file names must not share a tag with a
 * complete one.
 */
function installedTreeHash(lockFile: string): string {
  return fs.existsSync(lockFile) ? crypto.createHash('sha256').update(fs.readFileSync(lockFile)).digest('hex') : 'none';
}

/** The worker image's tag for the project as it is now, e.g. "catarena/worker:1a2b3c4d5e6f". Builds nothing. */
export function workerImageTag(
  recipe: WorkerRecipe = loadWorkerRecipe(),
  installedLock = path.join(PROJECT_ROOT, 'node_modules', '.package-lock.json'),
): string {
  return `${recipe.image}:${shortHash({ recipe, base: agentRuntimeTag(), node: process.version, project: projectHash(projectFiles(recipe)), installed: installedTreeHash(installedLock) })}`;
}

export interface EnsureWorkerImageOptions {
  force?: boolean;
  cacheDir?: string;
  log?: (line: string) => void;
}

export interface EnsureWorkerImageResult {
  tag: string;
  built: boolean;
  seconds: number;
}

export async function ensureWorkerImage(options: EnsureWorkerImageOptions = {}): Promise<EnsureWorkerImageResult> {
  const started = Date.now();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const secs = () => Math.round((Date.now() - started) / 100) / 10;
  const recipe = loadWorkerRecipe();
  const tag = workerImageTag(recipe);
  await checkDocker();
  if (!options.force && (await imageId(tag))) {
    log(`worker: up to date (${tag})`);
    return { tag, built: false, seconds: secs() };
  }
  const base = agentRuntimeTag();
  if (!(await imageId(base))) await ensureAgentRuntimeImage({ log });

  const cacheDir = path.resolve(options.cacheDir || process.env.CATARENA_IMAGE_CACHE || DEFAULT_CACHE_DIR);
  const debsDir = path.join(cacheDir, `worker-debs-${shortHash(recipe.debs)}`);
  if (!fs.existsSync(path.join(debsDir, '.catarena-complete'))) {
    log(`worker: apt-get download ${recipe.debs.join(' ')}`);
    fs.rmSync(debsDir, { recursive: true, force: true });
    fs.mkdirSync(debsDir, { recursive: true });
    const r = await execa('apt-get', ['download', ...recipe.debs], {
      cwd: debsDir,
      reject: false,
      all: true,
      timeout: 10 * 60_000,
    });
    if (r.exitCode !== 0)
      throw new ImageBuildError(
        `apt-get download of ${recipe.debs.join(' ')} failed (exit ${r.exitCode}):\n  ${String(r.all ?? '')
          .trim()
          .split('\n')
          .slice(-5)
          .join('\n  ')}\nIs the Debian mirror reachable (apt-get update)?`,
      );
    // Unpacked here, not installed in the image: the base has no dpkg, and the maintainer scripts expect systemd.
    for (const deb of fs.readdirSync(debsDir).filter((f) => f.endsWith('.deb'))) {
      const x = await execa('dpkg-deb', ['-x', deb, 'root'], { cwd: debsDir, reject: false, all: true });
      if (x.exitCode !== 0) throw new ImageBuildError(`dpkg-deb -x ${deb} failed: ${String(x.all ?? '').trim()}`);
    }
    fs.writeFileSync(path.join(debsDir, '.catarena-complete'), '');
  }

  const context = fs.mkdtempSync(path.join(cacheDir, '.build-worker-'));
  try {
    log(`worker: copying the project and node_modules into ${context}`);
    const app = path.join(context, 'app');
    for (const rel of projectFiles(recipe)) {
      fs.mkdirSync(path.dirname(path.join(app, rel)), { recursive: true });
      fs.cpSync(path.join(PROJECT_ROOT, rel), path.join(app, rel), { verbatimSymlinks: true });
    }
    // node_modules may itself be a link (a git worktree sharing another's): copy what it points at.
    fs.cpSync(fs.realpathSync(path.join(PROJECT_ROOT, 'node_modules')), path.join(app, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
    });
    // The base is usr-merged (/lib, /bin are links into /usr): a package's /lib goes to /usr/lib, not over the link.
    for (const top of fs.readdirSync(path.join(debsDir, 'root'))) {
      const into = ['lib', 'bin', 'sbin'].includes(top) ? path.join('usr', top) : top;
      fs.cpSync(path.join(debsDir, 'root', top), path.join(context, 'debs', into), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
    fs.writeFileSync(
      path.join(context, 'Dockerfile'),
      [
        `FROM ${base}`,
        'COPY debs/ /',
        'RUN redis-server --version',
        `COPY app/ ${WORKER_APP_DIR}/`,
        `RUN cd ${WORKER_APP_DIR} && node scripts/build.mjs --force && ln -s ${WORKER_APP_DIR}/bin/catarena.mjs /usr/local/bin/catarena && catarena --version`,
        ...Object.entries(recipe.env).map(([k, v]) => `ENV ${k}=${JSON.stringify(v)}`),
        'WORKDIR /work',
        `LABEL org.catarena.image=${JSON.stringify(recipe.image)}`,
        '',
      ].join('\n'),
    );
    log(`worker: docker build ${tag} FROM ${base}`);
    await dockerBuild(context, tag, `${recipe.image}:latest`);
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
  // Earlier builds (other project hashes) would pile up, one per change: removed unless a container uses them.
  const others = String(
    (await execa('docker', ['images', recipe.image, '--format', '{{.Repository}}:{{.Tag}}'], { reject: false }))
      .stdout ?? '',
  )
    .split('\n')
    .filter((ref) => ref && ref !== tag && !ref.endsWith(':latest'));
  if (others.length) await execa('docker', ['image', 'rm', ...others], { reject: false, timeout: 120_000 });
  log(`worker: [${secs()}s] built ${tag}`);
  return { tag, built: true, seconds: secs() };
}

function usage(): string {
  return [
    'usage: node --import tsx docker/build-worker-image.ts [--force] [--cache-dir DIR]',
    '  builds catarena/worker:<hash> (and :latest) offline: the agent runtime image (built first if missing),',
    '  this project compiled, and redis-server from the Debian mirror. Prints the tag.',
    `  env: CATARENA_IMAGE_CACHE (default ${DEFAULT_CACHE_DIR})`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runImageScript('build-worker-image', async () => {
    const args = parseImageArgs(process.argv.slice(2), usage);
    if (args.help) return void console.log(usage());
    console.log((await ensureWorkerImage({ force: args.force || undefined, cacheDir: args.cacheDir })).tag);
  });
}
