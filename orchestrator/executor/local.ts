// The in-process executor: runs match specs on this machine, streaming each finished game to
// `onReplay`. With a fixed concurrency C: C games at a time and C busy-bot slots. With 'auto' (the
// default of a tourney): the busy-bot slots follow the adaptive controller (1 to the cores, more
// for I/O-bound bots; orchestrator/concurrency/concurrency-controller.ts) and 2 × slots + 1 games
// are in flight, so slots do not idle while the orchestrator passes a game's messages or while a
// game's next bot answers another game (such a call waits for its bot holding no slot:
// concurrency/cpu-slots.ts). Either way every bot the specs need is started at once in the
// background (in order of first use, `cores` at a time), the next game is one whose bots are idle
// where there is one, and a game starts its seats together.
import os from 'node:os';
import { adapterFor } from '../../games/registry.ts';
import type { GameServerPool } from '../game-server/game-servers.ts';
import { AdaptiveSlots } from '../concurrency/adaptive-slots.ts';
import {
  ConcurrencyController,
  type ControllerEvent,
  type ControllerOptions,
} from '../concurrency/concurrency-controller.ts';
import { CpuSlots } from '../concurrency/cpu-slots.ts';
import { runMatch, type SeatBot } from '../match/runner.ts';
import type { MatchResult, MatchSpec, Replay } from '../../records/match.ts';
import { type BotFleet, sumKnown } from './bot-fleet.ts';
import type { LiveListener } from '../../records/live.ts';

export interface ExecuteLocalOptions {
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
  /** Observer of the games in flight (records/live.ts). */
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
  const replay = await runMatch(spec, {
    adapter: adapterFor(spec.game),
    host,
    bots,
    slots: options.slots,
    onLive: options.onLive,
  });
  replay.result.sandbox = fleet.sandboxKind;
  // A bot stopped by a sandbox limit (a fork bomb, a memory hog) is named against its seat.
  const limits = spec.seats.flatMap((id, seat) =>
    fleet.newLimitsHit(fleetId(id), instances[seat]).map((limit) => ({
      seat,
      kind: 'sandbox_limit' as const,
      count: 1,
      detail: `its bot reached the sandbox's ${limit} limit`,
    })),
  );
  if (limits.length) replay.result.integrity = [...(replay.result.integrity ?? []), ...limits];
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

/**
 * With 'auto', games in flight per slot (plus one). In a table game every game seats every
 * strategy and one seat thinks at a time, so games wait on each other's bots: more games than slots
 * keep the slots filled. A waiting game holds no slot, so this costs only a little memory.
 */
const GAMES_PER_SLOT = 2;

/** How many specs ahead the executor looks for a game whose bots are idle. */
const LOOKAHEAD = 8;

export async function executeLocal(specs: MatchSpec[], options: ExecuteLocalOptions): Promise<MatchResult[]> {
  const pool = new GamePool({ concurrency: options.concurrency, controller: options.controller });
  try {
    return await pool.play(specs, {
      fleet: options.fleet,
      hosts: options.hosts,
      onReplay: options.onReplay,
      signal: options.signal,
      onLive: options.onLive,
    });
  } finally {
    pool.close();
    options.onConcurrency?.(pool.stats());
  }
}

export interface GamePoolOptions {
  /** Games in flight and bots computing at once (default 1), or 'auto' (adaptive). */
  concurrency?: number | 'auto';
  /** With 'auto': the controller to continue (default a new one). */
  controller?: ConcurrencyController;
}

/** One call of GamePool.play: its games share a fleet and a game server pool. */
export interface PoolBatchOptions {
  fleet: BotFleet;
  hosts: GameServerPool;
  onReplay?: (replay: Replay) => Promise<void> | void;
  signal?: AbortSignal;
  onLive?: LiveListener;
  /** Called once no game of the batch waits for a slot any more (all started or dropped). */
  onStarted?: () => void;
}

interface Batch extends PoolBatchOptions {
  /** Games queued or in flight. */
  left: number;
  /** Games queued. */
  queued: number;
  results: MatchResult[];
  starts: ReturnType<typeof startBots>;
  stopped: boolean;
  error?: unknown;
  settle(): void;
}

/**
 * The machine's game slots, shared by every batch of games given to `play`, also while earlier
 * batches still play: a batch's games queue behind the earlier batches' (first come, first
 * played), so the next track's games fill the cores the last games of the previous one leave idle.
 * The slots (and with 'auto' the adaptive controller) count all batches' games together.
 */
export class GamePool {
  private readonly cores = Math.max(1, os.availableParallelism());
  private readonly controller: ConcurrencyController | undefined;
  private readonly fixed: number;
  private readonly slots: CpuSlots;
  private readonly adaptive: AdaptiveSlots | undefined;
  private readonly fleets = new Set<BotFleet>();
  private pending: Array<{ spec: MatchSpec; batch: Batch }> = [];
  /** Games in flight per strategy ("game/variant|id": ids repeat across tracks). */
  private readonly playing = new Map<string, number>();
  private inFlight = 0;
  private workers = 0;
  private active = 0;
  private wake: Array<() => void> = [];
  private poke: NodeJS.Timeout | undefined;

  constructor(options: GamePoolOptions = {}) {
    const auto = options.concurrency === 'auto';
    this.fixed = auto ? 0 : ((options.concurrency as number | undefined) ?? 1);
    // Start at the cores (the usual best for CPU-bound bots); two lost probes down bring it to fewer.
    this.controller = auto ? (options.controller ?? newController()) : undefined;
    this.slots = new CpuSlots(this.controller ? this.controller.level : this.fixed);
    // The last games leave slots empty whatever the level: not its measure.
    const underfed = () => this.pending.length === 0 && this.inFlight < this.gamesAllowed();
    this.adaptive = this.controller
      ? new AdaptiveSlots(this.slots, this.controller, {
          botCpuMs: (called) => sumKnown([...this.fleets].map((f) => f.cpuTimeMs(called))),
          underfed,
        })
      : undefined;
  }

  /** Games allowed in flight now. */
  private gamesAllowed(): number {
    return this.adaptive ? GAMES_PER_SLOT * this.slots.capacity + 1 : this.fixed;
  }

  private get maxWorkers(): number {
    return this.controller ? GAMES_PER_SLOT * this.controller.hardCeiling + 1 : this.fixed;
  }

  /** The concurrency used so far (the mean level, for 'auto'). */
  stats(): ConcurrencyStats {
    return this.adaptive
      ? {
          mode: 'auto',
          meanLevel: this.adaptive.meanLevel(),
          finalLevel: this.slots.capacity,
          timeline: this.adaptive.timeline,
          events: this.controller!.events,
        }
      : { mode: 'fixed', meanLevel: this.fixed, finalLevel: this.fixed, timeline: [[0, this.fixed]], events: [] };
  }

  /**
   * Plays the specs after the games queued before them, streaming each finished game to
   * `onReplay` (awaited before its slot is reused). Every bot the specs need starts at once in the
   * background (in order of first use, `cores` at a time). Resolves when the batch's games are
   * over; on abort its queued games are dropped and those in flight finish.
   */
  play(specs: MatchSpec[], options: PoolBatchOptions): Promise<MatchResult[]> {
    if (!specs.length || options.signal?.aborted) {
      options.onStarted?.();
      return Promise.resolve([]);
    }
    this.fleets.add(options.fleet);
    let settle!: () => void;
    const over = new Promise<void>((resolve) => (settle = resolve));
    const batch: Batch = {
      ...options,
      left: specs.length,
      queued: specs.length,
      results: [],
      stopped: false,
      settle,
      starts: undefined!,
    };
    batch.starts = startBots(specs, options.fleet, Math.max(2, this.cores), () => batch.stopped);
    const onAbort = () => this.drop(batch);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    this.pending.push(...specs.map((spec) => ({ spec, batch })));
    if (this.active++ === 0) this.startAdaptive();
    for (let n = Math.min(this.pending.length, this.maxWorkers) - this.workers; n > 0; n--) void this.worker();
    this.notify();
    return over.then(async () => {
      options.signal?.removeEventListener('abort', onAbort);
      batch.stopped = true;
      await batch.starts.done;
      if (--this.active === 0) this.stopAdaptive();
      if (batch.error !== undefined) throw batch.error;
      return batch.results;
    });
  }

  /** Stops the adaptive controller's timer (the pool plays nothing more). */
  close(): void {
    this.stopAdaptive();
  }

  private startAdaptive(): void {
    // A level change may allow another game: wake the waiting workers now and then.
    if (this.adaptive) this.poke ??= setInterval(() => this.notify(), 20);
    this.adaptive?.start();
  }

  private stopAdaptive(): void {
    clearInterval(this.poke);
    this.poke = undefined;
    this.adaptive?.stop();
  }

  /** Drops a batch's queued games (its signal aborted or one of its games failed). */
  private drop(batch: Batch): void {
    const before = this.pending.length;
    this.pending = this.pending.filter((p) => p.batch !== batch);
    this.dequeued(batch, before - this.pending.length);
    this.finish(batch, before - this.pending.length);
  }

  private dequeued(batch: Batch, games: number): void {
    if (games === 0 || batch.queued === 0) return;
    batch.queued -= games;
    if (batch.queued === 0) batch.onStarted?.();
  }

  private finish(batch: Batch, games: number): void {
    batch.left -= games;
    if (batch.left === 0) batch.settle();
    this.notify();
  }

  private notify(): void {
    const waiting = this.wake;
    this.wake = [];
    for (const w of waiting) w();
  }

  private key(spec: MatchSpec, id: string): string {
    return `${spec.game}/${spec.variant}|${id}`;
  }

  /**
   * The next spec: the first (of a few) whose strategies play no game now, else the first. One that
   * shares a bot with a game in flight is fine: its calls wait for that bot without a slot.
   */
  private take(): { spec: MatchSpec; batch: Batch } {
    let i = 0;
    if (this.inFlight > 0) {
      const idle = this.pending
        .slice(0, LOOKAHEAD)
        .findIndex(({ spec }) => spec.seats.every((id) => !this.playing.get(this.key(spec, id))));
      if (idle > 0) i = idle;
    }
    return this.pending.splice(i, 1)[0]!;
  }

  private async worker(): Promise<void> {
    this.workers++;
    try {
      for (;;) {
        while (this.pending.length > 0 && this.inFlight >= this.gamesAllowed())
          await new Promise<void>((r) => this.wake.push(r));
        if (this.pending.length === 0) return;
        const next = this.take();
        this.dequeued(next.batch, 1);
        await this.playOne(next.spec, next.batch);
      }
    } finally {
      this.workers--;
    }
  }

  private async playOne(spec: MatchSpec, batch: Batch): Promise<void> {
    this.inFlight++;
    for (const id of spec.seats) this.playing.set(this.key(spec, id), (this.playing.get(this.key(spec, id)) ?? 0) + 1);
    try {
      // Its bots start in their turn (`cores` at a time, the first game's first), not all at once.
      await Promise.all(
        seatInstances(spec.seats).map((instance, seat) => batch.starts.ready(spec.seats[seat]!, instance)),
      );
      const replay = await playSpec(spec, {
        fleet: batch.fleet,
        hosts: batch.hosts,
        slots: this.slots,
        onLive: batch.onLive,
      });
      batch.results.push(replay.result);
      await batch.onReplay?.(replay);
    } catch (err) {
      // The batch fails once its games in flight are over; its queued games are not played.
      batch.error ??= err;
      this.drop(batch);
    } finally {
      this.inFlight--;
      for (const id of spec.seats) {
        const n = this.playing.get(this.key(spec, id))! - 1;
        if (n) this.playing.set(this.key(spec, id), n);
        else this.playing.delete(this.key(spec, id));
      }
      this.finish(batch, 1);
    }
  }
}

/**
 * Starts every bot the specs seat, in order of first use, `parallel` at a time, without waiting
 * for the games; `ready` resolves when a bot's start is over (started or failed: the game then
 * learns which from the fleet), at once for a bot not in the list or once `stopped()`. `done`
 * resolves when no start is under way any more (the caller awaits it, so no bot starts after close).
 */
export function startBots(
  specs: MatchSpec[],
  fleet: BotFleet,
  parallel: number,
  stopped: () => boolean,
): { ready(id: string, instance: number): Promise<void>; done: Promise<void> } {
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
