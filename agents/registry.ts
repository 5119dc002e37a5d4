// Agents by spec string — one syntax on the command line and in config files:
//   offline:<character>[#n]          a reference agent that needs no LLM (cautious, aggressive, imitator)
//   dir:<path>[#id]                  a fixed bot folder, or one folder per round (round_1/, round_2/, …)
//   builtin:<provider>/<model>[~<provider>/<model>][#id]  the built-in minimal LLM coding agent, with
//                                    an optional fallback model after three failed attempts
//   llm-player:<provider>/<model>[#id][?temperature=0.1&reasoningEffort=low…]  an LLM asked for every
//                                    move (the paper's control), with its sampling options
//   <cli>[:<model>][#id]             a CLI coding agent in an agent container, cli one of claude-code,
//                                    codex, gemini-cli, qwen-code (qwen-code needs the model)
// API keys are read from the environment by the agents that need them, never from specs.
import { BuiltinAgent } from './builtin/agent.ts';
import { CliAgent } from './cli/agent.ts';
import { CLI_NAMES, CLIS, type CliName } from './cli/clis.ts';
import { createDirAgent } from './dir/dir-agent.ts';
import { createLlmPlayerAgent, type LlmPlayerSampling } from './llm-player/agent.ts';
import { createOfflineAgent } from './offline/index.ts';
import { DockerAgentSandbox } from './builtin/docker-sandbox.ts';
import type { Agent, Workspace } from './core/types.ts';
import type { ModelTable } from './core/models.ts';
import { AGENT_SPEC_HELP } from './core/spec-help.ts';

/** builtin:<provider>/<model>[~<fallback provider>/<model>][#id] */
function createBuiltinAgent(spec: string, options: CreateAgentOptions): Agent {
  const env = endpointEnv(spec, options.endpoint);
  const m = /^builtin:([^~#\s]+)(?:~([^#\s]+))?(?:#([\w.@-]+))?$/.exec(spec.trim());
  if (!m)
    throw new Error(
      `bad builtin agent spec "${spec}": expected builtin:<provider>/<model>, optionally ~<provider>/<model> (fallback) and #<id>`,
    );
  return new BuiltinAgent({
    model: m[1]!,
    ...(m[2] ? { fallback: m[2] } : {}),
    ...(m[3] ? { id: m[3] } : {}),
    ...(options.sandbox === 'docker' ? { sandbox: (ws: Workspace) => new DockerAgentSandbox(ws) } : {}),
    ...(env ? { env } : {}),
    ...(options.modelTable ? { modelTable: options.modelTable } : {}),
  });
}

/** <cli>[:<model>][#id] */
function createCliAgent(spec: string, options: CreateAgentOptions = {}): Agent {
  const m = /^([a-z-]+)(?::([^#\s]+))?(?:#([\w.@-]+))?$/.exec(spec.trim());
  if (!m || !(CLI_NAMES as readonly string[]).includes(m[1]!))
    throw new Error(
      `bad CLI agent spec "${spec}": expected <cli>[:<model>][#<id>] with cli one of ${CLI_NAMES.join(', ')}`,
    );
  const env = endpointEnv(spec, options.endpoint);
  return new CliAgent({
    cli: m[1] as CliName,
    ...(m[2] ? { model: m[2] } : {}),
    ...(m[3] ? { id: m[3] } : {}),
    ...(options.webTools ? { webTools: true } : {}),
    ...(env ? { env } : {}),
    ...(options.modelTable ? { modelTable: options.modelTable } : {}),
  });
}

export interface CreateAgentOptions {
  /** The run's sandbox kind: under docker the built-in agent's commands run in a container too. */
  sandbox?: string;
  /** Sampling options for LLM-players (config llmPlayer); a spec's own ?key=value options win. */
  llmPlayer?: LlmPlayerSampling;
  /** CLI agents may use their provider-side web tools (config webTools; off by default). */
  webTools?: boolean;
  /** This agent's own key variable and base URL (config agents: entries / agentEndpoints). */
  endpoint?: { keyEnv?: string; baseUrl?: string };
  /** The run's model table (config `models:` over the shipped one): call plans and preflight checks. */
  modelTable?: ModelTable;
}

/** The variables each provider's agents read their key and base URL from (the first is what they use). */
const BUILTIN_VARS: Record<string, { keys: string[]; base: string[] }> = {
  openai: { keys: ['OPENAI_API_KEY'], base: ['CATARENA_OPENAI_BASE_URL', 'OPENAI_BASE_URL'] },
  'openai-compatible': { keys: ['OPENAI_API_KEY'], base: ['CATARENA_OPENAI_BASE_URL', 'OPENAI_BASE_URL'] },
  anthropic: { keys: ['ANTHROPIC_API_KEY'], base: ['ANTHROPIC_BASE_URL'] },
  google: { keys: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'], base: ['GOOGLE_GEMINI_BASE_URL'] },
};

/**
 * The environment an agent with its own endpoint reads: the shared variables it would read,
 * replaced by its key variable's value and its base URL. Keys stay in the environment only.
 */
function endpointEnv(
  spec: string,
  endpoint: CreateAgentOptions['endpoint'],
): Record<string, string | undefined> | undefined {
  if (!endpoint || (!endpoint.keyEnv && !endpoint.baseUrl)) return undefined;
  const kind = spec.trim().split(/[:#]/)[0]!;
  let vars: { keys: string[]; base: string[] };
  if (kind === 'builtin') {
    const providers = [...spec.matchAll(/(?:^builtin:|~)([\w-]+)\//g)].map((m) => m[1]!);
    if (new Set(providers).size > 1) throw new Error(`${spec}: a per-agent endpoint needs both models on one provider`);
    vars = BUILTIN_VARS[providers[0] ?? ''] ?? { keys: [], base: [] };
  } else if ((CLI_NAMES as readonly string[]).includes(kind)) {
    vars = { keys: CLIS[kind as CliName].keyVars, base: CLIS[kind as CliName].baseUrlVars };
  } else {
    throw new Error(`${spec}: a per-agent key or base URL is supported for builtin, CLI and llm-player agents only`);
  }
  const env: Record<string, string | undefined> = { ...process.env };
  if (endpoint.keyEnv) {
    const key = process.env[endpoint.keyEnv]?.trim();
    if (!key)
      throw new Error(`${endpoint.keyEnv} is not set: the agent ${spec} reads its key from it (its agents: entry)`);
    for (const v of vars.keys) env[v] = key;
  }
  if (endpoint.baseUrl) for (const v of vars.base) env[v] = endpoint.baseUrl;
  return env;
}

export function createAgent(spec: string, seed: number, options: CreateAgentOptions = {}): Agent {
  const kind = spec.trim().split(/[:#]/)[0]!;
  switch (kind) {
    case 'offline':
      return createOfflineAgent(spec, seed);
    case 'dir':
      return createDirAgent(spec);
    case 'builtin':
      return createBuiltinAgent(spec, options);
    case 'llm-player':
      return createLlmPlayerAgent(spec, options.llmPlayer, options.endpoint, options.modelTable);
    default:
      if ((CLI_NAMES as readonly string[]).includes(kind)) return createCliAgent(spec, options);
      throw new Error(`unknown agent "${spec}"; agent specs: ${AGENT_SPEC_HELP}`);
  }
}
