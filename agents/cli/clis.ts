// The CLI coding agents: how each one is invoked headless (docs/agents.md), which LLM endpoint
// and key it uses, and how its JSON output is read for cost. Every CLI talks to its endpoint
// through the agent container's egress proxy: its base URL points at the proxy, which forwards to
// the real endpoint and adds the real key on the host, so the container only ever holds a placeholder.
import { PLACEHOLDER_KEY } from '../../sandbox/egress-proxy.ts';
import { lookupModel, MODEL_TABLE, type ModelTable } from '../core/models.ts';
import { oneLine } from '../core/one-line.ts';
import type { TokenCounts } from '../core/prices.ts';
import type { ToolCall } from '../../records/agent-activity.ts';
import { AGENT_CLIS } from '../../records/agent-clis.ts';
import { jsonValues } from './json-values.ts';
import { codexToolCalls, geminiToolCalls, messageToolCalls } from './tool-calls.ts';

export const CLI_NAMES = AGENT_CLIS.map((c) => c.name);
export type CliName = (typeof CLI_NAMES)[number];

type Env = Record<string, string | undefined>;

/** What a CLI reported about its run, where it reports it. */
export interface CliReport {
  /** Tokens by kind, each counted once: input not read from a cache, cache reads, cache writes, output. */
  tokens?: TokenCounts;
  /** Model turns (requests), where reported. */
  turns?: number;
  /** Tool calls (commands, file edits), where reported. */
  toolCalls?: number;
  durationMs?: number;
  costUsd?: number;
  /** The CLI said it failed (auth error, API error, turn limit). */
  error?: string;
  /** Its last message, shortened. */
  summary?: string;
}

export interface CliInvocation {
  prompt: string;
  model?: string;
  maxTurns: number;
  /** Base URL of the endpoint as seen inside the container (the proxy, with the upstream's path). */
  baseUrl: string;
  home: string;
  workspace: string;
  /**
   * Let the CLI offer its web tools (off by default): through a real API they run on the provider's
   * side (Anthropic's web search and fetch, Gemini's google_web_search, OpenAI's web_search for
   * Codex), past the egress proxy.
   */
  webTools?: boolean;
  /** The run's model table (config `models:` over the shipped one): Qwen Code's sampling params by model. */
  modelTable?: ModelTable;
}

export interface CliDefinition {
  name: CliName;
  /** The command in the agent image. */
  command: string;
  /** Environment variables holding the key, first found wins. */
  keyVars: string[];
  /** Where the endpoint's base URL comes from on the host, and its default. */
  baseUrlVars: string[];
  defaultBaseUrl: string;
  /** A model must be named (the CLI has no default for an arbitrary endpoint). */
  modelRequired: boolean;
  /** Headers the proxy sets on every request to the endpoint. */
  authHeaders(key: string): Record<string, string>;
  argv(o: CliInvocation): string[];
  /** A shell command run before the CLI (e.g. a folder it insists on), if any. */
  prepare?(o: CliInvocation): string;
  env(o: CliInvocation): Record<string, string>;
  /** The CLI's report from its output; some print fatal errors on stderr only (Gemini CLI). */
  parse(stdout: string, stderr?: string): CliReport;
  /** What its output is, in the evolution report ("Claude Code stream-json"). */
  transcriptLabel: string;
  /** Its tool calls in one attempt's output (reports/evolution/agent-reads.ts). */
  toolCalls(stdout: string, attempt?: number): ToolCall[];
}

/** The key placed in the container: the proxy replaces it with the real one. */
export { PLACEHOLDER_KEY };

const short = (s: unknown, n = 300) => oneLine(String(s ?? ''), n);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export { jsonValues };

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any shape, read field by field
type Obj = Record<string, any>;
const objects = (text: string) => jsonValues(text).filter((v): v is Obj => !!v && typeof v === 'object');

/**
 * Claude Code's result object (the last line of `--output-format stream-json`, or the whole
 * output of `--output-format json`), also what Qwen Code prints (an array of messages ending in
 * one): usage, num_turns, duration_ms, is_error. Tool calls are counted from tool_use blocks of
 * assistant messages when the messages are there (stream-json, Qwen Code).
 */
function parseResultStyle(stdout: string, inputIncludesCacheReads = false): CliReport {
  const all = objects(stdout);
  const result = [...all].reverse().find((o) => o.type === 'result');
  if (!result) return { error: stdout.trim() ? `no result object in the output: ${short(stdout, 200)}` : 'no output' };
  const u = (result.usage ?? {}) as Obj;
  // Anthropic's usage counts input_tokens apart from cache_read_input_tokens and
  // cache_creation_input_tokens ("total input tokens … is the summation" of the three: the SDK's
  // Usage doc); Qwen Code's input_tokens already includes its cache reads (its usage is built
  // from promptTokenCount, which includes cached tokens): there they are taken out, not added.
  const cacheRead = num(u.cache_read_input_tokens);
  const cacheWrite = num(u.cache_creation_input_tokens);
  const tokens: TokenCounts = {
    input: inputIncludesCacheReads ? Math.max(0, num(u.input_tokens) - cacheRead) : num(u.input_tokens),
    output: num(u.output_tokens),
    ...(cacheRead ? { cacheRead } : {}),
    ...(cacheWrite ? { cacheWrite } : {}),
  };
  const toolUses = all
    .filter((o) => o.type === 'assistant')
    .flatMap((o) => (Array.isArray(o.message?.content) ? o.message.content : []))
    .filter((b: Obj) => b?.type === 'tool_use').length;
  const report: CliReport = {
    tokens,
    turns: num(result.num_turns) || undefined,
    durationMs: num(result.duration_ms) || undefined,
    summary: short(result.result),
  };
  if (toolUses) report.toolCalls = toolUses;
  if (num(result.total_cost_usd)) report.costUsd = num(result.total_cost_usd);
  if (result.is_error || (result.subtype && result.subtype !== 'success'))
    report.error = `${result.subtype ?? 'error'}: ${short(result.result ?? result.error, 200)}`;
  // Qwen Code reports an API error as a success (exit 0, is_error false) whose result is
  // "[API Error: 400 Unsupported parameter …]": an error all the same.
  else if (typeof result.result === 'string' && /^\s*\[API Error:/.test(result.result))
    report.error = short(result.result, 300);
  return report;
}

/**
 * Claude Code's result object: its `usage` sums the main conversation only, while `modelUsage`
 * (per model: inputTokens, outputTokens, cacheReadInputTokens, cacheCreationInputTokens) counts
 * every model call, subagents' included (2.1.197 and 2.1.332, observed against a scripted Anthropic
 * server; 2.1.332 runs a subagent in the background and counts it all the same).
 */
function parseClaudeCode(stdout: string): CliReport {
  const report = parseResultStyle(stdout);
  const result = [...objects(stdout)].reverse().find((o) => o.type === 'result');
  const models = Object.values((result?.modelUsage ?? {}) as Record<string, Obj>);
  if (report.tokens && models.length) {
    const cacheRead = models.reduce((s, m) => s + num(m.cacheReadInputTokens), 0);
    const cacheWrite = models.reduce((s, m) => s + num(m.cacheCreationInputTokens), 0);
    report.tokens = {
      input: models.reduce((s, m) => s + num(m.inputTokens), 0),
      output: models.reduce((s, m) => s + num(m.outputTokens), 0),
      ...(cacheRead ? { cacheRead } : {}),
      ...(cacheWrite ? { cacheWrite } : {}),
    };
  }
  return report;
}

/**
 * Codex `exec --json`: JSON lines; tool items per item.completed, and usage in turn.completed:
 * {input_tokens, cached_input_tokens, output_tokens}, where input_tokens includes the cached ones
 * (OpenAI's convention) and the counts are the thread's running totals, so the last turn.completed
 * is the run's usage (a sum would count earlier turns again). An
 * `error` event is also how it announces a retry ("Reconnecting... 2/5 (…)", 0.169): only one not
 * followed by a completed turn, or turn.failed, is the run's error.
 */
function parseCodex(stdout: string): CliReport {
  const events = objects(stdout);
  if (!events.length)
    return { error: stdout.trim() ? `no JSON events in the output: ${short(stdout, 200)}` : 'no output' };
  let tokens: TokenCounts = { input: 0, output: 0 };
  let turns = 0;
  let toolCalls = 0;
  let summary = '';
  let error: string | undefined;
  for (const e of events) {
    if (e.type === 'turn.completed') {
      turns++;
      const cached = num(e.usage?.cached_input_tokens);
      tokens = {
        input: Math.max(0, num(e.usage?.input_tokens) - cached),
        output: num(e.usage?.output_tokens),
        ...(cached ? { cacheRead: cached } : {}),
      };
      error = undefined;
    } else if (e.type === 'item.completed') {
      const t = e.item?.type;
      if (t === 'agent_message') summary = short(e.item.text);
      else if (t && t !== 'reasoning' && t !== 'error') toolCalls++;
    } else if (e.type === 'turn.failed') error = short(e.error?.message ?? 'turn failed', 200);
    else if (e.type === 'error') error = short(e.message ?? 'error', 200);
  }
  return { tokens, turns, toolCalls, summary, ...(error ? { error } : {}) };
}

/**
 * Gemini CLI `-o stream-json` (what catarena runs): JSON lines (init, message, tool_use {tool_name,
 * parameters}, tool_result, …) ending in {type: 'result', status, error?, stats: {total_tokens,
 * input_tokens, output_tokens, cached, input, tool_calls, models}}, where input_tokens sums
 * promptTokenCount (the cached part included: its convertToStreamStats), cached sums
 * cachedContentTokenCount (counted once, as cache reads: input = input_tokens − cached),
 * output_tokens counts candidates only and total_tokens includes the thinking tokens too, so
 * output = total − input_tokens (0.61.0, observed against
 * the scripted Gemini API with thoughtsTokenCount in its usage: 2200 in, 60 candidates + 35
 * thoughts = 95 out, as the server answered). An error (a wrong key, the turn limit) is the
 * result's error. `-o json` (read too): {response, stats: {models: {<m>: {tokens, api}}, tools: {totalCalls}}, error?}.
 * Per model (keyed by the answer's modelVersion; side calls such as model routing under their own
 * model), tokens.prompt sums promptTokenCount, tokens.candidates candidatesTokenCount and
 * tokens.thoughts thoughtsTokenCount; thinking tokens are output (billed so; the AI SDK's
 * @ai-sdk/google counts output as candidates + thoughts too). 0.61.0, observed against a scripted
 * Gemini API. A fatal error (auth, the turn limit) is printed as {session_id, error} on stderr,
 * with nothing on stdout and no stats: read from stderr when it is passed.
 */
function parseGemini(stdout: string, stderr = ''): CliReport {
  const events = objects(stdout);
  const streamed = [...events].reverse().find((o) => o.type === 'result' && o.stats && 'total_tokens' in o.stats);
  if (streamed) {
    const st = streamed.stats as Obj;
    const text = events
      .filter((e) => e.type === 'message' && e.role === 'assistant')
      .map((e) => String(e.content ?? ''))
      .join('');
    // input_tokens is promptTokenCount summed, the cached part included; `cached` is that part.
    const cacheRead = num(st.cached);
    const report: CliReport = {
      tokens: {
        input: Math.max(0, num(st.input_tokens) - cacheRead),
        output: Math.max(num(st.output_tokens), num(st.total_tokens) - num(st.input_tokens)),
        ...(cacheRead ? { cacheRead } : {}),
      },
      toolCalls: num(st.tool_calls),
      summary: short(text),
    };
    if (num(st.duration_ms)) report.durationMs = num(st.duration_ms);
    if (streamed.status !== 'success' || streamed.error)
      report.error = short(streamed.error?.message ?? `status ${streamed.status}`, 200);
    return report;
  }
  const isResult = (o: Obj) => 'response' in o || 'stats' in o || 'error' in o;
  const doc = [...objects(stdout)].reverse().find(isResult) ?? [...jsonDocuments(stderr)].reverse().find(isResult);
  if (!doc) return { error: stdout.trim() ? `no JSON result in the output: ${short(stdout, 200)}` : 'no output' };
  // tokens.prompt is promptTokenCount, which includes the cached part (cachedContentTokenCount,
  // tokens.cached): "the total effective prompt size", per the Gemini API's UsageMetadata.
  let input = 0;
  let output = 0;
  let cacheRead = 0;
  let turns = 0;
  for (const m of Object.values((doc.stats?.models ?? {}) as Record<string, Obj>)) {
    cacheRead += num(m.tokens?.cached);
    input += Math.max(0, num(m.tokens?.prompt) - num(m.tokens?.cached));
    output += num(m.tokens?.candidates) + num(m.tokens?.thoughts);
    turns += num(m.api?.totalRequests);
  }
  const report: CliReport = {
    tokens: { input, output, ...(cacheRead ? { cacheRead } : {}) },
    turns,
    toolCalls: num(doc.stats?.tools?.totalCalls),
    summary: short(doc.response),
  };
  if (doc.error) report.error = short(doc.error.message ?? JSON.stringify(doc.error), 200);
  return report;
}

/** The pretty-printed JSON objects in a log (each from a line `{` to a line `}`), e.g. Gemini CLI's stderr. */
function jsonDocuments(text: string): Obj[] {
  const lines = text.split('\n');
  const out: Obj[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trimEnd() !== '{') continue;
    const end = lines.findIndex((l, k) => k > i && l.trimEnd() === '}');
    if (end < 0) break;
    try {
      out.push(JSON.parse(lines.slice(i, end + 1).join('\n')) as Obj);
      i = end;
    } catch {
      // not a whole document
    }
  }
  return out;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const openAiBase = ['CATARENA_OPENAI_BASE_URL', 'OPENAI_BASE_URL'];

export const CLIS: Record<CliName, CliDefinition> = {
  // Claude Code (2.1.332 driven against a scripted Anthropic server, in its container; the flags
  // below unchanged since 2.1.197): headless
  // (-p) with an API key it needs no login or onboarding, and the key is used without asking.
  // What it needs from this machine, and how it gets it:
  //   - ANTHROPIC_BASE_URL (the proxy, without /v1: it adds /v1/messages, so a base URL given the
  //     AI SDK's way, ending in /v1, loses it) and a placeholder key, sent as x-api-key;
  //   - CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1: otherwise it opens CONNECT tunnels to
  //     api.anthropic.com:443 (non-essential calls, first-party telemetry events among them; the
  //     proxy refuses them) and keeps the failed events under ~/.claude/telemetry; it also turns
  //     off auto-update and error reporting. With it, the only requests are POST /v1/messages (no
  //     count_tokens, no model list, no side calls);
  //   - DISABLE_AUTOUPDATER=1: no update check even if the variable above is dropped;
  //   - as root (an orchestrator run as root) it refuses --dangerously-skip-permissions unless
  //     IS_SANDBOX=1, which the agent container sets then;
  //   - --no-session-persistence: no transcript kept in the fresh home;
  //   - --output-format stream-json (which -p wants with --verbose): every message as a JSON line,
  //     its tool calls included (the evolution report reads what it looked at from them), then the
  //     result object.
  // Cost comes from its result object's modelUsage (see parseClaudeCode).
  'claude-code': {
    name: 'claude-code',
    command: 'claude',
    keyVars: ['ANTHROPIC_API_KEY'],
    baseUrlVars: ['ANTHROPIC_BASE_URL'],
    defaultBaseUrl: 'https://api.anthropic.com',
    modelRequired: false,
    authHeaders: (key) => ({ 'x-api-key': key }),
    // --disallowedTools WebSearch,WebFetch (unless webTools): its web search is Anthropic's server
    // tool and its fetch is refused by the proxy anyway; named as its CLI reference takes them.
    argv: (o) => [
      'claude',
      '-p',
      o.prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      '--max-turns',
      String(o.maxTurns),
      '--no-session-persistence',
      ...(o.webTools ? [] : ['--disallowedTools', 'WebSearch,WebFetch']),
      ...(o.model ? ['--model', o.model] : []),
    ],
    env: (o) => ({
      ANTHROPIC_API_KEY: PLACEHOLDER_KEY,
      ANTHROPIC_BASE_URL: o.baseUrl.replace(/\/v1\/?$/, ''),
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    }),
    parse: parseClaudeCode,
    transcriptLabel: 'Claude Code stream-json',
    toolCalls: messageToolCalls,
  },
  // Codex (0.171.0, as 0.169.0 before it, driven against a scripted Responses API server, in its
  // container): `exec` with an API key needs no login (no ChatGPT auth). What it needs from this
  // machine, and how it gets it:
  //   - the endpoint: OPENAI_BASE_URL is ignored (support was removed in 2026, openai/codex#16720),
  //     so config.toml in CODEX_HOME (written by prepare) declares a provider, the way its docs set
  //     up any Responses endpoint: base_url (the proxy + the upstream's path; it adds /responses),
  //     env_key CODEX_API_KEY (the placeholder, sent as a Bearer token), wire_api "responses";
  //   - supports_websockets = false: the built-in OpenAI provider first tries a Responses WebSocket
  //     (GET /v1/responses with Upgrade, retried about 7 times before falling back to HTTPS), which
  //     the proxy does not relay; the built-in provider cannot be changed, a declared one can;
  //   - [features] plugins = false: otherwise every start syncs the curated plugins repository
  //     (git ls-remote github.com/openai/plugins, api.github.com, then chatgpt.com/backend-api),
  //     three CONNECTs the proxy refuses; [analytics] enabled = false turns its analytics off;
  //   - --dangerously-bypass-approvals-and-sandbox: no approvals and no sandbox of its own (landlock,
  //     seccomp, bubblewrap): the container is the sandbox; --skip-git-repo-check: the workspace is
  //     not a git repository; --ephemeral: no session files; CODEX_HOME in the fresh home.
  // With these, its only requests are POST /responses (streamed, store false; no model list, no
  // side calls). A model from its catalog (gpt-5.5) gets exec_command and the freeform apply_patch
  // tool; without -m it picks its newest default, whose requests use an internal variant of the API.
  // Cost: turn.completed usage (input_tokens includes cached, output_tokens reasoning), as answered.
  codex: {
    name: 'codex',
    command: 'codex',
    keyVars: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
    baseUrlVars: openAiBase,
    defaultBaseUrl: 'https://api.openai.com/v1',
    modelRequired: false,
    authHeaders: bearer,
    argv: (o) => [
      'codex',
      'exec',
      '--skip-git-repo-check',
      '--ephemeral',
      '--json',
      '--dangerously-bypass-approvals-and-sandbox',
      '-C',
      o.workspace,
      ...(o.model ? ['-m', o.model] : []),
      o.prompt,
    ],
    prepare: (o) =>
      `mkdir -p ${o.home}/.codex && printf '%s' ${shellQuote([codexConfig(o.baseUrl, o.webTools)])} > ${o.home}/.codex/config.toml`,
    env: (o) => ({ CODEX_API_KEY: PLACEHOLDER_KEY, CODEX_HOME: `${o.home}/.codex` }),
    parse: parseCodex,
    transcriptLabel: 'Codex JSON',
    toolCalls: codexToolCalls,
  },
  // Gemini CLI (0.61.0 driven against a scripted Gemini API server, in its container): headless
  // (-p) with an API key it needs no login. What it needs from this machine, and how it gets it:
  //   - GOOGLE_GEMINI_BASE_URL (the proxy; the root, without /v1beta, which Google's SDK adds) and
  //     a placeholder GEMINI_API_KEY, sent as x-goog-api-key;
  //   - ~/.gemini/settings.json security.auth.selectedType "gemini-api-key": with
  //     GOOGLE_GEMINI_BASE_URL set and no auth chosen it picks its "gateway" auth type, which
  //     headless mode then refuses ("Invalid auth method selected.", exit 41);
  //   - privacy.usageStatisticsEnabled false: otherwise it sends usage statistics to
  //     play.googleapis.com:443 (CONNECT tunnels the proxy refuses) and adds an
  //     x-gemini-api-privileged-user-id header (an installation id kept in ~/.gemini) to every
  //     request; telemetry.enabled false and the auto-update settings off, for the same reason
  //     (both already off or silent headless in 0.61, stated so a newer version stays quiet);
  //   - model.maxSessionTurns: the turn limit (exit 53 when reached), as the other CLIs get theirs;
  //   - --skip-trust: the workspace is trusted without the folder-trust prompt;
  //   - -o stream-json: its events as JSON lines, tool calls included (see parseGemini).
  // With these the only requests are POST /v1beta/models/<model>:streamGenerateContent?alt=sse,
  // plus, with no model named (its "auto"), a routing call (generateContent asking for JSON) to a
  // flash-lite model first. Every call, side calls included, is in its stats (see parseGemini).
  'gemini-cli': {
    name: 'gemini-cli',
    command: 'gemini',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    baseUrlVars: ['GOOGLE_GEMINI_BASE_URL'],
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    modelRequired: false,
    authHeaders: (key) => ({ 'x-goog-api-key': key }),
    argv: (o) => [
      'gemini',
      '-p',
      o.prompt,
      '-o',
      'stream-json',
      '--yolo',
      '--skip-trust',
      ...(o.model ? ['-m', o.model] : []),
    ],
    prepare: (o) => {
      const settings = {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        model: { maxSessionTurns: o.maxTurns },
        // tools.exclude ("Tool names to exclude from discovery", its configuration reference):
        // google_web_search is grounding with Google Search, run on Google's side.
        ...(o.webTools ? {} : { tools: { exclude: ['google_web_search', 'web_fetch'] } }),
      };
      return `mkdir -p ${o.home}/.gemini && printf '%s\\n' ${shellQuote([JSON.stringify(settings)])} > ${o.home}/.gemini/settings.json`;
    },
    env: (o) => ({
      GEMINI_API_KEY: PLACEHOLDER_KEY,
      GOOGLE_GEMINI_BASE_URL: o.baseUrl.replace(/\/v1(beta|alpha)?\/?$/, ''),
    }),
    parse: parseGemini,
    transcriptLabel: 'Gemini CLI stream-json',
    toolCalls: geminiToolCalls,
  },
  'qwen-code': {
    name: 'qwen-code',
    command: 'qwen',
    keyVars: ['OPENAI_API_KEY'],
    baseUrlVars: openAiBase,
    defaultBaseUrl: 'https://api.openai.com/v1',
    modelRequired: true,
    authHeaders: bearer,
    // ~/.qwen/settings.json (Qwen Code 0.24.4, read from its bundled settings reference and checked
    // against the pinned binary and a scripted chat server):
    //   - samplingParams {max_completion_tokens} for an OpenAI reasoning model: without samplingParams
    //     (and, since 0.2x, with an empty one) it sends max_tokens, the model's declared output limit,
    //     which OpenAI refuses for gpt-5 and o-series models (400 unsupported_parameter); a provider
    //     budget key in samplingParams replaces max_tokens ("a wire-shape escape hatch", its
    //     configuration/settings.md), clamped to the declared limit. Other models keep its default;
    //   - memory.enableManagedAutoMemory / enableManagedAutoDream / enableAutoSkill false: otherwise a
    //     background "managed-auto-memory-extractor" call follows the run's answer (tokens billed for
    //     a memory the fresh home throws away);
    //   - general.enableAutoUpdate, privacy.usageStatisticsEnabled and telemetry.enabled false: no
    //     update check or usage statistics through the egress proxy (which would refuse them);
    //   - tools.exclude (unless webTools): web_fetch is offered to the model otherwise (gone from the
    //     request's tools once excluded); web_search appears once a search provider is configured.
    prepare: (o) => {
      const samplingParams = qwenSamplingParams(o.model, o.modelTable);
      const settings = {
        ...(samplingParams ? { model: { generationConfig: { samplingParams } } } : {}),
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        ...(o.webTools ? {} : { tools: { exclude: ['web_fetch', 'web_search'] } }),
      };
      return `mkdir -p ${o.home}/.qwen && printf '%s\\n' ${shellQuote([JSON.stringify(settings)])} > ${o.home}/.qwen/settings.json`;
    },
    argv: (o) => [
      'qwen',
      o.prompt,
      '--auth-type',
      'openai',
      '--yolo',
      '-o',
      'json',
      '--max-session-turns',
      String(o.maxTurns),
      ...(o.model ? ['--model', o.model] : []),
    ],
    env: (o) => ({
      OPENAI_API_KEY: PLACEHOLDER_KEY,
      OPENAI_BASE_URL: o.baseUrl,
      ...(o.model ? { OPENAI_MODEL: o.model } : {}),
    }),
    parse: (stdout) => parseResultStyle(stdout, true),
    transcriptLabel: 'Qwen Code JSON',
    toolCalls: messageToolCalls,
  },
};

/**
 * Qwen Code's samplingParams for a model: max_completion_tokens for OpenAI's reasoning models (gpt-5*,
 * o-series: the model table's `reasoning` sampling, or the name's shape for one it does not know),
 * which refuse max_tokens; none for others (its default max_tokens).
 */
export function qwenSamplingParams(
  model: string | undefined,
  table: ModelTable = MODEL_TABLE,
): Record<string, number> | undefined {
  const f = lookupModel(model, table);
  const reasoning = f ? f.provider === 'openai' && f.sampling === 'reasoning' : /^(gpt-5|o[1-9])/.test(model ?? '');
  return reasoning ? { max_completion_tokens: f?.maxOutput ?? 128_000 } : undefined;
}

export interface ResolvedEndpoint {
  /** The real base URL (host side). */
  upstream: string;
  key: string;
  /** The variable the key came from (for messages; never the value). */
  keyVar: string;
}

/** The endpoint and key of a CLI from the environment; throws naming the variable to set. */
export function resolveEndpoint(cli: CliDefinition, env: Env): ResolvedEndpoint {
  const keyVar = cli.keyVars.find((v) => env[v]?.trim());
  if (!keyVar)
    throw new Error(
      `${cli.keyVars.join(' or ')} is not set: the ${cli.name} agent needs it (API keys are read from the environment only)`,
    );
  const upstream = (cli.baseUrlVars.map((v) => env[v]?.trim()).find(Boolean) ?? cli.defaultBaseUrl).replace(/\/+$/, '');
  try {
    new URL(upstream);
  } catch {
    throw new Error(`${cli.baseUrlVars.join(' / ')} is not a URL: "${upstream}"`);
  }
  return { upstream, key: env[keyVar]!.trim(), keyVar };
}

/**
 * Codex's config.toml: its endpoint (through the proxy) as a Responses provider, no WebSocket, no
 * plugin sync, no analytics, and (unless webTools) web_search = "disabled": Codex 0.169.0 otherwise
 * declares OpenAI's hosted `web_search` tool (external_web_access true) on every request, searched
 * on OpenAI's side (checked against the pinned binary: the tool is gone with the setting).
 */
export function codexConfig(baseUrl: string, webTools = false): string {
  return [
    ...(webTools ? [] : ['web_search = "disabled"']),
    'model_provider = "catarena"',
    '',
    '[model_providers.catarena]',
    'name = "catarena egress proxy"',
    `base_url = ${JSON.stringify(baseUrl)}`,
    'env_key = "CODEX_API_KEY"',
    'wire_api = "responses"',
    'supports_websockets = false',
    '',
    '[features]',
    'plugins = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
  ].join('\n');
}

/** One argument list as a bash command line. */
export function shellQuote(args: string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
