// One bot the process sandbox started: its health and liveness, the processes it left (found by
// its marker, its working directory or the port it serves), its CPU, and stop().
import type { ChildProcess } from 'node:child_process';
import { readLogTail, type CappedLog } from './capped-log.ts';
import { probeHealth } from './health.ts';
import { isPortOpen, listeningSocketInodes, TCP_TABLES, waitForPortClosed } from './ports.ts';
import {
  cwdInside,
  holdsSocket,
  isProcessGone,
  processTree,
  processTreeCpuMs,
  signalPid,
  startTimeOf,
  type ProcInfo,
} from '../util/procfs.mjs';
import { markerOf, processSnapshot } from './strays.ts';
import type { BotHandle, HealthCheck } from './types.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ProcessBot implements BotHandle {
  readonly url: string;
  /** Set when the start script (the group and session leader) has exited. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  /** Set when another process serves the bot's port: stop() does not wait for it to close. */
  portTaken = false;
  private stopping: Promise<void> | null = null;
  /** The start script's start time (clock ticks since boot); null when /proc cannot tell. */
  private readonly leaderStart: number | null;
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
    const started = child.pid === undefined ? null : startTimeOf(child.pid);
    this.leaderStart = started === null ? null : Number(started);
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
    const leader = this.child.pid;
    const treeHolds = (sockets: Set<string>) =>
      leader !== undefined && !this.exit && processTree(leader).some((pid) => holdsSocket(pid, sockets));
    // The IPv4 listeners first: when the bot's process tree holds one, it serves the port, and the
    // IPv6 table (dear to read: docs of listeningSocketInodes) is not needed.
    const v4 = this.portSockets([TCP_TABLES[0]]);
    if (v4.size > 0 && treeHolds(v4)) return true;
    const sockets = new Set([...v4, ...this.portSockets([TCP_TABLES[1]])]);
    if (sockets.size === 0) return true;
    if (treeHolds(sockets)) return true;
    return this.strays(sockets).some((pid) => holdsSocket(pid, sockets));
  }

  /** The /proc/<pid>/fd link names (`socket:[inode]`) of the sockets listening on the bot's port. */
  private portSockets(tables: readonly string[]): Set<string> {
    return new Set(listeningSocketInodes(this.port, tables).map((inode) => `socket:[${inode}]`));
  }

  /**
   * Everything this bot started that is still running: its session and group (same id as the
   * leader's pid), descendants, processes carrying our marker, and the holder of the bot's port when
   * its cwd is inside the bot folder. Never this process or its ancestors. `known`: the port's
   * sockets (portSockets()) when the caller has just read them.
   */
  strays(known?: Set<string>): number[] {
    const { procs, byPid } = processSnapshot();
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
    // Read only when a process in the bot folder is not otherwise known to be the bot's; the IPv6
    // table only when the process holds none of the IPv4 listeners.
    let v4: Set<string> | undefined;
    let v6: Set<string> | undefined;
    const holdsPort = (pid: number): boolean => {
      if (known) return known.size > 0 && holdsSocket(pid, known);
      v4 ??= this.portSockets([TCP_TABLES[0]]);
      if (v4.size > 0 && holdsSocket(pid, v4)) return true;
      v6 ??= this.portSockets([TCP_TABLES[1]]);
      return v6.size > 0 && holdsSocket(pid, v6);
    };
    const out: number[] = [];
    for (const p of procs) {
      if (protectedPids.has(p.pid)) continue;
      // Once the leader is gone its pid may be reused; the kernel keeps it reserved only while it
      // still names a live group or session, so only members (not the pid itself) are ours.
      if (p.pid === leader) {
        if (!this.exit) out.push(p.pid);
        continue;
      }
      if (leader !== undefined && (p.sid === leader || p.pgrp === leader || descendsFromLeader(p))) {
        out.push(p.pid);
        continue;
      }
      // A process older than the start script is none of the bot's: its environment and working
      // directory are not read.
      if (this.leaderStart !== null && p.start < this.leaderStart) continue;
      const ours = markerOf(p) === this.marker || (cwdInside(p.pid, this.dir) && holdsPort(p.pid));
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
    if (this.child.pid !== undefined && !this.exit) signalPid(-this.child.pid, 'SIGKILL');
    for (const pid of this.strays()) signalPid(pid, 'SIGKILL');
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
    for (const [sig, graceMs] of [
      ['SIGTERM', 1000],
      ['SIGKILL', 2000],
    ] as const) {
      if (leader !== undefined && !this.exit) signalPid(-leader, sig);
      const deadline = Date.now() + graceMs;
      let pids = this.strays();
      while (pids.length > 0) {
        for (const pid of pids) signalPid(pid, sig);
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
