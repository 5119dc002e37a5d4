// One game server per (game, variant), started on first use: bots are given its URL, and
// CATArena bots that hard-code a port find it there when that port is free.
import { adapterFor } from '../../games/registry.ts';
import { GameServer } from './game-server.ts';

export interface GameServerPoolOptions {
  /** Fixed ports per "game/variant"; otherwise the CATArena port if free, else any free port. */
  ports?: Record<string, number>;
  preferCatarenaPorts?: boolean;
}

export class GameServerPool {
  private readonly servers = new Map<string, Promise<GameServer>>();

  constructor(private readonly options: GameServerPoolOptions = {}) {}

  get(game: string, variant: string): Promise<GameServer> {
    const key = `${game}/${variant}`;
    let server = this.servers.get(key);
    if (!server) {
      server = new GameServer({
        adapter: adapterFor(game),
        variant,
        port: this.options.ports?.[key],
        preferCatarenaPort: this.options.preferCatarenaPorts ?? true,
      }).start();
      this.servers.set(key, server);
    }
    return server;
  }

  async closeAll(): Promise<void> {
    const servers = await Promise.allSettled(this.servers.values());
    await Promise.all(servers.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
    this.servers.clear();
  }
}
