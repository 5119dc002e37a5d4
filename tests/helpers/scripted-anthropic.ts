// A scripted Anthropic Messages API server on 127.0.0.1 for driving Anthropic clients in tests
// (Claude Code, the AI SDK's @ai-sdk/anthropic, the LLM-player's plain fetch). The script model is
// that of scripted-llm.ts (a turn is tool calls, a final text, or an HTTP error; usage; delayMs),
// so tests read alike; the wire is Anthropic's. Shapes, as looked up in the public reference:
//   - POST /v1/messages (platform.claude.com/docs/en/api/messages/create; the TypeScript SDK's
//     src/resources/messages/messages.ts): body {model, max_tokens, messages, system?, tools?,
//     stream?, …}; messages are {role: 'user'|'assistant', content: string | blocks}, blocks `text`,
//     `tool_use` {id, name, input}, `tool_result` {tool_use_id, content, is_error?}; tools are
//     {name, description?, input_schema}. Answer: {id: 'msg_…', type: 'message', role: 'assistant',
//     model, content: blocks, stop_reason: 'tool_use' | 'end_turn', stop_sequence: null, usage:
//     {input_tokens, output_tokens, cache_creation_input_tokens, cache_read_input_tokens}}; "total
//     input tokens in a request is the summation of input_tokens, cache_creation_input_tokens and
//     cache_read_input_tokens" (SDK Usage doc).
//   - stream: true (platform.claude.com/docs/en/build-with-claude/streaming): server-sent events,
//     each `event: <type>` + `data: {"type": <type>, …}`: message_start (the message with empty
//     content), per content block content_block_start / content_block_delta (text_delta {text},
//     input_json_delta {partial_json}) / content_block_stop, message_delta {delta: {stop_reason,
//     stop_sequence}, usage} whose counts are cumulative (SDK MessageDeltaUsage: output_tokens and
//     the cumulative input counts), message_stop; any number of `ping` events.
//   - errors (docs.claude.com/en/api/errors): {type: 'error', error: {type, message}, request_id},
//     400 invalid_request_error, 401 authentication_error, 403 permission_error, 404
//     not_found_error, 413 request_too_large, 429 rate_limit_error, 500 api_error, 529
//     overloaded_error; every response has a `request-id` header.
//   - POST /v1/messages/count_tokens (platform.claude.com/docs/en/api/messages/count_tokens):
//     {input_tokens}; GET /v1/models (platform.claude.com/docs/en/api/models-list; SDK
//     src/resources/models.ts and its Page): newest first, paged by limit (1-1000, default 20),
//     after_id, before_id: {data: [{type: 'model', id, display_name, created_at}], has_more,
//     first_id, last_id}; GET /v1/models/{id} takes an id or an alias (models/retrieve).
//   - an unknown model: 404 not_found_error "model: <id>" (as relayed verbatim by clients, e.g.
//     `API Error: 404 {"type":"error","error":{"type":"not_found_error","message":"model:
//     claude-haiku-4-5"}}`); the server knows the real ids (CLAUDE_MODELS) unless told others.
// The server checks what the API checks and a client can get wrong: x-api-key present and equal to
// `apiKey` (default SCRIPTED_ANTHROPIC_KEY; tests/helpers/provider-keys.ts); anthropic-version present; model, max_tokens
// and messages present; every tool_use answered by a tool_result in the next user message. Every
// request is recorded with its headers (x-api-key, anthropic-version, anthropic-beta, user-agent…).
// Side requests (a client's quick calls beside the conversation: a title, a quota probe) are told
// apart by `side`; they are answered without consuming the script and recorded as side requests.
// Observed from Claude Code 2.1.197 (headless, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1): every
// request is a streamed POST /v1/messages with its tools (no side requests, no count_tokens, no
// model list); headers x-api-key, anthropic-version 2023-06-01, anthropic-beta (claude-code-20250219,
// …, mid-conversation-system-2026-04-07), user-agent claude-cli/<version>, x-app cli; its subagents
// (the Agent tool) are conversations of their own with their own tools. Claude Code 2.1.332 the same,
// except: the anthropic-beta flags (mid-conversation-tool-changes-2026-07-01 and
// thinking-display-updates-2026-08-18 among them, no mid-conversation-system flag), a role 'system'
// message after the first user turn, thinking {type: 'adaptive', display: 'updates'}, and a
// subagent run in the background whose answer comes back to the main conversation as a
// task notification (one more turn).
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { anthropicRefusal, anthropicTakesSystemMessages, thinks } from './model-rules.js';
import type { ModelTable } from '../../agents/core/models.ts';
import { anthropicKeyRefusal, SCRIPTED_ANTHROPIC_KEY } from './provider-keys.js';
import { scriptedServer } from './scripted-server.js';

export { SCRIPTED_ANTHROPIC_KEY };

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** One answer, as in scripted-llm.ts; delayMs holds it back (to test timeouts). */
export type ScriptTurn = { delayMs?: number } & (
  | ({ toolCalls: Array<{ name: string; args: unknown }>; text?: string; usage?: AnthropicUsage } & AnswerExtras)
  | ({ text: string; usage?: AnthropicUsage } & AnswerExtras)
  /**
   * An HTTP error in the API's shape. A 429 gets `retry-after` (seconds; default 1, kept short so a
   * CLI that honours it does not stall a test) and the anthropic-ratelimit-* headers unless
   * `headers` says otherwise; `headers` are added to (or override) what the server sends.
   */
  | { httpError: number; message: string; errorType?: string; headers?: Record<string, string>; retryAfter?: number }
  /**
   * A 200 stream that breaks off: message_start, the text so far, then an `error` event
   * ({type: 'error', error: {type, message}}; default overloaded_error "Overloaded") and the end.
   * Asked without streaming, the 200 body is cut off after its first bytes instead.
   */
  | { streamError: { type?: string; message?: string }; text?: string }
);

/** What an answer can carry besides its text and tool calls. */
interface AnswerExtras {
  /** stop_reason other than the natural one (tool_use / end_turn): max_tokens or refusal. */
  stopReason?: 'max_tokens' | 'refusal' | 'end_turn' | 'stop_sequence' | 'pause_turn';
  /**
   * A thinking block first, with a signature, when the request thinks: it enables thinking
   * (body.thinking {type: 'enabled' | 'adaptive'}) or its model thinks by default (the model
   * table's thinksByDefault: Claude Sonnet 5, Opus 5, …). The client must send it back unchanged
   * in the assistant turn of its next (tool-result) request, or gets the API's 400. A model that
   * thinks by default thinks without being scripted to: "(thinking)".
   */
  thinking?: string;
  /**
   * Thinking tokens, counted toward max_tokens and billed as output (default DEFAULT_THINKING_TOKENS).
   * When they reach max_tokens the answer is all thinking: stop_reason max_tokens, no text.
   */
  thinkingTokens?: number;
}

/** A thinking model's thinking on a turn the script does not size: more than the LLM-player's old 256-token answer. */
export const DEFAULT_THINKING_TOKENS = 400;

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content?: string | Array<{ type: string; text?: string }>;
      is_error?: boolean;
    }
  | { type: string; [k: string]: unknown };

/** The blocks this server answers with. */
type AnswerBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string };

export interface AnthropicMessage {
  role: 'user' | 'assistant' | 'system';
  content: string | ContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema?: unknown;
  type?: string;
}

export interface ScriptedRequest {
  index: number;
  /** A side request (see options.side): answered without consuming the script. */
  side: boolean;
  model: string;
  maxTokens: number;
  stream: boolean;
  system: string;
  messages: AnthropicMessage[];
  tools: AnthropicTool[];
  /** Every request header (lower-case names), as received. */
  headers: Record<string, string>;
  /** The anthropic-beta header split into its flags. */
  betas: string[];
  body: Record<string, unknown>;
  /** When it arrived (Date.now()), to see a client wait what a 429 asked. */
  receivedAt: number;
  /** What was answered (null for HTTP errors, or before the answer was sent). */
  usage: Required<AnthropicUsage> | null;
  turn: ScriptTurn | null;
}

/** A request to any other route (count_tokens, models, unknown ones): recorded as it came. */
export interface OtherRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  status: number;
}

export type Script = ScriptTurn[] | ((request: ScriptedRequest) => ScriptTurn | undefined);

export interface ScriptedAnthropicOptions {
  /**
   * The key the client must send as x-api-key (default SCRIPTED_ANTHROPIC_KEY): none or another is
   * the API's 401 authentication_error. An API key sent as Authorization: Bearer is refused as the
   * API refuses it ("OAuth authentication is currently not supported."), unless `acceptBearer` (an
   * auth-token proxy).
   */
  apiKey?: string;
  /** Take Authorization: Bearer as the key too (an auth-token gateway); it must still be `apiKey`. */
  acceptBearer?: boolean;
  /**
   * The model ids the API serves, newest first (GET /v1/models lists them; POST /v1/messages takes
   * them, and CLAUDE_ALIASES' aliases of them). Any other model gets 404 not_found_error
   * "model: <name>", as the real API answers. Default: CLAUDE_MODELS, the real ids.
   */
  knownModels?: string[];
  /** Tells side requests apart and answers them (default: none are side requests). */
  side?: (request: ScriptedRequest) => ScriptTurn | undefined;
  /** Refuse stream:true with a 400, so a client that must not stream is seen streaming. */
  noStreaming?: boolean;
  /**
   * The families whose rules the server holds each model to (default MODEL_TABLE): a run's
   * `models:` entries over it make this the provider of a model the shipped table does not know.
   */
  modelTable?: ModelTable;
}

export interface ScriptedAnthropic {
  /** The origin, e.g. http://127.0.0.1:41234: Anthropic's SDKs (and Claude Code) add /v1/messages. */
  baseURL: string;
  /** baseURL + /v1, for clients that take the versioned base and add /messages (the AI SDK, the LLM-player). */
  v1URL: string;
  /** Every POST /v1/messages, main and side, in arrival order. */
  requests: ScriptedRequest[];
  /** Every other request. */
  others: OtherRequest[];
  /** Sum of the usage answered (input = input + cache creation + cache reads, as Anthropic bills). */
  totalUsage(filter?: (r: ScriptedRequest) => boolean): {
    input: number;
    output: number;
    cacheRead?: number;
    cacheWrite?: number;
  };
  close(): Promise<void>;
}

/**
 * The Claude models the real API serves, by id, newest first (GET /v1/models: "More recently
 * released models are listed first"). The ids are those of the Anthropic TypeScript SDK's `Model`
 * union (src/resources/messages/messages.ts) and @ai-sdk/anthropic 3.0.138's
 * AnthropicMessagesModelId, without the retired ones (Claude Sonnet 4 and Opus 4 retired
 * 2026-06-15, platform.claude.com model deprecations) and the limited-access previews (Mythos);
 * the models overview gives a dated id for the 4.5 models and the model name itself as the id from
 * Opus 4.6 on. created_at is not modelled (one date for all).
 */
export const CLAUDE_MODELS: readonly string[] = [
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'claude-fable-5-1',
  'claude-sonnet-5',
  'claude-opus-5',
  'claude-fable-5',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-sonnet-4-6',
  'claude-opus-4-6',
  'claude-opus-4-5-20251101',
  'claude-haiku-4-5-20251001',
  'claude-sonnet-4-5-20250929',
];

/** Aliases the API resolves to a dated id (the models overview's "Claude API alias" row). */
export const CLAUDE_ALIASES: Readonly<Record<string, string>> = {
  'claude-opus-4-5': 'claude-opus-4-5-20251101',
  'claude-haiku-4-5': 'claude-haiku-4-5-20251001',
  'claude-sonnet-4-5': 'claude-sonnet-4-5-20250929',
};

/** "claude-opus-4-6" → "Claude Opus 4.6"; "claude-sonnet-4-5-20250929" → "Claude Sonnet 4.5". */
function displayName(id: string): string {
  const m = /^claude-([a-z]+)-(\d+)(?:-(\d))?(?:-\d{8})?$/.exec(id);
  return m ? `Claude ${m[1]![0]!.toUpperCase()}${m[1]!.slice(1)} ${m[2]}${m[3] ? `.${m[3]}` : ''}` : id;
}

/** A ModelInfo of GET /v1/models and /v1/models/{id} (platform.claude.com/docs/en/api/models-list). */
const modelInfo = (id: string) => ({
  type: 'model',
  id,
  display_name: displayName(id),
  created_at: '2025-01-01T00:00:00Z',
});

/** Assistant turns already in a request: the step index within one conversation. */
export function stepOf(request: ScriptedRequest): number {
  return request.messages.filter((m) => m.role === 'assistant').length;
}

/** A script replayed from step 0 in every new conversation (so each retry sees the same turns). */
export function perConversation(turns: ScriptTurn[]): Script {
  return (req) => turns[stepOf(req)];
}

const blocks = (m: AnthropicMessage): ContentBlock[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
const textOf = (c: unknown): string =>
  typeof c === 'string'
    ? c
    : Array.isArray(c)
      ? c.map((b) => (typeof b === 'string' ? b : typeof b?.text === 'string' ? b.text : '')).join('')
      : '';

/** Text of the tool results the model was sent in a request (all user messages). */
export function toolResults(request: ScriptedRequest): string[] {
  return request.messages
    .filter((m) => m.role === 'user')
    .flatMap(blocks)
    .filter((b): b is Extract<ContentBlock, { type: 'tool_result' }> => b.type === 'tool_result')
    .map((b) => textOf(b.content));
}

/** Text of the request's last user message (its text blocks). */
export function lastUserText(request: ScriptedRequest): string {
  const last = [...request.messages].reverse().find((m) => m.role === 'user');
  return last
    ? blocks(last)
        .filter((b) => b.type === 'text')
        .map((b) => String((b as { text?: string }).text ?? ''))
        .join('\n')
    : '';
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  402: 'billing_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};
const errorType = (status: number) => ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');

const approxTokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
const id = (prefix: string) => `${prefix}_01${randomBytes(12).toString('hex')}`;

/** The turn's usage, or one approximated from the request and the answer (about 4 characters a token). */
function usageOf(record: ScriptedRequest, turn: ScriptTurn, answer: unknown): Required<AnthropicUsage> {
  const u = ('usage' in turn && turn.usage) || {
    input_tokens: approxTokens(record.system) + approxTokens(record.messages) + approxTokens(record.tools),
    output_tokens: approxTokens(answer) + 3,
  };
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
  };
}

/**
 * A 429's headers: retry-after in seconds (the errors page: "wait that many seconds"), and the
 * anthropic-ratelimit-* family as the API sends it (…-requests-limit/-remaining/-reset,
 * …-tokens-*, …-input-tokens-*, …-output-tokens-*; resets RFC 3339; seen in recorded responses,
 * e.g. tidyllm's test fixtures, and anthropic-sdk-typescript#357).
 */
function rateLimitHeaders(retryAfter: number): Record<string, string> {
  const reset = new Date(Date.now() + retryAfter * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const h: Record<string, string> = { 'retry-after': String(retryAfter) };
  for (const [kind, limit] of [
    ['requests', 50],
    ['tokens', 48_000],
    ['input-tokens', 40_000],
    ['output-tokens', 8_000],
  ] as const) {
    h[`anthropic-ratelimit-${kind}-limit`] = String(limit);
    h[`anthropic-ratelimit-${kind}-remaining`] = kind === 'requests' ? '0' : String(limit);
    h[`anthropic-ratelimit-${kind}-reset`] = reset;
  }
  return h;
}

/** Why the API would refuse this body (400), if it would. */
function invalid(body: Record<string, any>, betas: string[]): string | undefined {
  // Claude Code 2.1 sends role 'system' messages mid-conversation under its beta flag
  // mid-conversation-system-<date> (observed; see langchainjs' @langchain/anthropic 1.5.12 notes on
  // system messages in `messages`); without the flag the roles are user and assistant.
  // Mid-conversation system messages are GA since (no flag) on the models that take them; Claude
  // Code 2.1.332 sends them under mid-conversation-tool-changes-<date> only (observed).
  const roles =
    betas.some((b) => b.startsWith('mid-conversation-system-')) || anthropicTakesSystemMessages(String(body.model))
      ? ['user', 'assistant', 'system']
      : ['user', 'assistant'];
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required';
  if (!Array.isArray(body.messages) || !body.messages.length) return 'messages: at least one message is required';
  for (const [i, m] of (body.messages as AnthropicMessage[]).entries()) {
    if (!roles.includes(m?.role))
      return `messages.${i}.role: Input should be ${roles.map((r) => `'${r}'`).join(' or ')}`;
    // Placement (the mid-conversation system messages guide): never first, never two in a row, and
    // last or followed by an assistant turn. The API's own words are not in the references.
    const next = (body.messages as AnthropicMessage[])[i + 1];
    if (
      m.role === 'system' &&
      (i === 0 || body.messages[i - 1]?.role === 'system' || (next && next.role !== 'assistant'))
    )
      return `messages.${i}: a system message must follow a user or assistant turn and be last or followed by an assistant turn (scripted-anthropic: the API's own words are not in the references)`;
    if (typeof m.content !== 'string' && !Array.isArray(m.content))
      return `messages.${i}.content: Input should be a valid string or list`;
    const uses = blocks(m)
      .filter((b) => b.type === 'tool_use')
      .map((b) => (b as { id: string }).id);
    if (m.role === 'assistant' && uses.length) {
      const next = body.messages[i + 1] as AnthropicMessage | undefined;
      const answered = new Set(
        next?.role === 'user'
          ? blocks(next)
              .filter((b) => b.type === 'tool_result')
              .map((b) => (b as { tool_use_id: string }).tool_use_id)
          : [],
      );
      const missing = uses.filter((u) => !answered.has(u));
      if (missing.length)
        return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  if (body.tools !== undefined && !Array.isArray(body.tools)) return 'tools: Input should be a valid list';
  return undefined;
}

export async function startScriptedAnthropic(
  script: Script,
  options: ScriptedAnthropicOptions = {},
): Promise<ScriptedAnthropic> {
  const requests: ScriptedRequest[] = [];
  const others: OtherRequest[] = [];
  const served = [...(options.knownModels ?? CLAUDE_MODELS)];
  /** The id a model name stands for (itself, or an alias's id), if the API serves it. */
  const resolve = (name: string): string | undefined =>
    served.includes(name)
      ? name
      : CLAUDE_ALIASES[name] && served.includes(CLAUDE_ALIASES[name]!)
        ? CLAUDE_ALIASES[name]
        : undefined;
  const server = scriptedServer<ScriptedRequest, ScriptTurn>(script, (req, res, raw) => {
    const requestId = id('req');
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
    );
    const url = new URL(req.url ?? '/', 'http://x');
    let parsed: unknown = raw;
    try {
      parsed = raw ? JSON.parse(raw) : undefined;
    } catch {
      // kept as text
    }
    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...extra });
      res.end(JSON.stringify(body));
    };
    const fail = (status: number, message: string, type = errorType(status), extra: Record<string, string> = {}) =>
      send(status, { type: 'error', error: { type, message }, request_id: requestId }, extra);
    const other = (status: number, body: unknown) => {
      others.push({ method: req.method ?? '?', path: url.pathname, headers, body: parsed, status });
      if (status >= 400) fail(status, String(body));
      else send(status, body);
    };

    // Authentication first, as the API does (401 whatever the route; tests/helpers/provider-keys.ts).
    const refusedKey = anthropicKeyRefusal(headers, options.apiKey ?? SCRIPTED_ANTHROPIC_KEY, options.acceptBearer);
    if (refusedKey) return other(401, refusedKey);

    if (req.method === 'GET' && url.pathname === '/v1/models') {
      // Paged (the list reference): limit 1 to 1000, default 20; after_id / before_id are cursors
      // (the page right after / before that id); first_id and last_id name the page's ends (null
      // when it is empty), has_more whether more lie in the direction asked.
      const limitText = url.searchParams.get('limit');
      const limit = limitText === null ? 20 : Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        // A 400 invalid_request_error, as for any malformed request; the API's own words are not in the references.
        return other(400, `scripted-anthropic: limit must be 1 to 1000, not ${limitText}`);
      const after = url.searchParams.get('after_id');
      const before = url.searchParams.get('before_id');
      let page: string[];
      let hasMore: boolean;
      if (before !== null) {
        const end = Math.max(0, served.indexOf(before));
        page = served.slice(Math.max(0, end - limit), end);
        hasMore = end - limit > 0;
      } else {
        const start = after === null ? 0 : served.indexOf(after) + 1 || served.length;
        page = served.slice(start, start + limit);
        hasMore = start + limit < served.length;
      }
      return other(200, {
        data: page.map(modelInfo),
        has_more: hasMore,
        first_id: page[0] ?? null,
        last_id: page.at(-1) ?? null,
      });
    }
    const one = /^\/v1\/models\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      // "Model identifier or alias" (models/retrieve): an alias answers with the id it resolves to.
      const asked = decodeURIComponent(one[1]!);
      const resolved = resolve(asked);
      // An unknown one: the 404 not_found_error of POST /v1/messages ("model: <id>"); the retrieve's own wording is not in the references.
      return resolved ? other(200, modelInfo(resolved)) : other(404, `model: ${asked}`);
    }
    if (req.method !== 'POST' || (url.pathname !== '/v1/messages' && url.pathname !== '/v1/messages/count_tokens')) {
      return other(404, `Not found: ${req.method} ${url.pathname}`);
    }
    if (!headers['anthropic-version']) return other(400, 'anthropic-version: header is required');
    if (!parsed || typeof parsed !== 'object') return other(400, 'the request body is not valid JSON');
    const body = parsed as Record<string, any>;
    if (url.pathname === '/v1/messages/count_tokens') {
      if (!Array.isArray(body.messages)) return other(400, 'messages: Field required');
      return other(200, {
        input_tokens: approxTokens(body.system) + approxTokens(body.messages) + approxTokens(body.tools),
      });
    }

    const record: ScriptedRequest = {
      index: requests.length,
      side: false,
      model: String(body.model),
      maxTokens: Number(body.max_tokens),
      stream: body.stream === true,
      system: textOf(body.system),
      messages: Array.isArray(body.messages) ? body.messages : [],
      tools: Array.isArray(body.tools) ? body.tools : [],
      headers,
      betas: (headers['anthropic-beta'] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      body,
      receivedAt: Date.now(),
      usage: null,
      turn: null,
    };
    requests.push(record);
    const why = invalid(body, record.betas) ?? thinkingEchoed(body);
    if (why) return fail(400, why);
    if (!resolve(record.model)) return fail(404, `model: ${record.model}`);
    // What the model's family refuses (sampling, thinking form), always (tests/helpers/model-rules.ts).
    const refused = anthropicRefusal(resolve(record.model)!, body, options.modelTable);
    if (refused) return fail(400, refused);
    if (record.stream && options.noStreaming)
      return fail(400, 'scripted-anthropic: streaming was refused for this test');
    const sideTurn = options.side?.(record);
    let turn: ScriptTurn;
    if (sideTurn) {
      record.side = true;
      turn = sideTurn;
    } else {
      turn = server.nextTurn(record);
    }
    record.turn = turn;
    const go = () => {
      if (res.destroyed) return;
      if ('httpError' in turn)
        return fail(turn.httpError, turn.message, turn.errorType, {
          ...(turn.httpError === 429 ? rateLimitHeaders(turn.retryAfter ?? 1) : {}),
          ...turn.headers,
        });
      if ('streamError' in turn) {
        const error = {
          type: turn.streamError.type ?? 'overloaded_error',
          message: turn.streamError.message ?? 'Overloaded',
        };
        if (!record.stream) {
          // A body cut off after its first bytes (the connection drops mid-answer).
          res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
          res.write('{"id":"msg_01cut","type":"message","role":"assistant","content":[{"type":"te');
          setTimeout(() => res.destroy(), 20);
          return;
        }
        return brokenStream(record, turn.text ?? '', error, requestId, res);
      }
      const offered = new Set(record.tools.map((t) => t.name));
      const unknown = 'toolCalls' in turn ? turn.toolCalls.filter((c) => !offered.has(c.name)).map((c) => c.name) : [];
      if (unknown.length)
        return fail(
          500,
          `scripted-anthropic: the script calls ${unknown.join(', ')}, which the request does not offer (${[...offered].join(', ') || 'no tools'})`,
        );
      const content: AnswerBlock[] = [];
      const thinking = thinks(resolve(record.model)!, body, options.modelTable);
      if (thinking) content.push(signed(turn.thinking ?? '(thinking)'));
      // Thinking counts toward max_tokens: an answer that does not fit after it is cut off.
      const budget = body.thinking?.type === 'enabled' ? Number(body.thinking.budget_tokens) : Infinity;
      const thought = thinking ? Math.min(budget, turn.thinkingTokens ?? DEFAULT_THINKING_TOKENS) : 0;
      const cut = thought >= record.maxTokens;
      if (!cut) {
        if (turn.text) content.push({ type: 'text', text: turn.text });
        if ('toolCalls' in turn)
          for (const c of turn.toolCalls)
            content.push({ type: 'tool_use', id: id('toolu'), name: c.name, input: c.args ?? {} });
      }
      if (content[0]?.type === 'thinking') for (const b of content) if (b.type === 'tool_use') thoughtUses.add(b.id);
      record.usage = usageOf(
        record,
        turn,
        content.filter((b) => b.type !== 'thinking'),
      );
      // A script's own usage is taken as given (its output counts the thinking); else thinking is added.
      const scripted = 'usage' in turn && turn.usage;
      if (cut) record.usage.output_tokens = record.maxTokens;
      else if (!scripted) record.usage.output_tokens = Math.min(record.maxTokens, record.usage.output_tokens + thought);
      const message = {
        id: id('msg'),
        type: 'message',
        role: 'assistant',
        model: record.model,
        content,
        stop_reason: cut ? 'max_tokens' : (turn.stopReason ?? ('toolCalls' in turn ? 'tool_use' : 'end_turn')),
        stop_sequence: null,
        usage: record.usage,
      };
      if (record.stream) stream(message, requestId, res);
      else send(200, message);
    };
    server.answerAfter(turn.delayMs, go);
  });

  /** Thinking blocks answered, by signature: what the client must echo back unchanged. */
  const issued = new Map<string, string>();
  /** tool_use ids answered in a turn with a thinking block. */
  const thoughtUses = new Set<string>();
  function signed(thinking: string): AnswerBlock {
    const signature = randomBytes(48).toString('base64');
    issued.set(signature, thinking);
    return { type: 'thinking', thinking, signature };
  }

  /**
   * With thinking on, the last assistant turn that used tools (the one the tool results answer)
   * must start with its thinking block exactly as answered. The API's words (claude-code issues
   * #63250, #63335; lbjlaq/Antigravity-Manager#139; NousResearch/hermes-agent#24107):
   *   missing  → messages.N.content.0.type: Expected `thinking` or `redacted_thinking`, but found `…`. …
   *   changed  → messages.N.content.M: `thinking` or `redacted_thinking` blocks in the latest
   *              assistant message cannot be modified. These blocks must remain as they were in the original response.
   *   bad sig  → Invalid signature in thinking block
   */
  function thinkingEchoed(body: Record<string, any>): string | undefined {
    if (!thinks(resolve(String(body.model)) ?? String(body.model), body, options.modelTable) || !issued.size)
      return undefined;
    const msgs = body.messages as AnthropicMessage[];
    let i = msgs.length - 1;
    while (i >= 0 && !(msgs[i]!.role === 'assistant' && blocks(msgs[i]!).some((b) => b.type === 'tool_use'))) i--;
    if (i < 0) return undefined;
    const content = blocks(msgs[i]!);
    // Only turns this server answered with thinking are held to it (by their tool_use ids).
    const wasThinking = content.some(
      (b) => b.type === 'thinking' || (b.type === 'tool_use' && thoughtUses.has(String((b as { id?: unknown }).id))),
    );
    if (!wasThinking) return undefined;
    const first = content[0]!;
    if (first.type !== 'thinking' && first.type !== 'redacted_thinking') {
      return `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
    }
    for (const [j, b] of content.entries()) {
      if (b.type !== 'thinking') continue;
      const sig = String((b as { signature?: unknown }).signature ?? '');
      if (!issued.has(sig)) return 'Invalid signature in thinking block';
      if (issued.get(sig) !== (b as { thinking?: unknown }).thinking)
        return `messages.${i}.content.${j}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`;
    }
    return undefined;
  }

  /** A 200 stream that breaks off with an `error` event (the streaming guide's error events, e.g. overloaded_error). */
  function brokenStream(
    record: ScriptedRequest,
    text: string,
    error: { type: string; message: string },
    requestId: string,
    res: http.ServerResponse,
  ): void {
    const event = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': requestId,
    });
    const usage = usageOf(record, { text }, text);
    event('message_start', {
      message: {
        id: id('msg'),
        type: 'message',
        role: 'assistant',
        model: record.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    if (text) {
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
    }
    event('error', { error });
    res.end();
  }

  /** The message as server-sent events: text and tool input in pieces, counts in message_start and (cumulative) message_delta. */
  function stream(
    message: { content: AnswerBlock[]; stop_reason: string; usage: Required<AnthropicUsage> } & Record<string, unknown>,
    requestId: string,
    res: http.ServerResponse,
  ): void {
    const event = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': requestId,
    });
    const { usage } = message;
    event('message_start', {
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    event('ping', {});
    message.content.forEach((block, index) => {
      if (block.type === 'thinking') {
        event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
        event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
      } else if (block.type === 'text') {
        const text = block.text;
        event('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (let i = 0; i < text.length; i += 40)
          event('content_block_delta', { index, delta: { type: 'text_delta', text: text.slice(i, i + 40) } });
      } else {
        const json = JSON.stringify(block.input);
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
        for (let i = 0; i < json.length; i += 200)
          event('content_block_delta', {
            index,
            delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 200) },
          });
      }
      event('content_block_stop', { index });
    });
    event('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage });
    event('message_stop', {});
    res.end();
  }

  const origin = await server.listen();
  const baseURL = origin;
  return {
    baseURL,
    v1URL: `${baseURL}/v1`,
    requests,
    others,
    // By kind, as catarena records them: input_tokens (not from a cache), cache reads, cache writes, output.
    totalUsage: (filter = () => true) => {
      const t = requests.filter(filter).reduce(
        (s, r) => ({
          input: s.input + (r.usage?.input_tokens ?? 0),
          cacheRead: s.cacheRead + (r.usage?.cache_read_input_tokens ?? 0),
          cacheWrite: s.cacheWrite + (r.usage?.cache_creation_input_tokens ?? 0),
          output: s.output + (r.usage?.output_tokens ?? 0),
        }),
        { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
      );
      return {
        input: t.input,
        output: t.output,
        ...(t.cacheRead ? { cacheRead: t.cacheRead } : {}),
        ...(t.cacheWrite ? { cacheWrite: t.cacheWrite } : {}),
      };
    },
    close: server.close,
  };
}
