// "Valid lines of code" of a bot folder (the paper's Appendix L cost measure): non-blank lines of
// source files, recursively, skipping dependency and cache folders.
import fs from 'node:fs/promises';
import path from 'node:path';

const CODE_EXT = /\.(sh|mjs|js|cjs|ts|py|go|rs|java|c|cc|cpp|h|hpp)$/;
const SKIP = new Set(['node_modules', '__pycache__', '.git', 'venv', '.venv']);

export async function linesOfCode(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) total += await linesOfCode(full);
    } else if (entry.isFile() && CODE_EXT.test(entry.name)) {
      total += (await fs.readFile(full, 'utf8')).split('\n').filter((l) => l.trim()).length;
    }
  }
  return total;
}
