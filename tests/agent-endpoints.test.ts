// One run mixing OpenAI with an OpenAI-compatible provider: codex, qwen-code and the built-in
// agent read the same key and base-URL variables, so an `agents:` entry may name its own key
// variable and base URL. Checked against two scripted servers that each accept only their key.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { doctorReady, formatDoctor, runDoctor } from '../orchestrator/doctor.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { egressFor, passEnvFor, PASS_ENV_FILE } from '../sandbox/bot-env.ts';
import { tempDir } from './helpers/bots.ts';

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
    const config = resolveConfig({
      agents: [
        'builtin:openai-compatible/scripted#a',
        { spec: 'builtin:openai-compatible/scripted#b', keyEnv: 'OTHER_PROVIDER_KEY', baseUrl: other.baseURL },
      ] as never,
    });
    expect(config.agents).toEqual(['builtin:openai-compatible/scripted#a', 'builtin:openai-compatible/scripted#b']);
    expect(config.agentEndpoints).toEqual({
      'builtin:openai-compatible/scripted#b': { keyEnv: 'OTHER_PROVIDER_KEY', baseUrl: other.baseURL },
    });
    const rows = await runDoctor(config);
    expect(doctorReady(rows), formatDoctor(rows)).toBe(true);
    // Each server accepted the key it expects (a wrong one would be a 401 and a MISSING row).
    expect(formatDoctor(rows)).not.toContain('sk-');
  });

  it('a CLI agent gets its own upstream and key; a missing key variable or an llm-player entry is named', () => {
    const codex = createAgent('codex:gpt-5#c', 1, {
      endpoint: { keyEnv: 'OTHER_PROVIDER_KEY', baseUrl: other.baseURL },
    }) as unknown as { endpoint: { upstream: string; key: string } };
    expect(codex.endpoint).toMatchObject({ upstream: other.baseURL, key: 'sk-other-222' });
    expect(() => createAgent('codex:gpt-5', 1, { endpoint: { keyEnv: 'NO_SUCH_KEY_VAR' } })).toThrow(
      /NO_SUCH_KEY_VAR is not set/,
    );
    expect(() => createAgent('llm-player:openai/gpt-5', 1, { endpoint: { keyEnv: 'NO_SUCH_KEY_VAR' } })).toThrow(
      /NO_SUCH_KEY_VAR is not set/,
    );
  });

  it('an llm-player entry too: the preflight and its bot (process sandbox) ask its endpoint with its key, whatever CATARENA_LLM_BASE_URL says', async () => {
    vi.stubEnv('CATARENA_LLM_BASE_URL', openai.baseURL);
    const own = { keyEnv: 'OTHER_PROVIDER_KEY', baseUrl: other.baseURL };
    const config = resolveConfig({ agents: [{ spec: 'llm-player:openai-compatible/scripted#p', ...own }] as never });
    const rows = await runDoctor(config);
    expect(doctorReady(rows), formatDoctor(rows)).toBe(true);
    const agent = createAgent('llm-player:openai-compatible/scripted#p', 1, { endpoint: own });
    const ws = await buildWorkspace({
      dir: path.join(tempDir(), 'ws'),
      game: 'gomoku',
      variant: 'standard',
      round: 1,
      agentId: agent.id,
      seed: 1,
      moveTimeoutMs: 4000,
    });
    const { botDir } = await agent.develop(ws, { wallMs: 60_000 });
    const game = JSON.parse(fs.readFileSync(path.join(botDir, 'game.json'), 'utf8'));
    expect(game).toMatchObject({
      baseUrl: other.baseURL,
      baseUrlVar: 'CATARENA_LLM_AGENT_BASE_URL',
      keyEnv: 'OTHER_PROVIDER_KEY',
    });
    expect(JSON.parse(fs.readFileSync(path.join(botDir, PASS_ENV_FILE), 'utf8'))).toMatchObject({
      passEnv: ['OTHER_PROVIDER_KEY', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'],
      egress: { baseUrlVar: 'CATARENA_LLM_AGENT_BASE_URL', baseUrl: other.baseURL, keyVars: ['OTHER_PROVIDER_KEY'] },
    });
    // The bot as the process sandbox starts it: only what catarena-env.json names, from the orchestrator's environment.
    const { createLlm } = (await import(pathToFileURL(path.join(botDir, 'llm.mjs')).href)) as {
      createLlm(c: unknown, env: Record<string, string>): { complete(m: unknown[]): Promise<{ text: string }> };
    };
    const before = other.requests.length;
    await createLlm(game, passEnvFor(botDir).env).complete([{ role: 'user', content: 'your move' }]);
    expect(other.requests.length).toBe(before + 1);
    expect(other.requests.at(-1)!.authorization).toBe('Bearer sk-other-222');
    // Docker: the egress proxy's upstream is its own endpoint, the key from its own variable.
    expect(egressFor(botDir)).toMatchObject({
      upstream: other.baseURL,
      headers: { authorization: 'Bearer sk-other-222' },
      baseUrlVar: 'CATARENA_LLM_AGENT_BASE_URL',
      keyVars: ['OTHER_PROVIDER_KEY'],
    });
  });
});
