// Pure helpers the tourney uses to build a TrackSummary and the run's leaderboard: error rates per
// agent (paper Table 16), cost per agent (Table 17) and average ranks over tracks (Table 3) with
// the probability of each place.
import { addTokens } from '../agents/core/prices.ts';
import type { CostRecord, ErrorRates, StrategyRecord, TourneySummary, TrackSummary } from '../records/tourney.ts';
import { adapterFor } from '../games/registry.ts';
import type { MatchResult } from '../records/match.ts';
import { mean, ranks } from './metrics/metrics.ts';
import { boardKey, boardOrder } from './board-rule.ts';
import type { BootstrapDraws } from './metrics/bootstrap.ts';

/** Whether a game's bots get a join_game call before the first move. */
function gameHasJoin(game: string): boolean {
  try {
    return adapterFor(game).join !== undefined;
  } catch {
    return false; // a game this build does not know: count moves only
  }
}

/** A bot that could not be started: the runner ends the game as a 'crash' before asking anyone. */
const notStarted = (result: MatchResult) =>
  result.termination === 'crash' && result.seatStats.every((s) => s.moves === 0);

/**
 * Join requests a seat was sent in one game: as the runner recorded them (seatStats.joins, retries
 * included), or for a result recorded before it did, as it must have sent them: seats in order,
 * stopping at the first failure.
 */
function joinsOf(result: MatchResult, seat: number, hasJoin: boolean): number {
  const recorded = result.seatStats[seat]?.joins;
  if (recorded !== undefined) return recorded;
  if (!hasJoin || notStarted(result)) return 0;
  if (result.termination === 'join_failed' && result.offender !== null) return seat <= result.offender ? 1 : 0;
  return 1;
}

const KINDS = ['timeout', 'http_error', 'malformed', 'illegal', 'crash'] as const;

/**
 * Error rates per agent over every bot request (moves asked + joins). A failed join counts as an
 * http_error. A bot that never started counts its start as one failed request, so rate ≤ 1.
 */
export function errorRates(
  results: MatchResult[],
  agentOf: (strategyId: string) => string,
  hasJoin: (game: string) => boolean = gameHasJoin,
): Record<string, ErrorRates> {
  const out: Record<string, ErrorRates> = {};
  for (const result of results) {
    const join = hasJoin(result.spec.game);
    result.spec.seats.forEach((id, seat) => {
      const stats = result.seatStats[seat];
      if (!stats) return;
      const r = (out[agentOf(id)] ??= {
        requests: 0,
        timeout: 0,
        http_error: 0,
        malformed: 0,
        illegal: 0,
        crash: 0,
        rate: 0,
      });
      const standIn = result.standIns?.some((x) => x.seat === seat) ?? false;
      // A bot that never started: the offender, and any other side whose bot did not start either (it counts a crash too).
      const failedStart =
        (notStarted(result) && (result.offender === seat || (stats.errors.crash ?? 0) > 0)) || standIn ? 1 : 0;
      r.requests += stats.moves + joinsOf(result, seat, join) + failedStart;
      for (const kind of KINDS) r[kind] += stats.errors[kind] ?? 0;
      r.http_error += stats.errors.join_failed ?? 0;
    });
  }
  for (const r of Object.values(out)) {
    const failed = KINDS.reduce((sum, kind) => sum + r[kind], 0);
    r.rate = r.requests > 0 ? failed / r.requests : 0;
  }
  return out;
}

/** Cost summed over each agent's strategies; tokens stay null unless some round reported them. */
export function costByAgent(
  strategies: Array<Pick<StrategyRecord, 'agent' | 'cost'>>,
): Record<string, CostRecord & { rounds: number }> {
  const out: Record<string, CostRecord & { rounds: number }> = {};
  for (const { agent, cost } of strategies) {
    const c = (out[agent] ??= { wallMs: 0, toolCalls: 0, tokens: null, linesOfCode: 0, rounds: 0 });
    c.wallMs += cost.wallMs;
    c.toolCalls += cost.toolCalls;
    c.linesOfCode += cost.linesOfCode;
    if (cost.rateLimitWaitMs) c.rateLimitWaitMs = (c.rateLimitWaitMs ?? 0) + cost.rateLimitWaitMs;
    c.rounds += 1;
    if (cost.tokens) {
      c.tokens ??= { input: 0, output: 0 };
      addTokens(c.tokens, cost.tokens);
    }
  }
  return out;
}

type Entry = TourneySummary['leaderboard'][number];

/** One track's S and L per agent, as the leaderboard reads them. */
interface TrackValues {
  agents: readonly string[];
  S: (agent: string) => number | null;
  L: (agent: string) => number | null;
}

/** Mean ranks and values per agent over the tracks, and the board order (best first). */
function board(tracks: readonly TrackValues[]): Entry[] {
  const agents = [...new Set(tracks.flatMap((t) => t.agents))];
  const rankS: Record<string, (number | null)[]> = {};
  const rankL: Record<string, (number | null)[]> = {};
  const valS: Record<string, (number | null)[]> = {};
  const valL: Record<string, (number | null)[]> = {};
  for (const track of tracks) {
    const s = Object.fromEntries(track.agents.map((a) => [a, track.S(a)]));
    const l = Object.fromEntries(track.agents.map((a) => [a, track.L(a)]));
    const rs = ranks(s);
    const rl = ranks(l);
    for (const a of track.agents) {
      (rankS[a] ??= []).push(rs[a] ?? null);
      (rankL[a] ??= []).push(rl[a] ?? null);
      (valS[a] ??= []).push(s[a] ?? null);
      (valL[a] ??= []).push(l[a] ?? null);
    }
  }
  const entries = agents.map((agent) => ({
    agent,
    meanRankS: mean(rankS[agent] ?? []),
    meanRankL: mean(rankL[agent] ?? []),
    meanS: mean(valS[agent] ?? []),
    meanL: mean(valL[agent] ?? []),
  }));
  return boardOrder(entries); // the rule the live page orders by too (board-rule.ts)
}

/**
 * Paper Table 3: per agent the mean over tracks of its rank by S and by L (ties share the mean
 * rank; a track where the metric is null does not count), plus the mean S and L. Sorted by the
 * mean of the two mean ranks (agents without any rank last), then by agent id.
 */
export function leaderboard(tracks: Array<Pick<TrackSummary, 'agents' | 'metrics'>>): Entry[] {
  return board(
    tracks.map((t) => ({
      agents: t.agents,
      S: (a) => t.metrics.perAgent[a]?.S ?? null,
      L: (a) => t.metrics.perAgent[a]?.L ?? null,
    })),
  );
}

/**
 * The leaderboard's uncertainty: sample b of every track's bootstrap (tracks are independent, so
 * their samples combine freely) gives one board; rankProbabilities are the shares of boards in
 * which the agent holds each place (tied keys split the places they span), aboveNext the share
 * in which it is placed above the agent listed after it (ties ½).
 */
export function withRankProbabilities(
  entries: Entry[],
  tracks: Array<{ agents: readonly string[]; draws: Pick<BootstrapDraws, 'S' | 'L'> }>,
): Entry[] {
  const samples = Math.min(...tracks.map((t) => t.draws.S.length));
  if (!tracks.length || !Number.isFinite(samples) || samples < 1) return entries;
  const order = entries.map((e) => e.agent);
  const tally = order.map(() => order.map(() => 0));
  const above = order.map(() => 0);
  for (let b = 0; b < samples; b++) {
    const sampled = board(
      tracks.map((t) => ({
        agents: t.agents,
        S: (a) => t.draws.S[b]![t.agents.indexOf(a)] ?? null,
        L: (a) => t.draws.L[b]![t.agents.indexOf(a)] ?? null,
      })),
    );
    const key = new Map(sampled.map((e) => [e.agent, boardKey(e)]));
    const keys = order.map((a) => key.get(a) ?? Infinity);
    order.forEach((_, i) => {
      const better = keys.filter((k) => k < keys[i]!).length;
      const tied = keys.filter((k) => k === keys[i]!).length;
      for (let place = better; place < better + tied; place++) tally[i]![place]! += 1 / tied;
      if (i + 1 < order.length) above[i]! += keys[i]! < keys[i + 1]! ? 1 : keys[i] === keys[i + 1] ? 0.5 : 0;
    });
  }
  return entries.map((e, i) => ({
    ...e,
    rankProbabilities: tally[i]!.map((c) => c / samples),
    aboveNext: i + 1 < entries.length ? above[i]! / samples : null,
  }));
}

/** An agent none of whose strategies built: it only ever played as a forfeiting stand-in. */
export interface AgentWithoutBot {
  agent: string;
  strategies: number;
  /** The first failure, for the reader to start from. */
  reason: string;
}

/** Agents whose every strategy in every track failed to build or validate. */
export function agentsWithoutBot(tracks: Array<Pick<TrackSummary, 'strategies'>>): AgentWithoutBot[] {
  const byAgent = new Map<string, Array<TrackSummary['strategies'][number]>>();
  for (const s of tracks.flatMap((t) => t.strategies)) byAgent.set(s.agent, [...(byAgent.get(s.agent) ?? []), s]);
  return [...byAgent]
    .filter(([, list]) => list.every((s) => s.status === 'failed'))
    .map(([agent, list]) => ({ agent, strategies: list.length, reason: list[0]!.failure ?? 'no reason recorded' }));
}

/** Every strategy of the run failed: nothing real played, the scores say nothing. */
export function everyBuildFailed(tracks: Array<Pick<TrackSummary, 'strategies'>>): boolean {
  const all = tracks.flatMap((t) => t.strategies);
  return all.length > 0 && all.every((s) => s.status === 'failed');
}
