// Bot folders started as real processes for the tests: `bash <dir>/start_ai.sh <port>` in its
// own process group, polled until it answers, and killed (group and all) at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { allocatePort } from '../../sandbox/ports.ts';

/** How long a bot may take to come up. */
const START_TIMEOUT_MS = 15_000;

/** Polls `probe` every `everyMs` (50) until it returns true (a throw counts as "not yet"); fails after 15 s. */
export async function waitFor(
  probe: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = START_TIMEOUT_MS,
  everyMs = 50,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if (await probe()) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what} did not come up`);
}

/** True when something accepts a TCP connection on 127.0.0.1:port. */
export function tcpOpen(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const sock = net.connect(port, '127.0.0.1', () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
}

/**
 * The bot processes (and temp folders) one test file starts; call stopAll() from afterAll.
 *
 *   const bots = new BotProcesses();
 *   afterAll(() => bots.stopAll());
 *   const url = await bots.start(dir, { BOT_SEED: '7' });
 */
export class BotProcesses {
  private readonly children = new Map<string, ChildProcess>();
  private readonly temps: string[] = [];

  /**
   * Starts `bash <dir>/start_ai.sh <port>` (cwd: dir, env: process.env plus `env`) on a free port
   * and waits until GET /health answers 200 — or, with probe 'tcp', until the port accepts a
   * connection (for bots without /health). Returns the base URL, http://127.0.0.1:<port>.
   */
  async start(dir: string, env: Record<string, string> = {}, probe: 'http' | 'tcp' = 'http'): Promise<string> {
    const port = await allocatePort();
    const child = spawn('bash', [path.join(dir, 'start_ai.sh'), String(port)], {
      cwd: dir,
      detached: true, // own process group, so stop() can kill everything it started
      stdio: 'ignore',
      env: { ...process.env, ...env },
    });
    const url = `http://127.0.0.1:${port}`;
    this.children.set(url, child);
    await waitFor(
      probe === 'http' ? async () => (await fetch(`${url}/health`)).status === 200 : () => tcpOpen(port),
      dir,
    );
    return url;
  }

  /** Kills the process group of the bot started at `url`, if it is still running. */
  stop(url: string): void {
    const child = this.children.get(url);
    if (!child) return;
    this.children.delete(url);
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  }

  /** Removes `dir` (recursively) in stopAll(). */
  removeLater(dir: string): void {
    this.temps.push(dir);
  }

  /** Kills every bot started here and removes the folders given to removeLater(). */
  stopAll(): void {
    for (const url of [...this.children.keys()]) this.stop(url);
    for (const dir of this.temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * POSTs `body` as JSON (a string body is sent as is, for malformed-request tests) to url+route;
 * returns the status, the parsed JSON reply and the round-trip time in ms.
 */
export async function postJson(
  url: string,
  route: string,
  body: unknown,
): Promise<{ status: number; json: any; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(`${url}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = await res.json();
  return { status: res.status, json, ms: performance.now() - t0 };
}
