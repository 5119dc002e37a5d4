// What development cost, per agent and round: tokens by kind (input not read from a cache, cache
// reads, cache writes, output: each counted once), the estimated dollars from the price table
// (agents/core/prices.ts, dated; config `prices` overrides it) and, where the agent reports its
// own (Claude Code's total_cost_usd), that figure as a cross-check. With --budget-usd, strategies
// not developed because the budget was reached are named.
import type { CostRecord, TrackSummary } from '../records/tourney.ts';
import { PRICES_AS_OF } from '../agents/core/prices.ts';

type Strategies = Pick<TrackSummary, 'strategies'>;

interface RoundCost {
  agent: string;
  round: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Null when some strategy's model has no price; undefined when no LLM was used. */
  usd: number | null | undefined;
  reportedUsd: number;
  carried: number;
}

/** Per agent and round, summed over the tracks. */
export function costByRound(tracks: Strategies[]): RoundCost[] {
  const out = new Map<string, RoundCost>();
  for (const t of tracks) {
    for (const s of t.strategies) {
      const c = s.cost as CostRecord | undefined;
      const key = `${s.agent}@${s.round}`;
      const r = out.get(key) ?? {
        agent: s.agent,
        round: s.round,
        input: 0,
        cacheRead: 0,
        cacheWrite: 0,
        output: 0,
        usd: undefined,
        reportedUsd: 0,
        carried: 0,
      };
      out.set(key, r);
      if (s.carriedOver) r.carried++;
      if (!c?.tokens) continue;
      r.input += c.tokens.input;
      r.cacheRead += c.tokens.cacheRead ?? 0;
      r.cacheWrite += c.tokens.cacheWrite ?? 0;
      r.output += c.tokens.output;
      r.usd = r.usd === null || c.costUsd === null || c.costUsd === undefined ? null : (r.usd ?? 0) + c.costUsd;
      r.reportedUsd += c.reportedCostUsd ?? 0;
    }
  }
  return [...out.values()].sort((a, b) => a.agent.localeCompare(b.agent) || a.round - b.round);
}

export const usd = (v: number | null | undefined) =>
  v === undefined ? '—' : v === null ? 'no price' : `$${v < 0.01 && v > 0 ? v.toFixed(4) : v.toFixed(2)}`;

/** Table rows: agent, round, input, cache read, cache write, output, estimated $, reported $. */
export function costRoundRows(tracks: Strategies[]): string[][] {
  return costByRound(tracks)
    .filter((r) => r.usd !== undefined || r.carried)
    .map((r) => [
      r.agent,
      String(r.round),
      String(r.input),
      String(r.cacheRead),
      String(r.cacheWrite),
      String(r.output),
      `${usd(r.usd)}${r.carried ? ' (budget reached: not developed)' : ''}`,
      r.reportedUsd ? usd(r.reportedUsd) : '—',
    ]);
}

export const COST_ROUND_HEAD = [
  'Agent',
  'Round',
  'Input (uncached)',
  'Cache read',
  'Cache write',
  'Output',
  'Estimated $',
  'Reported $',
];

export const COST_ROUND_NOTE = `Tokens summed over the tracks, each counted once by kind; dollars estimated from list prices as of ${PRICES_AS_OF} (agents/core/prices.ts; \`prices\` in a config overrides them), "no price" for a model not in the table; "Reported" is the agent's own figure (Claude Code).`;

/** The whole run's estimated dollars (null when some model had no price; undefined without LLM agents). */
export function runCostUsd(tracks: Strategies[]): number | null | undefined {
  return costByRound(tracks).reduce<number | null | undefined>(
    (sum, r) => (r.usd === undefined ? sum : sum === null || r.usd === null ? null : (sum ?? 0) + r.usd),
    undefined,
  );
}

/** A line when the run's budget stopped development. */
export function budgetAlarmLines(tracks: Strategies[]): string[] {
  const carried = tracks.flatMap((t) => t.strategies.filter((s) => s.carriedOver));
  if (!carried.length) return [];
  return [
    `The run's budget was reached: ${carried.length} strateg${carried.length === 1 ? 'y was' : 'ies were'} not developed (from ${carried.map((s) => s.id).sort()[0]} on, the agents' last bots played again; round 1 ones are failed builds). ${carried[0]!.carriedOver}.`,
  ];
}
