// A scripted OpenAI-compatible chat server on 127.0.0.1 for driving LLM agents in tests:
// POST /v1/chat/completions answers from a script (tool calls or a final text, or an HTTP error),
// with realistic `usage`, and records every request (model, messages, tools, auth header).
// Answers both ways a client asks: a JSON body, or (stream:true, as CLI agents such as Qwen Code
// ask) server-sent chunks with the deltas, a finish chunk, a usage chunk and [DONE]. Set
// `noStreaming` to refuse streams with a 400, for clients that must not stream (the AI SDK's
// generateText), so a change of behaviour is visible.
import type http from 'node:http';
import { OPENAI_TABLE_MODELS, openAiRefusal, servedByDefault } from './model-rules.js';
import { openAiKeyRefusal, SCRIPTED_KEY } from './provider-keys.js';
import { scriptedServer } from './scripted-server.js';

export { SCRIPTED_KEY };

/**
 * The models the tests' local OpenAI-compatible servers serve (besides the model table's OpenAI
 * ids): every request is checked against the served list, so a name outside it (a typo, gpt-nope)
 * is the API's 404 model_not_found. A test that needs other names passes `models`.
 */
export const TEST_MODELS: readonly string[] = [
  'scripted',
  'scripted-coder',
  'scripted-fallback',
  'm',
  'm1',
  'm2',
  'x',
  'gpt-x',
  'gpt-test',
  'gpt-test-mini',
  'test-model',
  'my-model',
  'primary-model',
  'fallback-model',
  'hasty',
  'patient',
  'waiter',
  'thinker',
  'judge-model',
  'gpt-5-scripted',
  'qwen3-coder-plus',
  'Qwen/Qwen3-Coder',
];

/**
 * Chat completions usage (platform.openai.com/docs/api-reference/chat/object): prompt_tokens
 * includes the cached ones, which prompt_tokens_details.cached_tokens counts; completion_tokens
 * includes reasoning, counted by completion_tokens_details.reasoning_tokens.
 */
export interface ScriptUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

/**
 * One answer; delayMs holds it back (to test timeouts). `breakMidway` starts the answer (status,
 * headers, part of the body or stream) and then drops the connection: a server failing mid-stream.
 * An HTTP error may carry the error's type and code (OpenAI's error object) and response headers
 * (retry-after on a 429).
 */
export type ScriptTurn = { delayMs?: number } & (
  | { toolCalls: Array<{ name: string; args: unknown }>; text?: string; usage?: ScriptUsage; breakMidway?: boolean }
  | { text: string; usage?: ScriptUsage; breakMidway?: boolean }
  | {
      httpError: number;
      message: string;
      type?: string;
      code?: string | null;
      headers?: Record<string, string>;
      details?: unknown[];
    }
);

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null | Array<{ type: string; text?: string }>;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ScriptedRequest {
  index: number;
  model: string;
  stream: boolean;
  messages: ChatMessage[];
  tools: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  authorization: string | undefined;
  /** The request body as sent (sampling fields such as temperature, reasoning_effort). */
  body: Record<string, unknown>;
  /** When it arrived (Date.now()). */
  at: number;
  /** What was answered (null for HTTP errors). */
  usage: (ScriptUsage & { total_tokens: number }) | null;
  turn: ScriptTurn | null;
}

export type Script = ScriptTurn[] | ((request: ScriptedRequest) => ScriptTurn | undefined);

export interface ScriptedLlm {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseURL: string;
  requests: ScriptedRequest[];
  /** Sum of the usage answered. */
  totalUsage(): { input: number; output: number };
  close(): Promise<void>;
}

/** Number of assistant turns already in a request: the step index within one conversation. */
export function stepOf(request: ScriptedRequest): number {
  return request.messages.filter((m) => m.role === 'assistant').length;
}

/** A script replayed from step 0 in every new conversation (so each retry sees the same turns). */
export function perConversation(turns: ScriptTurn[]): Script {
  return (req) => turns[stepOf(req)];
}

/** Text of the tool results the model was sent in a request. */
export function toolResults(request: ScriptedRequest): string[] {
  return request.messages
    .filter((m) => m.role === 'tool')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
}

const approxTokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

/** The turn's usage, or one approximated from the request and the answer (about 4 characters a token). */
function usageOf(record: ScriptedRequest, turn: ScriptTurn, answer: unknown): ScriptUsage & { total_tokens: number } {
  const usage = ('usage' in turn && turn.usage) || {
    prompt_tokens: approxTokens(record.messages) + approxTokens(record.tools),
    completion_tokens: approxTokens(answer) + 3,
  };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

/**
 * A 429 as OpenAI sends it (platform.openai.com/docs/guides/rate-limits, "Rate limits in headers";
 * openai-node's _base_client reads retry-after-ms, then retry-after): the x-ratelimit-* headers
 * with the reset as a duration ("1s", "6m0s"), retry-after in seconds, and the error object
 * {message, type: 'requests', param: null, code: 'rate_limit_exceeded'}.
 */
export function openAiRateLimit(waitSeconds: number): ScriptTurn {
  return {
    httpError: 429,
    message: `Rate limit reached for requests. Please try again in ${waitSeconds}s.`,
    type: 'requests',
    code: 'rate_limit_exceeded',
    headers: {
      'retry-after': String(Math.ceil(waitSeconds)),
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': `${waitSeconds}s`,
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-tokens': '30000',
      'x-ratelimit-reset-tokens': '0s',
    },
  };
}

/**
 * The key and the model are always checked, as the API checks them. `key`: the key the client must
 * send as Bearer (default SCRIPTED_KEY): none is OpenAI's 401 "You didn't provide an API key. …"
 * (code null), another its 401 invalid_api_key (tests/helpers/provider-keys.ts), unless `keyless`
 * (a local server that takes none, as vLLM or llama.cpp may). `models`: the models this key may
 * use (default: the model table's OpenAI ids and TEST_MODELS); any other is a 404 with OpenAI's
 * model_not_found error ("The model `x` does not exist or you do not have access to it.", as users
 * quote it, e.g. Shopify/roast#13, continuedev/continue#10832). Sampling a model's family refuses
 * (a reasoning model's temperature ≠ 1, top_p) and a Responses-only model asked on chat
 * completions are 400s (tests/helpers/model-rules.ts).
 */
export async function startScriptedLlm(
  script: Script,
  options: {
    noStreaming?: boolean;
    key?: string;
    models?: string[];
    keyless?: boolean;
    /**
     * A restricted key that may generate but not list models: 401 is OpenAI's answer to such a key
     * ("You have insufficient permissions for this operation. Missing scopes: api.model.read. …",
     * type invalid_request_error, as users quote it on community.openai.com); 403 a gateway's
     * (a virtual key limited to some routes).
     */
    restrictedKey?: 401 | 403;
  } = {},
): Promise<ScriptedLlm> {
  const requests: ScriptedRequest[] = [];
  const served = options.models ?? [...OPENAI_TABLE_MODELS, ...TEST_MODELS];
  let answered = 0;
  const server = scriptedServer<ScriptedRequest, ScriptTurn>(script, (req, res, raw) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_scripted_${++answered}` });
      res.end(JSON.stringify(body));
    };
    // The API lives under /v1: any other path is OpenAI's 404 unknown_url, as a client whose base
    // URL lacks /v1 gets it (e.g. nomic-ai/gpt4all#3214, microsoft/TaskWeaver#11).
    const route = (req.url ?? '').split('?')[0]!;
    if (!route.startsWith('/v1/')) {
      return send(404, {
        error: {
          message: `Unknown request URL: ${req.method} ${route}. Please check the URL for typos, or see the docs at https://platform.openai.com/docs/api-reference/.`,
          type: 'invalid_request_error',
          param: null,
          code: 'unknown_url',
        },
      });
    }
    const refusedKey = options.keyless
      ? undefined
      : openAiKeyRefusal(req.headers.authorization, options.key ?? SCRIPTED_KEY);
    if (refusedKey) return send(refusedKey.status, refusedKey.body);
    // The model list (GET /v1/models), as a client checks the endpoint and its key without spending tokens.
    if (req.method === 'GET' && (req.url ?? '').split('?')[0]!.endsWith('/models')) {
      if (options.restrictedKey === 401)
        return send(401, {
          error: {
            message:
              "You have insufficient permissions for this operation. Missing scopes: api.model.read. Check that you have the correct role in your organization (Reader, Writer, Owner) and project (Viewer, Member, Owner), and if you're using a restricted API key, that it has the necessary scopes.",
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        });
      if (options.restrictedKey === 403)
        return send(403, {
          error: { message: 'This key may not list models.', type: 'permission_error', param: null, code: null },
        });
      return send(200, {
        object: 'list',
        data: served.map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'catarena-tests',
        })),
      });
    }
    if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions')) {
      return send(404, {
        error: { message: `scripted-llm: no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
      });
    }
    let body: Record<string, any>;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(400, { error: { message: 'scripted-llm: body is not JSON', type: 'invalid_request_error' } });
    }
    const record: ScriptedRequest = {
      index: requests.length,
      model: String(body.model),
      stream: body.stream === true,
      messages: body.messages ?? [],
      tools: body.tools ?? [],
      authorization: req.headers.authorization,
      body,
      at: Date.now(),
      usage: null,
      turn: null,
    };
    requests.push(record);
    if (options.models ? !served.includes(record.model) : !servedByDefault(record.model, TEST_MODELS)) {
      return send(404, {
        error: {
          message: `The model \`${record.model}\` does not exist or you do not have access to it.`,
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      });
    }
    const refused = openAiRefusal(record.model, body, 'chat');
    if (refused) {
      return send(refused.status, {
        error: { message: refused.message, type: 'invalid_request_error', param: refused.param, code: refused.code },
      });
    }
    // OpenAI refuses max_tokens for its reasoning models (gpt-5*, o1/o3/o4*): a 400 with param and
    // code (as users report it, e.g. griptape-ai/ComfyUI-Griptape#312, fish2018/YPrompt#26).
    if (body.max_tokens !== undefined && /^(gpt-5|o[134])/.test(record.model)) {
      return send(400, {
        error: {
          message:
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        },
      });
    }
    if (record.stream && options.noStreaming) {
      return send(400, {
        error: { message: 'scripted-llm: streaming is not implemented', type: 'invalid_request_error' },
      });
    }
    const turn = server.nextTurn(record);
    record.turn = turn;
    server.answerAfter(turn.delayMs, () => answer(record, turn, res));
  });

  /** Sends the turn; usage is recorded only when the answer was delivered (not to an aborted client). */
  function answer(record: ScriptedRequest, turn: ScriptTurn, res: http.ServerResponse): void {
    if (res.destroyed) return;
    if (record.stream && !('httpError' in turn)) return stream(record, turn, res);
    if ('httpError' in turn) {
      res.writeHead(turn.httpError, { 'content-type': 'application/json', ...turn.headers });
      res.end(
        JSON.stringify({
          error: {
            message: turn.message,
            type: turn.type ?? 'api_error',
            param: null,
            code: turn.code ?? null,
            ...(turn.details ? { details: turn.details } : {}),
          },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    const toolCalls =
      'toolCalls' in turn
        ? turn.toolCalls.map((c, k) => ({
            id: `call_${record.index}_${k}`,
            type: 'function' as const,
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          }))
        : undefined;
    const content = turn.text ?? null;
    const usage = usageOf(record, turn, toolCalls ?? content);
    const body = JSON.stringify({
      id: `chatcmpl-scripted-${record.index}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: record.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
          finish_reason: toolCalls ? 'tool_calls' : 'stop',
        },
      ],
      usage,
    });
    if (turn.breakMidway) return breakOff(res, body.slice(0, Math.floor(body.length / 2)));
    record.usage = usage;
    res.end(body);
  }

  /** Half an answer, then the connection dropped (no usage is recorded: nothing was delivered). */
  function breakOff(res: http.ServerResponse, part: string): void {
    res.write(part);
    setTimeout(() => res.socket?.destroy(), 20);
  }

  /** The same answer as server-sent chat.completion.chunk events (text and each tool call in pieces). */
  function stream(
    record: ScriptedRequest,
    turn: Exclude<ScriptTurn, { httpError: number }>,
    res: http.ServerResponse,
  ): void {
    const toolCalls =
      'toolCalls' in turn ? turn.toolCalls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.args) })) : [];
    const content = turn.text ?? '';
    record.usage = usageOf(record, turn, toolCalls.length ? toolCalls : content);
    const base = {
      id: `chatcmpl-scripted-${record.index}`,
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model: record.model,
    };
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
    const delta = (d: Record<string, unknown>, finish: string | null = null) =>
      chunk([{ index: 0, delta: d, finish_reason: finish }]);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    delta({ role: 'assistant', content: '' });
    for (let i = 0; i < content.length; i += 40) delta({ content: content.slice(i, i + 40) });
    toolCalls.forEach((c, k) => {
      delta({
        tool_calls: [
          { index: k, id: `call_${record.index}_${k}`, type: 'function', function: { name: c.name, arguments: '' } },
        ],
      });
      for (let i = 0; i < c.arguments.length; i += 200)
        delta({ tool_calls: [{ index: k, function: { arguments: c.arguments.slice(i, i + 200) } }] });
    });
    if (turn.breakMidway) {
      record.usage = null;
      return breakOff(res, '');
    }
    delta({}, toolCalls.length ? 'tool_calls' : 'stop');
    chunk([], { usage: record.usage });
    res.end('data: [DONE]\n\n');
  }

  const origin = await server.listen();
  return {
    baseURL: `${origin}/v1`,
    requests,
    totalUsage: () =>
      requests.reduce(
        (s, r) => ({
          input: s.input + (r.usage?.prompt_tokens ?? 0),
          output: s.output + (r.usage?.completion_tokens ?? 0),
        }),
        { input: 0, output: 0 },
      ),
    close: server.close,
  };
}
