// A scripted Gemini API (Google's Generative Language API) server on 127.0.0.1 for driving Google
// clients in tests (Gemini CLI, the AI SDK's @ai-sdk/google, the LLM-player's plain fetch). The
// script model is that of scripted-llm.ts (a turn is tool calls, a final text, or an HTTP error;
// usage; delayMs), so tests read alike; the wire is Google's. Shapes, as looked up in the public
// reference:
//   - POST /v1beta/{model=models/*}:generateContent and :streamGenerateContent
//     (ai.google.dev/api/rest/v1beta/models/generateContent, …/streamGenerateContent): body
//     {contents[], tools[]?, toolConfig?, safetySettings[]?, systemInstruction?, generationConfig?};
//     contents are {role: 'user' | 'model', parts: [{text} | {functionCall: {name, args}} |
//     {functionResponse: {name, response}} | …]}; tools are [{functionDeclarations: [{name,
//     description, parameters | parametersJsonSchema}]}] (Gemini CLI 0.61 sends parametersJsonSchema).
//   - the answer, a GenerateContentResponse: {candidates: [{content: {role: 'model', parts},
//     finishReason: 'STOP', index: 0}], usageMetadata: {promptTokenCount, candidatesTokenCount,
//     totalTokenCount, thoughtsTokenCount?, cachedContentTokenCount?, cacheTokensDetails?},
//     modelVersion, responseId}; promptTokenCount includes the cached part ("When cachedContent is
//     set, this is still the total effective prompt size meaning this includes the number of tokens
//     in the cached content", the v1beta UsageMetadata reference; cacheTokensDetails is that part
//     by modality, firebase.google.com docs/reference/js/ai.usagemetadata) (FinishReason enum STOP,
//     MAX_TOKENS, SAFETY, …: ai.google.dev/api/python/google/ai/generativelanguage/Candidate/FinishReason;
//     UsageMetadata: ai.google.dev …/GenerateContentResponse/UsageMetadata and firebase.google.com
//     docs/reference/js/ai.usagemetadata for thoughtsTokenCount). A function call comes whole in one
//     part with finishReason STOP; totalTokenCount = prompt + candidates + thoughts (a recorded
//     gemini-2.5-flash stream in github.com/junjihashimoto/louter, test-data/gemini/).
//   - streaming: `?alt=sse` gives server-sent events, each `data: <a GenerateContentResponse>` and a
//     blank line, no [DONE]; every chunk carries the usageMetadata so far (cumulative) and the last
//     one the finishReason (the same recording; "There is no [DONE] sentinel", pub.dev prism_kit's
//     GeminiStreamClient). Without alt=sse the stream is one JSON array of the responses (louter's
//     test-data/gemini/README.md). Gemini CLI (google-genai-sdk 1.30) reads SSE only: it splits on
//     /^\s*data: (.*)(?:\n\n|\r\r|\r\n\r\n)/ (its bundle).
//   - errors: {error: {code, message, status}} with the gRPC status name (ai.google.dev/gemini-api/
//     docs/troubleshooting: 400 INVALID_ARGUMENT / FAILED_PRECONDITION, 403 PERMISSION_DENIED, 404
//     NOT_FOUND, 429 RESOURCE_EXHAUSTED, 500 INTERNAL, 503 UNAVAILABLE, 504 DEADLINE_EXCEEDED); a bad
//     key is 400 INVALID_ARGUMENT "API key not valid. Please pass a valid API key." with an ErrorInfo
//     detail reason API_KEY_INVALID (the official error docs, as quoted on developersdigest.tech); no
//     key at all is 403 PERMISSION_DENIED "Method doesn't allow unregistered callers …" (as reported
//     in google-gemini/deprecated-generative-ai-python#463 and googleapis/js-genai#898); both
//     word for word in tests/helpers/provider-keys.ts.
//   - the key: header x-goog-api-key, or the query parameter ?key= (both are accepted by the API;
//     Gemini CLI and the AI SDK send the header).
//   - POST …:countTokens → {totalTokens} (CountTokensResponse); GET /v1beta/models → {models: [Model]}
//     and GET /v1beta/models/{m} → Model {name: 'models/…', displayName, inputTokenLimit,
//     outputTokenLimit, supportedGenerationMethods} (models.list / models.get).
// Side requests are a client's utility calls beside the conversation: Gemini CLI asks for JSON by
// schema (generationConfig.responseJsonSchema + responseMimeType application/json) for its
// next-speaker check, loop detection and model routing. By default those are side requests: they
// are answered with a JSON object filled from the schema (first enum value, 0, false, "") without
// consuming the script, and recorded (with their usage: the CLI counts them in its stats).
// countTokens and the model lists never consume the script and report no usage.
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { GEMINI_TABLE_MODELS, geminiRefusal } from './model-rules.js';
import { geminiKeyRefusal, SCRIPTED_GEMINI_KEY } from './provider-keys.js';
import { scriptedServer } from './scripted-server.js';

export { SCRIPTED_GEMINI_KEY };

/** The model names the tests' Gemini clients ask for, served besides the model table's Gemini ids. */
export const GEMINI_TEST_MODELS: readonly string[] = ['scripted-model', 'scripted-gemini', 'm'];

export interface GeminiUsage {
  /** The whole prompt, its cached part included ("the total effective prompt size"). */
  promptTokenCount: number;
  candidatesTokenCount: number;
  /** Thinking tokens (billed as output). */
  thoughtsTokenCount?: number;
  /** The part of the prompt served from the (implicit or explicit) context cache; within promptTokenCount. */
  cachedContentTokenCount?: number;
}

/**
 * One answer, as in scripted-llm.ts; delayMs holds it back (to test timeouts). `thought` adds a
 * thought-summary part ({text, thought: true}) before the answer. `breakMidway` starts the answer
 * and then drops the connection. An HTTP error may carry its status name and response headers.
 */
export type ScriptTurn = { delayMs?: number } & (
  | {
      toolCalls: Array<{ name: string; args: unknown }>;
      text?: string;
      thought?: string;
      usage?: GeminiUsage;
      breakMidway?: boolean;
      finishReason?: FinishReason;
    }
  | { text: string; thought?: string; usage?: GeminiUsage; breakMidway?: boolean; finishReason?: FinishReason }
  | { noParts: true; finishReason: FinishReason; finishMessage?: string; usage?: GeminiUsage }
  | { httpError: number; message: string; status?: string; headers?: Record<string, string>; details?: unknown[] }
);

/** Candidate.FinishReason values a turn may end with (ai.google.dev/api/generate-content#FinishReason). */
export type FinishReason = 'STOP' | 'MAX_TOKENS' | 'SAFETY' | 'RECITATION' | 'MALFORMED_FUNCTION_CALL' | 'OTHER';

/** The Help detail a quota 429 carries first. */
const QUOTA_HELP = {
  '@type': 'type.googleapis.com/google.rpc.Help',
  links: [
    { description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' },
  ],
};

/**
 * A 429 as the Gemini API sends it: RESOURCE_EXHAUSTED, no retry header, the wait only in the
 * body as a google.rpc.RetryInfo detail whose retryDelay is a protobuf Duration ("31s", "0.5s"),
 * beside Help and QuotaFailure details (bodies quoted in mscraftsman/generative-ai#131,
 * browserbase/mcp-server-browserbase#129; "Gemini answers a 429 without a Retry-After header",
 * dcdpr/jp#1061; googleapis/python-genai#2114).
 */
export function geminiRateLimit(retryDelay: string): ScriptTurn {
  return {
    httpError: 429,
    status: 'RESOURCE_EXHAUSTED',
    message: `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_paid_tier_requests, limit: 60\nPlease retry in ${retryDelay}.`,
    details: [
      QUOTA_HELP,
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: 'generativelanguage.googleapis.com/generate_content_paid_tier_requests',
            quotaId: 'GenerateRequestsPerMinutePerProjectPerModel',
            quotaDimensions: { location: 'global', model: 'scripted' },
            quotaValue: '60',
          },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
    ],
  };
}

/**
 * A project without billing asking for a model that has no free tier: 429 RESOURCE_EXHAUSTED whose
 * free-tier quotas all have "limit: 0", so no wait helps (the RetryInfo wait notwithstanding). The
 * body as relayed verbatim in continuedev/continue#10062, #10085, #12205 and
 * google-gemini/gemini-cli#22486 (message lines), googleapis/python-genai#2044 (the QuotaFailure
 * violations of a free tier, no quotaValue) and gemini-cli-action#36 (the detail order).
 */
export function geminiNoBilling(model: string, retryDelay = '20s'): ScriptTurn {
  const metric = (m: string) => `generativelanguage.googleapis.com/generate_content_free_tier_${m}`;
  const violations: Array<[string, string]> = [
    [metric('input_token_count'), 'GenerateContentInputTokensPerModelPerMinute-FreeTier'],
    [metric('requests'), 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier'],
    [metric('requests'), 'GenerateRequestsPerDayPerProjectPerModel-FreeTier'],
  ];
  return {
    httpError: 429,
    status: 'RESOURCE_EXHAUSTED',
    message: `You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits. To monitor your current usage, head to: https://ai.dev/rate-limit. \n${violations.map(([m]) => `* Quota exceeded for metric: ${m}, limit: 0, model: ${model}\n`).join('')}Please retry in ${retryDelay}.`,
    details: [
      QUOTA_HELP,
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: violations.map(([quotaMetric, quotaId]) => ({
          quotaMetric,
          quotaId,
          quotaDimensions: { location: 'global', model },
        })),
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
    ],
  };
}

export type GeminiPart =
  | { text: string; thought?: boolean }
  | { functionCall: { name: string; args?: Record<string, unknown>; id?: string } }
  | { functionResponse: { name: string; response: Record<string, unknown>; id?: string } }
  | Record<string, unknown>;

export interface GeminiContent {
  role?: 'user' | 'model';
  parts: GeminiPart[];
}

export interface FunctionDeclaration {
  name: string;
  description?: string;
  parameters?: unknown;
  parametersJsonSchema?: unknown;
}

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'models.get' | 'models.list';

export interface UsageMetadata {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  cacheTokensDetails?: Array<{ modality: string; tokenCount: number }>;
}

/** The cache fields of a usage: cachedContentTokenCount and its breakdown by modality, when some were cached. */
const cacheFields = (cached: number | undefined) =>
  cached ? { cachedContentTokenCount: cached, cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] } : {};

export interface ScriptedRequest {
  index: number;
  method: GeminiMethod;
  /** The model of the path (decoded; `models/` stripped). */
  model: string;
  /** streamGenerateContent. */
  stream: boolean;
  /** The stream was asked for as server-sent events (?alt=sse). */
  sse: boolean;
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  /** Every function declaration of every tool. */
  tools: FunctionDeclaration[];
  generationConfig?: Record<string, any>;
  /** Every request header (lower-case names), as received. */
  headers: Record<string, string>;
  /** The key sent (x-goog-api-key, else ?key=). */
  apiKey: string | undefined;
  /** Answered without consuming the script (a utility request, countTokens, a model list). */
  side: boolean;
  /** When it arrived (Date.now()). */
  at: number;
  /** The usage answered (null for errors, side calls that report none, and broken answers). */
  usage: UsageMetadata | null;
  turn: ScriptTurn | null;
}

export type Script = ScriptTurn[] | ((request: ScriptedRequest) => ScriptTurn | undefined);

export interface ScriptedGeminiOptions {
  /**
   * The key requests must carry (default SCRIPTED_GEMINI_KEY): another is the API's 400
   * API_KEY_INVALID, none its 403 PERMISSION_DENIED (tests/helpers/provider-keys.ts).
   */
  apiKey?: string;
  /**
   * The models the API serves (default: the model table's Gemini ids and GEMINI_TEST_MODELS). Any
   * other is the API's 404 NOT_FOUND "models/<m> is not found for API version v1beta, or is not
   * supported for generateContent. Call ListModels to see the list of available models and their
   * supported methods." (google/adk-python#200, continuedev/continue#9939; streamed:
   * StreamGenerateContent, ChatGPTNextWeb/NextChat#4699).
   */
  models?: string[];
  /** Which generate requests are side requests (default: those asking for JSON by schema). */
  isSide?: (request: ScriptedRequest) => boolean;
  /** The answer to a side request (default: JSON filled from its schema, or a short text). */
  side?: (request: ScriptedRequest) => ScriptTurn | undefined;
  /** Refuse streamGenerateContent with a 400 (for clients that must not stream). */
  noStreaming?: boolean;
  /**
   * Thought signatures (ai.google.dev/gemini-api/docs/thought-signatures): the first functionCall
   * part of each answer carries an opaque `thoughtSignature` beside it, and a request replaying a
   * model turn whose first functionCall lacks the signature it was given is refused with 400
   * INVALID_ARGUMENT "Function call is missing a thought_signature in functionCall parts. …"
   * (the message as quoted in google-gemini/gemini-cli#26682, csells/dartantic#86). Default true;
   * false sends none and checks none (as older models).
   */
  thoughtSignatures?: boolean;
}

export interface ScriptedGemini {
  /** The root, as Gemini CLI's GOOGLE_GEMINI_BASE_URL takes it: http://127.0.0.1:<port> */
  rootURL: string;
  /** The versioned base, as the AI SDK's baseURL and the LLM-player take it: <root>/v1beta */
  baseURL: string;
  requests: ScriptedRequest[];
  /**
   * Sum of the usage answered, by kind as catarena records it: input not read from the cache
   * (promptTokenCount − cachedContentTokenCount), cache reads (when any), output with thinking
   * tokens (billed as output).
   */
  totalUsage(): { input: number; output: number; cacheRead?: number };
  close(): Promise<void>;
}

/** Tool-calling model turns in a request: the step within one conversation. */
export function stepOf(request: ScriptedRequest): number {
  return request.contents.filter((c) => c.role === 'model' && c.parts.some((p) => 'functionCall' in p)).length;
}

/** A script replayed from step 0 in every new conversation (so each retry sees the same turns). */
export function perConversation(turns: ScriptTurn[]): Script {
  return (req) => turns[stepOf(req)];
}

/** The function responses the model was sent in a request, as JSON text. */
export function toolResults(request: ScriptedRequest): string[] {
  return request.contents
    .flatMap((c) => c.parts)
    .filter(
      (p): p is { functionResponse: { name: string; response: Record<string, unknown> } } => 'functionResponse' in p,
    )
    .map((p) => JSON.stringify(p.functionResponse.response));
}

/** The text of the last user content (the prompt or the latest function results). */
export function lastUserText(request: ScriptedRequest): string {
  const last = [...request.contents].reverse().find((c) => c.role !== 'model');
  return (last?.parts ?? []).map((p) => ('text' in p && typeof p.text === 'string' ? p.text : '')).join('');
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const approxTokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));
const isJsonBySchema = (r: ScriptedRequest) =>
  !!(r.generationConfig?.responseJsonSchema ?? r.generationConfig?.responseSchema);

/** A value of a JSON schema: the first enum value, 0, false, "", [] or an object of its properties. */
export function sampleOf(schema: any): unknown {
  if (!schema || typeof schema !== 'object') return '';
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = String(
    Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : 'string')),
  ).toLowerCase();
  if (type === 'object')
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleOf(v)]));
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  return 'scripted';
}

/** The default side answer: JSON from the requested schema, else a short text. */
function defaultSide(req: ScriptedRequest): ScriptTurn {
  const schema = req.generationConfig?.responseJsonSchema ?? req.generationConfig?.responseSchema;
  return { text: schema ? JSON.stringify(sampleOf(schema)) : '(scripted side answer)' };
}

export async function startScriptedGemini(
  script: Script,
  options: ScriptedGeminiOptions = {},
): Promise<ScriptedGemini> {
  const requests: ScriptedRequest[] = [];
  const served = options.models ?? [...GEMINI_TABLE_MODELS, ...GEMINI_TEST_MODELS];
  const signatures = new Set<string>();
  const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const sendError = (
    res: http.ServerResponse,
    code: number,
    message: string,
    status?: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) =>
    sendJson(
      res,
      code,
      { error: { code, message, status: status ?? STATUS_NAMES[code] ?? 'UNKNOWN', ...extra } },
      headers,
    );

  const modelResource = (id: string) => ({
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: `${id} (scripted)`,
    description: 'A scripted model for tests.',
    inputTokenLimit: 1_048_576,
    outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  });

  const server = scriptedServer<ScriptedRequest, ScriptTurn>(script, (req, res, raw) => {
    const url = new URL(req.url ?? '/', 'http://scripted');
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
    );
    const apiKey = headers['x-goog-api-key'] || url.searchParams.get('key') || undefined;
    // /v1beta/models/<model>:<method>, /v1beta/models/<model>, /v1beta/models (v1 too).
    const m = /^\/(v1|v1beta|v1alpha)\/models(?:\/([^/:]+)(?::([A-Za-z]+))?)?$/.exec(url.pathname);
    const model = m?.[2] ? decodeURIComponent(m[2]).replace(/^models\//, '') : '';
    const verb = m?.[3];
    let method: GeminiMethod | undefined;
    if (req.method === 'GET' && m && !verb) method = model ? 'models.get' : 'models.list';
    else if (
      req.method === 'POST' &&
      (verb === 'generateContent' || verb === 'streamGenerateContent' || verb === 'countTokens')
    )
      method = verb;
    if (!method) return sendError(res, 404, `scripted-gemini: no route ${req.method} ${url.pathname}`);
    let body: Record<string, any> = {};
    if (req.method === 'POST') {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendError(res, 400, 'Invalid JSON payload received.');
      }
    }
    // countTokens may wrap a whole request: {generateContentRequest: {model, contents, …}}.
    const inner = (method === 'countTokens' && body.generateContentRequest) || body;
    const record: ScriptedRequest = {
      index: requests.length,
      method,
      model,
      stream: method === 'streamGenerateContent',
      sse: url.searchParams.get('alt') === 'sse',
      contents: Array.isArray(inner.contents) ? inner.contents : [],
      ...(inner.systemInstruction ? { systemInstruction: inner.systemInstruction } : {}),
      tools: (Array.isArray(inner.tools) ? inner.tools : []).flatMap((t: any) =>
        Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : [],
      ),
      ...(inner.generationConfig ? { generationConfig: inner.generationConfig } : {}),
      headers,
      apiKey,
      side: false,
      at: Date.now(),
      usage: null,
      turn: null,
    };
    requests.push(record);
    const refusedKey = geminiKeyRefusal(apiKey, options.apiKey ?? SCRIPTED_GEMINI_KEY);
    if (refusedKey) {
      record.side = true;
      return sendJson(res, refusedKey.status, refusedKey.body);
    }
    if (method === 'models.list') {
      record.side = true;
      return sendJson(res, 200, { models: served.map(modelResource) });
    }
    if (!served.includes(model)) {
      record.side = true;
      const verbName = method === 'streamGenerateContent' ? 'StreamGenerateContent' : (verb ?? 'get');
      return sendError(
        res,
        404,
        `models/${model} is not found for API version ${m?.[1] ?? 'v1beta'}, or is not supported for ${verbName}. Call ListModels to see the list of available models and their supported methods.`,
      );
    }
    if (method === 'models.get') {
      record.side = true;
      return sendJson(res, 200, modelResource(model));
    }
    if (method === 'countTokens') {
      record.side = true;
      return sendJson(res, 200, {
        totalTokens:
          approxTokens(record.contents) +
          (record.systemInstruction ? approxTokens(record.systemInstruction) : 0) +
          (record.tools.length ? approxTokens(record.tools) : 0),
      });
    }
    if (!record.contents.length)
      return sendError(res, 400, '* GenerateContentRequest.contents: contents is not specified');
    // What the model's family refuses in its thinking config, always (tests/helpers/model-rules.ts).
    const refused = geminiRefusal(model, record.generationConfig ? { generationConfig: record.generationConfig } : {});
    if (refused) return sendError(res, 400, refused, 'INVALID_ARGUMENT');
    if (record.stream && options.noStreaming)
      return sendError(res, 400, 'scripted-gemini: streaming is not implemented');
    if (options.thoughtSignatures !== false) {
      let position = 0;
      for (const c of record.contents) {
        position++;
        if (c.role !== 'model') continue;
        const first = c.parts.find((p) => 'functionCall' in p) as
          | { functionCall: { name: string }; thoughtSignature?: string }
          | undefined;
        if (first && !(first.thoughtSignature && signatures.has(first.thoughtSignature))) {
          return sendError(
            res,
            400,
            `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall.name}\` , position ${position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
          );
        }
      }
    }
    record.side = (options.isSide ?? isJsonBySchema)(record);
    let turn: ScriptTurn;
    if (record.side) turn = options.side?.(record) ?? defaultSide(record);
    else {
      turn = server.nextTurn(record);
    }
    record.turn = turn;
    server.answerAfter(turn.delayMs, () => answer(record, turn, res));
  });

  /** The turn's usage, or one approximated from the request and the answer (about 4 characters a token). */
  function usageOf(
    record: ScriptedRequest,
    turn: { usage?: GeminiUsage; thought?: string },
    answer: unknown,
  ): UsageMetadata {
    const u: GeminiUsage = turn.usage ?? {
      promptTokenCount:
        approxTokens(record.contents) +
        (record.systemInstruction ? approxTokens(record.systemInstruction) : 0) +
        (record.tools.length ? approxTokens(record.tools) : 0),
      candidatesTokenCount: approxTokens(answer),
      ...(turn.thought ? { thoughtsTokenCount: approxTokens(turn.thought) } : {}),
    };
    const thoughts = u.thoughtsTokenCount ?? 0;
    return {
      promptTokenCount: u.promptTokenCount,
      candidatesTokenCount: u.candidatesTokenCount,
      totalTokenCount: u.promptTokenCount + u.candidatesTokenCount + thoughts,
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
      ...cacheFields(u.cachedContentTokenCount),
    };
  }

  /** Sends the turn; usage is recorded only when the answer was delivered (not to an aborted client). */
  function answer(record: ScriptedRequest, turn: ScriptTurn, res: http.ServerResponse): void {
    if (res.destroyed) return;
    if ('httpError' in turn)
      return sendError(
        res,
        turn.httpError,
        turn.message,
        turn.status,
        turn.details ? { details: turn.details } : {},
        turn.headers,
      );
    const base = { modelVersion: record.model, responseId: randomBytes(12).toString('base64url') };
    if ('noParts' in turn) {
      // A candidate with a finish reason and no content (MALFORMED_FUNCTION_CALL, SAFETY, …), as
      // recorded in pydantic/pydantic-ai#3300 and 0xPlaygrounds/rig#1030: {finishReason,
      // finishMessage?, index}, usage with the prompt only.
      const u: UsageMetadata = {
        promptTokenCount: turn.usage?.promptTokenCount ?? usageOf(record, {}, '').promptTokenCount,
        candidatesTokenCount: 0,
        totalTokenCount: 0,
        ...cacheFields(turn.usage?.cachedContentTokenCount),
      };
      u.totalTokenCount = u.promptTokenCount;
      const body = JSON.stringify({
        candidates: [
          {
            finishReason: turn.finishReason,
            ...(turn.finishMessage ? { finishMessage: turn.finishMessage } : {}),
            index: 0,
          },
        ],
        usageMetadata: u,
        ...base,
      });
      record.usage = u;
      if (!record.stream) return sendJsonRaw(res, body);
      if (!record.sse) return sendJsonRaw(res, `[${body}]`);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      return void res.end(`data: ${body}\r\n\r\n`);
    }
    const calls: GeminiPart[] =
      'toolCalls' in turn
        ? turn.toolCalls.map((c) => ({
            functionCall: { name: c.name, args: (c.args ?? {}) as Record<string, unknown> },
          }))
        : [];
    if (calls.length && options.thoughtSignatures !== false) {
      const signature = randomBytes(24).toString('base64');
      signatures.add(signature);
      calls[0] = { ...calls[0], thoughtSignature: signature };
    }
    const usage = usageOf(record, turn, [turn.text ?? '', ...calls]);
    const finishReason = turn.finishReason ?? 'STOP';
    const response = (parts: GeminiPart[], u: UsageMetadata, finished: boolean) => ({
      candidates: [{ content: { parts, role: 'model' }, ...(finished ? { finishReason } : {}), index: 0 }],
      usageMetadata: u,
      ...base,
    });
    // The answer in pieces: a thought summary, the text in slices, the function calls whole (with the last piece).
    const pieces: GeminiPart[][] = [];
    if (turn.thought) pieces.push([{ text: turn.thought, thought: true }]);
    const text = turn.text ?? '';
    for (let i = 0; i < text.length; i += 60) pieces.push([{ text: text.slice(i, i + 60) }]);
    if (calls.length) {
      if (text) pieces[pieces.length - 1]!.push(...calls);
      else pieces.push(calls);
    }
    if (!pieces.length) pieces.push([{ text: '' }]);
    if (!record.stream) {
      const body = JSON.stringify(response(pieces.flat().reduce<GeminiPart[]>(mergeText, []), usage, true));
      if (turn.breakMidway)
        return breakOff(res, 200, 'application/json; charset=UTF-8', body.slice(0, Math.floor(body.length / 2)));
      record.usage = usage;
      return sendJsonRaw(res, body);
    }
    // Cumulative usage per chunk: the prompt (and thoughts) from the first, the candidates growing.
    const frames = pieces.map((parts, k) => {
      const candidates = Math.round((usage.candidatesTokenCount * (k + 1)) / pieces.length);
      const thoughts = usage.thoughtsTokenCount ?? 0;
      const u: UsageMetadata = {
        promptTokenCount: usage.promptTokenCount,
        candidatesTokenCount: candidates,
        totalTokenCount: usage.promptTokenCount + candidates + thoughts,
        ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
        ...cacheFields(usage.cachedContentTokenCount),
      };
      return response(parts, u, k === pieces.length - 1);
    });
    if (!record.sse) {
      const body = JSON.stringify(frames);
      if (turn.breakMidway)
        return breakOff(res, 200, 'application/json; charset=UTF-8', body.slice(0, Math.floor(body.length / 2)));
      record.usage = usage;
      return sendJsonRaw(res, body);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (turn.breakMidway)
      return breakOff(res, 0, '', frames.length > 1 ? `data: ${JSON.stringify(frames[0])}\r\n\r\n` : '');
    for (const f of frames) res.write(`data: ${JSON.stringify(f)}\r\n\r\n`);
    record.usage = usage;
    res.end();
  }

  const sendJsonRaw = (res: http.ServerResponse, body: string) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(body);
  };

  /** Part of an answer, then the connection dropped (no usage is recorded: nothing whole was delivered). */
  function breakOff(res: http.ServerResponse, status: number, type: string, part: string): void {
    if (status) res.writeHead(status, { 'content-type': type });
    res.write(part);
    setTimeout(() => res.socket?.destroy(), 20);
  }

  const origin = await server.listen();
  const rootURL = origin;
  return {
    rootURL,
    baseURL: `${rootURL}/v1beta`,
    requests,
    totalUsage: () => {
      const t = requests.reduce(
        (s, r) => ({
          input: s.input + (r.usage?.promptTokenCount ?? 0) - (r.usage?.cachedContentTokenCount ?? 0),
          cacheRead: s.cacheRead + (r.usage?.cachedContentTokenCount ?? 0),
          output: s.output + (r.usage?.candidatesTokenCount ?? 0) + (r.usage?.thoughtsTokenCount ?? 0),
        }),
        { input: 0, cacheRead: 0, output: 0 },
      );
      return { input: t.input, output: t.output, ...(t.cacheRead ? { cacheRead: t.cacheRead } : {}) };
    },
    close: server.close,
  };
}

/** Non-streamed answers join adjacent plain text parts (one text part, then the function calls). */
function mergeText(out: GeminiPart[], p: GeminiPart): GeminiPart[] {
  const prev = out[out.length - 1];
  if (
    prev &&
    'text' in p &&
    'text' in prev &&
    !(prev as { thought?: boolean }).thought &&
    !(p as { thought?: boolean }).thought
  ) {
    out[out.length - 1] = { text: `${prev.text}${p.text}` };
  } else out.push(p);
  return out;
}
