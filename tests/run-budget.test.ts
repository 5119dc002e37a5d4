// --budget-usd as a hard cap (agents/core/run-budget.ts): four developments at once against the
// scripted chat-completions server never take the run's estimated spend past the cap by more than
// one request's cost; developments the budget stopped are named in the reports with the cap and
// the spend; a run with a budget and a model without a price does not start; the agent's own
// reported cost counts where it gives one; config prices match model ids, not prefixes.
// About 20 s alone, more on a loaded machine: two one-round tourneys whose strategies are
// validated as the arena validates them (four built-in developments in the first).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import { priceOf } from '../agents/core/prices.ts';
import { egressMeter, RunBudget, usageOfAnswer } from '../agents/core/run-budget.ts';
import { startEgressProxy } from '../sandbox/egress-proxy.ts';
import { SCRIPTED_ANTHROPIC_KEY, startScriptedAnthropic } from './helpers/scripted-anthropic.ts';
import type { Agent, Workspace } from '../agents/core/types.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import type { TourneySummary } from '../records/tourney.ts';
import { buildAlarmLines } from '../reports/alarms.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { sampleBuildTurns } from './helpers/sample-build.ts';
import { perConversation, SCRIPTED_KEY, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

// Each answer: 100k prompt tokens of which 60k cached, 10k output: at $10 / $1 / $20 per million, $0.66.
const usage = { prompt_tokens: 100_000, completion_tokens: 10_000, prompt_tokens_details: { cached_tokens: 60_000 } };
const PRICES = { 'scripted-coder': { input: 10, cacheRead: 1, output: 20 } };
const answerUsd = (u: { prompt_tokens: number; completion_tokens: number; cached?: number }) =>
  ((u.prompt_tokens - (u.cached ?? 0)) * 10 + (u.cached ?? 0) * 1 + u.completion_tokens * 20) / 1e6;

describe('--budget-usd with 4 developments at once', () => {
  let server: ScriptedLlm;
  let runDir: string;
  let summary: TourneySummary;
  const CAP = 2;

  beforeAll(async () => {
    // Answers take 150 ms, so the four developments' requests overlap.
    server = await startScriptedLlm(perConversation(sampleBuildTurns({ usage, delayMs: 150 })), { noStreaming: true });
    vi.stubEnv('OPENAI_API_KEY', SCRIPTED_KEY);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
    runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 1,
      variants: ['standard'],
      concurrency: 2,
      developConcurrency: 4,
      bootstrapSamples: 20,
      developTimeoutMs: 120_000,
      prices: PRICES,
      budgetUsd: CAP,
    });
    const agents = [1, 2, 3, 4].map(
      (i) => new BuiltinAgent({ model: 'openai-compatible/scripted-coder', id: `coder${i}`, maxRetries: 0 }),
    );
    summary = await runTourney({ config, runDir, agents });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    vi.unstubAllEnvs();
  });

  it("the server's usage, priced, passes the cap by one request's cost at most (four builds would cost $7.92)", () => {
    const answered = server.requests.filter((q) => q.usage);
    const spent = answered.reduce(
      (s, q) =>
        s +
        answerUsd({
          prompt_tokens: q.usage!.prompt_tokens,
          completion_tokens: q.usage!.completion_tokens,
          cached: q.usage!.prompt_tokens_details?.cached_tokens,
        }),
      0,
    );
    const oneRequest = answerUsd({ ...usage, cached: 60_000 });
    expect(spent).toBeGreaterThanOrEqual(CAP);
    expect(spent).toBeLessThanOrEqual(CAP + oneRequest + 1e-9);
    // The strategy records' dollars are the same figure.
    const records = summary.tracks[0]!.strategies;
    const recorded = records.reduce((s, r) => s + (r.cost?.costUsd ?? 0), 0);
    expect(recorded).toBeCloseTo(spent, 9);
  });

  it('the reports say the cap, the spend and which development the budget stopped', () => {
    const strategies = summary.tracks[0]!.strategies;
    const stopped = strategies.filter((s) => s.budgetStopped);
    expect(stopped.length).toBeGreaterThanOrEqual(1);
    expect(stopped[0]!.budgetStopped).toMatch(/the run's budget of \$2\.00 was reached \(\$\d+\.\d\d estimated\)/);
    const alarms = buildAlarmLines(summary);
    expect(
      alarms.some((l) => /The run's budget stopped \d+ developments? while/.test(l) && l.includes(stopped[0]!.id)),
    ).toBe(true);
    const md = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(md).toMatch(/Budget \(--budget-usd\): \$2\.00; spent \$2\.\d\d/);
    expect(md).toContain('(stopped by the budget)');
    const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toMatch(/Budget \(--budget-usd\): \$2\.00; spent \$2\.\d\d/);
  });
});

describe('a budget and a model without a price', () => {
  it('the run does not start, naming the model and the prices: entry to add; nothing is sent', async () => {
    const server = await startScriptedLlm(perConversation(sampleBuildTurns({ usage })), {
      noStreaming: true,
      models: ['unpriced-model'],
    });
    vi.stubEnv('OPENAI_API_KEY', SCRIPTED_KEY);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
    try {
      const config = resolveConfig({
        games: ['gomoku'],
        rounds: 1,
        variants: ['standard'],
        budgetUsd: 5,
        agents: ['offline:cautious', 'offline:aggressive'],
      });
      const agents = [
        new BuiltinAgent({ model: 'openai-compatible/unpriced-model', id: 'coder', maxRetries: 0 }),
        offline(),
      ];
      const run = runTourney({ config, runDir: path.join(tempDir(), 'run'), agents });
      await expect(run).rejects.toThrow(/model unpriced-model has no price[\s\S]*prices: \{ unpriced-model: \{ input:/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
      vi.unstubAllEnvs();
    }
  }, 60_000);
});

/** An agent that copies the random bot and reports its own cost, as Claude Code does (total_cost_usd), with tokens of an unpriced model. */
function reportingAgent(reportedCostUsd: number): Agent {
  return {
    id: 'reporter',
    kind: 'cli:claude-code',
    async develop(ws: Workspace) {
      fs.cpSync(BUILTIN('random'), ws.outputDir, { recursive: true });
      return {
        botDir: ws.outputDir,
        log: 'copied',
        cost: { wallMs: 1, toolCalls: 0, tokens: { input: 1000, output: 100 }, linesOfCode: 1, reportedCostUsd },
      };
    },
  };
}

function offline(): Agent {
  return {
    id: 'copier',
    kind: 'offline:copier',
    async develop(ws: Workspace) {
      fs.cpSync(BUILTIN('random'), ws.outputDir, { recursive: true });
      return { botDir: ws.outputDir, log: 'copied', cost: { wallMs: 1, toolCalls: 0, tokens: null, linesOfCode: 1 } };
    },
  };
}

describe("the agent's own reported cost", () => {
  it('is the dollars of its strategy where there is no estimate (no price for its model)', async () => {
    const config = resolveConfig({ games: ['gomoku'], rounds: 1, variants: ['standard'], bootstrapSamples: 20 });
    const summary = await runTourney({
      config,
      runDir: path.join(tempDir(), 'run'),
      agents: [reportingAgent(0.42), offline()],
    });
    const s = summary.tracks[0]!.strategies.find((r) => r.agent === 'reporter')!;
    expect(s.cost?.costUsd).toBe(0.42);
  }, 120_000);
});

describe('prices by model id', () => {
  it('a config entry prices its id and its snapshots, never a longer name; documented aliases are known', () => {
    const own = { 'my-model': { input: 1, output: 2 } };
    expect(priceOf('my-model', own)).toEqual({ input: 1, output: 2 });
    expect(priceOf('my-model-20260101', own)).toEqual({ input: 1, output: 2 });
    expect(priceOf('my-model-pro', own)).toBeUndefined();
    // A config entry for a base model does not price its -pro sibling: the table's own price stands.
    expect(priceOf('gpt-5.5-pro', { 'gpt-5.5': { input: 1, output: 2 } })).toMatchObject({ input: 30, output: 180 });
    // Claude Code's aliases (its model-config page).
    expect(priceOf('sonnet')).toEqual(priceOf('claude-sonnet-5-5'));
    expect(priceOf('opus')).toEqual(priceOf('claude-opus-5-5'));
  });
});

describe('usage from answers, as each API reports it', () => {
  it('Anthropic stream (cumulative message_delta), chat completions, Responses stream, Gemini chunks', () => {
    const sse = (events: object[]) => events.map((e) => `event: x\ndata: ${JSON.stringify(e)}\n\n`).join('');
    expect(
      usageOfAnswer(
        sse([
          {
            type: 'message_start',
            message: {
              usage: {
                input_tokens: 50,
                cache_read_input_tokens: 900,
                cache_creation_input_tokens: 20,
                output_tokens: 1,
              },
            },
          },
          {
            type: 'message_delta',
            usage: {
              input_tokens: 50,
              cache_read_input_tokens: 900,
              cache_creation_input_tokens: 20,
              output_tokens: 300,
            },
          },
        ]),
      ),
    ).toEqual({ input: 50, cacheRead: 900, cacheWrite: 20, output: 300 });
    expect(
      usageOfAnswer(
        JSON.stringify({
          usage: { prompt_tokens: 1000, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 400 } },
        }),
      ),
    ).toEqual({ input: 600, cacheRead: 400, output: 30 });
    expect(
      usageOfAnswer(
        sse([
          { type: 'response.created', response: { usage: null } },
          {
            type: 'response.completed',
            response: {
              usage: { input_tokens: 2000, input_tokens_details: { cached_tokens: 1500 }, output_tokens: 80 },
            },
          },
        ]),
      ),
    ).toEqual({ input: 500, cacheRead: 1500, output: 80 });
    expect(
      usageOfAnswer(
        sse([
          { usageMetadata: { promptTokenCount: 2200, candidatesTokenCount: 10 } },
          {
            usageMetadata: {
              promptTokenCount: 2200,
              cachedContentTokenCount: 2000,
              candidatesTokenCount: 60,
              thoughtsTokenCount: 35,
            },
          },
        ]),
      ),
    ).toEqual({ input: 200, cacheRead: 2000, output: 95 });
  });

  it('a development waits for its reservation while others hold the budget, and none starts once it is spent', async () => {
    const budget = new RunBudget(1);
    const first = (await budget.reserve('a', 0.8))!;
    let second: unknown;
    const waiting = budget.reserve('b', 0.8).then((l) => (second = l));
    await new Promise((r) => setTimeout(r, 20));
    expect(second).toBeUndefined(); // 0.8 + 0.8 > 1: it waits
    const ticket = (await first.admit(0.5))!;
    ticket.settle(0.5);
    first.close();
    await waiting;
    expect(second).toBeTruthy();
    const lease = second as Awaited<ReturnType<RunBudget['reserve']>>;
    (await lease!.admit(0.9))!.settle(0.6); // alone in flight: admitted though its worst case passes the cap
    expect(lease!.stopped).toMatch(/budget of \$1\.00 was reached \(\$1\.10 estimated\)/);
    expect(await lease!.admit(0.01)).toBeNull();
    lease!.close();
    expect(await budget.reserve('c', 0.1)).toBeNull();
  });
});

describe('CLI agents: the egress proxy meters their model calls', () => {
  it('four sessions streaming from the scripted Anthropic API through their proxies stay within one request of the cap; the rest get 402', async () => {
    // Usage as the emulator reckons it from the request (about 4 characters a token): a 200 kB prompt is ~50k tokens.
    const server = await startScriptedAnthropic(() => ({ text: 'ok', delayMs: 100 }));
    const CAP = 1;
    const budget = new RunBudget(CAP);
    const body = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 4000,
      stream: true,
      messages: [{ role: 'user', content: 'x'.repeat(200_000) }],
    });
    const statuses: number[] = [];
    const session = async (i: number) => {
      const lease = (await budget.reserve(`cli${i}`, undefined))!;
      const proxy = await startEgressProxy({
        allow: [],
        upstream: { url: server.baseURL, headers: { 'x-api-key': SCRIPTED_ANTHROPIC_KEY } },
        listen: { port: 0 },
        meter: egressMeter(lease),
      });
      try {
        for (let k = 0; k < 6; k++) {
          const res = await fetch(`${proxy.address}/v1/messages`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-api-key': 'placeholder',
              'anthropic-version': '2023-06-01',
            },
            body,
          });
          statuses.push(res.status);
          const text = await res.text();
          if (res.status === 402) {
            expect(JSON.parse(text).error.message).toMatch(/budget of \$1\.00 was reached/);
            break;
          }
        }
      } finally {
        await proxy.close();
        lease.close();
      }
      return lease;
    };
    try {
      const leases = await Promise.all([1, 2, 3, 4].map(session));
      const perRequest = server.requests
        .filter((r) => r.usage)
        .map((r) => (r.usage!.input_tokens * 3 + r.usage!.output_tokens * 15) / 1e6);
      const spent = perRequest.reduce((a, b) => a + b, 0);
      expect(spent).toBeGreaterThanOrEqual(CAP);
      expect(spent).toBeLessThanOrEqual(CAP + Math.max(...perRequest) + 1e-9);
      expect(budget.spentUsd()).toBeCloseTo(spent, 9);
      expect(statuses.filter((s) => s === 402)).toHaveLength(4);
      for (const l of leases) expect(l.stopped).toMatch(/budget of \$1\.00 was reached/);
    } finally {
      await server.close();
    }
  }, 60_000);
});
