// Undercover's hidden information against a cheating bot, in each sandbox (helpers/hidden-info.ts):
// from its join on it polls GET state?seat=N for every other seat's secret word and role, and reads
// its own seat's word each turn. The variant, whose state shows a seat's role as well as its word.
import { afterAll, describe, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { expectOutcome, HIDDEN_INFO_SANDBOXES, peekerBot, peekerLog } from './helpers/hidden-info.ts';

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

// The sandboxes are tried at once (each its own bots and game server): most of a case's time is bot starts.
describe.for(HIDDEN_INFO_SANDBOXES)('undercover hidden information, $name sandbox', { concurrent: true }, (box) => {
  it("a bot reading other seats' words and roles gets only its own", async ({ expect }) => {
    const sandbox = box.create();
    sandboxes.push(sandbox);
    const hosts = new GameServerPool({ preferCatarenaPorts: false });
    const runDir = tempDir('catarena-hidden-undercover-');
    try {
      const { results } = await runArena({
        game: 'undercover',
        variant: 'variant',
        bots: [
          { id: 'peeker', dir: peekerBot('undercover') },
          { id: 'random', dir: BUILTIN('random', 'undercover') },
          { id: 'heuristic', dir: BUILTIN('heuristic', 'undercover') },
          { id: 'random-2', dir: BUILTIN('random', 'undercover') },
        ],
        reps: 1,
        maxGames: 1,
        seed: 3,
        concurrency: 1,
        limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
        policy: 'strict',
        runDir,
        sandbox,
        hosts,
        startTimeoutMs: 20_000,
      });
      expectOutcome(expect, box, results, peekerLog(runDir));
    } finally {
      await hosts.closeAll();
    }
  }, 120_000);
});
