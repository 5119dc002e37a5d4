// The bot client's HTTP/1.1 against real sockets: every way a bot's server may frame an answer
// (Content-Length, chunked, up to the close, interim 1xx, split anywhere), keep-alive reuse and a
// bot closing idle sockets, the size cap, the deadline (answering, connecting or queued), refused
// connections and the per-bot connection cap. Raw TCP servers, so each framing is exactly as sent.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BotClient } from '../orchestrator/match/bot-client.ts';

const opts = { deadlineMs: 5_000, maxResponseBytes: 1 << 20 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A raw TCP server: `onRequest` gets each request's head and body and the socket to answer on. */
async function rawServer(
  onRequest: (req: { head: string; body: string }, socket: net.Socket, n: number) => void,
): Promise<{ url: string; connections: () => number; open: () => number }> {
  let connections = 0;
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.toString('utf8', end + 4, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        onRequest({ head, body }, socket, ++requests);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections, open: () => sockets.size };
}

function client(url: string, o: { connections?: number } = {}): BotClient {
  const c = new BotClient(url, o);
  cleanups.push(() => c.close());
  return c;
}

const json = (status: number, body: unknown, extra = '') => {
  const text = JSON.stringify(body);
  return `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\n${extra}\r\n${text}`;
};

describe('bot client HTTP/1.1', () => {
  it('sends the JSON body and reuses one keep-alive socket for calls in a row', async () => {
    const seen: string[] = [];
    const s = await rawServer((req, socket) => {
      seen.push(req.body);
      socket.write(json(200, { echo: JSON.parse(req.body).n, é: 'ü' }));
    });
    const c = client(s.url);
    for (let n = 0; n < 20; n++) {
      const r = await c.post('/get_move', { n }, opts);
      expect(r).toMatchObject({ ok: true, status: 200, body: { echo: n, é: 'ü' } });
    }
    expect(seen[3]).toBe('{"n":3}');
    expect(s.connections()).toBe(1);
  });

  it('parses answers split anywhere, chunked answers with extensions and trailers, and interim 1xx', async () => {
    const s = await rawServer((req, socket) => {
      const kind = req.head.split(' ')[1];
      const text =
        kind === '/chunked'
          ? 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5;ext=1\r\n{"a":\r\n9\r\n [1,2,3]}\r\n0\r\nx-trailer: t\r\n\r\n'
          : kind === '/continue'
            ? `HTTP/1.1 100 Continue\r\n\r\n${json(200, { c: true })}`
            : json(200, { split: true });
      // one byte at a time: every parser state sees a boundary
      let i = 0;
      const pump = () => {
        if (i < text.length) socket.write(text[i++]!, () => setImmediate(pump));
      };
      pump();
    });
    const c = client(s.url);
    expect(await c.post('/split', {}, opts)).toMatchObject({ ok: true, body: { split: true } });
    expect(await c.post('/chunked', {}, opts)).toMatchObject({ ok: true, body: { a: [1, 2, 3] } });
    expect(await c.post('/continue', {}, opts)).toMatchObject({ ok: true, body: { c: true } });
    expect(await c.post('/chunked', {}, opts)).toMatchObject({ ok: true, body: { a: [1, 2, 3] } });
    expect(s.connections()).toBe(1);
  });

  it('reads an answer delimited by the close (HTTP/1.0) and opens a new socket for the next call', async () => {
    const s = await rawServer((_req, socket) =>
      socket.end('HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"old":1}'),
    );
    const c = client(s.url);
    for (let i = 0; i < 3; i++)
      expect(await c.post('/get_move', {}, opts)).toMatchObject({ ok: true, body: { old: 1 } });
    expect(s.connections()).toBe(3);
  });

  it('a bot that closes its socket after each answer still answers every call', async () => {
    const s = await rawServer((req, socket) => socket.end(json(200, { n: JSON.parse(req.body).i })));
    const c = client(s.url);
    for (let i = 0; i < 12; i++)
      expect(await c.post('/get_move', { i }, opts)).toMatchObject({ ok: true, body: { n: i } });
  });

  it('a call on a kept-alive socket the bot drops without an answer is sent once more on a new one', async () => {
    const s = await rawServer((req, socket) => {
      // each socket answers its first request; the second one on it is dropped (a stale socket)
      const served = socket as net.Socket & { served?: boolean };
      if (served.served) return void socket.destroy();
      served.served = true;
      socket.write(json(200, { n: JSON.parse(req.body).i }));
    });
    const c = client(s.url);
    for (let i = 0; i < 6; i++)
      expect(await c.post('/get_move', { i }, opts)).toMatchObject({ ok: true, body: { n: i } });
    expect(s.connections()).toBe(6);
  });

  it('an HTTP error keeps its status and text; a non-JSON answer is malformed', async () => {
    const s = await rawServer((req, socket) => {
      if (req.head.startsWith('POST /bad ')) socket.write(json(500, { error: 'boom' }));
      else socket.write('HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\nnot son');
    });
    const c = client(s.url);
    const bad = await c.post('/bad', {}, opts);
    expect(bad).toMatchObject({ ok: false, failure: { kind: 'http_error', status: 500, text: '{"error":"boom"}' } });
    expect(!bad.ok && bad.failure.message).toBe('HTTP 500: {"error":"boom"}');
    const text = await c.post('/text', {}, opts);
    expect(text).toMatchObject({ ok: false, failure: { kind: 'malformed' } });
    expect(!text.ok && text.failure.message).toMatch(/not JSON/);
  });

  it('an answer over the cap is malformed (chunked or not), and the client goes on working', async () => {
    const s = await rawServer((req, socket) => {
      if (req.head.startsWith('POST /big ')) {
        socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 40; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
        return;
      }
      if (req.head.startsWith('POST /long '))
        return void socket.write(`HTTP/1.1 200 OK\r\ncontent-length: 5000000\r\n\r\n${'y'.repeat(300_000)}`);
      socket.write(json(200, { small: true }));
    });
    const c = client(s.url);
    const cap = { ...opts, maxResponseBytes: 100_000 };
    expect(await c.post('/big', {}, cap)).toMatchObject({
      ok: false,
      failure: { kind: 'malformed', message: 'answer larger than 100000 bytes' },
    });
    expect(await c.post('/long', {}, cap)).toMatchObject({ ok: false, failure: { kind: 'malformed' } });
    expect(await c.post('/small', {}, cap)).toMatchObject({ ok: true, body: { small: true } });
  });

  it('the deadline aborts a call that gets no answer, and one still queued for a connection', async () => {
    const s = await rawServer((req, socket) => {
      if (!req.head.startsWith('POST /never ')) socket.write(json(200, { ok: 1 }));
    });
    const c = client(s.url, { connections: 1 });
    const t0 = performance.now();
    const [first, queued] = await Promise.all([
      c.post('/never', {}, { ...opts, deadlineMs: 300 }),
      c.post('/fine', {}, { ...opts, deadlineMs: 150 }), // waits behind /never for the one socket
    ]);
    expect(first).toMatchObject({ ok: false, failure: { kind: 'timeout', message: 'no answer within 300 ms' } });
    expect(queued).toMatchObject({ ok: false, failure: { kind: 'timeout', message: 'no answer within 150 ms' } });
    expect(performance.now() - t0).toBeLessThan(4_000);
    expect(await c.post('/fine', {}, opts)).toMatchObject({ ok: true, body: { ok: 1 } });
  });

  it("the orchestrator's own stall is not the bot's: a death or an answer sent while it stalled is read first", async () => {
    // The bot in a process of its own: a stall of this process must not stall the bot.
    const bot = spawn(
      process.execPath,
      [
        '-e',
        `require('http').createServer((req, res) => setTimeout(() => {
           if (req.url === '/die') process.exit(3);
           if (req.url === '/ok') res.end('{"ok":1}');
         }, 100)).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    cleanups.push(() => void bot.kill());
    const [port] = (await once(bot.stdout!, 'data')) as [Buffer];
    const c = client(`http://127.0.0.1:${String(port).trim()}`);
    /** A call with a 300 ms deadline while this process is busy from 50 to 1,050 ms (the bot acts at 100 ms). */
    const stalled = (path: string) => {
      const call = c.post(path, {}, { ...opts, deadlineMs: 300 });
      setTimeout(() => {
        const until = performance.now() + 1_000;
        while (performance.now() < until);
      }, 50);
      return call;
    };
    const never = await stalled('/never');
    expect(never).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
    expect(never.latencyMs).toBeLessThan(1_050 + 1_000); // the grace is short, not a new deadline
    expect(await stalled('/ok')).toMatchObject({ ok: true, body: { ok: 1 } });
    const died = await stalled('/die');
    expect(died).toMatchObject({ ok: false, failure: { kind: 'crash' } });
    expect(!died.ok && died.failure.message).toMatch(/ECONNREFUSED/);
  });

  it('a refused connection is a crash that names it', async () => {
    const s = await rawServer(() => {});
    const port = new URL(s.url).port;
    await cleanups.pop()!(); // the port is closed again
    const r = await client(`http://127.0.0.1:${port}`).post('/get_move', {}, opts);
    expect(r).toMatchObject({ ok: false, failure: { kind: 'crash' } });
    expect(!r.ok && r.failure.message).toMatch(/^bot unreachable: ECONNREFUSED/);
  });

  it('at most `connections` sockets per bot: further calls wait for one and are all answered', async () => {
    let inFlight = 0;
    let most = 0;
    const s = await rawServer((req, socket) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        socket.write(json(200, { i: JSON.parse(req.body).i }));
      }, 40);
    });
    const c = client(s.url, { connections: 2 });
    const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => c.post('/get_move', { i }, opts)));
    expect(answers.map((a) => a.ok && (a.body as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
    expect(s.connections()).toBe(2);
  });

  it('talks to a Node http server (keep-alive hint, GET without a body, form posts)', async () => {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ method: req.method, type: req.headers['content-type'] ?? null, body }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
    const c = client(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    expect(await c.get('/health', opts)).toMatchObject({ ok: true, body: { method: 'GET', type: null, body: '' } });
    expect(await c.post('/join', { a: 'b c' }, { ...opts, form: true })).toMatchObject({
      ok: true,
      body: { method: 'POST', type: 'application/x-www-form-urlencoded', body: 'a=b+c' },
    });
  });
});
