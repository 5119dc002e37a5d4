// An arena run is watched like a tourney (`catarena serve`): its progress lines go to live.jsonl
// beside the games' events, and status.json says how it ended, also when it failed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArena, type ArenaOptions } from '../orchestrator/arena.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { UnsafeSandbox } from '../sandbox/process.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

const sandbox = new UnsafeSandbox({ handleSignals: false });
afterAll(() => sandbox.close());

function arena(runDir: string, extra: Partial<ArenaOptions> = {}) {
  return runArena({
    game: 'gomoku',
    variant: 'standard',
    bots: [
      { id: 'a', dir: BUILTIN('random') },
      { id: 'b', dir: BUILTIN('random') },
    ],
    reps: 2,
    seed: 5,
    concurrency: 1,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    runDir,
    sandbox,
    startTimeoutMs: 20_000,
    ...extra,
  });
}

const lines = (runDir: string) =>
  fs
    .readFileSync(path.join(runDir, 'live.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; text?: string; done?: number; total?: number });
const status = (runDir: string) => JSON.parse(fs.readFileSync(path.join(runDir, 'status.json'), 'utf8'));

describe('arena: live.jsonl and status.json', () => {
  it('writes its progress lines to live.jsonl and ends finished', async () => {
    const runDir = tempDir('catarena-arena-live-');
    const outcome = await arena(runDir);
    expect(outcome.results).toHaveLength(4);
    const live = lines(runDir);
    expect(live.find((l) => l.type === 'phase')?.text).toContain('gomoku/standard: 2 bots, 4 games');
    expect(live.filter((l) => l.type === 'tick').map((l) => `${l.done}/${l.total}`)).toEqual([
      '1/4',
      '2/4',
      '3/4',
      '4/4',
    ]);
    expect(status(runDir)).toMatchObject({ state: 'finished', kind: 'arena' });
  }, 60_000);

  it('says failed, with the reason, when the run fails', async () => {
    const runDir = tempDir('catarena-arena-live-');
    const failing = arena(runDir, {
      onGame: () => {
        throw new Error('disk full (test)');
      },
    });
    await expect(failing).rejects.toThrow('disk full (test)');
    expect(status(runDir)).toMatchObject({ state: 'failed', kind: 'arena', message: 'disk full (test)' });
  }, 60_000);
});
