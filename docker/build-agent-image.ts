// Builds the image CLI coding agents run in (catarena/agent-runtime) without any container
// registry: FROM the offline bot runtime image, plus the host's Node binary and the pinned CLIs
// (docker/agent-runtime/recipe.json), which npm installs on the host into a cached folder. The tag
// is a hash of the recipe, the base image tag and the Node version, so a build is skipped when
// the tag exists and a rebuild reuses the cached npm install.
//
//   node --import tsx docker/build-agent-image.ts [--force] [--cache-dir DIR]
//
// prints the tag on stdout; progress goes to stderr.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { z } from 'zod';
import { AGENT_CLIS } from '../records/agent-clis.ts';
import {
  checkDocker,
  DEFAULT_CACHE_DIR,
  ensureBotRuntimeImage,
  ImageBuildError,
  imageId,
  dockerBuild,
  parseImageArgs,
  parseRecipeFile,
  runImageScript,
} from './build-images.ts';
import { AGENT_RECIPE_PATH, agentRuntimeTag, canonicalJson } from './image-tags.ts';

const AgentRecipeSchema = z.object({
  image: z.string().regex(/^[a-z0-9][a-z0-9._/-]*$/),
  description: z.string().optional(),
  /** npm package → exact version. */
  clis: z.record(
    z.string().regex(/^(@[a-z0-9-]+\/)?[a-z0-9._-]+$/),
    z.string().regex(/^\d+\.\d+\.\d+$/, 'pin an exact version'),
  ),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()),
});
export type AgentRecipe = z.infer<typeof AgentRecipeSchema>;

export function loadAgentRecipe(file = AGENT_RECIPE_PATH): AgentRecipe {
  return parseRecipeFile(file, AgentRecipeSchema);
}

export interface EnsureAgentImageOptions {
  force?: boolean;
  cacheDir?: string;
  log?: (line: string) => void;
}

export interface EnsureAgentImageResult {
  tag: string;
  built: boolean;
  seconds: number;
  /** What each CLI printed for --version inside the image (built or existing). */
  versions: Record<string, string>;
}

/** The command of each CLI in the image, by package. */
export const CLI_COMMANDS: Record<string, string> = Object.fromEntries(AGENT_CLIS.map((c) => [c.package, c.command]));

/** Runs `<cli> --version` for every CLI in the image, with no network. */
export async function cliVersions(
  tag: string,
  recipe: AgentRecipe = loadAgentRecipe(),
): Promise<Record<string, string>> {
  const commands = Object.keys(recipe.clis).map((pkg) => CLI_COMMANDS[pkg] ?? pkg.split('/').pop()!);
  const script = commands.map((c) => `printf '%s\\t' ${c}; ${c} --version </dev/null 2>&1 | tail -1`).join('; ');
  const r = await execa('docker', ['run', '--rm', '--network', 'none', '-e', 'HOME=/tmp', tag, 'bash', '-c', script], {
    reject: false,
    timeout: 180_000,
  });
  if (r.exitCode !== 0)
    throw new ImageBuildError(
      `the CLIs in ${tag} do not start: ${String(r.stderr || r.stdout)
        .trim()
        .slice(-500)}`,
    );
  return Object.fromEntries(
    String(r.stdout)
      .trim()
      .split('\n')
      .map((line) => line.split('\t') as [string, string])
      .map(([c, v]) => [c, (v ?? '').trim()]),
  );
}

export async function ensureAgentRuntimeImage(options: EnsureAgentImageOptions = {}): Promise<EnsureAgentImageResult> {
  const started = Date.now();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const secs = () => Math.round((Date.now() - started) / 100) / 10;
  const recipe = loadAgentRecipe();
  const tag = agentRuntimeTag(recipe);
  await checkDocker();
  if (!options.force && (await imageId(tag))) {
    log(`agent-runtime: up to date (${tag})`);
    return { tag, built: false, seconds: secs(), versions: await cliVersions(tag, recipe) };
  }
  const base = (await ensureBotRuntimeImage({ log })).tag;

  // The npm install is cached per CLI set (and Node version): a rebuild for a new base image reuses it.
  const cacheDir = path.resolve(options.cacheDir || process.env.CATARENA_IMAGE_CACHE || DEFAULT_CACHE_DIR);
  const clisKey = crypto
    .createHash('sha256')
    .update(canonicalJson({ clis: recipe.clis, node: process.version }))
    .digest('hex')
    .slice(0, 12);
  const context = path.join(cacheDir, `agent-runtime-${clisKey}`);
  const clisDir = path.join(context, 'clis');
  const done = path.join(clisDir, '.catarena-complete');
  fs.mkdirSync(clisDir, { recursive: true });
  if (!fs.existsSync(done) || options.force) {
    const specs = Object.entries(recipe.clis).map(([pkg, v]) => `${pkg}@${v}`);
    log(`agent-runtime: npm install ${specs.join(' ')} (about 30 s, ~800 MB)`);
    fs.rmSync(path.join(clisDir, 'node_modules'), { recursive: true, force: true });
    fs.writeFileSync(
      path.join(clisDir, 'package.json'),
      JSON.stringify({ name: 'catarena-agent-clis', private: true }, null, 2),
    );
    const r = await execa('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--omit=dev', ...specs], {
      cwd: clisDir,
      reject: false,
      all: true,
      timeout: 20 * 60_000,
    });
    if (r.exitCode !== 0) {
      throw new ImageBuildError(
        `npm install of the CLI agents failed (exit ${r.exitCode}):\n  ${String(r.all ?? '')
          .trim()
          .split('\n')
          .slice(-8)
          .join('\n  ')}\nIs the npm registry reachable (npm config get registry)?`,
      );
    }
    fs.writeFileSync(done, `${specs.join('\n')}\n`);
    log(`agent-runtime: [${secs()}s] CLIs installed`);
  }
  // The host's Node: the CLIs need Node >= 20, and both sides are Debian 12 (same glibc).
  const nodeDir = path.join(context, 'node', 'bin');
  fs.mkdirSync(nodeDir, { recursive: true });
  fs.copyFileSync(process.execPath, path.join(nodeDir, 'node'));
  fs.chmodSync(path.join(nodeDir, 'node'), 0o755);
  fs.writeFileSync(path.join(context, '.dockerignore'), 'clis/package.json\nclis/.catarena-complete\n');
  fs.writeFileSync(
    path.join(context, 'Dockerfile'),
    [
      `FROM ${base}`,
      'COPY node/ /opt/catarena/node/',
      'COPY clis/node_modules/ /opt/catarena/clis/node_modules/',
      ...Object.entries(recipe.env).map(([k, v]) => `ENV ${k}=${JSON.stringify(v)}`),
      `LABEL org.catarena.image=${JSON.stringify(recipe.image)} org.catarena.clis=${JSON.stringify(
        Object.entries(recipe.clis)
          .map(([p, v]) => `${p}@${v}`)
          .join(' '),
      )}`,
      '',
    ].join('\n'),
  );
  log(`agent-runtime: docker build ${tag} FROM ${base}`);
  await dockerBuild(context, tag, `${recipe.image}:latest`);
  const versions = await cliVersions(tag, recipe);
  log(
    `agent-runtime: [${secs()}s] built ${tag}: ${Object.entries(versions)
      .map(([c, v]) => `${c} ${v}`)
      .join(', ')}`,
  );
  return { tag, built: true, seconds: secs(), versions };
}

function usage(): string {
  return [
    'usage: node --import tsx docker/build-agent-image.ts [--force] [--cache-dir DIR]',
    '  builds catarena/agent-runtime:<hash> (and :latest) offline: the bot runtime image (built first if',
    "  missing), the host's Node, and the CLI agents of docker/agent-runtime/recipe.json installed by npm",
    "  on the host. Prints the tag, then each CLI's version.",
    `  env: CATARENA_IMAGE_CACHE (default ${DEFAULT_CACHE_DIR})`,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runImageScript('build-agent-image', async () => {
    const args = parseImageArgs(process.argv.slice(2), usage);
    if (args.help) return void console.log(usage());
    const r = await ensureAgentRuntimeImage({ force: args.force || undefined, cacheDir: args.cacheDir });
    console.log(r.tag);
    for (const [cli, version] of Object.entries(r.versions)) console.log(`${cli}\t${version}`);
  });
}
