// Hold'em end to end through the process sandbox: CATArena's /action body (only your own hole
// cards), a Python/Flask bot without /health at a table with TS bots, and every failure a bot can
// produce: a float or unknown action (check if free, else fold), a timeout or garbage (fold, even
// when a check was free), a bot that never starts (an always-fold stand-in, flagged).
// Over 30 s: only with Docker in the loaded full suite (11 s alone, 33 s in the suite, 46 s on CI):
// four tables at once, two of them three containers each, the Flask bot's imports about half a second of CPU.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArena, type ArenaOptions } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { adapterFor } from '../games/registry.ts';
import { BUILTIN, botDir, flaskHoldemBot, hasFlask, SANDBOX_KINDS, sharedBot, tempDir } from './helpers/bots.ts';
import { replaysIn } from './helpers/replays.ts';

// The recorders write their requests in their own folder, which only the unsafe sandbox lets them do.
const sandbox = createSandbox('unsafe');
const sandboxes = Object.fromEntries(SANDBOX_KINDS.map((kind) => [kind, createSandbox(kind)]));
afterAll(() => Promise.all(Object.values(sandboxes).map((s) => s.close())));
// The reference bots at the tables of the body and failure tests below, one process each for all
// of them (what is checked is the recorder's or the failing bot's seat).
const random = sharedBot(sandbox, BUILTIN('random', 'holdem'), adapterFor('holdem').health);
const heuristic = sharedBot(sandbox, BUILTIN('heuristic', 'holdem'), adapterFor('holdem').health);

async function table(bots: Array<{ id: string; dir: string }>, extra: Partial<ArenaOptions> = {}) {
  const hosts = new GameServerPool({ ports: { 'holdem/standard': 0, 'holdem/variant': 0 } });
  try {
    return await runArena({
      game: 'holdem',
      variant: 'standard',
      bots,
      reps: 1,
      seed: 5,
      concurrency: 1,
      limits: { ...DEFAULT_LIMITS, moveMs: 2_000 },
      policy: 'strict',
      runDir: tempDir('catarena-holdem-'),
      sandbox,
      hosts,
      startTimeoutMs: 10_000,
      // 20 hands: every check below needs a few of the bot's turns, not a long session.
      protocolOptions: { handCap: 20 },
      ...extra,
    });
  } finally {
    await hosts.closeAll();
  }
}

const replaysOf = (runDir: string): Replay[] => replaysIn(path.join(runDir, 'replays'));

/**
 * A node bot whose answer is computed by `answer(body, n)` (JS source of an arrow function; n =
 * request count); it records every request body in requests.jsonl and has no /health.
 */
function scriptedBot(name: string, answer: string): string {
  const code = `const fs = require('fs');
const answer = ${answer};
let n = 0;
require('http').createServer((q, s) => {
  let b = '';
  q.on('data', (c) => (b += c));
  q.on('end', async () => {
    if (q.url !== '/action') { s.statusCode = 404; return s.end('{}'); }
    fs.appendFileSync('requests.jsonl', b + '\\n');
    const out = await answer(JSON.parse(b), ++n);
    s.setHeader('content-type', 'application/json');
    s.end(typeof out === 'string' ? out : JSON.stringify(out));
  });
}).listen(+process.argv[2]);
`;
  return botDir(name, '#!/bin/bash\ncd "$(dirname "$0")"\nexec node bot.cjs "$1"\n', { 'bot.cjs': code });
}

const CALLER = `(b) => b.valid_actions.some((v) => v.action === 'check') ? { action: 'check', amount: 0 } : { action: 'call', amount: 0 }`;
// Checks when free, calls one big blind at most, else folds: it never calls the random bot's
// all-ins, so it keeps chips for every hand (a calling station was knocked out after 9 requests
// in one CI run) and still sees the flop, turn and river of the hands it calls.
const SMALL_CALLER = `(b) => { const kinds = b.valid_actions.map((v) => v.action); const call = b.valid_actions.find((v) => v.action === 'call'); return kinds.includes('check') ? { action: 'check', amount: 0 } : call && call.amount <= b.big_blind ? { action: 'call', amount: call.amount } : { action: 'fold', amount: 0 }; }`;
const requestsOf = (dir: string) =>
  fs
    .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe("CATArena's /action body", () => {
  it('carries the full table state, valid actions, and only the asking player’s hole cards', async () => {
    const dir = scriptedBot('recorder', SMALL_CALLER);
    const out = await table([{ id: 'recorder', dir }, await random('random'), await heuristic('heuristic')]);
    expect(out.results).toHaveLength(1);
    const r = out.results[0]!;
    expect(r.termination).toBe('normal');
    const bodies = requestsOf(dir);
    // One body per turn of the recorder's in the replay, and a turn in most of the 20 hands.
    const seat = r.spec.seats.indexOf('recorder');
    expect(replaysOf(out.runDir)[0]!.moves.filter((m) => m.seat === seat)).toHaveLength(bodies.length);
    expect(bodies.length).toBeGreaterThan(10);
    expect(r.seatStats[seat]!.errors.illegal ?? 0).toBe(0);
    for (const b of bodies) {
      expect(Object.keys(b).sort()).toEqual(
        [
          'action_history',
          'big_blind',
          'community_cards',
          'current_bet',
          'current_player',
          'dealer_index',
          'deck',
          'game_id',
          'hand_number',
          'min_raise',
          'phase',
          'players',
          'pot',
          'small_blind',
          'valid_actions',
        ].sort(),
      );
      expect(b.game_id).toMatch(/^holdem_[0-9a-f]{8}$/);
      expect(b.current_player).toBe('recorder');
      expect(['preflop', 'flop', 'turn', 'river']).toContain(b.phase);
      expect(Object.keys(b.players).sort()).toEqual(['heuristic', 'random', 'recorder']);
      expect(b.players.recorder.hole_cards).toHaveLength(2);
      for (const card of b.players.recorder.hole_cards) expect(card).toMatch(/^[2-9TJQKA][shdc]$/);
      expect(b.players.random.hole_cards).toEqual([]);
      expect(b.players.heuristic.hole_cards).toEqual([]);
      expect(b.community_cards).toHaveLength(
        ({ preflop: 0, flop: 3, turn: 4, river: 5 } as Record<string, number>)[b.phase]!,
      );
      expect(b.deck).toBe('standard');
      const kinds = b.valid_actions.map((v: { action: string }) => v.action);
      expect(kinds[0]).toBe('fold');
      expect(kinds.includes('check') !== kinds.includes('call')).toBe(true);
      for (const v of b.valid_actions) {
        if (v.action === 'raise') expect(v.amount.min).toBeLessThanOrEqual(v.amount.max);
        else expect(Number.isInteger(v.amount)).toBe(true);
      }
      const me = b.players.recorder;
      const call = b.valid_actions.find((v: { action: string }) => v.action === 'call');
      if (call) expect(call.amount).toBe(Math.min(b.current_bet - me.current_bet, me.chips));
      const pot = Object.values(b.players as Record<string, { hand_bet: number }>).reduce((s, p) => s + p.hand_bet, 0);
      expect(b.pot).toBe(pot);
    }
    // Pre-flop of hand 1: the blinds are in the history.
    const first = bodies[0];
    expect(first.action_history.slice(0, 2).map((a: { action: string }) => a.action)).toEqual([
      'small_blind',
      'big_blind',
    ]);
    expect(first.small_blind).toBe(10);
    expect(first.big_blind).toBe(20);
  });
});

describe('failures never stop the table', () => {
  it('a float amount or unknown action is rejected: check if free, else fold', async () => {
    const dir = scriptedBot(
      'floaty',
      `(b, n) => n % 2 ? '{"action":"raise","amount":40.5}' : { action: 'bet', amount: 0 }`,
    );
    const out = await table(
      [{ id: 'floaty', dir }, await random('random'), { id: 'random-2', dir: BUILTIN('random', 'holdem') }],
      { protocolOptions: { handCap: 40 } },
    ); // 40 hands: a free check comes up (20 may hold none)
    const r = out.results[0]!;
    expect(r.termination).toBe('normal');
    const seat = r.spec.seats.indexOf('floaty');
    expect(r.seatStats[seat]!.errors.illegal).toBe(r.seatStats[seat]!.moves);
    const replay = replaysOf(out.runDir)[0]!;
    const bodies = requestsOf(dir);
    const mine = replay.moves.filter((m) => m.seat === seat);
    expect(mine).toHaveLength(bodies.length);
    mine.forEach((m, k) => {
      const free = bodies[k].valid_actions.some((v: { action: string }) => v.action === 'check');
      expect(m.action).toEqual({ action: free ? 'check' : 'fold' });
      expect(m.error!.message).toMatch(k % 2 === 0 ? /integer/ : /Invalid action/);
    });
    expect(mine.some((m) => (m.action as { action: string }).action === 'check')).toBe(true);
  });

  it('a timeout or a malformed answer folds, even when a check was free', async () => {
    // Every third answer has no "action": CATArena's arena folds it (reply.get('action', 'fold')).
    const dir = scriptedBot(
      'slow',
      `(b, n) => n % 3 === 0 ? { amount: 0 } : n % 2 ? new Promise((r) => setTimeout(() => r({ action: 'call', amount: 0 }), 1500)) : 'not json'`,
    );
    // 8 hands: the bot acts in each (it folds at once), so its answers cycle through all three kinds.
    // The opponent always calls, so the bot holds a free check in each hand it is the big blind (a
    // random opponent raised or folded from the small blind in every such hand of one CI run).
    const out = await table(
      [
        { id: 'slow', dir },
        { id: 'caller', dir: scriptedBot('caller', CALLER) },
      ],
      {
        // The caller is not under test: it is not held to the slow bot's 300 ms.
        limits: { ...DEFAULT_LIMITS, moveMs: 300, seatMoveMs: { caller: 30_000 } },
        protocolOptions: { handCap: 8 },
      },
    );
    const r = out.results[0]!;
    expect(r.termination).toBe('normal');
    const seat = r.spec.seats.indexOf('slow');
    const mine = replaysOf(out.runDir)[0]!.moves.filter((m) => m.seat === seat);
    expect(mine.length).toBeGreaterThan(1);
    for (const m of mine) {
      expect(m.action).toEqual({ action: 'fold' });
      expect(['timeout', 'malformed']).toContain(m.error!.kind);
    }
    expect(r.seatStats[seat]!.errors.timeout).toBeGreaterThan(0);
    expect(r.seatStats[seat]!.errors.malformed).toBeGreaterThan(0);
    expect(mine.some((m) => /no "action"/.test(m.error!.message))).toBe(true);
    // A free check was available at least once (the big blind), and the seat folded anyway.
    expect(requestsOf(dir).some((b) => b.valid_actions.some((v: { action: string }) => v.action === 'check'))).toBe(
      true,
    );
  });

  it('a bot that never starts is replaced by an always-fold stand-in and flagged', async () => {
    const dead = botDir('dead', '#!/bin/bash\necho "cannot start" >&2\nexit 3\n');
    const out = await table([{ id: 'dead', dir: dead }, await random('random'), await heuristic('heuristic')], {
      startTimeoutMs: 2_000,
    });
    const r = out.results[0]!;
    expect(r.termination).toBe('normal');
    const seat = r.spec.seats.indexOf('dead');
    expect(r.standIns).toEqual([{ seat, reason: expect.stringMatching(/exit|start/) }]);
    const mine = replaysOf(out.runDir)[0]!.moves.filter((m) => m.seat === seat);
    expect(mine.length).toBeGreaterThan(0);
    for (const m of mine) expect(m).toMatchObject({ action: { action: 'fold' }, standIn: true, latencyMs: 0 });
    expect(r.places![seat]).toBeGreaterThan(1);
    expect(out.table.find((row) => row.id === 'dead')!.failures.stand_in).toBe(1);
  });
});

// Concurrent: each table is its own arena, Flask bot and game server; most of the time is bot starts.
describe.skipIf(!hasFlask())("a CATArena-shaped Python/Flask Hold'em bot (no /health)", { concurrent: true }, () => {
  for (const [kind, variant] of SANDBOX_KINDS.flatMap((k) => ['standard', 'variant'].map((v) => [k, v] as const))) {
    it(`plays full table rounds with the TS reference bots (${variant}, ${kind} sandbox)`, async ({ expect }) => {
      const out = await table(
        [
          { id: 'flask', dir: flaskHoldemBot() },
          { id: 'random', dir: BUILTIN('random', 'holdem') },
          { id: 'heuristic', dir: BUILTIN('heuristic', 'holdem') },
        ],
        // The start is not under test: room for the Flask bots of all four tables starting at once.
        { variant, reps: 3, sandbox: sandboxes[kind]!, startTimeoutMs: 30_000 },
      );
      expect(out.results).toHaveLength(3);
      for (const r of out.results) {
        expect(r.termination).toBe('normal');
        const seat = r.spec.seats.indexOf('flask');
        expect(r.seatStats[seat]!.moves).toBeGreaterThan(0);
        expect(Object.keys(r.seatStats[seat]!.errors)).toEqual([]);
        expect((r.detail!.chips as number[]).reduce((a, b) => a + b, 0)).toBe(6000);
      }
      // Seats rotate over the three table rounds of one duplicate group.
      expect(new Set(out.results.map((r) => r.spec.seats.indexOf('flask'))).size).toBe(3);
      expect(new Set(out.results.map((r) => r.spec.seed)).size).toBe(1);
    });
  }
});
