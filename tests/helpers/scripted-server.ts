// What the four scripted LLM servers (scripted-llm, -anthropic, -responses, -gemini) share: an
// HTTP server on 127.0.0.1 that hands each request's whole body to a handler, a script read turn
// by turn, answers held back by a turn's delayMs, and a close that cancels those and drops
// keep-alive connections (CLI agents keep theirs open).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedServer<R, T> {
  /** The next turn for a request: the script's next entry, or what its function answers. */
  nextTurn(record: R): T;
  /** Run `answer` now, or after `delayMs` (cancelled by close). */
  answerAfter(delayMs: number | undefined, answer: () => void): void;
  /** Listen on a free port of 127.0.0.1; resolves to the origin, e.g. http://127.0.0.1:41234. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** A turn the script did not provide ends the conversation with a text saying so. */
const EXHAUSTED = { text: '(script exhausted)' };

export function scriptedServer<R, T>(
  script: T[] | ((record: R) => T | undefined),
  onRequest: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
): ScriptedServer<R, T> {
  let calls = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => onRequest(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  return {
    nextTurn(record) {
      const turn = (Array.isArray(script) ? script[calls] : script(record)) ?? (EXHAUSTED as T);
      calls++;
      return turn;
    },
    answerAfter(delayMs, answer) {
      if (!delayMs) return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, delayMs);
      timers.add(timer);
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
