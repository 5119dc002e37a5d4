// What an agent's tokens cost, estimated from a price table kept here (USD per million tokens,
// dated; a config's `prices` overrides or extends it, keyed by model-name prefix). Tokens are
// counted by kind, as the providers bill them: input not read from a cache, cache reads, cache
// writes, and output (reasoning and thinking tokens are output). An estimate: batch discounts,
// long-context surcharges (Gemini 2.5 Pro and Claude above 200k tokens) and 1-hour cache writes
// are not modelled; Claude Code's own total_cost_usd is kept beside it as a cross-check.
//
// Sources (list prices as published, read 2026-03): Anthropic's pricing page (docs.anthropic.com/
// en/docs/about-claude/pricing: base input, 5-minute cache writes 1.25×, cache hits 0.1×, output),
// OpenAI's (developers.openai.com/api/docs/pricing: input, cached input, output; cache writes are
// not charged extra), Google's (ai.google.dev/gemini-api/docs/pricing: input, output, context
// caching; prompts up to 200k tokens).

export const PRICES_AS_OF = '2026-03';

/** USD per million tokens. cacheRead and cacheWrite default to input's. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Tokens by kind: `input` is the input NOT read from a cache (the providers' totals include cache reads; this does not). */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** By model-name prefix; the longest matching prefix wins (claude-opus-4-5 before claude-opus-4). */
export const PRICES: Record<string, ModelPrice> = {
  // Anthropic
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4-6': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  // OpenAI
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5.1': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5.2': { input: 1.75, output: 14, cacheRead: 0.175 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25 },
  'gpt-5-pro': { input: 15, output: 120 },
  o3: { input: 2, output: 8, cacheRead: 0.5 },
  'o3-pro': { input: 20, output: 80 },
  'o4-mini': { input: 1.1, output: 4.4, cacheRead: 0.275 },
  // Google
  'gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.03 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.01 },
};

/** The model name an agent kind asks for (builtin:anthropic/claude-sonnet-4-5 → claude-sonnet-4-5), if it names one. */
export function modelOfKind(kind: string): string | undefined {
  const m = /^(?:builtin|llm-player|cli:[\w-]+)[:/](?:(?:openai|openai-compatible|anthropic|google)\/)?(.+)$/.exec(
    kind,
  );
  return m?.[1]?.replace(/^models\//, '');
}

/** The price of a model: the longest matching prefix of the table (config `prices` first), or undefined. */
export function priceOf(model: string | undefined, overrides: Record<string, ModelPrice> = {}): ModelPrice | undefined {
  if (!model) return undefined;
  const name = model.toLowerCase().split('/').pop()!;
  const table = { ...PRICES, ...Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k.toLowerCase(), v])) };
  const key = Object.keys(table)
    .filter((p) => name.startsWith(p))
    .sort((a, b) => b.length - a.length)[0];
  return key ? table[key] : undefined;
}

/** Estimated USD for tokens at a price; null when the model has no price. */
export function estimateCostUsd(tokens: TokenCounts | null | undefined, price: ModelPrice | undefined): number | null {
  if (!tokens || !price) return null;
  const usd =
    tokens.input * price.input +
    tokens.output * price.output +
    (tokens.cacheRead ?? 0) * (price.cacheRead ?? price.input) +
    (tokens.cacheWrite ?? 0) * (price.cacheWrite ?? price.input);
  return usd / 1_000_000;
}

/** Adds b's counts into a (both by kind). */
export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  a.input += b.input;
  a.output += b.output;
  if (b.cacheRead) a.cacheRead = (a.cacheRead ?? 0) + b.cacheRead;
  if (b.cacheWrite) a.cacheWrite = (a.cacheWrite ?? 0) + b.cacheWrite;
  return a;
}

/** "1200 input + 300 cache read + 40 cache write + 500 output tokens" (the kinds present). */
export function tokenWords(t: TokenCounts): string {
  return [
    `${t.input} input`,
    ...(t.cacheRead ? [`${t.cacheRead} cache read`] : []),
    ...(t.cacheWrite ? [`${t.cacheWrite} cache write`] : []),
    `${t.output} output tokens`,
  ].join(' + ');
}
