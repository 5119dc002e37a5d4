// The scripted Gemini API server (tests/helpers/scripted-gemini.ts) against a second real client,
// the AI SDK's @ai-sdk/google: streamed (SSE) and plain answers with usage, tool calls, an HTTP
// error, the key check; and what it answers beside the script (JSON-by-schema side requests,
// countTokens, the model list).
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  geminiNoBilling,
  geminiRateLimit,
  SCRIPTED_GEMINI_KEY,
  startScriptedGemini,
  stepOf,
  type ScriptedGemini,
} from './helpers/scripted-gemini.ts';

/** The key the server takes when a test names none. */
const KEY = SCRIPTED_GEMINI_KEY;
let server: ScriptedGemini | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const model = (s: ScriptedGemini, key = KEY) =>
  createGoogleGenerativeAI({ apiKey: key, baseURL: s.baseURL })('scripted-model');

describe('the scripted Gemini API', () => {
  it('streams SSE with cumulative usage, answers plainly, and tells tool calls apart', async () => {
    server = await startScriptedGemini(
      [
        {
          text: 'A long answer that arrives in more than one piece of the stream, as Gemini sends it.',
          thought: 'Thinking first.',
          usage: { promptTokenCount: 50, candidatesTokenCount: 20, thoughtsTokenCount: 7 },
        },
        { toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
        { text: '5' },
      ],
      { apiKey: KEY },
    );
    const streamed = streamText({ model: model(server), prompt: 'hello', maxRetries: 0 });
    expect(await streamed.text).toBe(
      'A long answer that arrives in more than one piece of the stream, as Gemini sends it.',
    );
    expect(await streamed.reasoningText).toBe('Thinking first.');
    expect((await streamed.usage).inputTokens).toBe(50);
    expect((await streamed.usage).outputTokens).toBe(27); // candidates + thoughts
    expect(server.requests[0]).toMatchObject({
      method: 'streamGenerateContent',
      sse: true,
      model: 'scripted-model',
      apiKey: KEY,
      side: false,
    });
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe(KEY);

    const add = tool({
      description: 'adds',
      inputSchema: jsonSchema<{ a: number; b: number }>({
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      }),
      execute: async ({ a, b }) => ({ sum: a + b }),
    });
    const { steps, text } = await generateText({
      model: model(server),
      prompt: 'add 2 and 3',
      tools: { add },
      stopWhen: ({ steps: s }) => s.length >= 2,
      maxRetries: 0,
    });
    expect(text).toBe('5');
    expect(steps[0]!.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['add', { a: 2, b: 3 }]]);
    const second = server.requests[2]!;
    expect(second).toMatchObject({ method: 'generateContent', sse: false });
    expect(second.tools.map((t) => t.name)).toEqual(['add']);
    expect(stepOf(second)).toBe(1);
    expect(JSON.stringify(second.contents)).toContain('"functionResponse"');
    expect(server.totalUsage()).toEqual(
      server.requests.reduce(
        (s, r) => ({
          input: s.input + r.usage!.promptTokenCount,
          output: s.output + r.usage!.candidatesTokenCount + (r.usage!.thoughtsTokenCount ?? 0),
        }),
        { input: 0, output: 0 },
      ),
    );
  });

  it('answers errors the way Google does: a scripted 429, a bad key, no key', async () => {
    server = await startScriptedGemini(
      [{ httpError: 429, message: 'Resource has been exhausted (e.g. check quota).' }],
      { apiKey: KEY },
    );
    const err = (await generateText({ model: model(server), prompt: 'x', maxRetries: 0 }).then(
      () => ({}),
      (e: unknown) => e,
    )) as { statusCode?: number; message?: string };
    expect(err.statusCode).toBe(429);
    expect(err.message).toContain('Resource has been exhausted');
    const wrong = await fetch(`${server.baseURL}/models/m:generateContent?key=nope`, {
      method: 'POST',
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      details: [{ reason: 'API_KEY_INVALID' }, { locale: 'en-US' }],
    });
    const none = await fetch(`${server.baseURL}/models/m:generateContent`, { method: 'POST', body: '{}' });
    expect([none.status, (await none.json()).error.status]).toEqual([403, 'PERMISSION_DENIED']);
    expect(server.requests.at(-2)!.apiKey).toBe('nope');
  });

  it('refuses the thinking config a model family refuses, with no option asked: budget 0 on a thinking-only model, a budget over the maximum, a level before Gemini 3, a level beside a budget', async () => {
    server = await startScriptedGemini([{ text: 'ok' }]);
    const ask = async (m: string, thinkingConfig: Record<string, unknown>) => {
      const r = await fetch(`${server!.baseURL}/models/${m}:generateContent`, {
        method: 'POST',
        headers: { 'x-goog-api-key': KEY },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'x' }] }],
          generationConfig: { thinkingConfig },
        }),
      });
      return { status: r.status, error: ((await r.json()) as { error?: { status: string; message: string } }).error };
    };
    expect(await ask('gemini-2.5-pro', { thinkingBudget: 0 })).toEqual({
      status: 400,
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message: 'Budget 0 is invalid. This model only works in thinking mode.',
      },
    });
    expect((await ask('gemini-3.1-pro-preview', { thinkingBudget: 0 })).status).toBe(400);
    // Over the model's maximum (2.5 Pro 32,768; 2.5 Flash 24,576), as Roo Code's users met it.
    expect((await ask('gemini-2.5-pro', { thinkingBudget: 52_428 })).error?.message).toBe(
      'The thinking budget (52428) is invalid.',
    );
    expect((await ask('gemini-2.5-flash', { thinkingBudget: 32_768 })).status).toBe(400);
    expect((await ask('gemini-2.5-pro', { thinkingBudget: 32_768 })).status).toBe(200);
    expect((await ask('gemini-2.5-flash', { thinkingLevel: 'low' })).error?.message).toMatch(
      /thinking_level is not supported/,
    );
    expect((await ask('gemini-3-flash-preview', { thinkingLevel: 'low', thinkingBudget: 1024 })).status).toBe(400);
    // What the families accept: budget 0 where thinking can be turned off, a level on Gemini 3.
    expect((await ask('gemini-2.5-flash', { thinkingBudget: 0 })).status).toBe(200);
  });

  it('answers side requests, countTokens and the model list without consuming the script', async () => {
    server = await startScriptedGemini([{ text: 'main' }]);
    const post = (verb: string, body: unknown) =>
      fetch(`${server!.baseURL}/models/gemini-2.5-flash:${verb}`, {
        method: 'POST',
        headers: { 'x-goog-api-key': KEY },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    // Gemini CLI's next-speaker check asks for JSON by schema.
    const schema = {
      type: 'OBJECT',
      properties: {
        reasoning: { type: 'STRING' },
        next_speaker: { type: 'STRING', enum: ['user', 'model'] },
        confidence: { type: 'NUMBER' },
      },
    };
    const side = await post('generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'who next?' }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: schema },
    });
    expect(JSON.parse(side.candidates[0].content.parts[0].text)).toEqual({
      reasoning: 'scripted',
      next_speaker: 'user',
      confidence: 0,
    });
    expect(side.usageMetadata.promptTokenCount).toBeGreaterThan(0);
    expect(
      (await post('countTokens', { contents: [{ role: 'user', parts: [{ text: 'count me' }] }] })).totalTokens,
    ).toBeGreaterThan(0);
    const listed = (
      await fetch(`${server.baseURL}/models`, { headers: { 'x-goog-api-key': KEY } }).then((r) => r.json())
    ).models;
    expect(listed.find((m: { name: string }) => m.name === 'models/gemini-2.5-flash')).toMatchObject({
      supportedGenerationMethods: expect.arrayContaining(['generateContent']),
    });
    const main = await post('generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(main.candidates[0]).toMatchObject({
      content: { role: 'model', parts: [{ text: 'main' }] },
      finishReason: 'STOP',
    });
    expect(main.modelVersion).toBe('gemini-2.5-flash');
    expect(server.requests.map((r) => [r.method, r.side])).toEqual([
      ['generateContent', true],
      ['countTokens', true],
      ['models.list', true],
      ['generateContent', false],
    ]);
    // The stream as one JSON array without alt=sse.
    server.requests.length = 0;
    const array = await post('streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'again' }] }] });
    expect(Array.isArray(array) && array.at(-1).candidates[0].finishReason).toBe('STOP');
  });
});

describe('the scripted Gemini API is as strict as the real one', () => {
  const add = tool({
    description: 'adds',
    inputSchema: jsonSchema<{ a: number; b: number }>({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    }),
    execute: async ({ a, b }) => ({ sum: a + b }),
  });
  const post = (s: ScriptedGemini, body: unknown) =>
    fetch(`${s.baseURL}/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY },
      body: JSON.stringify(body),
    });

  it('signs function calls (thoughtSignature), refuses a replayed call without its signature, and the AI SDK echoes it', async () => {
    server = await startScriptedGemini([
      {
        toolCalls: [
          { name: 'add', args: { a: 2, b: 3 } },
          { name: 'add', args: { a: 1, b: 1 } },
        ],
      },
      { text: '5' },
      { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] },
    ]);
    const { text } = await generateText({
      model: model(server),
      prompt: 'add',
      tools: { add },
      stopWhen: ({ steps }) => steps.length >= 2,
      maxRetries: 0,
    });
    expect(text).toBe('5');
    // The first call of the answer carries the signature; the AI SDK sent it back on the replayed call.
    const replayed = server.requests[1]!.contents.find((c) => c.role === 'model')!.parts as Array<
      Record<string, unknown>
    >;
    expect(typeof replayed[0]!.thoughtSignature).toBe('string');
    const direct = await (await post(server, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] })).json();
    const signed = direct.candidates[0].content.parts[0];
    expect(signed).toMatchObject({ functionCall: { name: 'add' }, thoughtSignature: expect.any(String) });
    // Replayed without it: 400 INVALID_ARGUMENT, Google's words.
    const unsigned = await post(server, {
      contents: [
        { role: 'user', parts: [{ text: 'x' }] },
        { role: 'model', parts: [{ functionCall: signed.functionCall }] },
        { role: 'user', parts: [{ functionResponse: { name: 'add', response: { sum: 3 } } }] },
      ],
    });
    expect(unsigned.status).toBe(400);
    expect((await unsigned.json()).error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: expect.stringMatching(
        /^Function call is missing a thought_signature in functionCall parts\..*`default_api:add` , position 2\./,
      ),
    });
  });

  it('429 RESOURCE_EXHAUSTED carries its wait only in the body (RetryInfo), no header', async () => {
    server = await startScriptedGemini([geminiRateLimit('1.5s')]);
    const res = await post(server, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
    const { error } = await res.json();
    expect(error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(
      error.details.find((d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo'),
    ).toEqual({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' });
  });

  it('a project without billing: 429 RESOURCE_EXHAUSTED whose free-tier quotas are all limit 0, a RetryInfo wait nonetheless', async () => {
    server = await startScriptedGemini([geminiNoBilling('gemini-2.5-pro')]);
    const res = await post(server, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
    const { error } = await res.json();
    expect(error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(error.message).toMatch(
      /^You exceeded your current quota, please check your plan and billing details\. .*\n\* Quota exceeded for metric: generativelanguage\.googleapis\.com\/generate_content_free_tier_requests, limit: 0, model: gemini-2\.5-pro\n.*Please retry in 20s\.$/s,
    );
    expect(error.details.map((d: { '@type': string }) => d['@type'].split('.').at(-1))).toEqual([
      'Help',
      'QuotaFailure',
      'RetryInfo',
    ]);
    expect(error.details[1].violations.map((v: { quotaId: string }) => v.quotaId)).toContain(
      'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
    );
  });

  it('reports cached prompt tokens as the API does: within promptTokenCount, as cachedContentTokenCount, in every chunk', async () => {
    const usage = { promptTokenCount: 5000, cachedContentTokenCount: 4096, candidatesTokenCount: 20 };
    server = await startScriptedGemini([
      { text: 'a'.repeat(130), usage },
      { text: 'b', usage },
    ]);
    const sse = await fetch(`${server.baseURL}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    const frames = (await sse.text())
      .split('\r\n\r\n')
      .filter(Boolean)
      .map((f) => JSON.parse(f.replace(/^data: /, '')));
    expect(frames.length).toBeGreaterThan(1);
    for (const f of frames)
      expect(f.usageMetadata).toMatchObject({
        promptTokenCount: 5000,
        cachedContentTokenCount: 4096,
        cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 4096 }],
      });
    expect(frames.at(-1).usageMetadata.totalTokenCount).toBe(5020);
    const plain = await (await post(server, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] })).json();
    expect(plain.usageMetadata).toMatchObject({ promptTokenCount: 5000, cachedContentTokenCount: 4096 });
    expect(server.totalUsage()).toEqual({ input: 2 * 904, cacheRead: 2 * 4096, output: 40 });
  });

  it('ends with MAX_TOKENS / SAFETY, or a candidate without content (MALFORMED_FUNCTION_CALL), streamed or not', async () => {
    server = await startScriptedGemini([
      { text: 'cut sh', finishReason: 'MAX_TOKENS' },
      { noParts: true, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: add(a=2' },
      { noParts: true, finishReason: 'SAFETY' },
    ]);
    const cut = await generateText({ model: model(server), prompt: 'x', maxRetries: 0 });
    expect([cut.text, cut.finishReason]).toEqual(['cut sh', 'length']);
    const body = await (await post(server, { contents: [{ role: 'user', parts: [{ text: 'x' }] }] })).json();
    expect(body.candidates[0]).toEqual({
      finishReason: 'MALFORMED_FUNCTION_CALL',
      finishMessage: 'Malformed function call: add(a=2',
      index: 0,
    });
    const streamed = streamText({ model: model(server), prompt: 'x', maxRetries: 0 });
    expect([await streamed.text, await streamed.finishReason]).toEqual(['', 'content-filter']);
  });
});
