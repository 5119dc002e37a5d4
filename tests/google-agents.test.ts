// The built-in agent and the LLM-player on Google (builtin:google/<model>, llm-player:google/<model>)
// through a whole tourney round against the scripted Gemini API server (tests/helpers/
// scripted-gemini.ts), process sandbox: the built-in agent (AI SDK, @ai-sdk/google, pointed at the
// server by GOOGLE_GEMINI_BASE_URL) writes a bot with its tools and tests it; the LLM-player's bot
// (plain fetch, CATARENA_LLM_BASE_URL) asks the model for every move. Both bots validate and play.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOfflineAgent } from '../agents/offline/index.ts';
import { createAgent } from '../agents/registry.ts';
import { resolveModel } from '../agents/builtin/models.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import {
  geminiRateLimit,
  lastUserText,
  perConversation,
  startScriptedGemini,
  toolResults,
  type ScriptedGemini,
  type ScriptedRequest,
  type ScriptTurn,
} from './helpers/scripted-gemini.ts';

const SECRET = 'AIza-google-agents-secret-0815';
let server: ScriptedGemini | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

/** One round of the given agents (default: the one spec against the offline cautious agent); `id`'s record and build log. */
async function round(
  spec: string,
  id: string,
  agents = () => [createAgent(spec, 1), createOfflineAgent('offline:cautious', 1)],
) {
  const runDir = path.join(tempDir(), 'run');
  const config = resolveConfig({
    games: ['gomoku'],
    rounds: 1,
    variants: ['standard'],
    concurrency: 2,
    bootstrapSamples: 20,
    developTimeoutMs: 120_000,
  });
  const summary = await runTourney({
    config,
    runDir,
    agents: agents(),
  });
  const { record, buildLog } = strategyOf(runDir, id);
  const games = fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return { runDir, summary, record, buildLog, games };
}

/** Strategy `id`'s record and build log in the run's one round. */
function strategyOf(runDir: string, id: string) {
  const strategies = path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies');
  return {
    record: JSON.parse(fs.readFileSync(path.join(strategies, `${id}.strategy.json`), 'utf8')),
    buildLog: fs.readFileSync(path.join(strategies, `${id}.build.log`), 'utf8'),
  };
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

function expectNoKey(runDir: string): void {
  for (const file of filesUnder(runDir))
    expect(fs.readFileSync(file, 'latin1').includes(SECRET), `${file} holds the key`).toBe(false);
}

describe('GOOGLE_GEMINI_BASE_URL for the built-in agent', () => {
  it("is the root as Gemini CLI takes it (the AI SDK gets /v1beta added); a versioned URL is kept; unset, Google's", () => {
    const env = { GEMINI_API_KEY: SECRET };
    expect(resolveModel('google/m', { ...env, GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:4000/' }).baseURL).toBe(
      'http://127.0.0.1:4000/v1beta',
    );
    expect(
      resolveModel('google/m', { ...env, GOOGLE_GEMINI_BASE_URL: 'https://gw.example/google/v1beta' }).baseURL,
    ).toBe('https://gw.example/google/v1beta');
    expect(resolveModel('google/m', { ...env, GOOGLE_GEMINI_BASE_URL: 'https://gw.example/v1' }).baseURL).toBe(
      'https://gw.example/v1',
    );
    expect(resolveModel('google/m', env).baseURL).toBeUndefined();
  });
});

describe('Google models in a tourney round', () => {
  // builtin:google and llm-player:google meet each other in one round (not each an offline bot in a
  // round of its own), each with its own scripted server: the coder's by GOOGLE_GEMINI_BASE_URL,
  // the player's by CATARENA_LLM_BASE_URL; what a server saw is what its agent sent.
  let coderServer: ScriptedGemini;
  let playerServer: ScriptedGemini;
  let shared: Awaited<ReturnType<typeof round>>;
  beforeAll(async () => {
    const sample = BUILTIN('random');
    const write = (file: string) => ({
      name: 'write_file',
      args: { path: `develop_ai/${file}`, content: fs.readFileSync(path.join(sample, file), 'utf8') },
    });
    const turns: ScriptTurn[] = [
      {
        toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')],
        thought: 'The sample bot fits: copy its three files.',
        usage: { promptTokenCount: 3_000, candidatesTokenCount: 1_200, thoughtsTokenCount: 64 },
      },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'the sample random bot, tested' } }] },
    ];
    // The AI SDK's generateText does not stream: a streamed request would be refused (400).
    coderServer = await startScriptedGemini(perConversation(turns), { apiKey: SECRET, noStreaming: true });
    vi.stubEnv('GEMINI_API_KEY', SECRET);
    vi.stubEnv('GOOGLE_GEMINI_BASE_URL', coderServer.rootURL);
    // A legal option for every prompt: the LLM-player lists them and asks for one number (1 is one).
    // The first option: the player fills a row while the coder's random bot seldom blocks it, so
    // the games are short (varied answers against the random bot played them to a full board).
    const answer = (req: ScriptedRequest): ScriptTurn => {
      return {
        text: '1',
        // Implicit caching: from the second request on, most of the prompt (within promptTokenCount) is read from the cache.
        usage: {
          promptTokenCount: 400,
          candidatesTokenCount: 1,
          thoughtsTokenCount: 3,
          ...(req.index > 0 ? { cachedContentTokenCount: 320 } : {}),
        },
      };
    };
    playerServer = await startScriptedGemini(answer, { apiKey: SECRET });
    vi.stubEnv('CATARENA_LLM_BASE_URL', playerServer.baseURL);
    shared = await round('builtin:google/scripted-gemini#coder', 'coder', () => [
      createAgent('builtin:google/scripted-gemini#coder', 1),
      createAgent('llm-player:google/scripted-gemini#player', 1),
    ]);
  }, 180_000);
  afterAll(async () => {
    await coderServer.close();
    await playerServer.close();
  });

  it('the round: both bots validated and played both games; the key is nowhere in the run', () => {
    expect(shared.games).toHaveLength(2);
    for (const g of shared.games) expect(g.termination, g.reason).toBe('normal');
    expectNoKey(shared.runDir);
  });

  it('builtin:google writes a bot that validates and plays; tokens (thinking included) are in the cost record', () => {
    const { summary, record, buildLog } = shared;
    expect(record.status, buildLog).toBe('ok');
    expect(record.agentKind).toBe('builtin:google/scripted-gemini');
    expect(coderServer.requests).toHaveLength(3);
    for (const r of coderServer.requests) {
      expect([r.method, r.model, r.apiKey, r.side]).toEqual(['generateContent', 'scripted-gemini', SECRET, false]);
      expect(r.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['write_file', 'test_bot', 'finish']));
      expect(JSON.stringify(r.systemInstruction)).toContain('start_ai.sh');
    }
    // The conversation as the API has it: model turns with functionCall parts, answered by functionResponse parts.
    const last = coderServer.requests.at(-1)!;
    expect(last.contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(toolResults(last).join('\n')).toMatch(/validation: passed/);
    expect(record.cost.tokens).toEqual(coderServer.totalUsage());
    expect(record.cost.tokens.output).toBe(
      coderServer.requests.reduce((s, r) => s + r.usage!.candidatesTokenCount + (r.usage!.thoughtsTokenCount ?? 0), 0),
    );
    expect(record.cost.toolCalls).toBe(5);
    expect(summary.tracks[0]!.cost.coder!.tokens).toEqual(record.cost.tokens);
  });

  it('llm-player:google asks the model for every move (validation and games); the bot counts the tokens the server answered', () => {
    const { runDir } = shared;
    const { record, buildLog } = strategyOf(runDir, 'player');
    expect(record.status, buildLog).toBe('ok');
    expect(record.agentKind).toBe('llm-player:google/scripted-gemini');
    expect(playerServer.requests.length).toBeGreaterThan(4);
    for (const r of playerServer.requests) {
      expect([r.method, r.model, r.apiKey, r.tools]).toEqual(['generateContent', 'scripted-gemini', SECRET, []]);
      expect(r.contents[0]!.role).toBe('user');
      expect(JSON.stringify(r.systemInstruction)).toContain('five');
    }
    // Every bot process logs its totals when stopped: together, what the server answered (thinking
    // tokens as output, cached prompt tokens once, as cache reads), and no fallback to a random move was needed.
    const logs = filesUnder(runDir)
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    const totals = [...logs.matchAll(/^\[llm-player\] totals (\{.*\})$/gm)].map(
      (m) =>
        JSON.parse(m[1]!) as {
          tokens: { input: number; cacheRead: number; output: number };
          llmCalls: number;
          failures: number;
        },
    );
    expect(totals.length).toBeGreaterThan(0);
    expect(totals.reduce((s, t) => s + t.llmCalls, 0)).toBe(playerServer.requests.length);
    expect(playerServer.totalUsage().cacheRead).toBe(320 * (playerServer.requests.length - 1));
    expect(
      totals.reduce(
        (s, t) => ({
          input: s.input + t.tokens.input,
          output: s.output + t.tokens.output,
          cacheRead: s.cacheRead + t.tokens.cacheRead,
        }),
        { input: 0, output: 0, cacheRead: 0 },
      ),
    ).toEqual(playerServer.totalUsage());
    expect(totals.reduce((s, t) => s + t.failures, 0)).toBe(0);
  });

  it("llm-player:google rides out the Gemini API's rough edges: a 429 with RetryInfo only in the body, candidates without parts (SAFETY, MALFORMED_FUNCTION_CALL), a MAX_TOKENS cut; every token answered is counted", async () => {
    const legal = (req: ScriptedRequest) =>
      String(1 + ((req.index * 7919) % Number(/from 1 to (\d+)/.exec(lastUserText(req))?.[1] ?? 1)));
    const usage = { promptTokenCount: 400, candidatesTokenCount: 1 };
    const answer = (req: ScriptedRequest): ScriptTurn => {
      if (req.index === 0) return geminiRateLimit('0.4s');
      if (req.index === 1) return { noParts: true, finishReason: 'SAFETY', usage };
      if (req.index === 2)
        return {
          noParts: true,
          finishReason: 'MALFORMED_FUNCTION_CALL',
          finishMessage: 'Malformed function call: play(',
          usage,
        };
      if (req.index === 3) return { text: legal(req), finishReason: 'MAX_TOKENS', usage };
      return { text: legal(req), usage };
    };
    server = await startScriptedGemini(answer, { apiKey: SECRET });
    vi.stubEnv('GEMINI_API_KEY', SECRET);
    vi.stubEnv('CATARENA_LLM_BASE_URL', server.baseURL);
    const { runDir, summary, record, buildLog, games } = await round(
      'llm-player:google/scripted-gemini#player',
      'player',
    );
    expect(record.status, buildLog).toBe('ok');
    for (const g of games) expect(g.termination, g.reason).toBe('normal');
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(380); // the RetryInfo wait
    const logs = filesUnder(runDir)
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    const totals = [...logs.matchAll(/^\[llm-player\] totals (\{.*\})$/gm)].map(
      (m) =>
        JSON.parse(m[1]!) as {
          tokens: { input: number; output: number };
          llmCalls: number;
          llmErrors: number;
          invalidAnswers: number;
          failures: number;
        },
    );
    expect(totals.reduce((s, t) => s + t.llmCalls, 0)).toBe(server.requests.length);
    // The 429 is the one error; the candidates without parts are answers without a move (re-asked), their prompt tokens billed and counted.
    expect(totals.reduce((s, t) => s + t.llmErrors, 0)).toBe(1);
    expect(totals.reduce((s, t) => s + t.invalidAnswers, 0)).toBe(2);
    expect(
      totals.reduce((s, t) => ({ input: s.input + t.tokens.input, output: s.output + t.tokens.output }), {
        input: 0,
        output: 0,
      }),
    ).toEqual(server.totalUsage());
    // The report's play-time tokens are the server's too (the parts-less candidates' prompts included).
    expect(summary.tracks[0]!.llmPlayers!.player!.play!['1']!.tokens).toMatchObject(server.totalUsage());
    // The first move had its three attempts (429, SAFETY, MALFORMED_FUNCTION_CALL): it fell back, saying why.
    expect(totals.reduce((s, t) => s + t.failures, 0)).toBe(1);
    expect(logs).toMatch(
      /\[llm-player\] fallback .*after 3 attempt\(s\) tokens=\{[^}]*\} stop=http_429,SAFETY,MALFORMED_FUNCTION_CALL: answer "" .*\(finish reason MALFORMED_FUNCTION_CALL: Malformed function call: play\(\)/,
    );
  }, 180_000);
});
