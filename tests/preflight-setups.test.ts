// The preflight neither blocks usable setups nor passes broken ones (issue 43 item 6), against
// local servers that answer as the real APIs do: Claude Code's and Gemini CLI's documented model
// aliases are accepted; a key that may generate but not list models (OpenAI's restricted key: 401
// "Missing scopes: api.model.read"; a gateway's 403) is a warning, not a failure; one check is
// skipped by name; a base URL without /v1 (every call would be a 404) and a Responses-only model
// asked through chat completions are failures that say what to set or use.
// About 15 s; the CLI checks probe Docker and the agent image, and one test starts the real
// `catarena doctor`, which take longer on a loaded machine.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import { CliAgent } from '../agents/cli/agent.ts';
import type { PreflightCheck } from '../agents/core/preflight.ts';
import { LlmPlayerAgent } from '../agents/llm-player/agent.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { doctorReady, formatDoctor, runDoctor } from '../orchestrator/doctor.ts';
import { startScriptedAnthropic, type ScriptedAnthropic } from './helpers/scripted-anthropic.ts';
import { startScriptedGemini, type ScriptedGemini } from './helpers/scripted-gemini.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../bin/catarena.mjs');
const KEY = 'sk-preflight-key-321';

async function catarena(args: string[], env: Record<string, string | undefined>) {
  try {
    const { stdout, stderr } = await run('node', [BIN, ...args], { timeout: 60_000, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const row = (checks: PreflightCheck[], name: string) => {
  const found = checks.find((c) => c.check === name || c.check.startsWith(`${name} `));
  expect(found, `${name} in ${JSON.stringify(checks)}`).toBeDefined();
  return found!;
};

describe('preflight: CLI aliases', () => {
  let anthropic: ScriptedAnthropic;
  let gemini: ScriptedGemini;
  beforeAll(async () => {
    anthropic = await startScriptedAnthropic([], { apiKey: KEY });
    gemini = await startScriptedGemini([], { apiKey: KEY });
  });
  afterAll(async () => {
    await anthropic.close();
    await gemini.close();
  });

  it('claude-code:sonnet, :opus and :opusplan, gemini-cli:auto and :flash-lite are accepted: key checked, the alias left to the CLI', async () => {
    for (const model of ['sonnet', 'opus', 'opusplan']) {
      const agent = new CliAgent({
        cli: 'claude-code',
        model,
        env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.baseURL },
      });
      const endpoint = row(await agent.preflight(), 'endpoint');
      expect(endpoint.ok, endpoint.detail).toBe(true);
      expect(endpoint.detail).toMatch(
        new RegExp(`key accepted.*${model.replace(/[[\]]/g, '\\$&')} is a claude-code alias`),
      );
    }
    for (const model of ['auto', 'flash-lite']) {
      const agent = new CliAgent({
        cli: 'gemini-cli',
        model,
        env: { GEMINI_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: gemini.rootURL },
      });
      const endpoint = row(await agent.preflight(), 'endpoint');
      expect(endpoint.ok, endpoint.detail).toBe(true);
      expect(endpoint.detail).toMatch(/is a gemini-cli alias/);
    }
    // A name that is neither an alias nor served still fails.
    const typo = new CliAgent({
      cli: 'claude-code',
      model: 'sonet',
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: anthropic.baseURL },
    });
    expect(row(await typo.preflight(), 'endpoint')).toMatchObject({ ok: false, detail: /"sonet" is not served/ });
  }, 60_000);
});

describe('preflight: OpenAI-compatible setups', () => {
  let restricted401: ScriptedLlm;
  let restricted403: ScriptedLlm;
  let open: ScriptedLlm;
  beforeAll(async () => {
    restricted401 = await startScriptedLlm([], { key: KEY, restrictedKey: 401 });
    restricted403 = await startScriptedLlm([], { key: KEY, restrictedKey: 403 });
    open = await startScriptedLlm([], { key: KEY });
  });
  afterAll(async () => {
    await restricted401.close();
    await restricted403.close();
    await open.close();
    vi.unstubAllEnvs();
  });
  const builtin = (model: string, base: string) =>
    new BuiltinAgent({ model, env: { OPENAI_API_KEY: KEY, CATARENA_OPENAI_BASE_URL: base } });

  it('a key that may not list models (401 missing api.model.read, 403) warns; a wrong key still fails', async () => {
    for (const server of [restricted401, restricted403]) {
      const endpoint = row(await builtin('openai-compatible/scripted', server.baseURL).preflight(), 'endpoint');
      expect(endpoint, endpoint.detail).toMatchObject({ ok: true, warn: true });
      expect(endpoint.detail).toMatch(/may not list models \(HTTP 40[13].*checked by the first call/);
    }
    const wrong = new BuiltinAgent({
      model: 'openai-compatible/scripted',
      env: { OPENAI_API_KEY: 'sk-wrong-000', CATARENA_OPENAI_BASE_URL: restricted401.baseURL },
    });
    expect(row(await wrong.preflight(), 'endpoint')).toMatchObject({ ok: false, detail: /key was refused \(HTTP 401/ });
  });

  it('the doctor goes on with the warning: ready, the row marked WARNING', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', restricted401.baseURL);
    vi.stubEnv('CATARENA_LLM_BASE_URL', restricted401.baseURL);
    const config = resolveConfig({
      agents: ['builtin:openai-compatible/scripted', 'llm-player:openai-compatible/scripted'],
      games: ['gomoku'],
    });
    const rows = await runDoctor(config);
    expect(doctorReady(rows), formatDoctor(rows)).toBe(true);
    expect(formatDoctor(rows)).toMatch(
      /builtin:openai-compatible\/scripted\s+endpoint of \S+\s+WARNING\s+reachable, but the key may not list models/,
    );
    expect(formatDoctor(rows)).toMatch(/llm-player:openai-compatible\/scripted\s+endpoint\s+WARNING/);
    vi.unstubAllEnvs();
  });

  it('a base URL without /v1 fails every call: the LLM-player and the built-in agent say which URL to set', async () => {
    const origin = open.baseURL.replace(/\/v1$/, '');
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('CATARENA_LLM_BASE_URL', origin);
    const player = row(await new LlmPlayerAgent('openai-compatible', 'scripted').preflight(), 'endpoint');
    expect(player.ok).toBe(false);
    expect(player.detail).toContain(`set CATARENA_LLM_BASE_URL=${origin}/v1`);
    const agent = row(await builtin('openai-compatible/scripted', origin).preflight(), 'endpoint');
    expect(agent.ok).toBe(false);
    expect(agent.detail).toContain(`set CATARENA_OPENAI_BASE_URL=${origin}/v1`);
    // With /v1 both pass.
    vi.stubEnv('CATARENA_LLM_BASE_URL', open.baseURL);
    expect(row(await new LlmPlayerAgent('openai-compatible', 'scripted').preflight(), 'endpoint').ok).toBe(true);
    vi.unstubAllEnvs();
  });

  it('a Responses-only model asked through chat completions fails with what to use; through Responses it passes', async () => {
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('CATARENA_LLM_BASE_URL', open.baseURL);
    const chat = await new LlmPlayerAgent('openai-compatible', 'gpt-5.5-pro').preflight();
    expect(row(chat, 'model API')).toMatchObject({
      ok: false,
      detail: /Responses API only.*use llm-player:openai\/gpt-5\.5-pro/,
    });
    const responses = await new LlmPlayerAgent('openai', 'gpt-5.5-pro').preflight();
    expect(responses.filter((c) => !c.ok)).toEqual([]);
    const builtinChat = await builtin('openai-compatible/gpt-5.5-pro', open.baseURL).preflight();
    expect(row(builtinChat, 'model API')).toMatchObject({ ok: false, detail: /use openai\/gpt-5\.5-pro/ });
    vi.unstubAllEnvs();
  });
});

describe('preflight: --skip-check <name>', () => {
  let server: ScriptedLlm;
  beforeAll(async () => {
    server = await startScriptedLlm([], { key: KEY });
  });
  afterAll(() => server.close());
  const env = () => ({ OPENAI_API_KEY: 'sk-wrong-999', CATARENA_OPENAI_BASE_URL: server.baseURL });

  it("skips one check by name (its row kept, marked skipped), or one agent's; a name that matches no check is an error", async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-wrong-999');
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
    const config = resolveConfig({
      agents: ['builtin:openai-compatible/scripted', 'offline:cautious'],
      games: ['gomoku'],
    });
    expect(doctorReady(await runDoctor(config))).toBe(false);
    for (const name of ['endpoint', 'builtin:openai-compatible/scripted:endpoint']) {
      const rows = await runDoctor(config, { skipChecks: [name] });
      expect(doctorReady(rows), formatDoctor(rows)).toBe(true);
      expect(formatDoctor(rows)).toMatch(
        new RegExp(
          `builtin:openai-compatible/scripted\\s+endpoint of openai-compatible/scripted\\s+skipped\\s+skipped \\(--skip-check ${name.replace(/[/]/g, '\\/')}\\): the key was refused`,
        ),
      );
    }
    const typo = await runDoctor(config, { skipChecks: ['endpiont'] });
    expect(doctorReady(typo)).toBe(false);
    expect(formatDoctor(typo)).toMatch(
      /--skip-check endpiont names no check; the checks are: .*endpoint of openai-compatible\/scripted/,
    );
    vi.unstubAllEnvs();
  });

  it('catarena doctor --skip-check endpoint: exit 0 where the same setup without it exits 1', async () => {
    const args = [
      'doctor',
      '--agents',
      'builtin:openai-compatible/scripted',
      '--games',
      'gomoku',
      '--skip-check',
      'endpoint',
    ];
    const skipped = await catarena(args, env());
    expect(skipped.code, skipped.stdout + skipped.stderr).toBe(0);
    expect(skipped.stdout).toMatch(/endpoint of openai-compatible\/scripted\s+skipped/);
  }, 90_000);
});
