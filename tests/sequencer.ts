// Longest test files first, so the two workers finish together instead of one running a
// 90-second file alone at the end. Vitest's own order uses the durations it cached from the last
// run on this machine; a fresh clone (CI) has none and runs files in name order, which started the
// slow queue files last. So: the cached duration when there is one, else the measured duration in
// tests/durations.json (rewrite it with `npm run test:durations` after a full run), else 0.
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TABLE = path.join(import.meta.dirname, 'durations.json');

function measured(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(TABLE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const table = measured();
    const root = this.ctx.config.root;
    const durationMs = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      if (cached?.failed) return Number.POSITIVE_INFINITY; // what failed last time, first
      return cached?.duration ?? (table[file.split(path.sep).join('/')] ?? 0) * 1000;
    };
    return [...files].sort((a, b) => durationMs(b) - durationMs(a));
  }
}
