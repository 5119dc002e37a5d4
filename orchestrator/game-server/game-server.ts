// Serves CATArena's game-server API for one game and variant: the live games the arena plays
// (read-only for bots) and self-play games that bots or agents create during development. Who
// asks is the bot its sandbox's relay vouches for (sandbox/relayed-callers.ts), never a name in
// the request: a seat's private state goes only to the bot holding that seat (seat-ledger.ts).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { LiveGame, WireAdapter } from '../../games/core/wire.ts';
import type { IntegrityEvent } from '../../records/match.ts';
import { relayedCaller } from '../../sandbox/relayed-callers.ts';
import { createRng } from '../../util/rng.ts';
import { SeatLedger, type SeatHolder } from './seat-ledger.ts';

export interface GameServerOptions {
  adapter: WireAdapter<unknown, unknown>;
  variant: string;
  /** Port to listen on; 0 = any free port. */
  port?: number;
  /** Try the CATArena port first (bots may hard-code it), else a free port. Default true. */
  preferCatarenaPort?: boolean;
  host?: string;
  /**
   * Finished arena games kept for late lookups (bots sometimes read the final state): the newest
   * this many. Few, so the server's memory does not grow with the games played.
   */
  keepFinished?: number;
  /** Self-play games kept (bots create them, counted from creation): the newest this many. */
  keepSelfPlay?: number;
}

/**
 * More than the games a run keeps in flight on one server (2 × slots + 1 with auto), so a bot can
 * read the game it just played; few, because a paper-scale Hold'em table's state is over a MB.
 */
const KEEP_FINISHED = 16;
const KEEP_SELF_PLAY = 2_000;

const MAX_BODY = 1 << 20;

export class GameServer {
  private readonly games = new Map<string, LiveGame>();
  /** Finished arena games and self-play games, oldest first: each kept to its own window. */
  private readonly finished: string[] = [];
  private readonly selfPlay: string[] = [];
  private readonly seats = new SeatLedger();
  private server?: http.Server;
  url = '';
  port = 0;

  constructor(private readonly options: GameServerOptions) {}

  get adapter() {
    return this.options.adapter;
  }

  async start(): Promise<this> {
    const { adapter, variant } = this.options;
    const host = this.options.host ?? '127.0.0.1';
    const preferred =
      this.options.port ?? (this.options.preferCatarenaPort === false ? 0 : (adapter.catarenaServerPort[variant] ?? 0));
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 65_000;
    try {
      await listen(this.server, preferred, host);
    } catch (err) {
      if (this.options.port !== undefined || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      await listen(this.server, 0, host); // the CATArena port is taken: any port will do for bots given the URL
    }
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://localhost:${this.port}`;
    return this;
  }

  newGameId(): string {
    const prefix = this.options.adapter.idPrefix;
    return `${typeof prefix === 'string' ? prefix : (prefix[this.options.variant] ?? '')}${randomBytes(4).toString('hex')}`;
  }

  /**
   * How a bot of this game reaches this server: the ports a sandbox forwards to localhost (this
   * server's own and CATArena's fixed port for the game, which bots may hard-code), and the URL
   * in CATARENA_GAME_SERVER.
   */
  botAccess(): { hostPorts: Record<number, number>; env: Record<string, string> } {
    const fixed = this.options.adapter.catarenaServerPort[this.options.variant];
    const hostPorts: Record<number, number> = { [this.port]: this.port };
    if (fixed && fixed !== this.port) hostPorts[fixed] = this.port;
    return { hostPorts, env: { CATARENA_GAME_SERVER: this.url } };
  }

  /**
   * Registers a live arena game so bots can read it, with who holds each seat (a seat left out has
   * no bot). The runner keeps `state`/`history` current.
   */
  register(game: LiveGame, holders: ReadonlyArray<SeatHolder | undefined>): void {
    this.games.set(game.id, game);
    this.seats.seat(game.id, holders, this.options.adapter.server.hidesInformation === true);
  }

  /**
   * Marks an arena game finished and returns what its seats' bots were seen attempting (or could
   * not be held to); it stays readable, to its seats' holders too, until `keepFinished` newer ones
   * have finished.
   */
  finish(id: string): IntegrityEvent[] {
    this.finished.push(id);
    const keep = this.options.keepFinished ?? KEEP_FINISHED;
    while (this.finished.length > keep) this.drop(this.finished.shift()!);
    return this.seats.finish(id);
  }

  private drop(id: string): void {
    this.games.delete(id);
    this.seats.forget(id);
  }

  get activeGames(): number {
    return this.games.size - this.finished.length - this.selfPlay.length;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY) return send(res, 413, { error: 'Request body too large' });
      let body: unknown;
      if (size > 0) {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(res, 400, { error: 'Invalid JSON' });
        }
      }
      try {
        const url = new URL(`http://localhost${req.url ?? '/'}`);
        const caller = relayedCaller(req.socket);
        const reply = this.route(req.method ?? 'GET', url, body, caller);
        send(res, reply.status, reply.body);
      } catch (err) {
        send(res, 500, { error: `internal error: ${(err as Error).message}` });
      }
    });
  }

  /** `caller`: the bot's caller id where a sandbox relay vouches for the connection, else undefined. */
  private route(
    method: string,
    url: URL,
    body: unknown,
    caller: string | undefined,
  ): { status: number; body: unknown } {
    const { adapter, variant } = this.options;
    const path = url.pathname;
    const parts = path.split('/').filter(Boolean);
    if (method === 'GET' && path === '/health') {
      return {
        status: 200,
        body: { status: 'healthy', active_games: this.activeGames, ...adapter.server.healthExtras?.(variant) },
      };
    }
    if (parts[0] !== 'games') return { status: 404, body: { error: 'Endpoint not found' } };
    if (parts.length === 1 && method === 'POST') return this.createSelfPlay(body, caller);
    if (parts.length === 1 && method === 'GET') {
      // Only the caller's own games: listing every live game would show a bot the games it does not play.
      const games = [...this.games.values()]
        .filter((g) => this.seats.lists(g.id, caller))
        .map((g) => ({ game_id: g.id, created_at: g.createdAt, arena: g.managedByArena }));
      return { status: 200, body: { games, total_games: games.length } };
    }
    const game = this.games.get(parts[1] ?? '');
    if (!game || !this.seats.mayOpen(game.id, caller)) return { status: 404, body: { error: 'Game not found' } };
    const viewer = this.seats.viewer(game.id, caller, `${method} ${path}${url.search}`);
    const reply = adapter.server.route(game, method, parts.slice(2).join('/'), body, url.searchParams, viewer);
    return reply ?? { status: 404, body: { error: 'Endpoint not found' } };
  }

  private createSelfPlay(body: unknown, caller: string | undefined) {
    const { adapter, variant } = this.options;
    const seed = randomBytes(4).readInt32BE(0);
    let state: unknown;
    try {
      state = adapter.server.create
        ? adapter.server.create(body, variant, createRng(seed))
        : adapter.game.init(variant, createRng(seed));
    } catch (err) {
      if (!adapter.server.create) throw err;
      return { status: 400, body: { error: (err as Error).message } };
    }
    const game: LiveGame = {
      id: this.newGameId(),
      variant,
      state,
      history: [],
      managedByArena: false,
      createdAt: new Date().toISOString(),
    };
    this.games.set(game.id, game);
    this.seats.created(game.id, caller);
    this.selfPlay.push(game.id); // self-play games count against their retention window from the start
    const keep = this.options.keepSelfPlay ?? KEEP_SELF_PLAY;
    while (this.selfPlay.length > keep) this.drop(this.selfPlay.shift()!);
    return adapter.server.created(game, body);
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
