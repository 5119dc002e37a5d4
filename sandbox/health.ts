// One health probe, with a precise timeout. AbortSignal.timeout is used because undici's
// headersTimeout runs on a coarse ~1 s timer and would not honour short limits.
import type net from 'node:net';
import { Agent, request } from 'undici';
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
  let dialed = (await waitAtMost(dialing, timeoutMs)) ?? null;
  if (!dialed) {
    void dialing.then((late) => late?.destroy()); // a socket after the timeout is not used
    return false;
  }
  const dispatcher = new Agent({
    connect: (_options, callback) => {
      // Asynchronously, as undici expects: it is not ready for a socket during this call.
      const socket = dialed ? Promise.resolve(dialed) : connect();
      dialed = null;
      socket.then(
        (s) => callback(null, s),
        (err: Error) => callback(err, null),
      );
    },
  });
  try {
    return await probeHttp(base, check, Math.max(1, timeoutMs - (Date.now() - started)), dispatcher);
  } finally {
    dialed?.destroy(); // not taken (the request failed before connecting)
    void dispatcher.close().catch(() => undefined);
  }
}

/** One GET of the health path: a 200, and the JSON `status` when the check names statuses. */
async function probeHttp(
  base: string,
  check: Extract<HealthCheck, { kind: 'http' }>,
  timeoutMs: number,
  dispatcher?: Agent,
): Promise<boolean> {
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    // reset: true closes the connection afterwards so no keep-alive socket stays pinned to a bot
    // that may be stopped a moment later.
    const res = await request(new URL(check.path, base), {
      method: 'GET',
      signal,
      reset: true,
      ...(dispatcher ? { dispatcher } : {}),
    });
    const text = await res.body.text(); // always consume the body, even on error statuses
    if (res.statusCode !== 200) return false;
    if (!check.statuses) return true;
    const status = (JSON.parse(text) as { status?: unknown } | null)?.status;
    return typeof status === 'string' && check.statuses.includes(status);
  } catch {
    return false; // refused, timed out, reset, or not JSON
  }
}
