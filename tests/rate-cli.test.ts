// `catarena rate` through the real CLI (orchestrator/cli/rate-command.ts): the reference heuristic
// and the random bot, rated on the Gomoku-variant anchor pool, get intervals that do not overlap,
// and every game each played is in its run directory's journal with its replay. Gomoku's variant
// because it is the quickest game to play here (a random bot's game lasts a second) and its
// forbidden cells change with each game's seed, so repeated games differ; the fit and the opponent
// choice are game-agnostic (reports/metrics/anchored.ts, orchestrator/rate.ts).
// Over 30 s: on a loaded machine it can be: the reference heuristic thinks up to 1.3 s a move
// and its rating needs some ten games; on an idle one the file takes about 10 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnchoredRating } from '../records/anchors.ts';
import { RUN_FILES } from '../records/run-layout.ts';
import { catarena } from './helpers/cli.ts';

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-rate-cli-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

async function rate(bot: string, maxGames: number): Promise<AnchoredRating & { runDir: string }> {
  const args = ['rate', bot, '-g', 'gomoku', '-V', 'variant', '--max-games', String(maxGames), '--target-width', '400'];
  const r = await catarena(...args, '--concurrency', '1', '--out', out, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('catarena rate', () => {
  it('the heuristic and the random bot: intervals apart, every game journaled with its replay', async () => {
    // The random bot and the random anchor draw with Math.random: in 10 games its upper bound once
    // reached 84 against the heuristic's lower 13 (usually -410 to -90); 16 games (a second each)
    // narrow it to about -450 to -130.
    const [heuristic, random] = await Promise.all([rate('builtin:heuristic', 10), rate('builtin:random', 16)]);
    expect(random.hi, JSON.stringify(random)).toBeLessThan(heuristic.lo);
    for (const [r, most] of [
      [heuristic, 10],
      [random, 16],
    ] as const) {
      expect(r.poolVersion).toBe(1);
      expect(r.games).toBeGreaterThan(0);
      expect(r.games).toBeLessThanOrEqual(most);
      const journal = fs
        .readFileSync(path.join(r.runDir, RUN_FILES.journal), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; spec: { seats: string[] } });
      expect(journal).toHaveLength(r.games);
      for (const game of journal) {
        expect(game.spec.seats).toContain(r.bot);
        expect(fs.existsSync(path.join(r.runDir, 'replays', `${game.id}.json.gz`))).toBe(true);
      }
      const saved = JSON.parse(fs.readFileSync(path.join(r.runDir, RUN_FILES.rate), 'utf8')) as AnchoredRating;
      expect(saved.elo).toBe(r.elo);
    }
  }, 60_000);
});
