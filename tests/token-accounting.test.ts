// Tokens as the providers bill them, each counted once: input not read from a cache, cache reads,
// cache writes and output, per agent and round; estimated dollars from the dated price table (a
// config's `prices` overrides it) in report.md and report.html; and --budget-usd, which stops a
// development at the request that reaches it and starts none after (with the scripted server's usage).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import { CLIS } from '../agents/cli/clis.ts';
import { estimateCostUsd, priceOf } from '../agents/core/prices.ts';
import { modelOfKind } from '../agents/kinds.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import type { StrategyRecord, TourneySummary } from '../records/tourney.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { buildAlarmLines } from '../reports/alarms.ts';
import { tempDir } from './helpers/bots.ts';
import { sampleBuildTurns } from './helpers/sample-build.ts';
import {
  perConversation,
  SCRIPTED_KEY,
  startScriptedLlm,
  type ScriptedLlm,
  type ScriptTurn,
} from './helpers/scripted-llm.ts';

describe('token counts by kind from each CLI', () => {
  it('Codex: turn.completed usage is the thread total, so the last one counts, its cached input apart', () => {
    const lines = [
      { type: 'turn.completed', usage: { input_tokens: 1000, cached_input_tokens: 600, output_tokens: 100 } },
      { type: 'turn.completed', usage: { input_tokens: 2500, cached_input_tokens: 1800, output_tokens: 240 } },
    ].map((e) => JSON.stringify(e));
    expect(CLIS.codex.parse(lines.join('\n')).tokens).toEqual({ input: 700, cacheRead: 1800, output: 240 });
  });

  it("Qwen Code: its input_tokens already includes the cache reads (counted once); Claude Code's input_tokens excludes them", () => {
    const result = (usage: object) =>
      JSON.stringify([{ type: 'result', subtype: 'success', is_error: false, result: 'done', num_turns: 3, usage }]);
    expect(
      CLIS['qwen-code'].parse(result({ input_tokens: 5000, cache_read_input_tokens: 3000, output_tokens: 400 })).tokens,
    ).toEqual({ input: 2000, cacheRead: 3000, output: 400 });
    const claude = CLIS['claude-code'].parse(
      result({ input_tokens: 100, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 40 }),
    );
    expect(claude.tokens).toEqual({ input: 100, cacheRead: 30, cacheWrite: 20, output: 40 });
  });

  it('Gemini CLI: tokens.prompt includes tokens.cached (promptTokenCount includes cachedContentTokenCount)', () => {
    const doc = {
      response: 'ok',
      stats: {
        models: {
          'gemini-2.5-pro': {
            api: { totalRequests: 2 },
            tokens: { prompt: 9000, cached: 6000, candidates: 300, thoughts: 200 },
          },
        },
        tools: { totalCalls: 1 },
      },
    };
    expect(CLIS['gemini-cli'].parse(JSON.stringify(doc)).tokens).toEqual({ input: 3000, cacheRead: 6000, output: 500 });
  });

  it('prices: by model id, config overrides, cache reads at their own price', () => {
    expect(modelOfKind('builtin:anthropic/claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(modelOfKind('cli:codex/gpt-5-mini')).toBe('gpt-5-mini');
    expect(modelOfKind('cli:codex')).toBeUndefined();
    expect(priceOf('gpt-5-mini')).toMatchObject({ input: 0.25 });
    expect(priceOf('claude-opus-4-5-20251101')).toMatchObject({ input: 5 });
    expect(priceOf('claude-opus-4-1')).toMatchObject({ input: 15 });
    expect(priceOf('my-model', { 'my-model': { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
    // Sonnet: 1M uncached × $3 + 1M cache read × $0.30 + 1M cache write × $3.75 + 1M output × $15.
    expect(
      estimateCostUsd({ input: 1e6, cacheRead: 1e6, cacheWrite: 1e6, output: 1e6 }, priceOf('claude-sonnet-4-5')),
    ).toBeCloseTo(22.05, 6);
    expect(estimateCostUsd({ input: 1, output: 1 }, undefined)).toBeNull();
  });
});

// Each answer: 100k prompt tokens of which 60k cached, 10k output.
const usage = { prompt_tokens: 100_000, completion_tokens: 10_000, prompt_tokens_details: { cached_tokens: 60_000 } };
const WORKING: ScriptTurn[] = sampleBuildTurns({ usage });

describe('cost per agent and round, and --budget-usd', () => {
  let server: ScriptedLlm;
  let runDir: string;
  let summary: TourneySummary;
  const record = (round: number): StrategyRecord =>
    JSON.parse(
      fs.readFileSync(
        path.join(runDir, 'tracks', 'gomoku-standard', `round_${round}`, 'strategies', 'coder.strategy.json'),
        'utf8',
      ),
    );

  beforeAll(async () => {
    server = await startScriptedLlm(perConversation(WORKING), { noStreaming: true });
    vi.stubEnv('OPENAI_API_KEY', SCRIPTED_KEY);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
    runDir = path.join(tempDir(), 'run');
    // $10 per million uncached input, $1 cached, $20 output: one build = 3 × (40k × 10 + 60k × 1 + 10k × 20) / 1M = $1.98.
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 2,
      variants: ['standard'],
      concurrency: 2,
      bootstrapSamples: 20,
      developTimeoutMs: 120_000,
      prices: { 'scripted-coder': { input: 10, cacheRead: 1, output: 20 } },
      budgetUsd: 1,
    });
    const agents = [
      new BuiltinAgent({ model: 'openai-compatible/scripted-coder', id: 'coder', maxRetries: 0 }),
      createOfflineAgent('offline:cautious', 1),
    ];
    summary = await runTourney({ config, runDir, agents });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    vi.unstubAllEnvs();
  });

  it("tokens equal the server's usage, cached tokens counted once; the budget stopped the build at its second answer", () => {
    const r1 = record(1);
    // A whole build is 3 answers, $1.98: the cap ($1) is passed at the second ($1.32), and the third is never sent.
    const answered = server.requests.filter((q) => q.usage);
    expect(answered).toHaveLength(2);
    expect(r1.cost.tokens).toEqual({ input: 2 * 40_000, cacheRead: 2 * 60_000, output: 2 * 10_000 });
    expect(r1.cost.costUsd).toBeCloseTo(1.32, 6);
    expect(r1.budgetStopped).toMatch(/budget of \$1\.00 was reached \(\$1\.32 estimated\)/);
    expect(r1.status).toBe('ok'); // its bot was written and tested before the cap
  });

  it('the budget reached in round 1: round 2 was not developed, the round-1 bot played again, and the run says so', () => {
    const r2 = record(2);
    expect(r2.carriedOver).toMatch(/budget of \$1\.00 was reached \(\$1\.32 estimated\)/);
    expect(r2.status).toBe('ok');
    expect(server.requests).toHaveLength(2); // no request for round 2
    expect(summary.tracks[0]!.rounds).toBe(2);
    const alarm = buildAlarmLines(summary).find((l) => l.includes('budget was reached'));
    expect(alarm).toMatch(/The run's budget was reached: 1 strategy was not developed/);
    const md = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(md).toContain(`> **${alarm}**`);
    expect(md).toMatch(/## Cost per agent and round[\s\S]*Estimated for the run: \$1\.32/);
    expect(md).toMatch(
      /\| coder\s*\| 1 \|\s*80000 \|\s*120000 \|\s*0 \|\s*20000 \| \$1\.32 \(stopped by the budget\)\s*\|/,
    );
    expect(md).toMatch(/\| coder\s*\| 2 \|.*budget reached: not developed/);
    const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('Cost per agent and round');
    expect(html).toContain('$1.32');
    expect(html).toContain('The run&#39;s budget was reached');
  });
});

describe("Qwen Code's errors", () => {
  it('an API error it reports as a success ("[API Error: …]", exit 0) is an error, classified by its words', async () => {
    const { classifyLlmError } = await import('../agents/core/failure.ts');
    const out = JSON.stringify([
      {
        type: 'result',
        subtype: 'success',
        is_error: false,
        result:
          "[API Error: 400 Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.]",
        usage: { input_tokens: 0, output_tokens: 0 },
      },
    ]);
    const report = CLIS['qwen-code'].parse(out);
    expect(report.error).toMatch(/^\[API Error: 400 Unsupported parameter/);
    expect(classifyLlmError('[API Error: 401 Incorrect API key provided]')).toBe('auth');
  });
});
