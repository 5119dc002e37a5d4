// A fetch that goes through a channel's tap (tape.ts): the built-in agent's capture point. A
// recorded exchange's answer is read whole beside the caller (a tee), so a streamed answer reaches
// the caller as it arrives and is recorded as its full byte stream; a replayed answer is served as
// a stream again, one server-sent event per chunk.
import { isEventStream, type ExchangeTap, type TapeAnswer, type TapeRequest } from './tape.ts';

type Fetch = typeof globalThis.fetch;

function headersOf(h: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h).forEach((value, name) => (out[name] = value));
  return out;
}

async function bodyOf(body: unknown): Promise<Buffer> {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  return Buffer.from(await new Response(body as BodyInit).arrayBuffer());
}

/** The recorded bytes as a stream: cut after each blank line (one event per chunk) when they are events. */
export function replayStream(body: Buffer, events: boolean): ReadableStream<Uint8Array> {
  const pieces: Buffer[] = [];
  if (events) {
    let from = 0;
    for (let at = body.indexOf('\n\n'); at >= 0; at = body.indexOf('\n\n', from)) {
      pieces.push(body.subarray(from, at + 2));
      from = at + 2;
    }
    if (from < body.length) pieces.push(body.subarray(from));
  } else if (body.length) pieces.push(body);
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(new Uint8Array(next));
      else controller.close();
    },
  });
}

/** A Response from a replayed answer (fetch decodes encodings itself: none is claimed). */
export function responseOf(answer: TapeAnswer): Response {
  const headers = { ...answer.headers };
  delete headers['content-length'];
  delete headers['content-encoding'];
  const noBody = answer.status === 204 || answer.status === 304;
  return new Response(noBody ? null : replayStream(answer.body, isEventStream(headers)), {
    status: answer.status,
    headers,
  });
}

/** Reads a stream to its end (or its error), resolving to what came and the error, if any. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Buffer; error?: string }> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(parts) };
      parts.push(value);
    }
  } catch (err) {
    return { bytes: Buffer.concat(parts), error: (err as Error).message || String(err) };
  }
}

/** `f`, with every request recorded or answered by the tap; `attempt` goes into the index. */
export function tapFetch(f: Fetch, tap: ExchangeTap, attempt?: number): Fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = await bodyOf(init?.body ?? (request ? await request.clone().arrayBuffer() : undefined));
    const tapped: TapeRequest = {
      method: init?.method ?? request?.method ?? 'GET',
      url,
      headers: headersOf(init?.headers ?? request?.headers),
      body,
      ...(attempt !== undefined ? { attempt } : {}),
      source: 'fetch',
    };
    const ticket = tap.open(tapped);
    if (ticket.kind === 'answer') return responseOf(ticket.answer);
    let res: Response;
    try {
      // A body read here (a stream) is sent as the bytes read.
      const resent =
        init?.body !== undefined && typeof init.body !== 'string' ? { ...init, body: new Uint8Array(body) } : init;
      res = await f(input, resent);
    } catch (err) {
      ticket.failed((err as Error).message || String(err));
      throw err;
    }
    const headers = headersOf(res.headers);
    if (!res.body) {
      ticket.done({ status: res.status, headers, body: Buffer.alloc(0) });
      return res;
    }
    const [mine, theirs] = res.body.tee();
    void drain(mine).then(({ bytes, error }) =>
      error ? ticket.failed(error, bytes) : ticket.done({ status: res.status, headers, body: bytes }),
    );
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
