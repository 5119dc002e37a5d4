// The replaying side of the tape (util/exchange-tape/tape.ts): answers each channel's requests
// from another run's recording, reports the first request of a channel that differs, and then
// refuses the channel's requests (the agent fails its round) or, with liveAfterDivergence, lets
// them through to the live endpoint.
import { comparable, jsonDiff, requestKey } from './compare.ts';
import { redactBody, secretValues } from './redact.ts';
import {
  readBody,
  readExchanges,
  type Divergence,
  type ExchangeChannel,
  type ExchangeLine,
  type ExchangeTap,
  type TapeAnswer,
  type TapeRequest,
} from './tape.ts';

export interface ReplayOptions {
  /** After a channel diverged, forward its requests to the live endpoint (default: refuse them). */
  liveAfterDivergence?: boolean;
  /** The rerun's own run directory: masked like the recorded run's in compared requests. */
  rerunDir: string;
  /** Channels not replayed at all: forwarded live (a fork's swapped agent). */
  live?: (channel: ExchangeChannel) => boolean;
  /** Where the secrets to redact are read (default process.env), as the recorder read them. */
  env?: Record<string, string | undefined>;
}

/** One channel's recorded exchanges and what the rerun used of them. */
interface Reel {
  lines: ExchangeLine[];
  used: boolean[];
  keys: Array<string | undefined>;
  order: number;
  diverged: boolean;
}

const channelKey = (c: ExchangeChannel) => `${c.agent}\u0000${c.track}\u0000${c.round}`;

/** The status of a refused request: a client error no SDK retries, saying why in the provider's error shape. */
const REFUSED_STATUS = 400;

export class TapeReplayer {
  private readonly reels = new Map<string, Reel>();
  readonly divergences: Divergence[] = [];
  replayed = 0;
  refused = 0;
  forwarded = 0;
  /** The secrets the recording redacted: redacted from a new request too before it is compared. */
  private readonly secrets: string[];

  constructor(
    readonly fromDir: string,
    private readonly options: ReplayOptions,
  ) {
    this.secrets = secretValues(options.env ?? process.env);
    for (const line of readExchanges(fromDir)) {
      const key = channelKey(line);
      const reel = this.reels.get(key) ?? { lines: [], used: [], keys: [], order: 0, diverged: false };
      reel.lines.push(line);
      this.reels.set(key, reel);
    }
    for (const reel of this.reels.values()) {
      reel.lines.sort((a, b) => a.order - b.order);
      reel.used = reel.lines.map(() => false);
      reel.keys = reel.lines.map(() => undefined);
    }
  }

  /** How many exchanges the recording holds. */
  get recorded(): number {
    let n = 0;
    for (const reel of this.reels.values()) n += reel.lines.length;
    return n;
  }

  private roots(): string[] {
    return [this.fromDir, this.options.rerunDir];
  }

  /** A new request as compared: redacted as the recording was, then normalised. */
  private comparableOf(request: TapeRequest) {
    return comparable(request.method, request.url, redactBody(request.body, this.secrets), this.roots());
  }

  private keyOf(reel: Reel, i: number): string {
    const line = reel.lines[i]!;
    reel.keys[i] ??= requestKey(
      comparable(line.method, line.url, readBody(this.fromDir, line.request.sha256), this.roots()),
    );
    return reel.keys[i]!;
  }

  /** The first unused recorded exchange equal to the request: the next in order first, then any (concurrent games). */
  private match(reel: Reel, key: string): number {
    const next = reel.used.indexOf(false);
    if (next < 0) return -1;
    if (this.keyOf(reel, next) === key) return next;
    for (let i = next + 1; i < reel.lines.length; i++) if (!reel.used[i] && this.keyOf(reel, i) === key) return i;
    return -1;
  }

  private answerOf(line: ExchangeLine): TapeAnswer {
    return {
      status: line.status,
      headers: { ...line.responseHeaders },
      body: readBody(this.fromDir, line.response.sha256),
    };
  }

  private diverge(channel: ExchangeChannel, reel: Reel, request: TapeRequest, order: number): void {
    reel.diverged = true;
    const live = this.comparableOf(request);
    const next = reel.used.indexOf(false);
    const line = next >= 0 ? reel.lines[next] : undefined;
    const recorded = line
      ? comparable(line.method, line.url, readBody(this.fromDir, line.request.sha256), this.roots())
      : undefined;
    this.divergences.push({
      ...channel,
      order,
      ...(request.attempt !== undefined ? { attempt: request.attempt } : {}),
      method: live.method,
      path: live.path,
      ...(line ? { recordedOrder: line.order, recorded: recorded!.body } : {}),
      rerun: live.body,
      differences: recorded
        ? jsonDiff({ ...recorded }, { ...live })
        : [{ path: '$', recorded: undefined, rerun: live.body }],
    });
  }

  /** A channel's replaying tap. */
  tap(channel: ExchangeChannel): ExchangeTap {
    const key = channelKey(channel);
    const reel = this.reels.get(key) ?? { lines: [], used: [], keys: [], order: 0, diverged: false };
    this.reels.set(key, reel);
    const live = this.options.live?.(channel) ?? false;
    return {
      open: (request) => {
        const order = ++reel.order;
        if (live) return this.forward();
        if (!reel.diverged) {
          const i = this.match(reel, requestKey(this.comparableOf(request)));
          if (i >= 0) {
            reel.used[i] = true;
            this.replayed++;
            return { kind: 'answer', answer: this.answerOf(reel.lines[i]!) };
          }
          this.diverge(channel, reel, request, order);
        }
        if (this.options.liveAfterDivergence) return this.forward();
        this.refused++;
        return { kind: 'answer', answer: refusal(channel) };
      },
    };
  }

  private forward(): ReturnType<ExchangeTap['open']> {
    this.forwarded++;
    return { kind: 'forward', done: () => {}, failed: () => {} };
  }
}

/** The answer to a request the recording does not hold: an invalid-request error, in OpenAI's and Anthropic's error shape. */
function refusal(channel: ExchangeChannel): TapeAnswer {
  const message = `catarena rerun: this request of ${channel.agent} (${channel.track}, round ${channel.round}) differs from the recorded run's; replay stopped for it (see rerun.md). Rerun with --live-after-divergence to go on against the live endpoint.`;
  return {
    status: REFUSED_STATUS,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(
      JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', code: 'rerun_diverged', message } }),
    ),
  };
}
