// The LLM-players `catarena probe --llm-player` asks beside the run's strategies: each is the
// llm-player agent's bot (agents/llm-player), built for the track into the probe's folder, then
// started and asked like any bot.
import fs from 'node:fs/promises';
import path from 'node:path';
import { buildWorkspace } from '../../agents/core/workspace.ts';
import { createLlmPlayerAgent, LlmPlayerAgent } from '../../agents/llm-player/agent.ts';
import { AGENT_KINDS, agentSpec } from '../../agents/kinds.ts';

export interface LlmPlayerBot {
  id: string;
  dir: string;
}

/** Checks the specs before anything is started: llm-player:<provider>/<model>[#id], ids distinct. */
export function parseLlmPlayers(specs: readonly string[], baseUrl?: string): LlmPlayerAgent[] {
  const agents = specs.map((spec) => {
    const parsed = createLlmPlayerAgent(
      spec.startsWith(AGENT_KINDS.llmPlayer.prefix) ? spec : agentSpec(AGENT_KINDS.llmPlayer, spec),
    );
    return new LlmPlayerAgent(parsed.provider, parsed.model, { id: parsed.id, ...(baseUrl ? { baseUrl } : {}) });
  });
  const ids = agents.map((a) => a.id);
  const twice = ids.find((id, k) => ids.indexOf(id) !== k);
  if (twice)
    throw new Error(
      `--llm-player: "${twice}" is given twice; name a second one with #<id> (llm-player:openai/gpt-4o#second)`,
    );
  return agents;
}

/** Builds one LLM-player's bot for a track in `<dir>/<agent id>/` (replacing an earlier probe's). */
export async function buildLlmPlayerBot(
  agent: LlmPlayerAgent,
  dir: string,
  track: { game: string; variant: string },
  moveTimeoutMs: number,
): Promise<LlmPlayerBot> {
  const root = path.join(dir, agent.id);
  await fs.rm(root, { recursive: true, force: true });
  const ws = await buildWorkspace({
    dir: root,
    game: track.game,
    variant: track.variant,
    round: 1,
    agentId: agent.id,
    seed: 0,
    moveTimeoutMs,
  });
  const result = await agent.develop(ws);
  return { id: agent.id, dir: result.botDir };
}
