// What the real APIs refuse per model family, for the scripted servers (scripted-llm, -responses,
// -anthropic, -gemini): the rules come from the model table (agents/core/models.json), the words
// from the providers' answers as users quote them. A model the table does not know (a test's own
// "m", "scripted") is held to no family rule.
import { lookupModel, MODEL_TABLE, type ModelFamily, type ModelTable } from '../../agents/core/models.ts';

/** An OpenAI error object: {message, type, param, code}. */
export interface OpenAiRefusal {
  status: number;
  message: string;
  param: string | null;
  code: string | null;
}

// `table`: the families the server holds models to (a test's own entries over MODEL_TABLE make it a
// provider serving that model under those rules, as a run's config `models:` describes it).
const family = (
  model: string,
  provider: ModelFamily['provider'],
  table: ModelTable = MODEL_TABLE,
): ModelFamily | undefined => {
  const f = lookupModel(model, table);
  return f?.provider === provider ? f : undefined;
};

/**
 * Why OpenAI would refuse a chat completions or Responses body for its sampling (a reasoning model:
 * temperature and top_p only at their default 1), or a chat call to a Responses-only model.
 *   temperature ≠ 1: "Unsupported value: 'temperature' does not support 0.1 with this model. Only the
 *     default (1) value is supported." param temperature, code unsupported_value (NVlabs/cvdp_benchmark#29,
 *     QwenLM/qwen-code#921);
 *   top_p: "Unsupported parameter: 'top_p' is not supported with this model." code unsupported_parameter
 *     (lfnovo/open-notebook#107, chatboxai/chatbox#2627);
 *   Responses-only on chat: users report the model "required using the Responses API" (sigoden/aichat#1318);
 *     the API's own words are not in the references.
 */
export function openAiRefusal(
  model: string,
  body: Record<string, unknown>,
  api: 'chat' | 'responses',
): OpenAiRefusal | undefined {
  const f = family(model, 'openai');
  if (!f) return undefined;
  if (api === 'chat' && f.api === 'responses')
    return {
      status: 400,
      message: `scripted: ${model} is served by the Responses API only (POST /v1/responses), not chat completions`,
      param: 'model',
      code: null,
    };
  if (f.sampling !== 'reasoning') return undefined;
  if (body.temperature !== undefined && body.temperature !== 1)
    return {
      status: 400,
      message: `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
      param: 'temperature',
      code: 'unsupported_value',
    };
  if (body.top_p !== undefined && body.top_p !== 1)
    return {
      status: 400,
      message: "Unsupported parameter: 'top_p' is not supported with this model.",
      param: 'top_p',
      code: 'unsupported_parameter',
    };
  return undefined;
}

/**
 * Why Anthropic would refuse a Messages body for its sampling or thinking (a 400
 * invalid_request_error), by the model's family in the table:
 *   one: "`temperature` and `top_p` cannot both be specified for this model. Please use only one."
 *     (langfuse/langfuse#9882, Vali-98/ChatterUI#564);
 *   default-only: "`temperature` is deprecated for this model." (Comfy-Org/ComfyUI#13923,
 *     sipeed/picoclaw#2939); top_p and top_k in the same words (the Sonnet 5 overview: any of the
 *     three at a non-default value is a 400; their own wording is not in the references);
 *   thinking on (enabled, adaptive, or by default) and temperature ≠ 1: "`temperature` may only be set
 *     to 1 when thinking is enabled or in adaptive mode" (dotCipher/opencode-claude-bridge#1);
 *   thinking.type enabled on an adaptive-only model: a 400 (the Bedrock adaptive-thinking page; the
 *     words are not in the references).
 */
export function anthropicRefusal(
  model: string,
  body: Record<string, any>,
  table: ModelTable = MODEL_TABLE,
): string | undefined {
  // Any model: the budget counts toward max_tokens (liuw1535/antigravity2api-nodejs#149); with tools
  // (interleaved thinking) the budget may exceed it, so that case is left alone.
  if (
    body.thinking?.type === 'enabled' &&
    !(Array.isArray(body.tools) && body.tools.length) &&
    Number(body.thinking.budget_tokens) >= Number(body.max_tokens)
  )
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  const f = family(model, 'anthropic', table);
  if (!f) return undefined;
  const has = (k: string) => body[k] !== undefined && body[k] !== null;
  if (f.sampling === 'one' && has('temperature') && has('top_p'))
    return '`temperature` and `top_p` cannot both be specified for this model. Please use only one.';
  if (f.sampling === 'default-only')
    for (const k of ['temperature', 'top_p', 'top_k']) if (has(k)) return `\`${k}\` is deprecated for this model.`;
  if (body.thinking?.type === 'enabled' && f.thinking === 'adaptive-only')
    return `thinking.type: "enabled" is not supported for this model; use thinking.type "adaptive" with output_config.effort (scripted-anthropic: the API's own words are not in the references)`;
  if (thinks(model, body, table) && has('temperature') && body.temperature !== 1)
    return '`temperature` may only be set to 1 when thinking is enabled or in adaptive mode';
  return undefined;
}

/**
 * The Gemini models whose thinking cannot be turned off: thinkingBudget 0 is a 400 INVALID_ARGUMENT
 * "Budget 0 is invalid. This model only works in thinking mode." (gemini-2.5-pro: vercel/ai#8027,
 * snailyp/gemini-balance#206, the thinking guide's "Thinking can't be turned off for Gemini 2.5 Pro";
 * gemini-3.1-pro-preview: docker/docker-agent#2051; gemini-3.5-flash-lite: googleapis/python-genai#2936).
 */
const GEMINI_ALWAYS_THINKING = ['gemini-2.5-pro', 'gemini-3.1-pro-preview', 'gemini-3.5-flash-lite'];

/**
 * Why Gemini would refuse a generateContent body for its thinking config (a 400 INVALID_ARGUMENT),
 * by the model's family in the table:
 *   thinkingLevel on a model before Gemini 3 (thinking form gemini-budget): "If you use the
 *     thinking_level parameter with a model earlier than Gemini 3, the model returns an error" (the
 *     thinking guide, quoted in juspay/neurolink#1707; its words are not in the references);
 *   thinkingLevel and thinkingBudget together (the table's gemini-level form: a 400; words not in
 *     the references either);
 *   thinkingBudget 0 on a model that only thinks (GEMINI_ALWAYS_THINKING).
 */
export function geminiRefusal(model: string, body: Record<string, any>): string | undefined {
  const f = family(model, 'google');
  const tc = body?.generationConfig?.thinkingConfig;
  if (!f || !tc || typeof tc !== 'object') return undefined;
  const level = tc.thinkingLevel !== undefined && tc.thinkingLevel !== null;
  const budget = tc.thinkingBudget !== undefined && tc.thinkingBudget !== null;
  if (level && f.thinking === 'gemini-budget')
    return `thinking_level is not supported by ${model}; use thinking_budget (scripted-gemini: the API's own words are not in the references)`;
  if (level && budget)
    return "thinking_budget and thinking_level cannot both be set (scripted-gemini: the API's own words are not in the references)";
  if (budget && Number(tc.thinkingBudget) === 0 && GEMINI_ALWAYS_THINKING.includes(f.match ?? ''))
    return 'Budget 0 is invalid. This model only works in thinking mode.';
  // Over the model's maximum, or below -1: "The thinking budget (52428) is invalid." (RooCodeInc/Roo-Code#4399,
  // 2.5 Pro). A budget between 1 and the minimum is held to no rule: no reference says what the API does with it.
  const max = f.thinkingBudgetRange?.max;
  if (budget && max !== undefined && (Number(tc.thinkingBudget) > max || Number(tc.thinkingBudget) < -1))
    return `The thinking budget (${tc.thinkingBudget}) is invalid.`;
  return undefined;
}

/**
 * Whether the Messages API takes `role: "system"` messages inside `messages` for a model without a
 * beta flag (mid-conversation system messages, GA: platform.claude.com/docs/en/build-with-claude/
 * mid-conversation-system-messages). Refused on the models before Opus 4.8 (inspect_ai#4104 renders
 * them as user turns there) and on Sonnet 5 (elgorro/aiquila#413: "Supported on Claude Opus 5, Opus
 * 4.8, and Fable 5; not on Sonnet 5"); a model the table does not know, or a 5.5 model, is held to no
 * rule (Claude Code 2.1.332 sends them to claude-sonnet-5-5, observed).
 */
export function anthropicTakesSystemMessages(model: string): boolean {
  const f = family(model, 'anthropic');
  if (!f) return true;
  return !/^claude-(sonnet-5$|sonnet-4|haiku-4|opus-4-[1-7]?$|opus-4$|3-)/.test(f.match ?? '');
}

/** Whether a Messages request thinks: asked (enabled, adaptive) or by default (the model's family), unless disabled. */
export function thinks(model: string, body: Record<string, any>, table: ModelTable = MODEL_TABLE): boolean {
  const type = body?.thinking?.type;
  if (type === 'enabled' || type === 'adaptive') return true;
  if (type === 'disabled') return false;
  return family(model, 'anthropic', table)?.thinksByDefault ?? false;
}

/** The Gemini model ids of the table (what the scripted Gemini server serves unless told others). */
export const GEMINI_TABLE_MODELS: readonly string[] = lookupAll('google');
/** The OpenAI model ids of the table. */
export const OPENAI_TABLE_MODELS: readonly string[] = lookupAll('openai');

function lookupAll(provider: ModelFamily['provider']): string[] {
  // A family by pattern has no id of its own: only `match` entries are served.
  return MODEL_TABLE.families.filter((f) => f.provider === provider && f.match).map((f) => f.match!);
}

/** Whether an OpenAI-shaped server with the default served list serves a model: the table knows it (patterns included), or a test fleet name. */
export function servedByDefault(model: string, testModels: readonly string[]): boolean {
  return testModels.includes(model) || lookupModel(model)?.provider === 'openai';
}
