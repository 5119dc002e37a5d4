// Agents by spec string: offline:<character>[#n] now; llm: and cli: agents plug in here.
import { createOfflineAgent } from './offline/index.ts';
import type { Agent } from './types.ts';

export function createAgent(spec: string, seed: number): Agent {
  const kind = spec.split(':')[0];
  switch (kind) {
    case 'offline':
      return createOfflineAgent(spec, seed);
    default:
      throw new Error(`unknown agent "${spec}": available kinds are offline:<character> (e.g. offline:cautious); LLM and CLI agents are not available yet`);
  }
}
