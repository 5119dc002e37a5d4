// The Executor port: match specs go in, replays come out, wherever the games are played. The
// local executor plays them in this process with warm bots; the queued one puts them on a BullMQ
// queue for `catarena worker`s. A tourney or an arena chooses one once and never branches again.
import { adapterFor } from '../../games/registry.ts';
import type { MatchSpec, Replay } from '../../model/match.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import type { LiveListener } from '../../model/live.ts';
import type { GameServerPool } from '../host/game-servers.ts';
import { BotFleet, type BotStatus, stopBot, type StrategyRef } from './bot-fleet.ts';
import { type ConcurrencyStats, executeLocal, newController, startBots } from './local.ts';

export interface RunOptions {
  /** Called once per finished game, in completion order; awaited before the next is delivered. */
  onReplay: (replay: Replay) => Promise<void> | void;
  /** Stop scheduling (local: games in flight finish; queued: queued games stay queued). */
  signal?: AbortSignal;
}

export interface Executor {
  /**
   * Strategies specs may seat, for one game and rule set (a failed build carries `forfeit`). A
   * `warm` bot is the executor's from then on: it plays with it or stops it.
   */
  add(track: { game: string; variant: string }, strategies: StrategyRef[]): void;
  run(specs: MatchSpec[], options: RunOptions): Promise<void>;
  /**
   * Starts in the background what these specs will need (their strategies added), so their games
   * start at once when run() comes to them; optional (queued games start on the workers).
   */
  prepare?(specs: MatchSpec[]): void;
  /** Stops what the executor started (bots, connections). */
  close(): Promise<void>;
}

export interface LocalExecutorOptions {
  sandbox: Sandbox;
  hosts: GameServerPool;
  /** Games and busy bots at once, or 'auto': adaptive (orchestrator/match/concurrency-controller.ts). */
  concurrency: number | 'auto';
  startTimeoutMs?: number;
  /** After each track's games: the concurrency used (mean level for 'auto'). */
  onConcurrency?: (stats: ConcurrencyStats) => void;
  /** Where a track's bot logs go. */
  logDir(track: { game: string; variant: string }): string;
  /** Observer of the games in flight (model/live.ts): the run's live.jsonl, a human seat's page. */
  onLive?: LiveListener;
}

/** Games in this process, `concurrency` at a time (or adaptive), with one warm bot fleet per game and rule set. */
export class LocalExecutor implements Executor {
  private readonly fleets = new Map<string, Promise<BotFleet>>();
  /** Strategies added but not yet handed to their track's fleet. */
  private readonly added = new Map<string, StrategyRef[]>();
  /** Bot starts prepare() began; close() waits for them, so no bot starts after it. */
  private readonly preparing: Array<Promise<void>> = [];
  private closing = false;
  /** One adaptive controller for all tracks' games ('auto'): what it learnt carries over. */
  private readonly controller: ReturnType<typeof newController> | undefined;

  constructor(private readonly options: LocalExecutorOptions) {
    this.controller = options.concurrency === 'auto' ? newController() : undefined;
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

  add(track: { game: string; variant: string }, strategies: StrategyRef[]): void {
    const key = `${track.game}/${track.variant}`;
    this.added.set(key, [...(this.added.get(key) ?? []), ...strategies]);
  }

  /** The track's fleet with every strategy added so far. */
  private async fleetWithAdded(game: string, variant: string): Promise<BotFleet> {
    const fleet = await this.fleet(game, variant);
    fleet.add(this.added.get(`${game}/${variant}`) ?? []);
    this.added.delete(`${game}/${variant}`);
    return fleet;
  }

  prepare(specs: MatchSpec[]): void {
    const byTrack = new Map<string, MatchSpec[]>();
    for (const spec of specs) byTrack.set(`${spec.game}/${spec.variant}`, [...(byTrack.get(`${spec.game}/${spec.variant}`) ?? []), spec]);
    for (const group of byTrack.values()) {
      const { game, variant } = group[0]!;
      // One start at a time: this runs beside another track's games, which need the CPU more.
      const started = this.fleetWithAdded(game, variant).then((fleet) => startBots(group, fleet, 1, () => this.closing).done);
      this.preparing.push(started.catch(() => {})); // a bot that fails to start fails its games when they come
    }
  }

  async run(specs: MatchSpec[], options: RunOptions): Promise<void> {
    // One fleet per track: a run of several tracks plays them one after the other.
    const byTrack = new Map<string, MatchSpec[]>();
    for (const spec of specs) byTrack.set(`${spec.game}/${spec.variant}`, [...(byTrack.get(`${spec.game}/${spec.variant}`) ?? []), spec]);
    for (const group of byTrack.values()) {
      if (options.signal?.aborted) return;
      const { game, variant } = group[0]!;
      const fleet = await this.fleetWithAdded(game, variant);
      await executeLocal(group, { fleet, hosts: this.options.hosts, concurrency: this.options.concurrency, controller: this.controller, onConcurrency: this.options.onConcurrency, signal: options.signal, onReplay: options.onReplay, onLive: this.options.onLive });
    }
  }

  /** Every bot's start and crash record so far. */
  async statuses(): Promise<BotStatus[]> {
    return (await Promise.all([...this.fleets.values()].map(async (f) => (await f).statuses()))).flat();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.added.values()].flat().map((ref) => ref.warm && stopBot(ref.warm)));
    this.added.clear();
    await Promise.all(this.preparing);
    await Promise.all([...this.fleets.values()].map(async (f) => (await f).stopAll()));
  }
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

  add(_track: { game: string; variant: string }, strategies: StrategyRef[]): void {
    for (const s of strategies) {
      if (s.warm) void stopBot(s.warm); // workers start their own bots
      this.strategies.set(s.id, s.forfeit ? { forfeit: s.forfeit } : { dir: s.dir });
    }
  }

  async run(specs: MatchSpec[], options: RunOptions): Promise<void> {
    // Loaded here, not at the top: a local run never needs bullmq and ioredis.
    const { executeQueued } = await import('./queued.ts');
    await executeQueued(specs, { ...this.options, strategies: this.strategies, onReplay: options.onReplay, signal: options.signal });
  }

  async close(): Promise<void> {}
}
