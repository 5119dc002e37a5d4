// The human seat: a bot whose answers come from a web page. It is an HTTP service on 127.0.0.1
// that speaks the game's bot protocol (health, join/leave answered at once) and parks each turn
// call until the person on the page picks an action; the runner calls it like any bot, under the
// seat's deadline (MatchLimits.seatMoveMs), so the journal, replays and reports do not change.
//
// The page (GET /play) follows the game through server-sent events (GET /play/events): the board
// is the game's replay viewer (games/<game>/viewer/) drawn at the last move, rebuilt from the
// runner's live events (records/live.ts). An answer (POST /play/answer) is checked with the rules
// first (Game.validate): an illegal one is refused with the reason and the turn call stays
// parked, never sent as a forfeit. A person who leaves the page is timed out by the runner and
// loses as the game's policy says.
//
// Any web page the person has open can send requests to 127.0.0.1, and a DNS-rebound one even
// reads the answers: so the bot protocol is served only on a Unix socket in a private folder (the
// runner's connection, BotHandle.connect; no browser reaches it), the page's port answers only
// requests whose Host is its own address (421 otherwise), and an answer is taken only as JSON with
// the page's per-session secret in a header (the page has it; another origin cannot read it).
import fs from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { adapterFor, gameDescriptor, gameIds } from '../../games/registry.ts';
import type { LiveEvent } from '../../records/live.ts';
import { matchId, type MatchSpec, type MoveRecord, type Replay, type Seat } from '../../records/match.ts';
import type { BotHandle } from '../../sandbox/types.ts';
import { newCallerId } from '../../sandbox/relayed-callers.ts';
import { connectUnix } from '../../sandbox/relay.ts';
import { viewerDataOf, viewerScript } from '../../reports/html/replay-page.ts';
import { liveViewerData } from '../../reports/html/live-viewer.ts';
import { PAGE_CSS } from '../../reports/html/page.ts';
import { gamePath, PROJECT_ROOT } from '../../util/paths.ts';

/** A human's per-move deadline unless `--human-timeout` says otherwise: 5 minutes. */
export const DEFAULT_HUMAN_MOVE_MS = 5 * 60_000;

/** The rules' short reasons in words a person reads on the page. */
const REASONS: Record<string, string> = {
  occupied: 'that cell is already taken',
  forbidden: 'that cell is forbidden in this rule set (a red cross)',
  off_board: 'that is off the board',
  not_your_turn: 'it is not your turn',
  game_over: 'the game is over',
  bad_shape: 'a move is a cell [row, column]',
  bad_format: 'not a move in UCI form (e2e4, e7e8q)',
  illegal: 'that move is not legal in this position',
};
export const reasonInWords = (verdict: string) => REASONS[verdict] ?? verdict.replace(/_/g, ' ');

interface Game {
  id: string;
  gameId: string;
  spec: MatchSpec;
  setup: unknown;
  moves: MoveRecord[];
  state: unknown;
  /** The seat asked now and its deadline, from the runner's turn event. */
  turn?: { seat: Seat; deadlineMs: number; at: number };
  ended?: { scores: number[]; winner: Seat | null; termination: string; reason: string };
}

interface Parked {
  game: Game;
  seat: Seat;
  /** Counts the turns asked of the person (the page tells one from the next by it). */
  turn: number;
  /** The turn call's body: what the seat sees, as a bot would (the page shows it beside the board for games with hidden cards or words). */
  request: unknown;
  res: http.ServerResponse;
  since: number;
  deadlineMs: number;
}

export interface HumanSeatOptions {
  game: string;
  variant: string;
  /** The strategy id of the seat in specs, results and the journal (default "human"). */
  id?: string;
  /** Where the page is served (default 127.0.0.1); any other host needs the token. A wildcard (0.0.0.0, ::) takes any Host header. */
  host?: string;
  /** Port (default 0: any free one). */
  port?: number;
  /** Printed where the person will see it (default: nothing). */
  log?: (line: string) => void;
}

export class HumanSeat {
  readonly id: string;
  private readonly callerId = newCallerId();
  private readonly server: http.Server;
  /** The bot protocol, for the runner only: on a Unix socket in a folder only this user can open. */
  private readonly botServer: http.Server;
  private readonly socketDir = mkdtempSync(path.join(os.tmpdir(), 'catarena-seat-'));
  /** The page's per-session secret: sent back in the SEAT_HEADER header with every answer. */
  private readonly secret = randomBytes(16).toString('hex');
  /** Games abandoned because play was stopped (abort): not to be journaled. */
  private readonly abandonedIds = new Set<string>();
  private aborted = false;
  private readonly games = new Map<string, Game>();
  private readonly clients = new Set<http.ServerResponse>();
  private parked: Parked | null = null;
  private turns = 0;
  /** Views are sent in order, each computed when its turn to be sent comes (never a stale one after a newer). */
  private sending: Promise<void> = Promise.resolve();
  private results: Array<{ id: string; line: string }> = [];
  /** The games the person plays in this arena, when it said (schedule). */
  private scheduled: readonly MatchSpec[] = [];
  private done: string | null = null;
  private readonly token: string | null;
  private script?: Promise<string>;
  port = 0;

  constructor(private readonly options: HumanSeatOptions) {
    this.id = options.id ?? 'human';
    const host = options.host ?? '127.0.0.1';
    this.token = host === '127.0.0.1' || host === 'localhost' ? null : randomBytes(12).toString('hex');
    this.server = http.createServer(
      (req, res) => void this.route(req, res).catch((err) => send(res, 500, { error: String(err) })),
    );
    this.botServer = http.createServer(
      (req, res) => void this.botRoute(req, res).catch((err) => send(res, 500, { error: String(err) })),
    );
  }

  /** Where the runner reaches the bot protocol. */
  get socketPath(): string {
    return path.join(this.socketDir, 'seat.sock');
  }

  async start(): Promise<void> {
    const listen = (server: http.Server, ...args: unknown[]) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        (server.listen as (...a: unknown[]) => void)(...args, resolve);
      });
    await listen(this.botServer, this.socketPath);
    await listen(this.server, this.options.port ?? 0, this.options.host ?? '127.0.0.1');
    this.port = (this.server.address() as AddressInfo).port;
    this.options.log?.(`human seat: open ${this.pageUrl} to play ${this.options.game} (${this.options.variant})`);
  }

  get url(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.port}`;
  }

  /** The page the person opens. */
  get pageUrl(): string {
    return `${this.url}/play${this.token ? `?token=${this.token}` : ''}`;
  }

  /** The seat as a running bot, for StrategyRef.warm. */
  handle(): BotHandle {
    return {
      name: this.id,
      port: this.port,
      url: this.url,
      socketPath: this.socketPath,
      connect: () => connectUnix(this.socketPath),
      logFile: '',
      isHealthy: async () => this.botServer.listening,
      logTail: async () => '',
      alive: async () => this.botServer.listening,
      // The seat never calls the game server: an id nobody else has keeps its seats' private
      // state from anyone naming them (a person sees their own on the page).
      callerId: this.callerId,
      stop: async () => {}, // the seat outlives the fleet: the page shows the end; close() stops it
    };
  }

  /** The runner's live events (records/live.ts): pass as the executor's onLive. */
  readonly onLive = (event: LiveEvent): void => {
    if (event.type === 'start') {
      if (!event.spec.seats.includes(this.id)) return;
      this.games.set(event.gameId, {
        id: event.id,
        gameId: event.gameId,
        spec: event.spec,
        setup: event.setup,
        moves: [],
        state: event.state,
      });
      this.games.forEach((g, key) => g.ended && key !== event.gameId && this.games.delete(key));
    }
    const game = this.games.get(event.gameId);
    if (!game) return;
    if (event.type === 'move') {
      game.moves.push(event.move);
      game.state = event.state;
      game.turn = undefined;
    } else if (event.type === 'turn') {
      game.state = event.state;
      game.turn = { seat: event.seat, deadlineMs: event.deadlineMs, at: Date.now() };
    } else if (event.type === 'end') {
      game.ended = { scores: event.scores, winner: event.winner, termination: event.termination, reason: event.reason };
      game.turn = undefined;
    }
    void this.broadcast(game);
  };

  /** The arena's games still to play (ArenaOptions.onSchedule): a deal the person will play again stays hidden until then. */
  schedule(specs: readonly MatchSpec[]): void {
    this.scheduled = specs.filter((s) => s.seats.includes(this.id));
  }

  /**
   * True while a game of the person's still to be played deals the same cards as `game` (its
   * seed: Bridge's other room of a board, Hold'em's table rounds rotated over one deal).
   */
  private dealAgain(game: Game): boolean {
    const ended = new Set([...this.results.map((r) => r.id), game.id]);
    return this.scheduled.some((s) => s.seed === game.spec.seed && s.game === game.spec.game && !ended.has(matchId(s)));
  }

  /** Tells the page a game's result line (from its replay's viewer data) once it is journaled. */
  async recorded(replay: Replay): Promise<void> {
    if (!replay.result.spec.seats.includes(this.id)) return;
    const data = await viewerDataOf(replay);
    this.results.push({
      id: replay.result.id,
      line: `${replay.result.spec.seats.join(' vs ')}: ${data?.result ?? replay.result.reason}`,
    });
    const game = [...this.games.values()].find((g) => g.id === replay.result.id);
    if (game) await this.broadcast(game);
  }

  /** The last game is over: the page says so with this line. */
  finish(line: string): void {
    this.done = line;
    this.sendAll({ type: 'done', line, results: this.results });
  }

  /**
   * Play is being stopped: the turn waiting for the person is given up at once (and any later
   * one), and the game in flight is abandoned, not lost: `abandoned` names it so it is not journaled.
   */
  abort(): void {
    this.aborted = true;
    for (const game of this.games.values()) if (!game.ended) this.abandonedIds.add(game.id);
    const parked = this.parked;
    this.parked = null;
    if (parked) send(parked.res, 503, { error: 'play was stopped' });
    this.sendAll({ type: 'stopped', message: 'play was stopped: this game is not counted' });
  }

  /** True for a game abandoned by abort(): the arena leaves it out of the journal (ArenaOptions.discard). */
  abandoned(matchId: string): boolean {
    return this.abandonedIds.has(matchId);
  }

  async close(): Promise<void> {
    for (const res of this.clients) res.end();
    this.clients.clear();
    if (this.parked && !this.parked.res.writableEnded) this.parked.res.destroy();
    for (const server of [this.server, this.botServer]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    rmSync(this.socketDir, { recursive: true, force: true });
  }

  // ------------------------------------------------------------------------------------------

  /** The page's port: its own Host only (DNS rebinding), the token on a non-loopback address, then /play. */
  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!this.ownHost(req.headers.host))
      return send(res, 421, {
        error: `this server answers only at ${this.url} (Host ${req.headers.host ?? 'missing'})`,
      });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/play' || url.pathname.startsWith('/play/')) {
      if (this.token && url.searchParams.get('token') !== this.token)
        return send(res, 403, { error: 'this page needs the token catarena printed (?token=…)' });
      return this.page(req, res, url);
    }
    send(res, 404, { error: `not found: the page is ${this.pageUrl}` });
  }

  /** True when a Host header names this server's own address (any, when it listens on every address: the token guards it). */
  private ownHost(host: string | undefined): boolean {
    const listen = this.options.host ?? '127.0.0.1';
    if (listen === '0.0.0.0' || listen === '::') return true;
    const names = new Set(['127.0.0.1', 'localhost', '[::1]', listen.includes(':') ? `[${listen}]` : listen]);
    return [...names].some((name) => host === `${name}:${this.port}`);
  }

  /** The bot protocol on the runner's socket: health, join/leave answered at once, a turn parked for the page. */
  private async botRoute(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET') return send(res, 200, { status: 'ok', human: true });
    const body = await readBody(req, true);
    const game = this.gameFor(body);
    if (game?.turn && !game.ended) {
      const seat = game.turn.seat;
      const turnPath = adapterFor(this.options.game).turn(game.state, seat, {
        gameId: game.gameId,
        gameServerUrl: '',
        options: game.spec.options,
        seatIds: game.spec.seats,
      }).path;
      if (turnPath === url.pathname) return this.park(game, seat, body, res);
    }
    // join_game, leave_game and anything else a bot acknowledges.
    send(res, 200, { status: 'ok', message: 'ok' });
  }

  /** Holds a turn call until the page answers (or the runner gives up). */
  private async park(game: Game, seat: Seat, body: unknown, res: http.ServerResponse): Promise<void> {
    if (this.aborted) {
      this.abandonedIds.add(game.id);
      return send(res, 503, { error: 'play was stopped' });
    }
    if (this.parked && !this.parked.res.writableEnded) this.parked.res.destroy();
    const parked: Parked = {
      game,
      seat,
      turn: ++this.turns,
      request: body,
      res,
      since: Date.now(),
      deadlineMs: game.turn!.deadlineMs,
    };
    this.parked = parked;
    // The runner gave up (deadline) or the game went away: the page must stop offering moves.
    res.on('close', () => {
      if (this.parked === parked) {
        this.parked = null;
        if (!res.writableEnded)
          this.sendAll({
            type: 'timeout',
            gameId: game.gameId,
            message: 'your time ran out: the runner stopped waiting for this move',
          });
        void this.broadcast(game);
      }
    });
    await this.broadcast(game);
  }

  /** The live game a bot call is about: its game_id where the protocol sends one, else the one waiting for the human. */
  private gameFor(body: unknown): Game | undefined {
    const id = body && typeof body === 'object' ? (body as { game_id?: unknown }).game_id : undefined;
    if (typeof id === 'string' && this.games.has(id)) return this.games.get(id);
    return [...this.games.values()].find((g) => !g.ended && g.turn && g.spec.seats[g.turn.seat] === this.id);
  }

  private async page(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    if (req.method === 'GET' && url.pathname === '/play') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...PAGE_HEADERS });
      res.end(pageHtml(this.options.game, this.options.variant, this.token, this.secret));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/play/viewer.js') {
      this.script ??= pageScript();
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...PAGE_HEADERS });
      res.end(await this.script);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/play/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': human seat\n\n');
      this.clients.add(res);
      req.on('close', () => this.clients.delete(res));
      const current = [...this.games.values()].at(-1);
      if (current) res.write(sse(await this.view(current)));
      else res.write(sse({ type: 'waiting', message: 'waiting for the first game to start' }));
      if (this.done) res.write(sse({ type: 'done', line: this.done, results: this.results }));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/play/answer') return this.answer(req, res);
    send(res, 404, { error: 'not found' });
  }

  /** POST /play/answer from the page: JSON, from the page's own origin, with its secret; then the rules' check. */
  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = this.forged(req);
    if (refused) return send(res, refused.status, { ok: false, error: refused.error });
    const body = (await readBody(req, false)) as { gameId?: string; action?: unknown } | null;
    const parked = this.parked;
    if (!parked || parked.res.writableEnded || !body || body.gameId !== parked.game.gameId)
      return send(res, 200, { ok: false, error: 'it is not your turn (the bot is thinking, or your time ran out)' });
    // The answer goes the way a bot's does (answer → parse → the rules' check); anything the
    // runner would take as a failure is refused here instead, with the reason.
    const adapter = adapterFor(this.options.game);
    let answer: unknown;
    let verdict: string | null;
    try {
      answer = adapter.answer ? adapter.answer(body.action, parked.game.state, parked.seat) : body.action;
      const parsed = adapter.parse(answer, parked.game.state, parked.seat);
      verdict = parsed.ok ? adapter.game.validate(parked.game.state, parked.seat, parsed.action) : parsed.message;
    } catch (err) {
      verdict = `not an action of this game (${(err as Error).message})`;
    }
    if (verdict) return send(res, 200, { ok: false, error: reasonInWords(verdict), verdict }); // a verdict, not an HTTP failure
    this.parked = null;
    send(parked.res, 200, answer);
    send(res, 200, { ok: true });
  }

  /** Why an answer is not the page's own (another origin, not JSON, no secret), or null. */
  private forged(req: http.IncomingMessage): { status: number; error: string } | null {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json')
      return { status: 415, error: 'an answer is JSON (content-type: application/json)' };
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`)
      return { status: 403, error: `answers come from the seat's own page, not ${origin}` };
    const secret = req.headers[SEAT_HEADER];
    if (typeof secret !== 'string' || !sameSecret(secret, this.secret))
      return {
        status: 403,
        error: "answers come from the seat's own page (its secret is missing or wrong): reload it",
      };
    return null;
  }

  private async view(game: Game): Promise<Record<string, unknown>> {
    const adapter = adapterFor(this.options.game);
    const { spec } = game;
    const names = adapterFor(this.options.game).game.seatNames(spec.variant);
    const humanSeats = spec.seats.flatMap((id, seat) => (id === this.id ? [seat] : []));
    // The replay viewer shows every hand and word: a game that hides them (no descriptor
    // publicBoard) is drawn from the person's seats' view until it is over and no later game
    // of the person's deals the same cards (games/core/viewer.ts).
    const full = gameDescriptor(spec.game).publicBoard || (game.ended && !this.dealAgain(game));
    const perspective = full ? undefined : { seats: humanSeats };
    const data = await liveViewerData(
      game,
      game.turn ? `${names[game.turn.seat]} to move` : 'in progress',
      perspective,
    );
    const recorded = this.results.find((r) => r.id === game.id);
    const parked = this.parked && this.parked.game === game && !this.parked.res.writableEnded ? this.parked : null;
    const seatNames = adapter.game.seatNames(spec.variant);
    let legal: unknown[] = [];
    if (parked) {
      try {
        legal = adapter.game.legalActions(parked.game.state, parked.seat).map((a: unknown) => adapter.encode(a));
      } catch {
        legal = [];
      }
    }
    return {
      type: 'game',
      gameId: game.gameId,
      id: game.id,
      game: spec.game,
      boardInput: gameDescriptor(spec.game).humanBoardInput ?? null,
      variant: spec.variant,
      seats: spec.seats,
      seatNames,
      human: humanSeats,
      data,
      yourTurn: parked
        ? {
            turn: parked.turn,
            seat: parked.seat,
            seatName: seatNames[parked.seat] ?? `seat ${parked.seat}`,
            deadlineMs: parked.deadlineMs,
            leftMs: Math.max(0, parked.deadlineMs - (Date.now() - parked.since)),
          }
        : null,
      thinking: !parked && game.turn && spec.seats[game.turn.seat] !== this.id ? seatNames[game.turn.seat] : null,
      legal,
      request: parked ? parked.request : null,
      ended: game.ended ?? null,
      result: recorded?.line ?? null,
      results: this.results,
    };
  }

  private broadcast(game: Game): Promise<void> {
    if (!this.clients.size) return this.sending;
    this.sending = this.sending.then(async () => this.sendAll(await this.view(game))).catch(() => {});
    return this.sending;
  }

  private sendAll(message: unknown): void {
    const text = sse(message);
    for (const res of this.clients) res.write(text);
  }
}

/** The page's script: the replay viewers' renderers, every game's seat table (descriptor humanSeat), then human-page.js. */
async function pageScript(): Promise<string> {
  const parts = [await viewerScript(), 'window.catarenaSeats = window.catarenaSeats || {};'];
  for (const game of gameIds()) {
    const file = gameDescriptor(game).modules.humanSeat;
    if (file) parts.push(`// ${game}\n${await fs.readFile(gamePath(game, file), 'utf8')}`);
  }
  parts.push(await fs.readFile(path.join(PROJECT_ROOT, 'orchestrator', 'human', 'human-page.js'), 'utf8'));
  return parts.join('\n\n');
}

/** The header the page sends its per-session secret in. */
export const SEAT_HEADER = 'x-catarena-seat';

/**
 * The page runs only its own scripts (no inline script or handler, nothing from elsewhere); the
 * renderers add their own style elements, so inline styles stay allowed.
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** Compares secrets in constant time. */
function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

const sse = (message: unknown) => `data: ${JSON.stringify(message)}\n\n`;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A request's body as JSON (null if it is none); `form`: a form-encoded one too (the runner's form posts). */
async function readBody(req: http.IncomingMessage, form: boolean): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1 << 20) return null;
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return null;
  if (form && (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The page laid out for 360 px and up: boards scale down, tables wrap, nothing scrolls sideways. */
const SEAT_CSS = `
body { margin: .8rem; overflow-wrap: anywhere; }
.main { display: flex; gap: 1rem; align-items: flex-start; flex-wrap: wrap; }
.boardcol { flex: 0 1 auto; max-width: 100%; min-width: 0; }
.boardbox > summary { cursor: pointer; color: #555; }
.boardbox.plain > summary { display: none; }
.main.seated .boardcol { order: 2; flex-basis: 100%; }
.board { max-width: 100%; overflow-x: auto; }
.board svg { display: block; max-width: 100%; height: auto; }
.side { flex: 1 1 18rem; min-width: 0; max-width: 36rem; }
.turn { font-weight: 600; }
.turn.yours { color: #1b5e20; }
.refusal { color: #b00020; font-weight: 600; min-height: 1.4em; }
.board [data-cell], .board .hit { cursor: pointer; }
.legal button, .seat button, .actions button { margin: .15rem; min-height: 2.2rem; min-width: 2.4rem; }
.results li { margin: .1rem 0; }
.gameover { border: 2px solid #1b5e20; background: #f1f8e9; padding: .4rem .8rem; margin: .4rem 0; }
.gameover[hidden] { display: none; }
pre { white-space: pre-wrap; max-height: 40vh; overflow: auto; background: #f7f7f7; padding: .4rem; }
input[type=text], textarea { width: 100%; box-sizing: border-box; font: inherit; }
.card { display: inline-block; min-width: 1.6em; padding: 0 .15em; margin: 0 .1em; border: 1px solid #888; border-radius: 4px; background: #fff; color: #111; font-weight: 700; text-align: center; }
.card.red { color: #c62828; }
.big { font-size: 1.2rem; }
.big .card { font-size: 1.4rem; }
.felt { background: #1d6236; color: #fff; padding: .4rem .6rem; border-radius: 8px; }
.seat table { width: 100%; }
.seat td, .seat th { white-space: normal; }
.seat tr.you { background: #fff6cc; }
.raise { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
.raise input[type=range] { flex: 1 1 10rem; }
.raise input[type=number] { width: 6rem; }
.hand h3 { margin: .6rem 0 .2rem; }
.suitrow { display: flex; flex-wrap: wrap; align-items: center; gap: .1rem; }
.suitrow .suit { width: 1.4rem; font-size: 1.2rem; }
.s-H, .s-D { color: #c62828; }
.cardbtn { padding: 0; border: 0; background: none; }
.cardbtn .card { font-size: 1.15rem; padding: .2rem .25rem; }
.cardbtn:not(:disabled) .card { border-color: #0b57d0; box-shadow: 0 0 0 1px #0b57d0; cursor: pointer; }
.cardbtn:disabled { opacity: .6; }
.auction { width: auto; }
.auction td, .auction th { text-align: center; min-width: 2.6rem; }
.bids { display: grid; grid-template-columns: repeat(5, minmax(2.4rem, 4rem)); gap: .15rem; margin-top: .4rem; }
.bids button { margin: 0; }
.statements { padding-left: 1.2rem; }
.movelist ol { padding-left: 2.6rem; margin: 0; max-height: 16rem; overflow: auto; font-variant-numeric: tabular-nums; }
.movelist li { white-space: pre; }
@media (min-width: 700px) { body { margin: 1.2rem 2rem; } }
`;

function pageHtml(game: string, variant: string, token: string | null, secret: string): string {
  const q = token ? `?token=${token}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>catarena: play ${game} (${variant})</title><link rel="icon" href="data:,">
<style>${PAGE_CSS}${SEAT_CSS}</style></head>
<body><h1>play ${game} · ${variant}</h1>
<div id="human" data-game="${game}" data-variant="${variant}" data-query="${q}" data-secret="${secret}"></div>
<script src="/play/viewer.js${q}"></script>
</body></html>
`;
}
