// The unsafe sandbox (`--sandbox unsafe`): runs `bash start_ai.sh <port>` as a plain process of
// the orchestrator's user, in its own session and process group, with a scrubbed environment and a
// size-capped log. It isolates nothing (the bot sees every process, file and port the user can);
// it is for catarena's own bots where bubblewrap is missing, or an explicit choice. Linux-only for the cleanup of
// daemons that escaped the group (it reads /proc); elsewhere the group kill is all there is.
// Its parts: the bot's environment (bot-env.ts), one started bot (process-bot.ts), stray bots and
// the reaper (strays.ts), and what /proc says (procfs.mjs).
import { ExitHook } from './exit-hook.ts';
import { spawn } from 'node:child_process';
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
import { BotStartError, type BotHandle, type BotStartOptions, type ExchangeTapFor, type Sandbox } from './types.ts';
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
    const health = o.health ?? DEFAULT_HEALTH;
    const startTimeoutMs = o.startTimeoutMs ?? BOT_START_TIMEOUT_MS;
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
    // detached: the child calls setsid(), so it leads a new session and process group and the
    // whole group can be signalled at once.
    const child = spawn('bash', [script, String(o.port)], {
      cwd: dir,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let spawnError = null as Error | null;
    child.once('error', (e) => (spawnError = e));
    // Output while starting is often the server saying it listens: it wakes the health poll.
    let onOutput: (() => void) | null = null;
    const output = (c: Buffer) => {
      log.write(c);
      onOutput?.();
    };
    child.stdout!.on('data', output);
    child.stderr!.on('data', output);

    const bot = new ProcessBot(name, o.port, logFile, dir, marker, health, child, log, (b) => {
      this.bots.delete(b);
      void relay?.close();
    });
    this.bots.add(bot);
    this.exitHook.on();
    const exitedNow = new Promise<void>((r) => child.once('exit', () => r()));

    const fail = async (reason: BotStartError['reason'], message: string): Promise<never> => {
      await bot.drained(300); // let the last output reach the log before reading its tail
      await bot.stop().catch(() => {});
      const tail = await bot.logTail();
      throw new BotStartError(`${message}. Log: ${logFile}${tail ? `\n--- log tail ---\n${tail}` : ''}`, reason, tail);
    };

    const deadline = Date.now() + startTimeoutMs;
    // Health is polled at once, then after 10 ms, at intervals doubling to 200 ms, and whenever
    // the bot writes output (Flask's "Running on", a Node bot's "listening"): a bot is seen ready
    // within a few ms of its server listening (a Flask bot: about Python's import time), and a
    // slow one costs about five probes a second.
    let pauseMs = 10;
    for (;;) {
      if (spawnError) return fail('spawn_failed', `${name}: could not run bash ${scriptPath}: ${spawnError.message}`);
      const exit = bot.exit;
      // Exit 0 is not death: the script may have daemonised the bot. The port decides.
      if (exit && exit.code !== 0) {
        const how = exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
        return fail('exited', `${name}: ${script} ${how} before the bot became healthy on port ${o.port}`);
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const what = health.kind === 'tcp' ? 'accept TCP connections' : `answer GET ${health.path} with 200`;
        return fail(
          'unhealthy',
          `${name}: did not ${what} on port ${o.port} within ${startTimeoutMs} ms; its processes were killed`,
        );
      }
      if (await probeHealth(bot.url, health, Math.min(1000, remaining))) {
        if (bot.servesPort()) return bot;
        bot.portTaken = true;
        // Between the port check above and the bot's listen, another process took the port: the
        // bot's own listen failed, and the healthy answer came from that process.
        return fail(
          'port_in_use',
          `${name}: port ${o.port} is served by a process that is not this bot (another process took the port as the bot started)`,
        );
      }
      let timer: NodeJS.Timeout | undefined;
      const pause = new Promise<void>((r) => {
        timer = setTimeout(r, Math.min(pauseMs, Math.max(0, deadline - Date.now())));
        onOutput = r;
      });
      pauseMs = Math.min(200, pauseMs * 2);
      await (bot.exit ? pause : Promise.race([pause, exitedNow]));
      clearTimeout(timer);
      onOutput = null;
    }
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
