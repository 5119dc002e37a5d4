// Claude Code, driven to a bot. Without Docker: its result object is read for cost, subagents
// included. With Docker and the agent image: the pinned Claude Code completes a tourney round in
// its agent container against the scripted Anthropic server (tests/helpers/scripted-anthropic.ts),
// through the egress proxy: it writes the bot with its own Write tool, starts it and checks /health
// with its Bash tool, has a subagent (its Agent tool) look at it, and stops; the bot validates and
// plays, the cost record holds the tokens the server answered, and the key is nowhere in the run.
// Over 30 s: Docker only: real Claude Code in its containers, two agents at a time (its start-up is
// CPU-heavy), five agents in one round.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIS, PLACEHOLDER_KEY, qwenSamplingParams } from '../agents/cli/clis.ts';
import { loadAgentRecipe } from '../docker/build-agent-image.ts';
import { agentRuntimeTag } from '../docker/image-tags.ts';
import { startEgressProxy } from '../sandbox/egress-proxy.ts';
import { BUILTIN, dockerReady, tempDir } from './helpers/bots.ts';
import {
  lastUserText,
  startScriptedAnthropic,
  stepOf,
  toolResults,
  type ScriptedAnthropic,
  type ScriptedRequest,
  type ScriptTurn,
} from './helpers/scripted-anthropic.ts';
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

const SECRET = 'sk-ant-claude-code-secret-314';

describe("Claude Code's result object", () => {
  it("counts the tokens of every model call (modelUsage: subagents included), else the main loop's usage", () => {
    // Claude Code 2.1.197 as observed against the scripted server: `usage` covers the main loop
    // only (37768 + 58), `modelUsage` every request, a subagent's included (38768 + 50 cache reads, 65);
    // each kind is kept apart (agents/core/prices.ts), so a cached token is counted once.
    const result = {
      type: 'result',
      subtype: 'success',
      is_error: false,
      duration_ms: 401,
      num_turns: 2,
      result: 'Done.',
      total_cost_usd: 0.19549,
      usage: { input_tokens: 37768, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 58 },
      modelUsage: {
        'scripted-model': {
          inputTokens: 38768,
          outputTokens: 65,
          cacheReadInputTokens: 50,
          cacheCreationInputTokens: 0,
          costUSD: 0.19549,
        },
      },
    };
    expect(CLIS['claude-code'].parse(JSON.stringify(result))).toEqual({
      tokens: { input: 38768, cacheRead: 50, output: 65 },
      turns: 2,
      durationMs: 401,
      summary: 'Done.',
      costUsd: 0.19549,
    });
    const twoModels = {
      ...result,
      modelUsage: {
        ...result.modelUsage,
        'claude-haiku-4-5': {
          inputTokens: 100,
          outputTokens: 5,
          cacheReadInputTokens: 0,
          cacheCreationInputTokens: 20,
        },
      },
    };
    expect(CLIS['claude-code'].parse(JSON.stringify(twoModels)).tokens).toEqual({
      input: 38868,
      cacheRead: 50,
      cacheWrite: 20,
      output: 70,
    });
    const { modelUsage: _, ...older } = result;
    expect(CLIS['claude-code'].parse(JSON.stringify(older)).tokens).toEqual({ input: 37768, output: 58 });
  });
});

describe("Claude Code's stream-json output", () => {
  it('is asked for (with --verbose, which -p needs for it) and read: the result object for cost, tool_use blocks for tool calls', () => {
    const argv = CLIS['claude-code'].argv({
      prompt: 'p',
      maxTurns: 5,
      home: '/home/agent',
      workspace: '/workspace',
      baseUrl: 'http://x',
    });
    expect(argv.slice(argv.indexOf('--output-format'), argv.indexOf('--output-format') + 3)).toEqual([
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
    // Recorded from 2.1.197 (tests/fixtures/transcripts): 7 tool calls (one Write refused), 8 turns.
    const [stdout, stderr] = fs
      .readFileSync(path.resolve(import.meta.dirname, 'fixtures/transcripts/claude-code.txt'), 'utf8')
      .split('\n--- stderr ---\n');
    expect(CLIS['claude-code'].parse(stdout!, stderr)).toEqual({
      tokens: { input: 144290, output: 380 },
      turns: 8,
      durationMs: 1220,
      summary: 'Done: develop_ai holds the bot.',
      toolCalls: 7,
      costUsd: 0.7309500000000001,
    });
  });
});

describe("Claude Code's environment", () => {
  it('gets the proxy as its base URL without /v1 (it adds /v1/messages), a placeholder key, and no non-essential traffic', () => {
    const o = { prompt: 'p', maxTurns: 5, home: '/home/agent', workspace: '/workspace' };
    for (const baseUrl of ['http://127.0.0.1:3128', 'http://127.0.0.1:3128/v1', 'http://127.0.0.1:3128/v1/']) {
      expect(CLIS['claude-code'].env({ ...o, baseUrl }).ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:3128');
    }
    expect(CLIS['claude-code'].env({ ...o, baseUrl: 'http://127.0.0.1:3128/anthropic' })).toMatchObject({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:3128/anthropic',
      ANTHROPIC_API_KEY: PLACEHOLDER_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    });
  });
});

describe('web tools, off by default', () => {
  it('Claude Code is started with --disallowedTools WebSearch,WebFetch, Gemini CLI with tools.exclude; webTools opts in', () => {
    const o = {
      prompt: 'p',
      maxTurns: 5,
      home: '/home/agent',
      workspace: '/workspace',
      baseUrl: 'http://127.0.0.1:3128',
    };
    expect(CLIS['claude-code'].argv(o).join(' ')).toContain('--disallowedTools WebSearch,WebFetch');
    expect(CLIS['claude-code'].argv({ ...o, webTools: true })).not.toContain('--disallowedTools');
    expect(CLIS['gemini-cli'].prepare!(o)).toContain('"tools":{"exclude":["google_web_search","web_fetch"]}');
    expect(CLIS['gemini-cli'].prepare!({ ...o, webTools: true })).not.toContain('google_web_search');
  });

  it('Codex gets web_search = "disabled" in its config.toml, Qwen Code tools.exclude in its settings.json; webTools opts in', () => {
    const o = {
      prompt: 'p',
      maxTurns: 5,
      home: tempDir(),
      workspace: '/workspace',
      baseUrl: 'http://127.0.0.1:3128/v1',
      model: 'm',
    };
    const written = (cli: 'codex' | 'qwen-code', file: string, webTools: boolean) => {
      const home = tempDir();
      execFileSync('bash', ['-c', CLIS[cli].prepare!({ ...o, home, webTools })]);
      return fs.readFileSync(path.join(home, file), 'utf8');
    };
    // A root key, before the first table (TOML puts every later key in the table above it).
    expect(written('codex', '.codex/config.toml', false)).toMatch(
      /^web_search = "disabled"\nmodel_provider = "catarena"\n/,
    );
    expect(written('codex', '.codex/config.toml', true)).not.toContain('web_search');
    // Qwen Code 0.24: no background memory calls, update checks or statistics; its default
    // max_tokens for a model OpenAI does not refuse it for.
    const quiet = {
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
    };
    expect(JSON.parse(written('qwen-code', '.qwen/settings.json', false))).toEqual({
      ...quiet,
      tools: { exclude: ['web_fetch', 'web_search'] },
    });
    expect(JSON.parse(written('qwen-code', '.qwen/settings.json', true))).toEqual(quiet);
  });

  it('Qwen Code asks an OpenAI reasoning model for max_completion_tokens (it refuses max_tokens), other models for nothing', () => {
    expect(qwenSamplingParams('gpt-5.5')).toEqual({ max_completion_tokens: 128_000 });
    expect(qwenSamplingParams('o3')).toEqual({ max_completion_tokens: expect.any(Number) });
    expect(qwenSamplingParams('gpt-5.9-preview')).toEqual({ max_completion_tokens: 128_000 });
    expect(qwenSamplingParams('gpt-4.1')).toBeUndefined();
    expect(qwenSamplingParams('qwen3-coder-plus')).toBeUndefined();
  });
});

describe("the egress proxy and Claude Code's refused tunnels", () => {
  it("survives clients that reset right after their 403 (Claude Code's CONNECT to api.anthropic.com does)", async () => {
    const proxy = await startEgressProxy({ allow: [], listen: { port: 0 } });
    try {
      const port = Number(new URL(proxy.address).port);
      await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<void>((resolve) => {
              const s = net.connect(port, '127.0.0.1', () => {
                s.write('CONNECT api.anthropic.com:443 HTTP/1.1\r\nHost: api.anthropic.com:443\r\n\r\n');
                s.resetAndDestroy();
              });
              s.on('error', () => undefined);
              s.on('close', () => resolve());
            }),
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      // Still answering, every tunnel refused and recorded.
      const res = await fetch(`${proxy.address}/`);
      expect(res.status).toBe(403);
      expect(proxy.events.filter((e) => e.method === 'CONNECT' && !e.allowed).length).toBe(20);
    } finally {
      await proxy.close();
    }
  });
});

const agentImage = dockerReady() && dockerReady(agentRuntimeTag()) ? agentRuntimeTag() : undefined;

const write = (file: string) => ({
  name: 'Write',
  args: {
    file_path: `/workspace/develop_ai/${file}`,
    content: fs.readFileSync(path.join(BUILTIN('random'), file), 'utf8'),
  },
});
const SUBAGENT = 'Subagent task: list /workspace/develop_ai and say whether start_ai.sh is there.';
/** Its subagent (the Agent tool) is a conversation of its own that opens with the prompt it was given. */
const isSubagent = (r: ScriptedRequest) => JSON.stringify(r.messages[0] ?? '').includes(SUBAGENT);

/**
 * The agent that completes its round. Claude Code's main conversation carries its tools (Write
 * among them); a step is the number of assistant turns so far.
 */
function completingScript(): (r: ScriptedRequest) => ScriptTurn | undefined {
  const turns: ScriptTurn[] = [
    { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
    {
      toolCalls: [
        {
          name: 'Bash',
          args: {
            command:
              'cd /workspace/develop_ai && (bash start_ai.sh 18123 > /tmp/bot.log 2>&1 &) ; for i in $(seq 100); do curl -s localhost:18123/health && break; sleep 0.2; done',
            description: 'Start the bot and check /health',
          },
        },
      ],
    },
    {
      toolCalls: [
        {
          name: 'Agent',
          args: { description: 'Check the bot folder', prompt: SUBAGENT, subagent_type: 'general-purpose' },
        },
      ],
    },
    // Claude Code 2.1.332 runs the subagent in the background: its answer comes back as a task
    // notification, one more turn of the main conversation.
    { text: 'The subagent is checking the folder.' },
    { text: 'The bot is in /workspace/develop_ai and answers /health.' },
  ];
  return (r) => (isSubagent(r) ? { text: 'start_ai.sh, bot.mjs and bot-http.mjs are there.' } : turns[stepOf(r)]);
}

// The agent through what the strict scripted Anthropic server now does: a 429 with retry-after
// (1 s here, kept short; anthropic-ratelimit-* headers beside it), then an `error` event
// (overloaded_error) in the middle of a 200 stream. It must wait, retry, and build.
function troubledScript(): (r: ScriptedRequest) => ScriptTurn | undefined {
  // With thinking asked for, the tool turn carries a signed thinking block Claude Code must echo.
  const turns: ScriptTurn[] = [
    {
      thinking: 'Copy the sample bot into develop_ai.',
      toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')],
    },
    { text: 'The bot is in /workspace/develop_ai.' },
  ];
  let main = 0;
  return (r) => {
    main++;
    if (main === 1)
      return {
        httpError: 429,
        message: 'Number of request tokens has exceeded your per-minute rate limit',
        retryAfter: 1,
      };
    if (main === 2) return { streamError: {}, text: 'I will write the bot' };
    return turns[stepOf(r)];
  };
}

// Where another attempt cannot help, as the strict server answers: 402 billing_error and 400
// "prompt is too long: N tokens > M maximum" (coder/aibridge#56); the refused key has its own test.
const FINAL_CASES: Array<[id: string, what: string, reason: string, turn: ScriptTurn]> = [
  [
    'nocredit',
    'no credit (402)',
    'billing',
    {
      httpError: 402,
      message:
        'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    },
  ],
  [
    'toolong',
    'a prompt too long (400)',
    'context_length',
    { httpError: 400, message: 'prompt is too long: 205351 tokens > 200000 maximum' },
  ],
];

// One round holds every Claude Code agent of this file, each against its own scripted server with
// its own key (a per-agent endpoint, as a run's agents: entries give): they develop side by side,
// so Claude Code's start-ups and its retry waits are paid once instead of once per test (five
// rounds before). Each test reads its own agent's record, build log, games and server.
describe.skipIf(!agentImage)('Claude Code in the agent container', () => {
  const servers = new Map<string, ScriptedAnthropic>();
  let round: SharedRound;
  beforeAll(async () => {
    // Quick calls beside the conversation (none seen from 2.1.197 or 2.1.332 with non-essential traffic off) carry no tools.
    const options = {
      apiKey: SECRET,
      knownModels: ['scripted-claude'],
      side: (r: ScriptedRequest) => (r.tools.length ? undefined : { text: 'OK' }),
    };
    servers.set('claude', await startScriptedAnthropic(completingScript(), options));
    servers.set('troubled', await startScriptedAnthropic(troubledScript(), options));
    for (const [id, , , turn] of FINAL_CASES) servers.set(id, await startScriptedAnthropic(() => turn, options));
    servers.set(
      'refused',
      await startScriptedAnthropic(() => ({ text: 'never reached' }), {
        apiKey: SECRET,
        knownModels: ['scripted-claude'],
      }),
    );
    // Two at a time: Claude Code's start is CPU-heavy, and five at once on two loaded cores were no
    // faster than five rounds one after another (159 s against 129 s of tests, back to back).
    round = await agentsRound(
      [...servers].map(([id, s]) => ({
        spec: `claude-code:scripted-claude#${id}`,
        endpoint: ownEndpoint(id, id === 'refused' ? 'sk-ant-wrong-key-000' : SECRET, s.baseURL),
      })),
      { developConcurrency: 2 },
    );
  }, 900_000);
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  it('completes a tourney round against the scripted Anthropic server: its bot validates and plays', () => {
    const server = servers.get('claude')!;
    const pinned = loadAgentRecipe().clis['@anthropic-ai/claude-code'];
    const { runDir, summary, strategies } = round;
    const { record, buildLog, games } = round.of('claude');
    expect(record.status, buildLog).toBe('ok');
    // Its web tools are off by default (--disallowedTools): no request offered them to the model.
    const offered = new Set(server.requests.flatMap((r) => r.tools.map((t) => t.name)));
    expect(offered.has('Write')).toBe(true);
    expect([...offered].filter((n) => /^Web(Search|Fetch)$|web_search|web_fetch/.test(n))).toEqual([]);
    expect(record.agentKind).toBe('cli:claude-code/scripted-claude');
    expect(buildLog).toMatch(/attempt 1 succeeded/);
    // What reached the server: the pinned Claude Code, the model asked for, the real key (added by
    // the proxy outside the container), the API version, streamed requests with its own tools.
    const main = server.requests.filter((r) => !r.side && !isSubagent(r));
    expect(main.map(stepOf)).toEqual([0, 1, 2, 3, 4]);
    for (const r of server.requests) {
      expect(r.headers['user-agent']).toContain(`claude-cli/${pinned}`);
      expect(r.headers['x-api-key']).toBe(SECRET);
      expect(r.headers['anthropic-version']).toBe('2023-06-01');
      expect(r.model).toBe('scripted-claude');
      expect(r.stream).toBe(true);
    }
    expect(main[0]!.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Write', 'Bash', 'Agent', 'Read', 'Edit']),
    );
    expect(main[0]!.betas).toContain('claude-code-20250219');
    expect(server.requests.filter(isSubagent)).toHaveLength(1);
    // Its tools ran in the container: the files it wrote, the bot it started answered /health, the subagent's answer came back.
    for (const file of ['start_ai.sh', 'bot.mjs', 'bot-http.mjs']) {
      expect(fs.readFileSync(path.join(strategies, 'claude', file), 'utf8')).toBe(
        fs.readFileSync(path.join(BUILTIN('random'), file), 'utf8'),
      );
    }
    expect(toolResults(main[2]!).at(-1)).toMatch(/healthy/);
    expect(lastUserText(main[4]!)).toMatch(/start_ai\.sh, bot\.mjs and bot-http\.mjs are there/);
    // Cost: Claude Code's own token report (every model call, the subagent's too) equals what the server answered.
    expect(record.cost.tokens).toEqual(server.totalUsage());
    // Tool calls: the tool_use blocks of its stream-json output (3 Write, Bash, Agent); its
    // num_turns, 6, also counts the final answer.
    expect(record.cost.toolCalls).toBe(5);
    // What the evolution report reads from its stream-json: the three writes first, then the bot started.
    const reads = evolutionReads(runDir, 'claude');
    expect(reads.source).toBe('Claude Code stream-json output (1 attempt)');
    expect(reads.firstWrite).toBe(1);
    expect(reads.uses).toEqual(
      expect.arrayContaining([
        'write develop_ai/start_ai.sh',
        'write develop_ai/bot.mjs',
        'write develop_ai/bot-http.mjs',
        'run develop_ai/start_ai.sh',
      ]),
    );
    expect(summary.tracks[0]!.cost.claude!.tokens).toEqual(record.cost.tokens);
    // Egress: only the endpoint; nothing refused (non-essential traffic is off).
    expect(buildLog).toMatch(new RegExp(`egress: ${server.requests.length} requests to the endpoint, 0 refused`));
    expectPlayedNormally(games);
  });

  it('through a 429 and a broken stream: waits the retry-after, retries the broken stream, and builds a bot that plays', () => {
    const { record, buildLog, games } = round.of('troubled');
    const asked = servers.get('troubled')!.requests.filter((r) => !r.side);
    expect(record.status, buildLog).toBe('ok');
    expect(asked[0]!.turn).toMatchObject({ httpError: 429 });
    expect(asked[1]!.turn).toHaveProperty('streamError');
    // It waited what retry-after asked before asking again.
    expect(asked[1]!.receivedAt - asked[0]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(asked.slice(2).map(stepOf)).toEqual([0, 1]);
    expect(buildLog).toMatch(/attempt 1 succeeded/);
    // Claude Code asks for thinking ({type: 'adaptive'}; 2.1.332 adds display 'updates' under its
    // thinking-display-updates beta) and sent the signed block back unchanged (the server would
    // have answered 400 otherwise).
    for (const r of asked) expect(r.body.thinking).toMatchObject({ type: 'adaptive' });
    const echoed = asked.at(-1)!.messages.find((m) => m.role === 'assistant')!;
    expect(Array.isArray(echoed.content) && echoed.content[0]).toMatchObject({
      type: 'thinking',
      thinking: 'Copy the sample bot into develop_ai.',
      signature: expect.any(String),
    });
    expectPlayedNormally(games);
  });

  for (const [id, what, reason] of FINAL_CASES)
    it(`${what}: ${attemptsWord(reason)}, named ${reason}`, () => {
      const seconds = expectFinalFailure(round.of(id), reason);
      console.log(
        `claude-code, ${what}: stopped after ${seconds.toFixed(0)} s, ${servers.get(id)!.requests.length} requests`,
      );
    });

  // Claude Code 2.1.197 retries a 401 about ten times with backoff before it gives up (its
  // "Retrying in … (attempt n/10)"; ThreeFish-AI/negentropy#823 saw the same: 11 requests over
  // 187 s here), so the agent stops the attempt at the egress proxy's first 401 on a model call,
  // and starts no other.
  it('with a refused key: stops after one attempt, named auth, with the wall time in the build log', () => {
    const server = servers.get('refused')!;
    const { record, buildLog } = round.of('refused');
    expect(record.status).toBe('failed');
    expect(record.failureReason, buildLog).toBe('auth');
    expect(buildLog).toContain('## attempt 1/3');
    expect(buildLog).not.toContain('## attempt 2/3');
    expect(buildLog).toMatch(/no further attempt: auth does not change between attempts \(stopped after \d+ s\)/);
    // Every request was refused; none reached the script; the CLI's own retries were cut short.
    expect(server.requests).toEqual([]);
    expect(server.others.every((o) => o.status === 401)).toBe(true);
    expect(server.others.length).toBeGreaterThan(0);
    expect(server.others.length).toBeLessThanOrEqual(3);
    expect(buildLog).toMatch(
      /the endpoint answered a model call with HTTP 401: \{"type":"error","error":\{"type":"authentication_error","message":"invalid x-api-key"\}.* \(the LLM endpoint refused the API key\); the attempt was stopped there/,
    );
    console.log(
      `claude-code, wrong key: stopped after ${(record.cost.wallMs / 1000).toFixed(0)} s, ${server.others.length} refused requests`,
    );
  });

  it('leaves no key in any file of the run', () => {
    expectSecretNowhere(round.runDir, SECRET);
  });
});
