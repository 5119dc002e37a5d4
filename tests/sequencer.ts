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
    const longestFirst = [...files].sort((a, b) => durationMs(b) - durationMs(a));
    // Two workers run neighbours in this list side by side. Files that mostly wait (for delayed
    // bots, restarts, timeouts) left a core idle when they met: the two queue files started
    // together idled about 15 core-seconds of a full run, tourney-warm-bots beside sandbox-process
    // about 14. So waiting files alternate with the others, each list still longest first.
    const waits = (spec: TestSpecification) => MOSTLY_WAITING.has(path.basename(spec.moduleId));
    const waiting = longestFirst.filter(waits);
    const busy = longestFirst.filter((f) => !waits(f));
    const order: TestSpecification[] = [];
    while (waiting.length || busy.length) {
      const next =
        waiting.length && (!busy.length || !order.length || !waits(order.at(-1)!)) ? waiting.shift()! : busy.shift()!;
      order.push(next);
    }
    return order;
  }
}

/**
 * Files whose CPU time, run alone, is well under their wall time (user + sys / wall, measured
 * here): queue-redis 0.76, sandbox-process 0.57, llm-player 0.75, tourney-warm-bots 0.91; and
 * queue-workers, whose time beside queue-redis was mostly waiting.
 */
const MOSTLY_WAITING = new Set([
  'queue-redis.test.ts',
  'queue-workers.test.ts',
  'sandbox-process.test.ts',
  'llm-player.test.ts',
  'tourney-warm-bots.test.ts',
]);
