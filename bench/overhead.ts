// Orchestrator overhead per move with an instantly answering bot. Two numbers per move:
//   overhead  = loop time − HTTP round trip: the runner's own work (view, JSON, validate, apply, log)
//   roundtrip = the HTTP POST to the bot and back, which includes the bot's (tiny) work
// plus, as a floor, the bot client's bare POSTs to the same bot with no runner around them.
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

export async function benchOverhead(games = 60) {
  const sandbox = createSandbox('process');
  const host = await new GameServer({ adapter: gomokuWire, variant: 'standard', preferCatarenaPort: false }).start();
  const dir = path.join(here, 'bots', 'instant');
  const [a, b] = await Promise.all(
    [0, 1].map(async () => sandbox.start({ dir, port: await allocatePort(), name: 'instant' })),
  );
  const clients = [a!, b!].map((h) => new BotClient(h.url, { connect: h.connect, callerId: h.callerId }));
  const overhead: number[] = [];
  const roundtrip: number[] = [];
  const raw: number[] = [];
  try {
    // Raw floor: the same POST body as a real get_move, no runner.
    const board = Array.from({ length: 15 }, () => Array(15).fill(0));
    for (let i = 0; i < 3000; i++) {
      const res = await clients[0]!.post(
        '/get_move',
        { game_id: 'x', board, current_player: 'black' },
        { deadlineMs: 5000, maxResponseBytes: 1 << 20 },
      );
      if (i >= 200) raw.push(res.latencyMs);
    }
    for (let g = 0; g < games; g++) {
      const seats = g % 2 ? [1, 0] : [0, 1];
      await runMatch(
        { game: 'gomoku', variant: 'standard', seats: ['a', 'b'], seed: g, limits: DEFAULT_LIMITS, policy: 'strict' },
        {
          adapter: gomokuWire,
          host,
          bots: seats.map((s) => ({ strategyId: String(s), client: clients[s]! })),
          onMoveTiming: (loopMs, latencyMs) => {
            if (g >= 5) {
              overhead.push(loopMs - latencyMs);
              roundtrip.push(latencyMs);
            }
          },
        },
      );
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await host.close();
    await sandbox.close();
  }
  const result = { overheadMs: summary(overhead), roundtripMs: summary(roundtrip), rawPostMs: summary(raw) };
  console.log('orchestrator overhead per move (ms, instant bot, excluding the HTTP round trip)');
  console.table(result);
  return result;
}
