// A run with --budget-usd (or --budget-per-agent in dollars) must be able to price every model that spends it: a model without a
// price would count as $0, so the cap would not hold. Such a run does not start.
import type { Agent } from '../../agents/core/types.ts';
import { AGENT_KINDS, agentKindOf, callsModel, modelOfKind } from '../../agents/kinds.ts';
import { priceOf, pricesEntryFor, type ModelPrice } from '../../agents/core/prices.ts';
import { runModelTable, type ModelTableOverlay } from '../../agents/core/models.ts';

/** Agents whose development or play calls a model (offline, dir and the like spend nothing). */
const spends = (kind: string) => callsModel(agentKindOf(kind));

/** Throws, naming each model and the `prices:` entry to add, when a budget is set and an agent's model has no price. */
export function checkBudgetPrices(
  config: {
    budgetUsd?: number;
    budgetPerAgent?: { usd?: number };
    prices: Record<string, ModelPrice>;
    models?: ModelTableOverlay;
  },
  agents: Array<Pick<Agent, 'id' | 'kind'>>,
): void {
  const flag =
    config.budgetUsd !== undefined
      ? `--budget-usd ${config.budgetUsd}`
      : config.budgetPerAgent?.usd !== undefined
        ? `--budget-per-agent $${config.budgetPerAgent.usd}`
        : undefined;
  if (!flag) return;
  const table = runModelTable(config.models);
  const problems: string[] = [];
  for (const agent of agents.filter((a) => spends(a.kind))) {
    const model = modelOfKind(agent.kind);
    if (!model)
      problems.push(
        `${agent.id} (${agent.kind}) names no model, so its cost cannot be priced: name one (${agent.kind.replace(AGENT_KINDS.cli.prefix, '')}:<model>)`,
      );
    else if (!priceOf(model, config.prices, table))
      problems.push(
        `${agent.id}: model ${model} has no price (not in agents/core/models.json nor the config's \`models:\`, no \`prices:\` entry): add to the config ${pricesEntryFor(model)}`,
      );
  }
  if (problems.length)
    throw new Error(
      `${flag}: the run cannot keep to its budget, so it does not start:\n  ${problems.join('\n  ')}\n(or run without ${flag.split(' ')[0]}; see docs/first-real-run.md, "What it costs")`,
    );
}
