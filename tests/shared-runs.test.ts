// The lock of tests/helpers/shared-runs.ts: a file waiting for a run another worker plays gets it
// when it is done, and fails at once, naming the run, when that worker died without finishing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir, sharedRunDir } from './helpers/shared-runs.ts';

const lockedBy = (name: string, pid: number) => {
  const home = path.join(sharedDir(), name);
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(path.join(home, 'owner'), String(pid));
  return home;
};

describe('shared test runs', () => {
  it('a waiting file gets the run once its player marks it done', async () => {
    const home = lockedBy(`waits-${process.pid}`, process.pid);
    setTimeout(() => fs.writeFileSync(path.join(home, 'done'), ''), 300);
    await expect(sharedRunDir(path.basename(home), { games: ['gomoku'] })).resolves.toBe(path.join(home, 'run'));
  });

  it('a waiting file fails at once when the worker playing the run is gone', async () => {
    const gone = spawnSync('true').pid!; // exited and reaped: no process has this pid now
    const home = lockedBy(`orphaned-${process.pid}`, gone);
    const started = Date.now();
    await expect(sharedRunDir(path.basename(home), { games: ['gomoku'] })).rejects.toThrow(
      `was being played by test worker ${gone}, which is gone`,
    );
    expect(Date.now() - started).toBeLessThan(30_000); // not the 300 s deadline
  });
});
