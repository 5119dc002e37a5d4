// The egress proxy on real sockets: an allowed upstream and a forbidden listener, both started here
// on 127.0.0.1. The forbidden listener counts connections, so "denied" means nothing reached it.
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { originKey, startEgressProxy, type EgressEvent, type EgressProxy } from '../sandbox/egress-proxy.ts';
import { SCRIPTED_KEY, startScriptedLlm } from './helpers/scripted-llm.ts';

interface Listener {
  url: string;
  port: number;
  connections: number;
  seen: Array<{ method: string; url: string; authorization?: string; body: string }>;
  close(): Promise<void>;
}

async function listen(name: string): Promise<Listener> {
  const l = { connections: 0, seen: [] as Listener['seen'] } as Listener;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      l.seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ from: name, path: req.url }));
    });
  });
  server.on('connection', () => l.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  l.port = (server.address() as AddressInfo).port;
  l.url = `http://127.0.0.1:${l.port}`;
  l.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return l;
}

/** One HTTP exchange through the proxy; `target` is the request target (absolute URL or a path). */
function viaProxy(
  proxy: { port?: number; socketPath?: string },
  requestLine: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; text: string }> {
  const [method, target] = requestLine.split(' ') as [string, string];
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...(proxy.socketPath ? { socketPath: proxy.socketPath } : { host: '127.0.0.1', port: proxy.port }),
        method,
        path: target,
        headers: { ...headers, connection: 'close' },
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** CONNECT host:port; returns the status line and, when tunnelled, the answer to a GET sent through it. */
function connectTunnel(port: number, target: string): Promise<{ status: number; inner: string }> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let data = '';
    let tunnelled = false;
    sock.on('data', (c) => {
      data += c;
      if (!tunnelled && data.includes('\r\n\r\n') && data.startsWith('HTTP/1.1 200')) {
        tunnelled = true;
        data = '';
        sock.write(`GET /inside HTTP/1.1\r\nhost: ${target}\r\nconnection: close\r\n\r\n`);
      }
    });
    sock.on('end', () =>
      resolve({ status: tunnelled ? 200 : Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0), inner: data }),
    );
    sock.on('error', reject);
    sock.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`);
  });
}

describe('egress proxy', () => {
  let llm: Listener;
  let forbidden: Listener;
  let proxy: EgressProxy;
  let proxyPort: number;

  beforeAll(async () => {
    llm = await listen('llm');
    forbidden = await listen('forbidden');
    proxy = await startEgressProxy({
      allow: [],
      upstream: { url: `${llm.url}/v1`, headers: { Authorization: 'Bearer real-key' } },
      listen: { port: 0 },
    });
    proxyPort = Number(new URL(proxy.address).port);
  });
  afterAll(async () => {
    await proxy.close();
    await llm.close();
    await forbidden.close();
  });

  it('normalises origins', () => {
    expect(originKey('https://API.openai.com/v1')).toBe('https://api.openai.com:443');
    expect(originKey('http://127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080');
    expect(() => originKey('ftp://x')).toThrow(/only http and https/);
  });

  it('forwards origin-form requests to the upstream and replaces the placeholder key with the real one', async () => {
    const r = await viaProxy(
      { port: proxyPort },
      'POST /v1/chat/completions',
      { authorization: 'Bearer placeholder', 'content-type': 'application/json' },
      '{"model":"m"}',
    );
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ from: 'llm', path: '/v1/chat/completions' });
    const seen = llm.seen.at(-1)!;
    expect(seen).toMatchObject({
      method: 'POST',
      url: '/v1/chat/completions',
      authorization: 'Bearer real-key',
      body: '{"model":"m"}',
    });
  });

  it('tells listeners each upstream answer (what a CLI agent watches for a 401), until they unsubscribe', async () => {
    const heard: Array<[string, number | undefined]> = [];
    const stop = proxy.onUpstreamAnswer((e) => heard.push([e.target, e.status]));
    await viaProxy({ port: proxyPort }, 'POST /v1/messages', { 'content-type': 'application/json' }, '{}');
    stop();
    await viaProxy({ port: proxyPort }, 'POST /v1/messages', { 'content-type': 'application/json' }, '{}');
    expect(heard).toEqual([[`${llm.url}/v1/messages`, 200]]);
  });

  it('tells listeners an upstream error with what its body says (a 429 that is no quota, not a rate limit)', async () => {
    const quota = await startScriptedLlm([
      {
        httpError: 429,
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    ]);
    // The proxy adds the key, as for the CLI agents (the server refuses a request without one).
    const egress = await startEgressProxy({
      allow: [],
      upstream: { url: quota.baseURL, headers: { authorization: `Bearer ${SCRIPTED_KEY}` } },
      listen: { port: 0 },
    });
    try {
      const heard: EgressEvent[] = [];
      egress.onUpstreamAnswer((e) => heard.push({ ...e }));
      const res = await fetch(`${egress.address}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model":"m","messages":[]}',
      });
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ error: { code: 'insufficient_quota' } }); // the client still gets the whole body
      await vi.waitFor(() => expect(heard).toHaveLength(1), { timeout: 10_000 });
      expect(heard[0]).toMatchObject({ status: 429, errorText: expect.stringContaining('"insufficient_quota"') });
    } finally {
      await egress.close();
      await quota.close();
    }
  });

  it('lets absolute-form requests through to the allowed origin only', async () => {
    const ok = await viaProxy({ port: proxyPort }, `GET ${llm.url}/v1/models`);
    expect(ok.status).toBe(200);
    expect(llm.seen.at(-1)!.authorization).toBe('Bearer real-key');

    const before = forbidden.connections;
    const denied = await viaProxy({ port: proxyPort }, `GET ${forbidden.url}/secret`);
    expect(denied.status).toBe(403);
    expect(denied.text).toMatch(/not on the allowlist \(http:\/\/127\.0\.0\.1:\d+\)/);
    expect(forbidden.connections).toBe(before);
  });

  it("refuses CONNECT to the upstream's own origin: inside a tunnel the key could not be swapped in", async () => {
    const before = llm.connections;
    const refused = await connectTunnel(proxyPort, `127.0.0.1:${llm.port}`);
    expect(refused.status).toBe(403);
    expect(llm.connections).toBe(before);
  });

  it('tunnels CONNECT to an allowed host:port and refuses any other', async () => {
    const tunnels = await startEgressProxy({ allow: [llm.url], listen: { port: 0 } });
    try {
      const port = Number(new URL(tunnels.address).port);
      const ok = await connectTunnel(port, `127.0.0.1:${llm.port}`);
      expect(ok.status).toBe(200);
      expect(ok.inner).toContain('"path":"/inside"');

      const before = forbidden.connections;
      const denied = await connectTunnel(port, `127.0.0.1:${forbidden.port}`);
      expect(denied.status).toBe(403);
      expect(forbidden.connections).toBe(before);
      // Same host, other port; and a name that only resolves to the same address.
      expect((await connectTunnel(port, `localhost:${llm.port}`)).status).toBe(403);
    } finally {
      await tunnels.close();
    }
  });

  it('records every decision', () => {
    const { allowed, denied } = proxy.counts();
    expect(allowed).toBeGreaterThanOrEqual(2);
    expect(denied).toBeGreaterThanOrEqual(2);
    expect(proxy.events.filter((e) => !e.allowed).every((e) => e.status === 403)).toBe(true);
    expect(proxy.events.some((e) => e.allowed && e.status === 200 && e.target.endsWith('/v1/chat/completions'))).toBe(
      true,
    );
  });

  it('answers 502 when the allowed upstream is down, and listens on a Unix socket', async () => {
    const dead = await listen('dead');
    await dead.close();
    const socketPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'egress-')), 'proxy.sock');
    const p = await startEgressProxy({ allow: [], upstream: { url: dead.url }, listen: { socketPath } });
    try {
      expect(fs.statSync(socketPath).mode & 0o777).toBe(0o777);
      const r = await viaProxy({ socketPath }, 'GET /v1/models');
      expect(r.status).toBe(502);
      expect(r.text).toMatch(/unreachable/);
      const noUpstream = await startEgressProxy({ allow: [llm.url], listen: { port: 0 } });
      const r2 = await viaProxy({ port: Number(new URL(noUpstream.address).port) }, 'GET /v1/models');
      expect(r2.status).toBe(403);
      expect(r2.text).toMatch(/no upstream/);
      await noUpstream.close();
    } finally {
      await p.close();
    }
  });
});

describe('egress proxy: clients that proxy their own base URL', () => {
  it('serves a CONNECT tunnel to itself and absolute-form requests to itself as origin-form', async () => {
    const llm = await listen('llm');
    const proxy = await startEgressProxy({
      allow: [],
      upstream: { url: `${llm.url}/v1`, headers: { authorization: 'Bearer k' } },
      selfAddresses: ['127.0.0.1:3128'],
      listen: { port: 0 },
    });
    const port = Number(new URL(proxy.address).port);
    try {
      const tunnel = await connectTunnel(port, '127.0.0.1:3128');
      expect(tunnel.status).toBe(200);
      expect(tunnel.inner).toContain('"path":"/inside"');
      expect(llm.seen.at(-1)!.authorization).toBe('Bearer k');
      const absolute = await viaProxy({ port }, 'GET http://127.0.0.1:3128/v1/models');
      expect(JSON.parse(absolute.text)).toEqual({ from: 'llm', path: '/v1/models' });
      expect((await viaProxy({ port }, 'GET http://127.0.0.1:3129/v1/models')).status).toBe(403);
    } finally {
      await proxy.close();
      await llm.close();
    }
  });
});
