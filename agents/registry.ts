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
import { CLI_NAMES, type CliName } from './cli/clis.ts';
import { createDirAgent } from './dir/dir-agent.ts';
import { createLlmPlayerAgent, type LlmPlayerSampling } from './llm-player/agent.ts';
import { createOfflineAgent } from './offline/index.ts';
import { DockerAgentSandbox } from './builtin/docker-sandbox.ts';
import type { Agent, Workspace } from './core/types.ts';
import { AGENT_SPEC_HELP } from './core/spec-help.ts';


/** builtin:<provider>/<model>[~<fallback provider>/<model>][#id] */
function createBuiltinAgent(spec: string, options: CreateAgentOptions): Agent {
  const m = /^builtin:([^~#\s]+)(?:~([^#\s]+))?(?:#([\w.@-]+))?$/.exec(spec.trim());
  if (!m) throw new Error(`bad builtin agent spec "${spec}": expected builtin:<provider>/<model>, optionally ~<provider>/<model> (fallback) and #<id>`);
  return new BuiltinAgent({
    model: m[1]!,
    ...(m[2] ? { fallback: m[2] } : {}),
    ...(m[3] ? { id: m[3] } : {}),
    ...(options.sandbox === 'docker' ? { sandbox: (ws: Workspace) => new DockerAgentSandbox(ws) } : {}),
  });
}

/** <cli>[:<model>][#id] */
function createCliAgent(spec: string, options: CreateAgentOptions = {}): Agent {
  const m = /^([a-z-]+)(?::([^#\s]+))?(?:#([\w.@-]+))?$/.exec(spec.trim());
  if (!m || !(CLI_NAMES as readonly string[]).includes(m[1]!)) throw new Error(`bad CLI agent spec "${spec}": expected <cli>[:<model>][#<id>] with cli one of ${CLI_NAMES.join(', ')}`);
  return new CliAgent({ cli: m[1] as CliName, ...(m[2] ? { model: m[2] } : {}), ...(m[3] ? { id: m[3] } : {}), ...(options.webTools ? { webTools: true } : {}) });
}

export interface CreateAgentOptions {
  /** The run's sandbox kind: under docker the built-in agent's commands run in a container too. */
  sandbox?: string;
  /** Sampling options for LLM-players (config llmPlayer); a spec's own ?key=value options win. */
  llmPlayer?: LlmPlayerSampling;
  /** CLI agents may use their provider-side web tools (config webTools; off by default). */
  webTools?: boolean;
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
      return createLlmPlayerAgent(spec, options.llmPlayer);
    default:
      if ((CLI_NAMES as readonly string[]).includes(kind)) return createCliAgent(spec, options);
      throw new Error(`unknown agent "${spec}"; agent specs: ${AGENT_SPEC_HELP}`);
  }
}
