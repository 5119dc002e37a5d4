// The isolated process sandbox (the default): each bot in its own bubblewrap sandbox, with pid,
// mount, network, IPC and UTS namespaces (bwrap-args.ts), as nobody with no capabilities and no
// new privileges. It sees the system read-only, its folder read-only at /bot, a private /tmp, and
// no other process, file or network: a port broker in its network namespace (port-dialer.ts) hands
// the orchestrator connections to its port and listeners for the ports it may call, so every
// game-server connection carries its caller id; where no broker can enter, socat relays through
// Unix sockets as in the Docker sandbox (relay.ts). Limits: processes and memory by cgroup where
// the machine has one (cgroups.ts), else by rlimit; file size and CPU time by rlimit. Stopping it kills bwrap, whose pid namespace takes
// every descendant with it, whatever the bot did to its session or environment.
import { ExitHook } from './exit-hook.ts';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isProcessGone, processTree, processTreeCpuMs, signalPid, statFields } from '../util/procfs.mjs';
import { BOT_GID, BOT_UID, bwrapArgs, SHIM_DIR } from './bwrap-args.ts';
import { type BotCgroup, createBotCgroup } from './cgroups.ts';
import { CappedLog, readLogTail } from './capped-log.ts';
import { SCRUBBED_PATH } from './bot-env.ts';
import { DEFAULT_HEALTH, probeHealth } from './health.ts';
import { BOT_START_TIMEOUT_MS } from '../records/match.ts';
import { isolationStatus } from './isolation.ts';
import { newCallerId } from './relayed-callers.ts';
import { type BotCall, connectUnix, openRelays, relayEach, STAGE_ENTRY, START_BOT, stageNameRoom } from './relay.ts';
import { canDialDirect, namespacePidOf, PortDialer } from './port-dialer.ts';
import { sleep, waitAtMost } from '../util/wait.ts';
import { killProcessesIn } from './strays.ts';
import {
  BotStartError,
  type ExchangeTapFor,
  type BotHandle,
  type BotStartOptions,
  type HealthCheck,
  type Sandbox,
} from './types.ts';

export interface IsolatedSandboxOptions {
  /** Memory per bot in MiB, no swap (default 1024; an address-space rlimit of 4× where no cgroup). */
  memoryMb?: number;
  /** Processes (threads) per bot (default 256). */
  pidsLimit?: number;
  /** Size of the private /tmp in MiB (default 64). */
  tmpfsMb?: number;
  /** Largest file a bot process may write, MiB (default 64). */
  fileSizeMb?: number;
  /** CPU seconds per bot process (default 3600: a runaway loop ends; a bot killed by it is restarted). */
  cpuSeconds?: number;
  /** The bwrap binary (default bwrap on PATH). */
  bwrap?: string;
  /** Kill bots on SIGINT/SIGTERM/SIGHUP (default true); they are always killed on exit. */
  handleSignals?: boolean;
  /** Each bot's model-exchange tap (a run's recording or replay). */
  exchanges?: ExchangeTapFor;
}

/** Bytes in a MiB (a multiplication: `<< 20` overflows 32 bits from 2,048 MiB). */
const MIB = 1024 * 1024;

export const ISOLATED_DEFAULTS = { memoryMb: 1024, pidsLimit: 256, tmpfsMb: 64, fileSizeMb: 64, cpuSeconds: 3600 };

export class IsolatedSandbox implements Sandbox {
  readonly kind = 'process';
  private readonly limits: typeof ISOLATED_DEFAULTS;
  private readonly bwrap: string;
  private readonly exchanges: ExchangeTapFor | undefined;
  private readonly bots = new Set<IsolatedBot>();
  private stageRoot?: string;
  private readonly exitHook: ExitHook;

  constructor(options: IsolatedSandboxOptions = {}) {
    this.exitHook = new ExitHook(() => this.onExit(), options.handleSignals ?? true);
    this.limits = { ...ISOLATED_DEFAULTS, ...definedOnly(options) };
    this.bwrap = options.bwrap ?? 'bwrap';
    this.exchanges = options.exchanges;
  }

  /** Processes a killed orchestrator left in `dir` (bwrap's die-with-parent normally took them already). */
  reapStrays(dir: string): number {
    return killProcessesIn(dir).length;
  }

  async start(o: BotStartOptions): Promise<BotHandle> {
    const name = o.name ?? path.basename(o.dir);
    const dir = path.resolve(o.dir);
    if ((o.script ?? 'start_ai.sh') !== 'start_ai.sh') throw new Error('the isolated sandbox runs start_ai.sh only');
    if (!fs.existsSync(path.join(dir, 'start_ai.sh'))) {
      throw new BotStartError(
        `${name}: start script not found: ${path.join(dir, 'start_ai.sh')}. A bot folder needs a start_ai.sh that takes the port as its only argument.`,
        'no_start_script',
        '',
      );
    }
    const status = isolationStatus(this.bwrap);
    if (!status.ok) throw new BotStartError(`${name}: ${status.detail}`, 'spawn_failed', '');
    this.exitHook.on();
    const direct = await canDialDirect(this.bwrap);
    if (!direct) warnRelayOnce();
    const stage = this.makeStage(name);
    const callerId = newCallerId();
    const closers: Array<() => Promise<void>> = [];
    let cgroup: BotCgroup | null = null;
    let started: IsolatedBot | undefined;
    try {
      const {
        forwards,
        calls,
        env: egressEnv,
      } = await openRelays(stage, o.hostPorts ?? {}, callerId, dir, closers, this.exchanges?.(o.dir), !direct);
      cgroup = createBotCgroup(name, { pids: this.limits.pidsLimit, memoryBytes: this.limits.memoryMb * MIB });
      const logFile = o.logFile ?? path.join(stage, 'bot.log');
      const log = new CappedLog(logFile, o.logCapBytes ?? 1024 * 1024);
      const entry = direct ? DIRECT_ENTRY : STAGE_ENTRY;
      const child = this.spawnBot(
        stage,
        botFolderFor(dir, stage),
        o,
        entry,
        forwards,
        { ...egressEnv, ...o.env },
        cgroup,
      );
      started = new IsolatedBot(
        name,
        o.port,
        logFile,
        child,
        log,
        o.health ?? DEFAULT_HEALTH,
        stage,
        cgroup,
        closers,
        callerId,
        (b) => this.bots.delete(b),
        direct ? calls : undefined,
      );
      this.bots.add(started);
    } catch (err) {
      await Promise.all(closers.map((c) => c()));
      cgroup?.remove();
      fs.rmSync(stage, { recursive: true, force: true });
      throw err;
    }
    await started.waitHealthy(o.startTimeoutMs ?? BOT_START_TIMEOUT_MS);
    return started;
  }

  /** A stage folder per bot: io/ (its port's socket, writable by it), gs/ (the host's sockets), maybe bot/. */
  private makeStage(name: string): string {
    this.stageRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-box-'));
    const stage = fs.mkdtempSync(
      path.join(this.stageRoot, `${name.replace(/[^\w.-]+/g, '_').slice(0, stageNameRoom(this.stageRoot))}-`),
    );
    fs.mkdirSync(path.join(stage, 'io'), { mode: 0o700 });
    fs.mkdirSync(path.join(stage, 'gs'), { mode: 0o755 });
    if (process.getuid?.() === 0) fs.chownSync(path.join(stage, 'io'), BOT_UID, BOT_GID);
    return stage;
  }

  private spawnBot(
    stage: string,
    botDir: string,
    o: BotStartOptions,
    entry: string,
    forwards: string[],
    extraEnv: Record<string, string>,
    cgroup: BotCgroup | null,
  ): ChildProcess {
    const python = pythonShimTarget();
    const args = bwrapArgs(
      {
        botDir,
        ioDir: path.join(stage, 'io'),
        gsDir: path.join(stage, 'gs'),
        tmpBytes: isolationStatus(this.bwrap).tmpSize ? this.limits.tmpfsMb * MIB : undefined,
        asRoot: process.getuid?.() === 0,
        pythonShim: python,
      },
      [
        '/bin/bash',
        '-c',
        `${rlimitLine(this.limits, cgroup !== null)}\n${entry}`,
        'catarena-entry',
        String(o.port),
        ...forwards,
      ],
    );
    const env = {
      PATH: python ? `${SCRUBBED_PATH}:${SHIM_DIR}` : SCRUBBED_PATH,
      HOME: '/tmp',
      LANG: 'C.UTF-8',
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      ...extraEnv,
    };
    // The bot's first process joins its cgroup before bwrap exists, so nothing of it is ever outside.
    const [cmd, argv] = cgroup
      ? [
          '/bin/sh',
          [
            '-c',
            JOIN_CGROUPS,
            'catarena-join',
            String(cgroup.procsFiles.length),
            ...cgroup.procsFiles,
            this.bwrap,
            ...args,
          ],
        ]
      : [this.bwrap, args];
    // DIRECT_ENTRY waits on its stdin for the broker; STAGE_ENTRY's relays start at once.
    return spawn(cmd, argv, { env, stdio: [entry === DIRECT_ENTRY ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.bots].map((b) => b.stop()));
    if (this.stageRoot) fs.rmSync(this.stageRoot, { recursive: true, force: true });
    this.exitHook.off();
  }

  private readonly onExit = () => {
    for (const bot of this.bots) bot.killSync();
    if (this.stageRoot) fs.rmSync(this.stageRoot, { recursive: true, force: true });
  };
}

/**
 * The script a bot starts with where the port broker reaches it (`bash -c DIRECT_ENTRY entry <port>`):
 * it waits for the line that says the broker listens for its calls, then runs the start script
 * as STAGE_ENTRY does, with no relay process beside it.
 */
const DIRECT_ENTRY = `set -u
port=$1
read -r _ || exit 95
exec </dev/null
${START_BOT}`;

/** sh -c: write our pid to each of the first $1 files, then exec the rest. */
const JOIN_CGROUPS =
  'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 97; shift; n=$((n-1)); done; exec "$@"';

/**
 * The rlimits every process of the bot gets (bash's ulimit sets soft and hard): file size and CPU
 * time always; processes and address space only where no cgroup bounds them (RLIMIT_NPROC counts
 * per user, so without a cgroup all bots running as nobody share it).
 */
function rlimitLine(limits: typeof ISOLATED_DEFAULTS, cgrouped: boolean): string {
  const parts = [`-f ${limits.fileSizeMb * 1024}`, `-t ${limits.cpuSeconds}`];
  if (!cgrouped) parts.push(`-u ${limits.pidsLimit}`, `-v ${limits.memoryMb * 4 * 1024}`);
  return `ulimit ${parts.join(' ')} || exit 96`;
}

/**
 * The folder to mount at /bot: the bot folder itself when everything in it is readable by anyone
 * (the bot runs as nobody), else a readable copy in the stage, as the Docker sandbox makes.
 */
function botFolderFor(dir: string, stage: string): string {
  if (readableByAll(dir)) return dir;
  const copy = path.join(stage, 'bot');
  fs.cpSync(dir, copy, { recursive: true });
  const open = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    fs.chmodSync(p, st.mode | (st.isDirectory() ? 0o555 : 0o444));
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) open(path.join(p, e));
  };
  open(copy);
  return copy;
}

function readableByAll(dir: string, budget = { left: 20_000 }): boolean {
  const st = fs.statSync(dir);
  if ((st.mode & 0o005) !== 0o005) return false;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (--budget.left < 0) return false;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!readableByAll(p, budget)) return false;
    } else if (e.isFile() && (fs.statSync(p).mode & 0o004) === 0) return false;
  }
  return true;
}

/** python3's path where the system has no `python` (CATArena's chess examples start with python). */
function pythonShimTarget(): string | undefined {
  const dirs = SCRUBBED_PATH.split(':');
  if (dirs.some((d) => fs.existsSync(path.join(d, 'python')))) return undefined;
  return dirs.map((d) => path.join(d, 'python3')).find((f) => fs.existsSync(f));
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

class IsolatedBot implements BotHandle {
  readonly url: string;
  readonly socketPath: string;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private stopping?: Promise<void>;
  private readonly closed: Promise<void>;
  /** The broker that hands over sockets connected in the bot's namespace (port-dialer.ts). */
  private dialer?: PortDialer;

  constructor(
    readonly name: string,
    readonly port: number,
    readonly logFile: string,
    private readonly child: ChildProcess,
    private readonly log: CappedLog,
    private readonly health: HealthCheck,
    private readonly stage: string,
    private readonly cgroup: BotCgroup | null,
    private readonly closers: Array<() => Promise<void>>,
    readonly callerId: string,
    private readonly forget: (b: IsolatedBot) => void,
    /** The ports it may call, served by a port broker; undefined where socat relays them (STAGE_ENTRY). */
    private readonly calls?: BotCall[],
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.socketPath = path.join(stage, 'io', 'bot.sock');
    child.stdin?.on('error', () => {}); // a bot gone before the go line: its exit says why
    child.stdout!.on('data', (c: Buffer) => log.write(c));
    child.stderr!.on('data', (c: Buffer) => log.write(c));
    child.once('exit', (code, signal) => (this.exit = { code, signal }));
    this.closed = new Promise((r) => child.once('close', () => r()));
  }

  /** A connection to the bot's port: handed over from its namespace, or through its relay. */
  readonly connect = (): Promise<net.Socket> => (this.calls ? this.dialer!.dial() : connectUnix(this.socketPath));

  /**
   * Starts the port broker once bwrap has made the bot's namespaces, accepts the bot's calls on the
   * listeners it hands over, and then lets the entry script start the bot. 'late' when the start's
   * deadline came first, 'failed' when the broker ended or bwrap made no namespace before it exited.
   */
  private async openBroker(calls: BotCall[], deadline: number): Promise<'ok' | 'late' | 'failed'> {
    const nsPid = await namespacePidOf(this.child, deadline);
    if (nsPid === undefined) return Date.now() > deadline ? 'late' : 'failed';
    this.dialer = PortDialer.start(
      nsPid,
      this.port,
      process.getuid?.() === 0,
      calls.map((c) => c.port),
      (port, server) => {
        relayEach(server, calls.find((c) => c.port === port)!.open);
        this.closers.push(() => new Promise<void>((r) => server.close(() => r())));
      },
    );
    const ready = await waitAtMost(this.dialer.ready, Math.max(0, deadline - Date.now()));
    if (ready === undefined) return 'late';
    if (!ready) return 'failed';
    this.child.stdin?.end('go\n');
    return 'ok';
  }

  /** Polls health (10 ms, doubling to 100 ms) until healthy; stops the bot and throws otherwise. */
  async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const broker = this.calls ? await this.openBroker(this.calls, deadline) : 'ok';
    if (broker === 'failed' && !this.exit) {
      return this.failStart(
        'spawn_failed',
        `${this.name}: the port broker could not reach the bot's sandbox (${this.dialer?.failure() ?? 'bubblewrap made no namespace'})`,
      );
    }
    for (let pause = 10; ; pause = Math.min(100, pause * 2)) {
      if (this.exit) {
        return this.failStart(
          'exited',
          `${this.name}: start_ai.sh ended (${this.describeExitNow()}) before the bot became healthy`,
        );
      }
      const reachable = this.calls ? broker === 'ok' : fs.existsSync(this.socketPath);
      if (reachable && (await probeHealth(this.url, this.health, 1_000, this.connect))) return;
      if (Date.now() > deadline) {
        return this.failStart(
          'unhealthy',
          `${this.name}: no healthy answer within ${timeoutMs} ms; its processes were killed`,
        );
      }
      await waitAtMost(this.closed, pause);
    }
  }

  private async failStart(reason: BotStartError['reason'], message: string): Promise<never> {
    await waitAtMost(this.closed, 300); // the last output reaches the log
    const tail = await this.logTail();
    await this.stop();
    throw new BotStartError(
      `${message}. Log: ${this.logFile}${tail ? `\n--- log tail ---\n${tail}` : ''}`,
      reason,
      tail,
    );
  }

  isHealthy(timeoutMs = 2_000): Promise<boolean> {
    if (this.stopping || this.exit) return Promise.resolve(false);
    return probeHealth(this.url, this.health, timeoutMs, this.connect);
  }

  logTail(maxBytes = 4096): Promise<string> {
    return readLogTail(this.logFile, maxBytes);
  }

  async alive(): Promise<boolean> {
    if (this.stopping || this.exit) return false;
    return probeHealth(this.url, { kind: 'tcp' }, 1_000, this.connect);
  }

  async describeExit(): Promise<string | null> {
    if (!this.exit) return null;
    return this.describeExitNow();
  }

  private describeExitNow(): string {
    const e = this.exit;
    const how = !e ? 'running' : e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`;
    const hit = this.limitsHit();
    return hit.length ? `${how} (limit reached: ${hit.join(', ')})` : how;
  }

  /** The limits the bot's processes ran into (cgroup counters; rlimits leave no trace here). */
  limitsHit(): string[] {
    return this.cgroup?.limitsHit() ?? [];
  }

  cpuTimeMs(): number | undefined {
    if (this.stopping || this.exit || this.child.pid === undefined) return undefined;
    return this.cgroup?.cpuMs() ?? processTreeCpuMs(this.child.pid);
  }

  /**
   * SIGTERM to the bot's own processes, then up to `graceMs` for them to exit, as the unsafe sandbox
   * gives its group: a bot that reports on exit (the LLM-player's token totals) gets to. Not to
   * bwrap's, nor to the entry shell under it: either's death ends the pid namespace, which would
   * SIGKILL the bot before it has written its last words.
   */
  private async terminateGracefully(graceMs: number): Promise<void> {
    const leader = this.child.pid;
    if (leader === undefined || this.exit) return;
    const botProcesses = () =>
      [...new Set([...processTree(leader), ...(this.cgroup?.pids() ?? [])])].filter(
        (pid) => !isProcessGone(pid) && commOf(pid) !== 'bwrap' && commOf(parentOf(pid)) !== 'bwrap',
      );
    let pids = botProcesses();
    for (const pid of pids) signalPid(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (pids.length > 0 && !this.exit && Date.now() < deadline) {
      await sleep(25);
      pids = botProcesses();
    }
  }

  /** bwrap's death takes the sandbox's pid namespace, and so every process of the bot, with it. */
  killSync(): void {
    this.dialer?.close();
    if (this.child.pid !== undefined && !this.exit) signalPid(this.child.pid, 'SIGKILL');
    for (const pid of this.cgroup?.pids() ?? []) signalPid(pid, 'SIGKILL');
  }

  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    await this.terminateGracefully(1_000);
    this.killSync();
    // Stopped means nothing of the bot runs, its broker included (SIGKILLed above, it may not have
    // been scheduled to die yet on a loaded machine).
    await Promise.all([waitAtMost(this.closed, 3_000), this.dialer && waitAtMost(this.dialer.ended, 3_000)]);
    // A process that left bwrap's tree cannot have left its pid namespace: it is dying already.
    for (let i = 0; i < 40 && this.cgroup && this.cgroup.pids().some((p) => !isProcessGone(p)); i++) {
      this.killSync();
      await sleep(50);
    }
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.log.close();
    this.cgroup?.remove();
    await Promise.all(this.closers.map((close) => close()));
    // Keep the log when it lives in the stage (the caller may still read its tail); drop the rest.
    for (const sub of ['bot', 'io', 'gs']) fs.rmSync(path.join(this.stage, sub), { recursive: true, force: true });
    this.forget(this);
  }
}

/** A process's command name ('' once it is gone). */
function commOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** A process's parent pid (0 once it is gone). */
function parentOf(pid: number): number {
  return Number(statFields(pid)?.[1] ?? 0);
}

let warnedRelay = false;
function warnRelayOnce(): void {
  if (warnedRelay) return;
  warnedRelay = true;
  console.warn(
    'catarena: the port broker could not enter a bot sandbox (nsenter or python3 missing, or a user namespace it may not join): bots are reached through a relay, which costs time per move',
  );
}
