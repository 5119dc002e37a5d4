// What an agent's tokens cost, estimated from the model table (agents/core/models.json, dated and
// sourced per family; a config's `prices` overrides or extends it, keyed by model id: the id
// itself or with a snapshot suffix, never a longer name, as the table matches).
// Tokens are counted by kind, as the providers bill them: input not read from a cache, cache
// reads, cache writes, and output (reasoning and thinking tokens are output). An estimate: batch
// discounts and 1-hour cache writes are not modelled; long-context bands (the table's `long`) are
// applied where a request's prompt is known to pass them; Claude Code's own total_cost_usd is kept
// beside it as a cross-check.
import {
  isModelOrSnapshot,
  lookupModel,
  MODEL_TABLE,
  MODEL_TABLE_AS_OF,
  modelId,
  type ModelPrice,
  type ModelTable,
} from './models.ts';

export type { ModelPrice } from './models.ts';

/** The model table's date (the report prints it). */
export const PRICES_AS_OF = MODEL_TABLE_AS_OF;

/** Tokens by kind: `input` is the input NOT read from a cache (the providers' totals include cache reads; this does not). */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * The price of a model: config `prices` first (its key is the model's id, or the id without a
 * snapshot suffix; the longest such key wins), else the model table's entry (by id, a snapshot
 * suffix at most, or a documented alias: gpt-5-pro is never priced as gpt-5), else undefined.
 * `table`: the run's model table (its config's `models:` over the shipped one).
 */
export function priceOf(
  model: string | undefined,
  overrides: Record<string, ModelPrice> = {},
  table: ModelTable = MODEL_TABLE,
): ModelPrice | undefined {
  if (!model) return undefined;
  const name = modelId(model);
  const own = Object.keys(overrides)
    .filter((p) => isModelOrSnapshot(name, modelId(p)))
    .sort((a, b) => b.length - a.length)[0];
  if (own) return overrides[own];
  return lookupModel(name, table)?.price ?? undefined;
}

/** What to add to a config so a model has a price (the message of a run refused for want of one). */
export function pricesEntryFor(model: string): string {
  return `prices: { ${modelId(model)}: { input: <USD per million>, output: <USD per million>, cacheRead: <…> } }`;
}

/**
 * Estimated USD for tokens at a price; null when the model has no price. `onePrompt`: the tokens
 * are one request's, so a long-context band applies when its prompt passes the band's threshold
 * (sums over many requests are priced at the base band: an under-estimate for long prompts).
 */
export function estimateCostUsd(
  tokens: TokenCounts | null | undefined,
  price: ModelPrice | undefined,
  onePrompt = false,
): number | null {
  if (!tokens || !price) return null;
  const prompt = tokens.input + (tokens.cacheRead ?? 0) + (tokens.cacheWrite ?? 0);
  const p = onePrompt && price.long && prompt > price.long.aboveInputTokens ? price.long : price;
  const usd =
    tokens.input * p.input +
    tokens.output * p.output +
    (tokens.cacheRead ?? 0) * (p.cacheRead ?? p.input) +
    (tokens.cacheWrite ?? 0) * (p.cacheWrite ?? p.input);
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
