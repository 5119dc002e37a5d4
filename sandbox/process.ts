// The unsafe sandbox (`--sandbox unsafe`): runs `bash start_ai.sh <port>` as a plain process of
// the orchestrator's user, in its own session and process group, with a scrubbed environment and a
// size-capped log. It isolates nothing (the bot sees every process, file and port the user can);
// it is for catarena's own bots where bubblewrap is missing, or an explicit choice. Linux-only for the cleanup of
// daemons that escaped the group (it reads /proc); elsewhere the group kill is all there is.
// Its parts: the bot's environment (bot-env.ts), one started bot (process-bot.ts), stray bots and
// the reaper (strays.ts), and what /proc says (procfs.mjs).
import { ExitHook } from './exit-hook.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { botPath, MARKER_VAR, passEnvFor } from './bot-env.ts';
import { CappedLog } from './capped-log.ts';
import { DEFAULT_HEALTH, probeHealth } from './health.ts';
import { BOT_START_TIMEOUT_MS } from '../records/match.ts';
import { isPortOpen } from './ports.ts';
import { ProcessBot } from './process-bot.ts';
import { ensureReaper, killProcessesIn, ownerToken } from './strays.ts';
import {
  BotStartError,
  type BotHandle,
  type BotStartOptions,
  type ExchangeTapFor,
  type HealthCheck,
  type Sandbox,
} from './types.ts';
import { loopbackRelay } from './loopback-relay.ts';

export interface UnsafeSandboxOptions {
  /**
   * Also kill bots on SIGINT, SIGTERM and SIGHUP (default true). After killing them the handler
   * removes itself and, if no other listener for that signal remains, re-raises the signal so the
   * process still dies the default way. Pass false when the caller handles signals and calls
   * close() itself. Bots are always killed on a normal process 'exit'.
   */
  handleSignals?: boolean;
  /**
   * Each bot's model-exchange tap (a run's recording or replay): a bot whose folder names its LLM
   * endpoint (catarena-env.json's egress) then asks a loopback relay in the orchestrator, which
   * adds the key and records the exchange; the bot gets a placeholder key.
   */
  exchanges?: ExchangeTapFor;
}

export class UnsafeSandbox implements Sandbox {
  readonly kind = 'unsafe';
  private readonly bots = new Set<ProcessBot>();
  private readonly exitHook: ExitHook;

  constructor(options: UnsafeSandboxOptions = {}) {
    this.exitHook = new ExitHook(() => this.cleanup(), options.handleSignals ?? true);
    this.exchanges = options.exchanges;
  }

  private readonly exchanges: ExchangeTapFor | undefined;

  reapStrays(dir: string): number {
    return killProcessesIn(dir).length;
  }

  async start(o: BotStartOptions): Promise<BotHandle> {
    const { name, script, dir, scriptPath } = await botFolder(o);
    const health = o.health ?? DEFAULT_HEALTH;
    const logFile = o.logFile ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bot-')), 'bot.log');
    const log = new CappedLog(logFile, o.logCapBytes ?? 1024 * 1024);
    const marker = `${ownerToken()}.${randomUUID()}`;
    const passed = passEnvFor(dir);
    for (const note of passed.notes) log.write(Buffer.from(`[catarena] ${note}\n`));
    const tap = this.exchanges?.(o.dir);
    const relay = tap ? await loopbackRelay(dir, tap) : undefined;
    const env = {
      PATH: botPath(),
      HOME: dir,
      LANG: 'C.UTF-8',
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      ...passed.env,
      ...relay?.env,
      ...o.env,
      [MARKER_VAR]: marker,
    };

    ensureReaper(); // before the bot exists, so no moment has a bot without a watchdog
    const spawned = spawnScript(script, o.port, dir, env, log);
    const bot = new ProcessBot(name, o.port, logFile, dir, marker, health, spawned.child, log, (b) => {
      this.bots.delete(b);
      void relay?.close();
    });
    this.bots.add(bot);
    this.exitHook.on();
    const fail = async (reason: BotStartError['reason'], message: string): Promise<never> => {
      await bot.drained(300); // let the last output reach the log before reading its tail
      await bot.stop().catch(() => {});
      const tail = await bot.logTail();
      throw new BotStartError(`${message}. Log: ${logFile}${tail ? `\n--- log tail ---\n${tail}` : ''}`, reason, tail);
    };
    return untilHealthy(bot, spawned, fail, {
      name,
      script,
      scriptPath,
      port: o.port,
      health,
      startTimeoutMs: o.startTimeoutMs ?? BOT_START_TIMEOUT_MS,
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.bots].map((b) => b.stop()));
    this.exitHook.off();
  }

  /** Kills every bot synchronously (for exit paths where nothing async can run). */
  cleanup(): void {
    for (const bot of this.bots) bot.killSync();
  }
}

/** The bot's real folder and start script; refused when either is missing or its port is already served. */
async function botFolder(
  o: BotStartOptions,
): Promise<{ name: string; script: string; dir: string; scriptPath: string }> {
  const script = o.script ?? 'start_ai.sh';
  const name = o.name ?? path.basename(o.dir);
  let dir: string;
  try {
    dir = fs.realpathSync.native(path.resolve(o.dir)); // real path: compared with /proc/PID/cwd later
  } catch {
    throw new BotStartError(`${name}: bot folder not found: ${path.resolve(o.dir)}`, 'no_start_script', '');
  }
  const scriptPath = path.join(dir, script);
  if (!fs.existsSync(scriptPath)) {
    throw new BotStartError(
      `${name}: start script not found: ${scriptPath}. A bot folder needs a ${script} that takes the port as its only argument.`,
      'no_start_script',
      '',
    );
  }
  // The bot is identified by its port, so a port someone else already serves would look healthy.
  if (await isPortOpen(o.port, '127.0.0.1', 300)) {
    throw new BotStartError(
      `${name}: port ${o.port} already accepts connections before the bot started; another process holds it ` +
        `(see: ss -ltnp 'sport = :${o.port}'). Allocate ports with allocatePort().`,
      'port_in_use',
      '',
    );
  }
  return { name, script, dir, scriptPath };
}

/** A started script: its process, the error spawning it met (if any), and who its output wakes. */
interface SpawnedScript {
  child: ChildProcess;
  spawnError: Error | null;
  /** Called on every output (the health poll waits on it). */
  onOutput: (() => void) | null;
}

function spawnScript(
  script: string,
  port: number,
  dir: string,
  env: Record<string, string | undefined>,
  log: CappedLog,
): SpawnedScript {
  // detached: the child calls setsid(), so it leads a new session and process group and the
  // whole group can be signalled at once.
  const child = spawn('bash', [script, String(port)], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawned: SpawnedScript = { child, spawnError: null, onOutput: null };
  child.once('error', (e) => (spawned.spawnError = e));
  // Output while starting is often the server saying it listens: it wakes the health poll.
  const output = (c: Buffer) => {
    log.write(c);
    spawned.onOutput?.();
  };
  child.stdout!.on('data', output);
  child.stderr!.on('data', output);
  return spawned;
}

/**
 * Polls the bot's health until it answers (the bot), its script fails, or the start deadline
 * passes (`fail`, which stops it). Health is polled at once, then after 10 ms, at intervals
 * doubling to 200 ms, and whenever the bot writes output (Flask's "Running on", a Node bot's
 * "listening"): a bot is seen ready within a few ms of its server listening (a Flask bot: about
 * Python's import time), and a slow one costs about five probes a second.
 */
async function untilHealthy(
  bot: ProcessBot,
  spawned: SpawnedScript,
  fail: (reason: BotStartError['reason'], message: string) => Promise<never>,
  s: { name: string; script: string; scriptPath: string; port: number; health: HealthCheck; startTimeoutMs: number },
): Promise<BotHandle> {
  const { name, port, health } = s;
  const exitedNow = new Promise<void>((r) => spawned.child.once('exit', () => r()));
  const deadline = Date.now() + s.startTimeoutMs;
  let pauseMs = 10;
  for (;;) {
    if (spawned.spawnError)
      return fail('spawn_failed', `${name}: could not run bash ${s.scriptPath}: ${spawned.spawnError.message}`);
    const exit = bot.exit;
    const how = !exit ? '' : exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
    // An exit is not death while the script's processes run: CATArena's bridge example starts its
    // server with nohup, checks health after 2 s and exits 1 when the server is slower (a busy
    // machine); its launchers ignore the exit. The port decides. A failed script that left
    // nothing running fails at once.
    if (exit && exit.code !== 0 && bot.strays().length === 0)
      return fail('exited', `${name}: ${s.script} ${how} before the bot became healthy on port ${port}`);
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const what = health.kind === 'tcp' ? 'accept TCP connections' : `answer GET ${health.path} with 200`;
      const script = exit && exit.code !== 0 ? ` (${s.script} ${how}; the processes it left kept running)` : '';
      return fail(
        'unhealthy',
        `${name}: did not ${what} on port ${port} within ${s.startTimeoutMs} ms${script}; its processes were killed`,
      );
    }
    if (await probeHealth(bot.url, health, Math.min(1000, remaining))) {
      if (bot.servesPort()) return bot;
      bot.portTaken = true;
      // Between the port check above and the bot's listen, another process took the port: the
      // bot's own listen failed, and the healthy answer came from that process.
      return fail(
        'port_in_use',
        `${name}: port ${port} is served by a process that is not this bot (another process took the port as the bot started)`,
      );
    }
    let timer: NodeJS.Timeout | undefined;
    const pause = new Promise<void>((r) => {
      timer = setTimeout(r, Math.min(pauseMs, Math.max(0, deadline - Date.now())));
      spawned.onOutput = r;
    });
    pauseMs = Math.min(200, pauseMs * 2);
    await (bot.exit ? pause : Promise.race([pause, exitedNow]));
    clearTimeout(timer);
    spawned.onOutput = null;
  }
}
