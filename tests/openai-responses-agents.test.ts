// builtin:openai speaks OpenAI's Responses API (the only API of o3-pro, gpt-5-pro and the *-codex
// models), against the strict scripted Responses server (tests/helpers/scripted-responses.ts, where
// each wire detail's source is cited): one tourney round where each agent's model name picks its
// script: a bot written through real tool calls (reasoning replayed, cached tokens counted once),
// an answer ended by `incomplete` (max_output_tokens, then content_filter), a body that breaks off
// after its 200, and a refused key.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import { resolveModel } from '../agents/builtin/models.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { roundReader, scriptsByModel } from './helpers/agent-round.ts';
import { sampleBuildTurns } from './helpers/sample-build.ts';
import {
  startScriptedResponses,
  stepOf,
  toolResults,
  type ResponsesRequest,
  type ResponsesTurn,
  type ScriptedResponses,
} from './helpers/scripted-responses.ts';

const SECRET = 'sk-proj-responses-271';
const usage = { input_tokens: 1500, cached_tokens: 1000, output_tokens: 400, reasoning_tokens: 150 };
const WORKING: ResponsesTurn[] = sampleBuildTurns({ usage }).map((t, k) =>
  k === 0 ? { ...t, reasoning: 'Copy the sample bot first, then test it.' } : t,
);

const SCRIPTS: Record<string, (req: ResponsesRequest, seen: number) => ResponsesTurn> = {
  'gpt-5-pro': (req) => WORKING[stepOf(req)]!,
  // The first answer stops at max_output_tokens, the second attempt's first at the content filter; then it works.
  'gpt-5.1-codex-max': (req, seen) =>
    seen === 0
      ? { incomplete: { reason: 'max_output_tokens' }, text: 'Here is a long plan for the bot: first', usage }
      : seen === 1
        ? { incomplete: { reason: 'content_filter' } }
        : WORKING[stepOf(req)]!,
  // The first answer's body breaks off after its 200; the next attempt works.
  'o3-pro': (req, seen) =>
    seen === 0
      ? { streamError: { code: 'server_error', message: 'An error occurred while processing your request.' } }
      : WORKING[stepOf(req)]!,
  'wrong-key': () => ({ text: 'never reached' }),
};

describe('builtin:openai through the Responses API', () => {
  let server: ScriptedResponses;
  let runDir: string;
  const { record, buildLog } = roundReader(() => runDir);
  const asked = (model: string) => server.requests.filter((r) => r.model === model);

  beforeAll(async () => {
    server = await startScriptedResponses(scriptsByModel(SCRIPTS), { apiKey: SECRET, models: Object.keys(SCRIPTS) });
    runDir = path.join(tempDir(), 'run');
    const agent = (model: string, key = SECRET) =>
      new BuiltinAgent({
        model: `openai/${model}`,
        id: model.replace(/\./g, '-'),
        attemptsPerModel: 3,
        maxRetries: 0,
        env: { OPENAI_API_KEY: key, CATARENA_OPENAI_BASE_URL: server.baseURL },
      });
    const agents = [
      agent('gpt-5-pro'),
      agent('gpt-5.1-codex-max'),
      agent('o3-pro'),
      agent('wrong-key', 'sk-proj-wrong-000'),
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

  it('openai/ models resolve to the Responses API, openai-compatible/ ones to chat completions', () => {
    expect(resolveModel('openai/o3-pro', { OPENAI_API_KEY: 'k' }).api).toBe('responses');
    expect(resolveModel('openai-compatible/qwen3-coder-plus', { OPENAI_API_KEY: 'k' }).api).toBe('chat');
  });

  it("gpt-5-pro writes a bot through tool calls: stateless requests, reasoning replayed, tokens equal to the server's usage", () => {
    expect(record('gpt-5-pro').status, buildLog('gpt-5-pro')).toBe('ok');
    const requests = asked('gpt-5-pro');
    expect(requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
    expect(requests.every((r) => r.store === false && r.previousResponseId === undefined)).toBe(true);
    expect(requests[0]!.body.include).toContain('reasoning.encrypted_content');
    expect(requests[0]!.tools.map((t) => `${t.type}:${t.name}`)).toEqual(
      expect.arrayContaining(['function:write_file', 'function:test_bot', 'function:finish']),
    );
    // The second request carries the first answer whole: its reasoning item (encrypted content) and calls, with their outputs.
    const second = requests[1]!;
    expect(second.input.find((i) => i.type === 'reasoning')).toMatchObject({ encrypted_content: expect.any(String) });
    expect(second.input.filter((i) => i.type === 'function_call').map((i) => i.name)).toEqual([
      'write_file',
      'write_file',
      'write_file',
    ]);
    expect(toolResults(second)).toHaveLength(3);
    const byKind = {
      input: 3 * (usage.input_tokens - usage.cached_tokens),
      cacheRead: 3 * usage.cached_tokens,
      output: 3 * usage.output_tokens,
    };
    expect(record('gpt-5-pro').cost.tokens).toEqual(byKind);
  });

  it('response.incomplete (max_output_tokens, content_filter): each attempt ends saying so, the third builds the bot', () => {
    const log = buildLog('gpt-5-1-codex-max');
    expect(record('gpt-5-1-codex-max').status, log).toBe('ok');
    expect(log).toMatch(/attempt 1 failed: .*cut off at its output limit \(max_output_tokens\)/);
    expect(log).toMatch(/attempt 2 failed: .*refused or was stopped by the provider's filter \(content_filter\)/);
    expect(log).toMatch(/attempt 3 succeeded/);
    // The next attempt was told why.
    expect(JSON.stringify(asked('gpt-5.1-codex-max')[1]!.input.find((i) => i.role === 'user')?.content)).toMatch(
      /cut off at its output limit/,
    );
  });

  it('a body that breaks off after its 200: a server_error attempt, the next attempt builds the bot', () => {
    expect(record('o3-pro').status, buildLog('o3-pro')).toBe('ok');
    expect(buildLog('o3-pro')).toMatch(/attempt 1 failed: .*\[server_error\]/);
  });

  it('the server answers a model it does not serve with 404 model_not_found', async () => {
    const res = await fetch(`${server.baseURL}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` },
      body: JSON.stringify({ model: 'gpt-nope', input: 'hi' }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: {
        message: 'The model `gpt-nope` does not exist or you do not have access to it.',
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    });
  });

  it('a refused key: one 401, one attempt, named auth', () => {
    const r = record('wrong-key');
    expect(r.status).toBe('failed');
    expect(r.failureReason, buildLog('wrong-key')).toBe('auth');
    expect(r.failure).toMatch(/Incorrect API key provided/);
    expect(asked('wrong-key')).toHaveLength(0);
    expect(server.sideRequests.filter((s) => s.status === 401)).toHaveLength(1);
  });
});
