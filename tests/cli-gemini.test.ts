// Gemini CLI writes a bot. With Docker and the agent image (CI builds both): Gemini CLI, in its
// agent container, completes a tourney round against the scripted Gemini API server
// (tests/helpers/scripted-gemini.ts): with its own tools it writes the sample bot's three files,
// starts the bot and checks /health, and the bot validates and plays. Without Docker: its JSON
// output (stats with thinking tokens; a fatal error on stderr) is read as it prints it.
// Time (with Docker it may pass 30 s): the five Gemini CLI agents share one round, but the rough
// edges' agent waits Gemini CLI's own backoff, which no setting shortens: at least its 5 s initial
// delay after a 429 (whatever RetryInfo asks), about 5 s after the broken stream, 1 s after the
// candidate without parts (its bundle's retryWithBackoff and MID_STREAM_RETRY_OPTIONS, 0.61.0).
// Over 30 s: Gemini CLI's own backoff cannot be set: it waits at least 5 s after any 429 and after a
// broken stream, whatever RetryInfo asks (its retryWithBackoff, 0.61.0).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIS } from '../agents/cli/clis.ts';
import { agentRuntimeTag } from '../docker/image-tags.ts';
import { loadAgentRecipe } from '../docker/build-agent-image.ts';
import { BUILTIN, dockerReady } from './helpers/bots.ts';
import {
  geminiNoBilling,
  geminiRateLimit,
  startScriptedGemini,
  stepOf,
  toolResults,
  type ScriptedGemini,
  type ScriptedRequest,
  type ScriptTurn,
} from './helpers/scripted-gemini.ts';
import {
  agentsRound,
  evolutionReads,
  attemptsWord,
  expectFinalFailure,
  expectPlayedNormally,
  expectSecretNowhere,
  ownEndpoint,
  type SharedRound,
} from './helpers/agent-round.ts';

const SECRET = 'AIza-gemini-cli-secret-4711';

describe("Gemini CLI's output", () => {
  it('counts thinking tokens as output, and reads a fatal error printed on stderr', () => {
    const parse = CLIS['gemini-cli'].parse as (
      stdout: string,
      stderr?: string,
    ) => ReturnType<(typeof CLIS)['gemini-cli']['parse']>;
    // The shape 0.61.0 prints (trimmed): per model, prompt/candidates/thoughts sums of usageMetadata.
    const doc = {
      session_id: 's',
      response: 'done',
      stats: {
        models: {
          'gemini-x': {
            api: { totalRequests: 3 },
            tokens: { input: 900, prompt: 900, candidates: 80, total: 1000, cached: 0, thoughts: 20, tool: 0 },
          },
        },
        tools: { totalCalls: 4 },
      },
    };
    expect(parse(JSON.stringify(doc, null, 2))).toEqual({
      tokens: { input: 900, output: 100 },
      turns: 3,
      toolCalls: 4,
      summary: 'done',
    });
    const stderr = [
      'YOLO mode is enabled. All tool calls will be automatically approved.',
      JSON.stringify(
        {
          session_id: 's',
          error: { type: 'FatalTurnLimitedError', message: 'Reached max session turns for this session.', code: 53 },
        },
        null,
        2,
      ),
      '[ERROR] {',
    ].join('\n');
    expect(parse('', stderr).error).toBe('Reached max session turns for this session.');
    expect(parse('', 'Segmentation fault').error).toBe('no output');
  });

  it('is asked for as stream-json, and its result line read: output = total − input (thinking included), the error of a failed run', () => {
    const parse = CLIS['gemini-cli'].parse as (
      stdout: string,
      stderr?: string,
    ) => ReturnType<(typeof CLIS)['gemini-cli']['parse']>;
    expect(
      CLIS['gemini-cli'].argv({ prompt: 'p', maxTurns: 5, home: '/h', workspace: '/workspace', baseUrl: 'http://x' }),
    ).toEqual(['gemini', '-p', 'p', '-o', 'stream-json', '--yolo', '--skip-trust']);
    // Recorded from 0.61.0 (tests/fixtures/transcripts): 7 tool calls.
    const [stdout, stderr] = fs
      .readFileSync(path.resolve(import.meta.dirname, 'fixtures/transcripts/gemini-cli.txt'), 'utf8')
      .split('\n--- stderr ---\n');
    expect(parse(stdout!, stderr)).toEqual({
      tokens: { input: 98531, output: 279 },
      toolCalls: 7,
      summary: 'Done: develop_ai holds the bot.',
      durationMs: 1873,
    });
    // 0.61.0 against the scripted API with thinking tokens (2200 in; 60 candidates + 35 thoughts out), and at its turn limit.
    const thinking = [
      { type: 'message', role: 'assistant', content: 'do', delta: true },
      { type: 'message', role: 'assistant', content: 'ne', delta: true },
      {
        type: 'result',
        status: 'success',
        stats: {
          total_tokens: 2295,
          input_tokens: 2200,
          output_tokens: 60,
          cached: 0,
          input: 2200,
          duration_ms: 488,
          tool_calls: 1,
        },
      },
    ];
    expect(parse(thinking.map((e) => JSON.stringify(e)).join('\n'))).toEqual({
      tokens: { input: 2200, output: 95 },
      toolCalls: 1,
      summary: 'done',
      durationMs: 488,
    });
    // With cached prompt tokens (input_tokens includes them, `cached` is their sum): counted once, as cache reads.
    const cached = {
      type: 'result',
      status: 'success',
      stats: { total_tokens: 12555, input_tokens: 12500, output_tokens: 15, cached: 11000, input: 1500, tool_calls: 0 },
    };
    expect(parse(JSON.stringify(cached)).tokens).toEqual({ input: 1500, cacheRead: 11000, output: 55 });
    const limit = {
      type: 'result',
      status: 'error',
      error: { type: 'FatalTurnLimitedError', message: 'Reached max session turns for this session.' },
      stats: { total_tokens: 1080, input_tokens: 1000, output_tokens: 50, tool_calls: 1, duration_ms: 0 },
    };
    expect(parse(JSON.stringify(limit)).error).toBe('Reached max session turns for this session.');
  });
});

const agentImage = dockerReady() && dockerReady(agentRuntimeTag()) ? agentRuntimeTag() : undefined;

const write = (file: string) => ({
  name: 'write_file',
  args: {
    file_path: `/workspace/develop_ai/${file}`,
    content: fs.readFileSync(path.join(BUILTIN('random'), file), 'utf8'),
  },
});
/** The main conversation carries Gemini CLI's tools (write_file among them); side requests do not. */
const main = (req: ScriptedRequest) => req.tools.some((t) => t.name === 'write_file');

/**
 * The script of the agent that completes its round: the step is the number of tool-calling model
 * turns so far. The last answer thinks first: its thinking tokens are output in the cost.
 */
function completingScript(): (req: ScriptedRequest) => ScriptTurn | undefined {
  const turns: ScriptTurn[] = [
    { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
    {
      toolCalls: [
        {
          name: 'run_shell_command',
          args: {
            command:
              'cd /workspace/develop_ai && (bash start_ai.sh 18123 > /tmp/bot.log 2>&1 &) ; for i in $(seq 100); do curl -s localhost:18123/health && break; sleep 0.2; done',
            description: 'Start the bot and check /health.',
          },
        },
      ],
    },
    {
      text: 'The bot is in /workspace/develop_ai and answers /health.',
      thought: 'The bot answered /health: the task is done.',
      // Most of the prompt read from the cache (implicit caching): counted once, as cache reads.
      usage: {
        promptTokenCount: 12_500,
        cachedContentTokenCount: 11_000,
        candidatesTokenCount: 15,
        thoughtsTokenCount: 40,
      },
    },
  ];
  return (req) => (main(req) ? turns[stepOf(req)] : { text: 'ok' });
}

/**
 * The script of the agent that meets the API's rough edges, each on its own request so Gemini CLI
 * rides each out once: a 429 whose wait is only in RetryInfo (on the first request), an answer
 * broken mid-stream and a candidate without parts (on the second turn's request; apart from the
 * 429, so the broken stream's backoff starts afresh: about 5 s, not the doubled 10 s).
 */
function roughScript(): (req: ScriptedRequest) => ScriptTurn | undefined {
  const turns: ScriptTurn[] = [
    { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
    { text: 'The bot is in /workspace/develop_ai.' },
  ];
  let n = 0;
  return (req) => {
    if (!main(req)) return { text: 'ok' };
    n++;
    if (n === 1) return geminiRateLimit('1.5s');
    if (n === 3) return { ...turns[1]!, breakMidway: true };
    if (n === 4)
      return {
        noParts: true,
        finishReason: 'MALFORMED_FUNCTION_CALL',
        finishMessage: 'Malformed function call: write_file(',
      };
    return turns[stepOf(req)];
  };
}

// The pinned Gemini CLI where another attempt cannot help, as the Gemini API answers: a refused key
// (400 INVALID_ARGUMENT "API key not valid", ErrorInfo reason API_KEY_INVALID: the strict server's
// own check) and a prompt too long (400 "The input token count (…) exceeds the maximum number of
// tokens allowed (…)") and a project without billing (429 RESOURCE_EXHAUSTED, every free-tier
// quota at limit 0: tests/helpers/scripted-gemini.ts geminiNoBilling). One attempt each, named.
const FINAL_CASES: Array<[id: string, what: string, reason: string, turn: ScriptTurn | 'wrong-key']> = [
  ['refused', 'a refused key', 'auth', 'wrong-key'],
  // A project without billing on a model with no free tier: a 429 whose quotas are all limit 0.
  ['nobilling', 'no billing', 'billing', geminiNoBilling('scripted-gemini')],
  [
    'toolong',
    'a prompt too long',
    'context_length',
    {
      httpError: 400,
      status: 'INVALID_ARGUMENT',
      message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
    },
  ],
];

// One round holds every Gemini CLI agent of this file, each against its own scripted server with
// its own key (a per-agent endpoint, as a run's agents: entries give): they develop side by side,
// so the CLI's start-ups and its retry waits are paid once instead of once per test (five rounds
// before). Each test reads its own agent's record, build log, games and server.
describe.skipIf(!agentImage)('Gemini CLI in the agent container', () => {
  const servers = new Map<string, ScriptedGemini>();
  let round: SharedRound;
  beforeAll(async () => {
    servers.set('gemini', await startScriptedGemini(completingScript(), { apiKey: SECRET }));
    servers.set('rough', await startScriptedGemini(roughScript(), { apiKey: SECRET }));
    for (const [id, , , turn] of FINAL_CASES)
      servers.set(
        id,
        await startScriptedGemini(() => (turn === 'wrong-key' ? { text: 'never reached' } : turn), { apiKey: SECRET }),
      );
    const key = (id: string) =>
      FINAL_CASES.find((c) => c[0] === id)?.[3] === 'wrong-key' ? 'AIza-wrong-key-0000' : SECRET;
    // All five at once: their waits (Gemini CLI's backoff, its slow failures) overlap. Back to back
    // at load ~30: tests 222 s (five rounds) -> 167 s; two at a time measured 227 s.
    round = await agentsRound(
      [...servers].map(([id, s]) => ({
        spec: `gemini-cli:scripted-gemini#${id}`,
        endpoint: ownEndpoint(id, key(id), s.rootURL),
      })),
    );
  }, 900_000);
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  it('completes a tourney round against the scripted Gemini API: its bot validates and plays', () => {
    const server = servers.get('gemini')!;
    const { runDir, summary, strategies } = round;
    const { record, buildLog, games } = round.of('gemini');
    expect(record.status, buildLog).toBe('ok');
    expect(record.agentKind).toBe('cli:gemini-cli/scripted-gemini');
    // Its web tools are excluded by default (settings tools.exclude): never offered to the model.
    const offered = new Set(server.requests.flatMap((r) => r.tools.map((t) => t.name)));
    expect(offered.has('write_file')).toBe(true);
    expect([...offered].filter((n) => /google_web_search|web_fetch/.test(n))).toEqual([]);
    // The model's tool calls ran in the container: the files it wrote, and the command's output went back to it.
    for (const f of ['start_ai.sh', 'bot.mjs', 'bot-http.mjs'])
      expect(fs.readFileSync(path.join(strategies, 'gemini', f), 'utf8')).toBe(
        fs.readFileSync(path.join(BUILTIN('random'), f), 'utf8'),
      );
    const mainRequests = server.requests.filter(main);
    expect(mainRequests.map(stepOf)).toEqual([0, 1, 2]);
    expect(toolResults(mainRequests[2]!).join('\n')).toMatch(/healthy/);
    // What Gemini CLI sent: streamed generateContent (SSE) for the named model, the real key (the
    // proxy replaced the placeholder), no installation id (usage statistics are off), no side calls.
    for (const r of server.requests) {
      expect([r.method, r.sse, r.model, r.apiKey, r.side]).toEqual([
        'streamGenerateContent',
        true,
        'scripted-gemini',
        SECRET,
        false,
      ]);
      expect(r.headers['x-gemini-api-privileged-user-id']).toBeUndefined();
      expect(r.headers['user-agent']).toMatch(/^GeminiCLI/);
      expect(r.headers['user-agent']).toContain(`/${loadAgentRecipe().clis['@google/gemini-cli']}/scripted-gemini `);
    }
    // Cost: Gemini CLI's own token report (its stats), parsed from its JSON output, equals what the
    // server answered, thinking tokens counted as output, cached prompt tokens once (as cache reads).
    expect(server.totalUsage().cacheRead).toBe(11_000);
    expect(record.cost.tokens).toEqual(server.totalUsage());
    expect(record.cost.tokens!.output).toBeGreaterThan(
      server.requests.reduce((s, r) => s + (r.usage?.candidatesTokenCount ?? 0), 0),
    );
    expect(record.cost.toolCalls).toBe(4);
    // What the evolution report reads from its stream-json: the three writes first, then the bot started.
    const reads = evolutionReads(runDir, 'gemini');
    expect(reads.source).toBe('Gemini CLI stream-json output (1 attempt)');
    expect(reads.firstWrite).toBe(1);
    expect(reads.uses).toEqual(
      expect.arrayContaining([
        'write develop_ai/start_ai.sh',
        'write develop_ai/bot.mjs',
        'write develop_ai/bot-http.mjs',
        'run develop_ai/start_ai.sh',
      ]),
    );
    // Every request went to the endpoint; nothing else was tried (no usage statistics, no update check).
    expect(buildLog).toMatch(/egress: [1-9]\d* requests to the endpoint, 0 refused/);
    expectPlayedNormally(games);
    expect(summary.tracks[0]!.cost.gemini!.tokens).toEqual(record.cost.tokens);
  });

  it("rides out the Gemini API's rough edges: a 429 with its wait only in RetryInfo, an answer broken mid-stream, a candidate without parts; signed calls echoed", () => {
    const server = servers.get('rough')!;
    const { record, buildLog, games } = round.of('rough');
    const mainRequests = server.requests.filter(main);
    expect(record.status, buildLog).toBe('ok');
    // Gemini CLI retried all three itself, within one attempt: the RetryInfo wait was waited (no
    // header carried it; it waits at least its own 5 s backoff for the 1.5 s asked), then ~5 s after
    // the broken stream (its network-error backoff), then ~1 s after the candidate without parts.
    expect(buildLog).toMatch(/attempt 1 succeeded/);
    expect(
      mainRequests.map(
        (r) =>
          r.turn &&
          ('httpError' in r.turn
            ? r.turn.httpError
            : 'noParts' in r.turn
              ? r.turn.finishReason
              : r.turn.breakMidway
                ? 'broken'
                : 'ok'),
      ),
    ).toEqual([429, 'ok', 'broken', 'MALFORMED_FUNCTION_CALL', 'ok']);
    expect(mainRequests[1]!.at - mainRequests[0]!.at).toBeGreaterThanOrEqual(1_400);
    // The tool-calling turn came back with the signature its function call was given (else a 400).
    const replay = mainRequests
      .at(-1)!
      .contents.find((c) => c.role === 'model' && c.parts.some((p) => 'functionCall' in p))!;
    expect(replay.parts.find((p) => 'functionCall' in p)).toHaveProperty('thoughtSignature');
    expect(record.cost.tokens).toEqual(server.totalUsage());
    expectPlayedNormally(games);
  });

  for (const [id, what, reason, turn] of FINAL_CASES)
    it(`${what}: ${attemptsWord(reason)}, named ${reason}`, () => {
      const seconds = expectFinalFailure(round.of(id), reason);
      if (turn === 'wrong-key') expect(servers.get(id)!.requests.every((r) => r.apiKey !== SECRET)).toBe(true);
      console.log(
        `gemini-cli, ${what}: stopped after ${seconds.toFixed(0)} s, ${servers.get(id)!.requests.length} requests`,
      );
    });

  it('leaves no key in any file of the run', () => {
    expectSecretNowhere(round.runDir, SECRET);
  });
});
