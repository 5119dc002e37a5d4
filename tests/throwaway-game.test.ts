// docs/adding-a-game.md followed once more, by a game that exists only for this test: Nim, one
// folder (tests/fixtures/nim/: rules, wire adapter, descriptor, env/, two reference bots), registered
// here and nowhere else. Nothing outside its folder names it, yet arena and tourney play it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameIds, registerGame, unregisterGame } from '../games/registry.ts';
import { replayState } from '../games/replay.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { runArena } from '../orchestrator/arena.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { createSandbox } from '../sandbox/index.ts';
import { nimGame } from './fixtures/nim/index.ts';
import { tempDir } from './helpers/bots.ts';

const NIM = path.resolve(import.meta.dirname, 'fixtures', 'nim');
const bot = (name: string) => path.join(NIM, 'bots', name);
const sandbox = createSandbox('process');

beforeAll(() => registerGame(nimGame, NIM));
afterAll(async () => {
  unregisterGame('nim');
  await sandbox.close();
});

describe('a throwaway game registered by a test', () => {
  it('is a registered game while the test runs, and only then', () => {
    expect(gameIds()).toContain('nim');
    expect(() => registerGame(nimGame, NIM)).toThrow(/registered already/);
  });

  it('plays through arena: both colours, replays that re-play to their final state', async () => {
    const hosts = new GameServerPool({ preferCatarenaPorts: false });
    const runDir = tempDir('catarena-nim-arena-');
    try {
      const out = await runArena({
        game: 'nim',
        variant: 'standard',
        bots: [
          { id: 'random', dir: bot('random') },
          { id: 'greedy', dir: bot('greedy') },
        ],
        reps: 1,
        seed: 3,
        concurrency: 1,
        limits: { ...DEFAULT_LIMITS, moveMs: 2_000 },
        policy: 'strict',
        runDir,
        sandbox,
        hosts,
        startTimeoutMs: 15_000,
      });
      expect(out.results).toHaveLength(2);
      expect(out.results.map((r) => r.spec.seats.join(' v ')).sort()).toEqual(['greedy v random', 'random v greedy']);
      for (const r of out.results) {
        expect(r.termination).toBe('normal');
        expect(r.reason).toBe('last_stone');
        expect(r.scores[0]! + r.scores[1]!).toBe(1);
        // 12 stones, at most one each move: between 3 and 12 moves.
        expect(r.plies).toBeGreaterThanOrEqual(3);
        expect(r.plies).toBeLessThanOrEqual(12);
        const replay: Replay = await new RunDir(runDir).readReplay(r.id);
        expect((replayState(replay) as { rows: number[] }).rows).toEqual([0, 0, 0]);
      }
    } finally {
      await hosts.closeAll();
    }
  }, 60_000);

  it('plays through tourney with dir: agents, with W and a report', async () => {
    const runDir = tempDir('catarena-nim-tourney-');
    const config = resolveConfig({
      games: ['nim'],
      rounds: 2,
      variants: ['standard', 'variant'],
      agents: [`dir:${bot('random')}#random`, `dir:${bot('greedy')}#greedy`],
      concurrency: 1,
      bootstrapSamples: 50,
    });
    const summary = await runTourney({ config, runDir });
    expect(summary.tracks.map((t) => `${t.game}-${t.variant}`)).toEqual(['nim-standard', 'nim-variant']);
    for (const track of summary.tracks) {
      expect(track.agents).toEqual(['random', 'greedy']);
      // Two rounds of one colour-swapped pair, plus the cross-round games the tourney adds.
      expect(track.games).toBeGreaterThanOrEqual(4);
      for (const s of track.strategies) expect(s.status).toBe('ok');
      expect(fs.existsSync(path.join(runDir, 'tracks', `nim-${track.variant}`, 'W.json'))).toBe(true);
    }
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toContain('nim-standard');
  }, 180_000);
});
