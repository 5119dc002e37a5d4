// --budget-per-agent (orchestrator/config/budget-per-agent.ts, agents/core/run-budget.ts): every
// agent gets the same budget for each development, in dollars or in tokens, chained to --budget-usd;
// a development stops at it and its bot as it stands plays; report.html draws mean S against
// dollars with the Pareto front (checked in Chromium). Also: the flag's forms, the refusal with a
// queue, and the front on a hand-made field.
// Two one-round tourneys of two built-in agents against the scripted chat server (about 20 s).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import { parseBudgetPerAgent } from '../orchestrator/config/budget-per-agent.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { checkRunAgents, runTourney } from '../orchestrator/tourney/tourney.ts';
import type { TourneySummary } from '../records/tourney.ts';
import { costScores } from '../reports/cost-score.ts';
import { hasChromium, openFile, sharedChromium } from './helpers/browser.ts';
import { tempDir } from './helpers/bots.ts';
import { sampleBuildTurns } from './helpers/sample-build.ts';
import { perConversation, SCRIPTED_KEY, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

// Each answer: 100k prompt tokens of which 60k cached, 10k output (110k tokens counted).
// At the coder's prices $0.66 an answer; at the cheap model's $0.066. A development is 3 answers.
const usage = { prompt_tokens: 100_000, completion_tokens: 10_000, prompt_tokens_details: { cached_tokens: 60_000 } };
const PRICES = {
  'scripted-coder': { input: 10, cacheRead: 1, output: 20 },
  'scripted-cheap': { input: 1, cacheRead: 0.1, output: 2 },
};

async function tourney(
  server: ScriptedLlm,
  budgetPerAgent: object,
): Promise<{ runDir: string; summary: TourneySummary }> {
  vi.stubEnv('OPENAI_API_KEY', SCRIPTED_KEY);
  vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
  const runDir = path.join(tempDir(), 'run');
  const config = resolveConfig({
    games: ['gomoku'],
    rounds: 1,
    variants: ['standard'],
    bootstrapSamples: 20,
    developConcurrency: 2,
    developTimeoutMs: 120_000,
    prices: PRICES,
    budgetPerAgent,
  });
  const agents = [
    new BuiltinAgent({ model: 'openai-compatible/scripted-coder', id: 'coder', maxRetries: 0 }),
    new BuiltinAgent({ model: 'openai-compatible/scripted-cheap', id: 'cheap', maxRetries: 0 }),
  ];
  return { runDir, summary: await runTourney({ config, runDir, agents }) };
}

const answered = (server: ScriptedLlm, model: string) =>
  server.requests.filter((q) => q.usage && (q.body as { model?: string }).model === model).length;

describe('--budget-per-agent in dollars', () => {
  let server: ScriptedLlm;
  let run: { runDir: string; summary: TourneySummary };

  beforeAll(async () => {
    server = await startScriptedLlm(perConversation(sampleBuildTurns({ usage })), {
      noStreaming: true,
      models: Object.keys(PRICES),
    });
    // $0.50: the dear agent stops after its first answer, before its test_bot call (one bot start less).
    run = await tourney(server, { usd: 0.5 });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    vi.unstubAllEnvs();
  });

  it('stops the dear agent at $0.50 after one answer ($0.66); the cheap one finishes its three ($0.20)', () => {
    expect(answered(server, 'scripted-coder')).toBe(1);
    expect(answered(server, 'scripted-cheap')).toBe(3);
    const [coder, cheap] = ['coder', 'cheap'].map((a) => run.summary.tracks[0]!.strategies.find((s) => s.agent === a)!);
    expect(coder!.budgetStopped).toMatch(
      /coder's budget per development \(--budget-per-agent\) of \$0\.50 was reached \(\$0\.66 estimated\)/,
    );
    expect(coder!.cost!.costUsd).toBeCloseTo(0.66, 9);
    expect(cheap!.budgetStopped).toBeUndefined();
    expect(cheap!.cost!.costUsd).toBeCloseTo(0.198, 9);
  });

  it('report.md gives the budget and the front; the chart in Chromium marks the agents on the front', async () => {
    const md = fs.readFileSync(path.join(run.runDir, 'report.md'), 'utf8');
    expect(md).toContain('## Strength against cost');
    expect(md).toContain(
      'Budget per agent (--budget-per-agent): $0.50 per development (one agent, track and round); 1 development(s) stopped at it.',
    );
    // Both built the sample bot, which moves at random (Math.random): their games, so their mean S,
    // can differ either way. The cheaper agent is on the front whatever the games; the dearer one only
    // where it scored more (equal S: the cheaper dominates).
    const rows = costScores(run.summary);
    const [cheap, coder] = ['cheap', 'coder'].map((a) => rows.find((r) => r.agent === a)!);
    expect(rows.map((r) => r.agent)).toEqual(['cheap', 'coder']);
    expect(cheap!.front).toBe(true);
    expect(coder!.front).toBe(coder!.meanS > cheap!.meanS);
    if (!hasChromium) return;
    const { page, errors, outside } = await openFile(await sharedChromium(), path.join(run.runDir, 'report.html'));
    try {
      const chart = page.locator('svg.scatter-chart');
      await expect(chart.count()).resolves.toBe(1);
      expect(await chart.boundingBox()).toMatchObject({ width: 520, height: 300 });
      const points = await chart
        .locator('circle.point')
        .evaluateAll((cs) =>
          cs.map((c) => [c.getAttribute('data-series'), c.classList.contains('front'), Number(c.getAttribute('cx'))]),
        );
      expect(points.map(([a, front]) => [a, front])).toEqual(rows.map((r) => [r.agent, r.front]));
      expect(points[0]![2]).toBeLessThan(points[1]![2] as number); // dollars run left to right
      expect(await page.locator('nav a[href="#cost-score"]').count()).toBe(1);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('--budget-per-agent in tokens', () => {
  // 100,000 tokens: each agent stops after its first answer (its files written), before its
  // test_bot call, so the run starts each bot once, for the games (at 150,000 it stopped after the
  // second answer, its bot started twice).
  it('stops each agent after the answer that takes it past 100,000 tokens (one of 110,000)', async () => {
    const server = await startScriptedLlm(perConversation(sampleBuildTurns({ usage })), {
      noStreaming: true,
      models: Object.keys(PRICES),
    });
    try {
      const { summary } = await tourney(server, { tokens: 100_000 });
      expect(answered(server, 'scripted-coder')).toBe(1);
      expect(answered(server, 'scripted-cheap')).toBe(1);
      for (const s of summary.tracks[0]!.strategies)
        expect(s.budgetStopped).toMatch(
          /budget per development \(--budget-per-agent\) of 100,000 tokens was reached \(110,000 tokens estimated\)/,
        );
    } finally {
      await server.close();
      vi.unstubAllEnvs();
    }
  }, 300_000);
});

describe('the flag and its limits', () => {
  it('reads dollars, tokens and wall time, and refuses anything else saying the forms', () => {
    expect(parseBudgetPerAgent('$0.50')).toEqual({ usd: 0.5 });
    expect(parseBudgetPerAgent('2usd')).toEqual({ usd: 2 });
    expect(parseBudgetPerAgent('200k-tokens')).toEqual({ tokens: 200_000 });
    expect(parseBudgetPerAgent('1.5M tokens')).toEqual({ tokens: 1_500_000 });
    expect(parseBudgetPerAgent('15m')).toEqual({ wallMs: 900_000 });
    expect(parseBudgetPerAgent('90s')).toEqual({ wallMs: 90_000 });
    for (const bad of ['', '0usd', 'ten dollars', '5', '-1m'])
      expect(() => parseBudgetPerAgent(bad)).toThrow(
        /dollars \(\$0\.50 or 0\.5usd\), tokens \(200k-tokens\) or wall time \(15m, 90s\)/,
      );
    expect(() => resolveConfig({ budgetPerAgent: { usd: 1, tokens: 5 } })).toThrow(
      /exactly one of usd, tokens or wallMs/,
    );
  });

  it('dollars or tokens with a queue are refused before the run (workers develop unmetered); wall time is not', () => {
    const agents = [{ id: 'coder', kind: 'builtin:openai-compatible/scripted-coder' }];
    const config = (budgetPerAgent: object) =>
      resolveConfig({
        queue: 'redis://127.0.0.1:1',
        prices: PRICES,
        budgetPerAgent,
        agents: ['builtin:openai-compatible/scripted-coder'],
      });
    expect(() => checkRunAgents(config({ usd: 1 }), agents as never)).toThrow(
      /with --queue workers develop; give it in wall time/,
    );
    expect(() => checkRunAgents(config({ tokens: 1000 }), agents as never)).toThrow(
      /metered only where the run develops/,
    );
    expect(() => checkRunAgents(config({ wallMs: 60_000 }), agents as never)).not.toThrow();
  });

  it('the front on a hand-made field: dominated agents are off it, ties on both axes stay on', () => {
    const track = (agent: string, usd: number) => ({
      agent,
      round: 1,
      cost: { tokens: { input: 1, output: 1 }, costUsd: usd },
    });
    const summary = {
      tracks: [{ strategies: [track('a', 1), track('b', 2), track('c', 3), track('d', 2), track('e', 1)] }],
      leaderboard: [
        { agent: 'a', meanS: 0.5 },
        { agent: 'b', meanS: 0.7 },
        { agent: 'c', meanS: 0.6 }, // dearer than b and weaker: off
        { agent: 'd', meanS: 0.7 }, // equal to b on both: both on
        { agent: 'e', meanS: 0.5 }, // equal to a on both: both on
      ],
    };
    expect(costScores(summary as never).map((r) => `${r.agent}${r.front ? '+' : '-'}`)).toEqual([
      'a+',
      'e+',
      'b+',
      'd+',
      'c-',
    ]);
  });
});
