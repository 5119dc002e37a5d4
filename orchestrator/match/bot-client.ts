// HTTP client for bot calls. The per-move deadline is enforced by aborting the request (never
// measured afterwards), answers are size-capped, and every failure is classified into the
// termination taxonomy: timeout, http_error, malformed, crash.
import type net from 'node:net';
import { deadlineTimer } from '../../util/deadline.ts';
import { HttpError, Http1Pool } from '../../util/http1.ts';

/** A failed call; an HTTP error keeps its status and the start of its body (CATArena retries on them). */
export type CallFailure = {
  kind: 'timeout' | 'http_error' | 'malformed' | 'crash';
  message: string;
  status?: number;
  text?: string;
};
export type CallResult =
  | { ok: true; body: unknown; status: number; latencyMs: number }
  | { ok: false; failure: CallFailure; latencyMs: number };

export interface CallOptions {
  deadlineMs: number;
  maxResponseBytes: number;
}

// A keep-alive socket the bot closed just as we reused it fails with one of these.
const RETRYABLE_SOCKET_CODES = new Set(['HTTP_CLOSED', 'ECONNRESET', 'EPIPE']);

export class BotClient {
  private readonly pool: Http1Pool;
  /**
   * The caller id its sandbox vouches for (BotHandle.callerId): the game server serves this bot
   * its own seats' private state and nobody else's. Unset: the bot's calls cannot be told apart.
   */
  readonly callerId?: string;

  constructor(
    readonly baseUrl: string,
    options: { connections?: number; connect?: () => Promise<net.Socket>; callerId?: string } = {},
  ) {
    this.callerId = options.callerId;
    // An idle socket is closed after 2 s, below Node's default server timeout (5 s), so we do not
    // reuse a socket the bot is about to close; one request per socket at a time. `connect`
    // reaches a bot in an isolated sandbox (BotHandle.connect).
    const url = new URL(baseUrl);
    this.pool = new Http1Pool(url.hostname, Number(url.port || 80), {
      connections: options.connections ?? 4,
      keepAliveMs: 2_000,
      ...(options.connect ? { connect: options.connect } : {}),
    });
  }

  /** POST a JSON body (or, with `form`, a flat record as application/x-www-form-urlencoded); never throws. */
  async post(path: string, body: unknown, options: CallOptions & { form?: boolean }): Promise<CallResult> {
    if (options.form)
      return this.call(
        'POST',
        path,
        new URLSearchParams(body as Record<string, string>).toString(),
        options,
        'application/x-www-form-urlencoded',
      );
    return this.call('POST', path, JSON.stringify(body), options);
  }

  async get(path: string, options: CallOptions): Promise<CallResult> {
    return this.call('GET', path, undefined, options);
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    payload: string | undefined,
    options: CallOptions,
    contentType = 'application/json',
  ): Promise<CallResult> {
    const started = performance.now();
    let timedOut = false;
    let abort: (() => void) | undefined;
    // A deadline this process's own stall cannot spend: what the bot sent meanwhile is read first.
    const deadline = deadlineTimer(options.deadlineMs, () => {
      timedOut = true;
      abort?.();
    });
    const elapsed = () => performance.now() - started;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await this.pool.request(
            method,
            path,
            payload,
            contentType,
            options.maxResponseBytes,
            (a) => (abort = a),
          );
          if (res.body === null) {
            return fail('malformed', `answer larger than ${options.maxResponseBytes} bytes`, elapsed());
          }
          const text = res.body.toString('utf8');
          if (res.status !== 200) {
            return {
              ok: false,
              failure: {
                kind: 'http_error',
                message: `HTTP ${res.status}: ${text.slice(0, 200)}`,
                status: res.status,
                text: text.slice(0, 4096),
              },
              latencyMs: elapsed(),
            };
          }
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            return fail('malformed', `answer is not JSON: ${JSON.stringify(text.slice(0, 120))}`, elapsed());
          }
          return { ok: true, body: parsed, status: res.status, latencyMs: elapsed() };
        } catch (err) {
          if (timedOut) {
            return fail('timeout', `no answer within ${options.deadlineMs} ms`, elapsed());
          }
          const code = (err as { code?: string }).code ?? '';
          // A keep-alive socket the bot closed just as we reused it: one retry is safe and cheap.
          if (attempt === 0 && RETRYABLE_SOCKET_CODES.has(code)) continue;
          return fail('crash', `bot unreachable: ${describe(err)}`, elapsed());
        }
      }
    } finally {
      deadline.clear();
    }
  }

  async close(): Promise<void> {
    this.pool.close();
  }
}

function fail(kind: CallFailure['kind'], message: string, latencyMs: number): CallResult {
  return { ok: false, failure: { kind, message }, latencyMs };
}

function describe(err: unknown): string {
  if (err instanceof HttpError) return err.message;
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message ?? ''}` : String(e.message ?? err);
}
