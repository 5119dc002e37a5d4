// What development cost, per agent and round: tokens by kind (input not read from a cache, cache
// reads, cache writes, output: each counted once), the estimated dollars from the price table
// (agents/core/prices.ts, dated; config `prices` overrides it) and, where the agent reports its
// own (Claude Code's total_cost_usd), that figure as a cross-check. With --budget-usd, strategies
// not developed because the budget was reached are named. Beside it, what an LLM-player's bots
// spent playing (their models' calls during the games, from the bot logs), by the same table.
import type { CostRecord, TrackSummary } from '../records/tourney.ts';
import { PRICES_AS_OF } from '../agents/core/prices.ts';

type Strategies = Pick<TrackSummary, 'strategies'> & Partial<Pick<TrackSummary, 'llmPlayers'>>;

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
  /** Developments the budget stopped while they ran. */
  stopped?: number;
  /** Play-time tokens of the agent's round-n bots (LLM-players) and their dollars; undefined when none played. */
  play?: {
    input: number;
    cacheRead: number;
    cacheWrite: number;
    output: number;
    usd: number | null;
    /** A bot log was cut at the sandbox's cap: the figures are at least these. */
    truncated?: boolean;
  };
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
      if (s.budgetStopped) r.stopped = (r.stopped ?? 0) + 1;
      if (!c?.tokens) continue;
      r.input += c.tokens.input;
      r.cacheRead += c.tokens.cacheRead ?? 0;
      r.cacheWrite += c.tokens.cacheWrite ?? 0;
      r.output += c.tokens.output;
      r.usd = r.usd === null || c.costUsd === null || c.costUsd === undefined ? null : (r.usd ?? 0) + c.costUsd;
      r.reportedUsd += c.reportedCostUsd ?? 0;
    }
    for (const [agent, use] of Object.entries(t.llmPlayers ?? {})) {
      for (const [round, p] of Object.entries(use.play ?? {})) {
        const r = out.get(`${agent}@${round}`);
        if (!r) continue;
        const q = (r.play ??= { input: 0, cacheRead: 0, cacheWrite: 0, output: 0, usd: 0 });
        q.input += p.tokens.input;
        q.cacheRead += p.tokens.cacheRead ?? 0;
        q.cacheWrite += p.tokens.cacheWrite ?? 0;
        q.output += p.tokens.output;
        q.usd = q.usd === null || p.costUsd === null ? null : q.usd + p.costUsd;
        if (use.truncated) q.truncated = true;
      }
    }
  }
  return [...out.values()].sort((a, b) => a.agent.localeCompare(b.agent) || a.round - b.round);
}

export const usd = (v: number | null | undefined) =>
  v === undefined ? '—' : v === null ? 'no price' : `$${v < 0.01 && v > 0 ? v.toFixed(4) : v.toFixed(2)}`;

/**
 * Table rows: agent, round, development tokens (input, cache read, cache write, output),
 * estimated $, reported $, then play-time tokens (input, cache read, output) and estimated $.
 */
export function costRoundRows(tracks: Strategies[]): string[][] {
  return costByRound(tracks)
    .filter((r) => r.usd !== undefined || r.carried || r.play)
    .map((r) => [
      r.agent,
      String(r.round),
      String(r.input),
      String(r.cacheRead),
      String(r.cacheWrite),
      String(r.output),
      `${usd(r.usd)}${r.carried ? ' (budget reached: not developed)' : ''}${r.stopped ? ' (stopped by the budget)' : ''}`,
      r.reportedUsd ? usd(r.reportedUsd) : '—',
      ...(r.play
        ? [
            String(r.play.input),
            String(r.play.cacheRead),
            String(r.play.output),
            `${usd(r.play.usd)}${r.play.truncated ? ' (at least: a bot log was cut)' : ''}`,
          ]
        : ['—', '—', '—', '—']),
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
  'Play input (uncached)',
  'Play cache read',
  'Play output',
  'Play estimated $',
];

export const COST_ROUND_NOTE = `Tokens summed over the tracks, each counted once by kind; dollars estimated from list prices in the model table dated ${PRICES_AS_OF} (agents/core/models.json; a config's \`models:\` entries and \`prices\` override it, as the Model table line says), or the agent's own figure where it reports one (Claude Code's total_cost_usd, also in "Reported"), "no price" for a model not in the table. "Play" columns: an LLM-player's calls to its model during the games of its round-n strategy (from its bot logs), at the same prices; they count toward --budget-usd.`;

/** A dollar sum: undefined adds nothing (no LLM), null (a model without a price) makes the sum unknown. */
export const addUsd = (sum: number | null | undefined, v: number | null | undefined) =>
  v === undefined ? sum : sum === null || v === null ? null : (sum ?? 0) + v;

/** The whole run's estimated dollars, development and play (null when some model had no price; undefined without LLM agents). */
export function runCostUsd(tracks: Strategies[]): number | null | undefined {
  return costByRound(tracks).reduce<number | null | undefined>(
    (sum, r) => addUsd(addUsd(sum, r.usd), r.play?.usd),
    undefined,
  );
}

/** Lines when the run's budget stopped development: developments it stopped while they ran, and those it never started. */
export function budgetAlarmLines(tracks: Strategies[]): string[] {
  const stopped = tracks.flatMap((t) => t.strategies.filter((s) => s.budgetStopped));
  const carried = tracks.flatMap((t) => t.strategies.filter((s) => s.carriedOver));
  return [
    ...(stopped.length
      ? [
          `The run's budget stopped ${stopped.length} development${stopped.length === 1 ? '' : 's'} while ${stopped.length === 1 ? 'it' : 'they'} ran (${stopped
            .map((s) => s.id)
            .sort()
            .join(', ')}: each plays the bot it had written, if that passed validation). ${stopped[0]!.budgetStopped}.`,
        ]
      : []),
    ...(carried.length
      ? [
          `The run's budget was reached: ${carried.length} strateg${carried.length === 1 ? 'y was' : 'ies were'} not developed (from ${carried.map((s) => s.id).sort()[0]} on, the agents' last bots played again; round 1 ones are failed builds). ${carried[0]!.carriedOver}.`,
        ]
      : []),
  ];
}

/** The run's budget and its spend, for the cost section: "Budget (--budget-usd): $5.00; spent $4.12 (82%)." */
export function budgetLine(config: unknown, tracks: Strategies[]): string | undefined {
  const cap = (config as { budgetUsd?: number } | undefined)?.budgetUsd;
  if (cap === undefined) return undefined;
  const spent = runCostUsd(tracks);
  const share = typeof spent === 'number' ? ` (${Math.round((100 * spent) / cap)}% of it)` : '';
  return `Budget (--budget-usd): ${usd(cap)}; spent ${usd(spent ?? 0)}${share}, development and play, reported figures where the agent gave one.`;
}
