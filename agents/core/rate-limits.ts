// Patience with rate limits. A provider that answers 429 (or is overloaded: Anthropic's 529
// overloaded_error, a 503) says how long to wait, each in its own way; the AI SDK honours a wait
// only under 60 s (ai's getRetryDelayInMs: "between 0 and 60 seconds") and otherwise retries after
// 2 s and 4 s and gives up, which ended a 30-minute development in 1.5 to 3 minutes. Here a
// refused request is waited out and asked again at the HTTP level, within the development's own
// deadline, so the conversation goes on where it was. Every development to one provider and key
// shares a gate: after a rate limit, none asks before the wait is over, and then those that waited
// ask one after the other, `spreadMs` apart, instead of all at once into the next 429.
//
// The waits as each provider sends them:
// - OpenAI: `retry-after-ms` (its SDK prefers it) and `retry-after` (seconds); the
//   x-ratelimit-remaining-{requests,tokens} / x-ratelimit-reset-{requests,tokens} headers with
//   durations ("1s", "6m0s", "20ms": platform.openai.com/docs/guides/rate-limits, "Rate limits in
//   headers").
// - Anthropic: `retry-after` (seconds) on a 429; anthropic-ratelimit-{requests,tokens,input-tokens,
//   output-tokens}-{remaining,reset}, the reset an RFC 3339 time (docs "Rate limits", response
//   headers); a 529 overloaded_error may carry retry-after ("use it if it's there").
// - Google: no header; a google.rpc.RetryInfo detail in the body, {"retryDelay": "31s"}.
// A 429 that no wait cures (no credit, quota 0: agents/core/failure.ts) is returned at once.
import { createHash } from 'node:crypto';
import { classifyLlmError } from './failure.ts';

export interface RateLimitOptions {
  /**
   * Multiplies every wait, asked or not, and the spread (tests play 90 s waits as 4.5 s with 0.05).
   * Default 1.
   */
  waitScale?: number;
  /** After a rate limit, the time between two of the requests that waited for it (all developments together). Default 2 s. */
  spreadMs?: number;
  /** The most one development waits in all; default: as long as its deadline allows. */
  maxWaitMs?: number;
}

export const RATE_LIMIT_DEFAULTS = {
  waitScale: 1,
  spreadMs: 2_000,
  maxWaitMs: Number.POSITIVE_INFINITY,
  /** The wait when the provider names none: doubles from 2 s up to a minute. */
  backoffMs: 2_000,
  maxBackoffMs: 60_000,
  /** A request is not retried if its wait would end this close to the deadline. */
  deadlineMarginMs: 5_000,
} as const;

/** Statuses a wait may cure: a rate limit, Anthropic's overload, a service unavailable for now. */
const WAITABLE = new Set([429, 503, 529]);

/** How long one development waited on rate limits, for its log and cost record. */
export interface WaitLedger {
  ms: number;
  waits: number;
  /** Says one wait in a line (the build log, as it happens). */
  note: (line: string) => void;
}

export const newWaitLedger = (note: (line: string) => void = () => {}): WaitLedger => ({ ms: 0, waits: 0, note });

/** OpenAI's reset durations: "1s", "6m0s", "20ms", "1h2m3.5s". */
export function durationMs(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== text.trim()) return undefined;
  const unit = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 } as const;
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
}

/** The longest reset among exhausted limits (remaining 0) of one header family. */
function exhaustedReset(h: Headers, prefix: string, kinds: string[], parse: (v: string) => number | undefined) {
  const resets = kinds
    .filter((k) => h.get(`${prefix}-remaining-${k}`) === '0' || h.get(`${prefix}-${k}-remaining`) === '0')
    .map((k) => h.get(`${prefix}-reset-${k}`) ?? h.get(`${prefix}-${k}-reset`))
    .map((v) => (v ? parse(v) : undefined))
    .filter((v): v is number => v !== undefined && Number.isFinite(v));
  return resets.length ? Math.max(0, ...resets) : undefined;
}

/** The wait a refused request asks for, in ms, by the provider's own signals; undefined if it names none. */
export function askedWaitMs(h: Headers, body: string, now = Date.now()): number | undefined {
  const ms = Number(h.get('retry-after-ms'));
  if (h.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const after = h.get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  try {
    const details = (JSON.parse(body) as { error?: { details?: Array<Record<string, unknown>> } })?.error?.details;
    const info = Array.isArray(details)
      ? details.find((d) => String(d?.['@type'] ?? '').endsWith('google.rpc.RetryInfo'))
      : undefined;
    const m = /^(\d+(?:\.\d+)?)s$/.exec(String(info?.retryDelay ?? ''));
    if (m) return Math.round(Number(m[1]) * 1000);
  } catch {
    // not JSON
  }
  return (
    exhaustedReset(h, 'x-ratelimit', ['requests', 'tokens'], durationMs) ??
    exhaustedReset(h, 'anthropic-ratelimit', ['requests', 'tokens', 'input-tokens', 'output-tokens'], (v) => {
      const t = Date.parse(v);
      return Number.isFinite(t) ? t - now : undefined;
    })
  );
}

/**
 * One provider and key: until when it refuses, and the next slot of the requests that waited for
 * it. Those leave one per spreadMs; a request that comes after the wait goes at once.
 */
class ProviderGate {
  blockedUntil = 0;
  nextSlot = 0;

  block(until: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, until);
  }

  /** When a request may go: now, or, while the provider refuses, the next free slot after the wait. */
  slot(now: number, spreadMs: number): number {
    if (now >= this.blockedUntil) return now;
    const at = Math.max(this.blockedUntil, this.nextSlot);
    this.nextSlot = at + spreadMs;
    return at;
  }
}

const GATES = new Map<string, ProviderGate>();

/** The gate of a request: its origin and a digest of its key (never the key itself). */
function gateOf(url: string, headers: Headers): ProviderGate {
  const key = headers.get('authorization') ?? headers.get('x-api-key') ?? headers.get('x-goog-api-key') ?? '';
  const id = `${new URL(url).origin} ${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  let gate = GATES.get(id);
  if (!gate) GATES.set(id, (gate = new ProviderGate()));
  return gate;
}

/** Sleeps until `at`, or rejects with the signal's reason when it aborts. */
function sleepUntil(at: number, signal?: AbortSignal | null): Promise<void> {
  const ms = at - Date.now();
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PatienceContext {
  /** The development's own deadline (epoch ms): no wait goes past it. */
  deadline: number;
  ledger: WaitLedger;
  options?: RateLimitOptions;
}

/**
 * The wait after a refusal: what the provider asked (at least an eighth of the backoff), else the
 * backoff doubling per refusal; and whether it fits before the deadline and within maxWaitMs.
 */
function plannedWait(
  o: { [K in keyof typeof RATE_LIMIT_DEFAULTS]: number },
  ctx: PatienceContext,
  asked: number | undefined,
  tries: number,
): { wait: number; why: string; fits: boolean } {
  const floor = Math.min(o.maxBackoffMs, o.backoffMs * 2 ** tries);
  const wait = o.waitScale * (asked !== undefined ? Math.max(asked, floor / 8) : floor);
  const why = asked !== undefined ? `asked ${(asked / 1000).toFixed(1)} s` : 'no wait named: backoff';
  const fits =
    Date.now() + wait <= ctx.deadline - o.deadlineMarginMs * o.waitScale && ctx.ledger.ms + wait <= o.maxWaitMs;
  return { wait, why, fits };
}

/**
 * A fetch that waits out rate limits within the deadline and asks again, sharing each provider's
 * gate with every other development of this process. It returns the refusal as it came when the
 * wait would pass the deadline or `maxWaitMs`, or no wait cures it (billing).
 */
export function patientFetch(inner: typeof fetch, ctx: PatienceContext): typeof fetch {
  const o = { ...RATE_LIMIT_DEFAULTS, ...ctx.options };
  const spread = o.spreadMs * o.waitScale;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const gate = gateOf(url, new Headers(init?.headers));
    for (let tries = 0; ; tries++) {
      const waitFrom = Date.now();
      await sleepUntil(gate.slot(waitFrom, spread), init?.signal);
      const waited = Date.now() - waitFrom;
      ctx.ledger.ms += waited;
      if (tries === 0 && waited >= 1_000 * o.waitScale) {
        ctx.ledger.waits++;
        ctx.ledger.note(
          `waited ${(waited / 1000).toFixed(1)} s: ${new URL(url).host} is rate-limiting this key (another request was refused); the requests that waited go one after the other`,
        );
      }
      const res = await inner(input, init);
      if (!WAITABLE.has(res.status)) return res;
      const body = await res
        .clone()
        .text()
        .catch(() => '');
      if (classifyLlmError(body, res.status) === 'billing') return res;
      const asked = askedWaitMs(res.headers, body);
      const { wait, why, fits } = plannedWait(o, ctx, asked, tries);
      const said = `HTTP ${res.status} from ${new URL(url).host}`;
      if (!fits) {
        ctx.ledger.note(`${said} (${why}): not waited, the development's time is too short`);
        return res;
      }
      ctx.ledger.waits++;
      ctx.ledger.note(`${said} (${why}): waiting ${(wait / 1000).toFixed(1)} s, then asking again`);
      gate.block(Date.now() + wait);
      await res.body?.cancel().catch(() => {});
    }
  };
}

/**
 * The same patience for a CLI agent, whose requests pass through the egress proxy
 * (sandbox/egress-proxy.ts): a refused answer blocks this provider's gate for the wait it names
 * (or a backoff), and every request of every development to it waits at the proxy until then,
 * the CLI's own retries included, then goes one per spread. The CLI still gets the refusal as it
 * came; what it does with it is its own (it may give up: the attempt then waits the gate out).
 */
export function egressPacer(
  upstreamUrl: string,
  headers: Record<string, string>,
  ctx: PatienceContext,
): { hold(signal: AbortSignal): Promise<void>; refused(status: number, h: Headers, body: string): void } {
  const o = { ...RATE_LIMIT_DEFAULTS, ...ctx.options };
  const gate = gateOf(upstreamUrl, new Headers(headers));
  const host = new URL(upstreamUrl).host;
  let refusals = 0;
  return {
    async hold(signal) {
      const from = Date.now();
      await sleepUntil(gate.slot(from, o.spreadMs * o.waitScale), signal);
      const waited = Date.now() - from;
      if (waited <= 0) return;
      ctx.ledger.ms += waited;
      if (waited >= 1_000 * o.waitScale)
        ctx.ledger.note(`a request waited ${(waited / 1000).toFixed(1)} s for ${host}`);
    },
    refused(status, h, body) {
      if (!WAITABLE.has(status) || classifyLlmError(body, status) === 'billing') return;
      const asked = askedWaitMs(h, body);
      const { wait, why, fits } = plannedWait(o, ctx, asked, refusals++);
      if (!fits) return;
      ctx.ledger.waits++;
      ctx.ledger.note(
        `HTTP ${status} from ${host} (${why}): its requests wait ${(wait / 1000).toFixed(1)} s at the proxy`,
      );
      gate.block(Date.now() + wait);
    },
  };
}

/** When the provider of `upstreamUrl` and this key accepts requests again (now if it is not refusing). */
export function gateOpensAt(upstreamUrl: string, headers: Record<string, string>): number {
  return gateOf(upstreamUrl, new Headers(headers)).blockedUntil;
}
