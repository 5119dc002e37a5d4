// Why an agent's round produced no working bot, named so that a build log, a report and a user can
// tell a wrong key from a rate limit, a broken stream, a prompt too long, a spent budget, a bot
// never written and a bot that failed its check. Agents classify what they saw; the orchestrator
// records the name with the failed build.

export type BuildFailureReason = 'auth' | 'rate_limited' | 'server_error' | 'context_length' | 'budget' | 'no_bot' | 'invalid_bot' | 'agent_error';

export const FAILURE_WORDS: Record<BuildFailureReason, string> = {
  auth: 'the LLM endpoint refused the API key',
  rate_limited: 'the LLM endpoint kept rate-limiting the agent',
  server_error: 'the LLM endpoint failed (a server error or a broken stream)',
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

// Provider error texts, as OpenAI, Anthropic and Google word them (and the CLIs that relay them).
const CONTEXT = /context[_ ]length|maximum context|context window|prompt is too long|too many tokens|exceeds the (maximum|model'?s)|input (is )?too long|token limit/i;
const AUTH = /\b(401|403)\b|unauthori[sz]ed|invalid[_ ]?(x-)?api[_ -]?key|incorrect api key|authentication|permission[_ ]denied|api key not valid/i;
const RATE = /\b429\b|rate[_ -]?limit|too many requests|resource[_ ]exhausted|quota/i;
const SERVER = /\b5\d\d\b|overloaded|internal server error|bad gateway|service unavailable|terminated|socket hang up|ECONNRESET|other side closed|stream (ended|closed|error)|premature close|unexpected end|connection (reset|closed)|failed to process successful response/i;

/**
 * The reason an LLM call's failure stands for, from its HTTP status where known and its text
 * otherwise; null when it names none. A context-length error is often a 400, so it comes first.
 */
export function classifyLlmError(text: string, status?: number): BuildFailureReason | null {
  if (CONTEXT.test(text)) return 'context_length';
  // Google answers a bad key with 400 INVALID_ARGUMENT "API key not valid": the text decides too.
  if (status === 401 || status === 403 || AUTH.test(text)) return 'auth';
  if (status === 429 || RATE.test(text)) return 'rate_limited';
  // An error on a 2xx answer is a response that broke off (a dropped stream, a truncated body).
  if (status !== undefined ? status >= 500 || status < 300 : SERVER.test(text)) return 'server_error';
  return null;
}

/** "auth: the LLM endpoint refused the API key — HTTP 401 …": how a failed build reads. */
export function describeFailure(f: BuildFailure): string {
  return `${f.reason}: ${FAILURE_WORDS[f.reason]}${f.detail ? ` — ${f.detail}` : ''}`;
}
