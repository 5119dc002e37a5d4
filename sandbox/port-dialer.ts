// Direct connections to a bot in its own network namespace. A broker (port-broker.mjs) is started
// in that namespace with nsenter, outside the bot's pid and mount namespaces, and hands over each
// socket it connects to the bot's port; the orchestrator then speaks to the bot over the
// namespace's loopback with nothing in between. A relay process per move (socat) cost a context
// switch each way, which on busy cores became a scheduling wait per move (see CHANGELOG, issue 42).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type net from 'node:net';
import { fileURLToPath } from 'node:url';
import { processTree } from '../util/procfs.mjs';
import { dropToNobody } from './bwrap-args.ts';

const BROKER = fileURLToPath(new URL('./port-broker.mjs', import.meta.url));

/** How long a connection through the broker may take before it counts as refused. */
const DIAL_TIMEOUT_MS = 5_000;

type Pending = { resolve: (s: net.Socket) => void; reject: (e: Error) => void; timer: NodeJS.Timeout };

export class PortDialer {
  private next = 0;
  private readonly pending = new Map<number, Pending>();
  private gone: string | undefined;
  /** Resolves true once the broker runs, false if it could not start. */
  readonly ready: Promise<boolean>;

  private constructor(private readonly broker: ChildProcess) {
    this.ready = new Promise((resolve) => {
      broker.once('message', (m) => resolve((m as { ready?: boolean })?.ready === true));
      broker.once('exit', () => resolve(false));
      broker.once('error', () => resolve(false));
    });
    broker.on('message', (m, handle) => this.answer(m as { id?: number; ok?: boolean; code?: string }, handle));
    broker.once('exit', (code, signal) => this.fail(`the port broker ended (${signal ?? `exit code ${code}`})`));
    broker.once('error', (err) => this.fail(`the port broker could not start: ${err.message}`));
  }

  /**
   * A broker in the network namespace of process `nsPid` for `port`. As root it drops to nobody,
   * as the bot does; otherwise it enters the bot's user namespace with the caller's credentials.
   */
  static start(nsPid: number, port: number, asRoot: boolean): PortDialer {
    const enter = asRoot
      ? ['--target', String(nsPid), '--net', '--', ...dropToNobody()]
      : ['--target', String(nsPid), '--user', '--net', '--preserve-credentials', '--'];
    const broker = spawn('nsenter', [...enter, process.execPath, BROKER, String(port)], {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      env: {},
    });
    return new PortDialer(broker);
  }

  /** A socket connected to the bot's port; rejects (ECONNREFUSED, …) when nothing listens there. */
  dial(): Promise<net.Socket> {
    if (process.env.DIALS) console.error('DIAL', this.broker.pid);
    if (this.gone) return Promise.reject(Object.assign(new Error(this.gone), { code: 'ECONNREFUSED' }));
    return new Promise((resolve, reject) => {
      const id = this.next++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(Object.assign(new Error('no connection from the port broker in time'), { code: 'ETIMEDOUT' }));
      }, DIAL_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
      this.broker.send({ id }, (err) => err && this.settle(id, undefined, err.message));
    });
  }

  close(): void {
    this.fail('the bot was stopped');
    this.broker.kill('SIGKILL');
  }

  private answer(m: { id?: number; ok?: boolean; code?: string }, handle: unknown): void {
    if (typeof m?.id !== 'number') return;
    if (m.ok && handle) this.settle(m.id, handle as net.Socket);
    else this.settle(m.id, undefined, m.code ?? 'ECONNREFUSED');
  }

  private settle(id: number, socket: net.Socket | undefined, code?: string): void {
    const p = this.pending.get(id);
    if (!p) return void socket?.destroy(); // timed out meanwhile
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (socket) p.resolve(socket);
    else p.reject(Object.assign(new Error(`connect to the bot failed: ${code}`), { code }));
  }

  private fail(why: string): void {
    this.gone ??= why;
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, 'ECONNREFUSED');
  }
}

/**
 * The first process under `root` (a bwrap) that lives in another network namespace than ours: the
 * bot's sandbox. Undefined while bwrap has not made it yet.
 */
export function namespacePidUnder(root: number): number | undefined {
  const ours = netNamespace('self');
  return processTree(root).find((pid) => {
    const ns = netNamespace(String(pid));
    return ns !== undefined && ns !== ours;
  });
}

function netNamespace(pid: string): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
}
