// The egress proxy: the only way out of a container that has no network (agent containers, an
// LLM-player's bot). It runs in the orchestrator and lets through requests to an allowlist of
// origins, nothing else:
//   - origin-form requests (`POST /v1/chat/completions`) go to the configured upstream: this is how
//     a client that knows no proxies reaches its LLM (its base URL points at the proxy), and it lets
//     the orchestrator add the API key on the host, so the key never enters the container;
//   - absolute-form requests (`GET http://host/…`, what HTTP_PROXY clients send) and CONNECT
//     tunnels (HTTPS_PROXY) pass only when their origin is on the allowlist; the rest get a 403
//     that names the allowlist.
// Every decision is recorded (a capped list of events), so a run can show what its agents tried.
// Behind the host's HTTP(S)_PROXY, what it forwards goes out through that proxy, tunnels included.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { hostProxyForTunnel, mayUseHostProxy, outboundDispatcher } from '../util/outbound-http.ts';
import type { ExchangeTap, TapeAnswer, TapeTicket } from '../util/exchange-tape/tape.ts';

export interface EgressEvent {
  time: number;
  /** CONNECT, or the HTTP method. */
  method: string;
  /** The origin (or host:port for CONNECT) asked for, plus the path for plain requests. */
  target: string;
  allowed: boolean;
  /** The upstream's status, or the proxy's own (403 denied, 502 upstream unreachable). */
  status?: number;
  /** An upstream error answer's body (status ≥ 400), its first 2000 characters: what the error says (a 429's insufficient_quota). */
  errorText?: string;
}

export interface EgressProxyOptions {
  /** Origins that may be reached, e.g. `https://api.openai.com` or `http://127.0.0.1:4000`; paths are ignored. */
  allow: string[];
  /**
   * Where origin-form requests go: a base URL whose origin must be on the allowlist. `headers` are
   * set on every request forwarded to it (e.g. the real Authorization header, replacing a placeholder).
   */
  upstream?: { url: string; headers?: Record<string, string> };
  /** A Unix socket path (relayed into a container), or a TCP port on 127.0.0.1 (0 = any free port). */
  listen: { socketPath: string } | { port: number };
  /**
   * host:port names under which clients reach this proxy (e.g. 127.0.0.1:3128 inside a container).
   * A client that sends even its base-URL requests through the proxy (absolute form, or a CONNECT
   * tunnel to the proxy itself, as Qwen Code does) is served as if it had asked in origin form.
   */
  selfAddresses?: string[];
  /** Events kept in memory (default 1000; counts are always complete). */
  maxEvents?: number;
  /** Sees every request to the upstream before it is forwarded (the run's budget: agents/core/run-budget.ts). */
  meter?: EgressMeter;
  /** Holds requests to the upstream while its provider is rate-limiting (agents/core/rate-limits.ts egressPacer). */
  pacer?: EgressPacer;
  /**
   * Records every exchange with the upstream, or answers it from a recording (catarena rerun:
   * util/exchange-tape/); the key this proxy adds is never part of what it sees.
   */
  tap?: ExchangeTap;
}

/**
 * Patience with the upstream's rate limits, shared by every development to one provider and key:
 * `hold` resolves when a request may go (at once, or once the provider's asked wait is over), and
 * `refused` is told every error answer (status, headers, body) before the client gets it unchanged.
 */
export interface EgressPacer {
  hold(signal: AbortSignal): Promise<void>;
  refused(status: number, headers: Headers, body: string): void;
}

/**
 * A gate on the upstream's requests: `admit` gets the request's path and whole body before it is
 * forwarded and resolves to null (not metered), or to a ticket told the whole answer (or that
 * none came); it rejects to refuse the request, which is answered 402 with its message.
 */
export interface EgressMeter {
  admit(target: string, body: Buffer): Promise<{ answered(text: string): void; failed(): void } | null>;
}

/** How much of an answer a meter is given (a model's answer is far smaller; its usage is in it). */
const METERED_ANSWER_CAP = 16 * 1024 * 1024;

export interface EgressProxy {
  /** The socket path, or http://127.0.0.1:<port>. */
  readonly address: string;
  readonly events: EgressEvent[];
  counts(): { allowed: number; denied: number };
  /**
   * Calls listener with every answer the upstream gives: at its headers (status set), or for an
   * error (≥ 400) once its body has come (errorText set too). Returns the unsubscribe.
   */
  onUpstreamAnswer(listener: (event: EgressEvent) => void): () => void;
  close(): Promise<void>;
}

/** `https://api.openai.com/v1` → `https://api.openai.com:443` (scheme, lower-case host, explicit port). */
export function originKey(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`egress proxy: only http and https origins can be allowed, not "${url}"`);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.protocol}//${u.hostname.toLowerCase()}:${port}`;
}

/** Where the proxy answers inside a container (through a relay), and the key containers hold instead of the real one. */
export const CONTAINER_PROXY_PORT = 3128;
export const PLACEHOLDER_KEY = 'catarena-placeholder-key-added-by-the-egress-proxy';

/**
 * The egress proxy of one container: on socketPath (relayed to 127.0.0.1:3128 inside), answering to
 * its in-container names. baseUrl is the upstream as the container calls it (the proxy + its path).
 */
export async function startContainerEgress(o: {
  upstream: string;
  headers?: Record<string, string>;
  allow?: string[];
  socketPath: string;
  meter?: EgressMeter;
  pacer?: EgressPacer;
  tap?: ExchangeTap;
}): Promise<{ proxy: EgressProxy; baseUrl: string }> {
  const proxy = await startEgressProxy({
    ...(o.meter ? { meter: o.meter } : {}),
    ...(o.pacer ? { pacer: o.pacer } : {}),
    ...(o.tap ? { tap: o.tap } : {}),
    allow: o.allow ?? [],
    upstream: { url: o.upstream, headers: o.headers },
    selfAddresses: [`127.0.0.1:${CONTAINER_PROXY_PORT}`, `localhost:${CONTAINER_PROXY_PORT}`],
    listen: { socketPath: o.socketPath },
  });
  return {
    proxy,
    baseUrl: `http://127.0.0.1:${CONTAINER_PROXY_PORT}${new URL(o.upstream).pathname.replace(/\/+$/, '')}`,
  };
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** What one proxy's handlers share: its options, allowlist, upstream, events and open sockets. */
interface ProxyContext {
  options: EgressProxyOptions;
  /** Origins that may be reached (the upstream's included). */
  allowed: Set<string>;
  /** host:port a CONNECT tunnel may reach (the upstream's origin left out: see proxyContext). */
  hostPorts: Set<string>;
  upstream?: { base: URL; headers: Record<string, string> };
  /** The names under which clients reach this proxy itself. */
  self: Set<string>;
  events: EgressEvent[];
  totals: { allowed: number; denied: number };
  sockets: Set<net.Socket>;
  listeners: Set<(event: EgressEvent) => void>;
  record(e: Omit<EgressEvent, 'time'>): EgressEvent;
  allowList(): string;
}

function proxyContext(options: EgressProxyOptions): ProxyContext {
  const allowed = new Set(options.allow.map(originKey));
  const upstream = options.upstream
    ? { base: new URL(options.upstream.url), headers: options.upstream.headers ?? {} }
    : undefined;
  // CONNECT tunnels only to origins allowed as such: not to the upstream's own origin, whose
  // requests must come in plain through this proxy, where the real key is swapped in (inside a
  // tunnel it cannot be, and the container's placeholder would reach the provider).
  const hostPorts = new Set([...allowed].map((o) => o.slice(o.indexOf('//') + 2)));
  if (upstream) allowed.add(originKey(upstream.base.href));
  const maxEvents = options.maxEvents ?? 1000;
  const events: EgressEvent[] = [];
  const totals = { allowed: 0, denied: 0 };
  return {
    options,
    allowed,
    hostPorts,
    upstream,
    self: new Set((options.selfAddresses ?? []).map((a) => a.toLowerCase())),
    events,
    totals,
    sockets: new Set<net.Socket>(),
    listeners: new Set<(event: EgressEvent) => void>(),
    record: (e) => {
      const event = { time: Date.now(), ...e };
      e.allowed ? totals.allowed++ : totals.denied++;
      events.push(event);
      if (events.length > maxEvents) events.shift();
      return event;
    },
    allowList: () => [...allowed].join(', ') || '(nothing)',
  };
}

export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const ctx = proxyContext(options);
  const server = http.createServer((req, res) => handleRequest(ctx, req, res));
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) =>
    handleConnect(ctx, server, req, client, head),
  );
  server.on('connection', (s: net.Socket) => {
    ctx.sockets.add(s);
    s.on('close', () => ctx.sockets.delete(s));
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  const address = await listen(server, options.listen);
  return {
    address,
    events: ctx.events,
    counts: () => ({ ...ctx.totals }),
    onUpstreamAnswer: (listener) => {
      ctx.listeners.add(listener);
      return () => ctx.listeners.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of ctx.sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Listens on the socket path (open to every user: containers may run as another) or the port; the address. */
async function listen(server: http.Server, on: EgressProxyOptions['listen']): Promise<string> {
  if ('socketPath' in on) {
    fs.rmSync(on.socketPath, { force: true });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(on.socketPath, () => resolve()));
    fs.chmodSync(on.socketPath, 0o777); // containers may run as another user
    return on.socketPath;
  }
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(on.port, '127.0.0.1', () => resolve()),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Where a plain request goes and the headers added to it (the upstream's, for the upstream), or
 * undefined once it has been denied (403). A request in absolute form to this proxy itself is
 * taken as its origin form.
 */
function routeRequest(
  ctx: ProxyContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): { target: URL; inject: Record<string, string> } | undefined {
  let raw = req.url ?? '/';
  if (!raw.startsWith('/')) {
    try {
      const u = new URL(raw);
      if (u.protocol === 'http:' && ctx.self.has(`${u.hostname}:${u.port || '80'}`.toLowerCase()))
        raw = `${u.pathname}${u.search}`;
    } catch {
      // judged below
    }
  }
  if (raw.startsWith('/')) {
    if (!ctx.upstream) {
      deny(
        res,
        ctx.record({ method: req.method ?? '?', target: raw, allowed: false, status: 403 }),
        'no upstream is configured for origin-form requests',
      );
      return undefined;
    }
    // The upstream's base path is already part of what the client asks for (its base URL is the proxy + that path).
    return { target: new URL(raw, ctx.upstream.base.origin), inject: ctx.upstream.headers };
  }
  let target: URL;
  try {
    target = new URL(raw);
    if (!ctx.allowed.has(originKey(target.href))) throw new Error('not allowed');
  } catch {
    deny(
      res,
      ctx.record({ method: req.method ?? '?', target: raw.slice(0, 200), allowed: false, status: 403 }),
      `${raw.slice(0, 100)} is not on the allowlist (${ctx.allowList()})`,
    );
    return undefined;
  }
  return { target, inject: ctx.upstream && target.origin === ctx.upstream.base.origin ? ctx.upstream.headers : {} };
}

/** A plain request: denied, or forwarded (to the upstream: paced, and metered or taped on its whole body). */
function handleRequest(ctx: ProxyContext, req: http.IncomingMessage, res: http.ServerResponse): void {
  const route = routeRequest(ctx, req, res);
  if (!route) return;
  const { target, inject } = route;
  const event = ctx.record({ method: req.method ?? '?', target: `${target.origin}${target.pathname}`, allowed: true });
  const toUpstream = inject === ctx.upstream?.headers;
  const pacer = toUpstream ? ctx.options.pacer : undefined;
  const tap = toUpstream ? ctx.options.tap : undefined;
  const gone = new AbortController();
  res.on('close', () => gone.abort());
  // While the provider is rate-limiting, the request waits here (the client's own retry included).
  const held = () => (pacer ? pacer.hold(gone.signal) : Promise.resolve());
  const forward = (body: Buffer | undefined, ticket: MeterTicket, taped?: ForwardTicket) =>
    forwardRequest(req, res, target, inject, event, ctx.listeners, body, ticket, pacer, taped);
  if (!(ctx.options.meter || tap) || !toUpstream)
    return void held().then(
      () => forward(undefined, null),
      () => res.destroy(),
    );
  // Metered or taped: the whole body first (its size and output limit make the request's worst
  // case; the tape compares and records it).
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks);
    const ticket = tap?.open({
      method: req.method ?? 'GET',
      url: target.href,
      headers: req.headers,
      body,
      source: 'egress',
    });
    if (ticket?.kind === 'answer') return void answerFromTape(res, event, ticket.answer);
    const meter = ctx.options.meter;
    if (!meter)
      return void held().then(
        () => forward(body, null, ticket),
        () => res.destroy(),
      );
    if (
      !(await held().then(
        () => true,
        () => false,
      ))
    )
      return void res.destroy();
    meter.admit(target.pathname, body).then(
      (admitted) => forward(body, admitted, ticket),
      (err: Error) => {
        event.status = 402;
        res.writeHead(402, { 'content-type': 'application/json', connection: 'close' });
        res.end(
          JSON.stringify({ type: 'error', error: { type: 'budget_exceeded', message: `catarena: ${err.message}` } }),
        );
      },
    );
  });
}

/** A CONNECT: a tunnel to this proxy itself (plain HTTP inside), to an allowed host:port, or a 403. */
function handleConnect(
  ctx: ProxyContext,
  server: http.Server,
  req: http.IncomingMessage,
  client: net.Socket,
  head: Buffer,
): void {
  const hostPort = (req.url ?? '').toLowerCase();
  const [host, port] = [
    hostPort.slice(0, hostPort.lastIndexOf(':')),
    Number(hostPort.slice(hostPort.lastIndexOf(':') + 1)),
  ];
  // A client that resets after its 403 (Claude Code's CONNECT to api.anthropic.com does) must not crash the orchestrator.
  client.on('error', () => client.destroy());
  if (ctx.self.has(hostPort)) {
    // A tunnel to the proxy itself: what comes through it is plain HTTP for this same server.
    ctx.record({ method: 'CONNECT', target: `${hostPort} (this proxy)`, allowed: true, status: 200 });
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) client.unshift(head);
    server.emit('connection', client);
    return;
  }
  if (!host || !Number.isInteger(port) || !ctx.hostPorts.has(`${host}:${port}`)) {
    ctx.record({ method: 'CONNECT', target: hostPort.slice(0, 200), allowed: false, status: 403 });
    client.end(
      `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\ncatarena egress proxy: ${hostPort.slice(0, 100)} is not on the allowlist (${ctx.allowList()})\n`,
    );
    return;
  }
  tunnel(ctx, ctx.record({ method: 'CONNECT', target: hostPort, allowed: true }), client, head, host, port);
}

/** Pipes an allowed CONNECT's client to host:port (behind the host's HTTPS_PROXY, NO_PROXY honoured, through it). */
function tunnel(ctx: ProxyContext, event: EgressEvent, client: net.Socket, head: Buffer, host: string, port: number) {
  const via = hostProxyForTunnel(host, port);
  const remote = via ? connectVia(via, host, port) : net.connect(port, host.replace(/^\[|\]$/g, ''));
  ctx.sockets.add(remote);
  remote.on('close', () => ctx.sockets.delete(remote));
  const close = () => {
    client.destroy();
    remote.destroy();
  };
  remote.once(via ? 'tunnel' : 'connect', () => {
    event.status = 200;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) remote.write(head);
    client.pipe(remote).pipe(client);
  });
  remote.on('error', () => {
    event.status = 502;
    if (client.writable) client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n');
    close();
  });
  client.on('error', close);
}

type ForwardTicket = Extract<TapeTicket, { kind: 'forward' }>;
type MeterTicket = Awaited<ReturnType<EgressMeter['admit']>>;

/** Forwards one allowed request (its body read already when metered) and relays the answer. */
function headersOf(h: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
  return out;
}

function forwardRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  target: URL,
  inject: Record<string, string>,
  event: EgressEvent,
  listeners: Set<(event: EgressEvent) => void>,
  buffered: Buffer | undefined,
  ticket: MeterTicket,
  pacer: EgressPacer | undefined,
  taped?: Extract<TapeTicket, { kind: 'forward' }>,
): void {
  const headers = endToEnd(req.headers);
  for (const [k, v] of Object.entries(inject)) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === k.toLowerCase()) delete headers[existing];
    headers[k] = v;
  }
  const answered = (status: number, upHeaders: http.IncomingHttpHeaders, body: NodeJS.ReadableStream) => {
    event.status = status;
    if (taped) recordToTape(taped, status, upHeaders, body);
    if (ticket) {
      let text = '';
      body.on('data', (chunk: Buffer | string) => {
        if (text.length < METERED_ANSWER_CAP) text += chunk.toString();
      });
      body.on('end', () => ticket.answered(text));
      body.on('error', () => ticket.failed());
      body.on('close', () => ticket.answered(text)); // cut off: what came is what was billed (a ticket settles once)
    }
    const tell = () => {
      for (const listener of listeners) listener(event);
    };
    if (status >= 400) {
      // An error's status alone does not say whether waiting helps (a 429 is a rate limit or no quota): its body does.
      let text = '';
      body.on('data', (chunk: Buffer | string) => {
        if (text.length < 2000) text += chunk.toString();
      });
      body.on('end', () => {
        event.errorText = text.slice(0, 2000);
        tell();
      });
    } else tell();
    if (status >= 400 && pacer) {
      // The pacer reads the wait the error names (a header, or Gemini's RetryInfo in the body) before the client has it.
      const parts: Buffer[] = [];
      body.on('data', (chunk: Buffer | string) => parts.push(Buffer.from(chunk)));
      body.on('end', () => {
        const whole = Buffer.concat(parts);
        pacer.refused(status, headersOf(upHeaders), whole.subarray(0, 64 * 1024).toString());
        res.writeHead(status, endToEnd(upHeaders));
        res.end(whole);
      });
      body.on('error', () => res.destroy());
      return;
    }
    res.writeHead(status, endToEnd(upHeaders));
    body.pipe(res);
    body.on('error', () => res.destroy());
  };
  const unreachable = (err: Error) => {
    ticket?.failed();
    taped?.failed(err.message);
    event.status = 502;
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`catarena egress proxy: ${target.origin} is unreachable: ${err.message}\n`);
    } else res.destroy();
  };
  if (mayUseHostProxy(target)) {
    // Behind the host's HTTP(S)_PROXY the upstream is reached through it (NO_PROXY honoured):
    // undici's proxy agent, as the built-in agent and the preflight use.
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (buffered ?? req);
    undiciRequest(target, {
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher: outboundDispatcher(target),
      signal: abort.signal,
    }).then((up) => answered(up.statusCode, up.headers as http.IncomingHttpHeaders, up.body), unreachable);
    return;
  }
  const send = target.protocol === 'https:' ? https.request : http.request;
  const out = send(target, { method: req.method, headers }, (up) => answered(up.statusCode ?? 502, up.headers, up));
  out.on('error', unreachable);
  if (buffered) out.end(buffered);
  else req.pipe(out);
  req.on('error', () => out.destroy());
  res.on('close', () => {
    if (!res.writableFinished) out.destroy();
  });
}

/** Tells the tape the whole answer (its bytes as they came, content-encoding kept) or that it broke off. */
function recordToTape(
  taped: Extract<TapeTicket, { kind: 'forward' }>,
  status: number,
  upHeaders: http.IncomingHttpHeaders,
  body: NodeJS.ReadableStream,
): void {
  const parts: Buffer[] = [];
  let settled = false;
  const headers = endToEnd(upHeaders) as Record<string, string>;
  body.on('data', (chunk: Buffer | string) => parts.push(Buffer.from(chunk)));
  body.on('end', () => {
    if (!settled) taped.done({ status, headers, body: Buffer.concat(parts) });
    settled = true;
  });
  body.on('error', (err: Error) => {
    if (!settled) taped.failed(err.message, Buffer.concat(parts));
    settled = true;
  });
  body.on('close', () => {
    if (!settled) taped.failed('the answer was cut off', Buffer.concat(parts));
    settled = true;
  });
}

/** Answers a request from the tape (a replayed answer, or the refusal of a request that diverged). */
function answerFromTape(res: http.ServerResponse, event: EgressEvent, answer: TapeAnswer): void {
  event.status = answer.status;
  const headers: Record<string, string> = { ...answer.headers, 'content-length': String(answer.body.length) };
  delete headers['transfer-encoding'];
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/**
 * A socket to host:port through an HTTP(S) proxy's CONNECT: it emits 'tunnel' once the proxy
 * answered 2xx (what follows is the tunnel), 'error' if it answered anything else.
 */
function connectVia(proxyUrl: string, host: string, port: number): net.Socket {
  const proxy = new URL(proxyUrl);
  const proxyPort = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  const socket =
    proxy.protocol === 'https:'
      ? tls.connect({ host: proxy.hostname, port: proxyPort, servername: proxy.hostname })
      : net.connect(proxyPort, proxy.hostname.replace(/^\[|\]$/g, ''));
  const target = `${host}:${port}`;
  const auth = proxy.username
    ? `proxy-authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n`
    : '';
  socket.once(proxy.protocol === 'https:' ? 'secureConnect' : 'connect', () =>
    socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n${auth}\r\n`),
  );
  let answer = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    answer = Buffer.concat([answer, chunk]);
    const end = answer.indexOf('\r\n\r\n');
    if (end < 0) {
      if (answer.length > 16_384) socket.destroy(new Error('the host proxy sent an oversized answer'));
      return;
    }
    socket.off('data', onData);
    socket.pause(); // until the tunnel is piped
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer.toString('latin1'))?.[1] ?? 0);
    if (status < 200 || status > 299) {
      socket.destroy(new Error(`the host proxy answered CONNECT ${target} with ${status || 'no status'}`));
      return;
    }
    const rest = answer.subarray(end + 4);
    if (rest.length) socket.unshift(rest);
    socket.emit('tunnel');
  };
  socket.on('data', onData);
  return socket;
}

/** The headers a proxy passes on: all but the hop-by-hop ones (and host, which the target sets). */
function endToEnd(headers: http.IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

function deny(res: http.ServerResponse, event: EgressEvent, why: string): void {
  event.status = 403;
  res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
  res.end(`catarena egress proxy: ${why}\n`);
}
