#!/usr/bin/env node
// Compiles catarena's TypeScript sources to JavaScript in .build/ (same tree, .ts → .js, relative
// imports rewritten), so the CLI starts without transpiling anything, then bundles the CLI's entry
// over that tree (bundleEntries): a tourney loads about 110 files instead of 600. `npm install` runs it
// (prepare); bin/catarena.mjs runs it again when a source is newer than the build. Bot folders and
// data stay where they are: the code finds them from the project root (util/paths.ts).
//   node scripts/build.mjs          build if stale, say so
//   node scripts/build.mjs --force  build even if fresh
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUILD_DIR = path.join(ROOT, '.build');
const MANIFEST = path.join(BUILD_DIR, 'manifest.json');
const SOURCE_DIRS = ['records', 'util', 'games', 'orchestrator', 'sandbox', 'agents', 'reports', 'docker'];
/** Folders that hold bots or data, never code the CLI imports. */
const SKIP_DIRS = new Set(['node_modules', 'bots', 'bot', 'env', '.build']);

/** Every source file the CLI may load: .ts (compiled), .mjs and .json data it imports and sandbox/*.py it runs (copied), relative to the root. */
function sources() {
  const out = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(child);
      } else if (
        (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) ||
        entry.name.endsWith('.mjs') ||
        entry.name.endsWith('.json') ||
        (rel === 'sandbox' && entry.name.endsWith('.py')) // the isolated sandbox's port broker
      )
        out.push(child);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return out.sort();
}

/** The sources' fingerprint: how many there are and the newest modification time. */
function fingerprint(files) {
  let newest = 0;
  for (const f of files) newest = Math.max(newest, fs.statSync(path.join(ROOT, f)).mtimeMs);
  for (const f of ['package.json', 'scripts/build.mjs'])
    newest = Math.max(newest, fs.statSync(path.join(ROOT, f)).mtimeMs);
  // The bundle holds the packages' code too: an install that changes node_modules (npm writes its
  // hidden lockfile then) makes the build stale, as a changed source does.
  for (const f of ['package-lock.json', 'node_modules/.package-lock.json']) {
    const stat = fs.statSync(path.join(ROOT, f), { throwIfNoEntry: false });
    if (stat) newest = Math.max(newest, stat.mtimeMs);
  }
  return { files: files.length, newest };
}

/** True when .build/ holds a build of the current sources. */
export function buildIsFresh() {
  try {
    const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));
    const now = fingerprint(sources());
    return manifest.files === now.files && manifest.newest === now.newest;
  } catch {
    return false;
  }
}

const RELATIVE_TS = /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\.ts\2/g;

/** Compiles every source into .build/; returns the number of files written. */
export async function build() {
  const { transform } = await import('esbuild');
  const files = sources();
  const stamp = fingerprint(files);
  const tmp = `${BUILD_DIR}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  await Promise.all(
    files.map(async (rel) => {
      const source = fs.readFileSync(path.join(ROOT, rel), 'utf8');
      let target = path.join(tmp, rel);
      let code = source;
      if (rel.endsWith('.ts')) {
        target = target.replace(/\.ts$/, '.js');
        ({ code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20.19', sourcefile: rel }));
        code = code.replace(RELATIVE_TS, (_, head, quote, spec) => `${head}${quote}${spec}.js${quote}`);
      }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, code);
    }),
  );
  await bundleEntries(tmp);
  fs.writeFileSync(path.join(tmp, 'manifest.json'), `${JSON.stringify(stamp)}\n`);
  // Swap in the new build whole, so a concurrent start never sees half of one.
  const old = `${BUILD_DIR}.old-${process.pid}`;
  if (fs.existsSync(BUILD_DIR)) fs.renameSync(BUILD_DIR, old);
  fs.renameSync(tmp, BUILD_DIR);
  fs.rmSync(old, { recursive: true, force: true });
  return files.length;
}

/** Packages left to Node's own loading: native add-ons (optional, tried in try/catch by their users) and tools the CLI never runs. */
const NOT_BUNDLED = [
  '*.node',
  'cpu-features',
  'ssh2',
  'msgpackr-extract',
  'fsevents',
  'playwright-core',
  'esbuild',
  'tsx',
];

/** The game modules loaded by URL (games/modules.ts), made entries so they share the CLI's chunks. */
function gameModuleEntries() {
  const kinds = ['agents/offline-kit.ts', 'reports/catarena-report.ts', 'viewer/data.ts'];
  return fs
    .readdirSync(path.join(ROOT, 'games'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => kinds.map((k) => path.join('games', d.name, k)))
    .filter((rel) => fs.existsSync(path.join(ROOT, rel)));
}

/**
 * Bundles the CLI (and the game modules it loads by URL) over the compiled tree: its entry files
 * replace their one-file versions and share chunks in .build/chunks/. Loading ~600 small modules
 * (ours and zod's, execa's, the AI SDK's) cost a `catarena tourney` or `worker` about 0.8 s of CPU
 * before it did anything, a bundle about half. Each module still sees its own place in the tree as
 * import.meta (rewritten below), so files beside it (models.json, port-broker.py, reaper.mjs) and
 * the game modules' URLs resolve as before, wherever the checkout lies.
 */
async function bundleEntries(out) {
  const { build: bundle } = await import('esbuild');
  await bundle({
    absWorkingDir: ROOT,
    entryPoints: ['orchestrator/cli/main.ts', ...gameModuleEntries()],
    outbase: ROOT,
    outdir: out,
    outExtension: { '.js': '.js' },
    chunkNames: 'chunks/[name]-[hash]',
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: NOT_BUNDLED,
    logLevel: 'error',
    // Every output file finds the build's root from its own URL; CommonJS packages get a require.
    banner: {
      js: [
        "import { createRequire as __catarenaRequire } from 'node:module';",
        "import { fileURLToPath as __catarenaPath } from 'node:url';",
        'const require = __catarenaRequire(import.meta.url);',
        "const __catarenaBuild = import.meta.url.slice(0, import.meta.url.lastIndexOf('/.build') + 1) + '.build/';",
        'const __catarenaBuildDir = __catarenaPath(__catarenaBuild);',
      ].join(' '),
    },
    plugins: [ownImportMeta(), packagesImportedLater()],
  });
}

/**
 * Packages the code loads with import() (yaml, dockerode) stay Node's: a bundled
 * CommonJS package imported so is a namespace holding only `default`, where Node gives its named
 * exports too (`(await import('yaml')).parse` was not a function). They load late anyway.
 */
function packagesImportedLater() {
  return {
    name: 'packages-imported-later',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) =>
        args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
      );
    },
  };
}

/** Rewrites import.meta.url, .dirname and .filename in catarena's own modules to their place in the compiled tree. */
function ownImportMeta() {
  return {
    name: 'own-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.(ts|mjs|js)$/ }, (args) => {
        const rel = path.relative(ROOT, args.path);
        if (rel.startsWith('..') || rel.split(path.sep).includes('node_modules')) return undefined;
        const compiled = rel.replace(/\.ts$/, '.js').split(path.sep).join('/');
        const dir = path.posix.dirname(compiled);
        const code = fs
          .readFileSync(args.path, 'utf8')
          .replaceAll('import.meta.url', `(__catarenaBuild + ${JSON.stringify(compiled)})`)
          .replaceAll('import.meta.dirname', `(__catarenaBuildDir + ${JSON.stringify(dir)})`)
          .replaceAll('import.meta.filename', `(__catarenaBuildDir + ${JSON.stringify(compiled)})`);
        return { contents: code, loader: rel.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  if (!force && buildIsFresh()) console.log('build: .build/ is up to date');
  else {
    const started = performance.now();
    const n = await build();
    console.log(`build: compiled ${n} files into .build/ in ${Math.round(performance.now() - started)} ms`);
  }
}
