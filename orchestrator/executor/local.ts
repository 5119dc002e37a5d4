// The in-process executor: runs match specs on this machine, streaming each finished game to
// `onReplay`. With a fixed concurrency C: C games at a time and C busy-bot slots. With 'auto' (the
// default of a tourney): the busy-bot slots follow the adaptive controller (1 to the cores, more
// for I/O-bound bots; orchestrator/match/concurrency-controller.ts) and one game more than slots is
// in flight, so a bot never waits for the orchestrator between two moves. Either way every bot the
// specs need is started at once in the background (in order of first use, `cores` at a time), the
// next game is one whose bots are idle where there is one, and a game starts its seats together.
import os from 'node:os';
import { adapterFor } from '../../games/registry.ts';
import type { GameServerPool } from '../host/game-servers.ts';
import { AdaptiveSlots } from '../match/adaptive-slots.ts';
import { ConcurrencyController, type ControllerEvent, type ControllerOptions } from '../match/concurrency-controller.ts';
import { CpuSlots } from '../match/cpu-slots.ts';
import { runMatch, type SeatBot } from '../match/runner.ts';
import type { MatchResult, MatchSpec, Replay } from '../../model/match.ts';
import type { BotFleet } from './bot-fleet.ts';
import type { LiveListener } from '../../model/live.ts';

export interface LocalExecutorOptions {
  fleet: BotFleet;
  hosts: GameServerPool;
  /** Games in flight and bots computing at once (default 1), or 'auto' (adaptive). */
  concurrency?: number | 'auto';
  /**
   * With 'auto': the controller to continue (an executor keeps one across its tracks' calls, so a
   * short call does not start over with probes a longer run already settled); default a new one.
   */
  controller?: ConcurrencyController;
  /** Called once at the end with how much concurrency was used (the mean level, for 'auto'). */
  onConcurrency?: (stats: ConcurrencyStats) => void;
  /** Called as each game ends, in completion order; awaited before the slot is reused. */
  onReplay?: (replay: Replay) => Promise<void> | void;
  /** Stop scheduling new games (games in flight finish). */
  signal?: AbortSignal;
  /** Observer of the games in flight (model/live.ts). */
  onLive?: LiveListener;
}

export interface ConcurrencyStats {
  mode: 'fixed' | 'auto';
  /** Time-weighted mean of busy-bot slots over the games' wall time. */
  meanLevel: number;
  /** The level at the end. */
  finalLevel: number;
  /** [ms since start, level] at each change ('auto'). */
  timeline: Array<[number, number]>;
  /** The controller's probes and decisions ('auto'). */
  events: ControllerEvent[];
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
  onLive?: LiveListener;
}

/** Plays one spec with warm bots from the fleet; a bot that crashed is checked before its next game. */
export async function playSpec(spec: MatchSpec, options: PlaySpecOptions): Promise<Replay> {
  const { fleet } = options;
  const fleetId = options.fleetId ?? ((id: string) => id);
  const host = await options.hosts.get(spec.game, spec.variant);
  const instances = seatInstances(spec.seats);
  // Seats start together (a fleet shares one start between requests for the same bot).
  const clients = await Promise.all(spec.seats.map((id, seat) => fleet.client(fleetId(id), instances[seat])));
  const bots: SeatBot[] = spec.seats.map((id, seat) => {
    const client = clients[seat]!;
    return { strategyId: id, client, unavailable: client ? undefined : fleet.startError(fleetId(id), instances[seat]) };
  });
  const replay = await runMatch(spec, { adapter: adapterFor(spec.game), host, bots, slots: options.slots, onLive: options.onLive });
  replay.result.sandbox = fleet.sandboxKind;
  replay.result.seatStats.forEach((stats, seat) => {
    if (stats.errors.crash || stats.errors.timeout) fleet.markSuspect(fleetId(spec.seats[seat]!), instances[seat]);
  });
  return replay;
}

/**
 * The adaptive controller's settings on `cores` cores: 1 to the cores (2 × for I/O-bound bots),
 * starting at the cores, the usual best for CPU-bound bots. It holds 4 windows between probes, not
 * 2: a lost probe down costs about a third of a window's games, so a short arena should probe
 * once, not twice (`npm run bench -- concurrency`).
 */
export function controllerOptions(cores: number): ControllerOptions {
  return { max: cores, ioMax: 2 * cores, start: cores, hold: 4 };
}

/** The adaptive controller for this machine's cores. */
export function newController(): ConcurrencyController {
  return new ConcurrencyController(controllerOptions(Math.max(1, os.availableParallelism())));
}

/** How many specs ahead the executor looks for a game whose bots are idle. */
const LOOKAHEAD = 8;

export async function executeLocal(specs: MatchSpec[], options: LocalExecutorOptions): Promise<MatchResult[]> {
  const cores = Math.max(1, os.availableParallelism());
  const auto = options.concurrency === 'auto';
  const fixed = auto ? 0 : ((options.concurrency as number | undefined) ?? 1);
  // Start at the cores (the usual best for CPU-bound bots); two lost probes down bring it to fewer.
  const controller = auto ? (options.controller ?? newController()) : undefined;
  const slots = new CpuSlots(controller ? controller.level : fixed);
  // The last games of the specs leave slots empty whatever the level: not its measure.
  const underfed = () => pending.length === 0 && inFlight < gamesAllowed();
  const adaptive = controller ? new AdaptiveSlots(slots, controller, { botCpuMs: () => options.fleet.cpuTimeMs(), underfed }) : undefined;
  /** Games allowed in flight now. */
  const gamesAllowed = () => (adaptive ? slots.capacity + 1 : fixed);
  const workers = Math.min(specs.length, controller ? controller.hardCeiling + 1 : fixed);

  let stopped = false;
  const starts = startBots(specs, options.fleet, Math.max(2, cores), () => stopped);
  const results: MatchResult[] = [];
  const pending = [...specs];
  const playing = new Map<string, number>();
  let inFlight = 0;
  let wake: Array<() => void> = [];
  const notify = () => {
    const waiting = wake;
    wake = [];
    for (const w of waiting) w();
  };

  /**
   * The next spec: the first (of a few) whose strategies play no game now, else the first. The
   * extra game that auto keeps in flight beyond the slots is only one whose strategies are idle,
   * else none (null): sharing a bot with a game in flight, its calls would take a slot to wait on
   * a busy bot (a Flask bot answers one at a time) while a core idles (`npm run bench -- concurrency`).
   */
  const take = (): MatchSpec | null => {
    let i = 0;
    if (inFlight > 0) {
      const idle = pending.slice(0, LOOKAHEAD).findIndex((spec) => spec.seats.every((id) => !playing.get(id)));
      if (idle > 0) i = idle;
      else if (idle < 0 && adaptive && inFlight >= slots.capacity) return null;
    }
    return pending.splice(i, 1)[0]!;
  };

  const worker = async () => {
    for (;;) {
      while (pending.length > 0 && !options.signal?.aborted && inFlight >= gamesAllowed()) await new Promise<void>((r) => wake.push(r));
      if (pending.length === 0 || options.signal?.aborted) return;
      const spec = take();
      if (!spec) {
        await new Promise<void>((r) => wake.push(r)); // a game ends, or the level changes (poke)
        continue;
      }
      inFlight++;
      for (const id of spec.seats) playing.set(id, (playing.get(id) ?? 0) + 1);
      try {
        // Its bots start in their turn (`cores` at a time, the first game's first), not all at once.
        await Promise.all(seatInstances(spec.seats).map((instance, seat) => starts.ready(spec.seats[seat]!, instance)));
        const replay = await playSpec(spec, { fleet: options.fleet, hosts: options.hosts, slots, onLive: options.onLive });
        results.push(replay.result);
        await options.onReplay?.(replay);
      } finally {
        inFlight--;
        for (const id of spec.seats) playing.set(id, playing.get(id)! - 1);
        notify();
      }
    }
  };
  // A level change may allow another game: wake the waiting workers now and then.
  const poke = adaptive ? setInterval(notify, 20) : undefined;
  adaptive?.start();
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    stopped = true;
    clearInterval(poke);
    adaptive?.stop();
    notify();
    await starts.done;
  }
  options.onConcurrency?.(
    adaptive
      ? { mode: 'auto', meanLevel: adaptive.meanLevel(), finalLevel: slots.capacity, timeline: adaptive.timeline, events: controller!.events }
      : { mode: 'fixed', meanLevel: fixed, finalLevel: fixed, timeline: [[0, fixed]], events: [] },
  );
  return results;
}

/**
 * Starts every bot the specs seat, in order of first use, `parallel` at a time, without waiting
 * for the games; `ready` resolves when a bot's start is over (started or failed: the game then
 * learns which from the fleet), at once for a bot not in the list or once `stopped()`. `done`
 * resolves when no start is under way any more (the caller awaits it, so no bot starts after close).
 */
export function startBots(specs: MatchSpec[], fleet: BotFleet, parallel: number, stopped: () => boolean): { ready(id: string, instance: number): Promise<void>; done: Promise<void> } {
  const queue: Array<{ id: string; instance: number; settle: () => void; settled: Promise<void> }> = [];
  const byKey = new Map<string, Promise<void>>();
  for (const spec of specs) {
    seatInstances(spec.seats).forEach((instance, seat) => {
      const id = spec.seats[seat]!;
      const key = `${id}\u0000${instance}`;
      if (byKey.has(key)) return;
      let settle!: () => void;
      const settled = new Promise<void>((r) => (settle = r));
      byKey.set(key, settled);
      queue.push({ id, instance, settle, settled });
    });
  }
  const next = async (): Promise<void> => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      if (!stopped()) await fleet.client(item.id, item.instance).catch(() => null);
      item.settle();
    }
  };
  const done = Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, next)).then(() => undefined);
  return { ready: (id, instance) => byKey.get(`${id}\u0000${instance}`) ?? Promise.resolve(), done };
}
