// --budget-per-agent: the same budget for every agent's development of each strategy (one agent,
// one track, one round), so agents of very different spending compare at equal cost. In dollars
// (usage × the model table, as --budget-usd), in tokens (input, cached and output alike), or in
// wall time (the development's deadline, at most --develop-timeout).
import { z } from 'zod';
import { budgetPerAgentText, type BudgetPerAgent } from '../../records/budget-per-agent.ts';

export type { BudgetPerAgent } from '../../records/budget-per-agent.ts';

export const budgetPerAgentSchema = z
  .object({
    usd: z.number().positive().optional(),
    tokens: z.number().int().positive().optional(),
    wallMs: z.number().int().positive().optional(),
  })
  .strict()
  .refine((b) => [b.usd, b.tokens, b.wallMs].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of usd, tokens or wallMs',
  });

const TOKEN_SCALE: Record<string, number> = { '': 1, k: 1e3, m: 1e6 };
const TIME_SCALE: Record<string, number> = { s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

/**
 * Reads the flag's value: `$0.50` or `0.5usd` (dollars), `200k-tokens` or `200000tokens`, `15m`,
 * `90s` or `1h` (wall time). Throws an error that shows the three forms.
 */
export function parseBudgetPerAgent(text: string): BudgetPerAgent {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  const usd = /^\$(\d+(?:\.\d+)?)$/.exec(t) ?? /^(\d+(?:\.\d+)?)(?:usd|\$)$/.exec(t);
  if (usd && Number(usd[1]) > 0) return { usd: Number(usd[1]) };
  const tokens = /^(\d+(?:\.\d+)?)([km]?)-?tokens?$/.exec(t);
  if (tokens && Number(tokens[1]) > 0) return { tokens: Math.round(Number(tokens[1]) * TOKEN_SCALE[tokens[2]!]!) };
  const wall = /^(\d+(?:\.\d+)?)(s|m|min|h)$/.exec(t);
  if (wall && Number(wall[1]) > 0) return { wallMs: Math.round(Number(wall[1]) * TIME_SCALE[wall[2]!]!) };
  throw new Error(
    `--budget-per-agent ${JSON.stringify(text)}: give dollars ($0.50 or 0.5usd), tokens (200k-tokens) or wall time (15m, 90s)`,
  );
}

/**
 * Dollars and tokens are metered where the run develops: a queue's workers develop unmetered, so
 * such a budget there would be a promise nobody keeps. Wall time holds everywhere.
 */
export function checkBudgetPerAgent(config: { queue?: string; budgetPerAgent?: BudgetPerAgent }): void {
  const b = config.budgetPerAgent;
  if (!config.queue || !b || b.wallMs !== undefined) return;
  throw new Error(
    `--budget-per-agent ${budgetPerAgentText(b)}: dollars and tokens are metered only where the run develops, and with --queue workers develop; give it in wall time (e.g. 15m) or run without --queue`,
  );
}
