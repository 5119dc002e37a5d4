// The Executor port: match specs go in, replays come out, wherever the games are played. The
// local executor plays them in this process with warm bots; the queued one puts them on a BullMQ
// queue for `catarena worker`s. createExecutor chooses one from the config; callers never branch
// on the queue again.
import { adapterFor } from '../../games/registry.ts';
import type { MatchSpec, Replay } from '../../records/match.ts';
import type { BotHandle, Sandbox } from '../../sandbox/types.ts';
import type { LiveListener } from '../../records/live.ts';
import type { GameServerPool } from '../game-server/game-servers.ts';
import { connectQueue } from '../queue/connection.ts';
import type { RunDir } from '../run/run-dir.ts';
import { BotFleet, botLogFile, type BotStatus, stopBot, type StrategyRef } from './bot-fleet.ts';
import { type ConcurrencyStats, GamePool, startBots } from './local.ts';

export interface RunOptions {
  /** Called once per finished game, in completion order; awaited before the next is delivered. */
  onReplay: (replay: Replay) => Promise<void> | void;
  /** Stop scheduling (local: games in flight finish; queued: queued games stay queued). */
  signal?: AbortSignal;
  /** Called once no game of these specs waits for this process's slots any more (the next call may fill what they leave). */
  onStarted?: () => void;
}

type Track = { game: string; variant: string };

/** Where a validated bot goes instead of being stopped (develop.ts keepBot's shape). */
export interface BotAdoption {
  /** Where the kept bot logs. */
  logFile(id: string): string;
  /** The bot is the executor's from then on: it plays with it or stops it. */
  take(id: string, bot: BotHandle): void;
}

export interface Executor {
  /** Strategies specs may seat, for one game and rule set (a failed build carries `forfeit`). */
  add(track: Track, strategies: StrategyRef[]): void;
  /**
   * Where validation hands a track's bots that passed, so they play without a second start;
   * undefined when the games are not played in this process (validation stops its bot).
   */
  adoption(track: Track): BotAdoption | undefined;
  /**
   * Plays the specs not in flight already. Calls may overlap: a later call's games queue behind
   * the earlier ones' and fill the slots they leave (the next track while the last games of one finish).
   */
  run(specs: MatchSpec[], options: RunOptions): Promise<void>;
  /**
   * Starts in the background what these specs will need (their strategies added), so their games
   * start at once when run() comes to them; optional (queued games start on the workers).
   */
  prepare?(specs: MatchSpec[]): void;
  /** Stops what the executor started (bots, connections) and the bots it adopted. */
  close(): Promise<void>;
}

/** What createExecutor reads from a tourney's config. */
export interface ExecutorConfig {
  concurrency: number | 'auto';
  startTimeoutMs: number;
  /** redis://host:port: games go to `catarena worker`s through this queue. */
  queue?: string;
}

export interface ExecutorDeps {
  sandbox: Sandbox;
  hosts: GameServerPool;
  /** Lines worth showing (the queue's connection trouble). */
  report?: (message: string) => void;
  /** How long the queue's Redis may be unreachable before the run stops. */
  graceMs?: number;
  /** Game slots shared with other runs of this process (the repeats of a study); default the executor's own. */
  pool?: GamePool;
}

/**
 * The run's executor: queued when the config names a queue (which must answer now, not after
 * the agents spent their budget), else local.
 */
export async function createExecutor(config: ExecutorConfig, run: RunDir, deps: ExecutorDeps): Promise<Executor> {
  if (config.queue) {
    (await connectQueue(config.queue, { warn: (m) => deps.report?.(`! ${m}`) })).disconnect();
    return new QueuedExecutor({
      url: config.queue,
      run: await run.identity(),
      startTimeoutMs: config.startTimeoutMs,
      graceMs: deps.graceMs,
      report: deps.report,
    });
  }
  return new LocalExecutor({
    sandbox: deps.sandbox,
    hosts: deps.hosts,
    concurrency: config.concurrency,
    startTimeoutMs: config.startTimeoutMs,
    logDir: (track) => run.botLogsDir(track),
    onLive: run.appendLive,
    pool: deps.pool,
  });
}

/**
 * The executor of a run of one track (an arena, a rating): its bots log into the run's own bot-log
 * folder, its live events go to the run's live.jsonl and then to `onLive`.
 */
export function singleTrackExecutor(
  run: RunDir,
  options: Pick<LocalExecutorOptions, 'sandbox' | 'hosts' | 'concurrency' | 'startTimeoutMs'>,
  onLive?: LiveListener,
): LocalExecutor {
  return new LocalExecutor({
    sandbox: options.sandbox,
    hosts: options.hosts,
    concurrency: options.concurrency,
    startTimeoutMs: options.startTimeoutMs,
    logDir: () => run.botLogsDir(),
    onLive: (event) => (run.appendLive(event), onLive?.(event)),
  });
}

export interface LocalExecutorOptions {
  sandbox: Sandbox;
  hosts: GameServerPool;
  /** Games and busy bots at once, or 'auto': adaptive (orchestrator/concurrency/concurrency-controller.ts). */
  concurrency: number | 'auto';
  startTimeoutMs?: number;
  /** After each run() call: the concurrency used so far (mean level for 'auto'). */
  onConcurrency?: (stats: ConcurrencyStats) => void;
  /** Where a track's bot logs go. */
  logDir(track: Track): string;
  /** Observer of the games in flight (records/live.ts): the run's live.jsonl, a human seat's page. */
  onLive?: LiveListener;
  /** Game slots shared with other executors (default: its own, for `concurrency`). */
  pool?: GamePool;
}

const trackKey = (track: Track) => `${track.game}/${track.variant}`;

/** Games in this process, `concurrency` at a time (or adaptive), with one warm bot fleet per game and rule set. */
export class LocalExecutor implements Executor {
  private readonly fleets = new Map<string, Promise<BotFleet>>();
  /** Strategies added but not yet handed to their track's fleet. */
  private readonly added = new Map<string, StrategyRef[]>();
  /** "game/variant|strategy id" → its validated bot, until the strategy is added (ids repeat in every track). */
  private readonly adopted = new Map<string, BotHandle>();
  /** Bot starts prepare() began; close() waits for them, so no bot starts after it. */
  private readonly preparing: Array<Promise<void>> = [];
  private closing = false;
  /** The game slots, with one adaptive controller for all tracks' games ('auto'): what it learnt carries over. */
  private readonly pool: GamePool;

  constructor(private readonly options: LocalExecutorOptions) {
    this.pool = options.pool ?? new GamePool({ concurrency: options.concurrency });
  }

  private fleet(game: string, variant: string): Promise<BotFleet> {
    const key = `${game}/${variant}`;
    let fleet = this.fleets.get(key);
    if (!fleet) {
      fleet = this.options.hosts.get(game, variant).then(
        (server) =>
          new BotFleet({
            sandbox: this.options.sandbox,
            health: adapterFor(game).health,
            logDir: this.options.logDir({ game, variant }),
            startTimeoutMs: this.options.startTimeoutMs,
            ...server.botAccess(),
          }),
      );
      this.fleets.set(key, fleet);
    }
    return fleet;
  }

  adoption(track: Track): BotAdoption {
    return {
      logFile: (id) => botLogFile(this.options.logDir(track), id),
      take: (id, bot) => {
        if (this.closing) void stopBot(bot);
        else this.adopted.set(`${trackKey(track)}|${id}`, bot);
      },
    };
  }

  add(track: Track, strategies: StrategyRef[]): void {
    const key = trackKey(track);
    const withBots = strategies.map((ref) => {
      const warm = this.adopted.get(`${key}|${ref.id}`);
      this.adopted.delete(`${key}|${ref.id}`);
      if (warm && ref.warm) void stopBot(warm);
      return warm && !ref.warm ? { ...ref, warm } : ref;
    });
    this.added.set(key, [...(this.added.get(key) ?? []), ...withBots]);
  }

  /** The track's fleet with every strategy added so far. */
  private async fleetWithAdded(game: string, variant: string): Promise<BotFleet> {
    const fleet = await this.fleet(game, variant);
    fleet.add(this.added.get(`${game}/${variant}`) ?? []);
    this.added.delete(`${game}/${variant}`);
    return fleet;
  }

  prepare(specs: MatchSpec[]): void {
    for (const group of byTrack(specs)) {
      const { game, variant } = group[0]!;
      // One start at a time: this runs beside another track's games, which need the CPU more.
      const started = this.fleetWithAdded(game, variant).then(
        (fleet) => startBots(group, fleet, 1, () => this.closing).done,
      );
      this.preparing.push(started.catch(() => {})); // a bot that fails to start fails its games when they come
    }
  }

  async run(specs: MatchSpec[], options: RunOptions): Promise<void> {
    // One fleet per track: a call with several tracks plays them one after the other.
    const groups = byTrack(specs);
    try {
      for (const [k, group] of groups.entries()) {
        if (options.signal?.aborted) return;
        const { game, variant } = group[0]!;
        const fleet = await this.fleetWithAdded(game, variant);
        await this.pool.play(group, {
          fleet,
          hosts: this.options.hosts,
          signal: options.signal,
          onReplay: options.onReplay,
          onLive: this.options.onLive,
          onStarted: k === groups.length - 1 ? options.onStarted : undefined,
        });
        this.options.onConcurrency?.(this.pool.stats());
      }
    } finally {
      if (!groups.length || options.signal?.aborted) options.onStarted?.();
    }
  }

  /** Every bot's start and crash record so far. */
  async statuses(): Promise<BotStatus[]> {
    return (await Promise.all([...this.fleets.values()].map(async (f) => (await f).statuses()))).flat();
  }

  async close(): Promise<void> {
    this.closing = true;
    const unused = [
      ...[...this.added.values()].flat().flatMap((ref) => (ref.warm ? [ref.warm] : [])),
      ...this.adopted.values(),
    ];
    this.added.clear();
    this.adopted.clear();
    await Promise.all(unused.map(stopBot));
    await Promise.all(this.preparing);
    if (!this.options.pool) this.pool.close();
    await Promise.all([...this.fleets.values()].map(async (f) => (await f).stopAll()));
  }
}

/** Specs grouped by game and rule set, in order of first appearance. */
function byTrack(specs: MatchSpec[]): MatchSpec[][] {
  const groups = new Map<string, MatchSpec[]>();
  for (const spec of specs) groups.set(trackKey(spec), [...(groups.get(trackKey(spec)) ?? []), spec]);
  return [...groups.values()];
}

export interface QueuedExecutorOptions {
  url: string;
  /** The run's identity (RunDir.identity): part of every job id. */
  run: string;
  startTimeoutMs: number;
  /** How long Redis may be unreachable before the run stops. */
  graceMs?: number;
  report?: (message: string) => void;
}

/** Games on `catarena worker`s through a BullMQ queue; the code travels through Redis. */
export class QueuedExecutor implements Executor {
  private readonly strategies = new Map<string, { dir: string } | { forfeit: string }>();

  constructor(private readonly options: QueuedExecutorOptions) {}

  adoption(): undefined {
    return undefined; // workers start their own bots
  }

  add(_track: Track, strategies: StrategyRef[]): void {
    for (const s of strategies) {
      if (s.warm) void stopBot(s.warm); // workers start their own bots
      this.strategies.set(s.id, s.forfeit ? { forfeit: s.forfeit } : { dir: s.dir });
    }
  }

  async run(specs: MatchSpec[], options: RunOptions): Promise<void> {
    // Loaded here, not at the top: a local run never needs bullmq and ioredis.
    const { executeQueued } = await import('./queued.ts');
    options.onStarted?.(); // workers take the games from the queue: nothing waits for this process
    await executeQueued(specs, {
      ...this.options,
      strategies: this.strategies,
      onReplay: options.onReplay,
      signal: options.signal,
    });
  }

  async close(): Promise<void> {}
}
