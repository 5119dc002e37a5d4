// The project's source files (relative to the root) that the structure tests read: layers.test
// (imports) and run-layout.test (run-file names). Bot folders, data and node_modules are left out.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

const TOPS = [
  'records',
  'util',
  'games',
  'sandbox',
  'docker',
  'reports',
  'agents',
  'orchestrator',
  'bin',
  'bench',
  'scripts',
];
const SKIP = new Set(['node_modules', 'bots', 'results']);

/** Every .ts, .mts and .mjs source under the project's code folders (declaration files aside). */
export function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name)) walk(rel);
      } else if (/\.(ts|mts|mjs)$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name)) out.push(rel);
    }
  };
  for (const top of TOPS) if (fs.existsSync(path.join(ROOT, top))) walk(top);
  return out;
}
