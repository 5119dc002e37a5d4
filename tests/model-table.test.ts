// The model table (agents/core/models.json) and what reads it: prices by id (a -pro model is not its
// base, a current Opus is not Opus 4), the LLM-player's call plan (the paper's temperature 0.1 and
// top-p 1.0 less what each model refuses), the preflight's warnings, and the scripted servers,
// which refuse what the real APIs refuse for each family. On main: no table, prices by prefix
// (gpt-5-pro-2025-10-06 priced as gpt-5-pro only by luck, gpt-5.5-pro as gpt-5, claude-opus-4-7 as
// Opus 4), the bot sent every setting to every model, and the servers took any sampling.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LLM_PLAYER_BOT_DIR } from '../agents/llm-player/agent.ts';
import { lookupModel, MODEL_TABLE, modelTableWarning } from '../agents/core/models.ts';
import { modelTableCheck } from '../agents/core/preflight.ts';
import { estimateCostUsd, priceOf } from '../agents/core/prices.ts';
import { describePlan, planModelCall } from '../agents/llm-player/call-plan.ts';
import { SCRIPTED_ANTHROPIC_KEY, startScriptedAnthropic } from './helpers/scripted-anthropic.ts';
import { SCRIPTED_GEMINI_KEY, startScriptedGemini } from './helpers/scripted-gemini.ts';
import { SCRIPTED_KEY, startScriptedLlm } from './helpers/scripted-llm.ts';
import { startScriptedResponses } from './helpers/scripted-responses.ts';

const PAPER = { temperature: 0.1, topP: 1 };

describe('the model table', () => {
  it('is dated, and every entry names its source, the day it was checked, its API and its rules', () => {
    expect(MODEL_TABLE.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const f of MODEL_TABLE.families) {
      expect(f.match ?? f.pattern, JSON.stringify(f)).toBeTruthy();
      expect(f.source.length).toBeGreaterThan(20);
      expect(f.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(['chat', 'responses', 'messages', 'gemini']).toContain(f.api);
    }
  });

  it('prices a -pro model as itself, never as its base; a current Opus at its own price, not Opus 4', () => {
    expect(priceOf('gpt-5.5-pro')).toMatchObject({ input: 30, output: 180 });
    expect(priceOf('gpt-5-pro-2025-10-06')).toMatchObject({ input: 15, output: 120 });
    expect(priceOf('openai/gpt-5.5')).toMatchObject({ input: 5, output: 30 });
    expect(priceOf('claude-opus-4-7')).toMatchObject({ input: 5, output: 25 });
    expect(priceOf('claude-opus-5-5')).toMatchObject({ input: 4, output: 20 });
    expect(priceOf('claude-opus-4-1-20250805')).toMatchObject({ input: 15 });
    // An unknown model is unknown, not its nearest prefix: the budget cannot count it as a cheaper model.
    expect(priceOf('claude-opus-4-9')).toBeUndefined();
    expect(priceOf('gpt-5.9-pro')).toBeUndefined();
    // The config's prices: first, by id (a snapshot suffix at most), never by prefix.
    expect(priceOf('gpt-5.5-2026-05-01', { 'gpt-5.5': { input: 1, output: 2 } })).toEqual({ input: 1, output: 2 });
    expect(priceOf('gpt-5.5-pro', { 'gpt-5.5': { input: 1, output: 2 } })).toMatchObject({ input: 30, output: 180 });
  });

  it('bills a long prompt at its band when one request is priced (Haiku 5.5 above 100k tokens)', () => {
    const price = priceOf('claude-haiku-5-5');
    const long = { input: 150_000, output: 1_000 };
    expect(estimateCostUsd(long, price, true)).toBeCloseTo((150_000 * 0.5 + 1_000 * 2.5) / 1e6, 12);
    expect(estimateCostUsd(long, price)).toBeCloseTo((150_000 * 0.1 + 1_000 * 0.5) / 1e6, 12);
  });

  it('knows a family by its shape: gpt-5.1-codex and o3-pro need the Responses API', () => {
    expect(lookupModel('gpt-5.1-codex')?.api).toBe('responses');
    expect(lookupModel('gpt-5.1-codex-max')?.api).toBe('responses');
    expect(lookupModel('o3-pro')?.api).toBe('responses');
    expect(lookupModel('gpt-5.5')?.api).toBe('chat');
  });

  it('the preflight warns on a model not in the table, and on an entry older than 90 days', () => {
    expect(modelTableWarning('claude-opus-4-9')).toMatch(/not in the model table .*dated \d{4}-\d{2}-\d{2}/);
    expect(modelTableWarning('claude-sonnet-4-5', new Date('2026-12-07'))).toBeUndefined();
    expect(modelTableWarning('claude-sonnet-4-5', new Date('2027-06-01'))).toMatch(
      /checked 2026-12-06, \d+ days ago: check its price and parameters against platform\.claude\.com/,
    );
    expect(modelTableCheck('gpt-nonesuch', 'openai')).toEqual([
      expect.objectContaining({ check: 'model table', ok: true, warn: true }),
    ]);
    // A local OpenAI-compatible server's models are its own.
    expect(modelTableCheck('qwen3-coder-plus', 'openai-compatible')).toEqual([]);
  });
});

describe("the LLM-player's call plan under --preset paper", () => {
  it('Claude Sonnet 4.5 gets temperature 0.1 alone (it refuses it with top_p); what was dropped is said', () => {
    const plan = planModelCall('anthropic', 'claude-sonnet-4-5', PAPER);
    expect(plan).toMatchObject({ api: 'messages', sampling: { temperature: 0.1 }, asked: PAPER, maxTokens: 256 });
    expect(plan.thinking).toBeUndefined();
    expect(describePlan(plan)).toMatch(
      /sent \{"temperature":0\.1\}.*asked \{"temperature":0\.1,"topP":1\}.*topP 1 not sent/,
    );
  });

  it('Claude Sonnet 5 (thinks by default, refuses sampling) gets no sampling, adaptive thinking and room for an answer after it', () => {
    const plan = planModelCall('anthropic', 'claude-sonnet-5', PAPER);
    expect(plan.sampling).toEqual({});
    expect(plan.thinking).toEqual({ type: 'adaptive' });
    expect(plan.maxTokens).toBe(16_000);
  });

  it('an extended-thinking budget becomes adaptive thinking on a model that refuses thinking.type enabled', () => {
    expect(planModelCall('anthropic', 'claude-opus-4-7', { thinkingBudget: 4096 }).thinking).toEqual({
      type: 'adaptive',
    });
    expect(planModelCall('anthropic', 'claude-sonnet-4-5', { thinkingBudget: 4096, ...PAPER })).toMatchObject({
      thinking: { type: 'enabled', budgetTokens: 4096 },
      maxTokens: 4096 + 1024,
      sampling: {},
    });
    expect(planModelCall('anthropic', 'claude-opus-4-6', { reasoningEffort: 'low' }).thinking).toEqual({
      type: 'adaptive',
      effort: 'low',
    });
  });

  it("a Gemini 2.5 thinking budget is brought into the model's range, which the API enforces with a 400", () => {
    // 2.5 Pro cannot turn thinking off: budget 0 would fail every call of the run.
    const pro = planModelCall('google', 'gemini-2.5-pro', { thinkingBudget: 0 });
    expect(pro.sampling.thinkingBudget).toBe(128);
    expect(pro.notes.join('\n')).toMatch(/thinkingBudget 0 sent as 128: .*cannot turn thinking off/);
    expect(planModelCall('google', 'gemini-2.5-pro', { thinkingBudget: 52_428 }).sampling.thinkingBudget).toBe(32_768);
    expect(planModelCall('google', 'gemini-2.5-flash', { thinkingBudget: 32_768 }).sampling.thinkingBudget).toBe(
      24_576,
    );
    expect(planModelCall('google', 'gemini-2.5-flash-lite', { thinkingBudget: 100 }).sampling.thinkingBudget).toBe(512);
    // What each model takes as asked: 0 where thinking can be off, -1 (dynamic) everywhere, a budget in range.
    expect(planModelCall('google', 'gemini-2.5-flash', { thinkingBudget: 0 })).toMatchObject({
      sampling: { thinkingBudget: 0 },
      notes: [],
    });
    expect(planModelCall('google', 'gemini-2.5-pro', { thinkingBudget: -1 }).sampling.thinkingBudget).toBe(-1);
    expect(planModelCall('google', 'gemini-2.5-pro', { thinkingBudget: 2048 }).notes).toEqual([]);
  });

  it('OpenAI reasoning models get no temperature; Responses-only ones the Responses API; Gemini 3 keeps its default temperature', () => {
    expect(planModelCall('openai', 'gpt-5.5', { ...PAPER, reasoningEffort: 'low' })).toMatchObject({
      api: 'chat',
      sampling: { reasoningEffort: 'low' },
    });
    expect(planModelCall('openai', 'gpt-5.5-pro', PAPER)).toMatchObject({ api: 'responses', sampling: {} });
    expect(planModelCall('openai', 'gpt-4o-mini', PAPER).sampling).toEqual(PAPER);
    expect(planModelCall('google', 'gemini-3-flash-preview', PAPER).sampling).toEqual({ topP: 1 });
    expect(planModelCall('google', 'gemini-2.5-flash', PAPER).sampling).toEqual(PAPER);
    // Not in the table: sent as asked.
    expect(planModelCall('openai-compatible', 'scripted', PAPER).sampling).toEqual(PAPER);
  });
});

describe('the scripted servers refuse what the real APIs refuse, always', () => {
  const json = (r: Response) => r.json() as Promise<any>;

  it('Anthropic: temperature with top_p on Sonnet 4.5, any sampling on Opus 4.7, a budget not below max_tokens; Sonnet 5 thinks unasked', async () => {
    const s = await startScriptedAnthropic(() => ({ text: '1' }));
    try {
      const post = (body: Record<string, unknown>) =>
        fetch(`${s.v1URL}/messages`, {
          method: 'POST',
          headers: {
            'x-api-key': SCRIPTED_ANTHROPIC_KEY,
            'anthropic-version': '2023-06-01',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ max_tokens: 256, messages: [{ role: 'user', content: 'hi' }], ...body }),
        });
      const both = await post({ model: 'claude-sonnet-4-5', temperature: 0.1, top_p: 1 });
      expect(both.status).toBe(400);
      expect((await json(both)).error).toEqual({
        type: 'invalid_request_error',
        message: '`temperature` and `top_p` cannot both be specified for this model. Please use only one.',
      });
      expect((await post({ model: 'claude-sonnet-4-5', temperature: 0.1 })).status).toBe(200);
      const opus = await post({ model: 'claude-opus-4-7', temperature: 0.1 });
      expect((await json(opus)).error.message).toBe('`temperature` is deprecated for this model.');
      const budget = await post({ model: 'claude-sonnet-4-5', thinking: { type: 'enabled', budget_tokens: 1024 } });
      expect((await json(budget)).error.message).toMatch(/^`max_tokens` must be greater than `thinking.budget_tokens`/);
      // A thinking-by-default model thinks unasked: with 256 tokens the answer is all thinking.
      const cut = await json(await post({ model: 'claude-sonnet-5' }));
      expect(cut).toMatchObject({ stop_reason: 'max_tokens', content: [{ type: 'thinking' }] });
      expect(cut.content).toHaveLength(1);
      const room = await json(await post({ model: 'claude-sonnet-5', max_tokens: 16_000 }));
      expect(room.content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'text']);
      expect(room.usage.output_tokens).toBeGreaterThan(400);
    } finally {
      await s.close();
    }
  });

  it('Anthropic: mid-conversation system messages without a beta flag on Opus 4.8 and the 5.5 models, not on Sonnet 4.5 or Sonnet 5, and only where they may stand', async () => {
    const s = await startScriptedAnthropic(() => ({ text: '1' }));
    try {
      const post = (model: string, messages: unknown[]) =>
        fetch(`${s.v1URL}/messages`, {
          method: 'POST',
          headers: {
            'x-api-key': SCRIPTED_ANTHROPIC_KEY,
            'anthropic-version': '2023-06-01',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ model, max_tokens: 16_000, messages }),
        }).then(async (r) => [r.status, r.status === 200 ? '' : (await json(r)).error.message]);
      const user = { role: 'user', content: 'hi' };
      const system = { role: 'system', content: 'Answer in one word.' };
      // What Claude Code 2.1.332 sends first: a user turn, then a system message, no flag.
      expect(await post('claude-opus-4-8', [user, system])).toEqual([200, '']);
      expect((await post('claude-sonnet-5-5', [user, system]))[0]).toBe(200);
      expect(await post('claude-sonnet-4-5', [user, system])).toEqual([
        400,
        "messages.1.role: Input should be 'user' or 'assistant'",
      ]);
      expect((await post('claude-sonnet-5', [user, system]))[0]).toBe(400);
      expect((await post('claude-opus-4-8', [system, user]))[0]).toBe(400);
      expect((await post('claude-opus-4-8', [user, system, system]))[0]).toBe(400);
      expect((await post('claude-opus-4-8', [user, system, user]))[0]).toBe(400);
    } finally {
      await s.close();
    }
  });

  it('OpenAI chat and Responses: temperature 0.1 on a reasoning model, a Responses-only model on chat, an unknown model, no key', async () => {
    const chat = await startScriptedLlm(() => ({ text: '1' }));
    const responses = await startScriptedResponses(() => ({ text: '1' }));
    try {
      const ask = (url: string, body: Record<string, unknown>, key: string | null = SCRIPTED_KEY) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
          body: JSON.stringify(body),
        });
      const messages = [{ role: 'user', content: 'hi' }];
      const hot = await ask(`${chat.baseURL}/chat/completions`, { model: 'gpt-5.5', messages, temperature: 0.1 });
      expect(hot.status).toBe(400);
      expect((await json(hot)).error).toEqual({
        message:
          "Unsupported value: 'temperature' does not support 0.1 with this model. Only the default (1) value is supported.",
        type: 'invalid_request_error',
        param: 'temperature',
        code: 'unsupported_value',
      });
      expect((await ask(`${chat.baseURL}/chat/completions`, { model: 'gpt-5.5', messages })).status).toBe(200);
      expect((await ask(`${chat.baseURL}/chat/completions`, { model: 'gpt-5.5-pro', messages })).status).toBe(400);
      const typo = await ask(`${chat.baseURL}/chat/completions`, { model: 'gpt-5-typo', messages });
      expect([typo.status, (await json(typo)).error.code]).toEqual([404, 'model_not_found']);
      const anonymous = await ask(`${chat.baseURL}/chat/completions`, { model: 'gpt-5.5', messages }, null);
      expect(anonymous.status).toBe(401);
      const topP = await ask(`${responses.baseURL}/responses`, { model: 'gpt-5.5-pro', input: 'hi', top_p: 0.9 });
      expect((await json(topP)).error).toMatchObject({ param: 'top_p', code: 'unsupported_parameter' });
      expect((await ask(`${responses.baseURL}/responses`, { model: 'gpt-5.5-pro', input: 'hi' })).status).toBe(200);
      expect((await ask(`${responses.baseURL}/responses`, { model: 'gpt-5.5-pro', input: 'hi' }, null)).status).toBe(
        401,
      );
    } finally {
      await chat.close();
      await responses.close();
    }
  });

  it('Gemini: an unknown model name is 404 NOT_FOUND in the API’s words; no key is 403', async () => {
    const s = await startScriptedGemini(() => ({ text: '1' }));
    try {
      const ask = (model: string, key: string | null = SCRIPTED_GEMINI_KEY) =>
        fetch(`${s.baseURL}/models/${model}:generateContent`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(key ? { 'x-goog-api-key': key } : {}) },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
        });
      const unknown = await ask('gemini-9-ultra');
      expect(unknown.status).toBe(404);
      expect((await json(unknown)).error).toEqual({
        code: 404,
        status: 'NOT_FOUND',
        message:
          'models/gemini-9-ultra is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.',
      });
      expect((await ask('gemini-2.5-flash')).status).toBe(200);
      expect((await ask('gemini-2.5-flash', null)).status).toBe(403);
    } finally {
      await s.close();
    }
  });
});

describe('a local model table over the shipped one', () => {
  it('replaces an entry by its id and adds new ones', async () => {
    const { mergeModelTables } = await import('../agents/core/models.ts');
    const merged = mergeModelTables(MODEL_TABLE, {
      asOf: '2027-01-15',
      families: [
        { match: 'claude-sonnet-4-5', price: { input: 2, output: 9 }, checked: '2027-01-15' },
        {
          match: 'my-lab-model',
          provider: 'openai',
          price: { input: 1, output: 1 },
          sampling: 'any',
          thinking: 'none',
          thinksByDefault: false,
          api: 'chat',
          maxOutput: null,
          context: null,
          source: 'our own deployment',
          checked: '2027-01-15',
        },
      ],
    });
    expect(merged.asOf).toBe('2027-01-15');
    expect(lookupModel('claude-sonnet-4-5', merged)).toMatchObject({ price: { input: 2 }, sampling: 'one' });
    expect(lookupModel('my-lab-model', merged)?.source).toBe('our own deployment');
    expect(lookupModel('my-lab-model')).toBeUndefined();
  });
});

describe("the LLM-player's client on a model that thinks by default", () => {
  it('an answer that was all thinking (stop_reason max_tokens) doubles max_tokens for the next call; each call says its stop reason', async () => {
    const { createLlm } = (await import(pathToFileURL(path.join(LLM_PLAYER_BOT_DIR, 'llm.mjs')).href)) as {
      createLlm: (
        config: Record<string, unknown>,
        env: Record<string, string>,
      ) => {
        complete: (
          m: Array<{ role: string; content: string }>,
          signal: AbortSignal,
        ) => Promise<{ text: string; stopReason: string }>;
      };
    };
    const s = await startScriptedAnthropic(() => ({ text: '1' }));
    try {
      // A bot written with too small a budget (as before the model table: 256 for every model).
      const llm = createLlm(
        {
          provider: 'anthropic',
          model: 'claude-sonnet-5',
          baseUrl: s.v1URL,
          call: { api: 'messages', maxTokens: 256 },
        },
        { ANTHROPIC_API_KEY: SCRIPTED_ANTHROPIC_KEY },
      );
      const ask = () => llm.complete([{ role: 'user', content: 'Pick 1.' }], AbortSignal.timeout(5_000));
      const first = await ask();
      expect([first.text, first.stopReason]).toEqual(['', 'max_tokens']);
      const second = await ask();
      expect([second.text, second.stopReason]).toEqual(['1', 'end_turn']);
      expect(s.requests.map((r) => r.maxTokens)).toEqual([256, 512]);
    } finally {
      await s.close();
    }
  });
});
