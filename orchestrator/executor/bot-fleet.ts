// Keeps one running bot per strategy, started on first use and reused across games (like
// fastchess's engine cache). A bot that crashed is health-checked before its next game and
// restarted a bounded number of times; one that cannot start is reported, never retried forever.
// A strategy that sits in two seats of one game (Bridge partners) gets a second instance, a
// process of its own (CATArena runs bridge bots twice, on ports P and P+1), so bots that keep
// per-game state for "their" seat work unchanged.
import path from 'node:path';
import { type BotHandle, BotStartError, type HealthCheck, type Sandbox } from '../../sandbox/types.ts';
import { releasePort, startOnFreePort } from '../../sandbox/ports.ts';
import { BotClient } from '../match/bot-client.ts';

export interface StrategyRef {
  id: string;
  dir: string;
  /** Set for a strategy that failed its build or validation: it is never started and forfeits. */
  forfeit?: string;
  /** The strategy's bot, already running and healthy (the one that passed validation): used as its first start. */
  warm?: BotHandle;
  /** One service answers for every seat of this strategy (a human seat): no second instance is started. */
  sharedInstances?: boolean;
}

/** Stops a bot and gives its port back: the fleet's own bots, and validated bots it was handed or never got. */
export async function stopBot(handle: BotHandle): Promise<void> {
  await handle.stop();
  releasePort(handle.port);
}

/** Where a fleet in `logDir` logs a strategy's bot. */
export const botLogFile = (logDir: string, id: string) => path.join(logDir, `${id.replace(/[^\w.@-]+/g, '_')}.log`);

export interface BotFleetOptions {
  sandbox: Sandbox;
  health: HealthCheck;
  startTimeoutMs?: number;
  /** Folder for per-bot logs (<id>.log). */
  logDir: string;
  /** Restarts allowed per strategy after crashes (default 3). */
  maxRestarts?: number;
  /** Extra environment for every bot. */
  env?: Record<string, string>;
  /** Orchestrator ports bots may reach at localhost (the game server), for isolated sandboxes. */
  hostPorts?: Record<number, number>;
}

export interface BotStatus {
  id: string;
  starts: number;
  restarts: number;
  startError?: string;
  /** What the last crash looked like: exit status (where the sandbox knows it) and last output. */
  lastCrash?: string;
  logFile: string;
}

/** Instance 0 is the strategy id itself; instance k > 0 is "<id>#<k+1>". */
const instanceKey = (id: string, instance: number) => (instance === 0 ? id : `${id}#${instance + 1}`);

type Entry = {
  ref: StrategyRef;
  running?: Promise<{ handle: BotHandle; client: BotClient } | null>;
  handle?: BotHandle;
  /** The running bot's client (what the CPU slots are given for it). */
  client?: BotClient;
  /** The last CPU figure read for `handle`. */
  cpu?: { handle: BotHandle; ms: number | undefined };
  /** The sandbox limits of `handle` already reported (newLimitsHit). */
  limits?: { handle: BotHandle; seen: Set<string> };
  suspect: boolean;
  status: BotStatus;
};

export class BotFleet {
  private readonly entries = new Map<string, Entry>();
  /** Bot starts over the fleet's life, evicted bots included. */
  started = 0;

  constructor(private readonly options: BotFleetOptions) {}

  /** The kind of sandbox this fleet's bots run in. */
  get sandboxKind(): string {
    return this.options.sandbox.kind;
  }

  add(refs: StrategyRef[]): void {
    for (const ref of refs) {
      if (this.entries.has(ref.id)) {
        if (ref.warm) void stopBot(ref.warm); // a bot of this strategy runs already
        continue;
      }
      const { warm, ...plain } = ref;
      const entry: Entry = {
        ref: plain,
        suspect: false,
        status: {
          id: ref.id,
          starts: 0,
          restarts: 0,
          logFile: warm?.logFile ?? botLogFile(this.options.logDir, ref.id),
        },
      };
      if (warm) {
        entry.status.starts = 1;
        entry.handle = warm;
        entry.client = new BotClient(warm.url, { connect: warm.connect, callerId: warm.callerId });
        entry.running = Promise.resolve({ handle: warm, client: entry.client });
      }
      this.entries.set(ref.id, entry);
    }
  }

  /**
   * The client for a strategy's bot (instance 0, or a further process of the same strategy),
   * starting or restarting it as needed; null when it cannot run.
   */
  async client(id: string, instance = 0): Promise<BotClient | null> {
    const entry = this.entry(id, instance);
    if (entry.running && entry.suspect) {
      entry.suspect = false;
      const bot = await entry.running;
      if (bot && !(await bot.handle.isHealthy(2_000))) {
        // A bot that just died may take a moment to be seen as exited (its container stopping).
        let exit: string | null | undefined = null;
        for (let i = 0; i < 10 && !exit && bot.handle.describeExit; i++) {
          exit = await bot.handle.describeExit().catch(() => null);
          if (!exit) await new Promise((r) => setTimeout(r, 150));
        }
        const tail = (await bot.handle.logTail(600).catch(() => '')).trim().split('\n').slice(-5).join('\n');
        entry.status.lastCrash = `${exit ?? 'not answering its health check'}${tail ? `; last output:\n${tail}` : ''}`;
        if (entry.status.restarts >= (this.options.maxRestarts ?? 3)) {
          entry.status.startError = `crashed and was restarted ${entry.status.restarts} times; giving up`;
          await this.stopEntry(entry);
          entry.running = Promise.resolve(null);
        } else {
          entry.status.restarts++;
          await this.stopEntry(entry);
          entry.running = undefined;
        }
      }
    }
    entry.running ??= this.start(entry);
    return (await entry.running)?.client ?? null;
  }

  /** Called after a game in which this bot crashed or stopped answering. */
  markSuspect(id: string, instance = 0): void {
    const entry = this.entries.get(instanceKey(id, instance));
    if (entry) entry.suspect = true;
  }

  /** Why a strategy's bot is unavailable, if it is. */
  startError(id: string, instance = 0): string | undefined {
    return this.entries.get(instanceKey(id, instance))?.status.startError;
  }

  private entry(id: string, instance: number): Entry {
    const key = instanceKey(id, instance);
    let entry = this.entries.get(key);
    if (!entry) {
      const base = this.entries.get(id);
      if (!base) throw new Error(`unknown strategy ${id}`);
      if (base.ref.sharedInstances) return base;
      const logFile = base.status.logFile.replace(/\.log$/, `#${instance + 1}.log`);
      entry = { ref: { ...base.ref, id: key }, suspect: false, status: { id: key, starts: 0, restarts: 0, logFile } };
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Stops every instance of a strategy's bot and forgets it (a worker's LRU evicting idle bots). */
  async evict(id: string): Promise<void> {
    // Forget first (synchronously): a game that asks for this strategy meanwhile starts a fresh
    // bot instead of getting the one being stopped.
    const gone = [...this.entries.entries()].filter(([key]) => key === id || key.startsWith(`${id}#`));
    for (const [key] of gone) this.entries.delete(key);
    await Promise.all(gone.map(([, entry]) => this.stopEntry(entry)));
  }

  /**
   * CPU ms used so far by the fleet's running bots (their process trees), where the sandbox can
   * tell (process and Docker sandboxes on Linux); undefined when no running bot can. A bot stopped
   * or restarted between two calls makes the sum drop: callers take a negative difference as unknown.
   * With `called` (the clients called since the last reading), the other bots keep their last
   * figure: a bot nobody called computed nothing since, and reading /proc for every bot of every
   * fleet at every window cost the orchestrator's thread more than the rest of the controller.
   */
  cpuTimeMs(called?: ReadonlySet<object>): number | undefined {
    return sumKnown(
      [...this.entries.values()].map((entry) => {
        const handle = entry.handle;
        if (!handle?.cpuTimeMs) return undefined;
        const fresh =
          !called || entry.cpu?.handle !== handle || (entry.client !== undefined && called.has(entry.client));
        if (fresh) entry.cpu = { handle, ms: handle.cpuTimeMs() };
        return entry.cpu!.ms;
      }),
    );
  }

  /** The sandbox limits a strategy's running bot has hit since the last call (BotHandle.limitsHit). */
  newLimitsHit(id: string, instance = 0): string[] {
    const entry = this.entries.get(instanceKey(id, instance));
    const handle = entry?.handle;
    if (!entry || !handle?.limitsHit) return [];
    if (entry.limits?.handle !== handle) entry.limits = { handle, seen: new Set() };
    const fresh = handle.limitsHit().filter((l) => !entry.limits!.seen.has(l));
    for (const l of fresh) entry.limits.seen.add(l);
    return fresh;
  }

  statuses(): BotStatus[] {
    return [...this.entries.values()].map((e) => ({ ...e.status }));
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.stopEntry(e)));
  }

  private async start(entry: Entry) {
    if (entry.ref.forfeit) {
      entry.status.startError = entry.ref.forfeit;
      return null;
    }
    entry.status.starts++;
    this.started++;
    try {
      const handle = await startOnFreePort(this.options.sandbox, {
        dir: entry.ref.dir,
        name: entry.ref.id,
        health: this.options.health,
        startTimeoutMs: this.options.startTimeoutMs,
        logFile: entry.status.logFile,
        env: this.options.env,
        hostPorts: this.options.hostPorts,
      });
      entry.handle = handle;
      entry.client = new BotClient(handle.url, { connect: handle.connect, callerId: handle.callerId });
      return { handle, client: entry.client };
    } catch (err) {
      const tail = err instanceof BotStartError && err.logTail ? `\n--- last output ---\n${err.logTail}` : '';
      entry.status.startError = `${(err as Error).message}${tail}`;
      return null;
    }
  }

  private async stopEntry(entry: Entry): Promise<void> {
    const bot = await entry.running?.catch(() => null);
    if (!bot) return;
    if (entry.handle === bot.handle) {
      entry.handle = undefined;
      entry.client = undefined;
      entry.cpu = undefined;
    }
    await bot.client.close();
    await stopBot(bot.handle);
  }
}

/** The sum of the values that are known; undefined when none is (CPU figures some bots cannot give). */
export function sumKnown(values: Iterable<number | undefined>): number | undefined {
  let total: number | undefined;
  for (const v of values) if (v !== undefined) total = (total ?? 0) + v;
  return total;
}
