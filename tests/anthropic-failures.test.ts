// The built-in agent on Anthropic (AI SDK, @ai-sdk/anthropic) through what the real Messages API
// does when things go wrong, against the strict scripted Anthropic server
// (tests/helpers/scripted-anthropic.ts, where each wire detail's source is cited): a 429 with
// retry-after and anthropic-ratelimit-* headers, a body that breaks off after its 200, a refused
// key (401 authentication_error "invalid x-api-key"), 402 billing_error, and a prompt too long (400
// invalid_request_error "prompt is too long: N tokens > M maximum", as coder/aibridge#56 records
// it). One tourney round, one agent per case (each its own model name, so the script tells them
// apart), an offline agent beside them.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { roundReader, scriptsByModel } from './helpers/agent-round.ts';
import { sampleBuildTurns } from './helpers/sample-build.ts';
import {
  startScriptedAnthropic,
  stepOf,
  type ScriptedAnthropic,
  type ScriptedRequest,
  type ScriptTurn,
} from './helpers/scripted-anthropic.ts';

const SECRET = 'sk-ant-failures-314';
const WORKING: ScriptTurn[] = sampleBuildTurns();

const SCRIPTS: Record<string, (req: ScriptedRequest, seen: number) => ScriptTurn> = {
  // The first request is refused with retry-after: 1 (and the rate-limit headers); then it works.
  'rate-once': (req, seen) =>
    seen === 0
      ? { httpError: 429, message: 'Number of request tokens has exceeded your per-minute rate limit', retryAfter: 1 }
      : WORKING[stepOf(req)]!,
  // Every first step's answer breaks off after its 200; the second attempt's conversation works.
  'drops-once': (req, seen) => (seen === 0 ? { streamError: {} } : WORKING[stepOf(req)]!),
  'no-credit': () => ({
    httpError: 402,
    message:
      'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
  }),
  'too-long': () => ({ httpError: 400, message: 'prompt is too long: 205351 tokens > 200000 maximum' }),
  'wrong-key': () => ({ text: 'never reached' }),
  // The first answer stops at max_tokens (the next attempt is told so, and builds); the other model always refuses.
  'cut-short': (req, seen) =>
    seen === 0
      ? { text: 'Let me write the whole bot in one go: import', stopReason: 'max_tokens' }
      : WORKING[stepOf(req)]!,
  refuses: () => ({ text: 'I cannot help with that.', stopReason: 'refusal' }),
};

describe("builtin:anthropic through the API's failures", () => {
  let server: ScriptedAnthropic;
  let runDir: string;
  const { record, buildLog } = roundReader(() => runDir);
  const asked = (model: string) => server.requests.filter((r) => r.model === model);

  beforeAll(async () => {
    server = await startScriptedAnthropic(scriptsByModel(SCRIPTS), {
      apiKey: SECRET,
      noStreaming: true,
      knownModels: Object.keys(SCRIPTS),
    });
    runDir = path.join(tempDir(), 'run');
    const agent = (model: string, key = SECRET, maxRetries = 0) =>
      new BuiltinAgent({
        model: `anthropic/${model}`,
        id: model,
        attemptsPerModel: 2,
        maxRetries,
        env: { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: server.baseURL },
      });
    const agents = [
      agent('rate-once', SECRET, 2),
      agent('drops-once'),
      agent('no-credit'),
      agent('too-long'),
      agent('wrong-key', 'sk-ant-wrong'),
      agent('cut-short'),
      agent('refuses'),
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
    await runTourney({ config, runDir, agents });
  }, 240_000);

  afterAll(async () => {
    await server?.close();
  });

  it('a 429 with retry-after: the SDK waits what the server asked, asks again, and the bot is built', () => {
    expect(record('rate-once').status, buildLog('rate-once')).toBe('ok');
    const [first, second] = asked('rate-once');
    expect(first!.turn).toMatchObject({ httpError: 429 });
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(second!.turn).not.toHaveProperty('httpError');
  });

  it('an answer that breaks off after its 200: a server_error attempt, the next attempt builds the bot', () => {
    expect(record('drops-once').status, buildLog('drops-once')).toBe('ok');
    expect(buildLog('drops-once')).toMatch(/attempt 1 failed: .*\[server_error\]/);
  });

  it('a refused key (401) and no credit (402): one request each; a prompt too long (400): one trimmed retry; named auth, billing, context_length', () => {
    const cases = {
      'wrong-key': ['auth', /HTTP 401|invalid x-api-key/],
      'no-credit': ['billing', /credit balance is too low/],
      'too-long': ['context_length', /prompt is too long/],
    } as const;
    for (const [model, [reason, detail]] of Object.entries(cases)) {
      const r = record(model);
      expect(r.status, model).toBe('failed');
      expect(r.failureReason, buildLog(model)).toBe(reason);
      expect(r.failure).toMatch(detail);
      expect(buildLog(model)).toMatch(
        model === 'too-long'
          ? /the conversation outgrew anthropic\/too-long's context: one more attempt, fresh/
          : /no further attempt: (auth|billing) does not change between attempts/,
      );
    }
    // The refused key never reached the script: the server's 401 came first, once.
    expect(server.others.filter((o) => o.status === 401)).toHaveLength(1);
    expect(asked('no-credit')).toHaveLength(1);
    expect(asked('too-long')).toHaveLength(2);
  });

  it('stop reasons max_tokens and refusal: the attempt ends saying so; the next is told, and builds or fails clearly', () => {
    expect(record('cut-short').status, buildLog('cut-short')).toBe('ok');
    expect(buildLog('cut-short')).toMatch(/attempt 1 failed: .*cut off at its output limit \(max_tokens\)/);
    expect(JSON.stringify(asked('cut-short')[1]!.messages)).toMatch(/cut off at its output limit/);
    const refused = record('refuses');
    expect(refused.status).toBe('failed');
    expect(refused.failureReason).toBe('no_bot');
    expect(buildLog('refuses')).toMatch(
      /gave up after 2 attempts: no runnable bot \(last failure: .*refused or was stopped by the provider's filter \(refusal\)\)/,
    );
    expect(asked('refuses')).toHaveLength(2);
  });
});
