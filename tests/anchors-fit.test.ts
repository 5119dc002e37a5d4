// Anchor pools (orchestrator/anchors.ts, docs/anchors.md): a small committed pool (three
// deterministic Gomoku-variant heuristics, 12 games) refitted from scratch gives its committed
// ratings, each inside its committed interval and, the anchors being deterministic, exactly; a
// fitted pool version is never refitted; and a pool whose anchors' code changed since its fit is
// refused before any game is played.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anchorCode,
  anchorsTempDir,
  checkAnchorCode,
  fitAnchorPool,
  materializeAnchors,
  readAnchors,
} from '../orchestrator/anchors.ts';
import { gameIds } from '../games/registry.ts';
import { rateBot } from '../orchestrator/rate.ts';
import type { AnchorsFile } from '../records/anchors.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { referenceBotDir } from '../util/paths.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'anchors', 'gomoku-small.json');
const committed = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as AnchorsFile;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-anchors-test-'));
const sandbox = createSandbox('process');
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(work, { recursive: true, force: true });
});

function writeFile(name: string, data: AnchorsFile): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, JSON.stringify(data));
  return file;
}

describe('anchor pools', () => {
  it('a refit of the small pool gives the committed ratings, inside their intervals', async () => {
    const pool = committed.pools.variant![0]!;
    const fit = pool.fit!;
    const file = writeFile('refit.json', { ...committed, pools: { variant: [{ ...pool, fit: undefined }] } });
    const refit = await fitAnchorPool({
      game: 'gomoku',
      variant: 'variant',
      file,
      reps: fit.reps,
      seed: fit.seed,
      concurrency: 2,
      sandbox,
      runDir: path.join(work, 'refit-run'),
    });
    expect(refit.fit!.games).toBe(fit.games);
    expect(refit.fit!.code).toEqual(fit.code);
    for (const want of fit.ratings) {
      const got = refit.fit!.ratings.find((r) => r.id === want.id)!;
      expect(got.elo).toBeGreaterThanOrEqual(want.lo);
      expect(got.elo).toBeLessThanOrEqual(want.hi);
      expect(got.elo).toBeCloseTo(want.elo, 6);
      expect(got.games).toBe(want.games);
    }
    // Written back to the file, with the pool version and the seed.
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as AnchorsFile;
    expect(written.pools.variant![0]!.fit!.seed).toBe(fit.seed);
    expect(written.pools.variant![0]!.version).toBe(1);
  }, 60_000);

  it('every committed pool version still matches its anchors’ code (else: a new version, refitted)', async () => {
    let checked = 0;
    for (const game of gameIds()) {
      const file = await readAnchors(game);
      for (const [variant, versions] of Object.entries(file.pools))
        for (const pool of versions.filter((p) => p.fit)) {
          const temp = await anchorsTempDir();
          try {
            const refs = await materializeAnchors(game, pool.anchors, temp.dir);
            checkAnchorCode(game, variant, pool, await anchorCode(refs));
            checked++;
          } finally {
            await temp.remove();
          }
        }
    }
    expect(checked).toBe(10); // five games, both rule sets
  });

  it('a fitted version is never refitted: its numbers stay', async () => {
    const file = writeFile('fitted.json', committed);
    const before = fs.readFileSync(file, 'utf8');
    await expect(
      fitAnchorPool({
        game: 'gomoku',
        variant: 'variant',
        file,
        reps: 1,
        seed: 9,
        concurrency: 1,
        sandbox,
        runDir: path.join(work, 'refused-run'),
      }),
    ).rejects.toThrow(/fitted already.*add a version 2/);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('rate refuses a pool whose anchor code changed since its fit, before any game', async () => {
    const pool = structuredClone(committed.pools.variant![0]!);
    pool.fit!.code['anchor-d1'] = '0'.repeat(64); // what a changed bots/heuristic looks like
    const file = writeFile('changed.json', { ...committed, pools: { variant: [pool] } });
    const runDir = path.join(work, 'changed-run');
    await expect(
      rateBot({
        game: 'gomoku',
        variant: 'variant',
        bot: { id: 'candidate', dir: referenceBotDir('gomoku', 'random') },
        seed: 1,
        targetWidth: 100,
        maxGames: 4,
        anchorsFile: file,
        concurrency: 1,
        limits: DEFAULT_LIMITS,
        policy: 'strict',
        runDir,
        sandbox,
      }),
    ).rejects.toThrow(/anchor-d1 changed since the pool was fitted/);
    expect(fs.existsSync(path.join(runDir, 'journal.jsonl'))).toBe(false);
  });

  it('a bot named like an anchor, or a pool version that does not exist, is refused with what to do', async () => {
    const file = writeFile('named.json', committed);
    const base = {
      game: 'gomoku',
      variant: 'variant',
      seed: 1,
      targetWidth: 100,
      maxGames: 4,
      anchorsFile: file,
      concurrency: 1 as const,
      limits: DEFAULT_LIMITS,
      policy: 'strict' as const,
      sandbox,
    };
    const dir = referenceBotDir('gomoku', 'random');
    await expect(
      rateBot({ ...base, bot: { id: 'anchor-d1', dir }, runDir: path.join(work, 'named-run') }),
    ).rejects.toThrow(/is an anchor's; rename its folder/);
    await expect(
      rateBot({ ...base, bot: { id: 'mine', dir }, poolVersion: 7, runDir: path.join(work, 'v7-run') }),
    ).rejects.toThrow(/no anchor pool version 7 \(versions: 1\)/);
  });
});
