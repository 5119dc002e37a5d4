// Issue 43 item 5 for the CLI agents: their model calls pass through the egress proxy, which now
// shares the built-in agent's patience with rate limits. A refusal that names a wait (a header, or
// Gemini's RetryInfo in the body) blocks that provider and key: every development's next request
// waits at the proxy until then, while the client still gets the refusal as it came. Real HTTP on
// 127.0.0.1 with a scripted upstream; waits scaled down (waitScale) so the file takes a few seconds.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { egressPacer, newWaitLedger, type WaitLedger } from '../agents/core/rate-limits.ts';
import { cliPrompt } from '../agents/cli/agent.ts';
import { startEgressProxy, type EgressProxy } from '../sandbox/egress-proxy.ts';

const SCALE = 0.5; // a 2 s retry-after is waited as 1 s; a backoff (no wait named) as 1 s

interface Scripted {
  url: string;
  arrivals: { at: number; key: string }[];
  close(): Promise<void>;
}

/** An upstream answering each request with the next scripted answer (then 200s). */
async function scriptedUpstream(answers: { status: number; headers?: Record<string, string>; body: string }[]) {
  const arrivals: { at: number; key: string }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ at: Date.now(), key: String(req.headers['x-api-key'] ?? '') });
      const a = answers.shift() ?? { status: 200, body: '{"ok":true}' };
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, arrivals, close: () => new Promise<void>((r) => server.close(() => r())) } satisfies Scripted;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** One development's egress proxy to `upstream` with `key`, paced; its wait ledger. */
async function development(upstream: string, key: string): Promise<{ proxy: EgressProxy; ledger: WaitLedger }> {
  const ledger = newWaitLedger();
  const headers = { 'x-api-key': key };
  const pacer = egressPacer(upstream, headers, {
    deadline: Date.now() + 60_000,
    ledger,
    options: { waitScale: SCALE },
  });
  const proxy = await startEgressProxy({ allow: [], upstream: { url: upstream, headers }, listen: { port: 0 }, pacer });
  open.push(proxy);
  return { proxy, ledger };
}

const ask = async (proxy: EgressProxy) => {
  const res = await fetch(`${proxy.address}/v1/messages`, { method: 'POST', body: '{"model":"m"}' });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text(), at: Date.now() };
};

describe("the egress proxy's patience with rate limits", () => {
  it("a 429's retry-after holds every development's next request to that provider and key; the client gets the 429 unchanged", async () => {
    const body = '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}';
    const up = await scriptedUpstream([{ status: 429, headers: { 'retry-after': '2' }, body }]);
    open.push(up);
    const a = await development(up.url, 'key-1');
    const b = await development(up.url, 'key-1');
    const other = await development(up.url, 'key-2');
    const refused = await ask(a.proxy);
    expect(refused).toMatchObject({ status: 429, retryAfter: '2', body });
    const [held, free] = await Promise.all([ask(b.proxy), ask(other.proxy)]);
    expect([held.status, free.status]).toEqual([200, 200]);
    // Another key is another gate: it went at once; the same key waited the asked 2 s (scaled).
    const arrival = (key: string) => up.arrivals.filter((x) => x.key === key).at(-1)!.at;
    const refusedAt = up.arrivals[0]!.at;
    expect(arrival('key-2') - refusedAt).toBeLessThan(600);
    expect(arrival('key-1') - refusedAt).toBeGreaterThanOrEqual(2_000 * SCALE - 20);
    expect(b.ledger.ms).toBeGreaterThan((2_000 * SCALE) / 2); // from its arrival, after the 429 came back
    expect(a.ledger.waits).toBe(1);
  });

  it("Gemini's RetryInfo in the body is the wait; a 429 that no wait cures (no quota) holds nothing", async () => {
    const retryInfo = JSON.stringify({
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        message: 'Quota exceeded',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }],
      },
    });
    const noQuota = JSON.stringify({
      error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
    });
    const up = await scriptedUpstream([
      { status: 429, body: retryInfo },
      { status: 200, body: '{}' },
      { status: 429, body: noQuota },
    ]);
    open.push(up);
    const d = await development(up.url, 'key-g');
    const first = await ask(d.proxy);
    expect(first.body).toBe(retryInfo);
    await ask(d.proxy);
    expect(up.arrivals[1]!.at - up.arrivals[0]!.at).toBeGreaterThanOrEqual(2_000 * SCALE - 20);
    const quota = await ask(d.proxy);
    expect(quota.status).toBe(429);
    const after = await ask(d.proxy);
    expect(after.at - quota.at).toBeLessThan(600);
  });

  it('a held request whose client goes away is never sent', async () => {
    const up = await scriptedUpstream([{ status: 429, headers: { 'retry-after': '4' }, body: '{}' }]);
    open.push(up);
    const d = await development(up.url, 'key-3');
    await ask(d.proxy);
    const gone = fetch(`${d.proxy.address}/v1/messages`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(200),
    }).catch((e: Error) => e.name);
    expect(await gone).toBe('TimeoutError');
    await new Promise((r) => setTimeout(r, 4_000 * SCALE + 200));
    expect(up.arrivals).toHaveLength(1);
  });
});

describe("a CLI attempt after the session outgrew the model's context", () => {
  it('is told to read in parts', () => {
    const ws = { task: 'TASK', dir: '/w', outputDir: '/w/out' } as Parameters<typeof cliPrompt>[0];
    expect(cliPrompt(ws, 1, 3, 'prompt is too long', true)).toMatch(
      /outgrew the model's context. Read large files in parts/,
    );
    expect(cliPrompt(ws, 1, 3, 'no bot', false)).not.toMatch(/outgrew/);
  });
});
