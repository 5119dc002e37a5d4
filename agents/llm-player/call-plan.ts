// What the LLM-player's bot sends its model, decided once from the model table
// (agents/core/models.json) when the bot is written: the sampling the run asked for (the paper's
// temperature 0.1 and top-p 1.0 with --preset paper) less what the model refuses, the thinking
// form it accepts, an output budget an answer fits in beside its thinking, and the API it needs.
// The plan goes into the bot's game.json (sent, asked, and why each difference) and its build log,
// so a run says what its model was actually asked with.
import { familyName, lookupModel, MODEL_TABLE, type ModelFamily, type ModelTable } from '../core/models.ts';

/** Sampling options as the run names them (config llmPlayer, a spec's ?key=value). */
export interface SamplingAsked {
  temperature?: number;
  topP?: number;
  reasoningEffort?: string;
  thinkingBudget?: number;
}

/** How the bot asks for thinking: Anthropic's two forms, or none. */
export type ThinkingPlan =
  | { type: 'enabled'; budgetTokens: number }
  | { type: 'adaptive'; effort?: string }
  | undefined;

export interface CallPlan {
  /** chat: POST /chat/completions; responses: POST /responses; messages: Anthropic; gemini: generateContent. */
  api: 'chat' | 'responses' | 'messages' | 'gemini';
  /** What is sent (the options the model accepts). */
  sampling: SamplingAsked;
  /** What the run asked for. */
  asked: SamplingAsked;
  /** Why what is sent differs from what was asked, one line each. */
  notes: string[];
  /** Anthropic's max_tokens (thinking included); unset for the others, which need none. */
  maxTokens?: number;
  thinking?: ThinkingPlan;
  /** The table's family, or undefined when the model is not in it (then sent as asked). */
  family?: string;
}

/** An answer is one number: this fits it (and a short correction) with room. */
export const ANSWER_TOKENS = 256;
/** Output budget of a model that thinks (adaptive thinking counts toward max_tokens): thinking room, then the answer. */
export const THINKING_MAX_TOKENS = 16_000;
/** Added to an extended-thinking budget for the answer after it. */
export const ANSWER_AFTER_THINKING = 1_024;

const PROVIDER_FAMILY: Record<string, ModelFamily['provider']> = {
  openai: 'openai',
  'openai-compatible': 'openai',
  anthropic: 'anthropic',
  google: 'google',
};

/** Drops a setting from `sent`, saying why. */
function drop(sent: SamplingAsked, notes: string[], key: keyof SamplingAsked, why: string): void {
  if (sent[key] === undefined) return;
  notes.push(`${key} ${sent[key]} not sent: ${why}`);
  delete sent[key];
}

/** The sampling a model accepts, from what was asked (table rule `sampling`). */
function acceptedSampling(f: ModelFamily, asked: SamplingAsked, notes: string[]): SamplingAsked {
  const sent = { ...asked };
  const who = familyName(f);
  if (f.sampling === 'one' && sent.temperature !== undefined && sent.topP !== undefined)
    drop(sent, notes, 'topP', `${who} takes temperature or top_p, not both (400 otherwise); temperature kept`);
  if (f.sampling === 'default-only') {
    drop(sent, notes, 'temperature', `${who} refuses sampling parameters (400 invalid_request_error)`);
    drop(sent, notes, 'topP', `${who} refuses sampling parameters (400 invalid_request_error)`);
  }
  if (f.sampling === 'reasoning') {
    // Only their defaults pass (1); users report top_p refused outright (lfnovo/open-notebook#107): neither is sent.
    drop(
      sent,
      notes,
      'temperature',
      `${who} is a reasoning model: temperature only at its default 1 (400 unsupported_value)`,
    );
    drop(sent, notes, 'topP', `${who} is a reasoning model: top_p only at its default 1`);
  }
  if (f.sampling === 'advised-default' && sent.temperature !== undefined && sent.temperature < 1)
    drop(sent, notes, 'temperature', `Google advises keeping ${who} at its default temperature 1.0`);
  if (f.thinking === 'none' || f.thinking === 'gemini-budget' || f.thinking === 'gemini-level')
    drop(sent, notes, 'reasoningEffort', `${who} takes no reasoning_effort`);
  if (f.thinking === 'effort' || f.thinking === 'none' || f.thinking === 'gemini-level')
    drop(sent, notes, 'thinkingBudget', `${who} takes no thinking budget`);
  return sent;
}

/** Anthropic: the thinking form the model accepts, and max_tokens so that thinking leaves room for the answer. */
function anthropicThinking(f: ModelFamily | undefined, sent: SamplingAsked, notes: string[]): Partial<CallPlan> {
  const cap = f?.maxOutput ?? THINKING_MAX_TOKENS;
  const budget = Number(sent.thinkingBudget) >= 1024 ? Math.floor(Number(sent.thinkingBudget)) : 0;
  const effort = sent.reasoningEffort
    ? { effort: ['none', 'minimal'].includes(sent.reasoningEffort) ? 'low' : sent.reasoningEffort }
    : {};
  delete sent.reasoningEffort;
  if (budget && f?.thinking !== 'adaptive-only') {
    // Extended thinking: "`temperature` may only be set to 1 when thinking is enabled" (MartialBE/one-hub#529);
    // "Thinking isn't compatible with temperature, top_p, or top_k modifications" (the extended-thinking guide).
    if (sent.temperature !== 1) drop(sent, notes, 'temperature', 'extended thinking takes temperature 1 only');
    drop(sent, notes, 'topP', 'extended thinking takes no top_p');
    return {
      thinking: { type: 'enabled', budgetTokens: budget },
      maxTokens: Math.min(cap, budget + ANSWER_AFTER_THINKING),
    };
  }
  if (budget)
    notes.push(`thinkingBudget ${budget} sent as adaptive thinking: ${familyName(f!)} refuses thinking.type enabled`);
  delete sent.thinkingBudget;
  if (budget || f?.thinksByDefault || (f?.thinking.startsWith('adaptive') && effort.effort)) {
    // "`temperature` may only be set to 1 when thinking is enabled or in adaptive mode" (a 400;
    // dotCipher/opencode-claude-bridge#1); the thinking guide: no top_p or top_k modifications either.
    if (sent.temperature !== 1) drop(sent, notes, 'temperature', 'adaptive thinking takes temperature 1 only');
    drop(sent, notes, 'topP', 'thinking takes no top_p');
    return { thinking: { type: 'adaptive', ...effort }, maxTokens: Math.min(cap, THINKING_MAX_TOKENS) };
  }
  return { maxTokens: ANSWER_TOKENS };
}

/**
 * Gemini: a thinkingBudget inside the model's range (table `thinkingBudgetRange`), which the API
 * otherwise refuses with a 400 ("The thinking budget (52428) is invalid.", RooCodeInc/Roo-Code#4399;
 * "Budget 0 is invalid. This model only works in thinking mode." on 2.5 Pro): 0 where thinking cannot
 * be turned off becomes the smallest budget, others are brought to the nearest end; -1 (dynamic) stays.
 */
function geminiBudget(f: ModelFamily, sent: SamplingAsked, notes: string[]): void {
  const range = f.thinkingBudgetRange;
  if (!range || sent.thinkingBudget === undefined) return;
  const asked = Math.floor(Number(sent.thinkingBudget));
  if (asked === -1 || (asked === 0 && range.off)) return;
  const fitted = Math.min(range.max, Math.max(range.min, asked));
  if (fitted === asked) return;
  const why =
    asked === 0
      ? `${familyName(f)} cannot turn thinking off (Budget 0 is a 400)`
      : `${familyName(f)} takes ${range.min}-${range.max}${range.off ? ' or 0' : ''} (a 400 otherwise)`;
  notes.push(`thinkingBudget ${sent.thinkingBudget} sent as ${fitted}: ${why}`);
  sent.thinkingBudget = fitted;
}

/** The call the bot makes to `model` through `provider`, given what the run asked for and the run's model table. */
export function planModelCall(
  provider: string,
  model: string,
  asked: SamplingAsked = {},
  table: ModelTable = MODEL_TABLE,
): CallPlan {
  const notes: string[] = [];
  const found = lookupModel(model, table);
  const f = found && found.provider === PROVIDER_FAMILY[provider] ? found : undefined;
  const sent = f ? acceptedSampling(f, asked, notes) : { ...asked };
  if (!f) notes.push(`${model} is not in the model table: sent as asked`);
  const plan: CallPlan = {
    api: provider === 'anthropic' ? 'messages' : provider === 'google' ? 'gemini' : 'chat',
    sampling: sent,
    asked: { ...asked },
    notes,
    ...(f ? { family: familyName(f) } : {}),
  };
  if (provider === 'anthropic') Object.assign(plan, anthropicThinking(f, sent, notes));
  if (provider === 'google' && f) geminiBudget(f, sent, notes);
  if (provider === 'openai' && f?.api === 'responses') {
    plan.api = 'responses';
    notes.push(`${familyName(f)} is served by the Responses API only: POST /responses`);
  }
  return plan;
}

/** One line for logs and reports: "sent {…} (asked {…}; topP 1 not sent: …)". */
export function describePlan(plan: CallPlan): string {
  const show = (s: SamplingAsked) => (Object.keys(s).length ? JSON.stringify(s) : 'the model defaults');
  const thinking = plan.thinking
    ? `, thinking ${plan.thinking.type}${plan.thinking.type === 'enabled' ? ` ${plan.thinking.budgetTokens}` : plan.thinking.effort ? ` effort ${plan.thinking.effort}` : ''}`
    : '';
  return `${plan.api}: sent ${show(plan.sampling)}${thinking}${plan.maxTokens ? `, max_tokens ${plan.maxTokens}` : ''}; asked ${show(plan.asked)}${plan.notes.length ? ` (${plan.notes.join('; ')})` : ''}`;
}
