// The built-in minimal agent against a scripted OpenAI-compatible server: a real AI SDK tool loop
// writing a real bot into a real workspace, validated by the orchestrator's validateBot.
// Over 30 s: about 20 cases, most a whole development: a tool loop, then its bot started and validated.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { BuiltinAgent, deriveAgentId, systemPrompt } from '../agents/builtin/agent.ts';
import { TASK_TRACK_PROMPTS } from '../agents/core/task-track-prompt.ts';
import { taskText } from '../agents/core/workspace.ts';
import { redactSecrets, resolveModel } from '../agents/builtin/models.ts';
import { ProcessAgentSandbox, ToolError } from '../agents/builtin/tools.ts';
import { DockerAgentSandbox } from '../agents/builtin/docker-sandbox.ts';
import type { Workspace } from '../agents/core/types.ts';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { generalProblems, validateBot } from '../orchestrator/validate.ts';
import { isProcessGone } from '../util/procfs.mjs';
import { createSandbox } from '../sandbox/index.ts';
import {
  openAiRateLimit,
  perConversation,
  startScriptedLlm,
  toolResults,
  type ScriptedLlm,
} from './helpers/scripted-llm.ts';
import { startScriptedAnthropic, type ScriptedAnthropic } from './helpers/scripted-anthropic.ts';
import {
  geminiNoBilling,
  geminiRateLimit,
  startScriptedGemini,
  stepOf as geminiStep,
  type ScriptTurn as GeminiTurn,
} from './helpers/scripted-gemini.ts';
import { BUILTIN, dockerReady } from './helpers/bots.ts';
import { TOOL_LOG_FILE, type ToolLogLine } from '../records/agent-activity.ts';
import { OUTBOUND_DEFAULTS } from '../util/outbound-http.ts';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';

const SECRET = 'sk-test-secret-123';
const RANDOM_BOT = path.resolve(import.meta.dirname, '../games/gomoku/bots/random');
const ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-builtin-'));
const sandbox = createSandbox('process');
const hosts = new GameServerPool({ preferCatarenaPorts: false });
const servers: ScriptedLlm[] = [];
const anthropicServers: ScriptedAnthropic[] = [];
let wsCount = 0;

afterEach(() => vi.unstubAllEnvs());
afterAll(async () => {
  await Promise.all([...servers, ...anthropicServers].map((s) => s.close()));
  await sandbox.close();
  await hosts.closeAll();
  fs.rmSync(ROOT, { recursive: true, force: true });
});

/** The orchestrator's check, as develop.ts will wire it: validateBot on the output folder. */
function arenaCheck(ws: Workspace): () => Promise<{ ok: boolean; report: string }> {
  return async () => {
    const v = await validateBot({
      dir: ws.outputDir,
      game: ws.game,
      variant: ws.variant,
      sandbox,
      hosts,
      moveMs: 2000,
      startTimeoutMs: 5000,
    });
    const lines = [
      ...v.positions.map((p) => `${p.ok ? 'ok' : 'FAIL'} ${p.name}${p.problem ? `: ${p.problem}` : ''}`),
      ...generalProblems(v),
      ...(v.ok ? [] : [`bot log tail: ${v.logTail.slice(-500)}`]),
    ];
    return { ok: v.ok, report: lines.join('\n') };
  };
}

async function workspace(agentId: string, withCheck: boolean): Promise<Workspace> {
  const host = await hosts.get('gomoku', 'standard');
  const ws = await buildWorkspace({
    dir: path.join(ROOT, `ws${++wsCount}`),
    game: 'gomoku',
    variant: 'standard',
    round: 1,
    agentId,
    seed: 1,
    moveTimeoutMs: 2000,
    gameServerUrl: host.url,
  });
  if (withCheck) ws.check = arenaCheck(ws);
  return ws;
}

/** A scripted server, with the env pointing the agent at it and the test key set. */
async function llm(script: Parameters<typeof startScriptedLlm>[0]): Promise<ScriptedLlm> {
  const server = await startScriptedLlm(script, { noStreaming: true, key: SECRET });
  servers.push(server);
  vi.stubEnv('OPENAI_API_KEY', SECRET);
  vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
  return server;
}

const write = (p: string, content: string) => ({ name: 'write_file', args: { path: p, content } });
const botFiles = () => [
  write('develop_ai/start_ai.sh', fs.readFileSync(path.join(RANDOM_BOT, 'start_ai.sh'), 'utf8')),
  write('develop_ai/bot.mjs', fs.readFileSync(path.join(RANDOM_BOT, 'bot.mjs'), 'utf8')),
  write('develop_ai/bot-http.mjs', fs.readFileSync(path.join(RANDOM_BOT, 'bot-http.mjs'), 'utf8')),
];

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('models and prompts', () => {
  it('resolves provider specs and names the missing variable', () => {
    expect(resolveModel('openai-compatible/m', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://x/v1' }).baseURL).toBe(
      'http://x/v1',
    );
    expect(resolveModel('openai/gpt-4o-mini', { OPENAI_API_KEY: 'k' }).baseURL).toBe('https://api.openai.com/v1');
    expect(resolveModel('google/gemini-2.5-flash', { GEMINI_API_KEY: 'k' }).provider).toBe('google');
    expect(
      resolveModel('anthropic/claude-x', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://a/v1' }).baseURL,
    ).toBe('http://a/v1');
    expect(() => resolveModel('openai/gpt-4o-mini', {})).toThrow(/OPENAI_API_KEY is not set/);
    expect(() => resolveModel('anthropic/claude-x', {})).toThrow(/ANTHROPIC_API_KEY is not set/);
    expect(() => resolveModel('google/gemini', {})).toThrow(
      /GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY is not set/,
    );
    expect(() => resolveModel('mistral/x', { OPENAI_API_KEY: 'k' })).toThrow(/<provider>\/<model>/);
    expect(() => new BuiltinAgent({ model: 'openai/gpt-4o-mini', env: {} })).toThrow(/OPENAI_API_KEY/);
    expect(deriveAgentId('openai/gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(deriveAgentId('openai-compatible/Qwen/Qwen3-Coder:30B')).toBe('qwen3-coder-30b');
    expect(redactSecrets(`key ${SECRET}, again ${SECRET}`, { OPENAI_API_KEY: SECRET })).toBe('key ***, again ***');
  });

  it("prompts with the task, whose last section is the task track's", async () => {
    const ws = await workspace('p', false);
    const limits = { maxSteps: 40, maxTotalTokens: 400_000, wallMs: 600_000 };
    const standard = systemPrompt(ws, limits);
    expect(standard.startsWith(ws.task.trimEnd())).toBe(true);
    expect(standard).toMatch(/test_bot/);
    expect(standard).not.toMatch(/## Task track/);
    for (const track of ['ml', 'js', 'go'] as const) {
      const tracked = { ...ws, taskTrack: track };
      tracked.task = taskText(tracked);
      expect(systemPrompt(tracked, limits)).toContain(TASK_TRACK_PROMPTS[track][0]);
    }
  });
});

describe('BuiltinAgent', () => {
  it('(a) writes a working bot through the tool loop; tokens and tool results are accounted', async () => {
    const server = await llm([
      { toolCalls: [{ name: 'list_files', args: { path: '.', recursive: true } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'gomoku/develop_instruction.md' } }] },
      { text: 'I will adapt the sample bot.', toolCalls: botFiles() },
      { toolCalls: [{ name: 'run_command', args: { command: 'ls develop_ai' } }] },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'random legal moves' } }] },
    ]);
    const agent = new BuiltinAgent({ model: 'openai-compatible/gpt-test-mini' });
    expect(agent.id).toBe('gpt-test-mini');
    expect(agent.kind).toBe('builtin:openai-compatible/gpt-test-mini');
    const ws = await workspace(agent.id, true);
    const res = await agent.develop(ws, { wallMs: 60_000 });

    // The returned folder passed the orchestrator's check (validateBot, arenaCheck) after finish:
    // "attempt 1 succeeded: the arena check passed" below.
    expect(res.botDir).toBe(ws.outputDir);

    expect(server.requests).toHaveLength(6);
    expect(
      server.requests.every((r) => !r.stream && r.model === 'gpt-test-mini' && r.authorization === `Bearer ${SECRET}`),
    ).toBe(true);
    const first = server.requests[0]!;
    expect(first.messages[0]!.role).toBe('system');
    expect(first.messages[0]!.content).toContain(ws.task.split('\n')[0]);
    expect(first.tools.map((t) => t.function.name).sort()).toEqual([
      'finish',
      'list_files',
      'read_file',
      'run_command',
      'test_bot',
      'write_file',
    ]);
    expect(toolResults(server.requests[1]!)[0]).toMatch(/develop_ai\/[\s\S]*gomoku\/develop_instruction\.md/);
    expect(toolResults(server.requests[2]!).at(-1)).toContain(
      fs.readFileSync(path.join(ws.envDir, 'develop_instruction.md'), 'utf8').slice(0, 200),
    );
    expect(toolResults(server.requests[4]!).at(-1)).toMatch(/exit code 0[\s\S]*bot\.mjs\nstart_ai\.sh/);
    expect(toolResults(server.requests[5]!).at(-1)).toMatch(/^PASSED\nok position after 0 plies/);

    expect(res.cost.tokens).toEqual(server.totalUsage());
    expect(res.cost.tokens!.input).toBeGreaterThan(1000);
    expect(res.cost.toolCalls).toBe(8);
    expect(res.cost.linesOfCode).toBeGreaterThan(100);
    expect(res.log).toMatch(/## attempt 1\/3: openai-compatible\/gpt-test-mini/);
    expect(res.log).toMatch(/- write_file\(develop_ai\/bot\.mjs, \d+ chars\) ok/);
    expect(res.log).toMatch(/- run_command\(ls develop_ai\) ok \(exit code 0\)/);
    expect(res.log).toMatch(/- test_bot\(\) ok \(PASSED\)/);
    expect(res.log).toMatch(/- model says: I will adapt the sample bot\.\n- write_file/);
    // The tool log (what the evolution report reads): every call with its whole input, a file's content as its length.
    const logged = fs
      .readFileSync(path.join(ws.dir, TOOL_LOG_FILE), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ToolLogLine);
    expect(logged.map((l) => l.tool)).toEqual([
      'list_files',
      'read_file',
      'write_file',
      'write_file',
      'write_file',
      'run_command',
      'test_bot',
      'finish',
    ]);
    expect(logged[1]).toEqual({
      attempt: 1,
      step: 2,
      tool: 'read_file',
      input: { path: 'gomoku/develop_instruction.md', offset: 0 },
      ok: true,
    });
    // The three writes of one step run side by side, so they finish in any order.
    expect(logged.slice(2, 5).find((l) => l.input.path === 'develop_ai/start_ai.sh')).toEqual({
      attempt: 1,
      step: expect.any(Number),
      tool: 'write_file',
      input: {
        path: 'develop_ai/start_ai.sh',
        chars: fs.readFileSync(path.join(RANDOM_BOT, 'start_ai.sh'), 'utf8').length,
      },
      ok: true,
    });
    expect(logged[5]!.input).toEqual({ command: 'ls develop_ai' });
    expect(res.log).toMatch(/finished: random legal moves/);
    expect(res.log).toMatch(/attempt 1 succeeded: the arena check passed/);
  });

  // The 429 tests develop without the arena check (test_bot says none is available; start_ai.sh
  // written is success): the wait is under test, not the bot, whose check (a) and (b) cover.
  it("after a 429 the request waits what the server asked and is asked again, Google's way too (RetryInfo in the body, no header)", async () => {
    let first = true;
    const turns = [
      { toolCalls: botFiles() },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
    ];
    const server = await llm((req) => {
      if (first) {
        first = false;
        // As the Gemini API answers a 429: RESOURCE_EXHAUSTED, the wait in error.details, no retry-after header.
        return {
          httpError: 429,
          message: 'You exceeded your current quota',
          type: 'RESOURCE_EXHAUSTED',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.5s' }],
        };
      }
      return turns[req.messages.filter((m) => m.role === 'assistant').length];
    });
    const agent = new BuiltinAgent({ model: 'openai-compatible/waiter', maxRetries: 0 });
    const res = await agent.develop(await workspace(agent.id, false), { wallMs: 60_000 });
    expect(res.failure, res.log).toBeUndefined();
    expect(res.log).toMatch(
      /- rate limit: HTTP 429 from 127\.0\.0\.1:\d+ \(asked 0\.5 s\): waiting 0\.5 s, then asking again/,
    );
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(450);
  });

  it("after OpenAI's 429 (retry-after and x-ratelimit-* headers) the request waits, then succeeds in the same attempt", async () => {
    const turns = [
      openAiRateLimit(1),
      { toolCalls: botFiles() },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
    ];
    const server = await llm(turns);
    const agent = new BuiltinAgent({ model: 'openai-compatible/waiter', maxRetries: 0 });
    const res = await agent.develop(await workspace(agent.id, false), { wallMs: 60_000 });
    expect(res.failure, res.log).toBeUndefined();
    expect(res.log).toMatch(
      /- rate limit: HTTP 429 from 127\.0\.0\.1:\d+ \(asked 1\.0 s\): waiting 1\.0 s, then asking again/,
    );
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('builtin:anthropic on a model the API does not serve: the 404 names the model in the build log', async () => {
    const server = await startScriptedAnthropic([], { apiKey: SECRET, noStreaming: true });
    anthropicServers.push(server);
    vi.stubEnv('ANTHROPIC_API_KEY', SECRET);
    vi.stubEnv('ANTHROPIC_BASE_URL', server.baseURL);
    const agent = new BuiltinAgent({ model: 'anthropic/claude-sonnet-4-7', maxRetries: 0 });
    const res = await agent.develop(await workspace(agent.id, false), { wallMs: 30_000 });
    expect(res.failure?.detail).toMatch(/^HTTP 404 .*"not_found_error","message":"model: claude-sonnet-4-7"/);
    expect(res.log).toMatch(/model: claude-sonnet-4-7/);
    expect(server.requests.every((r) => r.usage === null)).toBe(true);
  });

  it('an unknown model is a 404 (model_not_found); reasoning tokens are counted as output', async () => {
    const server = await startScriptedLlm([], { noStreaming: true, models: ['known'], key: SECRET });
    servers.push(server);
    vi.stubEnv('OPENAI_API_KEY', SECRET);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
    const agent = new BuiltinAgent({ model: 'openai-compatible/gpt-nope', maxRetries: 0 });
    const res = await agent.develop(await workspace(agent.id, false), { wallMs: 30_000 });
    expect(res.failure).toBeDefined();
    expect(res.log).toMatch(/does not exist or you do not have access to it/);
    expect(server.requests.every((r) => r.usage === null)).toBe(true);

    const usage = {
      prompt_tokens: 1000,
      completion_tokens: 300,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 250 },
    };
    const second = await llm([
      { toolCalls: botFiles(), usage },
      { toolCalls: [{ name: 'finish', args: { summary: 'done' } }], usage },
    ]);
    const ok = new BuiltinAgent({ model: 'openai-compatible/thinker', maxRetries: 0 });
    const done = await ok.develop(await workspace(ok.id, false), { wallMs: 30_000 });
    expect(done.failure, done.log).toBeUndefined();
    expect(done.cost.tokens).toEqual({ input: 2000, output: 600 });
    expect(second.requests[0]!.body.max_tokens).toBeUndefined();
  });

  it("builtin:google through the Gemini API's strictness: a 429 with RetryInfo only in the body, a candidate without parts (MALFORMED_FUNCTION_CALL), signed function calls echoed", async () => {
    const attempt: GeminiTurn[] = [
      { toolCalls: botFiles() },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
    ];
    let n = 0;
    const server = await startScriptedGemini(
      (req) => {
        n++;
        if (n === 1) return geminiRateLimit('0.5s');
        if (n === 2)
          return {
            noParts: true,
            finishReason: 'MALFORMED_FUNCTION_CALL',
            finishMessage: 'Malformed function call: write_file(path=',
          };
        return attempt[geminiStep(req)];
      },
      { apiKey: SECRET, noStreaming: true },
    );
    vi.stubEnv('GEMINI_API_KEY', SECRET);
    vi.stubEnv('GOOGLE_GEMINI_BASE_URL', server.rootURL);
    try {
      const agent = new BuiltinAgent({ model: 'google/scripted-gemini', maxRetries: 0 });
      const res = await agent.develop(await workspace(agent.id, false), { wallMs: 60_000 });
      expect(res.failure, res.log).toBeUndefined();
      expect(res.log).toMatch(
        /- rate limit: HTTP 429 from 127\.0\.0\.1:\d+ \(asked 0\.5 s\): waiting 0\.5 s, then asking again/,
      );
      expect(res.log).toMatch(/the model stopped without calling finish \(error\)/);
      // Every replayed model turn carried the signature its function call was given (else a 400).
      const last = server.requests.at(-1)!;
      const models = last.contents.filter((c) => c.role === 'model');
      expect(models).toHaveLength(2);
      for (const c of models) expect(c.parts.find((p) => 'functionCall' in p)).toHaveProperty('thoughtSignature');
    } finally {
      await server.close();
    }
  });

  it('builtin:google counts cached prompt tokens once: input = promptTokenCount − cachedContentTokenCount, the rest cache reads', async () => {
    const usage = (prompt: number, cached: number) => ({
      promptTokenCount: prompt,
      cachedContentTokenCount: cached,
      candidatesTokenCount: 40,
      thoughtsTokenCount: 10,
    });
    const server = await startScriptedGemini(
      [
        { toolCalls: botFiles(), usage: usage(3000, 0) },
        { toolCalls: [{ name: 'finish', args: { summary: 'done' } }], usage: usage(3500, 2900) },
      ],
      { apiKey: SECRET, noStreaming: true },
    );
    vi.stubEnv('GEMINI_API_KEY', SECRET);
    vi.stubEnv('GOOGLE_GEMINI_BASE_URL', server.rootURL);
    try {
      const agent = new BuiltinAgent({ model: 'google/scripted-gemini', maxRetries: 0 });
      const res = await agent.develop(await workspace(agent.id, false), { wallMs: 60_000 });
      expect(res.failure, res.log).toBeUndefined();
      expect(server.totalUsage()).toEqual({ input: 3600, cacheRead: 2900, output: 100 });
      expect(res.cost.tokens).toEqual(server.totalUsage());
    } finally {
      await server.close();
    }
  });

  it("builtin:google stops at once on Google's refused key (400 API_KEY_INVALID), its context-length 400 and a project without billing (429, free tier limit 0)", async () => {
    // The context-length wording as Gemini answers it (google-gemini/gemini-cli#4231, #6678).
    const tooLong: GeminiTurn = {
      httpError: 400,
      status: 'INVALID_ARGUMENT',
      message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
    };
    // A project without billing on a model with no free tier: a 429 no wait cures (billing).
    const noBilling = geminiNoBilling('scripted-gemini', '1s');
    for (const [key, script, reason] of [
      ['AIza-wrong', [], 'auth'],
      [SECRET, [tooLong, tooLong], 'context_length'],
      [SECRET, [noBilling, noBilling], 'billing'],
    ] as const) {
      const server = await startScriptedGemini([...script], { apiKey: SECRET, noStreaming: true });
      vi.stubEnv('GEMINI_API_KEY', key);
      vi.stubEnv('GOOGLE_GEMINI_BASE_URL', server.rootURL);
      try {
        const agent = new BuiltinAgent({ model: 'google/scripted-gemini', maxRetries: 0 });
        const res = await agent.develop(await workspace(agent.id, false), { wallMs: 30_000 });
        expect(res.failure?.reason, res.log).toBe(reason);
        // A context-length 400 gets one more attempt with a trimmed context (agents/builtin/trim.ts).
        expect(server.requests.filter((r) => r.method === 'generateContent')).toHaveLength(
          reason === 'context_length' ? 2 : 1,
        );
      } finally {
        await server.close();
      }
    }
  });

  // Two attempts a model here (each a bot start that fails): the default three, 3 + 3 in all, is
  // checked in a tourney round by builtin-tourney.test.ts ('a broken bot ends as a failed build').
  it('(b) retries a broken bot (attempts per model), then as many times with the fallback model, then gives up', async () => {
    const server = await llm(
      perConversation([
        { toolCalls: [write('develop_ai/start_ai.sh', '#!/bin/bash\necho "broken on purpose" >&2\nexit 1\n')] },
        { toolCalls: [{ name: 'test_bot', args: {} }] },
        { toolCalls: [{ name: 'finish', args: { summary: 'done (not really)' } }] },
      ]),
    );
    const agent = new BuiltinAgent({
      model: 'openai-compatible/primary-model',
      fallback: 'openai-compatible/fallback-model',
      id: 'stubborn',
      attemptsPerModel: 2,
    });
    const ws = await workspace(agent.id, true);
    const res = await agent.develop(ws, { wallMs: 120_000 });

    expect(server.requests.map((r) => r.model)).toEqual([
      ...Array(6).fill('primary-model'),
      ...Array(6).fill('fallback-model'),
    ]);
    expect(toolResults(server.requests[2]!).at(-1)).toMatch(/^FAILED\n[\s\S]*did not start/);
    // Each retry is a new conversation that is told why the previous attempt failed.
    const retry = server.requests[3]!;
    expect(retry.messages.filter((m) => m.role === 'assistant')).toHaveLength(0);
    expect(retry.messages.find((m) => m.role === 'user')!.content).toMatch(
      /Attempt 2 of 4\. The previous attempt did not produce a runnable bot: the arena check failed/,
    );
    expect(res.log.match(/^## attempt \d\/4/gm)).toHaveLength(4);
    expect(res.log.match(/- test_bot\(\) ok \(FAILED\)/g)).toHaveLength(4);
    expect(res.log).toMatch(/## attempt 3\/4: openai-compatible\/fallback-model \(fallback model\)/);
    expect(res.log).toMatch(/gave up after 4 attempts: no runnable bot/);
    expect(res.cost.tokens).toEqual(server.totalUsage());
    expect(res.cost.toolCalls).toBe(12);
    expect(fs.existsSync(path.join(res.botDir, 'start_ai.sh'))).toBe(true); // what exists is returned
  });

  it('(c) refuses path escapes as tool errors the model sees, and times commands out', async () => {
    const server = await llm([
      { toolCalls: [{ name: 'read_file', args: { path: '../../etc/passwd' } }] },
      { toolCalls: [{ name: 'write_file', args: { path: '/tmp/evil.txt', content: 'x' } }] },
      { toolCalls: [{ name: 'run_command', args: { command: 'sleep 30 & sleep 30', timeout_seconds: 1 } }] },
      { toolCalls: [{ name: 'run_command', args: { command: 'ln -s /etc develop_ai/etc' } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'develop_ai/etc/passwd' } }] },
      { text: 'I give up.' },
    ]);
    const agent = new BuiltinAgent({ model: 'openai-compatible/m', attemptsPerModel: 1 });
    const ws = await workspace('escaper', false);
    const t0 = Date.now();
    const res = await agent.develop(ws, { wallMs: 60_000 });
    expect(Date.now() - t0).toBeLessThan(10_000);

    expect(toolResults(server.requests[1]!)[0]).toMatch(/"\.\.\/\.\.\/etc\/passwd" is outside the workspace/);
    expect(toolResults(server.requests[2]!).at(-1)).toMatch(/"\/tmp\/evil\.txt" is an absolute path/);
    expect(fs.existsSync('/tmp/evil.txt')).toBe(false);
    expect(toolResults(server.requests[3]!).at(-1)).toMatch(/^timed out after 1000 ms/);
    expect(toolResults(server.requests[5]!).at(-1)).toMatch(/leads outside the workspace \(through a symbolic link\)/);
    expect(res.log).toMatch(/- read_file\(\.\.\/\.\.\/etc\/passwd\) ERROR: .*outside the workspace/);
    expect(res.log).toMatch(/the model stopped without calling finish/);
    expect(res.log).toMatch(
      /gave up after 1 attempt: no runnable bot \(last failure: no start_ai\.sh in the output folder\)/,
    );
  });

  it('(c) the process sandbox kills background processes and caps output', async () => {
    const dir = fs.mkdtempSync(path.join(ROOT, 'sb-'));
    const sb = new ProcessAgentSandbox(dir, { outputCapBytes: 1000 });
    try {
      const r = await sb.run('sleep 30 & echo $! > bg.pid; echo hi; head -c 5000 /dev/zero | tr "\\0" a', 5000);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^hi\na{997}\n\[output truncated: 4003 more bytes dropped\]$/);
      expect(r.durationMs).toBeLessThan(3000);
      const pid = Number(fs.readFileSync(path.join(dir, 'bg.pid'), 'utf8'));
      await vi.waitFor(() => expect(isProcessGone(pid)).toBe(true), { timeout: 2000 });
      const t = await sb.run('setsid sleep 30 & echo $! > escaped.pid; sleep 30', 500);
      expect(t.timedOut).toBe(true);
      const escaped = Number(fs.readFileSync(path.join(dir, 'escaped.pid'), 'utf8'));
      await vi.waitFor(() => expect(isProcessGone(escaped)).toBe(true), { timeout: 2000 });
      expect(() => sb.resolve('a/../../x')).toThrow(ToolError);
      await expect(sb.read('nope.txt')).rejects.toThrow(/no such file or directory: nope\.txt/);
      const env = await sb.run('env', 5000);
      expect(env.stdout).toMatch(/^HOME=.*catarena-agent-home-/m);
      expect(env.stdout).not.toMatch(/API_KEY/);
    } finally {
      await sb.close();
    }
  });

  it('(e) stops at the token budget and aborts the request at the wall-clock budget', async () => {
    const tokenServer = await llm([
      { toolCalls: [{ name: 'list_files', args: {} }], usage: { prompt_tokens: 900, completion_tokens: 200 } },
      { toolCalls: [{ name: 'finish', args: { summary: 'never reached' } }] },
    ]);
    const frugal = new BuiltinAgent({ model: 'openai-compatible/m', maxTotalTokens: 1000 });
    const r1 = await frugal.develop(await workspace('frugal', false), { wallMs: 60_000 });
    expect(tokenServer.requests).toHaveLength(1);
    expect(r1.cost.tokens).toEqual({ input: 900, output: 200 });
    expect(r1.log).toMatch(/1 step; stopped at the token budget/);
    expect(r1.log).toMatch(/token budget exhausted \(1100 ≥ 1000\): no further attempt/);

    const slowServer = await llm([{ text: 'too late', delayMs: 20_000 }]);
    const slow = new BuiltinAgent({ model: 'openai-compatible/m', fallback: 'openai-compatible/m2' });
    const t0 = Date.now();
    const r2 = await slow.develop(await workspace('slow', false), { wallMs: 2_000 });
    expect(Date.now() - t0).toBeLessThan(4_000);
    expect(slowServer.requests).toHaveLength(1);
    expect(r2.cost.tokens).toEqual({ input: 0, output: 0 });
    expect(r2.log).toMatch(/ERROR: wall-clock budget exhausted \(request aborted\)/);
    expect(r2.log).toMatch(/wall-clock budget exhausted: no further attempt/);
    expect(r2.log).toMatch(/gave up after 1 attempt: no runnable bot/);
  });

  it("(e) an answer whose headers come after undici's default timeout still arrives; past the agent's own timeout it is named timeout", async () => {
    expect(OUTBOUND_DEFAULTS.headersTimeoutMs).toBeGreaterThan(300_000); // undici's default, which a maximal non-streaming answer can pass
    // undici's 300 s default, scaled down: the process-wide dispatcher gives up on headers after 300 ms.
    const global = getGlobalDispatcher();
    setGlobalDispatcher(new Agent({ headersTimeout: 300 }));
    try {
      const patient = await llm([
        { toolCalls: botFiles(), delayMs: 1_000 },
        { toolCalls: [{ name: 'finish', args: { summary: 'ok' } }] },
      ]);
      const agent = new BuiltinAgent({
        model: 'openai-compatible/patient',
        attemptsPerModel: 1,
        maxRetries: 0,
        requestTimeoutMs: 5_000,
      });
      const r1 = await agent.develop(await workspace('patient', false), { wallMs: 60_000 });
      expect(r1.failure, r1.log).toBeUndefined();
      expect(patient.requests).toHaveLength(2);

      await llm([{ text: 'too late', delayMs: 3_000 }]);
      const hasty = new BuiltinAgent({
        model: 'openai-compatible/hasty',
        attemptsPerModel: 1,
        maxRetries: 0,
        requestTimeoutMs: 500,
      });
      const t0 = Date.now();
      const r2 = await hasty.develop(await workspace('hasty', false), { wallMs: 60_000 });
      expect(Date.now() - t0).toBeLessThan(2_500);
      expect(r2.failure?.reason, r2.log).toBe('timeout');
      expect(r2.log).toMatch(/Headers Timeout Error/);
    } finally {
      setGlobalDispatcher(global);
    }
  });

  it('(d) API keys appear in no workspace file and not in the log', async () => {
    const server = await llm([
      {
        toolCalls: [{ name: 'run_command', args: { command: 'env > develop_ai/env.txt; echo "key=$OPENAI_API_KEY"' } }],
      },
      { toolCalls: botFiles() },
      {
        httpError: 401,
        message: `Incorrect API key provided: ${SECRET}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      },
    ]);
    const agent = new BuiltinAgent({ model: 'openai-compatible/gpt-test', attemptsPerModel: 1, maxRetries: 0 });
    const ws = await workspace(agent.id, false);
    const res = await agent.develop(ws, { wallMs: 60_000 });

    expect(server.requests[0]!.authorization).toBe(`Bearer ${SECRET}`); // the key was used…
    expect(toolResults(server.requests[1]!)[0]).toMatch(/key=\n/); // …but commands never see it
    expect(fs.readFileSync(path.join(ws.outputDir, 'env.txt'), 'utf8')).toMatch(/^PATH=/m);
    for (const file of filesUnder(ws.dir)) expect(fs.readFileSync(file, 'utf8'), file).not.toContain(SECRET);
    expect(res.log).toMatch(/ERROR: HTTP 401 .*Incorrect API key provided: \*\*\*/);
    expect(res.log).toMatch(/attempt 1 failed: the agent loop failed/);
    expect(res.log).not.toContain(SECRET);
    expect(JSON.stringify(res.cost)).not.toContain(SECRET);
  });
});

describe.skipIf(!dockerReady())('BuiltinAgent with the Docker agent sandbox', () => {
  it('runs its commands in a container with the workspace mounted and no network; its bot passes the check', async () => {
    const sample = BUILTIN('random');
    const write = (file: string) => ({
      name: 'write_file',
      args: { path: `develop_ai/${file}`, content: fs.readFileSync(path.join(sample, file), 'utf8') },
    });
    const server = await llm(
      perConversation([
        { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
        {
          toolCalls: [
            {
              name: 'run_command',
              args: {
                command:
                  // Until the bot answers (a fixed 1.5 s was too short for a container on a loaded machine).
                  'cd develop_ai && (bash start_ai.sh 18123 > /tmp/bot.log 2>&1 &); for i in $(seq 50); do curl -s localhost:18123/health && break; sleep 0.2; done; echo; pwd; id -u; env; curl -s -m 3 --noproxy "*" http://172.17.0.1:9/ ; echo "net-exit=$?"',
              },
            },
          ],
        },
        { toolCalls: [{ name: 'test_bot', args: {} }] },
        { toolCalls: [{ name: 'finish', args: { summary: 'random bot' } }] },
      ]),
    );
    const ws = await workspace('docker-coder', true);
    const agent = new BuiltinAgent({ model: 'openai-compatible/m', sandbox: (w) => new DockerAgentSandbox(w) });
    const res = await agent.develop(ws, { wallMs: 120_000 });
    const run = toolResults(server.requests[2]!).at(-1)!;
    expect(run).toMatch(/^exit code 0/);
    expect(run).toMatch(/"status"/); // the bot answered /health inside the container
    expect(run).toMatch(/^\/workspace\/develop_ai$/m); // the workspace is mounted at /workspace
    expect(run).toMatch(/net-exit=(7|28)/); // no network
    expect(run).not.toContain(SECRET); // the key stays with the LLM call on the host
    expect(toolResults(server.requests[3]!).at(-1)).toMatch(/^PASSED/);
    expect(res.log).toMatch(/attempt 1 succeeded: the arena check passed/);
  }, 120_000);
});
