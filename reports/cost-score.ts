// Strength against spending, per agent: its mean S over the tracks beside the dollars it cost
// (development and play, as the cost table estimates them), and which agents are on the Pareto
// front: no other agent is at least as strong for at most as many dollars, and better in one.
// With --budget-per-agent every agent had the same budget per development, and the chart shows
// what each made of it.
import type { TourneySummary } from '../records/tourney.ts';
import { addUsd, costByRound } from './cost-by-round.ts';

export interface AgentCostScore {
  agent: string;
  /** Estimated dollars, development and play, summed over its rounds and tracks. */
  usd: number;
  /** Mean S over the tracks (the leaderboard's). */
  meanS: number;
  /** On the Pareto front of strength against dollars. */
  front: boolean;
}

/** Agents with both a dollar figure (a priced model) and a mean S; none when no agent used a priced model. */
export function costScores(s: Pick<TourneySummary, 'tracks' | 'leaderboard'>): AgentCostScore[] {
  const dollars = new Map<string, number | null | undefined>();
  for (const r of costByRound(s.tracks)) {
    if (r.usd !== undefined || r.play) dollars.set(r.agent, addUsd(addUsd(dollars.get(r.agent), r.usd), r.play?.usd));
  }
  const rows = s.leaderboard.flatMap((e) => {
    const usd = dollars.get(e.agent);
    return typeof usd === 'number' && e.meanS !== null && e.meanS !== undefined
      ? [{ agent: e.agent, usd, meanS: e.meanS, front: false }]
      : [];
  });
  for (const r of rows)
    r.front = !rows.some(
      (o) => o !== r && o.usd <= r.usd && o.meanS >= r.meanS && (o.usd < r.usd || o.meanS > r.meanS),
    );
  return rows.sort((a, b) => a.usd - b.usd || b.meanS - a.meanS || a.agent.localeCompare(b.agent));
}
