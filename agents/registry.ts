// Agents by spec string — one syntax on the command line and in config files:
//   offline:<character>[#n]          a reference agent that needs no LLM (cautious, aggressive, imitator)
//   dir:<path>[#id]                  a fixed bot folder, or one folder per round (round_1/, round_2/, …)
//   builtin:<provider>/<model>       the built-in minimal LLM coding agent (not yet in this build)
//   llm-player:<provider>/<model>    an LLM asked for every move (not yet in this build)
//   claude-code | codex | gemini-cli | qwen-code   CLI coding agents in a container (not yet in this build)
// API keys are read from the environment by the agents that need them, never from specs.
import { createDirAgent } from './dir/dir-agent.ts';
import { createOfflineAgent } from './offline/index.ts';
import type { Agent } from './types.ts';

export const AGENT_SPEC_HELP =
  'offline:<character> (cautious, aggressive, imitator), dir:<path>, builtin:<provider>/<model>, llm-player:<provider>/<model>, claude-code, codex, gemini-cli, qwen-code';

const PLANNED = new Set(['builtin', 'llm-player', 'claude-code', 'codex', 'gemini-cli', 'qwen-code']);

export function createAgent(spec: string, seed: number): Agent {
  const kind = spec.trim().split(':')[0]!;
  switch (kind) {
    case 'offline':
      return createOfflineAgent(spec, seed);
    case 'dir':
      return createDirAgent(spec);
    default:
      if (PLANNED.has(kind)) throw new Error(`agent "${spec}": ${kind} agents are not available in this build yet; use offline:<character> or dir:<path>`);
      throw new Error(`unknown agent "${spec}"; agent specs: ${AGENT_SPEC_HELP}`);
  }
}
