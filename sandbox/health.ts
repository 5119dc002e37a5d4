// One health probe, with a precise timeout. AbortSignal.timeout is used because undici's
// headersTimeout runs on a coarse ~1 s timer and would not honour short limits.
import net from 'node:net';
import { Agent, request } from 'undici';
import { isPortOpen } from './ports.ts';
import type { HealthCheck } from './types.ts';

export const DEFAULT_HEALTH: HealthCheck = { kind: 'http', path: '/health' };

/**
 * True when the bot at `target` (a base URL such as http://127.0.0.1:4000, or a port on 127.0.0.1)
 * passes `check` within timeoutMs. Never throws.
 */
export async function probeHealth(
  target: string | number,
  check: HealthCheck = DEFAULT_HEALTH,
  timeoutMs = 2000,
  socketPath?: string,
): Promise<boolean> {
  const base = typeof target === 'number' ? `http://127.0.0.1:${target}` : target;
  if (socketPath) return probeViaSocket(base, check, timeoutMs, socketPath);
  if (check.kind === 'tcp') {
    const url = new URL(base);
    return isPortOpen(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, ''), timeoutMs);
  }
  return probeHttp(base, check, timeoutMs);
}

/**
 * Health through a Unix socket that a forwarder inside a sandbox relays to the bot's port. For a
 * TCP check the forwarder accepts at once and closes the connection when nothing listens on the
 * bot's port, so the probe sends a bare HTTP request: any answer means a bot listens (healthy at
 * once), a hang-up means none does, and no hang-up within a second counts as healthy. A forwarder
 * slowed by a busy container (a bot compiling at start) is waited for rather than taken for a bot.
 */
async function probeViaSocket(
  base: string,
  check: HealthCheck,
  timeoutMs: number,
  socketPath: string,
): Promise<boolean> {
  if (check.kind === 'tcp') {
    return new Promise((resolve) => {
      const socket = net.connect(socketPath, () => socket.write('GET / HTTP/1.0\r\n\r\n'));
      const done = (ok: boolean) => {
        clearTimeout(timer);
        socket.destroy();
        resolve(ok);
      };
      const timer = setTimeout(() => done(true), Math.min(1000, timeoutMs));
      socket.once('data', () => done(true));
      socket.once('error', () => done(false));
      socket.once('close', () => done(false));
    });
  }
  const dispatcher = new Agent({ connect: { socketPath } });
  try {
    return await probeHttp(base, check, timeoutMs, dispatcher);
  } finally {
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
