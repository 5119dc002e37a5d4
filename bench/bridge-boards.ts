// Bridge boards per second:
//  1. engine: one board in one room with random legal actions, in-process (both rule sets);
//  2. wire: duplicate matches between instant bots (the first caller opens 1♣, then first legal
//     action: every board is bid and played out, ~56 requests per room) through
//     the full path — process sandbox, join_game per seat, get_action per call and card, two bot
//     processes per partnership, replays and journal; bots started before the clock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRng } from '../util/rng.ts';
import { bridge } from '../games/bridge/rules.ts';
import { duplicateMatches } from '../orchestrator/formats/duplicate.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { playWarm } from './warm-fleet.ts';

export function benchBridgeEngine(boards = 2000) {
  const rng = createRng(3);
  const rows = (['standard', 'variant'] as const).map((variant) => {
    let actions = 0;
    const t0 = performance.now();
    for (let b = 0; b < boards; b++) {
      let s = bridge.init(variant, createRng(b), { seats: 4, options: { board: (b % 16) + 1 } });
      while (!bridge.outcome(s)) {
        const seat = bridge.toMove(s)!;
        const legal = bridge.legalActions(s, seat);
        s = bridge.apply(s, seat, legal[rng.int(0, legal.length - 1)]!);
        actions++;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    return {
      variant,
      boards,
      actions,
      seconds: +seconds.toFixed(2),
      boardsPerSecond: Math.round(boards / seconds),
      actionsPerSecond: Math.round(actions / seconds),
    };
  });
  console.log('Bridge engine: one room per board, random legal actions, in-process');
  console.table(rows);
  return rows;
}

/** An instant bot: joins, opens the auction with its lowest bid when first, else the first legal action. */
function instantBotDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-instant-'));
  fs.writeFileSync(path.join(dir, 'start_ai.sh'), '#!/bin/bash\ncd "$(dirname "$0")"\nexec node bot.cjs "$1"\n');
  fs.writeFileSync(
    path.join(dir, 'bot.cjs'),
    `require('http').createServer((q, s) => {
  let b = '';
  q.on('data', (c) => (b += c));
  q.on('end', () => {
    s.setHeader('content-type', 'application/json');
    if (q.url === '/health') return s.end('{"status":"healthy"}');
    if (q.url !== '/get_action') return s.end('{"status":"ok"}');
    const body = JSON.parse(b || '{}');
    const legal = body.legal_actions || [];
    // The first caller opens the lowest bid and everyone else passes, so every board is played.
    const calls = (body.game_state && body.game_state.bidding && body.game_state.bidding.calls) || [];
    const open = calls.length === 0 && legal.find((a) => a.call_type === 'bid');
    s.end(JSON.stringify({ action: open || legal[0] || { type: 'call', call_type: 'pass' } }));
  });
}).listen(+process.argv[2], '127.0.0.1');
`,
  );
  return dir;
}

export async function benchBridgeWire(boards = 12, teams = 4) {
  const bot = instantBotDir();
  const ids = Array.from({ length: teams }, (_, i) => `t${i + 1}`);
  const specs = duplicateMatches({
    game: 'bridge',
    variant: 'standard',
    entrants: ids,
    boards,
    reps: 1,
    seed: 1,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
  });
  const { results, seconds, actions } = await playWarm(specs, bot, 2);
  fs.rmSync(bot, { recursive: true, force: true });
  const row = {
    teams,
    matches: (teams * (teams - 1)) / 2,
    boards: results.length / 2,
    rooms: results.length,
    actions,
    seconds: +seconds.toFixed(2),
    boardsPerSecond: +(results.length / 2 / seconds).toFixed(1),
    msPerAction: +((seconds * 1000) / actions).toFixed(3),
  };
  console.log('Bridge over the wire: duplicate matches of instant bots (both rooms per board), concurrency 2');
  console.table([row]);
  return row;
}

// Run directly: node --import tsx bench/bridge-boards.ts [engine|wire]
if (import.meta.url === `file://${process.argv[1]}`) {
  if ((process.argv[2] ?? 'engine') === 'engine') benchBridgeEngine();
  else await benchBridgeWire();
}
