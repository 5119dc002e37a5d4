// Direct connections to and from a bot in its own network namespace. A broker (port-broker.py) is
// started in that namespace with nsenter, outside the bot's pid and mount namespaces: it hands over
// a listening socket for each port the bot may call, and each socket it connects to the bot's port;
// the orchestrator then speaks with the bot over the namespace's loopback with nothing in between.
// A relay process per move (socat) cost a context switch each way, which on busy cores became a
// scheduling wait per move, and three relay processes per bot cost its start (see CHANGELOG, issue 42).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deadlineTimer, type Deadline } from '../util/deadline.ts';
import { processTree } from '../util/procfs.mjs';
import { sleep, waitAtMost } from '../util/wait.ts';
import { bwrapArgs, dropToNobody } from './bwrap-args.ts';
import { SCRUBBED_PATH } from './bot-env.ts';

const BROKER = fileURLToPath(new URL('./port-broker.py', import.meta.url));
let brokerSource: string | undefined;

/** The system's python3 (the broker runs with an empty environment, so no version manager's shim). */
const PYTHON = SCRUBBED_PATH.split(':')
  .map((d) => path.join(d, 'python3'))
  .find((f) => fs.existsSync(f));

/** How long a connection through the broker may take before it counts as refused. */
const DIAL_TIMEOUT_MS = 5_000;

/** What the broker says: a listener handed over, a dial answered, or that it is ready. */
type BrokerMessage = { listen?: number; id?: number; ok?: boolean; code?: string; ready?: boolean } | undefined;

type Pending = { resolve: (s: net.Socket) => void; reject: (e: Error) => void; deadline: Deadline };

export class PortDialer {
  private next = 0;
  private readonly pending = new Map<number, Pending>();
  private gone: string | undefined;
  /** Resolves true once the broker runs, false if it could not start. */
  readonly ready: Promise<boolean>;
  /** Resolves once the broker process has ended (or never started). */
  readonly ended: Promise<void>;

  private constructor(
    private readonly broker: ChildProcess,
    calls: number,
    onListener: (port: number, server: net.Server) => void,
  ) {
    let listeners = 0;
    let said = false;
    this.ready = new Promise((resolve) => {
      // Ready once the broker says so and every listener has reached us (a handle's message may
      // be converted after a later message has been read).
      broker.on('message', (m: BrokerMessage, handle) => {
        if (typeof m?.listen === 'number') {
          // A listener the broker could not open leaves that port unserved: the bot's calls there are refused.
          if (m.ok && handle) onListener(m.listen, handle as net.Server);
          listeners++;
        } else if (m?.ready === true) said = true;
        if (said && listeners === calls) resolve(true);
      });
      broker.once('exit', () => resolve(false));
      broker.once('error', () => resolve(false));
    });
    this.ended = new Promise((resolve) => {
      broker.once('exit', () => resolve());
      broker.once('error', () => resolve());
    });
    broker.on('message', (m: BrokerMessage, handle) => this.answer(m, handle));
    broker.once('exit', (code, signal) => this.fail(`the port broker ended (${signal ?? `exit code ${code}`})`));
    broker.once('error', (err) => this.fail(`the port broker could not start: ${err.message}`));
  }

  /**
   * A broker in the network namespace of process `nsPid` for `port`, listening first on `calls` (the
   * ports the bot may call; each listening socket goes to `onListener`). As root it drops to nobody,
   * as the bot does; otherwise it enters the bot's user namespace with the caller's credentials.
   */
  static start(
    nsPid: number,
    port: number,
    asRoot: boolean,
    calls: number[] = [],
    onListener: (port: number, server: net.Server) => void = (_, s) => s.close(),
  ): PortDialer {
    const enter = asRoot
      ? ['--target', String(nsPid), '--net', '--', ...dropToNobody()]
      : ['--target', String(nsPid), '--user', '--net', '--preserve-credentials', '--'];
    // The source as an argument: the broker runs as nobody, who may not read this checkout's folder.
    brokerSource ??= fs.readFileSync(BROKER, 'utf8');
    const broker = spawn(
      'nsenter',
      [
        ...enter,
        PYTHON ?? 'python3',
        '-I',
        '-S',
        '-c',
        brokerSource,
        'port-broker.py',
        String(port),
        ...calls.map(String),
      ],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        env: {},
      },
    );
    return new PortDialer(broker, calls.length, onListener);
  }

  /** A socket connected to the bot's port; rejects (ECONNREFUSED, …) when nothing listens there. */
  dial(): Promise<net.Socket> {
    if (this.gone) return Promise.reject(Object.assign(new Error(this.gone), { code: 'ECONNREFUSED' }));
    return new Promise((resolve, reject) => {
      const id = this.next++;
      // The broker's answer may wait unread behind a stall of this process: it is read first.
      const deadline = deadlineTimer(DIAL_TIMEOUT_MS, () => {
        this.pending.delete(id);
        reject(Object.assign(new Error('no connection from the port broker in time'), { code: 'ETIMEDOUT' }));
      });
      this.pending.set(id, { resolve, reject, deadline });
      this.broker.send({ id }, (err) => err && this.settle(id, undefined, err.message));
    });
  }

  /** Why the broker stopped serving, if it did. */
  failure(): string | undefined {
    return this.gone;
  }

  close(): void {
    this.fail('the bot was stopped');
    this.broker.kill('SIGKILL');
  }

  private answer(m: BrokerMessage, handle: unknown): void {
    if (typeof m?.id !== 'number') return;
    if (m.ok && handle) this.settle(m.id, handle as net.Socket);
    else this.settle(m.id, undefined, m.code ?? 'ECONNREFUSED');
  }

  private settle(id: number, socket: net.Socket | undefined, code?: string): void {
    const p = this.pending.get(id);
    if (!p) return void socket?.destroy(); // timed out meanwhile
    this.pending.delete(id);
    p.deadline.clear();
    if (socket) p.resolve(socket);
    else p.reject(Object.assign(new Error(`connect to the bot failed: ${code}`), { code }));
  }

  private fail(why: string): void {
    this.gone ??= why;
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, 'ECONNREFUSED');
  }
}

const directByBwrap = new Map<string, Promise<boolean>>();

/**
 * Whether a port broker can enter a bubblewrap sandbox's network namespace on this machine (nsenter
 * and python3 installed, a user namespace it may join): tried once per bwrap path with a sandbox of its own.
 * Where it cannot, bots are reached through socat relays (STAGE_ENTRY).
 */
export function canDialDirect(bwrap: string): Promise<boolean> {
  let direct = directByBwrap.get(bwrap);
  if (!direct) {
    direct = tryBroker(bwrap).catch(() => false);
    directByBwrap.set(bwrap, direct);
  }
  return direct;
}

async function tryBroker(bwrap: string): Promise<boolean> {
  if (!PYTHON || spawnSync('nsenter', ['--version'], { stdio: 'ignore', timeout: 5_000 }).status !== 0) return false;
  const asRoot = process.getuid?.() === 0;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-broker-check-'));
  const layout = { botDir: scratch, ioDir: scratch, gsDir: scratch, asRoot };
  const child = spawn(bwrap, bwrapArgs(layout, ['/bin/sh', '-c', 'read -r _']), {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.on('error', () => {});
  try {
    const nsPid = await namespacePidOf(child, Date.now() + 5_000);
    if (nsPid === undefined) return false;
    const dialer = PortDialer.start(nsPid, 9, asRoot);
    const ready = (await waitAtMost(dialer.ready, 10_000)) === true;
    dialer.close();
    return ready;
  } finally {
    child.kill('SIGKILL');
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The bot's sandbox process under `child` (a bwrap) once bwrap has made it; undefined past `deadline` or its exit. */
export async function namespacePidOf(child: ChildProcess, deadline: number): Promise<number | undefined> {
  for (;;) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return undefined;
    const pid = namespacePidUnder(child.pid);
    if (pid !== undefined || Date.now() > deadline) return pid;
    await sleep(5);
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
