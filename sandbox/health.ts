// One health probe, with a precise timeout. AbortSignal.timeout is used because undici's
// headersTimeout runs on a coarse ~1 s timer and would not honour short limits.
import { request } from 'undici';
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
): Promise<boolean> {
  const base = typeof target === 'number' ? `http://127.0.0.1:${target}` : target;
  if (check.kind === 'tcp') {
    const url = new URL(base);
    return isPortOpen(Number(url.port || 80), url.hostname.replace(/^\[|\]$/g, ''), timeoutMs);
  }
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    // reset: true closes the connection afterwards so no keep-alive socket stays pinned to a bot
    // that may be stopped a moment later.
    const res = await request(new URL(check.path, base), { method: 'GET', signal, reset: true });
    const text = await res.body.text(); // always consume the body, even on error statuses
    if (res.statusCode !== 200) return false;
    if (!check.statuses) return true;
    const status = (JSON.parse(text) as { status?: unknown } | null)?.status;
    return typeof status === 'string' && check.statuses.includes(status);
  } catch {
    return false; // refused, timed out, reset, or not JSON
  }
}
