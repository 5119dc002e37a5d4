// `play --games 1e9` once spent 108 s building a schedule, reached 4.6 GB, ignored SIGTERM and
// died out of memory. Numbers beyond what one run may schedule are refused at once, before a bot
// starts or a schedule is built, with the limit in the message.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ARENA_GAMES } from '../orchestrator/formats/two-bot.ts';
import { tempDir } from './helpers/bots.ts';

const BIN = path.resolve(import.meta.dirname, '../bin/catarena.mjs');

/** The CLI, killed after `ms` (a refusal takes a CLI start, not a schedule). */
function catarenaWithin(ms: number, ...args: string[]): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile('node', [BIN, ...args], { timeout: ms, killSignal: 'SIGKILL' }, (err, _stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr, ms: Date.now() - started }),
    );
  });
}

describe('play and arena refuse game counts no run may schedule', () => {
  it('play --games 1e9 and arena --reps 1e9 are refused in seconds', async () => {
    const out = tempDir();
    const play = await catarenaWithin(20_000, 'play', 'builtin:random', 'builtin:random', '--games', '1e9', '-o', out);
    expect(play.code, play.stderr).toBe(2);
    expect(play.stderr).toContain(`--games`);
    expect(play.stderr).toContain(`expected a whole number from 1 to ${MAX_ARENA_GAMES}`);
    const sprt = await catarenaWithin(20_000, 'play', 'builtin:random', 'builtin:random', '--sprt', '--games', '1e9');
    expect(sprt.code, sprt.stderr).toBe(2);
    const reps = await catarenaWithin(20_000, 'arena', 'builtin:random', 'builtin:heuristic', '--reps', '1e9');
    expect(reps.code, reps.stderr).toBe(2);
    // Under the per-flag limit, but the bots × reps make too many games.
    const bots = Array.from({ length: 12 }, () => 'builtin:random');
    const many = await catarenaWithin(20_000, 'arena', ...bots, '--reps', String(MAX_ARENA_GAMES), '-o', out);
    expect(many.code, many.stderr).toBe(1);
    expect(many.stderr).toMatch(/make 13200000 games, more than the 100000 one run may schedule; use fewer --reps/);
  }, 90_000);
});
