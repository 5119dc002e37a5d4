// Bridge's hidden information against a cheating bot, in each sandbox (helpers/hidden-info.ts):
// from its join on, each of its two processes polls GET state and legal_actions for the three other
// seats (its partner's too) every 5 ms, so it catches each seat while it is to act, and it reads
// its own seat's legal_actions each turn as CATArena's demo bots do. Its opponent is a bot in the
// shape of CATArena's bridge AI_example (tests/fixtures/bots/catarena_bridge.py), unmodified: it
// joins and reads its own legal_actions at a hard-coded game-server port every turn, and fails its
// turn (so the board) if that is refused.
// Over 30 s: with Docker, a whole Bridge board in each sandbox (process and docker) with the
// cheat's two processes polling every 5 ms beside it (39 s while two other files ran; 10 s
// without Docker).
import { afterAll, describe, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import type { Sandbox } from '../sandbox/types.ts';
import fs from 'node:fs';
import path from 'node:path';
import { allocatePort } from '../sandbox/ports.ts';
import { botDir, tempDir } from './helpers/bots.ts';
import { expectOutcome, HIDDEN_INFO_SANDBOXES, peekerBot, peekerLog } from './helpers/hidden-info.ts';

const sandboxes: Sandbox[] = [];

/** The CATArena-shaped Flask bot with the game server's port written into its source. */
function catarenaBridgeBot(port: number): string {
  const fixture = path.resolve(import.meta.dirname, 'fixtures/bots/catarena_bridge.py');
  const source = fs.readFileSync(fixture, 'utf8').replace('__PORT__', String(port));
  return botDir('flask_bridge', '#!/bin/bash\ncd "$(dirname "$0")"\nexec python3 catarena_bridge.py --port "$1"\n', {
    'catarena_bridge.py': source,
  });
}
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

// The sandboxes are tried at once (each its own bots, game server and port): most of a case's time
// is bot starts and turns, and one sandbox's cheater is kept from the others' games as well.
describe.for(HIDDEN_INFO_SANDBOXES)('bridge hidden information, $name sandbox', { concurrent: true }, (box) => {
  it("a bot reading other seats' hands and legal cards while they are to act gets only its own", async ({ expect }) => {
    const sandbox = box.create();
    sandboxes.push(sandbox);
    const port = await allocatePort();
    const hosts = new GameServerPool({ ports: { 'bridge/standard': port } });
    const runDir = tempDir('catarena-hidden-bridge-');
    try {
      const { results } = await runArena({
        game: 'bridge',
        variant: 'standard',
        bots: [
          { id: 'peeker', dir: peekerBot('bridge') },
          { id: 'flask_bridge', dir: catarenaBridgeBot(port) },
        ],
        reps: 1,
        maxGames: 2,
        seed: 7,
        concurrency: 2, // both rooms at once
        limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
        policy: 'strict',
        runDir,
        sandbox,
        hosts,
        startTimeoutMs: 20_000,
      });
      expectOutcome(expect, box, results, peekerLog(runDir));
      // The boards were played to the end: the CATArena bot was served its own legal actions.
      for (const r of results) {
        expect(r.termination, r.reason).toBe('normal');
        for (const stats of r.seatStats) expect(stats.errors).toEqual({});
      }
    } finally {
      await hosts.closeAll();
    }
  }, 120_000);
});
