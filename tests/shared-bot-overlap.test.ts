// Games that share bots overlap: a call to a bot busy with another game's call waits for that bot
// holding no slot, so with 'auto' more games than slots + 1 are in flight while never more bots
// compute at once than there are slots, and never two calls at one bot.
import { afterAll, describe, expect, it } from 'vitest';
import { gameDescriptor } from '../games/registry.ts';
import { DEFAULT_LIMITS, type MatchSpec } from '../records/match.ts';
import type { LiveEvent } from '../records/live.ts';
import { ConcurrencyController } from '../orchestrator/concurrency/concurrency-controller.ts';
import { CpuSlots } from '../orchestrator/concurrency/cpu-slots.ts';
import { LocalExecutor } from '../orchestrator/executor/executor.ts';
import { GamePool } from '../orchestrator/executor/local.ts';
import { fieldSpecs } from '../orchestrator/formats/field.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { UnsafeSandbox } from '../sandbox/process.ts';
import { misbehavingBot, tempDir } from './helpers/bots.ts';

describe('CpuSlots: a call waiting for its busy bot', () => {
  it('holds no slot: a call to another bot takes it', async () => {
    const slots = new CpuSlots(2);
    const a = {};
    const b = {};
    await slots.acquire(a);
    let secondA = false;
    const waitingA = slots.acquire(a).then(() => (secondA = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(secondA).toBe(false);
    expect(slots.inUse).toBe(1);
    expect(slots.waitingForBot).toBe(1);
    // The other slot is free for bot b although a call waits (for bot a).
    let gotB = false;
    const takingB = slots.acquire(b).then(() => (gotB = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(gotB).toBe(true);
    expect(slots.inUse).toBe(2);
    await takingB;
    // Bot a done: its next call takes the slot a's first call frees.
    slots.release(a);
    await waitingA;
    expect(slots.inUse).toBe(2);
    expect(slots.waitingForBot).toBe(0);
    // A join to a busy bot waits for it without a slot.
    let joined = false;
    const join = slots.withBot(a, async () => void (joined = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(joined).toBe(false);
    slots.release(a);
    await join;
    expect(joined).toBe(true);
    slots.release(b);
    expect(slots.inUse).toBe(0);
  });
});

const sandbox = new UnsafeSandbox({ handleSignals: false });
const hosts = new GameServerPool();
afterAll(async () => {
  await hosts.closeAll();
  await sandbox.close();
});

describe('GamePool auto: games sharing bots', () => {
  it('keeps more than slots + 1 games in flight, within the slots and one call per bot', async () => {
    // Level held at 2: the slots are 2 throughout.
    const pool = new GamePool({
      concurrency: 'auto',
      controller: new ConcurrencyController({ min: 2, max: 2, ioMax: 2, start: 2 }),
    });
    const at = () => performance.now();
    const seatsOf = new Map<string, string[]>();
    const calls: Array<{ bot: string; from: number; to: number }> = [];
    const open = new Map<string, { bot: string; from: number }>();
    const games: Array<{ from: number; to: number }> = [];
    const started = new Map<string, number>();
    const onLive = (e: LiveEvent) => {
      if (e.type === 'start') {
        seatsOf.set(e.id, e.spec.seats);
        started.set(e.id, at());
      } else if (e.type === 'turn') open.set(e.id, { bot: seatsOf.get(e.id)![e.seat]!, from: at() });
      else if (e.type === 'move') {
        const call = open.get(e.id);
        if (call) calls.push({ ...call, to: at() });
        open.delete(e.id);
      } else if (e.type === 'end') games.push({ from: started.get(e.id)!, to: at() });
    };
    const executor = new LocalExecutor({
      sandbox,
      hosts,
      concurrency: 'auto',
      pool,
      onLive,
      logDir: () => tempDir(),
      startTimeoutMs: 20_000,
    });
    const ids = ['a', 'b', 'c', 'd'];
    // Each move takes the bot 50 ms: every game shares its bots with others in flight.
    const slow = misbehavingBot('slow');
    executor.add(
      { game: 'gomoku', variant: 'standard' },
      ids.map((id) => ({ id, dir: slow })),
    );
    // 8 of the 12 games of the round robin: enough to see 4 in flight and hundreds of calls.
    const specs: MatchSpec[] = fieldSpecs(
      gameDescriptor('gomoku'),
      { kind: 'arena', ids },
      { game: 'gomoku', variant: 'standard', seed: 5, limits: DEFAULT_LIMITS, policy: 'strict', reps: 1 },
    ).slice(0, 8);
    try {
      await executor.run(specs, { onReplay: () => {} });
    } finally {
      await executor.close();
      pool.close();
    }
    expect(games).toHaveLength(specs.length);
    const most = <T extends { from: number; to: number }>(xs: T[], keep: (x: T) => boolean = () => true) =>
      Math.max(...xs.map((x) => xs.filter((y) => keep(y) && y.from <= x.from && x.from < y.to).length));
    // More games in flight than slots + 1 (before: none beyond the slots shared a bot in flight) …
    expect(most(games)).toBeGreaterThanOrEqual(4);
    // … never more than 2 bots computing at once …
    expect(calls.length).toBeGreaterThan(100);
    expect(most(calls)).toBeLessThanOrEqual(2);
    // … and never two calls at one bot.
    for (const id of ids) expect(most(calls, (c) => c.bot === id)).toBeLessThanOrEqual(1);
  }, 120_000);
});
