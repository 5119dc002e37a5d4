// The in-process executor: runs match specs on this machine, `concurrency` games at a time,
// with the same number of busy-bot slots, streaming each finished game to `onReplay`.
import { adapterFor } from '../../games/registry.ts';
import type { GameServerPool } from '../host/game-servers.ts';
import { CpuSlots } from '../match/cpu-slots.ts';
import { runMatch, type SeatBot } from '../match/runner.ts';
import type { MatchResult, MatchSpec, Replay } from '../../model/match.ts';
import type { BotFleet } from './bot-fleet.ts';

export interface LocalExecutorOptions {
  fleet: BotFleet;
  hosts: GameServerPool;
  /** Games in flight and bots computing at once (default 1). */
  concurrency?: number;
  /** Called as each game ends, in completion order; awaited before the slot is reused. */
  onReplay?: (replay: Replay) => Promise<void> | void;
  /** Stop scheduling new games (games in flight finish). */
  signal?: AbortSignal;
}

/** Which instance of its strategy each seat uses: the k-th seat of one strategy gets instance k. */
export function seatInstances(seats: readonly string[]): number[] {
  return seats.map((id, seat) => seats.slice(0, seat).filter((other) => other === id).length);
}

export interface PlaySpecOptions {
  fleet: BotFleet;
  hosts: GameServerPool;
  slots: CpuSlots;
  /** The fleet's id for a seat's strategy (default: the strategy id; workers key by content). */
  fleetId?: (strategyId: string) => string;
}

/** Plays one spec with warm bots from the fleet; a bot that crashed is checked before its next game. */
export async function playSpec(spec: MatchSpec, options: PlaySpecOptions): Promise<Replay> {
  const { fleet } = options;
  const fleetId = options.fleetId ?? ((id: string) => id);
  const host = await options.hosts.get(spec.game, spec.variant);
  const instances = seatInstances(spec.seats);
  const bots: SeatBot[] = [];
  for (const [seat, id] of spec.seats.entries()) {
    const client = await fleet.client(fleetId(id), instances[seat]);
    bots.push({ strategyId: id, client, unavailable: client ? undefined : fleet.startError(fleetId(id), instances[seat]) });
  }
  const replay = await runMatch(spec, { adapter: adapterFor(spec.game), host, bots, slots: options.slots });
  replay.result.sandbox = fleet.sandboxKind;
  replay.result.seatStats.forEach((stats, seat) => {
    if (stats.errors.crash || stats.errors.timeout) fleet.markSuspect(fleetId(spec.seats[seat]!), instances[seat]);
  });
  return replay;
}

export async function executeLocal(specs: MatchSpec[], options: LocalExecutorOptions): Promise<MatchResult[]> {
  const concurrency = options.concurrency ?? 1;
  const slots = new CpuSlots(concurrency);
  const results: MatchResult[] = [];
  let next = 0;

  const worker = async () => {
    while (next < specs.length && !options.signal?.aborted) {
      const replay = await playSpec(specs[next++]!, { fleet: options.fleet, hosts: options.hosts, slots });
      results.push(replay.result);
      await options.onReplay?.(replay);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, specs.length) }, worker));
  return results;
}
