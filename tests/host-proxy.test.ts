// Behind a host proxy (HTTP_PROXY / HTTPS_PROXY, NO_PROXY), which Node's own fetch ignores: the
// preflight, the built-in agent's model calls, the egress proxy's upstream and the LLM-player bot
// all go through it. The endpoint's name does not resolve, so it is reachable only through the
// local forward proxy (tests/helpers/forward-proxy.ts), which counts what it forwarded.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateText } from 'ai';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveModel } from '../agents/builtin/models.ts';
import { LLM_PLAYER_BOT_DIR } from '../agents/llm-player/agent.ts';
import { probeEndpoint } from '../agents/core/preflight.ts';
import { startEgressProxy } from '../sandbox/egress-proxy.ts';
import { passEnvFor, PASS_ENV_FILE } from '../sandbox/bot-env.ts';
import { tempDir } from './helpers/bots.ts';
import { startForwardProxy, type ForwardProxy } from './helpers/forward-proxy.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';
import { startScriptedResponses, type ScriptedResponses } from './helpers/scripted-responses.ts';
import fs from 'node:fs';

const UNRESOLVABLE = 'http://llm.example.invalid/v1';

interface BotLlm {
  createLlm(
    config: Record<string, unknown>,
    env: Record<string, string>,
  ): { complete(messages: Array<{ role: string; content: string }>): Promise<{ text: string }> };
}
interface BotProxy {
  proxyFor(url: string, env: Record<string, string>): string;
}

describe("the host's proxy", () => {
  let llm: ScriptedLlm;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    llm = await startScriptedLlm(() => ({ text: 'through the proxy' }), {
      key: 'sk-proxied-1',
      noStreaming: true,
      models: ['m1'],
    });
    proxy = await startForwardProxy(Number(new URL(llm.baseURL).port));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    proxy.forwarded.length = 0;
    proxy.tunnels.length = 0;
  });
  afterAll(async () => {
    await proxy.close();
    await llm.close();
  });

  it('the preflight goes through it, and around it for a host NO_PROXY names', async () => {
    vi.stubEnv('HTTP_PROXY', proxy.url);
    vi.stubEnv('NO_PROXY', '');
    const ask = () =>
      probeEndpoint({
        api: 'openai',
        baseUrl: UNRESOLVABLE,
        model: 'm1',
        headers: { authorization: 'Bearer sk-proxied-1' },
      });
    const probe = await ask();
    expect(probe, probe.detail).toMatchObject({ ok: true });
    expect(proxy.forwarded).toEqual(['GET llm.example.invalid/v1/models (tunnel)']);
    vi.stubEnv('NO_PROXY', 'example.invalid');
    expect(await ask()).toMatchObject({ ok: false, detail: expect.stringMatching(/not reachable/) });
    expect(proxy.forwarded).toHaveLength(1);
  });

  it("the built-in agent's model calls go through it (chat completions and Responses)", async () => {
    const env = { OPENAI_API_KEY: 'sk-proxied-1', CATARENA_OPENAI_BASE_URL: UNRESOLVABLE, HTTP_PROXY: proxy.url };
    const chat = await generateText({
      model: resolveModel('openai-compatible/m1', env).model,
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(chat.text).toBe('through the proxy');
    const responses: ScriptedResponses = await startScriptedResponses(() => ({ text: 'responses, proxied' }), {
      apiKey: 'sk-proxied-1',
    });
    const viaResponses = await startForwardProxy(Number(new URL(responses.baseURL).port));
    try {
      const answer = await generateText({
        model: resolveModel('openai/gpt-5', { ...env, HTTP_PROXY: viaResponses.url }).model,
        prompt: 'hi',
        maxRetries: 0,
      });
      expect(answer.text).toBe('responses, proxied');
      expect(viaResponses.forwarded).toEqual(['POST llm.example.invalid/v1/responses (tunnel)']);
    } finally {
      await viaResponses.close();
      await responses.close();
    }
    expect(proxy.forwarded).toEqual(['POST llm.example.invalid/v1/chat/completions (tunnel)']);
    // A loopback endpoint is always asked directly.
    await generateText({
      model: resolveModel('openai-compatible/m1', { ...env, CATARENA_OPENAI_BASE_URL: llm.baseURL }).model,
      prompt: 'hi',
      maxRetries: 0,
    });
    expect(proxy.forwarded).toHaveLength(1);
  });

  it('the egress proxy reaches its upstream through it, the real key added', async () => {
    vi.stubEnv('HTTP_PROXY', proxy.url);
    vi.stubEnv('NO_PROXY', '');
    const egress = await startEgressProxy({
      allow: [],
      upstream: { url: UNRESOLVABLE, headers: { authorization: 'Bearer sk-proxied-1' } },
      listen: { port: 0 },
    });
    try {
      const res = await fetch(`${egress.address}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer placeholder' },
        body: JSON.stringify({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBe(200);
      expect(
        ((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
      ).toBe('through the proxy');
      expect(proxy.forwarded).toEqual(['POST llm.example.invalid/v1/chat/completions (tunnel)']);
      expect(egress.events.at(-1)).toMatchObject({ allowed: true, status: 200 });
    } finally {
      await egress.close();
    }
  });

  // Before, a tunnel to an allowlisted origin went straight to it (net.connect), past the host's
  // proxy: behind one, a name that resolves only there was unreachable (502).
  it("the egress proxy's CONNECT tunnels to allowlisted origins go through it, around it for a host NO_PROXY names", async () => {
    vi.stubEnv('HTTPS_PROXY', proxy.url);
    vi.stubEnv('NO_PROXY', 'localhost');
    const egress = await startEgressProxy({
      allow: ['https://side.example.invalid'],
      upstream: { url: UNRESOLVABLE, headers: { authorization: 'Bearer sk-proxied-1' } },
      listen: { port: 0 },
    });
    // A client of the egress proxy as HTTPS_PROXY: CONNECT side.example.invalid:443, then (the
    // forward proxy reads what comes through as HTTP) a request inside the tunnel.
    const viaEgress = new ProxyAgent(egress.address);
    const ask = () =>
      undiciFetch('http://side.example.invalid:443/v1/models', {
        dispatcher: viaEgress,
        headers: { authorization: 'Bearer sk-proxied-1' },
      });
    try {
      const res = await ask();
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id)).toContain('m1');
      expect(proxy.tunnels).toEqual(['side.example.invalid:443']);
      expect(proxy.forwarded).toEqual(['GET side.example.invalid:443/v1/models (tunnel)']);
      expect(egress.events.at(-1)).toMatchObject({
        method: 'CONNECT',
        target: 'side.example.invalid:443',
        status: 200,
      });
      // NO_PROXY names it: asked directly, where the name does not resolve.
      vi.stubEnv('NO_PROXY', '.example.invalid');
      await viaEgress.close();
      const direct = new ProxyAgent(egress.address);
      await expect(undiciFetch('http://side.example.invalid:443/v1/models', { dispatcher: direct })).rejects.toThrow();
      await direct.close();
      expect(proxy.tunnels).toHaveLength(1);
      expect(egress.events.at(-1)).toMatchObject({ method: 'CONNECT', status: 502 });
    } finally {
      await viaEgress.close().catch(() => {});
      await egress.close();
    }
  });

  it('the LLM-player bot asks through it (absolute form), and the process sandbox passes the variables, lower case too', async () => {
    const { createLlm } = (await import(pathToFileURL(path.join(LLM_PLAYER_BOT_DIR, 'llm.mjs')).href)) as BotLlm;
    const client = createLlm(
      { provider: 'openai', model: 'm1', baseUrl: UNRESOLVABLE },
      { OPENAI_API_KEY: 'sk-proxied-1', HTTP_PROXY: proxy.url },
    );
    expect((await client.complete([{ role: 'user', content: 'your move' }])).text).toBe('through the proxy');
    expect(proxy.forwarded).toEqual(['POST llm.example.invalid/v1/chat/completions']);

    const { proxyFor } = (await import(
      pathToFileURL(path.join(LLM_PLAYER_BOT_DIR, 'proxy-fetch.mjs')).href
    )) as BotProxy;
    expect(proxyFor('https://api.openai.com/v1', { HTTPS_PROXY: 'http://p:3128' })).toBe('http://p:3128');
    expect(proxyFor('https://api.openai.com/v1', { HTTP_PROXY: 'http://p:3128' })).toBe('http://p:3128');
    expect(proxyFor('http://127.0.0.1:8000/v1', { HTTP_PROXY: 'http://p:3128' })).toBe('');
    for (const noProxy of ['openai.com', '.openai.com', '*.openai.com', 'api.openai.com:443', '*'])
      expect(proxyFor('https://api.openai.com/v1', { HTTPS_PROXY: 'http://p', NO_PROXY: noProxy }), noProxy).toBe('');
    expect(
      proxyFor('https://api.openai.com/v1', { HTTPS_PROXY: 'http://p', NO_PROXY: 'api.openai.com:8443,anthropic.com' }),
    ).toBe('http://p');

    const dir = tempDir();
    fs.writeFileSync(path.join(dir, PASS_ENV_FILE), JSON.stringify({ passEnv: ['HTTPS_PROXY', 'NO_PROXY'] }));
    expect(passEnvFor(dir, { https_proxy: 'http://lower:3128', NO_PROXY: 'localhost' }).env).toEqual({
      HTTPS_PROXY: 'http://lower:3128',
      NO_PROXY: 'localhost',
    });
  });
});
