// Longest test files first, so the workers finish together instead of one running a 90-second
// file alone at the end. Vitest's own order uses the durations it cached on this machine, which a
// fresh clone (CI) does not have (files then ran in name order, the slow queue files last) and
// which a run of one test (-t) replaces with that test's time. So: the duration measured in a
// full run, tests/durations.json (rewrite it with `npm run test:durations` after `npm test`), else
// vitest's cached one for a file the table does not know yet, else 0; what failed last time first.
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
      const measuredS = table[file.split(path.sep).join('/')];
      return measuredS !== undefined ? measuredS * 1000 : (cached?.duration ?? 0);
    };
    return [...files].sort((a, b) => durationMs(b) - durationMs(a));
  }
}
