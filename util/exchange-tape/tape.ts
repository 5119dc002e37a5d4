// The run's recording of its model exchanges (docs/rerun.md): every request an agent or its bot
// sends its model, and the answer, captured where catarena already stands between them (the
// built-in agent's fetch, the egress proxy's upstream), keys redacted at capture. In the run
// directory: recordings/exchanges.jsonl, one line per exchange (agent, track, round, attempt,
// order, times, status, usage, the bodies' hashes), and recordings/bodies/<sha256>.gz, each
// distinct body once, gzip-compressed (a streamed answer is its whole byte stream).
// A replaying tape (catarena rerun) answers each request from another run's recording instead:
// per channel (agent, track, round), the next recorded exchange whose request is equal but for
// volatile fields (compare.ts), else the first unused one that is (a bot's concurrent games ask in
// any order); a request no recorded one equals is a divergence: reported, and the channel's
// further requests are refused (or, with liveAfterDivergence, forwarded to the live endpoint).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { roundOfDirName, RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';
import type { JsonDifference } from './compare.ts';
import { redactBody, redactHeaders, redactUrl, secretValues } from './redact.ts';
import { decodedText, usageOf } from './usage.ts';

/** Whose exchanges: one agent's development of one track's round, or its bot's play. */
export interface ExchangeChannel {
  agent: string;
  track: string;
  round: number;
}

export interface TapeRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The built-in agent's attempt (1-based), where the capture point knows it. */
  attempt?: number;
  /** Where it was captured: the built-in agent's fetch, or an egress proxy (CLI agents, bots). */
  source: 'fetch' | 'egress';
}

export interface TapeAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What the capture point does with a request: send it on (and say what came back), or answer it now. */
export type TapeTicket =
  | { kind: 'forward'; done(answer: TapeAnswer): void; failed(error: string, partial?: Buffer): void }
  | { kind: 'answer'; answer: TapeAnswer };

/** A channel's tap: every capture point asks it about each request. */
export interface ExchangeTap {
  open(request: TapeRequest): TapeTicket;
}

/** One line of recordings/exchanges.jsonl. */
export interface ExchangeLine extends ExchangeChannel {
  seq: number;
  order: number;
  attempt?: number;
  source: TapeRequest['source'];
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  request: { sha256: string; bytes: number };
  start: string;
  end: string;
  status: number;
  responseHeaders: Record<string, string>;
  response: { sha256: string; bytes: number };
  stream: boolean;
  usage?: Record<string, unknown>;
  error?: string;
}

/** The first request of a channel that no recorded one equals, both versions side by side. */
export interface Divergence extends ExchangeChannel {
  order: number;
  attempt?: number;
  method: string;
  path: string;
  recordedOrder?: number;
  recorded?: unknown;
  rerun: unknown;
  differences: JsonDifference[];
}

export const recordingsDir = (runDir: string) => path.join(runDir, RUN_DIRS.recordings);
export const exchangesFile = (runDir: string) => path.join(recordingsDir(runDir), RUN_FILES.exchanges);
const bodyFile = (runDir: string, sha: string) =>
  path.join(recordingsDir(runDir), RUN_DIRS.recordingBodies, `${sha}.gz`);

const channelKey = (c: ExchangeChannel) => `${c.agent}\u0000${c.track}\u0000${c.round}`;

/** The exchanges a run recorded, in the order they ended ([] for a run without recordings). */
export function readExchanges(runDir: string): ExchangeLine[] {
  let text: string;
  try {
    text = fs.readFileSync(exchangesFile(runDir), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ExchangeLine);
}

/** One recorded body, uncompressed. */
export function readBody(runDir: string, sha: string): Buffer {
  return zlib.gunzipSync(fs.readFileSync(bodyFile(runDir, sha)));
}

/** How much a run recorded: exchanges, and the bytes its recordings/ folder holds. */
export function recordingTotals(runDir: string): { exchanges: number; bytes: number; bodies: number } {
  const dir = recordingsDir(runDir);
  let bytes = 0;
  let bodies = 0;
  try {
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (e.isFile()) {
        bytes += fs.statSync(path.join(e.parentPath, e.name)).size;
        if (e.name.endsWith('.gz')) bodies++;
      }
  } catch {
    return { exchanges: 0, bytes: 0, bodies: 0 };
  }
  return { exchanges: readExchanges(runDir).length, bytes, bodies };
}

/**
 * The channel a bot folder of a run belongs to: tracks/<track>/round_<n>/strategies/<agent> (as it
 * plays), or a folder below tracks/<track>/round_<n>/workspaces/<agent>/ (as it is checked while developed).
 */
export function channelOfBotDir(runDir: string, dir: string): ExchangeChannel | undefined {
  const rel = path.relative(path.resolve(runDir), path.resolve(dir)).split(path.sep);
  const [tracks, track, roundDir, folder, agent] = rel;
  if (rel.length < 5 || tracks !== RUN_DIRS.tracks) return undefined;
  if (folder !== RUN_DIRS.strategies && folder !== RUN_DIRS.workspaces) return undefined;
  if (folder === RUN_DIRS.strategies && rel.length !== 5) return undefined;
  const round = roundOfDirName(roundDir!);
  return round === undefined ? undefined : { agent: agent!, track: track!, round };
}

/** Whether a response is a stream of server-sent events (recorded whole, replayed as a stream). */
export const isEventStream = (headers: Record<string, string>) =>
  /text\/event-stream/i.test(headers['content-type'] ?? '');

/** Writes a run's exchanges: bodies once by content, one index line per exchange. */
export class TapeRecorder {
  private seq: number;
  private readonly orders = new Map<string, number>();
  private readonly secrets: string[];
  private made = false;

  constructor(
    readonly runDir: string,
    env: Record<string, string | undefined> = process.env,
  ) {
    const earlier = readExchanges(runDir); // a resumed run goes on counting
    this.seq = earlier.length;
    for (const line of earlier)
      this.orders.set(channelKey(line), Math.max(this.orders.get(channelKey(line)) ?? 0, line.order));
    this.secrets = secretValues(env);
  }

  /** The next order number of a channel (1-based). */
  nextOrder(channel: ExchangeChannel): number {
    const n = (this.orders.get(channelKey(channel)) ?? 0) + 1;
    this.orders.set(channelKey(channel), n);
    return n;
  }

  /** Stores a body once (redacted first); its hash and size. */
  private store(body: Buffer): { sha256: string; bytes: number } {
    if (!this.made) fs.mkdirSync(path.join(recordingsDir(this.runDir), RUN_DIRS.recordingBodies), { recursive: true });
    this.made = true;
    const clean = redactBody(body, this.secrets);
    const sha256 = createHash('sha256').update(clean).digest('hex');
    const file = bodyFile(this.runDir, sha256);
    if (!fs.existsSync(file)) {
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, zlib.gzipSync(clean));
      fs.renameSync(tmp, file);
    }
    return { sha256, bytes: clean.length };
  }

  /** Records one finished exchange. */
  write(
    channel: ExchangeChannel,
    order: number,
    request: TapeRequest,
    start: number,
    answer: TapeAnswer,
    error?: string,
  ): void {
    const responseHeaders = redactHeaders(answer.headers);
    const line: ExchangeLine = {
      seq: ++this.seq,
      ...channel,
      order,
      ...(request.attempt !== undefined ? { attempt: request.attempt } : {}),
      source: request.source,
      method: request.method,
      url: redactUrl(request.url),
      requestHeaders: redactHeaders(request.headers),
      request: this.store(request.body),
      start: new Date(start).toISOString(),
      end: new Date().toISOString(),
      status: answer.status,
      responseHeaders,
      response: this.store(answer.body),
      stream: isEventStream(responseHeaders),
    };
    const usage =
      answer.status < 400 ? usageOf(decodedText(answer.body, responseHeaders['content-encoding'])) : undefined;
    if (usage) line.usage = usage;
    if (error) line.error = error;
    fs.appendFileSync(exchangesFile(this.runDir), `${JSON.stringify(line)}\n`);
  }

  /** A channel's recording tap. */
  tap(channel: ExchangeChannel): ExchangeTap {
    return {
      open: (request) => {
        const order = this.nextOrder(channel);
        const start = Date.now();
        return {
          kind: 'forward',
          done: (answer) => this.write(channel, order, request, start, answer),
          failed: (error, partial) =>
            this.write(
              channel,
              order,
              request,
              start,
              { status: 0, headers: {}, body: partial ?? Buffer.alloc(0) },
              error,
            ),
        };
      },
    };
  }
}
