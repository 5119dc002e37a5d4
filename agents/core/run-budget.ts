// The run's budget as a hard cap (--budget-usd). Every model request an agent makes while it
// develops passes through here twice: before it is sent (admit: its worst case, from its prompt's
// size and its output limit, must fit under the cap beside the requests already in flight, else
// it waits for them, and is refused once the run's spend reached the cap) and when its answer has
// come (charge: its usage at the model's price). A development reserves its worst case before it
// starts, so concurrent developments do not all start from the same figure; once the run's spend
// reaches the cap every development still running is stopped (its signal aborts).
//
// What this guarantees: a request is admitted while others are in flight only if all their worst
// cases fit under the cap; when none fits, one request at a time, and none once the spend reached
// the cap. So the estimated spend passes the cap by one request's cost at most.
//
// The same machine caps each development on its own (--budget-per-agent: every agent gets the same
// budget for each strategy it writes), in dollars or in tokens (every token priced at one unit),
// its lease chained to the run's: a request must fit under both.
import { estimateCostUsd, priceOf, type ModelPrice, type TokenCounts } from './prices.ts';
import { lookupModel, MODEL_TABLE, type ModelTable } from './models.ts';

/** Output tokens a request may produce when it names no limit (the API's own cap is unknown here). */
const UNNAMED_OUTPUT_LIMIT = 128_000;

/** What a budget counts: dollars, or tokens (priced at one unit per million, so its figures are millions of tokens). */
export interface BudgetKind {
  unit: 'usd' | 'tokens';
  /** How its stop message names it: "the run's budget", "the agent's budget for this development". */
  name: string;
}

export const RUN_DOLLARS: BudgetKind = { unit: 'usd', name: "the run's budget" };

/** Every token at one unit per million: a token budget's figures are millions of tokens. */
const ONE_PER_TOKEN: ModelPrice = { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 };

/** A budget figure in words: $1.50, or 200,000 tokens. */
export function amountText(amount: number, unit: BudgetKind['unit']): string {
  return unit === 'tokens' ? `${Math.round(amount * 1e6).toLocaleString('en-US')} tokens` : `$${amount.toFixed(2)}`;
}

/** One development's hold on the budget: what it reserved, what it has spent, and its stop signal. */
export class BudgetLease {
  /** Dollars charged for this development's answered requests so far. */
  chargedUsd = 0;
  /** Set when the budget stopped this development: why, in words. */
  stopped: string | undefined;
  private readonly abort = new AbortController();

  /** The run's lease this development's is chained to (--budget-per-agent beside --budget-usd). */
  private outer: BudgetLease | undefined;

  constructor(
    private readonly budget: RunBudget,
    readonly label: string,
    /** What it reserved before it started (its worst case, or what was left). */
    readonly reservedUsd: number,
  ) {}

  /** Chains this lease to an outer one (the run's): a request is admitted only under both, and both stop it. */
  within(outer: BudgetLease | undefined): this {
    this.outer = outer;
    outer?.signal.addEventListener('abort', () => this.stop(outer.stopped ?? "the run's budget was reached"), {
      once: true,
    });
    if (outer?.stopped) this.stop(outer.stopped);
    return this;
  }

  /** This lease, then the ones it is chained to. */
  chain(): BudgetLease[] {
    return [this, ...(this.outer?.chain() ?? [])];
  }

  /** Aborted when the run's spend reaches the cap. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Waits until a request of this worst case may be sent; false (and the development stopped) once the cap is reached. */
  admit(worstUsd: number): Promise<RequestTicket | null> {
    return this.budget.admit(this, worstUsd);
  }

  /** Prices a model for a request (config prices over the run's model table). */
  priceOf(model: string | undefined): ModelPrice | undefined {
    return this.budget.priceOf(model);
  }

  /** The run's model table (output limits of the requests it admits). */
  get table(): ModelTable {
    return this.budget.table;
  }

  /** The development is over: what it reserved and did not spend goes back to the others. */
  close(): void {
    this.budget.release(this);
  }

  /** @internal */
  stop(why: string): void {
    if (this.stopped) return;
    this.stopped = why;
    this.abort.abort(new Error(why));
  }

  /** What it still holds of its reservation. */
  get outstandingUsd(): number {
    return Math.max(0, this.reservedUsd - this.chargedUsd);
  }
}

/** One admitted request: settle it with its answer's usage (or nothing, if it never answered). */
export interface RequestTicket {
  settle(usd: number): void;
}

export class RunBudget {
  private settledUsd = 0;
  private readonly open = new Set<BudgetLease>();
  private readonly inFlight = new Map<object, number>();
  private waiters: Array<() => void> = [];
  /** Developments the budget stopped while they ran (label: why). */
  readonly stoppedDevelopments: Array<{ label: string; why: string }> = [];

  constructor(
    readonly capUsd: number,
    readonly prices: Record<string, ModelPrice> = {},
    /** The run's model table (config `models:` over the shipped one): prices and output limits. */
    readonly table: ModelTable = MODEL_TABLE,
    /** What the cap counts and what it is called in the reports (the run's dollars by default). */
    readonly kind: BudgetKind = RUN_DOLLARS,
  ) {}

  /** Prices a model for a request: config prices over the model table, or one unit per token. */
  priceOf(model: string | undefined): ModelPrice | undefined {
    return this.kind.unit === 'tokens' ? ONE_PER_TOKEN : priceOf(model, this.prices, this.table);
  }

  /** Estimated dollars spent: settled developments and play, plus what open developments were charged. */
  spentUsd(): number {
    let usd = this.settledUsd;
    for (const lease of this.open) usd += lease.chargedUsd;
    return usd;
  }

  /** Dollars spent outside developments (reloaded strategies, LLM-players' play): counted as spent. */
  addSettled(usd: number): void {
    this.settledUsd += usd;
    this.checkCap();
  }

  /** Why developments stop: "the run's budget of $2.00 was reached ($2.13 estimated)". */
  reachedText(): string {
    return `${this.kind.name} of ${amountText(this.capUsd, this.kind.unit)} was reached (${amountText(this.spentUsd(), this.kind.unit)} estimated)`;
  }

  /** Whether the cap is reached: no development may start. */
  reached(): boolean {
    return this.spentUsd() >= this.capUsd;
  }

  /**
   * Reserves a development's worst case before it starts: at once when it fits beside what the
   * open developments hold, or, when it does not, as soon as no other development holds anything
   * (then it takes what is left). Null when the cap is reached: the development does not start.
   */
  async reserve(label: string, worstUsd: number | undefined): Promise<BudgetLease | null> {
    for (;;) {
      const left = this.capUsd - this.spentUsd();
      if (left <= 0) return null;
      const held = [...this.open].reduce((s, l) => s + l.outstandingUsd, 0);
      const worst = worstUsd ?? 0;
      if (worst <= left - held || this.open.size === 0) {
        const lease = new BudgetLease(this, label, Math.min(worst, left));
        this.open.add(lease);
        return lease;
      }
      await this.changed();
    }
  }

  /** @internal (BudgetLease.admit) */
  async admit(lease: BudgetLease, worstUsd: number): Promise<RequestTicket | null> {
    for (;;) {
      if (lease.stopped) return null;
      if (this.checkCap()) return null;
      const flying = [...this.inFlight.values()].reduce((s, w) => s + w, 0);
      if (this.spentUsd() + flying + worstUsd <= this.capUsd || this.inFlight.size === 0) {
        const key = {};
        this.inFlight.set(key, worstUsd);
        let settled = false;
        return {
          settle: (usd) => {
            if (settled) return;
            settled = true;
            this.inFlight.delete(key);
            lease.chargedUsd += usd;
            this.checkCap();
            this.wake();
          },
        };
      }
      await this.changed();
    }
  }

  /** @internal (BudgetLease.close) */
  release(lease: BudgetLease): void {
    if (!this.open.delete(lease)) return;
    this.settledUsd += lease.chargedUsd;
    this.wake();
  }

  /** Stops every open development once the spend reached the cap; true if it has. */
  private checkCap(): boolean {
    const spent = this.spentUsd();
    if (spent < this.capUsd) return false;
    const why = this.reachedText();
    for (const lease of this.open) {
      if (lease.stopped) continue;
      lease.stop(why);
      this.stoppedDevelopments.push({ label: lease.label, why });
    }
    this.wake();
    return true;
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}

/**
 * A request's worst case in dollars: every byte of its body as an uncached input token (a token is
 * at least a byte of text), at the dearer of the input and cache-write prices and the long band's,
 * plus its output limit at the output price (the model table's maxOutput, else 128k, when it names none).
 */
export function requestWorstUsd(
  price: ModelPrice,
  bodyBytes: number,
  maxOutput: number | undefined,
  model?: string,
  table: ModelTable = MODEL_TABLE,
): number {
  const band = price.long ?? price;
  const input = Math.max(price.input, price.cacheWrite ?? 0, band.input, band.cacheWrite ?? 0);
  const output = Math.max(price.output, band.output);
  const limit = maxOutput ?? lookupModel(model, table)?.maxOutput ?? UNNAMED_OUTPUT_LIMIT;
  return (bodyBytes * input + limit * output) / 1_000_000;
}

/** The output limit a request body names (Anthropic max_tokens, OpenAI max_completion_tokens / max_output_tokens / max_tokens, Gemini maxOutputTokens). */
export function outputLimitOf(body: Record<string, unknown>): number | undefined {
  const g = body.generationConfig as Record<string, unknown> | undefined;
  for (const v of [body.max_tokens, body.max_completion_tokens, body.max_output_tokens, g?.maxOutputTokens])
    if (typeof v === 'number' && v > 0) return v;
  return undefined;
}

/**
 * The tokens an answer reports, by kind, from its body: one JSON document or server-sent events.
 * Anthropic `usage` (input_tokens without cache reads and writes; in a stream message_start's and
 * message_delta's, cumulative), OpenAI chat `usage` (prompt_tokens with cached_tokens inside),
 * Responses `usage` (input_tokens with input_tokens_details.cached_tokens inside; in a stream the
 * response.completed event's), Gemini `usageMetadata` (promptTokenCount with cachedContentTokenCount
 * inside; thoughtsTokenCount is output; each chunk cumulative). In a stream each kind is taken from
 * the last event that reports it. Null when the body reports none.
 */
export function usageOfAnswer(text: string): TokenCounts | null {
  const found: Array<Partial<TokenCounts>> = [];
  for (const doc of jsonDocs(text)) collectUsage(doc, found, 0);
  if (!found.length) return null;
  const t: Partial<TokenCounts> = Object.assign({}, ...found);
  return {
    input: t.input ?? 0,
    output: t.output ?? 0,
    ...(t.cacheRead ? { cacheRead: t.cacheRead } : {}),
    ...(t.cacheWrite ? { cacheWrite: t.cacheWrite } : {}),
  };
}

/** Dollars for an answer's usage at a price, the long band applied when its prompt passes it. */
export function answerUsd(tokens: TokenCounts | null, price: ModelPrice): number {
  return estimateCostUsd(tokens, price, true) ?? 0;
}

function jsonDocs(text: string): unknown[] {
  const t = text.trim();
  if (!t) return [];
  try {
    return [JSON.parse(t)];
  } catch {
    const out: unknown[] = [];
    for (const line of t.split('\n')) {
      const l = line.startsWith('data:') ? line.slice(5).trim() : line.trim();
      if (!l.startsWith('{')) continue;
      try {
        out.push(JSON.parse(l));
      } catch {
        // a partial line or not JSON
      }
    }
    return out;
  }
}

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const has = (o: Record<string, unknown>, k: string) => typeof o[k] === 'number';

function collectUsage(v: unknown, out: Array<Partial<TokenCounts>>, depth: number): void {
  if (!v || typeof v !== 'object' || depth > 4) return;
  const o = v as Record<string, unknown>;
  const u = o.usageMetadata as Record<string, unknown> | undefined;
  if (u && typeof u === 'object') {
    const cached = n(u.cachedContentTokenCount);
    out.push({
      input: Math.max(0, n(u.promptTokenCount) - cached),
      output: n(u.candidatesTokenCount) + n(u.thoughtsTokenCount),
      cacheRead: cached,
    });
  }
  const usage = o.usage as Record<string, unknown> | undefined;
  if (usage && typeof usage === 'object') out.push(usageTokens(usage));
  for (const key of ['message', 'response']) collectUsage(o[key], out, depth + 1);
}

/** Anthropic, chat completions or Responses usage, by kind, each token once: the kinds it reports. */
function usageTokens(u: Record<string, unknown>): Partial<TokenCounts> {
  if (has(u, 'prompt_tokens')) {
    const cached = n((u.prompt_tokens_details as Record<string, unknown> | undefined)?.cached_tokens);
    return { input: Math.max(0, n(u.prompt_tokens) - cached), output: n(u.completion_tokens), cacheRead: cached };
  }
  const details = u.input_tokens_details as Record<string, unknown> | undefined;
  if (details) {
    // Responses: input_tokens includes the cached ones.
    const cached = n(details.cached_tokens);
    return { input: Math.max(0, n(u.input_tokens) - cached), output: n(u.output_tokens), cacheRead: cached };
  }
  // Anthropic: input_tokens excludes cache reads and writes; a message_delta may carry output_tokens alone.
  const t: Partial<TokenCounts> = {};
  if (has(u, 'input_tokens')) t.input = n(u.input_tokens);
  if (has(u, 'output_tokens')) t.output = n(u.output_tokens);
  if (has(u, 'cache_read_input_tokens')) t.cacheRead = n(u.cache_read_input_tokens);
  if (has(u, 'cache_creation_input_tokens')) t.cacheWrite = n(u.cache_creation_input_tokens);
  return t;
}

/** A request the budget refused: the run's spend reached the cap, or its model has no price. */
export class BudgetRefusal extends Error {
  override name = 'BudgetRefusal';
}

/** An admitted model request: settled with its answer's usage (null when it never answered). */
export interface MeteredTicket {
  settle(tokens: TokenCounts | null): void;
}

/**
 * A fetch that passes every model request through the lease: admitted before it is sent (or
 * refused with a BudgetRefusal), charged with its answer's usage once the answer has come.
 */
export function meteredFetch(inner: typeof globalThis.fetch, lease: BudgetLease): typeof globalThis.fetch {
  return (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const text = typeof init?.body === 'string' ? init.body : '';
    const ticket = await admitRequest(lease, url, text);
    let res: Response;
    try {
      res = await inner(input, init);
    } catch (err) {
      ticket.settle(null);
      throw err;
    }
    res
      .clone()
      .text()
      .then(
        (answer) => ticket.settle(usageOfAnswer(answer)),
        () => ticket.settle(null),
      );
    return res;
  }) as typeof globalThis.fetch;
}

/**
 * Admits one model request (its URL and JSON body) under the lease and every lease it is chained
 * to, each pricing it by the model it names (body `model`, or a Gemini URL's models/<id>); throws a
 * BudgetRefusal when it may not be sent.
 */
export async function admitRequest(lease: BudgetLease, url: string, text: string): Promise<MeteredTicket> {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not a JSON request: priced by its URL's model, if any
  }
  const model = typeof body.model === 'string' ? body.model : /\/models\/([^:/?]+)[:?]/.exec(url)?.[1];
  const admitted: Array<{ ticket: RequestTicket; price: ModelPrice }> = [];
  const settleAll = (tokens: TokenCounts | null) => {
    for (const a of admitted) a.ticket.settle(tokens ? answerUsd(tokens, a.price) : 0);
  };
  for (const link of lease.chain()) {
    const price = link.priceOf(model);
    if (!price) {
      settleAll(null);
      throw new BudgetRefusal(
        `model ${model ?? '(unnamed)'} has no price: under --budget-usd no request is sent for it`,
      );
    }
    const ticket = await link.admit(
      requestWorstUsd(price, Buffer.byteLength(text), outputLimitOf(body), model, link.table),
    );
    if (!ticket) {
      settleAll(null);
      throw new BudgetRefusal(link.stopped ?? lease.stopped ?? "the run's budget was reached");
    }
    admitted.push({ ticket, price });
  }
  return { settle: settleAll };
}

/**
 * The egress proxy's meter for a CLI agent (sandbox/egress-proxy.ts): each model call (Anthropic
 * messages, OpenAI responses and chat, Gemini generateContent) through the lease; other requests pass.
 */
export function egressMeter(lease: BudgetLease): {
  admit(target: string, body: Buffer): Promise<{ answered(text: string): void; failed(): void } | null>;
} {
  return {
    admit: async (target, body) => {
      if (!MODEL_CALL.test(target)) return null;
      const ticket = await admitRequest(lease, target, body.toString('utf8'));
      return {
        answered: (text) => ticket.settle(usageOfAnswer(text)),
        failed: () => ticket.settle(null),
      };
    },
  };
}

/** The paths of model calls: Anthropic messages, OpenAI responses and chat, Gemini generateContent. */
export const MODEL_CALL = /\/(messages|responses|chat\/completions)(\/|\?|$)|:(stream)?generateContent\b/i;
