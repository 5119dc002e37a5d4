// Hold'em tables:
//  1. engine: hands per second of the pure table game at 12 seats (random legal actions in-process);
//  2. wire: hands per second at a 12-bot table of instant bots (process sandbox, full runner with
//     an HTTP request per action, bots started before the clock);
//  3. batch: a paper-scale batch — T = 4 agents × N = 4 rounds = 16 strategies (instant bots), the
//     three table kinds (4 own tables, 4 round tables, the field split into 2 tables of 8), 100 table
//     rounds each: 1,000 table rounds; wall time at concurrency 2. `npm run bench -- holdem-batch`
//     (≈ minutes); `--rounds R` shortens it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRng } from '../util/rng.ts';
import { holdem, tableValidActions } from '../games/holdem/table.ts';
import { tableSpecs, tourneySeries } from '../orchestrator/formats/batch.ts';
import { DEFAULT_LIMITS, type MatchResult } from '../records/match.ts';
import { playWarm } from './warm-fleet.ts';

export function benchHoldemEngine(tables = 400) {
  const rng = createRng(7);
  let hands = 0;
  let actions = 0;
  const t0 = performance.now();
  for (let t = 0; t < tables; t++) {
    let s = holdem.init(t % 2 ? 'variant' : 'standard', createRng(t), { seats: 12 });
    while (!s.finished) {
      const valid = tableValidActions(s);
      const v = valid[rng.int(0, valid.length - 1)]!;
      s = holdem.apply(
        s,
        s.hand.toAct!,
        v.action === 'raise' ? { action: 'raise', amount: rng.int(v.min, v.max) } : { action: v.action },
      );
      actions++;
    }
    hands += s.handNumber;
  }
  const seconds = (performance.now() - t0) / 1000;
  const row = {
    tables,
    hands,
    actions,
    seconds: +seconds.toFixed(2),
    handsPerSecond: Math.round(hands / seconds),
    actionsPerSecond: Math.round(actions / seconds),
  };
  console.log("Hold'em engine: 12-seat tables of random legal actions, in-process");
  console.table([row]);
  return row;
}

/**
 * An instant bot that keeps tables going: checks or calls 80%, folds 15%, min-raises 5% (the
 * random-valid bot shoves so often that 12-seat tables end within ~10 hands).
 */
function instantBotDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-instant-'));
  fs.writeFileSync(path.join(dir, 'start_ai.sh'), '#!/bin/bash\ncd "$(dirname "$0")"\nexec node bot.cjs "$1"\n');
  fs.writeFileSync(
    path.join(dir, 'bot.cjs'),
    `require('http').createServer((q, s) => {
  let b = '';
  q.on('data', (c) => (b += c));
  q.on('end', () => {
    const v = JSON.parse(b || '{}').valid_actions || [];
    const has = (a) => v.find((x) => x.action === a);
    const r = Math.random();
    let out = { action: has('check') ? 'check' : 'call', amount: 0 };
    if (r < 0.15 && !has('check')) out = { action: 'fold', amount: 0 };
    else if (r > 0.95 && has('raise')) out = { action: 'raise', amount: has('raise').amount.min };
    s.setHeader('content-type', 'application/json');
    s.end(JSON.stringify(out));
  });
}).listen(+process.argv[2], '127.0.0.1');
`,
  );
  return dir;
}

/** Hands played over a set of table results. */
const handsOf = (results: MatchResult[]) => results.reduce((sum, r) => sum + Number(r.detail?.hands ?? 0), 0);

export async function benchHoldemWire(tableRounds = 4) {
  const bot = instantBotDir();
  const ids = Array.from({ length: 12 }, (_, i) => `i${i + 1}`);
  const specs = tableSpecs(
    { kind: 'round', label: 'bench', members: ids },
    {
      game: 'holdem',
      variant: 'standard',
      tableRounds,
      seed: 1,
      limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
      policy: 'strict',
    },
  );
  const { results, seconds, actions } = await playWarm(specs, bot, 1);
  const hands = handsOf(results);
  fs.rmSync(bot, { recursive: true, force: true });
  const row = {
    tableRounds,
    hands,
    actions,
    seconds: +seconds.toFixed(2),
    handsPerSecond: Math.round(hands / seconds),
    actionsPerSecond: Math.round(actions / seconds),
    msPerAction: +((seconds * 1000) / actions).toFixed(3),
  };
  console.log("Hold'em over the wire: a 12-bot table of instant bots (HTTP per action; bots started before timing)");
  console.table([row]);
  return row;
}

export async function benchHoldemBatch(tableRounds = 100, concurrency = 2) {
  const agents = ['a', 'b', 'c', 'd'];
  const byRound = [1, 2, 3, 4].map((n) => agents.map((agent) => ({ id: `${agent}@r${n}`, agent })));
  const series = [
    ...[1, 2, 3].flatMap((n) => tourneySeries(byRound.slice(0, n), false)),
    ...tourneySeries(byRound, true),
  ];
  const specs = series.flatMap((s) =>
    tableSpecs(s, {
      game: 'holdem',
      variant: 'standard',
      tableRounds,
      seed: 1,
      limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
      policy: 'strict',
    }),
  );
  const bot = instantBotDir();
  const { results, seconds, actions } = await playWarm(specs, bot, concurrency, 'table rounds');
  const hands = handsOf(results);
  fs.rmSync(bot, { recursive: true, force: true });
  const kinds = Object.fromEntries(
    ['own', 'round', 'field'].map((k) => [k, specs.filter((s) => s.batch!.kind === k).length]),
  );
  const row = {
    strategies: 16,
    tableRounds,
    tables: results.length,
    ...kinds,
    hands,
    actions,
    concurrency,
    seconds: +seconds.toFixed(1),
    actionsPerSecond: Math.round(actions / seconds),
  };
  console.log("Hold'em paper-scale batch: 16 strategies of instant bots, own/round/field tables (results in memory)");
  console.table([row]);
  return row;
}

// Run directly: node --import tsx bench/holdem-tables.ts [engine|wire|batch] [--rounds R]
if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[2] ?? 'engine';
  const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 100;
  if (which === 'engine') benchHoldemEngine();
  if (which === 'wire') await benchHoldemWire();
  if (which === 'batch') await benchHoldemBatch(rounds);
}
