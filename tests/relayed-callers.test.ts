// Who is calling a game server (sandbox/relayed-callers.ts): a relayed connection is known by both
// of its ports. Linux may hand one local port to two loopback connections to different servers at
// once (connect() needs only the 4-tuple to be unique), and the hidden-information tests run three
// sandboxes' game servers in one process: by the client's port alone, an unsafe bot's direct call
// to its own server was once taken for another sandbox's relayed bot, and refused its own seat.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { connectAsCaller, newCallerId, relayedCaller } from '../sandbox/relayed-callers.ts';

const servers: http.Server[] = [];
afterAll(() =>
  Promise.all(
    servers.map((s) => {
      s.closeAllConnections();
      return new Promise((r) => s.close(r));
    }),
  ),
);

async function server(): Promise<{ port: number; callers: Array<string | undefined> }> {
  const callers: Array<string | undefined> = [];
  const s = http.createServer((req, res) => {
    callers.push(relayedCaller(req.socket));
    res.end('{}');
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return { port: (s.address() as AddressInfo).port, callers };
}

describe('relayed callers', () => {
  it('names a relayed connection by its two ports, and nothing else', async () => {
    const [a, b] = [await server(), await server()];
    const id = newCallerId();
    const socket = await connectAsCaller(a.port, id);
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((r) => socket.once('data', r));
    socket.destroy();
    expect(a.callers).toEqual([id]);
    // A direct call is no one's.
    await fetch(`http://127.0.0.1:${b.port}/`);
    expect(b.callers).toEqual([undefined]);
    // The relay's client port, seen by another server (the kernel may reuse it there), is no one's.
    const other = await connectAsCaller(a.port, id);
    const local = other.localPort!;
    expect(relayedCaller({ remoteAddress: '127.0.0.1', remotePort: local, localPort: a.port })).toBe(id);
    expect(relayedCaller({ remoteAddress: '127.0.0.1', remotePort: local, localPort: b.port })).toBeUndefined();
    expect(relayedCaller({ remoteAddress: '10.0.0.2', remotePort: local, localPort: a.port })).toBeUndefined();
    other.destroy();
    await new Promise((r) => other.once('close', r));
    expect(relayedCaller({ remoteAddress: '127.0.0.1', remotePort: local, localPort: a.port })).toBeUndefined();
  });
});
