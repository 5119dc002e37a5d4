// Models for the built-in agent from a provider spec `<provider>/<model>`, on the AI SDK 6
// providers. API keys come from the environment only: they are passed to the provider and never
// written anywhere; redactSecrets() masks them in everything the agent logs.
//
// `openai/…` speaks OpenAI's Responses API (every OpenAI model has it; o3-pro, gpt-5-pro and the
// *-codex models have nothing else); `openai-compatible/…` speaks chat completions, which is what
// other providers serve. Every provider fetches through outboundFetch: the host's proxy, and
// header/body timeouts for long non-streaming answers.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { EndpointProbe } from '../core/preflight.ts';
import { outboundFetch, type OutboundOptions } from '../../util/outbound-http.ts';

export const PROVIDERS = ['openai', 'openai-compatible', 'anthropic', 'google'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Environment variables whose values are secrets: masked by redactSecrets, never given to tools. */
export const SECRET_ENV_VARS = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'GEMINI_API_KEY',
] as const;

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface ModelSpec {
  provider: Provider;
  /** The provider's model name, e.g. gpt-4o-mini. */
  modelId: string;
  /** The spec as given: `<provider>/<model>`. */
  spec: string;
}

export interface ResolvedModel extends ModelSpec {
  model: LanguageModel;
  /** The wire API: chat completions, OpenAI Responses, Anthropic Messages or Gemini generateContent. */
  api: 'chat' | 'responses' | 'messages' | 'gemini';
  /** Where requests go (for the log; never contains a key). */
  baseURL?: string;
}

export function parseModelSpec(spec: string): ModelSpec {
  const slash = spec.indexOf('/');
  const provider = slash > 0 ? spec.slice(0, slash) : '';
  const modelId = slash > 0 ? spec.slice(slash + 1).trim() : '';
  if (!(PROVIDERS as readonly string[]).includes(provider) || !modelId) {
    throw new Error(
      `bad model "${spec}": use <provider>/<model> with provider one of ${PROVIDERS.join(', ')} (e.g. openai/gpt-4o-mini, anthropic/claude-sonnet-4-5, google/gemini-2.5-flash)`,
    );
  }
  return { provider: provider as Provider, modelId, spec };
}

type Env = Record<string, string | undefined>;

function requireKey(env: Env, spec: string, ...names: string[]): string {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  throw new Error(
    `${names.join(' or ')} is not set: the model ${spec} needs it (API keys are read from the environment only)`,
  );
}

/**
 * A language model for `<provider>/<model>`; throws an error naming the missing variable. `http`
 * sets the request timeouts (and where the host's proxy variables are read, default `env`);
 * `wrap`, if given, wraps its fetch (the run's budget meters every request: agents/core/run-budget.ts).
 */
export function resolveModel(
  spec: string,
  env: Env = process.env,
  http: OutboundOptions = {},
  /** Wraps the provider's fetch (the built-in agent's patience with rate limits, agents/core/rate-limits.ts). */
  wrapFetch: (f: typeof globalThis.fetch) => typeof globalThis.fetch = (f) => f,
): ResolvedModel {
  const parsed = parseModelSpec(spec);
  const fetch = wrapFetch(outboundFetch({ env, ...http }));
  switch (parsed.provider) {
    case 'openai': {
      const apiKey = requireKey(env, spec, 'OPENAI_API_KEY');
      const baseURL = env.CATARENA_OPENAI_BASE_URL?.trim() || env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL;
      return {
        ...parsed,
        api: 'responses',
        model: createOpenAI({ baseURL, apiKey, fetch }).responses(parsed.modelId),
        baseURL,
      };
    }
    case 'openai-compatible': {
      const apiKey = requireKey(env, spec, 'OPENAI_API_KEY');
      const baseURL = env.CATARENA_OPENAI_BASE_URL?.trim() || env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_BASE_URL;
      const provider = createOpenAICompatible({ name: parsed.provider, baseURL, apiKey, includeUsage: true, fetch });
      return { ...parsed, api: 'chat', model: provider.chatModel(parsed.modelId), baseURL };
    }
    case 'anthropic': {
      const apiKey = requireKey(env, spec, 'ANTHROPIC_API_KEY');
      // ANTHROPIC_BASE_URL as Anthropic's SDKs and Claude Code take it (https://api.anthropic.com,
      // a gateway's https://host/anthropic: they add /v1/messages); the AI SDK adds only
      // /messages, so it gets the versioned base. A URL already ending in /v1 is kept.
      const set = env.ANTHROPIC_BASE_URL?.trim().replace(/\/+$/, '');
      const baseURL = set ? (/\/v1$/.test(set) ? set : `${set}/v1`) : undefined;
      return {
        ...parsed,
        api: 'messages',
        model: createAnthropic({ apiKey, baseURL, fetch })(parsed.modelId),
        baseURL,
      };
    }
    case 'google': {
      const apiKey = requireKey(env, spec, 'GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY');
      // GOOGLE_GEMINI_BASE_URL as Gemini CLI and Google's SDKs take it (the root: they add
      // /v1beta/models/…); the AI SDK adds only /models/…, so it gets the versioned base. A URL
      // already ending in /v1beta or /v1 is kept.
      const set = env.GOOGLE_GEMINI_BASE_URL?.trim().replace(/\/+$/, '');
      const baseURL = set ? (/\/v1(beta)?$/.test(set) ? set : `${set}/v1beta`) : undefined;
      return {
        ...parsed,
        api: 'gemini',
        model: createGoogleGenerativeAI({ apiKey, baseURL, fetch })(parsed.modelId),
        baseURL,
      };
    }
  }
}

/** Replaces the value of every secret environment variable in `text` with `***`. */
export function redactSecrets(text: string, env: Env = process.env): string {
  let out = text;
  const values = SECRET_ENV_VARS.map((name) => env[name]?.trim()).filter((v): v is string => !!v && v.length >= 4);
  // Longest first, so a key that contains another is masked whole.
  for (const value of [...new Set(values)].sort((a, b) => b.length - a.length)) out = out.split(value).join('***');
  return out;
}

/** How the preflight reaches a model's endpoint: its API family, base URL and key header. */
export function endpointProbeOf(resolved: ResolvedModel, env: Env = process.env): EndpointProbe {
  switch (resolved.provider) {
    case 'openai':
    case 'openai-compatible':
      return {
        api: 'openai',
        baseUrl: resolved.baseURL ?? DEFAULT_OPENAI_BASE_URL,
        headers: { authorization: `Bearer ${requireKey(env, resolved.spec, 'OPENAI_API_KEY')}` },
        // The SDK posts {base}/responses or {base}/chat/completions: a base without /v1 fails every call.
        version: {
          segment: '/v1',
          variable: env.CATARENA_OPENAI_BASE_URL?.trim() ? 'CATARENA_OPENAI_BASE_URL' : 'OPENAI_BASE_URL',
        },
      };
    case 'anthropic':
      return {
        api: 'anthropic',
        baseUrl: resolved.baseURL ?? 'https://api.anthropic.com/v1',
        headers: { 'x-api-key': requireKey(env, resolved.spec, 'ANTHROPIC_API_KEY') },
      };
    case 'google':
      return {
        api: 'google',
        baseUrl: resolved.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta',
        headers: { 'x-goog-api-key': requireKey(env, resolved.spec, 'GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY') },
      };
  }
}
