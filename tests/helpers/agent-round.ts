// One tourney round for LLM agents under test: the agents (from their specs) against the offline
// cautious agent, Gomoku standard, one round; what a test then checks: each agent's strategy record
// and build log, the games it played, and every file of the run (for a leaked key). Several agents
// in one round (agentsRound: each with its own scripted server and key, as a run's agents: entries
// give them) develop side by side, so a file pays its CLI start-ups and retry waits once.
import fs from 'node:fs';
import path from 'node:path';
import { expect, vi } from 'vitest';
import { createOfflineAgent } from '../../agents/offline/index.ts';
import { createAgent } from '../../agents/registry.ts';
import type { MatchResult } from '../../records/match.ts';
import type { StrategyRecord, TourneySummary } from '../../records/tourney.ts';
import type { CreateAgentOptions } from '../../agents/registry.ts';
import { resolveConfig } from '../../orchestrator/config/tourney-config.ts';
import { runTourney } from '../../orchestrator/tourney/tourney.ts';
import { tempDir } from './bots.ts';

/** One agent of a shared round: its spec, and its own endpoint (key variable and base URL). */
export interface RoundEntry {
  spec: string;
  endpoint?: CreateAgentOptions['endpoint'];
}

/** What a test reads of one agent of a round. */
export interface AgentView {
  record: StrategyRecord;
  buildLog: string;
  /** Its games against the offline cautious agent (two: one per colour). */
  games: MatchResult[];
}

export interface SharedRound {
  runDir: string;
  summary: TourneySummary;
  /** tracks/gomoku-standard/round_1/strategies */
  strategies: string;
  /** Every game of the round. */
  games: MatchResult[];
  /** The record, build log and games of the agent with this id. */
  of(id: string): AgentView;
}

/**
 * Plays one round of the given agents and the offline cautious agent (id `cautious`); all develop
 * at once (or `developConcurrency` at a time), each against its own endpoint when it names one.
 */
export async function agentsRound(
  entries: RoundEntry[],
  options: { developConcurrency?: number } = {},
): Promise<SharedRound> {
  const runDir = path.join(tempDir(), 'run');
  const config = resolveConfig({
    games: ['gomoku'],
    rounds: 1,
    variants: ['standard'],
    concurrency: 2,
    bootstrapSamples: 20,
    developTimeoutMs: 240_000,
    developConcurrency: options.developConcurrency ?? entries.length + 1,
  });
  const agents = entries.map((e) => createAgent(e.spec, 1, e.endpoint ? { endpoint: e.endpoint } : {}));
  const summary = await runTourney({ config, runDir, agents: [...agents, createOfflineAgent('offline:cautious', 1)] });
  const strategies = path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies');
  const games = fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MatchResult);
  const seated = (g: MatchResult, agent: string) => g.spec.seats.some((s) => s.split('@')[0] === agent);
  return {
    runDir,
    summary,
    strategies,
    games,
    of: (id) => ({
      record: JSON.parse(fs.readFileSync(path.join(strategies, `${id}.strategy.json`), 'utf8')) as StrategyRecord,
      buildLog: fs.readFileSync(path.join(strategies, `${id}.build.log`), 'utf8'),
      games: games.filter((g) => seated(g, id) && seated(g, 'cautious')),
    }),
  };
}

/**
 * An agent's own endpoint in a shared round: its key in a variable of its own (stubbed here; the
 * agent reads it when created, as from a run's agents: entry) and its scripted server's URL.
 */
export function ownEndpoint(id: string, key: string, baseUrl: string): NonNullable<RoundEntry['endpoint']> {
  const keyEnv = `CATARENA_TEST_KEY_${id.toUpperCase().replace(/\W/g, '_')}`;
  vi.stubEnv(keyEnv, key);
  return { keyEnv, baseUrl };
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
 * An agent that met an answer no attempt can cure (a refused key, no credit, a prompt too long):
 * one attempt, the reason named, no other started. Returns its wall time in seconds.
 */
/** How many attempts a final failure takes: a context overflow gets a second, fresh attempt. */
export const attemptsWord = (reason: string) =>
  reason === 'context_length' ? 'two attempts, the second told to read in parts' : 'one attempt';

export function expectFinalFailure(view: Pick<AgentView, 'record' | 'buildLog'>, reason: string): number {
  expect(view.record.status).toBe('failed');
  expect(view.record.failureReason, view.buildLog).toBe(reason);
  // A session that outgrew the context gets one more, fresh, told to read in parts; then no further.
  const last = reason === 'context_length' ? 2 : 1;
  if (last === 2) expect(view.buildLog).toMatch(/outgrew the model's context: one more attempt/);
  expect(view.buildLog).toContain(`## attempt ${last}/`);
  expect(view.buildLog).not.toContain(`## attempt ${last + 1}/`);
  expect(view.buildLog).toMatch(new RegExp(`no further attempt: ${reason} does not change between attempts`));
  return view.record.cost.wallMs / 1000;
}
