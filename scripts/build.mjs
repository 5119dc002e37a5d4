#!/usr/bin/env node
// Compiles catarena's TypeScript sources to JavaScript in .build/ (same tree, .ts → .js, relative
// imports rewritten), so the CLI starts without transpiling anything. `npm install` runs it
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
  fs.writeFileSync(path.join(tmp, 'manifest.json'), `${JSON.stringify(stamp)}\n`);
  // Swap in the new build whole, so a concurrent start never sees half of one.
  const old = `${BUILD_DIR}.old-${process.pid}`;
  if (fs.existsSync(BUILD_DIR)) fs.renameSync(BUILD_DIR, old);
  fs.renameSync(tmp, BUILD_DIR);
  fs.rmSync(old, { recursive: true, force: true });
  return files.length;
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
