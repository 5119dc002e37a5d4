// The embedded sandbox: runs `bash start_ai.sh <port>` as a plain process in its own session and
// process group, with a scrubbed environment and a size-capped log. Linux-only for the cleanup of
// daemons that escaped the group (it reads /proc); elsewhere the group kill is all there is.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HEALTH, probeHealth } from './health.ts';
import { isPortOpen, listeningSocketInodes, waitForPortClosed } from './ports.ts';
import { CappedLog, readLogTail } from './capped-log.ts';
import { BotStartError, type BotHandle, type BotStartOptions, type HealthCheck, type Sandbox } from './types.ts';

export { readLogTail };
export const SCRUBBED_PATH = '/usr/local/bin:/usr/bin:/bin';
/**
 * Every bot process carries this variable: `<owner token>.<fresh UUID per start>` (see ownerToken).
 * Descendants inherit it even after setsid or a double fork, so stop() can find them without
 * touching unrelated processes, the reaper can find every bot of a dead orchestrator, and a later
 * run can tell whether the orchestrator that started a bot is still alive.
 */
export const MARKER_VAR = 'CATARENA_BOT_ID';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let botPathCache: string | undefined;
/**
 * The bots' PATH: the scrubbed one, plus (last, so a real one wins) a folder whose `python` is
 * python3 where the host has no `python`. CATArena's environment has one and its chess examples
 * start with `python` (Debian's python-is-python3 gives the same on the host and in the image).
 */
export function botPath(): string {
  if (botPathCache !== undefined) return botPathCache;
  const dirs = SCRUBBED_PATH.split(':');
  const find = (name: string) => dirs.map((d) => path.join(d, name)).find((f) => fs.existsSync(f));
  const python3 = find('python3');
  botPathCache = SCRUBBED_PATH;
  if (!find('python') && python3) {
    const shims = path.join(os.tmpdir(), `catarena-shims-${process.getuid?.() ?? 'user'}`);
    try {
      fs.mkdirSync(shims, { recursive: true });
      const link = path.join(shims, 'python');
      if (!fs.existsSync(link)) fs.symlinkSync(python3, link);
      botPathCache = `${SCRUBBED_PATH}:${shims}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') botPathCache = `${SCRUBBED_PATH}:${shims}`;
    }
  }
  return botPathCache;
}

// ---------------------------------------------------------------------------------------------
// Pass-through environment

/**
 * A bot folder may hold `catarena-env.json` = {"passEnv": ["OPENAI_API_KEY", "CATARENA_LLM_BASE_URL"]}:
 * the NAMES of variables to copy from the orchestrator's environment into the bot's (the
 * LLM-player bot calls an LLM API at play time and needs its key, which must never be written into
 * a bot folder). Only the listed names, only those set (non-empty), only names matching
 * /^[A-Z][A-Z0-9_]*$/, never one of the scrubbed base (PATH, HOME, …) or the marker; options.env
 * still wins over them. Anything else in the file, or a malformed file, is ignored with a note in
 * the bot's log. The process sandbox isolates nothing (a bot runs as the orchestrator's user), so
 * this opens no new door; it only keeps the scrubbed default for every bot that does not ask.
 * The Docker sandbox passes no variable: its containers have no network and hold no host secret;
 * a bot that calls an LLM reaches it there through the egress proxy instead (egressFor below).
 */
export const PASS_ENV_FILE = 'catarena-env.json';
const PASS_ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const PROXY_NAMES = new Set(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY']);
const BASE_ENV_NAMES = new Set(['PATH', 'HOME', 'LANG', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', MARKER_VAR]);

/** The variables a bot folder's catarena-env.json asks for, with their values from `source`. */
export function passEnvFor(dir: string, source: NodeJS.ProcessEnv = process.env): { env: Record<string, string>; notes: string[] } {
  const file = path.join(dir, PASS_ENV_FILE);
  const env: Record<string, string> = {};
  const notes: string[] = [];
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { env, notes };
  }
  let names: unknown;
  try {
    names = (JSON.parse(text) as { passEnv?: unknown } | null)?.passEnv;
  } catch {
    names = undefined;
  }
  if (!Array.isArray(names)) return { env, notes: [`${PASS_ENV_FILE} is not {"passEnv": [names]}: no variable passed`] };
  for (const name of names) {
    if (typeof name !== 'string' || !PASS_ENV_NAME.test(name) || BASE_ENV_NAMES.has(name)) {
      notes.push(`${PASS_ENV_FILE}: ${JSON.stringify(name)} is not a variable name that may be passed; ignored`);
      continue;
    }
    // The proxy variables are often set in lower case only (curl reads those first).
    const value = PROXY_NAMES.has(name) ? source[name.toLowerCase()] || source[name] : source[name];
    if (value !== undefined && value !== '') env[name] = value;
  }
  return { env, notes };
}

/** Where a bot's LLM calls go in an isolated sandbox (catarena-env.json's "egress"). */
export interface BotEgress {
  /** The real endpoint (host side). */
  upstream: string;
  /** Headers the egress proxy sets (the key, read from the orchestrator's environment). */
  headers: Record<string, string>;
  /** The variable that holds the base URL in the bot's environment. */
  baseUrlVar: string;
  /** The key variables the bot expects: given a placeholder inside the container. */
  keyVars: string[];
}

const KEY_HEADERS: Record<string, (key: string) => Record<string, string>> = {
  authorization: (key) => ({ authorization: `Bearer ${key}` }),
  'x-api-key': (key) => ({ 'x-api-key': key }),
  'x-goog-api-key': (key) => ({ 'x-goog-api-key': key }),
};

/**
 * catarena-env.json may also say where the bot's LLM is, for sandboxes without network:
 * {"egress": {"baseUrlVar": "CATARENA_LLM_BASE_URL", "baseUrl": "https://…", "keyVars": ["OPENAI_API_KEY"],
 * "keyHeader": "authorization" | "x-api-key" | "x-goog-api-key"}}. The endpoint is the orchestrator's
 * value of baseUrlVar, else baseUrl; the key is sent by the egress proxy, never put in the container.
 */
export function egressFor(dir: string, source: NodeJS.ProcessEnv = process.env): BotEgress | null {
  let spec: Record<string, unknown> | undefined;
  try {
    spec = (JSON.parse(fs.readFileSync(path.join(dir, PASS_ENV_FILE), 'utf8')) as { egress?: Record<string, unknown> } | null)?.egress;
  } catch {
    return null;
  }
  if (!spec || typeof spec !== 'object') return null;
  const baseUrlVar = typeof spec.baseUrlVar === 'string' && PASS_ENV_NAME.test(spec.baseUrlVar) ? spec.baseUrlVar : 'CATARENA_LLM_BASE_URL';
  const upstream = (source[baseUrlVar]?.trim() || (typeof spec.baseUrl === 'string' ? spec.baseUrl.trim() : '')).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(upstream)) return null;
  const keyVars = Array.isArray(spec.keyVars) ? spec.keyVars.filter((v): v is string => typeof v === 'string' && PASS_ENV_NAME.test(v)) : [];
  const keyVar = keyVars.find((v) => source[v]?.trim());
  const toHeader = KEY_HEADERS[typeof spec.keyHeader === 'string' ? spec.keyHeader : 'authorization'] ?? KEY_HEADERS.authorization!;
  return { upstream, headers: keyVar ? toHeader(source[keyVar]!.trim()) : {}, baseUrlVar, keyVars };
}

// ---------------------------------------------------------------------------------------------
// /proc helpers

interface ProcInfo { pid: number; ppid: number; pgrp: number; sid: number }

/** Live (non-zombie) processes. Orphans may linger as zombies when PID 1 does not reap; they hold nothing. */
function liveProcesses(): ProcInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp session ..."; comm may contain spaces and parentheses.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (f[0] === 'Z' || f[0] === 'X') continue;
      out.push({ pid: Number(name), ppid: Number(f[1]), pgrp: Number(f[2]), sid: Number(f[3]) });
    } catch {
      // the process vanished while we looked
    }
  }
  return out;
}

/** True when the pid no longer names a running process (a zombie counts as gone). */
export function isProcessGone(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state === 'Z' || state === 'X';
  } catch {
    try {
      process.kill(pid, 0); // no /proc (not Linux): fall back to a signal-0 probe
      return false;
    } catch {
      return true;
    }
  }
}

/** A process's start time (/proc/<pid>/stat field 22, clock ticks since boot), or null if gone. */
export function startTimeOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return f[0] === 'Z' || f[0] === 'X' ? null : (f[19] ?? null);
  } catch {
    return null;
  }
}

let ownerTokenCache: string | undefined;
/**
 * This orchestrator's token, `<pid>-<start time>-<random>`: the prefix of the marker of every bot
 * it starts. The pid and start time say whether the owner still lives (pid reuse cannot fake it);
 * the random part keeps two sandboxes' tokens apart (module instances, worker threads).
 */
export function ownerToken(): string {
  ownerTokenCache ??= `${process.pid}-${startTimeOf(process.pid) ?? 0}-${randomBytes(8).toString('hex')}`;
  return ownerTokenCache;
}

/** The marker value of a process's bot variable, or null when it carries none. */
function markerOf(pid: number): string | null {
  try {
    const entry = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').find((e) => e.startsWith(`${MARKER_VAR}=`));
    return entry === undefined ? null : entry.slice(MARKER_VAR.length + 1);
  } catch {
    return null;
  }
}

/** True when a marker names an orchestrator that is still running (markers without an owner: false). */
function ownerAlive(marker: string): boolean {
  const m = /^(\d+)-(\d+)-[0-9a-f]+\./.exec(marker);
  return m !== null && startTimeOf(Number(m[1])) === m[2];
}

/**
 * Kills the bots a killed orchestrator left running in `dir` and returns their pids: live
 * processes that carry the bot marker variable (MARKER_VAR, any value), whose working directory
 * is inside `dir`, and whose orchestrator (named in the marker) is no longer running; never this
 * process or its ancestors. Anything else with its cwd there (a shell cd'd into a run directory,
 * the bots of a run still in progress) is left alone. Used at the start of a worker (its artifact
 * cache), of a tourney and of an arena (the run directory). Linux (/proc) only.
 */
export function killProcessesIn(dir: string): number[] {
  let root: string;
  try {
    root = fs.realpathSync(dir);
  } catch {
    return [];
  }
  const killed = new Set<number>();
  // A few passes: a bot forking while we look leaves a child the first pass did not see.
  for (let pass = 0; pass < 5; pass++) {
    const procs = liveProcesses();
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const mine = new Set<number>();
    for (let p = byPid.get(process.pid); p && !mine.has(p.pid); p = byPid.get(p.ppid)) mine.add(p.pid);
    let found = 0;
    for (const p of procs) {
      if (mine.has(p.pid) || killed.has(p.pid) || !cwdInside(p.pid, root)) continue;
      const marker = markerOf(p.pid);
      if (marker === null || ownerAlive(marker)) continue;
      try {
        process.kill(p.pid, 'SIGKILL');
        killed.add(p.pid);
        found++;
      } catch {
        // exited meanwhile
      }
    }
    if (found === 0) break;
  }
  return [...killed];
}

function hasMarker(pid: number, marker: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${MARKER_VAR}=${marker}`);
  } catch {
    return false;
  }
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux platform Node runs on). */
const CLOCK_TICKS = 100;

/** utime + stime + cutime + cstime of one process, in ms; null if gone. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the comm: state(3) ppid … utime(14) stime(15) cutime(16) cstime(17).
    return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * A process and its live descendants (children as listed by the main thread of each; a process
 * that double-forked away is not among them), at most 256. Just [root] where /proc cannot tell.
 */
function processTree(root: number): number[] {
  const tree: number[] = [];
  const todo = [root];
  while (todo.length > 0 && tree.length < 256) {
    const pid = todo.pop()!;
    tree.push(pid);
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ')) if (child.trim()) todo.push(Number(child));
    } catch {
      // gone, or a kernel without the children file
    }
  }
  return tree;
}

/**
 * CPU ms of a process and its live descendants (processTree), including the CPU of exited
 * children they waited for. Undefined when /proc cannot tell (not Linux, or the process is gone).
 */
export function processTreeCpuMs(root: number): number | undefined {
  let total = 0;
  for (const pid of processTree(root)) {
    const ms = processCpuMs(pid);
    if (ms === null) {
      if (pid === root) return undefined;
      continue;
    }
    total += ms;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------
// The reaper: bots die with the orchestrator

const REAPER = fileURLToPath(new URL('./reaper.mjs', import.meta.url));
let reaper: ChildProcess | null = null;

/**
 * Starts (once per owner token, again if it died) the detached watchdog that SIGKILLs every process
 * carrying this orchestrator's token within about a second of the orchestrator's death, however it
 * dies (sandbox/reaper.mjs). It holds nothing of ours but the read end of a pipe, so it neither
 * keeps this event loop alive nor delays a parent waiting for our stdout. Linux only.
 */
function ensureReaper(): void {
  if (reaper || process.platform !== 'linux' || !fs.existsSync(REAPER)) return;
  const start = startTimeOf(process.pid);
  if (start === null) return;
  try {
    const child = spawn(process.execPath, [REAPER, String(process.pid), start, ownerToken()], {
      cwd: '/',
      env: { PATH: process.env.PATH ?? SCRUBBED_PATH },
      detached: true, // its own session: a Ctrl-C for the terminal's foreground group spares it
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    reaper = child;
    child.once('error', () => {
      if (reaper === child) reaper = null;
    });
    child.once('exit', () => {
      if (reaper === child) reaper = null;
    });
    child.stdin!.on('error', () => {});
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    child.unref();
  } catch {
    reaper = null; // no watchdog: bots are still stopped by close(), exit and signal handlers
  }
}

function cwdInside(pid: number, dir: string): boolean {
  try {
    const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    return cwd === dir || cwd.startsWith(dir + path.sep);
  } catch {
    return false;
  }
}

function holdsSocket(pid: number, sockets: Set<string>): boolean {
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
      if (sockets.has(link)) return true;
    }
  } catch {
    // gone, or not ours to inspect
  }
  return false;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: already gone
  }
}


// ---------------------------------------------------------------------------------------------
// One running bot

class ProcessBot implements BotHandle {
  readonly url: string;
  /** Set when the start script (the group and session leader) has exited. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** Set when another process serves the bot's port: stop() does not wait for it to close. */
  portTaken = false;
  private stopping: Promise<void> | null = null;
  private readonly closed: Promise<void>;

  constructor(
    readonly name: string,
    readonly port: number,
    readonly logFile: string,
    private readonly dir: string,
    private readonly marker: string,
    private readonly health: HealthCheck,
    private readonly child: ChildProcess,
    private readonly log: CappedLog,
    private readonly onStopped: (bot: ProcessBot) => void,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    child.once('exit', (code, sig) => (this.exit = { code, signal: sig }));
    // 'close' = the leader exited and every holder of its stdout/stderr pipes is gone.
    this.closed = new Promise((r) => child.once('close', () => r()));
  }

  /** The start script's pid; it is also the process group and session id. */
  get pid(): number {
    return this.child.pid!;
  }

  isHealthy(timeoutMs = 2000): Promise<boolean> {
    return probeHealth(this.url, this.health, timeoutMs);
  }

  logTail(maxBytes = 4096): Promise<string> {
    return readLogTail(this.logFile, maxBytes);
  }

  async alive(): Promise<boolean> {
    if (this.stopping) return false;
    if (!this.exit) return true;
    return isPortOpen(this.port, '127.0.0.1', 500);
  }

  /** The start script's exit status once it has exited and nothing serves the port any more. */
  async describeExit(): Promise<string | null> {
    if (!this.exit || (await this.alive())) return null;
    return this.exit.signal ? `killed by ${this.exit.signal}` : `exit code ${this.exit.code}`;
  }

  /** Resolves when the leader's output pipes close, or after ms (a daemon may keep them open). */
  drained(ms: number): Promise<void> {
    return Promise.race([this.closed, sleep(ms)]);
  }

  /**
   * False when the process listening on the bot's port is none of the bot's (its process tree, or
   * any process strays() counts as the bot's). True where /proc cannot tell.
   */
  servesPort(): boolean {
    const sockets = this.portSockets();
    if (sockets.size === 0) return true;
    const leader = this.child.pid;
    if (leader !== undefined && !this.exit && processTree(leader).some((pid) => holdsSocket(pid, sockets))) return true;
    return this.strays(sockets).some((pid) => holdsSocket(pid, sockets));
  }

  /** The /proc/<pid>/fd link names (`socket:[inode]`) of the sockets listening on the bot's port. */
  private portSockets(): Set<string> {
    return new Set(listeningSocketInodes(this.port).map((inode) => `socket:[${inode}]`));
  }

  /**
   * Everything this bot started that is still running: its session and group (same id as the
   * leader's pid), descendants, processes carrying our marker, and the holder of the bot's port when
   * its cwd is inside the bot folder. Never this process or its ancestors. `known`: the port's
   * sockets (portSockets()) when the caller has just read them.
   */
  strays(known?: Set<string>): number[] {
    const procs = liveProcesses();
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const protectedPids = new Set<number>();
    for (let p: ProcInfo | undefined = byPid.get(process.pid); p; p = byPid.get(p.ppid)) {
      protectedPids.add(p.pid);
      if (p.ppid <= 1) break;
    }
    const leader = this.child.pid;
    const descendsFromLeader = (p: ProcInfo): boolean => {
      for (let q: ProcInfo | undefined = p, hops = 0; q && hops < 64; q = byPid.get(q.ppid), hops++) {
        if (q.ppid === leader) return true;
      }
      return false;
    };
    // Read only when a process in the bot folder is not otherwise known to be the bot's.
    let sockets = known;
    const portSockets = () => (sockets ??= this.portSockets());
    const out: number[] = [];
    for (const p of procs) {
      if (protectedPids.has(p.pid)) continue;
      // Once the leader is gone its pid may be reused; the kernel keeps it reserved only while it
      // still names a live group or session, so only members (not the pid itself) are ours.
      if (p.pid === leader) {
        if (!this.exit) out.push(p.pid);
        continue;
      }
      const ours =
        (leader !== undefined && (p.sid === leader || p.pgrp === leader || descendsFromLeader(p))) ||
        hasMarker(p.pid, this.marker) ||
        (cwdInside(p.pid, this.dir) && portSockets().size > 0 && holdsSocket(p.pid, portSockets()));
      if (ours) out.push(p.pid);
    }
    return out;
  }

  /**
   * CPU time (user + system, ms) of the bot's process tree so far: the start script and its
   * descendants (found through /proc/<pid>/task/<pid>/children), each with the CPU of its children
   * that have exited. Linux only; undefined elsewhere or once the script has exited.
   */
  cpuTimeMs(): number | undefined {
    const leader = this.child.pid;
    if (leader === undefined || this.exit) return undefined;
    return processTreeCpuMs(leader);
  }

  /** Synchronous last-resort kill, for process 'exit' and signal handlers. */
  killSync(): void {
    if (this.child.pid !== undefined && !this.exit) signal(-this.child.pid, 'SIGKILL');
    for (const pid of this.strays()) signal(pid, 'SIGKILL');
  }

  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  private async doStop(): Promise<void> {
    const leader = this.child.pid;
    // SIGTERM the group and every stray, give them ~1 s, then SIGKILL whatever is left. While
    // waiting, only the signalled pids are looked at; once they are gone, one full scan (strays()
    // reads every process in /proc) finds anything of the bot still running.
    for (const [sig, graceMs] of [['SIGTERM', 1000], ['SIGKILL', 2000]] as const) {
      if (leader !== undefined && !this.exit) signal(-leader, sig);
      const deadline = Date.now() + graceMs;
      let pids = this.strays();
      while (pids.length > 0) {
        for (const pid of pids) signal(pid, sig);
        while (pids.length > 0 && Date.now() < deadline) {
          await sleep(50);
          pids = pids.filter((pid) => !isProcessGone(pid));
        }
        if (pids.length > 0) break; // out of time: the next signal
        pids = this.strays();
        if (Date.now() >= deadline) break;
      }
      if (pids.length === 0) break;
    }
    const closed = this.portTaken || (await waitForPortClosed(this.port, '127.0.0.1', 3000));
    await this.drained(200);
    // Whatever still holds our pipes is not ours to wait for any longer.
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.log.close();
    this.onStopped(this);
    if (!closed) {
      throw new Error(
        `${this.name}: port ${this.port} is still open after stop; a process outside the bot folder holds it ` +
          `(find it with: ss -ltnp 'sport = :${this.port}')`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The sandbox

export interface ProcessSandboxOptions {
  /**
   * Also kill bots on SIGINT, SIGTERM and SIGHUP (default true). After killing them the handler
   * removes itself and, if no other listener for that signal remains, re-raises the signal so the
   * process still dies the default way. Pass false when the caller handles signals and calls
   * close() itself. Bots are always killed on a normal process 'exit'.
   */
  handleSignals?: boolean;
}

const HOOK_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export class ProcessSandbox implements Sandbox {
  readonly kind = 'process';
  private readonly bots = new Set<ProcessBot>();
  private hooked = false;

  constructor(private readonly options: ProcessSandboxOptions = {}) {}

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
    const startTimeoutMs = o.startTimeoutMs ?? 20_000;
    const logFile = o.logFile ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bot-')), 'bot.log');
    const log = new CappedLog(logFile, o.logCapBytes ?? 1024 * 1024);
    const marker = `${ownerToken()}.${randomUUID()}`;
    const passed = passEnvFor(dir);
    for (const note of passed.notes) log.write(Buffer.from(`[catarena] ${note}\n`));
    const env = {
      PATH: botPath(),
      HOME: dir,
      LANG: 'C.UTF-8',
      PYTHONUNBUFFERED: '1',
      PYTHONDONTWRITEBYTECODE: '1',
      ...passed.env,
      ...o.env,
      [MARKER_VAR]: marker,
    };

    ensureReaper(); // before the bot exists, so no moment has a bot without a watchdog
    // detached: the child calls setsid(), so it leads a new session and process group and the
    // whole group can be signalled at once.
    const child = spawn('bash', [script, String(o.port)], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
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

    const bot = new ProcessBot(name, o.port, logFile, dir, marker, health, child, log, (b) => this.bots.delete(b));
    this.bots.add(bot);
    this.hook();
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
        return fail('unhealthy', `${name}: did not ${what} on port ${o.port} within ${startTimeoutMs} ms; its processes were killed`);
      }
      if (await probeHealth(bot.url, health, Math.min(1000, remaining))) {
        if (bot.servesPort()) return bot;
        bot.portTaken = true;
        // Between the port check above and the bot's listen, another process took the port: the
        // bot's own listen failed, and the healthy answer came from that process.
        return fail('port_in_use', `${name}: port ${o.port} is served by a process that is not this bot (another process took the port as the bot started)`);
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
    this.unhook();
  }

  /** Kills every bot synchronously (for exit paths where nothing async can run). */
  cleanup(): void {
    for (const bot of this.bots) bot.killSync();
  }

  private readonly onExit = () => this.cleanup();
  private readonly onSignal = (sig: NodeJS.Signals) => {
    this.cleanup();
    this.unhook();
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig); // default action: die
  };

  private hook(): void {
    if (this.hooked) return;
    this.hooked = true;
    process.on('exit', this.onExit);
    if (this.options.handleSignals ?? true) for (const s of HOOK_SIGNALS) process.on(s, this.onSignal);
  }

  private unhook(): void {
    if (!this.hooked) return;
    this.hooked = false;
    process.off('exit', this.onExit);
    for (const s of HOOK_SIGNALS) process.off(s, this.onSignal);
  }
}
