// The scripted LLM servers require their key always, as the real APIs do: a server started without
// naming a key still refuses a missing key and a wrong one (another provider's key included), word
// for word as its provider answers (tests/helpers/provider-keys.ts), and takes only its default
// key; a test that names a key moves the requirement to that key. Before this, any non-empty key
// passed unless a test named one.
import { afterEach, describe, expect, it } from 'vitest';
import { SCRIPTED_ANTHROPIC_KEY, startScriptedAnthropic } from './helpers/scripted-anthropic.ts';
import { SCRIPTED_GEMINI_KEY, startScriptedGemini } from './helpers/scripted-gemini.ts';
import { SCRIPTED_KEY, startScriptedLlm } from './helpers/scripted-llm.ts';
import { startScriptedResponses } from './helpers/scripted-responses.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
const track = <T extends { close(): Promise<void> }>(server: T): T => {
  closers.push(() => server.close());
  return server;
};

/** Status, JSON body and headers of one POST. */
async function post(url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const NO_KEY_OPENAI =
  "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.";
const WRONG_OPENAI = 'sk-proj-some-other-projects-key-77aa';

describe('the OpenAI servers (chat completions, Responses) require SCRIPTED_KEY unless told another', () => {
  it.for([
    ['chat', '/chat/completions', { model: 'scripted', messages: [{ role: 'user', content: 'hi' }] }],
    ['responses', '/responses', { model: 'scripted', input: 'hi' }],
  ] as const)(
    '%s: none and a wrong key are 401s as OpenAI words them; the default key is served',
    async ([api, route, body]) => {
      const server = track(
        api === 'chat'
          ? await startScriptedLlm(() => ({ text: 'ok' }))
          : await startScriptedResponses(() => ({ text: 'ok' })),
      );
      const url = `${server.baseURL}${route}`;
      const none = await post(url, {}, body);
      expect([none.status, none.body]).toEqual([
        401,
        { error: { message: NO_KEY_OPENAI, type: 'invalid_request_error', param: null, code: null } },
      ]);
      expect(none.headers.get('x-request-id')).toMatch(/^req_/);
      const wrong = await post(url, { authorization: `Bearer ${WRONG_OPENAI}` }, body);
      expect([wrong.status, wrong.body]).toEqual([
        401,
        {
          error: {
            // First 8 characters, a star for each hidden one, the last 4.
            message: `Incorrect API key provided: sk-proj-${'*'.repeat(WRONG_OPENAI.length - 12)}77aa. You can find your API key at https://platform.openai.com/account/api-keys.`,
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      ]);
      expect(wrong.headers.get('x-request-id')).toMatch(/^req_/);
      // Another provider's key, sent as OpenAI's bearer, is just a wrong key.
      expect((await post(url, { authorization: `Bearer ${SCRIPTED_ANTHROPIC_KEY}` }, body)).status).toBe(401);
      expect((await post(url, { authorization: `Bearer ${SCRIPTED_KEY}` }, body)).status).toBe(200);
      expect(server.requests).toHaveLength(1); // only the served one: refused requests consume no turn
    },
  );

  it('a named key replaces the default; only `keyless` (a local vLLM-style server) takes none', async () => {
    const named = track(await startScriptedLlm(() => ({ text: 'ok' }), { key: 'sk-named-1234567890' }));
    const responses = track(await startScriptedResponses(() => ({ text: 'ok' }), { apiKey: 'sk-named-1234567890' }));
    const chatBody = { model: 'scripted', messages: [{ role: 'user', content: 'hi' }] };
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
    expect((await post(`${named.baseURL}/chat/completions`, bearer(SCRIPTED_KEY), chatBody)).status).toBe(401);
    expect((await post(`${named.baseURL}/chat/completions`, bearer('sk-named-1234567890'), chatBody)).status).toBe(200);
    const short = await post(`${named.baseURL}/chat/completions`, bearer('API_KEY'), chatBody);
    expect(short.body.error.message).toMatch(/^Incorrect API key provided: API_KEY\. /); // too short to mask
    const input = { model: 'scripted', input: 'hi' };
    expect((await post(`${responses.baseURL}/responses`, bearer(SCRIPTED_KEY), input)).status).toBe(401);
    expect((await post(`${responses.baseURL}/responses`, bearer('sk-named-1234567890'), input)).status).toBe(200);
    const local = track(await startScriptedLlm(() => ({ text: 'ok' }), { keyless: true }));
    expect((await post(`${local.baseURL}/chat/completions`, {}, chatBody)).status).toBe(200);
  });
});

describe('scripted-anthropic requires SCRIPTED_ANTHROPIC_KEY unless told another', () => {
  it('none, a wrong key and a key as a bearer token are 401 authentication_error with request-id; the default key is served', async () => {
    const server = track(await startScriptedAnthropic(() => ({ text: 'ok' })));
    const url = `${server.v1URL}/messages`;
    const body = { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    const version = { 'anthropic-version': '2023-06-01' };
    for (const [headers, message] of [
      [version, 'x-api-key header is required'],
      [{ ...version, 'x-api-key': 'sk-ant-api03-someone-elses-key' }, 'invalid x-api-key'],
      [{ ...version, 'x-api-key': SCRIPTED_KEY }, 'invalid x-api-key'],
      [
        { ...version, authorization: `Bearer ${SCRIPTED_ANTHROPIC_KEY}` },
        'OAuth authentication is currently not supported.',
      ],
    ] as const) {
      const r = await post(url, headers, body);
      const requestId = r.headers.get('request-id');
      expect(requestId).toMatch(/^req_/);
      expect([r.status, r.body]).toEqual([
        401,
        { type: 'error', error: { type: 'authentication_error', message }, request_id: requestId },
      ]);
    }
    expect((await post(url, { ...version, 'x-api-key': SCRIPTED_ANTHROPIC_KEY }, body)).status).toBe(200);
    expect(server.requests).toHaveLength(1);
    const named = track(await startScriptedAnthropic(() => ({ text: 'ok' }), { apiKey: 'sk-ant-named' }));
    const ask = (key: string) => post(`${named.v1URL}/messages`, { ...version, 'x-api-key': key }, body);
    expect([(await ask(SCRIPTED_ANTHROPIC_KEY)).status, (await ask('sk-ant-named')).status]).toEqual([401, 200]);
  });
});

describe('scripted-gemini requires SCRIPTED_GEMINI_KEY unless told another', () => {
  it('none is 403 PERMISSION_DENIED, a wrong key 400 API_KEY_INVALID with its LocalizedMessage; the default key is served', async () => {
    const server = track(await startScriptedGemini(() => ({ text: 'ok' })));
    const url = `${server.baseURL}/models/gemini-2.5-flash:generateContent`;
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const none = await post(url, {}, body);
    expect([none.status, none.body]).toEqual([
      403,
      {
        error: {
          code: 403,
          message:
            "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
          status: 'PERMISSION_DENIED',
        },
      },
    ]);
    const invalid = {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
          {
            '@type': 'type.googleapis.com/google.rpc.LocalizedMessage',
            locale: 'en-US',
            message: 'API key not valid. Please pass a valid API key.',
          },
        ],
      },
    };
    for (const wrong of [
      await post(url, { 'x-goog-api-key': 'AIzaSomeoneElsesKey' }, body),
      await post(`${url}?key=${SCRIPTED_KEY}`, {}, body),
    ])
      expect([wrong.status, wrong.body]).toEqual([400, invalid]);
    expect((await post(url, { 'x-goog-api-key': SCRIPTED_GEMINI_KEY }, body)).status).toBe(200);
    expect((await post(`${url}?key=${SCRIPTED_GEMINI_KEY}`, {}, body)).status).toBe(200);
    const named = track(await startScriptedGemini(() => ({ text: 'ok' }), { apiKey: 'AIzaNamed' }));
    const ask = (key: string) =>
      post(`${named.baseURL}/models/gemini-2.5-flash:generateContent`, { 'x-goog-api-key': key }, body);
    expect([(await ask(SCRIPTED_GEMINI_KEY)).status, (await ask('AIzaNamed')).status]).toEqual([400, 200]);
  });
});
