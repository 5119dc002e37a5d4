// A lean HTTP/1.1 keep-alive client for bot calls: one write per request, the response parsed
// straight off the socket (Content-Length, chunked, or up to the close), at most `connections`
// sockets per bot. A general client (undici's request()) spends several times the CPU per call on
// streams, abort signals and dispatch layers a bot call does not need, and the orchestrator makes
// one call per move. What it does not do: redirects, compression, pipelining, 1.0-style requests.
import net from 'node:net';

/** The failure of one exchange: a socket error's code, or ours (HTTP_CLOSED, HTTP_PARSE, HTTP_TOO_LARGE). */
export class HttpError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface HttpResponse {
  status: number;
  /** The body; null when it was larger than the cap (the socket is then discarded). */
  body: Buffer | null;
}

export interface Http1PoolOptions {
  connections: number;
  /** How long an idle socket is kept (shorter when the server announces a shorter keep-alive). */
  keepAliveMs: number;
  /** Opens a connection to the server where host and port do not reach it (a bot in an isolated sandbox). */
  connect?: () => Promise<net.Socket>;
}

const MAX_HEADER_BYTES = 64 * 1024;
const CRLFCRLF = Buffer.from('\r\n\r\n');

/** One request in flight on a connection. */
interface Exchange {
  cap: number;
  resolve: (r: HttpResponse) => void;
  reject: (e: HttpError) => void;
  /** Bytes not parsed yet (headers, or a chunked body's framing). */
  pending: Buffer | null;
  status: number;
  /** Body framing once the headers are read: 'length', 'chunked', 'close'; null while reading headers. */
  framing: 'length' | 'chunked' | 'close' | null;
  remaining: number;
  /** Chunked: the next thing expected (a size line, data, the CRLF after data, trailers). */
  chunkState: 'size' | 'data' | 'data-end' | 'trailers';
  body: Buffer[];
  size: number;
  keepAlive: boolean;
  keepAliveMs: number;
}

class Connection {
  exchange: Exchange | null = null;
  idleTimer: NodeJS.Timeout | undefined;
  dead = false;
  /** After an exchange: how long the connection may idle before it is closed (0: close it now). */
  reuseMs = 0;

  constructor(
    readonly socket: net.Socket,
    private readonly onDead: (c: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('end', () => this.onEnd());
    socket.on('error', (err: NodeJS.ErrnoException) =>
      this.fail(new HttpError(err.code ?? 'ESOCKET', `${err.code ?? 'socket error'}: ${err.message}`)),
    );
    socket.on('close', () => this.fail(new HttpError('HTTP_CLOSED', 'other side closed')));
  }

  /** Sends one request; the promise settles with the response or the socket's failure. */
  send(request: string, cap: number, keepAliveMs: number): Promise<HttpResponse> {
    clearTimeout(this.idleTimer);
    return new Promise((resolve, reject) => {
      this.exchange = {
        cap,
        resolve,
        reject,
        pending: null,
        status: 0,
        framing: null,
        remaining: 0,
        chunkState: 'size',
        body: [],
        size: 0,
        keepAlive: true,
        keepAliveMs,
      };
      this.socket.write(request);
    });
  }

  destroy(): void {
    this.dead = true;
    clearTimeout(this.idleTimer);
    this.socket.destroy();
  }

  private fail(err: HttpError): void {
    const x = this.exchange;
    this.exchange = null;
    if (!this.dead) {
      this.destroy();
      this.onDead(this);
    }
    x?.reject(err);
  }

  private onEnd(): void {
    const x = this.exchange;
    if (x?.framing === 'close') {
      this.exchange = null;
      x.keepAlive = false;
      this.finish(x);
      return;
    }
    this.fail(new HttpError('HTTP_CLOSED', 'other side closed'));
  }

  private onData(chunk: Buffer): void {
    const x = this.exchange;
    if (!x) {
      this.fail(new HttpError('HTTP_PARSE', 'data on an idle connection')); // nothing is waiting: discard the socket
      return;
    }
    try {
      this.parse(x, chunk);
    } catch (err) {
      this.fail(err instanceof HttpError ? err : new HttpError('HTTP_PARSE', String(err)));
    }
  }

  private parse(x: Exchange, chunk: Buffer): void {
    let data = x.pending ? Buffer.concat([x.pending, chunk]) : chunk;
    x.pending = null;
    while (x.framing === null) {
      const end = data.indexOf(CRLFCRLF);
      if (end < 0) {
        if (data.length > MAX_HEADER_BYTES) throw new HttpError('HTTP_PARSE', 'response headers too large');
        x.pending = data;
        return;
      }
      this.readHead(x, data.toString('latin1', 0, end));
      data = data.subarray(end + 4);
    }
    if (x.framing === 'length') {
      const take = Math.min(data.length, x.remaining);
      if (take > 0 && !this.addBody(x, data.subarray(0, take))) return;
      x.remaining -= take;
      if (x.remaining === 0) this.complete(x, data.length > take);
      return;
    }
    if (x.framing === 'close') {
      if (data.length > 0) this.addBody(x, data);
      return;
    }
    // chunked
    let at = 0;
    while (at < data.length) {
      if (x.chunkState === 'data') {
        const take = Math.min(data.length - at, x.remaining);
        if (!this.addBody(x, data.subarray(at, at + take))) return;
        at += take;
        x.remaining -= take;
        if (x.remaining === 0) x.chunkState = 'data-end';
        continue;
      }
      const eol = data.indexOf('\r\n', at, 'latin1');
      if (eol < 0) {
        if (data.length - at > MAX_HEADER_BYTES) throw new HttpError('HTTP_PARSE', 'chunk line too long');
        x.pending = data.subarray(at);
        return;
      }
      const line = data.toString('latin1', at, eol);
      at = eol + 2;
      if (x.chunkState === 'data-end') {
        if (line !== '') throw new HttpError('HTTP_PARSE', 'bad chunk end');
        x.chunkState = 'size';
      } else if (x.chunkState === 'size') {
        const size = Number.parseInt(line.split(';', 1)[0]!.trim(), 16);
        if (!Number.isFinite(size) || size < 0 || !/^[0-9a-fA-F]+$/.test(line.split(';', 1)[0]!.trim()))
          throw new HttpError('HTTP_PARSE', `bad chunk size ${JSON.stringify(line.slice(0, 20))}`);
        if (size === 0) x.chunkState = 'trailers';
        else {
          x.remaining = size;
          x.chunkState = 'data';
        }
      } else if (line === '') {
        // the empty line after the trailers ends the body
        this.complete(x, at < data.length);
        return;
      }
    }
  }

  private readHead(x: Exchange, head: string): void {
    const lines = head.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]!);
    if (!m) throw new HttpError('HTTP_PARSE', `not an HTTP/1 response: ${JSON.stringify(lines[0]!.slice(0, 40))}`);
    const status = Number(m[2]);
    if (status >= 100 && status < 200) {
      if (status === 101) throw new HttpError('HTTP_PARSE', 'unexpected protocol switch');
      return; // an interim response (100 Continue, 103): the real one follows
    }
    let length: number | null = null;
    let chunked = false;
    let connection = '';
    let keepAliveHint = '';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d+$/.test(value) || (length !== null && length !== Number(value)))
          throw new HttpError('HTTP_PARSE', `bad content-length ${JSON.stringify(value)}`);
        length = Number(value);
      } else if (name === 'transfer-encoding') chunked = /(^|,)\s*chunked\s*$/i.test(value);
      else if (name === 'connection') connection = value.toLowerCase();
      else if (name === 'keep-alive') keepAliveHint = value;
    }
    x.status = status;
    x.keepAlive = m[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
    const hint = /timeout\s*=\s*(\d+)/i.exec(keepAliveHint);
    // Leave a second's margin before the server's own idle timeout: never reuse a socket it is closing.
    if (hint) x.keepAliveMs = Math.min(x.keepAliveMs, Number(hint[1]) * 1000 - 1000);
    if (x.keepAliveMs <= 0) x.keepAlive = false;
    if (status === 204 || status === 304) {
      x.framing = 'length';
      x.remaining = 0;
    } else if (chunked) x.framing = 'chunked';
    else if (length !== null) {
      x.framing = 'length';
      x.remaining = length;
    } else {
      x.framing = 'close';
      x.keepAlive = false;
    }
  }

  /** Adds body bytes; false (and the exchange answered with a null body) past the cap. */
  private addBody(x: Exchange, bytes: Buffer): boolean {
    x.size += bytes.length;
    if (x.size > x.cap) {
      this.exchange = null;
      this.destroy();
      this.onDead(this);
      x.resolve({ status: x.status, body: null });
      return false;
    }
    x.body.push(bytes);
    return true;
  }

  private complete(x: Exchange, extraBytes: boolean): void {
    this.exchange = null;
    if (extraBytes) x.keepAlive = false;
    this.finish(x);
  }

  private finish(x: Exchange): void {
    const body = x.body.length === 1 ? x.body[0]! : Buffer.concat(x.body);
    this.reuseMs = x.keepAlive ? x.keepAliveMs : 0;
    x.resolve({ status: x.status, body });
  }
}

/** A request waiting for a connection, or handed one. */
interface Ticket {
  take: (c: Connection) => void;
  fail: (e: HttpError) => void;
}

export class Http1Pool {
  private readonly all = new Set<Connection>();
  private readonly idle: Connection[] = [];
  private readonly waiting: Ticket[] = [];
  private closed = false;
  /** Connections being opened by `options.connect`: they hold a slot. */
  private opening = 0;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly options: Http1PoolOptions,
  ) {}

  /**
   * One request and its response. `onAbort` receives a function the caller may call to give up
   * (the deadline): the socket in use is destroyed and the promise rejects with HTTP_ABORTED at once.
   */
  request(
    method: 'GET' | 'POST',
    path: string,
    body: string | undefined,
    contentType: string,
    cap: number,
    onAbort: (abort: () => void) => void,
  ): Promise<HttpResponse> {
    const hostLine = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nconnection: keep-alive\r\n`;
    const head =
      body === undefined
        ? `${hostLine}\r\n`
        : `${hostLine}content-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return new Promise((resolve, reject) => {
      let done = false;
      let current: Connection | null = null;
      const ticket: Ticket = {
        take: (conn) => {
          if (done) return this.release(conn, !conn.dead); // given up while waiting: nothing was sent on it
          current = conn;
          conn.send(head, cap, this.options.keepAliveMs).then(
            (res) => {
              this.release(conn, !conn.dead && conn.reuseMs > 0);
              if (!done) (done = true), resolve(res);
            },
            (err: HttpError) => {
              this.release(conn, false);
              if (!done) (done = true), reject(err);
            },
          );
        },
        fail: (err) => {
          if (!done) (done = true), reject(err);
        },
      };
      onAbort(() => {
        if (done) return;
        done = true;
        const i = this.waiting.indexOf(ticket);
        if (i >= 0) this.waiting.splice(i, 1);
        current?.destroy();
        reject(new HttpError('HTTP_ABORTED', 'aborted'));
      });
      this.acquire(ticket);
    });
  }

  private acquire(ticket: Ticket): void {
    if (this.closed) return ticket.fail(new HttpError('HTTP_DESTROYED', 'client closed'));
    const idle = this.idle.pop(); // the most recently used: the least likely to be closing
    if (idle) {
      clearTimeout(idle.idleTimer);
      return ticket.take(idle);
    }
    if (this.all.size + this.opening < this.options.connections) return this.connect(ticket);
    this.waiting.push(ticket);
  }

  private connect(ticket: Ticket): void {
    if (this.options.connect) return this.connectThrough(this.options.connect, ticket);
    const socket = net.connect({ host: this.host, port: this.port });
    const conn = new Connection(socket, (c) => this.forget(c));
    this.all.add(conn);
    const onError = (err: NodeJS.ErrnoException) => {
      socket.off('connect', onConnect);
      this.connectFailed(conn, ticket, err);
    };
    const onConnect = () => {
      socket.off('error', onError);
      ticket.take(conn);
    };
    socket.once('error', onError);
    socket.once('connect', onConnect);
  }

  /** A connection from `open`, which hands it over connected; its slot counts while it opens. */
  private connectThrough(open: () => Promise<net.Socket>, ticket: Ticket): void {
    this.opening++;
    open().then(
      (socket) => {
        this.opening--;
        const conn = new Connection(socket, (c) => this.forget(c));
        this.all.add(conn);
        if (this.closed) return this.connectFailed(conn, ticket, closedError());
        ticket.take(conn);
      },
      (err: NodeJS.ErrnoException) => {
        this.opening--;
        ticket.fail(new HttpError(err.code ?? 'ECONNECT', `${err.code ?? 'connect failed'}: ${err.message}`));
        this.serveWaiter();
      },
    );
  }

  private connectFailed(conn: Connection, ticket: Ticket, err: NodeJS.ErrnoException): void {
    this.forget(conn);
    conn.destroy();
    ticket.fail(new HttpError(err.code ?? 'ECONNECT', `${err.code ?? 'connect failed'}: ${err.message}`));
    this.serveWaiter();
  }

  private release(conn: Connection, reuse: boolean): void {
    if (!reuse || this.closed) {
      this.forget(conn);
      conn.destroy();
      this.serveWaiter();
      return;
    }
    const next = this.waiting.shift();
    if (next) return next.take(conn);
    conn.idleTimer = setTimeout(() => {
      this.forget(conn);
      conn.destroy();
    }, conn.reuseMs || this.options.keepAliveMs);
    conn.idleTimer.unref();
    this.idle.push(conn);
  }

  /** A connection closed or failed: it no longer counts, idle or not. */
  private forget(conn: Connection): void {
    this.all.delete(conn);
    const i = this.idle.indexOf(conn);
    if (i >= 0) this.idle.splice(i, 1);
  }

  /** A slot came free: the first waiter gets a new connection. */
  private serveWaiter(): void {
    if (this.closed || this.all.size + this.opening >= this.options.connections) return;
    const next = this.waiting.shift();
    if (next) this.connect(next);
  }

  close(): void {
    this.closed = true;
    for (const c of this.all) c.destroy();
    this.all.clear();
    this.idle.length = 0;
    for (const t of this.waiting.splice(0)) t.fail(new HttpError('HTTP_DESTROYED', 'client closed'));
  }
}

const closedError = () => Object.assign(new Error('client closed'), { code: 'HTTP_DESTROYED' });
