// Plays match specs on a warm fleet: every bot (every instance a spec needs: Bridge partners run
// twice) is started before the clock starts, so the time measured is play, not bot start-up.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adapterFor } from '../games/registry.ts';
import { BotFleet } from '../orchestrator/executor/bot-fleet.ts';
import { executeLocal, seatInstances } from '../orchestrator/executor/local.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import type { MatchResult, MatchSpec } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';

/** Specs of one game and variant, every strategy played by the bot in `botDir`. */
export async function playWarm(
  specs: MatchSpec[],
  botDir: string,
  concurrency: number,
  progressLabel?: string,
): Promise<{ results: MatchResult[]; seconds: number; actions: number }> {
  const { game, variant } = specs[0]!;
  const sandbox = createSandbox('process');
  const hosts = new GameServerPool({ ports: { [`${game}/${variant}`]: 0 } });
  const server = await hosts.get(game, variant);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-'));
  const fleet = new BotFleet({ sandbox, health: adapterFor(game).health, logDir, ...server.botAccess() });
  fleet.add([...new Set(specs.flatMap((s) => s.seats))].map((id) => ({ id, dir: botDir })));
  // Repeated requests for one bot share its start (the fleet caches it).
  await Promise.all(
    specs.flatMap((s) => seatInstances(s.seats).map((instance, seat) => fleet.client(s.seats[seat]!, instance))),
  );
  let done = 0;
  const t0 = performance.now();
  const results = await executeLocal(specs, {
    fleet,
    hosts,
    concurrency,
    onReplay: () => {
      if (progressLabel && ++done % 100 === 0)
        process.stderr.write(
          `  ${done}/${specs.length} ${progressLabel}, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`,
        );
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  await fleet.stopAll();
  await hosts.closeAll();
  await sandbox.close();
  fs.rmSync(logDir, { recursive: true, force: true });
  return { results, seconds, actions: results.reduce((sum, r) => sum + r.plies, 0) };
}
