// One run mixing OpenAI with an OpenAI-compatible provider: codex, qwen-code and the built-in
// agent read the same key and base-URL variables, so an `agents:` entry may name its own key
// variable and base URL. Checked against two scripted servers that each accept only their key.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { doctorReady, formatDoctor, runDoctor } from '../orchestrator/doctor.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

describe('per-agent key and base URL', () => {
  let openai: ScriptedLlm;
  let other: ScriptedLlm;
  beforeAll(async () => {
    openai = await startScriptedLlm([], { key: 'sk-openai-111' });
    other = await startScriptedLlm([], { key: 'sk-other-222' });
  });
  beforeEach(() => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-openai-111');
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', openai.baseURL);
    vi.stubEnv('OTHER_PROVIDER_KEY', 'sk-other-222');
  });
  afterAll(async () => {
    await openai.close();
    await other.close();
    vi.unstubAllEnvs();
  });

  it('agents: entries {spec, keyEnv, baseUrl} send each agent to its own endpoint with its own key; the rest use the shared variables', async () => {
    const config = resolveConfig({ agents: ['builtin:openai-compatible/scripted#a', { spec: 'builtin:openai-compatible/scripted#b', keyEnv: 'OTHER_PROVIDER_KEY', baseUrl: other.baseURL }] as never });
    expect(config.agents).toEqual(['builtin:openai-compatible/scripted#a', 'builtin:openai-compatible/scripted#b']);
    expect(config.agentEndpoints).toEqual({ 'builtin:openai-compatible/scripted#b': { keyEnv: 'OTHER_PROVIDER_KEY', baseUrl: other.baseURL } });
    const rows = await runDoctor(config);
    expect(doctorReady(rows), formatDoctor(rows)).toBe(true);
    // Each server accepted the key it expects (a wrong one would be a 401 and a MISSING row).
    expect(formatDoctor(rows)).not.toContain('sk-');
  });

  it('a CLI agent gets its own upstream and key; a missing key variable or an llm-player entry is named', () => {
    const codex = createAgent('codex:gpt-5#c', 1, { endpoint: { keyEnv: 'OTHER_PROVIDER_KEY', baseUrl: other.baseURL } }) as unknown as { endpoint: { upstream: string; key: string } };
    expect(codex.endpoint).toMatchObject({ upstream: other.baseURL, key: 'sk-other-222' });
    expect(() => createAgent('codex:gpt-5', 1, { endpoint: { keyEnv: 'NO_SUCH_KEY_VAR' } })).toThrow(/NO_SUCH_KEY_VAR is not set/);
    expect(() => createAgent('llm-player:openai/gpt-5', 1, { endpoint: { baseUrl: other.baseURL } })).toThrow(/builtin and CLI agents only/);
  });
});
