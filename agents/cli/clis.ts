// The CLI coding agents: how each one is invoked headless (README.md, "Agents"), which LLM endpoint
// and key it uses, and how its JSON output is read for cost. Every CLI talks to its endpoint
// through the agent container's egress proxy: its base URL points at the proxy, which forwards to
// the real endpoint and adds the real key on the host, so the container only ever holds a placeholder.
import { PLACEHOLDER_KEY } from '../../sandbox/egress-proxy.ts';
import { oneLine } from '../core/one-line.ts';

export const CLI_NAMES = ['claude-code', 'codex', 'gemini-cli', 'qwen-code'] as const;
export type CliName = (typeof CLI_NAMES)[number];

type Env = Record<string, string | undefined>;

/** What a CLI reported about its run, where it reports it. */
export interface CliReport {
  tokens?: { input: number; output: number };
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
  parse(stdout: string): CliReport;
}

/** The key placed in the container: the proxy replaces it with the real one. */
export { PLACEHOLDER_KEY };

const short = (s: unknown, n = 300) => oneLine(String(s ?? ''), n);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Every JSON value in text: one document, a JSON array, or JSON lines (other lines are skipped). */
export function jsonValues(text: string): unknown[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  try {
    const whole = JSON.parse(trimmed) as unknown;
    return Array.isArray(whole) ? whole : [whole];
  } catch {
    const out: unknown[] = [];
    for (const line of trimmed.split('\n')) {
      const l = line.trim();
      if (!l.startsWith('{') && !l.startsWith('[')) continue;
      try {
        const v = JSON.parse(l) as unknown;
        if (Array.isArray(v)) out.push(...v);
        else out.push(v);
      } catch {
        // not JSON: a log line
      }
    }
    return out;
  }
}

type Obj = Record<string, any>;
const objects = (text: string) => jsonValues(text).filter((v): v is Obj => !!v && typeof v === 'object');

/**
 * Claude Code's result object (`--output-format json`), also what Qwen Code prints (an array of
 * messages ending in one): usage, num_turns, duration_ms, is_error. Tool calls are counted from
 * tool_use blocks of assistant messages when the messages are there.
 */
function parseResultStyle(stdout: string): CliReport {
  const all = objects(stdout);
  const result = [...all].reverse().find((o) => o.type === 'result');
  if (!result) return { error: stdout.trim() ? `no result object in the output: ${short(stdout, 200)}` : 'no output' };
  const u = (result.usage ?? {}) as Obj;
  const input = num(u.input_tokens) + num(u.cache_creation_input_tokens) + num(u.cache_read_input_tokens);
  const toolUses = all
    .filter((o) => o.type === 'assistant')
    .flatMap((o) => (Array.isArray(o.message?.content) ? o.message.content : []))
    .filter((b: Obj) => b?.type === 'tool_use').length;
  const report: CliReport = {
    tokens: { input, output: num(u.output_tokens) },
    turns: num(result.num_turns) || undefined,
    durationMs: num(result.duration_ms) || undefined,
    summary: short(result.result),
  };
  if (toolUses) report.toolCalls = toolUses;
  if (num(result.total_cost_usd)) report.costUsd = num(result.total_cost_usd);
  if (result.is_error || (result.subtype && result.subtype !== 'success')) report.error = `${result.subtype ?? 'error'}: ${short(result.result ?? result.error, 200)}`;
  return report;
}

/** Codex `exec --json`: JSON lines; usage per turn.completed, tool items per item.completed. */
function parseCodex(stdout: string): CliReport {
  const events = objects(stdout);
  if (!events.length) return { error: stdout.trim() ? `no JSON events in the output: ${short(stdout, 200)}` : 'no output' };
  let input = 0;
  let output = 0;
  let turns = 0;
  let toolCalls = 0;
  let summary = '';
  let error: string | undefined;
  for (const e of events) {
    if (e.type === 'turn.completed') {
      turns++;
      input += num(e.usage?.input_tokens);
      output += num(e.usage?.output_tokens);
    } else if (e.type === 'item.completed') {
      const t = e.item?.type;
      if (t === 'agent_message') summary = short(e.item.text);
      else if (t && t !== 'reasoning' && t !== 'error') toolCalls++;
    } else if (e.type === 'turn.failed') error = short(e.error?.message ?? 'turn failed', 200);
    else if (e.type === 'error') error = short(e.message ?? 'error', 200);
  }
  return { tokens: { input, output }, turns, toolCalls, summary, ...(error ? { error } : {}) };
}

/** Gemini CLI `-o json`: {response, stats: {models: {<m>: {tokens, api}}, tools: {totalCalls}}, error?}. */
function parseGemini(stdout: string): CliReport {
  const doc = [...objects(stdout)].reverse().find((o) => 'response' in o || 'stats' in o || 'error' in o);
  if (!doc) return { error: stdout.trim() ? `no JSON result in the output: ${short(stdout, 200)}` : 'no output' };
  let input = 0;
  let output = 0;
  let turns = 0;
  for (const m of Object.values((doc.stats?.models ?? {}) as Record<string, Obj>)) {
    input += num(m.tokens?.prompt);
    output += num(m.tokens?.candidates);
    turns += num(m.api?.totalRequests);
  }
  const report: CliReport = { tokens: { input, output }, turns, toolCalls: num(doc.stats?.tools?.totalCalls), summary: short(doc.response) };
  if (doc.error) report.error = short(doc.error.message ?? JSON.stringify(doc.error), 200);
  return report;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const openAiBase = ['CATARENA_OPENAI_BASE_URL', 'OPENAI_BASE_URL'];

export const CLIS: Record<CliName, CliDefinition> = {
  'claude-code': {
    name: 'claude-code',
    command: 'claude',
    keyVars: ['ANTHROPIC_API_KEY'],
    baseUrlVars: ['ANTHROPIC_BASE_URL'],
    defaultBaseUrl: 'https://api.anthropic.com',
    modelRequired: false,
    authHeaders: (key) => ({ 'x-api-key': key }),
    argv: (o) => ['claude', '-p', o.prompt, '--output-format', 'json', '--dangerously-skip-permissions', '--max-turns', String(o.maxTurns), '--no-session-persistence', ...(o.model ? ['--model', o.model] : [])],
    env: (o) => ({ ANTHROPIC_API_KEY: PLACEHOLDER_KEY, ANTHROPIC_BASE_URL: o.baseUrl, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' }),
    parse: parseResultStyle,
  },
  codex: {
    name: 'codex',
    command: 'codex',
    keyVars: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
    baseUrlVars: openAiBase,
    defaultBaseUrl: 'https://api.openai.com/v1',
    modelRequired: false,
    authHeaders: bearer,
    argv: (o) => ['codex', 'exec', '--skip-git-repo-check', '--ephemeral', '--json', '--dangerously-bypass-approvals-and-sandbox', '-C', o.workspace, ...(o.model ? ['-m', o.model] : []), o.prompt],
    // CODEX_HOME must exist before codex starts.
    prepare: (o) => `mkdir -p ${o.home}/.codex`,
    env: (o) => ({ CODEX_API_KEY: PLACEHOLDER_KEY, OPENAI_API_KEY: PLACEHOLDER_KEY, OPENAI_BASE_URL: o.baseUrl, CODEX_HOME: `${o.home}/.codex` }),
    parse: parseCodex,
  },
  'gemini-cli': {
    name: 'gemini-cli',
    command: 'gemini',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'],
    baseUrlVars: ['GOOGLE_GEMINI_BASE_URL'],
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    modelRequired: false,
    authHeaders: (key) => ({ 'x-goog-api-key': key }),
    argv: (o) => ['gemini', '-p', o.prompt, '-o', 'json', '--yolo', '--skip-trust', ...(o.model ? ['-m', o.model] : [])],
    env: (o) => ({ GEMINI_API_KEY: PLACEHOLDER_KEY, GOOGLE_GEMINI_BASE_URL: o.baseUrl }),
    parse: parseGemini,
  },
  'qwen-code': {
    name: 'qwen-code',
    command: 'qwen',
    keyVars: ['OPENAI_API_KEY'],
    baseUrlVars: openAiBase,
    defaultBaseUrl: 'https://api.openai.com/v1',
    modelRequired: true,
    authHeaders: bearer,
    argv: (o) => ['qwen', o.prompt, '--auth-type', 'openai', '--yolo', '-o', 'json', '--max-session-turns', String(o.maxTurns), ...(o.model ? ['--model', o.model] : [])],
    env: (o) => ({ OPENAI_API_KEY: PLACEHOLDER_KEY, OPENAI_BASE_URL: o.baseUrl, ...(o.model ? { OPENAI_MODEL: o.model } : {}) }),
    parse: parseResultStyle,
  },
};

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
  if (!keyVar) throw new Error(`${cli.keyVars.join(' or ')} is not set: the ${cli.name} agent needs it (API keys are read from the environment only)`);
  const upstream = (cli.baseUrlVars.map((v) => env[v]?.trim()).find(Boolean) ?? cli.defaultBaseUrl).replace(/\/+$/, '');
  try {
    new URL(upstream);
  } catch {
    throw new Error(`${cli.baseUrlVars.join(' / ')} is not a URL: "${upstream}"`);
  }
  return { upstream, key: env[keyVar]!.trim(), keyVar };
}

/** One argument list as a bash command line. */
export function shellQuote(args: string[]): string {
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
