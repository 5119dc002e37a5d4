// One tourney round for an LLM agent under test: the agent (from its spec) against the offline
// cautious agent, Gomoku standard, one round; what a test then checks: its strategy record and
// build log, the games played, and every file of the run (for a leaked key).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { createOfflineAgent } from '../../agents/offline/index.ts';
import { createAgent } from '../../agents/registry.ts';
import type { MatchResult } from '../../records/match.ts';
import type { StrategyRecord, TourneySummary } from '../../records/tourney.ts';
import { resolveConfig } from '../../orchestrator/config/tourney-config.ts';
import { runTourney } from '../../orchestrator/tourney/tourney.ts';
import { tempDir } from './bots.ts';

export interface AgentRound {
  runDir: string;
  summary: TourneySummary;
  /** tracks/gomoku-standard/round_1/strategies */
  strategies: string;
  record: StrategyRecord;
  buildLog: string;
  games: MatchResult[];
}

/** Plays the round; `id` is the agent's id (the `#id` of its spec). */
export async function agentRound(spec: string, id: string): Promise<AgentRound> {
  const runDir = path.join(tempDir(), 'run');
  const config = resolveConfig({
    games: ['gomoku'],
    rounds: 1,
    variants: ['standard'],
    concurrency: 2,
    bootstrapSamples: 20,
    developTimeoutMs: 240_000,
  });
  const summary = await runTourney({
    config,
    runDir,
    agents: [createAgent(spec, 1), createOfflineAgent('offline:cautious', 1)],
  });
  const strategies = path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies');
  return {
    runDir,
    summary,
    strategies,
    record: JSON.parse(fs.readFileSync(path.join(strategies, `${id}.strategy.json`), 'utf8')) as StrategyRecord,
    buildLog: fs.readFileSync(path.join(strategies, `${id}.build.log`), 'utf8'),
    games: fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as MatchResult),
  };
}

/** The round's two games ended normally: the agent's bot played both. */
export function expectPlayedNormally(games: MatchResult[]): void {
  expect(games).toHaveLength(2);
  for (const g of games) expect(g.termination).toBe('normal');
}

/** No file of the run directory (build logs, bot logs, records) contains the secret. */
/**
 * What the evolution report read from the agent's own record of the round (its transcript or tool
 * log, reports/evolution/agent-reads.ts): the source and every file use, as "action path".
 */
export function evolutionReads(
  runDir: string,
  agent: string,
): { source: string; firstWrite: number | null; uses: string[] } {
  const evolution = JSON.parse(
    fs.readFileSync(path.join(runDir, 'tracks', 'gomoku-standard', 'evolution.json'), 'utf8'),
  );
  const reads = evolution.steps.find((s: { agent: string }) => s.agent === agent).reads;
  return {
    source: reads.source,
    firstWrite: reads.firstWrite,
    uses: reads.accesses.map((a: { action: string; path: string }) => `${a.action} ${a.path}`),
  };
}

export function expectSecretNowhere(runDir: string, secret: string): void {
  for (const entry of fs.readdirSync(runDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      expect(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'), entry.name).not.toContain(secret);
  }
}

/** The strategy record and build log of an agent in a run's round 1 of Gomoku standard (runDir read when called). */
export function roundReader(runDir: () => string): {
  record(agent: string): StrategyRecord;
  buildLog(agent: string): string;
} {
  const strategies = () => path.join(runDir(), 'tracks', 'gomoku-standard', 'round_1', 'strategies');
  return {
    record: (agent) =>
      JSON.parse(fs.readFileSync(path.join(strategies(), `${agent}.strategy.json`), 'utf8')) as StrategyRecord,
    buildLog: (agent) => fs.readFileSync(path.join(strategies(), `${agent}.build.log`), 'utf8'),
  };
}

/**
 * One scripted server for many agents told apart by model name: each request goes to its model's
 * script, with how many requests for that model came before it.
 */
export function scriptsByModel<R extends { model: string }, T>(
  scripts: Record<string, (req: R, seen: number) => T>,
): (req: R) => T {
  const seen = new Map<string, number>();
  return (req) => {
    const n = seen.get(req.model) ?? 0;
    seen.set(req.model, n + 1);
    return scripts[req.model]!(req, n);
  };
}

/**
 * The round of an agent that meets an answer no attempt can cure (a refused key, no credit, a
 * prompt too long): one attempt, the reason named, no other started. Returns the round and its wall time.
 */
export async function finalFailureRound(
  spec: string,
  id: string,
  reason: string,
): Promise<AgentRound & { seconds: number }> {
  const started = Date.now();
  const round = await agentRound(spec, id);
  expect(round.record.status).toBe('failed');
  expect(round.record.failureReason, round.buildLog).toBe(reason);
  expect(round.buildLog).not.toContain('## attempt 2/');
  expect(round.buildLog).toMatch(new RegExp(`no further attempt: ${reason} does not change between attempts`));
  return { ...round, seconds: (Date.now() - started) / 1000 };
}
