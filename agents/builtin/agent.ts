// BuiltinAgent: the paper's "minimal agent". One LLM in an AI SDK tool loop (list, read, write,
// run, test, finish) over the round workspace, with the task as its system prompt. Budgets:
// steps, total tokens and wall time. An attempt fails when the loop errors or leaves no runnable
// bot (no start_ai.sh, or workspace.check() fails); up to 3 attempts with the primary model, then
// up to 3 with the fallback model, then it gives up and returns what exists (the orchestrator
// records a failed build).
import fs from 'node:fs';
import path from 'node:path';
import {
  APICallError,
  generateText,
  RetryError,
  hasToolCall,
  stepCountIs,
  type LanguageModelUsage,
  type ModelMessage,
  type StepResult,
  type StopCondition,
  type ToolSet,
} from 'ai';
import { classifyLlmError, FINAL_REASONS, type BuildFailure } from '../core/failure.ts';
import { addTokens, tokenWords, type ModelPrice, type TokenCounts } from '../core/prices.ts';
import { meteredFetch } from '../core/run-budget.ts';
import type { Agent, DevelopBudget, DevelopResult, Workspace } from '../core/types.ts';
import { linesOfCode } from '../core/lines-of-code.ts';
import { builtinAgentId } from '../core/agent-id.ts';
import { oneLine } from '../core/one-line.ts';
import { runnableBot } from '../core/runnable.ts';
import {
  newWaitLedger,
  patientFetch,
  RATE_LIMIT_DEFAULTS,
  type RateLimitOptions,
  type WaitLedger,
} from '../core/rate-limits.ts';
import { trimConversation } from './trim.ts';
import { tapFetch } from '../../util/exchange-tape/fetch-tap.ts';
import { endpointProbeOf, parseModelSpec, redactSecrets, resolveModel, type ResolvedModel } from './models.ts';

type FetchWrap = (f: typeof globalThis.fetch) => typeof globalThis.fetch;
import { modelApiCheck, modelTableCheck, probeEndpoint, type PreflightCheck } from '../core/preflight.ts';
import type { ModelTable } from '../core/models.ts';
import {
  createTools,
  loggedInput,
  ProcessAgentSandbox,
  type AgentSandbox,
  type ToolCallRecord,
  type ToolContext,
} from './tools.ts';
import { TOOL_LOG_FILE, type ToolLogLine } from '../../records/agent-activity.ts';

export interface BuiltinAgentOptions {
  /** Primary model, `<provider>/<model>` (see models.ts). */
  model: string;
  /** Model for attempts 4–6, after the primary failed 3 times. */
  fallback?: string;
  /** Agent id (folder and strategy names); default: derived from the model name. */
  id?: string;
  /** Token budget (input + output, all attempts together). Default 400k. */
  maxTotalTokens?: number;
  /** Steps per attempt when the budget does not set maxSteps. Default 40. */
  maxSteps?: number;
  /** Attempts per model. Default 3. */
  attemptsPerModel?: number;
  /** Upper bound on one run_command. Default 120 s. */
  commandTimeoutCapMs?: number;
  /** HTTP retries per request inside the SDK (429, 5xx). Default 2. */
  maxRetries?: number;
  /**
   * How long one request may wait for its answer's headers (and its body between two chunks).
   * Requests are not streamed, so the headers come with the whole answer. Default
   * OUTBOUND_DEFAULTS (util/outbound-http.ts); the attempt's wall-clock budget still ends it.
   */
  requestTimeoutMs?: number;
  /** Where the tools execute; default a ProcessAgentSandbox on the workspace folder. */
  sandbox?: (workspace: Workspace) => AgentSandbox | Promise<AgentSandbox>;
  /** Where API keys and base URLs are read from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Patience with rate limits (agents/core/rate-limits.ts): waits within the development's budget. */
  rateLimits?: RateLimitOptions;
  /** The run's model table (its config's `models:` over the shipped one), for the preflight's checks. */
  modelTable?: ModelTable;
}

export const BUILTIN_DEFAULTS = {
  maxTotalTokens: 400_000,
  maxSteps: 40,
  attemptsPerModel: 3,
  commandTimeoutCapMs: 120_000,
  maxRetries: 2,
} as const;

/** `openai/gpt-4o-mini` → `gpt-4o-mini`: a name safe for folders and strategy ids. */
export function deriveAgentId(modelSpec: string): string {
  parseModelSpec(modelSpec); // throws on a bad model
  return builtinAgentId(modelSpec);
}

/** Non-blank lines of code files in dir, recursively. */
export interface PromptLimits {
  maxSteps: number;
  maxTotalTokens: number;
  wallMs: number;
}

/** The system prompt: the task (workspace.task, with its task-track section) and how to use the tools. */
export function systemPrompt(ws: Workspace, limits: PromptLimits): string {
  const out = `./${path.relative(ws.dir, ws.outputDir)}`;
  return [
    ws.task.trimEnd(),
    '',
    '## How to work',
    'You act only through tools. Paths are relative to the workspace root (the folder with TASK.md); nothing outside it is reachable.',
    '- list_files and read_file: read the environment (README.md, develop_instruction.md, the protocol, the sample bot in AI_example/) and, from round 2, last_round/ and logs/.',
    `- write_file: write your bot into ${out}/ (start_ai.sh and its code). Always write complete files.`,
    '- run_command: bash in the workspace root for quick checks; anything left in the background is killed when the command returns.',
    '- test_bot: starts your bot and plays test positions against the arena, as the tournament will. Fix every problem it reports.',
    '- finish: call it once test_bot passes, with a short summary. Nothing runs after it.',
    `Limits: at most ${limits.maxSteps} steps, about ${Math.round(limits.maxTotalTokens / 1000)}k tokens and ${Math.round(limits.wallMs / 60_000) || '<1'} min. ` +
      'Get a simple working bot in place early, test it, then make it stronger.',
  ].join('\n');
}

/** An error from the loop in one line: HTTP status and response body for API errors. */
function describeError(err: unknown): string {
  if (RetryError.isInstance(err)) return `${describeError(err.lastError)} (after ${err.errors.length} tries)`;
  if (APICallError.isInstance(err)) {
    const status = err.statusCode ? `HTTP ${err.statusCode} ` : '';
    const body = err.responseBody ? `: ${oneLine(err.responseBody, 200)}` : '';
    // A response that broke off says why only in its cause ("terminated", "other side closed").
    const cause = err.cause instanceof Error ? ` (${oneLine(err.cause.message, 120)})` : '';
    return `${status}${err.name}: ${oneLine(err.message, 200)}${cause}${body}`;
  }
  if (err instanceof Error) return `${err.name}: ${oneLine(err.message)}`;
  return oneLine(String(err));
}

interface AttemptOutcome {
  error?: string;
  /** Why the loop failed or stopped, where it says (an API error's class, a spent budget). */
  reason?: BuildFailure['reason'];
  finished?: string;
  steps: number;
  /** After a 429: how long the server asked to wait (its header, or Google's RetryInfo in the body). */
  retryAfterMs?: number;
  /** The last answer ended on the output limit or a refusal (in words, with the provider's stop reason). */
  cutShort?: string;
}

/**
 * A step that ended on the output limit (Anthropic `max_tokens`, Responses `response.incomplete`
 * max_output_tokens, Gemini MAX_TOKENS: 'length' in the AI SDK) or a refusal or safety stop
 * (Anthropic `refusal`, Responses content_filter, Gemini SAFETY: 'content-filter'), in words.
 */
export function cutShortWords(finishReason: string, rawFinishReason: string | undefined): string | undefined {
  const raw = rawFinishReason ? ` (${rawFinishReason})` : '';
  if (finishReason === 'length') return `the model's answer was cut off at its output limit${raw}`;
  if (finishReason === 'content-filter') return `the model refused or was stopped by the provider's filter${raw}`;
  return undefined;
}

/**
 * The wait a refused call asked for: `retry-after-ms` / `retry-after` headers (OpenAI, Anthropic),
 * or Google's google.rpc.RetryInfo detail in the body ({"@type": "…/google.rpc.RetryInfo",
 * "retryDelay": "31s"}: a 429 from the Gemini API carries no header).
 */
export function retryAfterOf(err: unknown): number | undefined {
  if (RetryError.isInstance(err)) return retryAfterOf(err.lastError);
  if (!APICallError.isInstance(err)) return undefined;
  const h = Object.fromEntries(Object.entries(err.responseHeaders ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(h['retry-after-ms']);
  if (h['retry-after-ms'] && Number.isFinite(ms)) return ms;
  if (h['retry-after']) {
    const seconds = Number(h['retry-after']);
    if (Number.isFinite(seconds)) return seconds * 1000;
    const date = Date.parse(h['retry-after']);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  try {
    const details = (JSON.parse(err.responseBody ?? '') as { error?: { details?: Array<Record<string, unknown>> } })
      ?.error?.details;
    const info = Array.isArray(details)
      ? details.find((d) => String(d['@type'] ?? '').endsWith('google.rpc.RetryInfo'))
      : undefined;
    const m = /^(\d+(?:\.\d+)?)s$/.exec(String(info?.retryDelay ?? ''));
    if (m) return Math.round(Number(m[1]) * 1000);
  } catch {
    // not JSON
  }
  return undefined;
}

/**
 * One step's tokens by kind, from the AI SDK's usage: inputTokens is the total, its
 * inputTokenDetails split it into noCacheTokens, cacheReadTokens and cacheWriteTokens (ai 6's
 * LanguageModelUsage); reasoning tokens are in outputTokens.
 */
function stepTokens(u: LanguageModelUsage): TokenCounts {
  const cacheRead = u.inputTokenDetails?.cacheReadTokens ?? u.cachedInputTokens ?? 0;
  const cacheWrite = u.inputTokenDetails?.cacheWriteTokens ?? 0;
  const input = u.inputTokenDetails?.noCacheTokens ?? Math.max(0, (u.inputTokens ?? 0) - cacheRead - cacheWrite);
  return {
    input,
    output: u.outputTokens ?? 0,
    ...(cacheRead ? { cacheRead } : {}),
    ...(cacheWrite ? { cacheWrite } : {}),
  };
}

/**
 * What the token budget counts: input not read from a cache, cache writes and output in full,
 * cache reads at a tenth (as they are priced): a long conversation re-reads its cached prefix on
 * every step, and counting it in full ended attempts after 15-25 steps.
 */
export function budgetTokens(t: TokenCounts): number {
  return Math.round(t.input + t.output + (t.cacheWrite ?? 0) + 0.1 * (t.cacheRead ?? 0));
}

/** The HTTP status of an API error (also inside the SDK's retry error), if any. */
/**
 * An error's whole text, for classifying it: the described error is cut for the log, and what tells
 * a Gemini billing 429 from a rate limit ("…free_tier_requests, limit: 0") comes after the cut.
 */
function fullErrorText(err: unknown): string {
  if (RetryError.isInstance(err)) return fullErrorText(err.lastError);
  if (APICallError.isInstance(err)) return `${err.message} ${err.responseBody ?? ''}`;
  return err instanceof Error ? err.message : String(err);
}

function statusOf(err: unknown): number | undefined {
  if (RetryError.isInstance(err)) return statusOf(err.lastError);
  return APICallError.isInstance(err) ? err.statusCode : undefined;
}

/** One development's state, shared by its steps (BuiltinAgent.develop). */
interface DevelopRun {
  ws: Workspace;
  budget: DevelopBudget;
  t0: number;
  deadline: number;
  maxSteps: number;
  system: string;
  tokens: TokenCounts;
  toolCalls: number;
  log: string[];
  meter: FetchWrap | undefined;
  /** The model of each attempt: the primary attemptsPerModel times, then the fallback as often. */
  plan: ResolvedModel[];
  failure?: string;
  reason?: BuildFailure;
  success: boolean;
  attempts: number;
  /** A conversation that outgrew the model's context gets one more attempt, fresh and trimmed. */
  retriedTrimmed: Set<ResolvedModel>;
  trim: boolean;
  toolLog: string;
  waits: WaitLedger;
  /** The tool call's number within the attempt, for the tool log. */
  step: number;
}

/** The attempt's inputs from develop (BuiltinAgent.attempt). */
interface AttemptInput {
  system: string;
  prompt: string;
  maxSteps: number;
  deadline: number;
  tokens: TokenCounts;
  waits: WaitLedger;
  /** The run's budget on each request (meterFor), under the rate-limit patience. */
  meter: FetchWrap | undefined;
  /** The run's recording (or replay) of each request, under the meter: what was really sent. */
  exchanges: DevelopBudget['exchanges'];
  /** The attempt's number (1-based), for the recording's index. */
  attempt: number;
  /** Trim older tool output from every step's conversation (after a context-length failure). */
  trim: boolean;
  onCall: (r: ToolCallRecord) => void;
  log: string[];
}

/** One tool call, with its whole input, as a JSON line of the workspace's tool log. */
function recordToolCall(run: DevelopRun, r: ToolCallRecord): void {
  const line: ToolLogLine = { attempt: run.attempts, step: ++run.step, tool: r.name, input: r.input ?? {}, ok: r.ok };
  try {
    fs.appendFileSync(run.toolLog, `${JSON.stringify(line)}\n`);
  } catch {
    // the workspace is gone (an interrupted run): the log is a record, not the work
  }
}

/**
 * The prompt and per-step options of generateText for a model. Anthropic caches a prompt prefix
 * only where asked (cache_control on a block; tools and system come first in the prefix): the
 * system prompt and, each step, the conversation so far are marked, so a step re-reads them at the
 * cache price (a tenth) instead of in full. Two of the four breakpoints Anthropic allows. Other
 * providers cache by themselves.
 */
function conversationOptions(model: ResolvedModel, a: Pick<AttemptInput, 'system' | 'prompt' | 'trim'>) {
  const ephemeral = { anthropic: { cacheControl: { type: 'ephemeral' } } };
  const anthropic = model.provider === 'anthropic';
  const mark = (messages: ModelMessage[]) =>
    anthropic
      ? messages.map((m, k) =>
          k === messages.length - 1 && m.role !== 'system'
            ? { ...m, providerOptions: { ...m.providerOptions, ...ephemeral } }
            : m,
        )
      : messages;
  const prepareStep =
    anthropic || a.trim
      ? {
          prepareStep: ({ messages }: { messages: ModelMessage[] }) => ({
            messages: mark(a.trim ? trimConversation(messages) : messages),
          }),
        }
      : {};
  const input = anthropic
    ? {
        messages: [
          { role: 'system' as const, content: a.system, providerOptions: ephemeral },
          { role: 'user' as const, content: a.prompt },
        ],
      }
    : { system: a.system, prompt: a.prompt };
  // Responses: nothing kept on OpenAI's side (store false): every request carries the whole
  // conversation, reasoning items included as encrypted content (the SDK asks for it).
  const providerOptions = model.api === 'responses' ? { openai: { store: false } } : undefined;
  return { input, prepareStep, providerOptions };
}

export class BuiltinAgent implements Agent {
  readonly id: string;
  readonly kind: string;
  private readonly primary: ResolvedModel;
  private readonly fallbackModel: ResolvedModel | undefined;
  private readonly env: Record<string, string | undefined>;
  private readonly opts: Required<Pick<BuiltinAgentOptions, keyof typeof BUILTIN_DEFAULTS>>;
  private readonly makeSandbox: (ws: Workspace) => AgentSandbox | Promise<AgentSandbox>;
  private readonly http: { headersTimeoutMs?: number; bodyTimeoutMs?: number };
  private readonly rateLimits: RateLimitOptions;
  private readonly modelTable: ModelTable | undefined;

  /** Throws at once on a bad model spec or a missing API key (naming the variable). */
  constructor(options: BuiltinAgentOptions) {
    this.env = options.env ?? process.env;
    this.modelTable = options.modelTable;
    const http =
      options.requestTimeoutMs !== undefined
        ? { headersTimeoutMs: options.requestTimeoutMs, bodyTimeoutMs: options.requestTimeoutMs }
        : {};
    this.http = http;
    this.rateLimits = options.rateLimits ?? {};
    this.primary = resolveModel(options.model, this.env, http);
    this.fallbackModel = options.fallback ? resolveModel(options.fallback, this.env, http) : undefined;
    this.id = options.id ?? deriveAgentId(options.model);
    this.kind = `builtin:${this.primary.spec}`;
    this.opts = {
      maxTotalTokens: options.maxTotalTokens ?? BUILTIN_DEFAULTS.maxTotalTokens,
      maxSteps: options.maxSteps ?? BUILTIN_DEFAULTS.maxSteps,
      attemptsPerModel: options.attemptsPerModel ?? BUILTIN_DEFAULTS.attemptsPerModel,
      commandTimeoutCapMs: options.commandTimeoutCapMs ?? BUILTIN_DEFAULTS.commandTimeoutCapMs,
      maxRetries: options.maxRetries ?? BUILTIN_DEFAULTS.maxRetries,
    };
    this.makeSandbox = options.sandbox ?? ((ws) => new ProcessAgentSandbox(ws.dir));
  }

  private redact = (text: string) => redactSecrets(text, this.env);

  /**
   * The most a development can cost: its token budget, each budget token at the dearest kind
   * (cache reads count a tenth, so at ten times their price), plus the step that crosses it
   * (counted as a quarter more).
   */
  worstCaseUsd(price: ModelPrice): number {
    const band = price.long ?? price;
    const perToken = Math.max(
      price.input,
      price.output,
      price.cacheWrite ?? price.input,
      10 * (price.cacheRead ?? price.input),
      band.input,
      band.output,
    );
    return (1.25 * this.opts.maxTotalTokens * perToken) / 1_000_000;
  }

  /** With the run's budget, the wrap each request of one development goes through (meteredFetch). */
  private meterFor(budget: DevelopBudget): FetchWrap | undefined {
    const lease = budget.spend;
    return lease ? (f) => meteredFetch(f, lease) : undefined;
  }

  /** Each model's endpoint reachable with the key accepted (the agent calls it from the host). */
  async preflight(): Promise<PreflightCheck[]> {
    const models = [this.primary, ...(this.fallbackModel ? [this.fallbackModel] : [])];
    const probes = await Promise.all(
      models.map(async (m) => {
        const probe = await probeEndpoint({ ...endpointProbeOf(m, this.env), model: m.modelId });
        return {
          check: `endpoint of ${m.spec}`,
          ok: probe.ok,
          ...(probe.warn ? { warn: true } : {}),
          detail: this.redact(probe.detail),
        };
      }),
    );
    return [
      ...probes,
      ...models.flatMap((m) =>
        m.api === 'chat'
          ? modelApiCheck(m.modelId, 'chat', `use openai/${m.modelId}, which speaks the Responses API`, this.modelTable)
          : [],
      ),
      ...models.flatMap((m) => modelTableCheck(m.modelId, m.provider, this.modelTable)),
    ];
  }

  async develop(ws: Workspace, budget: DevelopBudget): Promise<DevelopResult> {
    const run = this.startDevelopment(ws, budget);
    const sandbox = await this.makeSandbox(ws);
    try {
      await this.runAttempts(run, sandbox);
    } finally {
      await sandbox.close();
    }
    return this.developResult(run);
  }

  /** A development's state before its first attempt: deadline, prompt, plan of models, log head. */
  private startDevelopment(ws: Workspace, budget: DevelopBudget): DevelopRun {
    const t0 = Date.now();
    // Stop a little before the orchestrator's own timeout, so what exists is still returned.
    const deadline = t0 + budget.wallMs - Math.min(10_000, Math.floor(budget.wallMs * 0.05));
    const maxSteps = budget.maxSteps ?? this.opts.maxSteps;
    const limits = { maxSteps, maxTotalTokens: this.opts.maxTotalTokens, wallMs: budget.wallMs };
    const log: string[] = [
      `${ws.agentId || this.id} (${this.kind}${this.fallbackModel ? `, fallback ${this.fallbackModel.spec}` : ''}), ${ws.game}/${ws.variant}, round ${ws.round}, task track ${ws.taskTrack ?? 'standard'}`,
      `budget: ${maxSteps} steps per attempt, ${this.opts.maxTotalTokens} tokens, ${Math.round(budget.wallMs / 1000)} s`,
    ];
    const [primary, fallbackModel] = [this.primary, this.fallbackModel];
    return {
      ws,
      budget,
      t0,
      deadline,
      maxSteps,
      system: systemPrompt(ws, limits),
      tokens: { input: 0, output: 0 },
      toolCalls: 0,
      log,
      meter: this.meterFor(budget),
      plan: [
        ...Array<ResolvedModel>(this.opts.attemptsPerModel).fill(primary),
        ...(fallbackModel ? Array<ResolvedModel>(this.opts.attemptsPerModel).fill(fallbackModel) : []),
      ],
      success: false,
      attempts: 0,
      retriedTrimmed: new Set<ResolvedModel>(),
      trim: false,
      // Every tool call with its whole input, one JSON line each, for the evolution report (what the agent looked at).
      toolLog: path.join(ws.dir, TOOL_LOG_FILE),
      waits: newWaitLedger((line) => log.push(`- rate limit: ${line}`)),
      step: 0,
    };
  }

  /** The attempts of the plan, until one leaves a runnable bot or a budget or a final failure stops them. */
  private async runAttempts(run: DevelopRun, sandbox: AgentSandbox): Promise<void> {
    const { ws, plan, log } = run;
    for (let i = 0; i < plan.length; i++) {
      const model = plan[i]!;
      if (this.stopBeforeAttempt(run)) break;
      run.attempts++;
      run.step = 0;
      log.push(
        '',
        `## attempt ${i + 1}/${plan.length}: ${model.spec}${i === this.opts.attemptsPerModel && model === this.fallbackModel ? ' (fallback model)' : ''}`,
      );
      const outcome = await this.attempt(ws, model, sandbox, {
        system: run.system,
        prompt: this.userPrompt(ws, i, plan.length, run.failure, run.trim),
        maxSteps: run.maxSteps,
        deadline: run.deadline,
        tokens: run.tokens,
        waits: run.waits,
        meter: run.meter,
        exchanges: run.budget.exchanges,
        attempt: i + 1,
        trim: run.trim,
        onCall: (r) => {
          run.toolCalls++;
          recordToolCall(run, r);
          log.push(
            `- ${r.name}(${r.args}) ${r.ok ? `ok${r.note ? ` (${r.note})` : ''}, ${r.ms} ms` : `ERROR: ${oneLine(r.error ?? '', 200)}`}`,
          );
        },
        log,
      });
      run.trim = false;
      if (!(await this.judgeAttempt(run, i, outcome))) break;
      const next = await this.nextAttemptIndex(run, i, model, outcome);
      if (next === undefined) break;
      i = next;
    }
  }

  /** Whether the run's budget, the token budget or the wall clock leave no room for another attempt. */
  private stopBeforeAttempt(run: DevelopRun): boolean {
    const { budget, log, tokens } = run;
    if (budget.spend?.stopped) {
      log.push('', `stopped: ${budget.spend.stopped}`);
      run.reason = { reason: 'budget', detail: budget.spend.stopped };
      return true;
    }
    if (budgetTokens(tokens) >= this.opts.maxTotalTokens) {
      log.push(
        '',
        `token budget exhausted (${budgetTokens(tokens)} ≥ ${this.opts.maxTotalTokens}): no further attempt`,
      );
      run.reason = {
        reason: 'budget',
        detail: `token budget exhausted (${budgetTokens(tokens)} of ${this.opts.maxTotalTokens})`,
      };
      return true;
    }
    if (run.deadline - Date.now() < 1_000) {
      log.push('', 'wall-clock budget exhausted: no further attempt');
      run.reason = { reason: 'budget', detail: 'wall-clock budget exhausted' };
      return true;
    }
    return false;
  }

  /**
   * An attempt's verdict from the bot it left: true when it failed and another may follow, false
   * when it succeeded or the run's budget was reached (run.success, run.failure and run.reason say which).
   */
  private async judgeAttempt(run: DevelopRun, i: number, outcome: AttemptOutcome): Promise<boolean> {
    const { budget, log } = run;
    const verdict = await runnableBot(run.ws);
    // The run's budget was reached during the attempt: its refused request is no failure of the model.
    if (budget.spend?.stopped && (outcome.error || !verdict.ok)) {
      log.push(`stopped: ${budget.spend.stopped}`);
      run.reason = { reason: 'budget', detail: budget.spend.stopped };
      run.failure = budget.spend.stopped;
      if (verdict.ok) run.success = true;
      return false;
    }
    if (outcome.error) {
      run.failure = `the agent loop failed: ${outcome.error}`;
      run.reason = { reason: outcome.reason ?? 'agent_error', detail: oneLine(outcome.error, 300) };
    } else if (!verdict.ok) {
      run.failure = outcome.cutShort ? `${verdict.why}; ${outcome.cutShort}` : verdict.why;
      run.reason = { reason: outcome.reason ?? verdict.reason, detail: oneLine(run.failure, 300) };
    } else {
      run.success = true;
      log.push(`attempt ${i + 1} succeeded: ${verdict.why}`);
      return false;
    }
    log.push(`attempt ${i + 1} failed: ${run.failure} [${run.reason.reason}]`);
    return true;
  }

  /**
   * After failed attempt i: the index the loop goes on from (its next attempt is that + 1), or
   * undefined when no attempt follows. Waits out a rate limit, retries trimmed after a context
   * overflow, skips to the fallback model after a failure that does not change between attempts.
   */
  private async nextAttemptIndex(
    run: DevelopRun,
    i: number,
    model: ResolvedModel,
    outcome: AttemptOutcome,
  ): Promise<number | undefined> {
    const { plan, log } = run;
    const reason = run.reason!;
    // Still rate-limited (the request-level wait would have passed the deadline): the next
    // attempt waits what the server asked if the budget allows it, else there is none.
    if (reason.reason === 'rate_limited' && i + 1 < plan.length && !(await this.waitOutRateLimit(run, outcome)))
      return undefined;
    if (reason.reason === 'context_length' && !run.retriedTrimmed.has(model) && i + 1 < plan.length) {
      run.retriedTrimmed.add(model);
      run.trim = true;
      log.push(
        `the conversation outgrew ${model.spec}'s context: one more attempt, fresh, with older tool output trimmed`,
      );
      return i;
    }
    // A refused key, an empty account or a prompt beyond the context fail the same way on every
    // attempt with this model: go on with the fallback model, if any, or stop.
    if (FINAL_REASONS.has(reason.reason)) {
      const next = plan.findIndex((m, k) => k > i && m !== model);
      if (next < 0) {
        if (i + 1 < plan.length)
          log.push(
            `no further attempt: ${reason.reason} does not change between attempts (stopped after ${Math.round((Date.now() - run.t0) / 1000)} s)`,
          );
        return undefined;
      }
      log.push(`no further attempt with ${model.spec}: ${reason.reason}; on to ${plan[next]!.spec}`);
      return next - 1;
    }
    return i;
  }

  /** Waits what a rate-limited server asked before the next attempt; false when that passes the deadline. */
  private async waitOutRateLimit(run: DevelopRun, outcome: AttemptOutcome): Promise<boolean> {
    const scale = this.rateLimits.waitScale ?? RATE_LIMIT_DEFAULTS.waitScale;
    const wait = (outcome.retryAfterMs ?? 10_000) * scale;
    if (Date.now() + wait > run.deadline - 5_000 * scale) {
      run.log.push(
        `no further attempt: the server asked for ${((outcome.retryAfterMs ?? 10_000) / 1000).toFixed(0)} s, past the development's deadline`,
      );
      return false;
    }
    run.log.push(
      `waiting ${(wait / 1000).toFixed(1)} s before the next attempt (${outcome.retryAfterMs !== undefined ? 'as the server asked' : 'no wait given by the server'})`,
    );
    await new Promise((r) => setTimeout(r, wait));
    run.waits.ms += wait;
    run.waits.waits++;
    return true;
  }

  /** The development's result: the bot folder, its cost, the log, and why it failed if it did. */
  private async developResult(run: DevelopRun): Promise<DevelopResult> {
    const { ws, log, tokens, toolCalls, waits, success, failure, reason, attempts } = run;
    if (!success)
      log.push(
        '',
        `gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: no runnable bot${failure ? ` (last failure: ${failure})` : ''}; returning what exists`,
      );
    const cost = {
      wallMs: Date.now() - run.t0,
      toolCalls,
      tokens,
      linesOfCode: await linesOfCode(ws.outputDir),
      ...(waits.ms > 0 ? { rateLimitWaitMs: Math.round(waits.ms) } : {}),
    };
    log.push(
      '',
      `cost: ${tokenWords(tokens)}, ${toolCalls} tool calls, ${Math.round(cost.wallMs / 1000)} s, ${cost.linesOfCode} lines of code${waits.ms > 0 ? `; ${(waits.ms / 1000).toFixed(1)} s of it waiting on rate limits (${waits.waits} wait${waits.waits === 1 ? '' : 's'})` : ''}`,
    );
    const gaveUp = success
      ? undefined
      : {
          reason: reason?.reason ?? 'agent_error',
          detail: this.redact(reason?.detail ?? failure ?? 'no attempt was made'),
        };
    return { botDir: ws.outputDir, cost, log: this.redact(log.join('\n')), ...(gaveUp ? { failure: gaveUp } : {}) };
  }

  private userPrompt(ws: Workspace, index: number, total: number, failure: string | undefined, trim = false): string {
    if (index === 0) return 'Develop your bot now. Start by reading the environment.';
    if (trim)
      return (
        `Attempt ${index + 1} of ${total}. The previous attempt's conversation grew past the model's context length. ` +
        `Whatever it wrote is still in ./${path.relative(ws.dir, ws.outputDir)}/. Keep this one small: read only what you need, ` +
        'in parts (run_command with head, sed -n or grep), keep command output short; tool output older than your last few steps is trimmed. ' +
        'Then test the bot with test_bot and finish.'
      );
    return (
      `Attempt ${index + 1} of ${total}. The previous attempt did not produce a runnable bot: ${failure ?? 'unknown reason'}. ` +
      `Whatever it wrote is still in ./${path.relative(ws.dir, ws.outputDir)}/: fix it or start over, then test it with test_bot and finish.`
    );
  }

  private async attempt(
    ws: Workspace,
    model: ResolvedModel,
    sandbox: AgentSandbox,
    a: AttemptInput,
  ): Promise<AttemptOutcome> {
    const patient = this.patientModel(model, a);
    // Tool calls run before onStepFinish: hold their log lines so each step reads text, then calls.
    const pending: ToolCallRecord[] = [];
    const flush = () => pending.splice(0).forEach(a.onCall);
    const ctx: ToolContext = {
      sandbox,
      workspace: ws,
      commandTimeoutCapMs: this.opts.commandTimeoutCapMs,
      redact: this.redact,
      onCall: (r) => pending.push(r),
    };
    const tools: ToolSet = createTools(ctx);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error('wall-clock budget exhausted')),
      Math.max(0, a.deadline - Date.now()),
    );
    const before = budgetTokens(a.tokens);
    const tokenLimit: StopCondition<ToolSet> = ({ steps }) =>
      before + steps.reduce((s, st) => s + budgetTokens(stepTokens(st.usage)), 0) >= this.opts.maxTotalTokens;
    const counter = { steps: 0 };
    try {
      const { input, prepareStep, providerOptions } = conversationOptions(model, a);
      const result = await generateText({
        model: patient,
        ...input,
        ...prepareStep,
        ...(providerOptions ? { providerOptions } : {}),
        tools,
        stopWhen: [stepCountIs(a.maxSteps), hasToolCall('finish'), tokenLimit],
        abortSignal: controller.signal,
        maxRetries: this.opts.maxRetries,
        onStepFinish: (step) => this.onStepFinish(step, a, counter, flush),
      });
      return this.loopOutcome(ctx, result, counter.steps, a);
    } catch (err) {
      flush();
      return this.failedOutcome(err, controller.signal.aborted, counter.steps, a);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The model again, over a fetch that waits out rate limits within this development's deadline;
   * the budget's meter sits under it, so each request really sent is checked and charged.
   */
  private patientModel(model: ResolvedModel, a: AttemptInput): ResolvedModel['model'] {
    const taped = (f: typeof globalThis.fetch) => (a.exchanges ? tapFetch(f, a.exchanges, a.attempt) : f);
    return resolveModel(model.spec, this.env, this.http, (f) =>
      patientFetch(a.meter ? a.meter(taped(f)) : taped(f), {
        deadline: a.deadline,
        ledger: a.waits,
        options: this.rateLimits,
      }),
    ).model;
  }

  /** A step's tokens, words and tool calls (held ones first, then the invalid ones the SDK caught). */
  private onStepFinish(
    step: StepResult<ToolSet>,
    a: AttemptInput,
    counter: { steps: number },
    flush: () => void,
  ): void {
    counter.steps++;
    addTokens(a.tokens, stepTokens(step.usage));
    if (step.text.trim()) a.log.push(`- model says: ${oneLine(this.redact(step.text), 200)}`);
    flush();
    for (const call of step.toolCalls) {
      if (call.invalid) {
        a.onCall({
          name: call.toolName,
          args: oneLine(this.redact(JSON.stringify(call.input) ?? ''), 120),
          input: loggedInput(call.input, this.redact),
          ok: false,
          error: `invalid call: ${describeError(call.error)}`,
          ms: 0,
        });
      }
    }
  }

  /** How a loop that returned ended: finished, at a budget, cut short, or stopped without finish. */
  private loopOutcome(
    ctx: ToolContext,
    result: { finishReason: string; rawFinishReason?: string | undefined },
    steps: number,
    a: AttemptInput,
  ): AttemptOutcome {
    const atBudget = !ctx.finished && (steps >= a.maxSteps || budgetTokens(a.tokens) >= this.opts.maxTotalTokens);
    const cutShort = ctx.finished ? undefined : cutShortWords(result.finishReason, result.rawFinishReason);
    const why = ctx.finished
      ? `finished: ${oneLine(this.redact(ctx.finished.summary), 300)}`
      : steps >= a.maxSteps
        ? `stopped at the step limit (${a.maxSteps})`
        : budgetTokens(a.tokens) >= this.opts.maxTotalTokens
          ? 'stopped at the token budget'
          : (cutShort ?? `the model stopped without calling finish (${result.finishReason})`);
    a.log.push(`${steps} step${steps === 1 ? '' : 's'}; ${why}`);
    return {
      finished: ctx.finished?.summary,
      steps,
      ...(atBudget ? { reason: 'budget' as const } : {}),
      ...(cutShort ? { cutShort } : {}),
    };
  }

  /** How a loop that threw failed: the wall clock, or the API error classified (with its asked wait). */
  private failedOutcome(err: unknown, aborted: boolean, steps: number, a: AttemptInput): AttemptOutcome {
    const error = aborted ? 'wall-clock budget exhausted (request aborted)' : this.redact(describeError(err));
    a.log.push(`${steps} step${steps === 1 ? '' : 's'}; ERROR: ${error}`);
    const reason = aborted
      ? 'budget'
      : (classifyLlmError(`${error} ${fullErrorText(err)}`, statusOf(err)) ?? 'agent_error');
    const wait = reason === 'rate_limited' ? retryAfterOf(err) : undefined;
    return { error, steps, reason, ...(wait !== undefined ? { retryAfterMs: wait } : {}) };
  }
}
