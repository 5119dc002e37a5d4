// Retention: `catarena prune --keep N / --older-than D` on a runs folder deletes finished runs only
// (never one running, nor one that failed or was killed: it may be resumed), drops their lines from
// index.jsonl and the queue's run list (a real redis-server), and --dry-run changes nothing; a
// worker's artifact cache deletes folders no job used for its age limit (each use renews it) and
// half-done unpacks, and nothing else in the folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evictArtifacts } from '../orchestrator/queue/artifact-cache.ts';
import { ArtifactStore } from '../orchestrator/queue/artifacts.ts';
import { withRedis } from '../orchestrator/queue/connection.ts';
import { readIndexFile, readIndexRedis, RUNS_KEY } from '../orchestrator/run/run-index.ts';
import { startTimeOf } from '../util/procfs.mjs';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';

const DAY = 86_400_000;

/** A run folder `name` in `out` as a tourney leaves it, `daysAgo` old, in state `state`. */
function run(out: string, name: string, daysAgo: number, state: 'finished' | 'running' | 'failed', pid = 2 ** 22 + 1) {
  const dir = path.join(out, name);
  fs.mkdirSync(path.join(dir, 'replays'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.json'), '{}');
  fs.writeFileSync(path.join(dir, 'replays', 'x.json.gz'), Buffer.alloc(10_000));
  const at = new Date(Date.now() - daysAgo * DAY).toISOString();
  fs.writeFileSync(
    path.join(dir, 'status.json'),
    JSON.stringify({
      state,
      kind: 'tourney',
      pid,
      pidStart: startTimeOf(pid),
      host: os.hostname(),
      startedAt: at,
      updatedAt: at,
    }),
  );
  if (state === 'finished') {
    const entry = {
      runId: name,
      runDir: dir,
      schedule: name.split('-')[0],
      finishedAt: at,
      games: ['gomoku'],
      rounds: 1,
      matches: 2,
      reused: 0,
      leaderboard: [],
    };
    fs.appendFileSync(path.join(out, 'index.jsonl'), `${JSON.stringify(entry)}\n`);
    return entry;
  }
  return undefined;
}

/** Five finished nightly runs (1–5 days old), a weekly one (30 days), one running now (this process, 40 days) and one failed (50 days). */
function runsFolder() {
  const out = tempDir('catarena-retention-');
  const entries = [1, 2, 3, 4, 5].map((d) => run(out, `nightly-2026010${d}-020000`, d, 'finished')!);
  entries.push(run(out, 'weekly-20251201-020000', 30, 'finished')!);
  run(out, 'nightly-20251101-020000', 40, 'running', process.pid);
  run(out, 'nightly-20251020-020000', 50, 'failed');
  return { out, entries };
}
const left = (out: string) =>
  fs
    .readdirSync(out)
    .filter((n) => fs.statSync(path.join(out, n)).isDirectory())
    .sort();

describe('retention: prune --keep / --older-than, the artifact cache', () => {
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    if (hasRedis()) redis = await startRedis();
  }, 30_000);
  afterAll(() => redis?.stop());

  it('--keep deletes only finished runs beyond the newest n, with their index lines; --dry-run deletes nothing', async () => {
    const { out, entries } = runsFolder();
    const before = left(out);
    const dry = await catarena('prune', '--keep', '2', '--dry-run', out);
    expect(dry.stdout, dry.stderr).toMatch(
      /would delete 4 finished run\(s\), .*; kept 2 finished, left 2 not finished alone/,
    );
    expect(left(out)).toEqual(before);
    if (redis) await withRedis(redis.url, (r) => r.rpush(RUNS_KEY, ...entries.map((e) => JSON.stringify(e))));
    const done = await catarena('prune', '--keep', '2', out, ...(redis ? ['--queue', redis.url] : []));
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/left +.*nightly-20251101-020000 +\(running\)/);
    expect(done.stdout).toMatch(/left +.*nightly-20251020-020000 +\(failed\)/);
    expect(left(out)).toEqual([
      'nightly-20251020-020000',
      'nightly-20251101-020000',
      'nightly-20260101-020000',
      'nightly-20260102-020000',
    ]);
    expect((await readIndexFile(path.join(out, 'index.jsonl'))).map((e) => e.runId)).toEqual([
      'nightly-20260101-020000',
      'nightly-20260102-020000',
    ]);
    if (redis)
      expect((await withRedis(redis.url, readIndexRedis)).map((e) => e.runId).sort()).toEqual([
        'nightly-20260101-020000',
        'nightly-20260102-020000',
      ]);
    // history no longer lists them; the page was written again.
    const history = await catarena('history', '-o', out);
    expect(history.stdout).not.toContain('nightly-20260103');
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).not.toContain('nightly-20260103');
  }, 30_000);

  it("--older-than with --schedule deletes only that schedule's older runs; the old form still makes runs small", async () => {
    const { out } = runsFolder();
    const done = await catarena('prune', '--older-than', '3d', '--schedule', 'nightly', out);
    expect(done.code, done.stderr).toBe(0);
    expect(left(out)).toEqual([
      'nightly-20251020-020000',
      'nightly-20251101-020000',
      'nightly-20260101-020000',
      'nightly-20260102-020000',
      'weekly-20251201-020000',
    ]);
    const bad = await catarena('prune', '--older-than', 'a week', out);
    expect(bad.stderr).toMatch(/--older-than a week: give a number and a unit, e.g. 30d/);
    const runDir = await catarena('prune', '--keep', '1', path.join(out, 'weekly-20251201-020000'));
    expect(runDir.stderr).toMatch(/is a run directory; --keep and --older-than take the folder that holds the runs/);
    expect(left(out)).toContain('weekly-20251201-020000');
    // Without --keep / --older-than a run directory is made small, as before (here: nothing to free, no metrics).
    const small = await catarena('prune', path.join(out, 'nightly-20251020-020000'));
    expect(small.stderr).toMatch(/has not finished \(no metrics.json\)/);
  }, 30_000);

  it.runIf(hasRedis())(
    'the artifact cache: folders unused for the age limit go, a used one stays',
    async () => {
      const cache = tempDir('catarena-artifact-cache-');
      const { used, unused } = await withRedis(redis!.url, async (r) => {
        const store = new ArtifactStore(r);
        const [a, b] = [await store.put(BUILTIN('random')), await store.put(BUILTIN('heuristic'))];
        return { used: await store.fetch(a, cache), unused: await store.fetch(b, cache) };
      });
      const old = new Date(Date.now() - 20 * DAY);
      for (const dir of [used, unused]) fs.utimesSync(dir, old, old);
      const stale = `${unused}.tmp-1-abc`;
      fs.mkdirSync(stale);
      fs.utimesSync(stale, old, old);
      fs.mkdirSync(path.join(cache, 'not-an-artifact'));
      fs.utimesSync(path.join(cache, 'not-an-artifact'), old, old);
      // A job uses `used` again: its folder is renewed.
      await withRedis(redis!.url, (r) => new ArtifactStore(r).fetch(path.basename(used), cache));
      const { removed, bytes } = await evictArtifacts(cache, { maxAgeMs: 14 * DAY });
      expect(removed).toBe(2);
      expect(bytes).toBeGreaterThan(1_000);
      expect(fs.readdirSync(cache).sort()).toEqual([path.basename(used), 'not-an-artifact'].sort());
    },
    30_000,
  );
});
