// A rerun's fork (catarena rerun --from-round k --swap <agent>=<spec>): one agent of the recorded
// run is replaced from round k on, and runs live; every other agent, and this one before round k,
// is answered from the recording (docs/rerun.md "Forks").
import { agentIdOf } from '../../agents/core/agent-id.ts';
import type { Agent } from '../../agents/core/types.ts';
import type { TourneyConfig } from '../config/tourney-config.ts';
import type { ExchangeChannel } from '../../util/exchange-tape/tape.ts';
import { createRunAgents } from './develop.ts';

export interface ForkOptions {
  /** The agent's id in the recorded run. */
  agent: string;
  /** Its new spec (its id is kept: `#<agent>` is added where the spec names none). */
  spec: string;
  /** The first round the new spec develops (default 1). */
  fromRound?: number;
}

/** `agent=spec` as --swap takes it. */
export function parseSwap(text: string): { agent: string; spec: string } {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1)
    throw new Error(`bad --swap "${text}": use --swap <agent>=<spec>, e.g. --swap coder=builtin:openai/gpt-5.1`);
  return { agent: text.slice(0, at).trim(), spec: text.slice(at + 1).trim() };
}

/** The spec with the agent's id: `#id` added (before an LLM-player's `?options`) unless it names one. */
export function withId(spec: string, id: string): string {
  if (spec.includes('#')) return spec;
  const q = spec.indexOf('?');
  return q < 0 ? `${spec}#${id}` : `${spec.slice(0, q)}#${id}${spec.slice(q)}`;
}

/** An agent that develops as `before` until round `from`, then as `after` (its kind is the new one's). */
function switchingAgent(before: Agent, after: Agent, from: number): Agent {
  return {
    id: before.id,
    kind: after.kind,
    // Keys pass into its bot folder only where both would allow it.
    mayPassEnv: Boolean(before.mayPassEnv && after.mayPassEnv),
    develop: (ws, budget) => (ws.round < from ? before : after).develop(ws, budget),
    ...(after.worstCaseUsd ? { worstCaseUsd: (price) => after.worstCaseUsd!(price) } : {}),
  };
}

/** The fork's config (the new spec in the old one's place), its agents, and which channels run live. */
export function forkRun(
  config: TourneyConfig,
  fork: ForkOptions,
): { config: TourneyConfig; agents: Agent[]; live: (c: ExchangeChannel) => boolean } {
  const from = fork.fromRound ?? 1;
  if (!Number.isInteger(from) || from < 1 || from > config.rounds)
    throw new Error(`--from-round ${from}: the run has rounds 1 to ${config.rounds}`);
  const ids = config.agents.map((s) => agentIdOf(s));
  const index = ids.indexOf(fork.agent);
  if (index < 0)
    throw new Error(`--swap ${fork.agent}=…: the run has no agent ${fork.agent} (its agents: ${ids.join(', ')})`);
  const spec = withId(fork.spec, fork.agent);
  if (agentIdOf(spec) !== fork.agent)
    throw new Error(
      `--swap ${fork.agent}=${fork.spec}: the new spec names another id (${agentIdOf(spec)}); leave out its #id`,
    );
  const agents = createRunAgents(config);
  const forked: TourneyConfig = { ...config, agents: config.agents.map((s, i) => (i === index ? spec : s)) };
  const after = createRunAgents({ ...forked, agents: [spec] })[0]!;
  agents[index] = from === 1 ? after : switchingAgent(agents[index]!, after, from);
  return { config: forked, agents, live: (c) => c.agent === fork.agent && c.round >= from };
}
