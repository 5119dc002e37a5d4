// The Sandbox port: start a directory as a service, get a handle back. The process backend is the
// embedded default; a Docker backend implements the same port.
import type net from 'node:net';
import type { ExchangeTap } from '../util/exchange-tape/tape.ts';

export type HealthCheck =
  | { kind: 'http'; path: string /** acceptable JSON `status` values; any 200 when absent */; statuses?: string[] }
  | { kind: 'tcp' };

/**
 * The model-exchange tap of the bot in a folder (a run's recording or its replay:
 * util/exchange-tape/), or undefined: its LLM calls, which go through the orchestrator's egress
 * proxy or relay, are recorded or answered there.
 */
export type ExchangeTapFor = (botDir: string) => ExchangeTap | undefined;

export interface BotStartOptions {
  /** The bot folder; the start script runs with it as cwd. */
  dir: string;
  /** Port the bot must listen on (passed as the single argument of start_ai.sh). */
  port: number;
  /** Start script name inside dir (default start_ai.sh). */
  script?: string;
  /** How readiness is checked (default: HTTP GET /health, any 200). */
  health?: HealthCheck;
  /** How long the bot may take to become healthy (default records/match.ts `BOT_START_TIMEOUT_MS`, 20 s). */
  startTimeoutMs?: number;
  /**
   * Extra environment on top of the scrubbed base (PATH=/usr/local/bin:/usr/bin:/bin, HOME=dir,
   * LANG=C.UTF-8, PYTHONUNBUFFERED=1, PYTHONDONTWRITEBYTECODE=1). Nothing else is inherited.
   */
  env?: Record<string, string>;
  /** Cap on captured stdout+stderr bytes kept in the log file (default 1 MiB). */
  logCapBytes?: number;
  /** Where the captured log is written (default: a temp file). */
  logFile?: string;
  /** A label for messages ("strategy cautious@r1"). */
  name?: string;
  /**
   * Orchestrator services the bot may reach at localhost:<key> (the game-server API, on the host
   * at 127.0.0.1:<value>). The process backend shares the host's network and ignores this; an
   * isolated backend forwards exactly these ports and nothing else.
   */
  hostPorts?: Record<number, number>;
}

export interface BotHandle {
  readonly name: string;
  readonly port: number;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** The Unix socket a sandbox relays to the bot's port (Docker), where it has one. */
  readonly socketPath?: string;
  /**
   * Opens a connection to the bot's port where the URL's host and port do not reach it (the
   * isolated sandboxes: a socket handed over from the bot's network namespace, or its relay).
   */
  readonly connect?: () => Promise<net.Socket>;
  readonly logFile: string;
  /** Health probe now (one attempt, short timeout). */
  isHealthy(timeoutMs?: number): Promise<boolean>;
  /** The last `maxBytes` of the captured log. */
  logTail(maxBytes?: number): Promise<string>;
  /**
   * False once the bot is gone: stopped, or its start script has exited and nothing accepts
   * connections on the port any more (a daemonised bot stays alive while it holds the port).
   */
  alive(): Promise<boolean>;
  /** How the bot ended, once it has ("exit code 3 (killed: out of memory)"), else null. */
  describeExit?(): Promise<string | null>;
  /**
   * CPU ms (user + system) the bot's processes have used so far, where the sandbox can tell;
   * undefined when it cannot or once the bot is stopped. The adaptive concurrency reads it to tell
   * CPU-bound bots from ones that wait (orchestrator/concurrency/adaptive-slots.ts).
   */
  cpuTimeMs?(): number | undefined;
  /**
   * The sandbox limits this bot has run into so far ("processes (256)", "memory (1024 MiB)"), where
   * the sandbox counts them (the isolated process sandbox's cgroups). The executor records each new
   * one as a `sandbox_limit` integrity event of the seat's game.
   */
  limitsHit?(): string[];
  /**
   * Set when the sandbox vouches for who calls the game server: every connection this bot makes to
   * the hostPorts comes through a relay that notes it under this id (relayed-callers.ts), so the game
   * server can serve this bot its own seats' private state and nobody else's. Unset: the sandbox
   * cannot tell this bot's connections from any other process's.
   */
  readonly callerId?: string;
  /** Kills the whole process group (and any daemon still holding the port). Idempotent. */
  stop(): Promise<void>;
}

export class BotStartError extends Error {
  constructor(
    message: string,
    readonly reason: 'no_start_script' | 'port_in_use' | 'exited' | 'unhealthy' | 'spawn_failed',
    readonly logTail: string,
  ) {
    super(message);
    this.name = 'BotStartError';
  }
}

export interface Sandbox {
  readonly kind: string;
  start(options: BotStartOptions): Promise<BotHandle>;
  /**
   * Stops what a killed orchestrator left running for `dir` (a run directory, a worker's
   * artifact cache) and returns how many processes it stopped: a resume finds them there.
   */
  reapStrays(dir: string): number;
  /** Stops every handle this sandbox started. */
  close(): Promise<void>;
}
