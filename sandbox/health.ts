// One health probe, with a precise timeout, through the lean HTTP/1.1 client bot calls use
// (util/http1.ts): a general client built per probe (undici's Agent and its parser) cost about
// 9 ms of CPU per healthy answer, once per bot start.
import type net from 'node:net';
import { deadlineTimer, type Deadline } from '../util/deadline.ts';
import { Http1Pool } from '../util/http1.ts';
import { isPortOpen } from './ports.ts';
import type { HealthCheck } from './types.ts';
import { waitAtMost } from '../util/wait.ts';

export const DEFAULT_HEALTH: HealthCheck = { kind: 'http', path: '/health' };

/**
 * True when the bot at `target` (a base URL such as http://127.0.0.1:4000, or a port on 127.0.0.1)
 * passes `check` within timeoutMs. Never throws.
 */
export async function probeHealth(
  target: string | number,
  check: HealthCheck = DEFAULT_HEALTH,
  timeoutMs = 2000,
  connect?: () => Promise<net.Socket>,
): Promise<boolean> {
  const base = typeof target === 'number' ? `http://127.0.0.1:${target}` : target;
  if (connect) return probeThrough(base, check, timeoutMs, connect);
  if (check.kind === 'tcp') {
    const url = new URL(base);
    return isPortOpen(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, ''), timeoutMs);
  }
  return probeHttp(base, check, timeoutMs);
}

/**
 * Health through `connect` (BotHandle.connect): a socket handed over from the bot's namespace, or
 * a relay's Unix socket. A relay accepts at once and closes the connection when nothing listens on
 * the bot's port, so a TCP check sends a bare HTTP request: any answer means a bot listens
 * (healthy at once), a refusal or hang-up means none does, and no hang-up within a second counts
 * as healthy. A relay slowed by a busy container (a bot compiling at start) is waited for rather
 * than taken for a bot.
 */
async function probeThrough(
  base: string,
  check: HealthCheck,
  timeoutMs: number,
  connect: () => Promise<net.Socket>,
): Promise<boolean> {
  if (check.kind === 'tcp') {
    const socket = await connect().catch(() => null);
    if (!socket) return false;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(ok);
      };
      const timer = setTimeout(() => done(true), Math.min(1000, timeoutMs));
      socket.once('data', () => done(true));
      socket.once('error', () => done(false));
      socket.once('close', () => done(false));
      socket.write('GET / HTTP/1.0\r\n\r\n');
    });
  }
  // Dial first: while the bot is starting nothing listens yet, and a refused dial is then all a
  // probe costs (an HTTP client built for each refused probe made it 0.54 ms of CPU, now 0.12).
  const started = Date.now();
  const dialing = connect().catch(() => null);
  const dialed = (await waitAtMost(dialing, timeoutMs)) ?? null;
  if (!dialed) {
    void dialing.then((late) => late?.destroy()); // a socket after the timeout is not used
    return false;
  }
  let handed: net.Socket | null = dialed;
  const take = (): Promise<net.Socket> => {
    const socket = handed;
    handed = null;
    return socket ? Promise.resolve(socket) : connect();
  };
  try {
    return await probeHttp(base, check, Math.max(1, timeoutMs - (Date.now() - started)), take);
  } finally {
    handed?.destroy(); // not taken (the probe failed before connecting)
  }
}

/** A health answer's body is read up to this size; a larger one cannot name a status. */
const HEALTH_BODY_CAP = 64 * 1024;

/** One GET of the health path: a 200, and the JSON `status` when the check names statuses. */
async function probeHttp(
  base: string,
  check: Extract<HealthCheck, { kind: 'http' }>,
  timeoutMs: number,
  connect?: () => Promise<net.Socket>,
): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(check.path, base);
  } catch {
    return false;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // One connection, closed afterwards: no keep-alive socket stays pinned to a bot that may be
  // stopped a moment later.
  const pool = new Http1Pool(host, Number(url.port || 80), { connections: 1, keepAliveMs: 0, connect });
  // A probe that fails restarts the bot (a restart its limit counts): a stall of this process is not its fault.
  let deadline: Deadline | undefined;
  try {
    const res = await pool.request('GET', `${url.pathname}${url.search}`, undefined, '', HEALTH_BODY_CAP, (abort) => {
      deadline = deadlineTimer(timeoutMs, abort);
    });
    if (res.status !== 200) return false;
    if (!check.statuses) return true;
    if (res.body === null) return false;
    const status = (JSON.parse(res.body.toString('utf8')) as { status?: unknown } | null)?.status;
    return typeof status === 'string' && check.statuses.includes(status);
  } catch {
    return false; // refused, timed out, reset, or not JSON
  } finally {
    deadline?.clear();
    pool.close();
  }
}
