// CLI coding agents. Without Docker: spec parsing, key/model errors, output parsers, quoting.
// With Docker and the agent image (CI builds both): the four CLIs report their versions in the
// image; the agent container reaches the allowed endpoint through the egress proxy and nothing
// else (listeners started here); and Qwen Code, which speaks OpenAI chat completions, completes a
// tourney round against the scripted server: it writes a bot with its own tools, runs it in the
// container, and the bot validates and plays; beside it in the same round, the Qwen Code agents
// through a 429 and a broken stream, and where no attempt can help (each its own server and key).
// Time (with Docker it may pass 30 s): three containers: the four CLIs' --version one after the
// other, the egress checks, and the one shared round of five Qwen Code agents.
// Over 30 s: Docker only: three agent containers with the real CLIs (the four CLIs' --version, the
// egress checks, a shared Qwen Code round of five agents, two at a time).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agents/registry.ts';
import { CLIS, jsonValues, PLACEHOLDER_KEY, shellQuote } from '../agents/cli/clis.ts';
import { agentRuntimeTag } from '../docker/image-tags.ts';
import { cliVersions, loadAgentRecipe } from '../docker/build-agent-image.ts';
import { AgentContainer } from '../sandbox/agent-container.ts';
import { BUILTIN, dockerReady, tempDir } from './helpers/bots.ts';
import { openAiRateLimit, startScriptedLlm, type ScriptedLlm, type ScriptedRequest } from './helpers/scripted-llm.ts';
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

const SECRET = 'sk-cli-secret-789';
let server: ScriptedLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

describe('CLI agent specs', () => {
  it('need their key (named), qwen-code needs a model, and unknown CLIs are refused', () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('CODEX_API_KEY', '');
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    expect(() => createAgent('codex', 1)).toThrow(/CODEX_API_KEY or OPENAI_API_KEY is not set/);
    expect(() => createAgent('claude-code:claude-sonnet-4-5', 1)).toThrow(/ANTHROPIC_API_KEY is not set/);
    vi.stubEnv('OPENAI_API_KEY', SECRET);
    expect(() => createAgent('qwen-code', 1)).toThrow(/qwen-code needs a model/);
    const qwen = createAgent('qwen-code:Qwen/Qwen3-Coder#q1', 1);
    expect([qwen.id, qwen.kind]).toEqual(['q1', 'cli:qwen-code/Qwen/Qwen3-Coder']);
    expect(createAgent('codex:gpt-5-codex', 1).id).toBe('gpt-5-codex');
    expect(createAgent('codex', 1).id).toBe('codex');
    expect(() => createAgent('cursor-agent', 1)).toThrow(/unknown agent.*claude-code\[:<model>\]/);
  });

  it('are pinned at the versions the docs say were run against the scripted servers, and docs/agents.md names', () => {
    const pins = loadAgentRecipe().clis;
    const docs = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'first-real-run.md'), 'utf8');
    const agentsPage = fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'agents.md'), 'utf8');
    for (const [pkg, name, agent] of [
      ['@anthropic-ai/claude-code', 'Claude Code', 'claude-code'],
      ['@openai/codex', 'Codex', 'codex'],
      ['@google/gemini-cli', 'Gemini CLI', 'gemini-cli'],
      ['@qwen-code/qwen-code', 'Qwen Code', 'qwen-code'],
    ] as const) {
      // The row of "How it has been exercised" starts with the CLI and the version checked.
      expect(docs, name).toMatch(new RegExp(`\\n\\| ${name} ${pins[pkg]!.replaceAll('.', '\\.')}[ |]`));
      expect(agentsPage, name).toMatch(new RegExp(`\\| \`${agent}[^\`]*\` \\(${pins[pkg]!.replaceAll('.', '\\.')}\\)`));
    }
  });
});

describe('CLI output parsers', () => {
  it("read Claude Code's result object: tokens with cache, turns, cost, is_error", () => {
    const ok = CLIS['claude-code'].parse(
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        duration_ms: 5100,
        num_turns: 7,
        result: 'Bot written.',
        total_cost_usd: 0.0123,
        usage: { input_tokens: 100, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 40 },
      }),
    );
    expect(ok).toEqual({
      tokens: { input: 100, cacheWrite: 20, cacheRead: 30, output: 40 },
      turns: 7,
      durationMs: 5100,
      summary: 'Bot written.',
      costUsd: 0.0123,
    });
    // An auth failure is exit 1 with subtype success but is_error true (Claude Code 2.1's result object).
    const failed = CLIS['claude-code'].parse(
      '{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key","num_turns":0,"usage":{"input_tokens":0,"output_tokens":0}}',
    );
    expect(failed.error).toMatch(/Invalid API key/);
    expect(CLIS['claude-code'].parse('').error).toBe('no output');
    expect(CLIS['claude-code'].parse('Segmentation fault').error).toMatch(/no result object/);
  });

  it('read Codex JSON lines: usage per turn, tool items, failures', () => {
    const lines = [
      { type: 'thread.started', thread_id: 't1' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'i0', type: 'reasoning', text: 'thinking' } },
      { type: 'item.completed', item: { id: 'i1', type: 'command_execution', command: 'ls', exit_code: 0 } },
      { type: 'item.completed', item: { id: 'i2', type: 'file_change', changes: [] } },
      { type: 'item.completed', item: { id: 'i3', type: 'agent_message', text: 'Done: bot in develop_ai.' } },
      { type: 'turn.completed', usage: { input_tokens: 1200, cached_input_tokens: 200, output_tokens: 300 } },
    ].map((e) => JSON.stringify(e));
    expect(CLIS.codex.parse(['WARNING: some log line', ...lines].join('\n'))).toEqual({
      tokens: { input: 1000, cacheRead: 200, output: 300 },
      turns: 1,
      toolCalls: 2,
      summary: 'Done: bot in develop_ai.',
    });
    expect(
      CLIS.codex.parse(
        [...lines.slice(0, 2), JSON.stringify({ type: 'turn.failed', error: { message: 'stream disconnected' } })].join(
          '\n',
        ),
      ).error,
    ).toBe('stream disconnected');
  });

  it("read Gemini CLI's JSON: tokens and requests per model, tool calls, error", () => {
    const doc = {
      response: 'ok',
      stats: {
        models: {
          'gemini-2.5-pro': { api: { totalRequests: 3 }, tokens: { prompt: 900, candidates: 80, total: 980 } },
          'gemini-2.5-flash': { api: { totalRequests: 1 }, tokens: { prompt: 100, candidates: 20 } },
        },
        tools: { totalCalls: 5 },
      },
    };
    expect(CLIS['gemini-cli'].parse(JSON.stringify(doc, null, 2))).toEqual({
      tokens: { input: 1000, output: 100 },
      turns: 4,
      toolCalls: 5,
      summary: 'ok',
    });
    expect(
      CLIS['gemini-cli'].parse(
        JSON.stringify({ error: { type: 'FatalAuthenticationError', message: 'API key not valid' } }),
      ).error,
    ).toBe('API key not valid');
  });

  it('finds JSON values in documents, arrays and JSON lines', () => {
    expect(jsonValues('[{"a":1},{"b":2}]')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(jsonValues('log\n{"a":1}\n{broken\n{"b":2}')).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('quotes arguments so bash gets them back unchanged', () => {
    const args = ['printf', '%s|', "it's", 'a "task"\nwith $HOME and `x` and \\', '--flag=1', ''];
    expect(execFileSync('bash', ['-c', shellQuote(args)], { encoding: 'utf8' })).toBe(
      `it's|a "task"\nwith $HOME and \`x\` and \\|--flag=1||`,
    );
  });
});

const agentImage = dockerReady() && dockerReady(agentRuntimeTag()) ? agentRuntimeTag() : undefined;

interface Counting {
  port: number;
  connections: number;
  close(): Promise<void>;
}

/** A listener on all interfaces (so the docker bridge could reach it) that counts connections. */
async function forbiddenListener(): Promise<Counting> {
  const c = { connections: 0 } as Counting;
  const s = http.createServer((_q, r) => r.end('secret'));
  s.on('connection', () => c.connections++);
  await new Promise<void>((r) => s.listen(0, '0.0.0.0', r));
  c.port = (s.address() as AddressInfo).port;
  c.close = () =>
    new Promise<void>((r) => {
      s.closeAllConnections();
      s.close(() => r());
    });
  return c;
}

describe.skipIf(!agentImage)('CLI agents in the agent container', () => {
  it('every CLI in the image starts and reports the pinned version', async () => {
    const versions = await cliVersions(agentImage!);
    const pins = loadAgentRecipe().clis;
    expect(versions.claude).toContain(pins['@anthropic-ai/claude-code']);
    expect(versions.codex).toContain(pins['@openai/codex']);
    expect(versions.gemini).toContain(pins['@google/gemini-cli']);
    expect(versions.qwen).toContain(pins['@qwen-code/qwen-code']);
  }, 240_000);

  it('reaches the allowed endpoint through the proxy, with the key added outside, and nothing else', async () => {
    server = await startScriptedLlm([{ text: 'pong' }], { key: SECRET });
    const forbidden = await forbiddenListener();
    const ws = tempDir();
    const container = await AgentContainer.start({
      image: agentImage!,
      workspace: ws,
      egress: { upstream: server.baseURL, headers: { authorization: `Bearer ${SECRET}` } },
      env: { OPENAI_API_KEY: PLACEHOLDER_KEY },
    });
    try {
      const q = (cmd: string) => container.exec(cmd, { timeoutMs: 30_000 });
      // The endpoint, through the proxy; the placeholder key is replaced on the host.
      const chat = await q(
        `curl -s -m 10 -H "authorization: Bearer $OPENAI_API_KEY" -H 'content-type: application/json' -d '{"model":"m","messages":[{"role":"user","content":"ping"}]}' http://127.0.0.1:3128/v1/chat/completions`,
      );
      expect(JSON.parse(chat.stdout).choices[0].message.content).toBe('pong');
      expect(server.requests[0]!.authorization).toBe(`Bearer ${SECRET}`);
      // Another host service, by every route: through the proxy (plain and CONNECT) it is refused;
      // directly (no proxy) there is no network to reach it on.
      const gateway = `172.17.0.1:${forbidden.port}`;
      const viaProxy = await q(
        `curl -s -m 10 -o /dev/null -w '%{http_code}' -x http://127.0.0.1:3128 http://${gateway}/`,
      );
      expect(viaProxy.stdout).toBe('403');
      const tunnel = await q(
        `curl -s -m 10 -o /dev/null -w '%{http_connect}' -x http://127.0.0.1:3128 -p http://${gateway}/`,
      );
      expect(tunnel.stdout).toBe('403');
      const direct = await q(`curl -s -m 5 --noproxy '*' http://${gateway}/; echo "exit=$?"`);
      expect(direct.stdout).toMatch(/exit=(7|28)/); // cannot connect / timed out
      const loopback = await q(`curl -s -m 5 --noproxy '*' http://127.0.0.1:${forbidden.port}/; echo "exit=$?"`);
      expect(loopback.stdout).toMatch(/exit=7/); // the container's own loopback, not the host's
      expect(forbidden.connections).toBe(0);
      // The container holds no key: not in its environment, not in the image's.
      const env = await q('cat /proc/1/environ | tr "\\0" "\\n"; env');
      expect(env.stdout).not.toContain(SECRET);
      expect(container.egress!.counts()).toEqual({ allowed: 1, denied: 2 });
      // Commands are killed with everything they started.
      const slow = await container.exec('sleep 60 & sleep 60', { timeoutMs: 500 });
      expect(slow.timedOut).toBe(true);
      const left = await q(
        'for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done | grep -c "^sleep 60"',
      );
      expect(left.stdout.trim()).toBe('0');
    } finally {
      await container.close();
      await forbidden.close();
    }
  }, 120_000);
});

const write = (file: string) => ({
  name: 'write_file',
  args: {
    file_path: `/workspace/develop_ai/${file}`,
    content: fs.readFileSync(path.join(BUILTIN('random'), file), 'utf8'),
  },
});
// Qwen Code's main conversation carries its tools; side requests (e.g. a next-speaker or summary
// check) have none and get a plain answer. Its history opens with an assistant acknowledgement of
// the context, so the step is the number of tool-calling turns so far.
const isMain = (req: ScriptedRequest) => req.tools.some((t) => t.function.name === 'write_file');
const step = (req: ScriptedRequest) =>
  req.messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
const SIDE_ANSWER = { text: '{"next_speaker":"user","reasoning":"done"}' };

/** The agent that completes its round: writes the bot, starts it and checks /health, and stops. */
function completingScript(): Parameters<typeof startScriptedLlm>[0] {
  const turns = [
    { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
    {
      toolCalls: [
        {
          name: 'run_shell_command',
          args: {
            command:
              'cd /workspace/develop_ai && (bash start_ai.sh 18123 > /tmp/bot.log 2>&1 &) ; for i in $(seq 100); do curl -s localhost:18123/health && break; sleep 0.2; done',
            description: 'start the bot and check /health',
          },
        },
      ],
    },
    { text: 'The bot is in /workspace/develop_ai and answers /health.' },
  ];
  return (req) => (isMain(req) ? turns[step(req)] : SIDE_ANSWER);
}

/** The agent through OpenAI's 429 (retry-after, x-ratelimit-* headers) and an answer broken mid-stream. */
function troubledScript(): Parameters<typeof startScriptedLlm>[0] {
  const turns = [
    { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
    { text: 'The bot is in /workspace/develop_ai.' },
  ];
  let n = 0;
  return (req) => {
    if (!isMain(req)) return SIDE_ANSWER;
    n++;
    if (n === 1) return openAiRateLimit(1);
    if (n === 2) return { ...turns[0]!, breakMidway: true };
    return turns[step(req)];
  };
}

// The pinned Qwen Code where another attempt cannot help, as OpenAI answers: a refused key (401
// invalid_api_key), no quota (429 insufficient_quota, "You exceeded your current quota…") and a
// prompt too long (400 context_length_exceeded). One attempt each, named; the wall time is printed.
const FINAL_CASES: Array<
  [id: string, what: string, reason: string, script: Parameters<typeof startScriptedLlm>[0] | 'wrong-key']
> = [
  ['refused', 'a refused key', 'auth', 'wrong-key'],
  [
    'noquota',
    'no quota',
    'billing',
    () => ({
      httpError: 429,
      message:
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    }),
  ],
  [
    'toolong',
    'a prompt too long',
    'context_length',
    () => ({
      httpError: 400,
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
    }),
  ],
];

// One round holds every Qwen Code agent of this file, each against its own scripted server with its
// own key (a per-agent endpoint, as a run's agents: entries give): they develop side by side, so
// Qwen Code's start-ups and its retry waits are paid once instead of once per test (five rounds
// before). Each test reads its own agent's record, build log, games and server.
describe.skipIf(!agentImage)('Qwen Code in the agent container', () => {
  const servers = new Map<string, ScriptedLlm>();
  let round: SharedRound;
  beforeAll(async () => {
    servers.set('qwen', await startScriptedLlm(completingScript(), { key: SECRET }));
    servers.set('troubled', await startScriptedLlm(troubledScript(), { key: SECRET }));
    for (const [id, , , script] of FINAL_CASES)
      servers.set(
        id,
        await startScriptedLlm(script === 'wrong-key' ? () => ({ text: 'never reached' }) : script, { key: SECRET }),
      );
    const key = (id: string) =>
      FINAL_CASES.find((c) => c[0] === id)?.[3] === 'wrong-key' ? 'sk-cli-wrong-000' : SECRET;
    // Two at a time: Qwen Code starts as a CPU-heavy Node program, and five at once on two loaded
    // cores ran out of their develop budget where one after another did not.
    round = await agentsRound(
      [...servers].map(([id, s]) => ({
        spec: `qwen-code:gpt-5-scripted#${id}`,
        endpoint: ownEndpoint(id, key(id), s.baseURL),
      })),
      { developConcurrency: 2 },
    );
  }, 900_000);
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  it('Qwen Code on a GPT-5-named model completes a tourney round against the scripted server (which refuses max_tokens for it, as OpenAI does): its bot validates and plays', () => {
    const server = servers.get('qwen')!;
    const { runDir, summary, strategies } = round;
    const { record, buildLog, games } = round.of('qwen');
    expect(record.status, buildLog).toBe('ok');
    expect(record.agentKind).toBe('cli:qwen-code/gpt-5-scripted');
    // Its settings.json (samplingParams max_completion_tokens) kept max_tokens out of every request
    // (Qwen Code 0.24 sends max_tokens with an empty samplingParams, which the server refuses here).
    expect(server.requests.filter((r) => 'max_tokens' in r.body)).toEqual([]);
    expect(server.requests.every((r) => Number(r.body.max_completion_tokens) > 0)).toBe(true);
    // Its web tools are excluded (settings tools.exclude): no request offered web_fetch or web_search.
    expect(
      server.requests.flatMap((r) => r.tools.map((t) => t.function.name)).filter((n) => /web_(fetch|search)/.test(n)),
    ).toEqual([]);
    expect(server.requests.some((r) => r.tools.some((t) => t.function.name === 'write_file'))).toBe(true);
    // The model's tool calls ran in the container: the files it wrote, and the command's output went back to it.
    expect(fs.readFileSync(path.join(strategies, 'qwen', 'bot.mjs'), 'utf8')).toBe(
      fs.readFileSync(path.join(BUILTIN('random'), 'bot.mjs'), 'utf8'),
    );
    const last = server.requests.filter((r) => r.tools.length && step(r) === 2).at(-1)!;
    expect(JSON.stringify(last.messages.at(-1))).toMatch(/status/);
    // Cost: Qwen Code's own token report, parsed from its JSON output, equals what the server answered.
    expect(record.cost.tokens).toEqual(server.totalUsage());
    expect(record.cost.toolCalls).toBe(4);
    // What the evolution report reads from its JSON messages: the three writes first, then the bot started.
    const reads = evolutionReads(runDir, 'qwen');
    expect(reads.source).toBe('Qwen Code JSON output (1 attempt)');
    expect(reads.firstWrite).toBe(1);
    expect(reads.uses).toEqual(
      expect.arrayContaining([
        'write develop_ai/start_ai.sh',
        'write develop_ai/bot.mjs',
        'write develop_ai/bot-http.mjs',
        'run develop_ai/start_ai.sh',
      ]),
    );
    // Everything reached the endpoint; what was refused (Qwen Code's telemetry) was not the endpoint.
    expect(buildLog).toMatch(/egress: [1-9]\d* requests to the endpoint/);
    expect(/egress: .*refused(.*)/.exec(buildLog)![1]).not.toContain('127.0.0.1');
    expectPlayedNormally(games);
    expect(summary.tracks[0]!.cost.qwen!.tokens).toEqual(record.cost.tokens);
  });

  it("Qwen Code rides out OpenAI's 429 (retry-after, x-ratelimit-* headers) and an answer broken mid-stream", () => {
    const server = servers.get('troubled')!;
    const { record, buildLog, games } = round.of('troubled');
    const mainRequests = server.requests.filter(isMain);
    expect(record.status, buildLog).toBe('ok');
    // Its OpenAI client waited the retry-after (1 s) itself, and Qwen Code 0.24.4 retries the broken
    // stream itself too (0.15.10 ended the run with "[API Error: terminated (cause: other side
    // closed)]", a server error the agent's next attempt recovered from): one attempt.
    expect(
      mainRequests.map(
        (r) =>
          r.turn &&
          ('httpError' in r.turn ? r.turn.httpError : 'breakMidway' in r.turn && r.turn.breakMidway ? 'broken' : 'ok'),
      ),
    ).toEqual([429, 'broken', 'ok', 'ok']);
    expect(mainRequests[1]!.at - mainRequests[0]!.at).toBeGreaterThanOrEqual(950);
    expect(buildLog).toMatch(/attempt 1 succeeded/);
    expect(record.cost.tokens).toEqual(server.totalUsage());
    expectPlayedNormally(games);
  });

  for (const [id, what, reason, script] of FINAL_CASES)
    it(`Qwen Code, ${what}: ${attemptsWord(reason)}, named ${reason}`, () => {
      const server = servers.get(id)!;
      const seconds = expectFinalFailure(round.of(id), reason);
      if (script === 'wrong-key') expect(server.requests).toEqual([]);
      console.log(
        `qwen-code, ${what}: stopped after ${seconds.toFixed(0)} s, ${server.requests.length} scripted requests`,
      );
    });

  it('leaves no key in any file of the run', () => {
    expectSecretNowhere(round.runDir, SECRET);
  });
});
