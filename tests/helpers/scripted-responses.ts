// A scripted OpenAI Responses API server on 127.0.0.1 for driving Codex (and any Responses client)
// in tests: POST /v1/responses answers from a script (tool calls, a final text, an HTTP error or a
// failed response) with realistic `usage`, and records every request (model, instructions, input
// items, tools, headers, stream/store/previous_response_id) and the usage it answered. The same
// script model as tests/helpers/scripted-llm.ts (ScriptTurn: toolCalls / text / httpError, usage,
// delayMs), so tests read alike.
//
// Shapes follow the public API reference, as written in the official SDK generated from OpenAI's
// OpenAPI spec (openai/openai-node src/resources/responses/responses.ts; API reference pages
// developers.openai.com/api/reference/resources/responses and …/streaming-events):
//   - request (ResponseCreateParams): model, instructions, input (string or items: `message`
//     {role, content: input_text…}, `function_call` {call_id, name, arguments}, `function_call_output`
//     {call_id, output}, `custom_tool_call` {call_id, name, input}, `custom_tool_call_output`,
//     `reasoning`), tools (FunctionTool {type:'function', name, parameters, strict}, CustomTool
//     {type:'custom', name, format}, NamespaceTool {type:'namespace', tools}, built-ins such as
//     `web_search`, `shell`, `apply_patch`, `local_shell`, `tool_search`), stream, store,
//     previous_response_id, include, reasoning, parallel_tool_calls;
//   - the Response object: {id, object:'response', created_at, status, error, incomplete_details,
//     instructions, model, output, parallel_tool_calls, tool_choice, tools, usage, …}; output items
//     ResponseOutputMessage {id, type:'message', role:'assistant', status, content: [ResponseOutputText
//     {type:'output_text', text, annotations}]}, ResponseFunctionToolCall {type:'function_call', id,
//     call_id, name, arguments, status}, ResponseCustomToolCall {type:'custom_tool_call', id, call_id,
//     name, input}, ResponseReasoningItem {type:'reasoning', id, summary: [{type:'summary_text', text}]};
//     ResponseUsage {input_tokens, input_tokens_details:{cached_tokens}, output_tokens,
//     output_tokens_details:{reasoning_tokens}, total_tokens};
//   - streaming (server-sent events `event: <type>` + `data: <json>`, each with sequence_number, no
//     [DONE] sentinel): response.created, response.in_progress, response.output_item.added,
//     response.content_part.added, response.output_text.delta/.done, response.content_part.done,
//     response.function_call_arguments.delta/.done (done carries name), response.custom_tool_call_input
//     .delta/.done, response.reasoning_summary_part.added, response.reasoning_summary_text.delta/.done,
//     response.reasoning_summary_part.done, response.output_item.done, then response.completed (the
//     whole Response with usage) — or response.failed (Response with status 'failed' and error
//     {code, message}) or an `error` event {code, message, param};
//   - HTTP errors: {error: {message, type, param, code}} (openai-node src/core/error.ts reads
//     error.message/type/param/code; the error-codes guide lists 401 invalid key, 429 rate limit or
//     quota, 500 server error).
// Codex's own reader (openai/codex codex-rs/codex-api/src/sse/responses.rs) consumes
// output_item.added/.done, output_text.delta, the reasoning deltas, response.created,
// response.completed (id + usage) and response.failed (error.code decides retry/quota/context).
//
// Other routes answer plausibly without consuming the script (recorded in `sideRequests`): GET /models
// (the models list, {object:'list', data:[{id, object:'model', created, owned_by}]}), and anything
// else with a 404 in the API's error shape (e.g. a Responses WebSocket upgrade, GET /responses, which
// a client then falls back from).
import type http from 'node:http';
import { openAiRefusal, servedByDefault } from './model-rules.js';
import { openAiKeyRefusal, SCRIPTED_KEY } from './provider-keys.js';
import { TEST_MODELS } from './scripted-llm.js';
import { scriptedServer } from './scripted-server.js';

/** One OpenAI key serves both its APIs: the chat server's default key is this server's too. */
export { SCRIPTED_KEY };

export interface ResponsesScriptUsage {
  input_tokens: number;
  output_tokens: number;
  /** input_tokens_details.cached_tokens (part of input_tokens). */
  cached_tokens?: number;
  /** output_tokens_details.reasoning_tokens (part of output_tokens). */
  reasoning_tokens?: number;
}

/** A function call ({name, args}: arguments are JSON) or a custom/freeform tool call ({name, input}: raw text). */
export type ResponsesToolCall =
  | { name: string; args: unknown; namespace?: string }
  | { name: string; input: string; namespace?: string };

/** One answer; delayMs holds it back (to test timeouts). */
export type ResponsesTurn = { delayMs?: number } & (
  | { toolCalls: ResponsesToolCall[]; text?: string; reasoning?: string; usage?: ResponsesScriptUsage }
  | { text: string; reasoning?: string; usage?: ResponsesScriptUsage }
  /**
   * An HTTP error with the API's error body and an x-request-id; a 429 also gets the
   * x-ratelimit-* headers and retry-after (seconds, default 1) unless `headers` overrides them.
   */
  | {
      httpError: number;
      message: string;
      type?: string;
      code?: string | null;
      headers?: Record<string, string>;
      retryAfter?: number;
    }
  /**
   * A stream (or body) that ends in a failed response: response.failed with error {code, message}.
   * Codex reads a rate limit's wait from here: code rate_limit_exceeded and "Please try again in
   * 1.5s" in the message (codex-rs/codex-api/src/sse/responses.rs, try_parse_retry_after).
   */
  | { failed: { code: string; message: string } }
  /** A stream that ends in response.incomplete (status 'incomplete', incomplete_details {reason}), after the text so far. */
  | { incomplete: { reason: 'max_output_tokens' | 'content_filter' }; text?: string; usage?: ResponsesScriptUsage }
  /** A stream that breaks off with a top-level `error` event ({type: 'error', code, message, param}). */
  | { streamError: { code?: string | null; message: string }; text?: string }
);

export interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: string | Array<{ type: string; text?: string }>;
  call_id?: string;
  name?: string;
  arguments?: string;
  input?: string;
  output?: string | Array<{ type: string; text?: string }>;
  [k: string]: unknown;
}

export interface ResponsesTool {
  type: string;
  name?: string;
  description?: string;
  parameters?: unknown;
  format?: unknown;
  /** A namespace tool's members. */
  tools?: ResponsesTool[];
  [k: string]: unknown;
}

export interface ResponsesRequest {
  index: number;
  path: string;
  model: string;
  stream: boolean;
  store: boolean | undefined;
  instructions: string | undefined;
  previousResponseId: string | undefined;
  /** The input as items (a string input becomes one user message). */
  input: ResponsesInputItem[];
  tools: ResponsesTool[];
  /** The whole body, for fields not lifted above (reasoning, include, text, tool_choice, …). */
  body: Record<string, unknown>;
  /** Request headers, lower-case names. */
  headers: http.IncomingHttpHeaders;
  authorization: string | undefined;
  /** When it arrived (Date.now()), to see a client wait what a rate limit asked. */
  receivedAt: number;
  /** The id of the response answered (null for HTTP errors). */
  responseId: string | null;
  /** What was answered (null for HTTP errors and failed responses). */
  usage: (Required<ResponsesScriptUsage> & { total_tokens: number }) | null;
  turn: ResponsesTurn | null;
}

/** A request to another route (models list, WebSocket upgrade, …): answered, not scripted. */
export interface SideRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  status: number;
}

export type ResponsesScript = ResponsesTurn[] | ((request: ResponsesRequest) => ResponsesTurn | undefined);

export interface ScriptedResponses {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseURL: string;
  requests: ResponsesRequest[];
  sideRequests: SideRequest[];
  /** Sum of the usage answered (input includes cached tokens, output includes reasoning tokens, as the API counts them). */
  totalUsage(): { input: number; output: number; cacheRead?: number };
  close(): Promise<void>;
}

/** Names of the tools a request declares (namespace members as `namespace.name`), with their types. */
export function toolNames(request: ResponsesRequest): string[] {
  return request.tools.flatMap((t) =>
    t.type === 'namespace' && Array.isArray(t.tools) ? t.tools.map((m) => `${t.name}.${m.name}`) : [t.name ?? t.type],
  );
}

/**
 * The step within one conversation: how many of this server's responses with tool calls the input
 * already carries. Call ids are `call_<response>_<k>` and clients send them back verbatim (they are
 * needed to pair outputs), so parallel calls of one response count once.
 */
export function stepOf(request: ResponsesRequest): number {
  const responses = new Set<string>();
  for (const item of request.input) {
    if ((item.type === 'function_call' || item.type === 'custom_tool_call') && typeof item.call_id === 'string') {
      const m = /^call_(\d+)_\d+$/.exec(item.call_id);
      responses.add(m ? m[1]! : item.call_id);
    }
  }
  return responses.size;
}

/** A script replayed from step 0 in every new conversation (so each retry sees the same turns). */
export function perConversation(turns: ResponsesTurn[]): ResponsesScript {
  return (req) => turns[stepOf(req)];
}

/** The outputs of tool calls the model was sent in a request (function and custom tool call outputs). */
export function toolResults(request: ResponsesRequest): string[] {
  return request.input
    .filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output')
    .map((i) => (typeof i.output === 'string' ? i.output : JSON.stringify(i.output)));
}

const approxTokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

function usageOf(
  record: ResponsesRequest,
  turn: ResponsesTurn,
  answer: unknown,
): Required<ResponsesScriptUsage> & { total_tokens: number } {
  const given = 'usage' in turn ? turn.usage : undefined;
  const u = given ?? {
    input_tokens: approxTokens(record.input) + approxTokens(record.tools) + approxTokens(record.instructions),
    output_tokens: approxTokens(answer) + 3,
  };
  return { cached_tokens: 0, reasoning_tokens: 0, ...u, total_tokens: u.input_tokens + u.output_tokens };
}

/** ResponseUsage as the API writes it. */
const apiUsage = (u: NonNullable<ResponsesRequest['usage']>) => ({
  input_tokens: u.input_tokens,
  input_tokens_details: { cached_tokens: u.cached_tokens },
  output_tokens: u.output_tokens,
  output_tokens_details: { reasoning_tokens: u.reasoning_tokens },
  total_tokens: u.total_tokens,
});

const asItems = (input: unknown): ResponsesInputItem[] =>
  typeof input === 'string'
    ? [{ type: 'message', role: 'user', content: input }]
    : Array.isArray(input)
      ? (input as ResponsesInputItem[])
      : [];

/**
 * An API error's headers: x-request-id always; on a 429 the x-ratelimit-* family
 * (x-ratelimit-limit-requests, -remaining-requests, -reset-requests "1s", the same for tokens, as
 * the API sends them on every response: OpenAI community thread "rate limit reset time for
 * response API") and retry-after in seconds (which openai-node's retry reads).
 */
function errorHeaders(status: number, requestId: string, retryAfter = 1): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
  if (status === 429) {
    Object.assign(h, {
      'retry-after': String(retryAfter),
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': `${retryAfter}s`,
      'x-ratelimit-limit-tokens': '200000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': `${retryAfter}s`,
    });
  }
  return h;
}

export interface ScriptedResponsesOptions {
  /**
   * The models this key may use (listed by GET /models): any other is a 404 with OpenAI's
   * model_not_found error, as the chat server answers it. Not given: the model table's OpenAI
   * models (their families by pattern too: gpt-5.1-codex) and scripted-llm's TEST_MODELS.
   */
  models?: string[];
  /**
   * The key the client must send as Authorization: Bearer (default SCRIPTED_KEY). Without one: 401
   * invalid_request_error "You didn't provide an API key. …" (code null); with another: 401
   * "Incorrect API key provided: sk-proj-***…abcd. …", code invalid_api_key
   * (tests/helpers/provider-keys.ts).
   */
  apiKey?: string;
}

export async function startScriptedResponses(
  script: ResponsesScript,
  options: ScriptedResponsesOptions = {},
): Promise<ScriptedResponses> {
  const requests: ResponsesRequest[] = [];
  const sideRequests: SideRequest[] = [];
  const created = Math.floor(Date.now() / 1000);

  const server = scriptedServer<ResponsesRequest, ResponsesTurn>(script, (req, res, raw) => {
    const url = new URL(req.url ?? '/', 'http://scripted');
    const path = url.pathname;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, errorHeaders(status, `req_scripted_${requests.length + sideRequests.length}`));
      res.end(JSON.stringify(body));
    };
    const apiError = (status: number, message: string, type = 'invalid_request_error', code: string | null = null) =>
      send(status, { error: { message, type, param: null, code } });
    const side = (status: number) =>
      sideRequests.push({ method: req.method ?? '?', path: `${path}${url.search}`, headers: req.headers, status });

    const refusedKey = openAiKeyRefusal(req.headers.authorization, options.apiKey ?? SCRIPTED_KEY);
    if (refusedKey) {
      side(refusedKey.status);
      return send(refusedKey.status, refusedKey.body);
    }

    if (req.method === 'GET' && path.endsWith('/models')) {
      // The models list (GET /v1/models): {object:'list', data:[Model {id, object:'model', created, owned_by}]}.
      const ids = [...new Set([...(options.models ?? []), ...requests.map((r) => r.model)])];
      side(200);
      return send(200, {
        object: 'list',
        data: ids.map((id) => ({ id, object: 'model', created, owned_by: 'scripted' })),
      });
    }
    if (req.method !== 'POST' || !path.endsWith('/responses')) {
      // A WebSocket upgrade of /responses arrives here too (Node serves an upgrade nobody listens for as a plain request).
      side(404);
      return apiError(
        404,
        `scripted-responses: no route ${req.method} ${path}${req.headers.upgrade ? ` (upgrade: ${req.headers.upgrade})` : ''}`,
      );
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      side(400);
      return apiError(400, 'scripted-responses: the body is not JSON');
    }
    const record: ResponsesRequest = {
      index: requests.length,
      path,
      model: String(body.model),
      stream: body.stream === true,
      store: typeof body.store === 'boolean' ? body.store : undefined,
      instructions: typeof body.instructions === 'string' ? body.instructions : undefined,
      previousResponseId: typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined,
      input: asItems(body.input),
      tools: Array.isArray(body.tools) ? (body.tools as ResponsesTool[]) : [],
      body,
      headers: req.headers,
      authorization: req.headers.authorization,
      receivedAt: Date.now(),
      responseId: null,
      usage: null,
      turn: null,
    };
    requests.push(record);
    if (options.models ? !options.models.includes(record.model) : !servedByDefault(record.model, TEST_MODELS)) {
      return apiError(
        404,
        `The model \`${record.model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    }
    // What the model's family refuses (a reasoning model's temperature ≠ 1, top_p): tests/helpers/model-rules.ts.
    const refused = openAiRefusal(record.model, body, 'responses');
    if (refused)
      return send(refused.status, {
        error: { message: refused.message, type: 'invalid_request_error', param: refused.param, code: refused.code },
      });
    const turn = server.nextTurn(record);
    record.turn = turn;
    server.answerAfter(turn.delayMs, () => answer(record, turn, res));
  });

  /** The output items of a turn, complete (as in output_item.done and response.completed). */
  function outputItems(
    record: ResponsesRequest,
    turn: Exclude<
      ResponsesTurn,
      { httpError: number } | { failed: unknown } | { streamError: unknown } | { incomplete: unknown }
    >,
  ): Array<Record<string, unknown>> {
    const n = record.index;
    const items: Array<Record<string, unknown>> = [];
    if (turn.reasoning) {
      // encrypted_content is populated when `include` asks for reasoning.encrypted_content (what stateless clients, store:false, send back).
      const encrypted =
        Array.isArray(record.body.include) && record.body.include.includes('reasoning.encrypted_content')
          ? { encrypted_content: Buffer.from(`scripted reasoning ${n}`).toString('base64') }
          : {};
      items.push({
        id: `rs_${n}`,
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: turn.reasoning }],
        status: 'completed',
        ...encrypted,
      });
    }
    if (turn.text)
      items.push({
        id: `msg_${n}`,
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: turn.text, annotations: [] }],
      });
    if ('toolCalls' in turn) {
      turn.toolCalls.forEach((c, k) => {
        const ns = c.namespace ? { namespace: c.namespace } : {};
        if ('input' in c)
          items.push({
            id: `ctc_${n}_${k}`,
            type: 'custom_tool_call',
            status: 'completed',
            call_id: `call_${n}_${k}`,
            name: c.name,
            input: c.input,
            ...ns,
          });
        else
          items.push({
            id: `fc_${n}_${k}`,
            type: 'function_call',
            status: 'completed',
            call_id: `call_${n}_${k}`,
            name: c.name,
            arguments: JSON.stringify(c.args),
            ...ns,
          });
      });
    }
    return items;
  }

  /** The Response object (ResponseObject), for a status and output. */
  function responseObject(
    record: ResponsesRequest,
    status: string,
    output: unknown[],
    extra: Record<string, unknown> = {},
  ) {
    const b = record.body;
    return {
      id: record.responseId,
      object: 'response',
      created_at: created,
      status,
      error: null,
      incomplete_details: null,
      instructions: record.instructions ?? null,
      max_output_tokens: (b.max_output_tokens as number | undefined) ?? null,
      model: record.model,
      output,
      parallel_tool_calls: b.parallel_tool_calls ?? true,
      previous_response_id: record.previousResponseId ?? null,
      reasoning: b.reasoning ?? null,
      store: record.store ?? true,
      temperature: (b.temperature as number | undefined) ?? 1,
      text: b.text ?? { format: { type: 'text' } },
      tool_choice: b.tool_choice ?? 'auto',
      tools: record.tools,
      top_p: (b.top_p as number | undefined) ?? 1,
      truncation: 'disabled',
      usage: null,
      metadata: {},
      ...extra,
    };
  }

  /** Sends the turn; usage is recorded only when the answer was delivered (not to an aborted client). */
  function answer(record: ResponsesRequest, turn: ResponsesTurn, res: http.ServerResponse): void {
    if (res.destroyed) return;
    if ('httpError' in turn) {
      res.writeHead(turn.httpError, {
        ...errorHeaders(turn.httpError, `req_scripted_${record.index}`, turn.retryAfter),
        ...turn.headers,
      });
      res.end(
        JSON.stringify({
          error: {
            message: turn.message,
            type: turn.type ?? (turn.httpError >= 500 ? 'server_error' : 'invalid_request_error'),
            param: null,
            code: turn.code ?? null,
          },
        }),
      );
      return;
    }
    record.responseId = `resp_scripted_${record.index}`;
    if ('failed' in turn) {
      const failed = responseObject(record, 'failed', [], {
        error: { code: turn.failed.code, message: turn.failed.message },
      });
      if (!record.stream) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_scripted_${record.index}` });
        res.end(JSON.stringify(failed));
        return;
      }
      const ev = sse(res, record);
      ev('response.created', { response: responseObject(record, 'in_progress', []) });
      ev('response.in_progress', { response: responseObject(record, 'in_progress', []) });
      ev('response.failed', { response: failed });
      res.end();
      return;
    }
    if ('streamError' in turn || 'incomplete' in turn) return partial(record, turn, res);
    const output = outputItems(record, turn);
    record.usage = usageOf(record, turn, output);
    const completed = responseObject(record, 'completed', output, {
      usage: apiUsage(record.usage),
      completed_at: Math.floor(Date.now() / 1000),
    });
    if (!record.stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_scripted_${record.index}` });
      res.end(JSON.stringify({ ...completed, output_text: turn.text ?? '' }));
      return;
    }
    stream(record, output, completed, res);
  }

  /** A stream that ends early: response.incomplete (with the text so far and usage) or a top-level `error` event. */
  function partial(
    record: ResponsesRequest,
    turn: Extract<ResponsesTurn, { streamError: unknown } | { incomplete: unknown }>,
    res: http.ServerResponse,
  ): void {
    const output = turn.text
      ? [
          {
            id: `msg_${record.index}`,
            type: 'message',
            role: 'assistant',
            status: 'incomplete',
            content: [{ type: 'output_text', text: turn.text, annotations: [] }],
          },
        ]
      : [];
    if (!record.stream) {
      if ('streamError' in turn) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_scripted_${record.index}` });
        res.write('{"id":"resp_cut","object":"response","status":"in_prog');
        setTimeout(() => res.destroy(), 20);
        return;
      }
      record.usage = usageOf(record, turn, output);
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_scripted_${record.index}` });
      res.end(
        JSON.stringify(
          responseObject(record, 'incomplete', output, {
            incomplete_details: { reason: turn.incomplete.reason },
            usage: apiUsage(record.usage),
          }),
        ),
      );
      return;
    }
    const ev = sse(res, record);
    ev('response.created', { response: responseObject(record, 'in_progress', []) });
    ev('response.in_progress', { response: responseObject(record, 'in_progress', []) });
    if (turn.text) {
      const item_id = `msg_${record.index}`;
      ev('response.output_item.added', { output_index: 0, item: { ...output[0], status: 'in_progress', content: [] } });
      ev('response.content_part.added', {
        item_id,
        output_index: 0,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      ev('response.output_text.delta', { item_id, output_index: 0, content_index: 0, delta: turn.text, logprobs: [] });
    }
    if ('streamError' in turn) {
      // ResponseErrorEvent (openai-node src/resources/responses/responses.ts): {type: 'error', code, message, param, sequence_number}.
      ev('error', { code: turn.streamError.code ?? null, message: turn.streamError.message, param: null });
    } else {
      // ResponseIncompleteEvent: {type: 'response.incomplete', response (status 'incomplete', incomplete_details {reason}), sequence_number}.
      record.usage = usageOf(record, turn, output);
      ev('response.incomplete', {
        response: responseObject(record, 'incomplete', output, {
          incomplete_details: { reason: turn.incomplete.reason },
          usage: apiUsage(record.usage),
        }),
      });
    }
    res.end();
  }

  /** An SSE writer: `event: <type>` and `data: <json with type and sequence_number>`. */
  function sse(res: http.ServerResponse, record: ResponsesRequest) {
    let seq = 0;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': `req_scripted_${record.index}`,
    });
    return (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  }

  /** The answer as the streaming event sequence, each item added, streamed in pieces, and done. */
  function stream(
    record: ResponsesRequest,
    output: Array<Record<string, unknown>>,
    completed: Record<string, unknown>,
    res: http.ServerResponse,
  ): void {
    const ev = sse(res, record);
    const pieces = (s: string, n: number) => {
      const out: string[] = [];
      for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
      return out.length ? out : [''];
    };
    ev('response.created', { response: responseObject(record, 'in_progress', []) });
    ev('response.in_progress', { response: responseObject(record, 'in_progress', []) });
    output.forEach((item, output_index) => {
      const item_id = item.id as string;
      if (item.type === 'reasoning') {
        const text = (item.summary as Array<{ text: string }>)[0]!.text;
        ev('response.output_item.added', { output_index, item: { ...item, summary: [], status: 'in_progress' } });
        ev('response.reasoning_summary_part.added', {
          item_id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of pieces(text, 40))
          ev('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta });
        ev('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text });
        ev('response.reasoning_summary_part.done', {
          item_id,
          output_index,
          summary_index: 0,
          part: { type: 'summary_text', text },
        });
      } else if (item.type === 'message') {
        const text = (item.content as Array<{ text: string }>)[0]!.text;
        ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
        ev('response.content_part.added', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        });
        for (const delta of pieces(text, 40))
          ev('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
        ev('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] });
        ev('response.content_part.done', {
          item_id,
          output_index,
          content_index: 0,
          part: { type: 'output_text', text, annotations: [] },
        });
      } else if (item.type === 'function_call') {
        const args = item.arguments as string;
        ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
        for (const delta of pieces(args, 200))
          ev('response.function_call_arguments.delta', { item_id, output_index, delta });
        ev('response.function_call_arguments.done', { item_id, output_index, name: item.name, arguments: args });
      } else if (item.type === 'custom_tool_call') {
        const input = item.input as string;
        ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
        for (const delta of pieces(input, 200))
          ev('response.custom_tool_call_input.delta', { item_id, output_index, delta });
        ev('response.custom_tool_call_input.done', { item_id, output_index, input });
      }
      ev('response.output_item.done', { output_index, item });
    });
    ev('response.completed', { response: completed });
    res.end();
  }

  const origin = await server.listen();
  return {
    baseURL: `${origin}/v1`,
    requests,
    sideRequests,
    // By kind, as catarena records them: input not from a cache (input_tokens includes cached_tokens), cache reads, output.
    totalUsage: () => {
      const t = requests.reduce(
        (s, r) => ({
          input: s.input + (r.usage?.input_tokens ?? 0) - (r.usage?.cached_tokens ?? 0),
          cacheRead: s.cacheRead + (r.usage?.cached_tokens ?? 0),
          output: s.output + (r.usage?.output_tokens ?? 0),
        }),
        { input: 0, cacheRead: 0, output: 0 },
      );
      return { input: t.input, output: t.output, ...(t.cacheRead ? { cacheRead: t.cacheRead } : {}) };
    },
    close: server.close,
  };
}
