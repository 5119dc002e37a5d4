// --budget-per-agent as a run records it (config.json) and the reports read it: one of dollars,
// tokens or wall time, for each development (one agent, one track, one round).
export interface BudgetPerAgent {
  usd?: number;
  tokens?: number;
  wallMs?: number;
}

/** The budget in words, for the reports: "$0.50", "200,000 tokens", "15 min". */
export function budgetPerAgentText(b: BudgetPerAgent): string {
  if (b.usd !== undefined) return `$${b.usd.toFixed(2)}`;
  if (b.tokens !== undefined) return `${b.tokens.toLocaleString('en-US')} tokens`;
  const s = (b.wallMs ?? 0) / 1000;
  return s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}
