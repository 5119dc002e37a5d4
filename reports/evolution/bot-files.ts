// The files of a bot folder that count as its source, read once for the diff, the fingerprints
// and the profile: dependency, cache and build folders are not walked, and generated, vendored,
// binary and large files are listed as skipped with the reason, never read as source.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Languages the tokeniser knows; `null` on a file means data or documentation (JSON, Markdown …). */
export type Language =
  | 'python'
  | 'javascript'
  | 'typescript'
  | 'go'
  | 'c'
  | 'cpp'
  | 'java'
  | 'rust'
  | 'csharp'
  | 'shell';

export interface BotFile {
  /** Path inside the bot folder, with forward slashes. */
  path: string;
  lang: Language | null;
  bytes: number;
  text: string;
}

export interface SkippedFile {
  path: string;
  why: 'vendored' | 'generated' | 'binary' | 'large' | 'limit';
  bytes?: number;
}

export interface BotFiles {
  files: BotFile[];
  skipped: SkippedFile[];
}

/** Limits that keep a huge bot folder from slowing the report down. */
export const BOT_FILE_LIMITS = { maxFileBytes: 256 * 1024, maxFiles: 2000, maxTotalBytes: 8 * 1024 * 1024 } as const;

/** Folders never walked: dependencies, caches, virtual environments, version control, build output. */
const SKIP_DIRS = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  '__pycache__',
  '.git',
  '.hg',
  '.svn',
  'venv',
  '.venv',
  'site-packages',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.cache',
  '.idea',
  '.vscode',
  '.tox',
  '.eggs',
  'target',
  'vendor',
  'dist',
  'build',
  '.next',
]);

/** Lock files and other generated files. */
const GENERATED =
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|Pipfile\.lock|go\.sum|Cargo\.lock|composer\.lock|nohup\.out)$|\.(min\.js|min\.css|map|log|pyc|pyo|d\.ts)$/;

/** Compiled, packed, model and media files: never source. */
const BINARY_EXT =
  /\.(so|o|a|dylib|dll|exe|class|jar|war|whl|egg|pyd|wasm|bin|dat|pkl|pickle|joblib|npy|npz|pt|pth|onnx|h5|pb|tflite|ckpt|safetensors|db|sqlite|zip|gz|tgz|bz2|xz|7z|tar|png|jpe?g|gif|bmp|ico|pdf|woff2?|ttf|otf|mp3|mp4|wav)$/i;

const LANGUAGE_BY_EXT: Record<string, Language> = {
  py: 'python',
  pyw: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  go: 'go',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  java: 'java',
  kt: 'java',
  scala: 'java',
  rs: 'rust',
  cs: 'csharp',
  sh: 'shell',
  bash: 'shell',
};

/** The language of a file by its name, or null for data and documentation. */
export function languageOf(file: string): Language | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file)?.[1]?.toLowerCase();
  return (ext && LANGUAGE_BY_EXT[ext]) || null;
}

/** Why a file is left out by its name alone, or null. */
export function skipByName(rel: string): SkippedFile['why'] | null {
  if (GENERATED.test(rel)) return 'generated';
  if (BINARY_EXT.test(rel)) return 'binary';
  return null;
}

/** Whether the folder is walked at all. */
export const walkedDir = (name: string) =>
  !SKIP_DIRS.has(name) && !name.endsWith('.egg-info') && !name.endsWith('.dist-info');

/** Reads a bot folder's source files (sorted by path); a missing folder is an empty bot. */
export async function readBot(dir: string, limits = BOT_FILE_LIMITS): Promise<BotFiles> {
  const files: BotFile[] = [];
  const skipped: SkippedFile[] = [];
  let total = 0;
  const walk = async (rel: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (walkedDir(e.name)) await walk(child);
        else skipped.push({ path: `${child}/`, why: 'vendored' });
        continue;
      }
      if (!e.isFile()) continue;
      const byName = skipByName(child);
      if (byName) {
        skipped.push({ path: child, why: byName });
        continue;
      }
      if (files.length >= limits.maxFiles) {
        skipped.push({ path: child, why: 'limit' });
        continue;
      }
      const full = path.join(dir, child);
      const { size } = await fs.stat(full);
      if (size > limits.maxFileBytes) {
        skipped.push({ path: child, why: 'large', bytes: size });
        continue;
      }
      if (total + size > limits.maxTotalBytes) {
        skipped.push({ path: child, why: 'limit', bytes: size });
        continue;
      }
      const buf = await fs.readFile(full);
      if (buf.subarray(0, 8192).includes(0)) {
        skipped.push({ path: child, why: 'binary', bytes: size });
        continue;
      }
      total += size;
      files.push({ path: child, lang: languageOf(child), bytes: size, text: buf.toString('utf8') });
    }
  };
  await walk('');
  return { files, skipped };
}

/** Non-blank lines of a text. */
export const nonBlankLines = (text: string) => {
  let n = 0;
  for (const line of text.split('\n')) if (line.trim()) n++;
  return n;
};
