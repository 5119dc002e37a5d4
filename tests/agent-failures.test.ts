// The failures a user of LLM agents will hit, in one real tourney round: a wrong key (401), a
// rate limit (429 with retry-after, once and for good), a server that drops the connection
// mid-answer, a prompt beyond the context length, an agent that never writes a bot, and one that
// spends its budget. Each ends that agent's round as a failed build with a named reason — in the
// strategy record, the build log and report.md — its bot sits out as a forfeiting stand-in, and
// the tourney goes on. One scripted OpenAI-compatible server answers every agent by model name.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import { classifyLlmError } from '../agents/core/failure.ts';
import { geminiNoBilling, geminiRateLimit } from './helpers/scripted-gemini.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import type { MatchResult } from '../records/match.ts';
import type { StrategyRecord, TourneySummary } from '../records/tourney.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { sampleBuildTurns } from './helpers/sample-build.ts';
import {
  startScriptedLlm,
  stepOf,
  type ScriptedLlm,
  type ScriptedRequest,
  type ScriptTurn,
} from './helpers/scripted-llm.ts';

const SECRET = 'sk-test-failures-789';
const WORKING: ScriptTurn[] = sampleBuildTurns();

/** What each model (one per agent) answers, by the step of its conversation. */
const SCRIPTS: Record<string, (req: ScriptedRequest, seen: number) => ScriptTurn> = {
  'wrong-key': () => ({
    httpError: 401,
    message: 'Incorrect API key provided: sk-te****789.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  }),
  // The first request of its life is refused with retry-after: 1; the SDK waits and asks again.
  'rate-once': (req, seen) =>
    seen === 0
      ? {
          httpError: 429,
          message: 'Rate limit reached for requests',
          type: 'requests',
          code: 'rate_limit_exceeded',
          headers: { 'retry-after': '1' },
        }
      : WORKING[stepOf(req)]!,
  'rate-always': () => ({
    httpError: 429,
    message: 'Rate limit reached for requests',
    type: 'requests',
    code: 'rate_limit_exceeded',
    headers: { 'retry-after': '0' },
  }),
  'drops-midway': () => ({
    text: 'I will now write the bot, starting with start_ai.sh and then the server code.',
    breakMidway: true,
  }),
  // Billing, as OpenAI words it (a 429 that no wait cures: type and code insufficient_quota, see
  // agents/core/failure.ts for the sources) and as a 402 (Anthropic's billing_error status).
  'no-quota': () => ({
    httpError: 429,
    message: 'You exceeded your current quota, please check your plan and billing details.',
    type: 'insufficient_quota',
    code: 'insufficient_quota',
  }),
  'no-credit': () => ({
    httpError: 402,
    message:
      'Your credit balance is too low to access the API. Please go to Plans & Billing to upgrade or purchase credits.',
    type: 'billing_error',
  }),
  'too-long': () => ({
    httpError: 400,
    message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 12001 tokens.",
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
  }),
  'no-bot': () => ({ toolCalls: [{ name: 'finish', args: { summary: 'I believe the task is done.' } }] }),
  // Each answer reports 3,000 tokens against a budget of 5,000: the second step spends it.
  spendthrift: () => ({
    toolCalls: [{ name: 'list_files', args: { path: '.' } }],
    usage: { prompt_tokens: 2_900, completion_tokens: 100 },
  }),
};

const EXPECTED: Record<string, { reason: string; detail: RegExp }> = {
  'wrong-key': { reason: 'auth', detail: /HTTP 401.*Incorrect API key/ },
  'rate-always': { reason: 'rate_limited', detail: /HTTP 429|Rate limit/ },
  'drops-midway': { reason: 'server_error', detail: /./ },
  'too-long': { reason: 'context_length', detail: /maximum context length/ },
  'no-quota': { reason: 'billing', detail: /exceeded your current quota/ },
  'no-credit': { reason: 'billing', detail: /credit balance is too low/ },
  'no-bot': { reason: 'no_bot', detail: /no start_ai\.sh/ },
  spendthrift: { reason: 'budget', detail: /token budget|stopped at the token budget/ },
};

describe('agent failures in a tourney round', () => {
  let server: ScriptedLlm;
  let runDir: string;
  let summary: TourneySummary;
  const seenByModel = new Map<string, number>();
  const record = (agent: string): StrategyRecord =>
    JSON.parse(
      fs.readFileSync(
        path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', `${agent}.strategy.json`),
        'utf8',
      ),
    );
  const buildLog = (agent: string) =>
    fs.readFileSync(
      path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', `${agent}.build.log`),
      'utf8',
    );

  beforeAll(async () => {
    server = await startScriptedLlm(
      (req) => {
        const seen = seenByModel.get(req.model) ?? 0;
        seenByModel.set(req.model, seen + 1);
        return SCRIPTS[req.model]!(req, seen);
      },
      { noStreaming: true, models: Object.keys(SCRIPTS), key: SECRET },
    );
    vi.stubEnv('OPENAI_API_KEY', SECRET);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
    runDir = path.join(tempDir(), 'run');
    // Retries inside the SDK only where the case is about them (429 with retry-after).
    const agent = (model: string, extra: Partial<ConstructorParameters<typeof BuiltinAgent>[0]> = {}) =>
      new BuiltinAgent({
        model: `openai-compatible/${model}`,
        id: model,
        attemptsPerModel: 2,
        maxRetries: 0,
        ...extra,
      });
    const agents = [
      ...['wrong-key', 'drops-midway', 'too-long', 'no-bot', 'no-quota', 'no-credit'].map((m) => agent(m)),
      agent('rate-once', { maxRetries: 2 }),
      // Patience with rate limits bounded to a second: the case is a limit that never lifts.
      agent('rate-always', { maxRetries: 1, rateLimits: { maxWaitMs: 1_000 } }),
      agent('spendthrift', { maxTotalTokens: 5_000 }),
      createOfflineAgent('offline:cautious', 1),
    ];
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 1,
      variants: ['standard'],
      concurrency: 2,
      bootstrapSamples: 20,
      developTimeoutMs: 120_000,
    });
    summary = await runTourney({ config, runDir, agents });
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    vi.unstubAllEnvs();
  });

  for (const [agent, expected] of Object.entries(EXPECTED)) {
    it(`${agent}: a failed build named "${expected.reason}" in the record, the build log and the report; its bot sits out`, () => {
      const r = record(agent);
      expect(r.status).toBe('failed');
      expect(r.failureReason).toBe(expected.reason);
      expect(r.failure).toMatch(new RegExp(`^${expected.reason}: `));
      expect(r.failure).toMatch(expected.detail);
      expect(buildLog(agent)).toContain(`## FAILED: ${r.failure}`);
      expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toContain(
        `\`${agent}@r1\`: ${expected.reason}: `,
      );
      const games = fs
        .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as MatchResult);
      const mine = games.filter((g) => g.spec.seats.includes(`${agent}@r1`));
      expect(mine.length).toBeGreaterThan(0);
      for (const g of mine) expect(g.scores[g.spec.seats.indexOf(`${agent}@r1`)]).toBe(0);
    });
  }

  it("a refused key, no credit or quota end the agent's attempts at once (one request, not one per attempt); a prompt too long gets one trimmed retry", () => {
    for (const model of ['wrong-key', 'no-quota', 'no-credit']) {
      expect(
        server.requests.filter((q) => q.model === model),
        model,
      ).toHaveLength(1);
      expect(buildLog(model)).toMatch(
        /no further attempt: (auth|billing|context_length) does not change between attempts/,
      );
    }
    // Too long: one more attempt, fresh and trimmed (agents/builtin/trim.ts), then no more.
    expect(server.requests.filter((q) => q.model === 'too-long')).toHaveLength(2);
    expect(buildLog('too-long')).toContain(
      "the conversation outgrew openai-compatible/too-long's context: one more attempt",
    );
    // A broken stream may be cured by the next attempt: both attempts ran.
    expect(server.requests.filter((q) => q.model === 'drops-midway')).toHaveLength(2);
  });

  it('a 429 with retry-after is waited out and retried: that agent builds a bot that plays', () => {
    const r = record('rate-once');
    expect(r.status, buildLog('rate-once')).toBe('ok');
    const asked = server.requests.filter((q) => q.model === 'rate-once');
    expect(asked[0]!.turn).toMatchObject({ httpError: 429 });
    expect(asked[1]!.turn).not.toHaveProperty('httpError');
  });

  it('the tourney went on: every game was played, the offline agent and the rate-limited one ranked above the failures', () => {
    expect(summary.tracks[0]!.games).toBe(90); // 10 strategies, 45 pairings, one colour-swapped pair each
    const S = summary.tracks[0]!.metrics.perAgent;
    for (const failed of Object.keys(EXPECTED)) {
      expect(S[failed]!.S).toBe(0); // two failed builds that meet both score 0: nobody wins what nobody played
      expect(summary.tracks[0]!.errors[failed]!.rate).toBeLessThanOrEqual(1);
    }
    expect(S.cautious!.S).toBeGreaterThan(0.5);
    // The key never reached a file of the run, a build log included.
    for (const entry of fs.readdirSync(runDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile())
        expect(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'), entry.name).not.toContain(SECRET);
    }
  });
});

describe('classifying LLM errors', () => {
  it("names providers' errors by status and by their words", () => {
    expect(classifyLlmError('HTTP 401 AI_APICallError: Unauthorized', 401)).toBe('auth');
    expect(classifyLlmError('API key not valid. Please pass a valid API key.', 400)).toBe('auth'); // Google
    expect(classifyLlmError('authentication_error: invalid x-api-key')).toBe('auth'); // Anthropic, via a CLI
    expect(classifyLlmError('Rate limit reached for requests', 429)).toBe('rate_limited');
    expect(classifyLlmError('RESOURCE_EXHAUSTED: Quota exceeded')).toBe('rate_limited'); // Google
    // Codex relays OpenAI's insufficient_quota in its own words (codex-rs CodexErr::QuotaExceeded), no code, no status.
    expect(classifyLlmError('Quota exceeded. Check your plan and billing details.')).toBe('billing');
    expect(classifyLlmError("This model's maximum context length is 8192 tokens", 400)).toBe('context_length'); // OpenAI
    expect(classifyLlmError('prompt is too long: 210000 tokens > 200000 maximum', 400)).toBe('context_length'); // Anthropic
    expect(
      classifyLlmError('The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', 400),
    ).toBe('context_length'); // Google
    expect(classifyLlmError('Overloaded', 529)).toBe('server_error');
    // Billing is no rate limit and no bad request: nothing an attempt or a wait cures.
    expect(
      classifyLlmError(
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
        400,
      ),
    ).toBe('billing');
    expect(
      classifyLlmError(
        "429 {'error': {'message': 'You exceeded your current quota, please check your plan and billing details.', 'type': 'insufficient_quota', 'code': 'insufficient_quota'}}",
        429,
      ),
    ).toBe('billing');
    expect(classifyLlmError('Payment Required', 402)).toBe('billing');
    // Gemini words its per-minute quota 429s alike, with a RetryInfo wait: a rate limit, not billing.
    expect(
      classifyLlmError(
        'RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details.',
        429,
      ),
    ).toBe('rate_limited');
    // Gemini's billing failures, also 429s: a project without billing on a model with no free tier
    // (every free-tier quota at limit 0), a prepaid project out of credit, a project with billing off.
    const noBilling = geminiNoBilling('gemini-2.5-pro') as { message: string; details: unknown[] };
    const body = JSON.stringify({
      error: { code: 429, message: noBilling.message, status: 'RESOURCE_EXHAUSTED', details: noBilling.details },
    });
    expect(classifyLlmError(body, 429)).toBe('billing');
    const perMinute = geminiRateLimit('31s') as { message: string; details: unknown[] };
    expect(
      classifyLlmError(
        JSON.stringify({ error: { code: 429, message: perMinute.message, details: perMinute.details } }),
        429,
      ),
    ).toBe('rate_limited');
    expect(
      classifyLlmError(
        'Your prepayment credits are depleted. Please go to AI Studio at https://ai.studio/projects to manage your project and billing.',
        429,
      ),
    ).toBe('billing');
    expect(classifyLlmError('{"error":{"code":403,"details":[{"reason":"BILLING_DISABLED"}]}}', 403)).toBe('billing');
    // undici's fetch waits 300 s for response headers, then fails with this cause (nodejs/undici#2235).
    expect(classifyLlmError('fetch failed: Headers Timeout Error (UND_ERR_HEADERS_TIMEOUT)')).toBe('timeout');
    expect(classifyLlmError('stream error: terminated')).toBe('server_error');
    expect(classifyLlmError('invalid_request_error: tools.0.name is too long', 400)).toBeNull();
  });
});
