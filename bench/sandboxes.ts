// The sandboxes side by side in one run: unsafe (plain processes), process (bubblewrap) and docker:
// bot start to healthy (cold), stop, time per game with warm bots reused across games, and the
// HTTP round trip per move (instant bot). Docker is left out when its engine or image is missing.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gomokuWire } from '../games/gomoku/wire.ts';
import { GameServer } from '../orchestrator/game-server/game-server.ts';
import { BotClient } from '../orchestrator/match/bot-client.ts';
import { runMatch } from '../orchestrator/match/runner.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { allocatePort } from '../sandbox/ports.ts';
import { summary } from './stats.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function benchSandboxes(kinds: string[] = ['unsafe', 'process', 'docker'], starts = 6, games = 30) {
  const dir = path.join(here, 'bots', 'instant');
  const rows: Record<string, unknown>[] = [];
  for (const kind of kinds) {
    const sandbox = createSandbox(kind);
    if (kind === 'docker' && !(await dockerUsable())) {
      console.log('sandboxes: docker left out (no engine or no image: npm run images)');
      continue;
    }
    const host = await new GameServer({ adapter: gomokuWire, variant: 'standard', preferCatarenaPort: false }).start();
    try {
      const startMs: number[] = [];
      const handles = [];
      for (let i = 0; i < starts; i++) {
        const t0 = performance.now();
        handles.push(
          await sandbox.start({ dir, port: await allocatePort(), name: `instant-${i}`, ...host.botAccess() }),
        );
        startMs.push(performance.now() - t0);
      }
      const clients = handles
        .slice(0, 2)
        .map((h) => new BotClient(h.url, { connect: h.connect, callerId: h.callerId }));
      const gameMs: number[] = [];
      const roundtrip: number[] = [];
      for (let g = 0; g < games; g++) {
        const t0 = performance.now();
        await runMatch(
          { game: 'gomoku', variant: 'standard', seats: ['a', 'b'], seed: g, limits: DEFAULT_LIMITS, policy: 'strict' },
          {
            adapter: gomokuWire,
            host,
            bots: clients.map((client, s) => ({ strategyId: String(s), client })),
            onMoveTiming: (_loop, rt) => g >= 3 && roundtrip.push(rt),
          },
        );
        if (g >= 3) gameMs.push(performance.now() - t0);
      }
      await Promise.all(clients.map((c) => c.close()));
      const stopMs: number[] = [];
      for (const h of handles) {
        const t0 = performance.now();
        await h.stop();
        stopMs.push(performance.now() - t0);
      }
      rows.push({
        sandbox: kind,
        startToHealthyMs: summary(startMs),
        stopMs: summary(stopMs),
        warmGameMs: summary(gameMs),
        roundtripMs: summary(roundtrip),
      });
    } finally {
      await host.close();
      await sandbox.close();
    }
  }
  console.log(
    'sandboxes: start to healthy (cold), per game with warm bots (instant bot, ~65 plies), HTTP round trip per move',
  );
  for (const r of rows) {
    console.log(`\n${r.sandbox}`);
    console.table({
      startToHealthyMs: r.startToHealthyMs,
      stopMs: r.stopMs,
      warmGameMs: r.warmGameMs,
      roundtripMs: r.roundtripMs,
    });
  }
  return rows;
}

async function dockerUsable(): Promise<boolean> {
  const { spawnSync } = await import('node:child_process');
  const { botRuntimeTag } = await import('../docker/image-tags.ts');
  return spawnSync('docker', ['image', 'inspect', botRuntimeTag()], { stdio: 'ignore', timeout: 20_000 }).status === 0;
}
