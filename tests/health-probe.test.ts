// Health probes (sandbox/health.ts) against real HTTP servers on 127.0.0.1: what counts as healthy
// (a 200; with named statuses, a JSON body whose `status` is one of them), answers in every framing
// a bot's server may use, and a hostile bot whose health answer is endless or huge: the probe
// reads at most 64 KiB of it instead of buffering whatever the bot sends.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHealth } from '../sandbox/health.ts';
import type { HealthCheck } from '../sandbox/types.ts';

const READY: HealthCheck = { kind: 'http', path: '/health', statuses: ['ready'] };
const ANY: HealthCheck = { kind: 'http', path: '/health' };

let server: http.Server;
let base: string;
/** Bytes the hostile answers managed to write before the probe hung up. */
let endlessWritten = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const route = new URL(req.url ?? '/', 'http://x').searchParams.get('as');
    if (route === 'ready') return res.end('{"status":"ready"}');
    if (route === 'busy') return res.end('{"status":"busy"}');
    if (route === 'error') return res.writeHead(500).end('{"status":"ready"}');
    if (route === 'chunked') {
      res.write('{"status":'); // no content-length: chunked
      return setTimeout(() => res.end('"ready"}'), 10);
    }
    if (route === 'huge') return res.end(`{"status":"ready","pad":"${'x'.repeat(200_000)}"}`);
    if (route === 'endless') {
      res.write('{"status":"ready","pad":"');
      const more = () => {
        if (res.destroyed) return;
        endlessWritten += 16_384;
        if (res.write('x'.repeat(16_384))) setImmediate(more);
        else res.once('drain', more);
      };
      return more();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const at = (as: string): HealthCheck => ({ ...READY, path: `/health?as=${as}` });

describe('health probes', () => {
  it('a 200 is healthy; with named statuses only a JSON status among them is', async () => {
    expect(await probeHealth(base, { ...ANY, path: '/health?as=busy' })).toBe(true);
    expect(await probeHealth(base, at('ready'))).toBe(true);
    expect(await probeHealth(base, at('busy'))).toBe(false);
    expect(await probeHealth(base, at('error'))).toBe(false);
    expect(await probeHealth(base, { ...ANY, path: '/nothing' })).toBe(false);
  });

  it('reads a chunked answer whole', async () => {
    expect(await probeHealth(base, at('chunked'))).toBe(true);
  });

  it('a hostile answer larger than 64 KiB names no status and is not read to its end', async () => {
    // Fails on a probe that buffers the whole body: the status is there, 200 kB later.
    expect(await probeHealth(base, at('huge'))).toBe(false);
    // A plain 200 needs no body: the size does not matter.
    expect(await probeHealth(base, { ...ANY, path: '/health?as=huge' })).toBe(true);
    const t0 = Date.now();
    expect(await probeHealth(base, at('endless'), 5000)).toBe(false);
    // Given up at the cap, not at the 5 s timeout (the bound is loose: a loaded machine).
    expect(Date.now() - t0).toBeLessThan(4000);
    await new Promise((r) => setTimeout(r, 50));
    const written = endlessWritten;
    await new Promise((r) => setTimeout(r, 200));
    expect(endlessWritten).toBe(written); // the probe hung up: the bot's writes stopped
  });

  it("a bot that answered while this process stalled past the probe's timeout is healthy", async () => {
    // The bot in a process of its own, answering 100 ms after the request; this process is busy
    // from 50 to 1,050 ms, in the check phase (the next loop turn runs due timers before it polls).
    const bot = spawn(
      process.execPath,
      [
        '-e',
        `require('http').createServer((req, res) => setTimeout(() => res.end('ok'), 100))
           .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [port] = (await once(bot.stdout!, 'data')) as [Buffer];
      const probe = probeHealth(`http://127.0.0.1:${String(port).trim()}`, ANY, 300);
      setTimeout(
        () =>
          setImmediate(() => {
            const until = performance.now() + 1_000;
            while (performance.now() < until);
          }),
        50,
      );
      expect(await probe).toBe(true);
    } finally {
      bot.kill();
    }
  });

  it('a bot without an answer or a listener is not healthy', async () => {
    expect(await probeHealth('http://127.0.0.1:9', ANY, 200)).toBe(false);
    expect(await probeHealth('not a url', ANY, 200)).toBe(false);
  });
});
