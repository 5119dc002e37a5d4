// `rate` (orchestrator/rate.ts) twice on one bot with different seeds: different games (the
// Gomoku variant's forbidden cells follow the seed), intervals that overlap. Gomoku's variant
// because it is the quickest game to play here and its games change with the seed; the fit and
// the opponent choice are game-agnostic.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rateBot } from '../orchestrator/rate.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { referenceBotDir } from '../util/paths.ts';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-rate-seeds-'));
const sandbox = createSandbox('process');
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const rate = (seed: number) =>
  rateBot({
    game: 'gomoku',
    variant: 'variant',
    bot: { id: 'heuristic', dir: referenceBotDir('gomoku', 'heuristic') },
    seed,
    targetWidth: 400,
    maxGames: 8,
    concurrency: 1,
    limits: { ...DEFAULT_LIMITS, moveMs: 10_000 },
    policy: 'strict',
    runDir: path.join(work, `seed-${seed}`),
    sandbox,
  });

describe('rate with two seeds', () => {
  it('the same bot rated twice on different games: the intervals overlap', async () => {
    const [a, b] = await Promise.all([rate(1), rate(2)]);
    expect(a.seed).toBe(1);
    expect(b.seed).toBe(2);
    expect(a.games).toBeGreaterThan(0);
    expect(b.games).toBeGreaterThan(0);
    expect(Math.max(a.lo, b.lo)).toBeLessThanOrEqual(Math.min(a.hi, b.hi));
    // Different seeds played different games.
    const ids = (dir: string) => fs.readdirSync(path.join(dir, 'replays')).sort();
    expect(ids(path.join(work, 'seed-1'))).not.toEqual(ids(path.join(work, 'seed-2')));
  }, 60_000);
});
