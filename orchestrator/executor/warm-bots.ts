// A worker's running bots: one fleet and game server per game and variant, bots kept warm across
// the jobs of a run and keyed by run and content (ids repeat across runs), and the least recently
// used idle bots stopped once more than `maxBots` are kept.
import { adapterFor } from '../../games/registry.ts';
import { contentId } from '../../util/content-id.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import { GameServerPool } from '../game-server/game-servers.ts';
import { BotFleet, sumKnown } from './bot-fleet.ts';

export interface WarmBotsOptions {
  sandbox: Sandbox;
  /** Where bot logs go (<logDir>/<game>-<variant>/<strategy>.log). */
  logDir: string;
  /** Idle bots kept running beyond this count are stopped, least recently used first. */
  maxBots: number;
}

interface Kept {
  fleet: BotFleet;
  key: string;
  users: number;
  lastUsed: number;
}

export class WarmBots {
  readonly hosts = new GameServerPool();
  private readonly fleets = new Map<string, Promise<BotFleet>>();
  /** The fleets once made, for the synchronous CPU sum. */
  private readonly made: BotFleet[] = [];
  private readonly kept = new Map<string, Kept>();
  private clock = 0;

  constructor(private readonly options: WarmBotsOptions) {}

  /**
   * The fleet for a game and variant, with each strategy of a job added under its content key;
   * returns the key per strategy id. Call `release` with the same keys when the game is over.
   */
  async acquire(
    run: string,
    game: string,
    variant: string,
    code: Record<string, { dir: string } | { forfeit: string }>,
    startTimeoutMs: number,
  ): Promise<{ fleet: BotFleet; keys: Record<string, string> }> {
    const fleet = await this.fleet(game, variant, startTimeoutMs);
    const keys: Record<string, string> = {};
    for (const [id, c] of Object.entries(code)) {
      // Per run as well as per code: a bot's restart budget (and a bot that gave up) is the run's,
      // as in-process, never carried into another run that this worker serves.
      const key = `${id}~${contentId({ run, code: 'dir' in c ? c.dir : c.forfeit }, 12)}`;
      fleet.add([{ id: key, dir: 'dir' in c ? c.dir : '', forfeit: 'forfeit' in c ? c.forfeit : undefined }]);
      keys[id] = key;
      const slot = `${game}/${variant}|${key}`;
      const kept = this.kept.get(slot) ?? { fleet, key, users: 0, lastUsed: 0 };
      kept.users++;
      kept.lastUsed = ++this.clock;
      this.kept.set(slot, kept);
    }
    return { fleet, keys };
  }

  async release(game: string, variant: string, keys: Record<string, string>): Promise<void> {
    for (const key of Object.values(keys)) {
      const kept = this.kept.get(`${game}/${variant}|${key}`);
      if (kept) kept.users--;
    }
    // Choose and forget synchronously, then stop: a job that starts meanwhile cannot pick up a
    // bot that is being stopped (it starts a fresh one).
    const idle = [...this.kept.entries()]
      .filter(([, k]) => k.users === 0)
      .sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    const evicted = idle.slice(0, Math.max(0, this.kept.size - this.options.maxBots));
    for (const [slot] of evicted) this.kept.delete(slot);
    await Promise.all(evicted.map(([, kept]) => kept.fleet.evict(kept.key)));
  }

  /**
   * CPU ms used so far by the running bots of every fleet, where the sandbox tells (BotFleet.cpuTimeMs);
   * with `called`, only the bots called since the last reading are read again.
   */
  cpuTimeMs(called?: ReadonlySet<object>): number | undefined {
    return sumKnown(this.made.map((fleet) => fleet.cpuTimeMs(called)));
  }

  /** Bots started so far (a warm worker starts each strategy's bot once per run). */
  async started(): Promise<number> {
    const fleets = await Promise.allSettled(this.fleets.values());
    return fleets.reduce((n, f) => n + (f.status === 'fulfilled' ? f.value.started : 0), 0);
  }

  async close(): Promise<void> {
    const fleets = await Promise.allSettled(this.fleets.values());
    await Promise.all(fleets.map((f) => (f.status === 'fulfilled' ? f.value.stopAll() : undefined)));
    await this.hosts.closeAll();
  }

  private fleet(game: string, variant: string, startTimeoutMs: number): Promise<BotFleet> {
    const track = `${game}/${variant}`;
    let fleet = this.fleets.get(track);
    if (!fleet) {
      fleet = this.hosts.get(game, variant).then((server) => {
        const made = new BotFleet({
          sandbox: this.options.sandbox,
          health: adapterFor(game).health,
          logDir: `${this.options.logDir}/${game}-${variant}`,
          startTimeoutMs,
          ...server.botAccess(),
        });
        this.made.push(made);
        return made;
      });
      this.fleets.set(track, fleet);
    }
    return fleet;
  }
}
