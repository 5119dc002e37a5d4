// Agent containers: start-up time, and the cost of the egress proxy on an LLM request (a local
// server answering a small JSON body), direct versus through the proxy from the host, and from
// inside an agent container (curl → socat relay → Unix socket → proxy → server).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentRuntimeTag } from '../docker/image-tags.ts';
import { AgentContainer } from '../sandbox/agent-container.ts';
import { startEgressProxy } from '../sandbox/egress-proxy.ts';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const round = (x: number) => Math.round(x * 1000) / 1000;

async function timeRequests(url: string, n: number): Promise<{ p50: number; p99: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      body: '{"model":"m"}',
      headers: { 'content-type': 'application/json' },
    });
    await res.text();
    ms.push(performance.now() - t0);
  }
  return { p50: round(pct(ms, 50)), p99: round(pct(ms, 99)) };
}

export async function benchAgentContainer(n = 500) {
  const server = http.createServer((_q, r) => {
    r.writeHead(200, { 'content-type': 'application/json' });
    r.end('{"choices":[{"message":{"content":"1"}}]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proxy = await startEgressProxy({
    allow: [],
    upstream: { url: `${base}/v1`, headers: { authorization: 'Bearer k' } },
    listen: { port: 0 },
  });
  const direct = await timeRequests(`${base}/v1/chat/completions`, n);
  const viaProxy = await timeRequests(`${proxy.address}/v1/chat/completions`, n);
  await proxy.close();
  const starts: number[] = [];
  let inContainer: { p50: number; p99: number } | undefined;
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-agent-'));
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const c = await AgentContainer.start({
      image: agentRuntimeTag(),
      workspace: ws,
      egress: { upstream: `${base}/v1` },
    });
    starts.push(performance.now() - t0);
    if (i === 0) {
      // curl's own timing of each request, 100 in one exec.
      const r = await c.exec(
        `for i in $(seq 100); do curl -s -o /dev/null -w '%{time_total}\\n' -d '{}' http://127.0.0.1:3128/v1/chat/completions; done`,
        { timeoutMs: 120_000 },
      );
      const ms = r.stdout
        .trim()
        .split('\n')
        .map((s) => Number(s) * 1000);
      inContainer = { p50: round(pct(ms, 50)), p99: round(pct(ms, 99)) };
    }
    await c.close();
  }
  server.close();
  fs.rmSync(ws, { recursive: true, force: true });
  const out = {
    requests: n,
    directMs: direct,
    viaProxyMs: viaProxy,
    fromContainerMs: inContainer,
    containerStartMs: { p50: round(pct(starts, 50)), max: round(Math.max(...starts)) },
  };
  console.table({ direct, 'via proxy (host)': viaProxy, 'from the agent container': inContainer });
  console.log(
    `agent container start (with proxy and relay ready): p50 ${out.containerStartMs.p50} ms, max ${out.containerStartMs.max} ms`,
  );
  return out;
}
