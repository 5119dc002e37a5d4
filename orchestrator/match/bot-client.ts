// HTTP client for bot calls. The per-move deadline is enforced by aborting the request (never
// measured afterwards), answers are size-capped, and every failure is classified into the
// termination taxonomy: timeout, http_error, malformed, crash.
import { Pool, errors as undiciErrors } from 'undici';

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

const RETRYABLE_SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

export class BotClient {
  private readonly pool: Pool;

  constructor(
    readonly baseUrl: string,
    options: { connections?: number; socketPath?: string } = {},
  ) {
    // keepAliveTimeout below Node's default server timeout (5 s) avoids reusing a socket the bot is
    // about to close; pipelining 1 keeps one request per socket. A socketPath reaches a bot in an
    // isolated sandbox through its forwarder.
    this.pool = new Pool(baseUrl, {
      connections: options.connections ?? 4,
      keepAliveTimeout: 2_000,
      pipelining: 1,
      ...(options.socketPath ? { connect: { socketPath: options.socketPath } } : {}),
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
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.deadlineMs);
    const elapsed = () => performance.now() - started;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await this.pool.request({
            method,
            path,
            body: payload,
            headers: payload === undefined ? {} : { 'content-type': contentType },
            signal: controller.signal,
          });
          const text = await readCapped(res.body, options.maxResponseBytes, controller);
          if (text === null) {
            return fail('malformed', `answer larger than ${options.maxResponseBytes} bytes`, elapsed());
          }
          if (res.statusCode !== 200) {
            return {
              ok: false,
              failure: {
                kind: 'http_error',
                message: `HTTP ${res.statusCode}: ${text.slice(0, 200)}`,
                status: res.statusCode,
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
          return { ok: true, body: parsed, status: res.statusCode, latencyMs: elapsed() };
        } catch (err) {
          if (controller.signal.aborted) {
            return fail('timeout', `no answer within ${options.deadlineMs} ms`, elapsed());
          }
          const code = (err as { code?: string }).code ?? '';
          // A keep-alive socket the bot closed just as we reused it: one retry is safe and cheap.
          if (attempt === 0 && RETRYABLE_SOCKET_CODES.has(code)) continue;
          return fail('crash', `bot unreachable: ${describe(err)}`, elapsed());
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy().catch(() => undefined);
  }
}

function fail(kind: CallFailure['kind'], message: string, latencyMs: number): CallResult {
  return { ok: false, failure: { kind, message }, latencyMs };
}

function describe(err: unknown): string {
  if (err instanceof undiciErrors.UndiciError) return `${err.code}: ${err.message}`;
  const e = err as { code?: string; message?: string };
  return e.code ? `${e.code}: ${e.message ?? ''}` : String(e.message ?? err);
}

/** Reads a body up to a cap; returns null (and aborts the transfer) when the cap is exceeded. */
async function readCapped(
  body: AsyncIterable<Buffer> & { destroy?: (e?: Error) => void },
  cap: number,
  controller: AbortController,
): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > cap) {
      body.destroy?.();
      void controller; // the socket is discarded with the destroyed body
      return null;
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
}
