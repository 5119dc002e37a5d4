// A forward proxy on 127.0.0.1 that stands for a host's HTTP(S)_PROXY: it forwards every request,
// whatever host it names, to one local server (so an endpoint whose name does not resolve is
// reachable only through it), and records each: absolute-form requests (`GET http://host/path`)
// and the requests inside CONNECT tunnels (undici's proxy agent tunnels even plain http), which it
// reads as HTTP itself. Only http targets: a tunnel carrying TLS is not served.
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ForwardProxy {
  /** http://127.0.0.1:<port>, for HTTP_PROXY / HTTPS_PROXY. */
  url: string;
  /** Each forwarded request as `METHOD host/path` (the host the client asked for). */
  forwarded: string[];
  /** Each tunnel asked for, as `host:port`. */
  tunnels: string[];
  close(): Promise<void>;
}

export async function startForwardProxy(targetPort: number): Promise<ForwardProxy> {
  const forwarded: string[] = [];
  const tunnels: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const absolute = !(req.url ?? '/').startsWith('/');
    const u = new URL(req.url ?? '/', `http://${req.headers.host ?? 'unknown'}`);
    forwarded.push(`${req.method} ${u.host}${u.pathname}${absolute ? '' : ' (tunnel)'}`);
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    const out = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: `${u.pathname}${u.search}`, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    server.emit('connection', socket);
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
