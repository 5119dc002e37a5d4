// Bridge's hidden information against a cheating bot, in each sandbox (helpers/hidden-info.ts):
// from its join on, each of its two processes polls GET state and legal_actions for the three other
// seats (its partner's too) every 5 ms, so it catches each seat while it is to act, and it reads
// its own seat's legal_actions each turn as CATArena's demo bots do.
import { afterAll, describe, expect, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { expectOutcome, HIDDEN_INFO_SANDBOXES, peekerBot, peekerLog } from './helpers/hidden-info.ts';

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

describe.each(HIDDEN_INFO_SANDBOXES)('bridge hidden information, $name sandbox', (box) => {
  it("a bot reading other seats' hands and legal cards while they are to act gets only its own", async () => {
    const sandbox = box.create();
    sandboxes.push(sandbox);
    const hosts = new GameServerPool({ preferCatarenaPorts: false });
    const runDir = tempDir('catarena-hidden-bridge-');
    try {
      const { results } = await runArena({
        game: 'bridge',
        variant: 'standard',
        bots: [
          { id: 'peeker', dir: peekerBot('bridge') },
          { id: 'heuristic', dir: BUILTIN('heuristic', 'bridge') },
        ],
        reps: 1,
        maxGames: 2,
        seed: 7,
        concurrency: 1,
        limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
        policy: 'strict',
        runDir,
        sandbox,
        hosts,
        startTimeoutMs: 20_000,
      });
      expectOutcome(expect, box, results, peekerLog(runDir));
      // The boards were played to the end: no seat failed.
      for (const r of results) expect(r.termination).toBe('normal');
    } finally {
      await hosts.closeAll();
    }
  }, 120_000);
});
