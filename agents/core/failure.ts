// Why an agent's round produced no working bot, named so that a build log, a report and a user can
// tell a wrong key from a rate limit, a broken stream, a prompt too long, a spent budget, a bot
// never written and a bot that failed its check. Agents classify what they saw; the orchestrator
// records the name with the failed build.

export type BuildFailureReason =
  | 'auth'
  | 'billing'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'context_length'
  | 'budget'
  | 'no_bot'
  | 'invalid_bot'
  | 'agent_error';

export const FAILURE_WORDS: Record<BuildFailureReason, string> = {
  auth: 'the LLM endpoint refused the API key',
  billing: 'the LLM account has no credit or quota left (billing)',
  rate_limited: 'the LLM endpoint kept rate-limiting the agent',
  server_error: 'the LLM endpoint failed (a server error or a broken stream)',
  timeout: 'an LLM request got no answer in time (a client timeout)',
  context_length: "a request exceeded the model's context length",
  budget: 'the budget (tokens, steps or time) ran out before a working bot',
  no_bot: 'the agent wrote no bot (no start_ai.sh)',
  invalid_bot: 'the bot failed the entry check',
  agent_error: 'the agent failed',
};

/** What an agent reports when it gives up: the reason and what was seen, in one line. */
export interface BuildFailure {
  reason: BuildFailureReason;
  detail: string;
}

/**
 * Reasons another attempt cannot cure: the same key, account and prompt size would fail again at
 * once (a CLI behind the proxy would retry a 401 for minutes first). An agent stops its attempts.
 */
export const FINAL_REASONS: ReadonlySet<BuildFailureReason> = new Set(['auth', 'billing', 'context_length']);

// Provider error texts, as OpenAI, Anthropic and Google word them (and the CLIs that relay them).
// Billing, as the providers answer it: Anthropic a 400 invalid_request_error "Your credit balance
// is too low to access the Anthropic API" (anthropics/claude-code#4684, #66314;
// anthropic-sdk-typescript#618) or a 402 billing_error; OpenAI a 429 with type and code
// insufficient_quota, "You exceeded your current quota, please check your plan and billing
// details" (openai error codes guide; e.g. Pythagora-io/gpt-pilot#340), which is no rate limit:
// waiting does not help. Timeouts: undici's fetch gives up on a response whose headers take
// longer than its headersTimeout (300 s) with "Headers Timeout Error" / UND_ERR_HEADERS_TIMEOUT
// (nodejs/undici#2235), and its body with UND_ERR_BODY_TIMEOUT.
// Not "exceeded your current quota" alone: the Gemini API words its per-minute 429s that way too
// (RESOURCE_EXHAUSTED with a RetryInfo wait), and those pass.
// Codex relays insufficient_quota as "Quota exceeded. Check your plan and billing details." (its
// CodexErr::QuotaExceeded, chosen by codex-rs sse/responses.rs is_quota_exceeded_error): the
// sentence decides: Gemini words its per-minute 429s "You exceeded your current quota, please
// check your plan and billing details" too, and those pass.
// The Gemini API's billing failures are 429 RESOURCE_EXHAUSTED too, told apart by their words: a
// project without billing asking for a model with no free tier has every free-tier quota at
// "limit: 0" ("Quota exceeded for metric: …generate_content_free_tier_requests, limit: 0, model:
// gemini-2.5-pro", continuedev/continue#10062, google-gemini/gemini-cli#22486: no wait helps); a
// prepaid project out of credit is "Your prepayment credits are depleted" (dyad-sh/dyad#3626); a
// Google Cloud project with billing off, ErrorInfo reason BILLING_DISABLED.
const BILLING =
  /\b402\b|credit balance is too low|insufficient[_ ]quota|billing[_ ]error|payment[_ ]required|spend(ing)? limit|usage limits|quota exceeded\. check your plan and billing|_free_tier_[a-z_]+, limit: 0\b|prepayment credits are depleted|billing[_ ]disabled/i;
const TIMEOUT =
  /UND_ERR_(HEADERS|BODY)_TIMEOUT|headers timeout error|body timeout error|ETIMEDOUT|request timed out|timed out waiting/i;
const CONTEXT =
  /context[_ ]length|maximum context|context window|prompt is too long|too many tokens|exceeds the (maximum|model'?s)|input (is )?too long|token limit/i;
const AUTH =
  /\b(401|403)\b|unauthori[sz]ed|invalid[_ ]?(x-)?api[_ -]?key|incorrect api key|authentication|permission[_ ]denied|api key not valid/i;
const RATE = /\b429\b|rate[_ -]?limit|too many requests|resource[_ ]exhausted|quota/i;
const SERVER =
  /\b5\d\d\b|overloaded|internal server error|bad gateway|service unavailable|terminated|socket hang up|ECONNRESET|other side closed|stream (ended|closed|error)|premature close|unexpected end|connection (reset|closed)|failed to process successful response/i;

/**
 * The reason an LLM call's failure stands for, from its HTTP status where known and its text
 * otherwise; null when it names none. A context-length error is often a 400, so it comes first.
 */
export function classifyLlmError(text: string, status?: number): BuildFailureReason | null {
  if (CONTEXT.test(text)) return 'context_length';
  if (status === 402 || BILLING.test(text)) return 'billing';
  // Google answers a bad key with 400 INVALID_ARGUMENT "API key not valid": the text decides too.
  if (status === 401 || status === 403 || AUTH.test(text)) return 'auth';
  if (status === 429 || RATE.test(text)) return 'rate_limited';
  if (TIMEOUT.test(text)) return 'timeout';
  // An error on a 2xx answer is a response that broke off (a dropped stream, a truncated body).
  if (status !== undefined ? status >= 500 || status < 300 : SERVER.test(text)) return 'server_error';
  return null;
}

/** "auth: the LLM endpoint refused the API key — HTTP 401 …": how a failed build reads. */
export function describeFailure(f: BuildFailure): string {
  return `${f.reason}: ${FAILURE_WORDS[f.reason]}${f.detail ? ` — ${f.detail}` : ''}`;
}
