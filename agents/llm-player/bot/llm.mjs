// The LLM behind the LLM-player bot, over plain fetch (Node ≥ 18, no dependencies; through the
// host's HTTP(S)_PROXY when the sandbox passes one, see proxy-fetch.mjs):
//   openai, openai-compatible   POST {base}/chat/completions   (Authorization: Bearer $OPENAI_API_KEY)
//   openai, Responses-only models (game.json call.api "responses": *-pro, *-codex)
//                               POST {base}/responses           (the same key)
//   anthropic                   POST {base}/messages           (x-api-key: $ANTHROPIC_API_KEY)
//   google                      POST {base}/models/{model}:generateContent (x-goog-api-key: $GEMINI_API_KEY)
// The key comes from the bot's environment only (the process sandbox copies it in because the bot
// folder's catarena-env.json names it); it is never written to a file or printed: error messages
// are redacted. The base URL: env CATARENA_LLM_BASE_URL, else game.json's baseUrl, else the
// provider's public endpoint (openai-compatible has none and needs one).
// game.json's `call` (written by the agent from the model table, agents/llm-player/call-plan.ts)
// says the API, Anthropic's max_tokens and thinking form; `sampling` holds only what the model
// accepts. Every answer carries its stop reason (stop_reason, finish_reason, status, finishReason).

import { proxiedFetch } from './proxy-fetch.mjs';

export const PROVIDERS = ['openai', 'openai-compatible', 'anthropic', 'google'];

const DEFAULT_BASE = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

export class LlmError extends Error {
  constructor(message, status = 0, retryAfterMs = undefined) {
    super(message);
    this.name = 'LlmError';
    this.status = status;
    /** How long the server asked to wait before asking again (a 429's or 529's signal), if it said. */
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * The wait a refused request asks for, as each provider says it: `retry-after-ms` (milliseconds;
 * OpenAI's, which its SDK prefers), `retry-after` (seconds or an HTTP date; OpenAI, Anthropic), or,
 * from Google, no header but a google.rpc.RetryInfo detail in the body's error.details:
 * {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "31s"} (a protobuf
 * Duration: seconds with an "s", fractions allowed).
 */
export function retryAfterMs(headers, text) {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers.get('retry-after');
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  try {
    const details = JSON.parse(text)?.error?.details;
    const info = Array.isArray(details)
      ? details.find((d) => String(d?.['@type'] ?? '').endsWith('google.rpc.RetryInfo'))
      : undefined;
    const m = /^(\d+(?:\.\d+)?)s$/.exec(String(info?.retryDelay ?? ''));
    if (m) return Math.round(Number(m[1]) * 1000);
  } catch {
    // not JSON
  }
  return undefined;
}

const pick = (env, ...names) => names.map((n) => env[n]?.trim()).find((v) => v) || '';

/**
 * A client for game.json's provider and model: { describe, complete(messages, signal) →
 * {text, usage: {input, cacheRead, cacheWrite, output}} }, tokens by kind as billed: input not
 * read from a cache, cache reads, cache writes, output (reasoning and thinking included). messages: [{role: 'system' | 'user' | 'assistant', content}].
 * Throws at once (the bot then refuses to start) for an unknown provider or a missing key.
 */
export function createLlm(config, env = process.env) {
  const { provider, model } = config;
  if (!PROVIDERS.includes(provider)) {
    throw new Error(
      `provider "${provider}" is not supported by the LLM-player bot; use one of ${PROVIDERS.join(', ')}`,
    );
  }
  if (typeof model !== 'string' || !model.trim()) throw new Error('game.json has no model');
  // An LLM-player with its own endpoint (a config agents: entry) names its base-URL and key variables in game.json.
  const baseVar =
    typeof config.baseUrlVar === 'string' && config.baseUrlVar ? config.baseUrlVar : 'CATARENA_LLM_BASE_URL';
  const base = (
    pick(env, baseVar) ||
    (typeof config.baseUrl === 'string' ? config.baseUrl.trim() : '') ||
    DEFAULT_BASE[provider] ||
    ''
  ).replace(/\/+$/, '');
  if (!base)
    throw new Error(`provider ${provider} needs a base URL: set CATARENA_LLM_BASE_URL (or baseUrl in game.json)`);
  const keyNames =
    typeof config.keyEnv === 'string' && config.keyEnv
      ? [config.keyEnv]
      : provider === 'anthropic'
        ? ['ANTHROPIC_API_KEY']
        : provider === 'google'
          ? ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY']
          : ['OPENAI_API_KEY'];
  const key = pick(env, ...keyNames);
  // A local OpenAI-compatible server (vLLM, llama.cpp, Ollama) may need no key; the others do.
  if (!key && provider !== 'openai-compatible') {
    throw new Error(
      `${keyNames.join(' or ')} is not set in the bot's environment. The process sandbox passes it from the orchestrator's ` +
        'environment because catarena-env.json names it; the docker sandbox gives a placeholder and its egress proxy adds the key',
    );
  }
  const redact = (s) => (key && key.length >= 4 ? String(s).split(key).join('***') : String(s));

  async function post(url, headers, body, signal) {
    let res;
    try {
      res = await proxiedFetch(
        url,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
          signal,
        },
        env,
      );
    } catch (err) {
      const why =
        err?.name === 'TimeoutError' || err?.name === 'AbortError'
          ? 'timed out'
          : err?.cause?.code || err?.message || String(err);
      throw new LlmError(redact(`request failed: ${why}`));
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      throw new LlmError(
        redact(`HTTP ${res.status}: ${text.slice(0, 200).replace(/\s+/g, ' ')}`),
        res.status,
        retryAfterMs(res.headers, text),
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new LlmError(redact(`answer is not JSON: ${text.slice(0, 100)}`), res.status);
    }
  }

  // Sampling options (game.json `sampling`: what the model accepts), each in its provider's field, sent only when set:
  //   OpenAI chat completions: temperature, top_p, reasoning_effort (reasoning models);
  //   OpenAI Responses: temperature, top_p, reasoning {effort};
  //   Anthropic messages: temperature, top_p, thinking {type: "enabled", budget_tokens} (at least
  //     1024, below max_tokens; no temperature or top_p beside it) or {type: "adaptive"} with
  //     output_config {effort} (platform.claude.com/docs/en/build-with-claude/effort);
  //   Gemini generateContent: generationConfig {temperature, topP, thinkingConfig {thinkingBudget}}.
  const sampling = config.sampling && typeof config.sampling === 'object' ? config.sampling : {};
  const call = config.call && typeof config.call === 'object' ? config.call : {};
  const set = (v) => v !== undefined && v !== null && v !== '';
  // A game.json written before `call` existed: extended thinking from sampling.thinkingBudget.
  const legacyBudget =
    provider === 'anthropic' && !config.call && Number(sampling.thinkingBudget) >= 1024
      ? Math.floor(Number(sampling.thinkingBudget))
      : 0;
  const thinking =
    call.thinking?.type === 'enabled'
      ? { type: 'enabled', budget_tokens: Math.floor(Number(call.thinking.budgetTokens)) }
      : call.thinking?.type === 'adaptive'
        ? { type: 'adaptive' }
        : legacyBudget
          ? { type: 'enabled', budget_tokens: legacyBudget }
          : undefined;
  const effort = call.thinking?.type === 'adaptive' && call.thinking.effort ? String(call.thinking.effort) : '';
  // Anthropic's max_tokens: thinking counts toward it. An answer cut off by it with no text left
  // (stop_reason max_tokens) doubles it for the calls after, up to the model's limit.
  let maxTokens =
    Number(call.maxTokens) > 0 ? Math.floor(Number(call.maxTokens)) : legacyBudget ? legacyBudget + 1024 : 256;
  const maxTokensCap = Number(call.maxTokensCap) > 0 ? Number(call.maxTokensCap) : 64_000;
  const grow = (stop, text) => {
    if (stop === 'max_tokens' && !String(text ?? '').trim()) maxTokens = Math.min(maxTokens * 2, maxTokensCap);
  };

  const partsText = (c) =>
    typeof c === 'string'
      ? c
      : Array.isArray(c)
        ? c.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('')
        : '';
  const num = (v) => (Number.isFinite(v) ? v : 0);
  const tokens = (input, cacheRead, cacheWrite, output) => ({
    input: Math.max(0, input),
    cacheRead,
    cacheWrite,
    output,
  });

  const clients = {
    openai: async (messages, signal) => {
      const extra = {
        ...(set(sampling.temperature) ? { temperature: Number(sampling.temperature) } : {}),
        ...(set(sampling.topP) ? { top_p: Number(sampling.topP) } : {}),
        ...(set(sampling.reasoningEffort) ? { reasoning_effort: String(sampling.reasoningEffort) } : {}),
      };
      const body = await post(
        `${base}/chat/completions`,
        key ? { authorization: `Bearer ${key}` } : {},
        { model, messages, ...extra },
        signal,
      );
      const msg = body?.choices?.[0]?.message;
      if (!msg) throw new LlmError('answer has no choices[0].message');
      return {
        text: partsText(msg.content),
        stopReason: String(body.choices[0].finish_reason ?? ''),
        // prompt_tokens includes the cached part, prompt_tokens_details.cached_tokens; completion_tokens
        // includes reasoning (completion_tokens_details.reasoning_tokens).
        usage: tokens(
          num(body.usage?.prompt_tokens) - num(body.usage?.prompt_tokens_details?.cached_tokens),
          num(body.usage?.prompt_tokens_details?.cached_tokens),
          0,
          num(body.usage?.completion_tokens),
        ),
      };
    },
    // The Responses API (developers.openai.com/api/reference/resources/responses): instructions +
    // input messages; output items `message` {content: [output_text]} and `reasoning`; status
    // 'completed' or 'incomplete' (incomplete_details.reason, e.g. max_output_tokens); usage
    // input_tokens (cached ones included: input_tokens_details.cached_tokens) and output_tokens
    // (reasoning included). store: false: nothing of a game is kept on the provider's side.
    responses: async (messages, signal) => {
      const instructions = messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n\n');
      const input = messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content }));
      const body = await post(
        `${base}/responses`,
        key ? { authorization: `Bearer ${key}` } : {},
        {
          model,
          instructions,
          input,
          store: false,
          ...(set(sampling.temperature) ? { temperature: Number(sampling.temperature) } : {}),
          ...(set(sampling.topP) ? { top_p: Number(sampling.topP) } : {}),
          ...(set(sampling.reasoningEffort) ? { reasoning: { effort: String(sampling.reasoningEffort) } } : {}),
        },
        signal,
      );
      if (!Array.isArray(body?.output)) throw new LlmError('answer has no output');
      const text = body.output
        .filter((item) => item?.type === 'message')
        .map((item) => partsText((item.content ?? []).filter((c) => c?.type === 'output_text')))
        .join('');
      const u = body.usage;
      return {
        text,
        stopReason:
          body.status === 'incomplete'
            ? `incomplete: ${body.incomplete_details?.reason ?? '?'}`
            : String(body.status ?? ''),
        usage: tokens(
          num(u?.input_tokens) - num(u?.input_tokens_details?.cached_tokens),
          num(u?.input_tokens_details?.cached_tokens),
          0,
          num(u?.output_tokens),
        ),
      };
    },
    anthropic: async (messages, signal) => {
      const system = messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n\n');
      const rest = messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content }));
      const extra = {
        max_tokens: maxTokens,
        ...(thinking ? { thinking } : {}),
        ...(effort ? { output_config: { effort } } : {}),
        ...(thinking?.type === 'enabled' ? {} : set(sampling.temperature) ? { temperature: Number(sampling.temperature) } : {}),
        ...(thinking?.type === 'enabled' ? {} : set(sampling.topP) ? { top_p: Number(sampling.topP) } : {}),
      };
      const body = await post(
        `${base}/messages`,
        { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        { model, system, messages: rest, ...extra },
        signal,
      );
      if (!Array.isArray(body?.content)) throw new LlmError('answer has no content');
      const text = partsText(body.content.filter((p) => p?.type === 'text'));
      const stopReason = String(body.stop_reason ?? '');
      grow(stopReason, text);
      return {
        text,
        stopReason,
        // input_tokens excludes cache reads and writes, counted apart.
        usage: tokens(
          num(body.usage?.input_tokens),
          num(body.usage?.cache_read_input_tokens),
          num(body.usage?.cache_creation_input_tokens),
          num(body.usage?.output_tokens),
        ),
      };
    },
    google: async (messages, signal) => {
      const system = messages
        .filter((m) => m.role === 'system')
        .map((m) => m.content)
        .join('\n\n');
      const contents = messages
        .filter((m) => m.role !== 'system')
        .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] }));
      const generationConfig = {
        ...(set(sampling.temperature) ? { temperature: Number(sampling.temperature) } : {}),
        ...(set(sampling.topP) ? { topP: Number(sampling.topP) } : {}),
        ...(set(sampling.thinkingBudget)
          ? { thinkingConfig: { thinkingBudget: Math.floor(Number(sampling.thinkingBudget)) } }
          : {}),
      };
      const body = await post(
        `${base}/models/${encodeURIComponent(model)}:generateContent`,
        { 'x-goog-api-key': key },
        {
          systemInstruction: { parts: [{ text: system }] },
          contents,
          ...(Object.keys(generationConfig).length ? { generationConfig } : {}),
        },
        signal,
      );
      const candidate = body?.candidates?.[0];
      const parts = candidate?.content?.parts;
      // Thinking tokens are output (billed so; the AI SDK counts candidates + thoughts too).
      const u = body?.usageMetadata;
      // promptTokenCount includes the cached part (cachedContentTokenCount).
      const usage = tokens(
        num(u?.promptTokenCount) - num(u?.cachedContentTokenCount),
        num(u?.cachedContentTokenCount),
        0,
        num(u?.candidatesTokenCount) + num(u?.thoughtsTokenCount),
      );
      // A candidate may end without content (finishReason SAFETY, MALFORMED_FUNCTION_CALL, …:
      // {finishReason, finishMessage?, index}), its prompt still billed: an answer without a move,
      // asked again, its tokens counted (pydantic-ai#3300, 0xPlaygrounds/rig#1030).
      if (!Array.isArray(parts) && candidate?.finishReason)
        return {
          text: '',
          usage,
          stopReason: String(candidate.finishReason),
          finishReason: `${candidate.finishReason}${candidate.finishMessage ? `: ${candidate.finishMessage}` : ''}`,
        };
      if (!Array.isArray(parts))
        throw new LlmError(
          `answer has no candidates[0].content${body?.promptFeedback?.blockReason ? ` (blocked: ${body.promptFeedback.blockReason})` : ''}`,
        );
      return {
        text: partsText(parts.filter((p) => !p.thought)),
        usage,
        stopReason: String(candidate.finishReason ?? ''),
        ...(candidate.finishReason && candidate.finishReason !== 'STOP'
          ? { finishReason: candidate.finishReason }
          : {}),
      };
    },
  };
  const complete =
    provider === 'openai' && call.api === 'responses'
      ? clients.responses
      : clients[provider === 'openai-compatible' ? 'openai' : provider];
  return {
    describe: `${provider}/${model} at ${base}${provider === 'openai' && call.api === 'responses' ? ' (Responses API)' : ''}`,
    complete,
    redact,
  };
}
