// Codex, driven to a bot. Without Docker: the scripted Responses API server answers as the API
// reference says (event sequence, bodies, errors, side routes), Codex's config puts its endpoint
// behind the proxy, and its JSON lines are read for cost. With Docker and the agent image: the
// pinned Codex completes a tourney round in its agent container against the scripted server
// (tests/helpers/scripted-responses.ts), through the egress proxy: it writes the bot with its own
// tools (the freeform apply_patch tool and exec_command), starts it and checks /health, and stops;
// the bot validates and plays, the cost record holds the tokens the server answered, nothing but
// the endpoint was asked for, and the key is nowhere in the run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIS, PLACEHOLDER_KEY } from '../agents/cli/clis.ts';
import { loadAgentRecipe } from '../docker/build-agent-image.ts';
import { agentRuntimeTag } from '../docker/image-tags.ts';
import { BUILTIN, dockerReady, tempDir } from './helpers/bots.ts';
import {
  SCRIPTED_KEY,
  startScriptedResponses,
  stepOf,
  toolNames,
  toolResults,
  type ResponsesRequest,
  type ResponsesTurn,
  type ScriptedResponses,
} from './helpers/scripted-responses.ts';
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

const SECRET = 'sk-proj-codex-secret-271828';
let server: ScriptedResponses | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

/** Server-sent events as [event name, data] pairs. */
function events(body: string): Array<[string, Record<string, any>]> {
  return body
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)![1]!;
      return [event, JSON.parse(/^data: (.*)$/m.exec(block)![1]!)];
    });
}

const post = (base: string, body: unknown) =>
  fetch(`${base}/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SCRIPTED_KEY}` },
    body: JSON.stringify(body),
  });

describe('the scripted Responses API server', () => {
  it('streams the documented event sequence: created, items added, deltas, done, completed with usage', async () => {
    server = await startScriptedResponses([
      {
        reasoning: 'think',
        text: 'Writing the bot.',
        toolCalls: [
          { name: 'exec_command', args: { cmd: 'ls' } },
          { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
        ],
        usage: { input_tokens: 100, cached_tokens: 40, output_tokens: 30, reasoning_tokens: 10 },
      },
    ]);
    const res = await post(server.baseURL, {
      model: 'm',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      instructions: 'be brief',
      input: 'hi',
      tools: [
        { type: 'function', name: 'exec_command', parameters: {} },
        { type: 'custom', name: 'apply_patch' },
      ],
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const evs = events(await res.text());
    for (const [name, data] of evs) expect(data.type).toBe(name);
    expect(evs.map(([, d]) => d.sequence_number)).toEqual(evs.map((_, i) => i));
    const types = evs.map(([t]) => t);
    expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
    expect(types.at(-1)).toBe('response.completed');
    expect(types).toEqual(
      expect.arrayContaining([
        'response.reasoning_summary_text.delta',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.custom_tool_call_input.delta',
        'response.custom_tool_call_input.done',
      ]),
    );
    expect(types.filter((t) => t === 'response.output_item.added')).toHaveLength(4);
    const done = evs.filter(([t]) => t === 'response.output_item.done').map(([, d]) => d.item);
    expect(done.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call', 'custom_tool_call']);
    expect(done[0]).toMatchObject({
      summary: [{ type: 'summary_text', text: 'think' }],
      encrypted_content: expect.any(String),
    });
    expect(done[2]).toMatchObject({
      call_id: 'call_0_0',
      name: 'exec_command',
      arguments: '{"cmd":"ls"}',
      status: 'completed',
    });
    expect(done[3]).toMatchObject({
      call_id: 'call_0_1',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** End Patch\n',
    });
    expect(evs.find(([t]) => t === 'response.function_call_arguments.done')![1]).toMatchObject({
      name: 'exec_command',
      arguments: '{"cmd":"ls"}',
    });
    const completed = evs.at(-1)![1].response;
    expect(completed).toMatchObject({
      id: 'resp_scripted_0',
      object: 'response',
      status: 'completed',
      model: 'm',
      store: false,
      instructions: 'be brief',
    });
    expect(completed.output).toEqual(done);
    expect(completed.usage).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 40 },
      output_tokens: 30,
      output_tokens_details: { reasoning_tokens: 10 },
      total_tokens: 130,
    });
    // Recorded: the request's fields, a string input as one user message, what was answered.
    const r = server.requests[0]!;
    expect([r.model, r.stream, r.store, r.instructions, r.authorization]).toEqual([
      'm',
      true,
      false,
      'be brief',
      `Bearer ${SCRIPTED_KEY}`,
    ]);
    expect(r.input).toEqual([{ type: 'message', role: 'user', content: 'hi' }]);
    expect(toolNames(r)).toEqual(['exec_command', 'apply_patch']);
    expect(server.totalUsage()).toEqual({ input: 60, cacheRead: 40, output: 30 });
  });

  it("answers without streaming, with HTTP errors in the API's shape, and with failed responses", async () => {
    server = await startScriptedResponses([
      { text: 'pong' },
      { httpError: 429, message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
      { failed: { code: 'server_error', message: 'boom' } },
      { failed: { code: 'context_length_exceeded', message: 'too long' } },
    ]);
    const body = (await (
      await post(server.baseURL, { model: 'm', input: [{ role: 'user', content: 'ping' }] })
    ).json()) as Record<string, any>;
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      output_text: 'pong',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'pong', annotations: [] }] },
      ],
    });
    expect(body.usage.total_tokens).toBe(body.usage.input_tokens + body.usage.output_tokens);
    const limited = await post(server.baseURL, { model: 'm', input: 'x' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    const failed = events(await (await post(server.baseURL, { model: 'm', input: 'x', stream: true })).text());
    expect(failed.map(([t]) => t)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
    expect(failed[2]![1].response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'boom' },
      usage: null,
    });
    expect(
      ((await (await post(server.baseURL, { model: 'm', input: 'x' })).json()) as Record<string, any>).error.code,
    ).toBe('context_length_exceeded');
    // Only delivered answers count.
    expect(server.requests.map((r) => r.usage !== null)).toEqual([true, false, false, false]);
  });

  // Strict where the API is (sources in scripted-responses.ts). Before this, the server took any
  // key, sent a bare 429 and could not end a stream incomplete or with an error event: each
  // expectation below failed (the first: 200 where 401 was expected).
  it('checks the key, sends rate-limit headers on a 429, ends streams incomplete or with a top-level error event', async () => {
    server = await startScriptedResponses(
      [
        {
          httpError: 429,
          message: 'Rate limit reached for gpt-5 on tokens per min (TPM). Please try again in 1s.',
          type: 'tokens',
          code: 'rate_limit_exceeded',
        },
        { incomplete: { reason: 'max_output_tokens' }, text: 'half a' },
        {
          streamError: { code: 'server_error', message: 'An error occurred while processing your request.' },
          text: 'I wi',
        },
      ],
      { apiKey: 'sk-proj-right-key-1234' },
    );
    const ask = (auth: string | undefined, body: unknown = { model: 'm', input: 'x', stream: true }) =>
      fetch(`${server!.baseURL}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify(body),
      });
    const none = await ask(undefined);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      error: {
        message: expect.stringMatching(/^You didn't provide an API key\./),
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    const wrong = await ask('Bearer sk-proj-wrong-key-9999');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await wrong.json()).toMatchObject({
      error: {
        message: expect.stringMatching(/^Incorrect API key provided: sk-proj-\*+9999\./),
        code: 'invalid_api_key',
      },
    });
    const ok = 'Bearer sk-proj-right-key-1234';
    const limited = await ask(ok);
    expect(limited.status).toBe(429);
    expect(
      Object.fromEntries(
        [...limited.headers].filter(
          ([k]) => k.startsWith('x-ratelimit-') || k === 'retry-after' || k === 'x-request-id',
        ),
      ),
    ).toMatchObject({
      'retry-after': '1',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-tokens': '1s',
      'x-request-id': expect.stringMatching(/^req_/),
    });
    const incomplete = events(await (await ask(ok)).text());
    expect(incomplete.map(([t]) => t).at(-1)).toBe('response.incomplete');
    expect(incomplete.at(-1)![1].response).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      usage: { output_tokens: expect.any(Number) },
    });
    const broken = events(await (await ask(ok)).text());
    expect(broken.at(-1)).toEqual([
      'error',
      {
        type: 'error',
        sequence_number: expect.any(Number),
        code: 'server_error',
        message: 'An error occurred while processing your request.',
        param: null,
      },
    ]);
    expect(broken.map(([t]) => t)).not.toContain('response.completed');
    expect(server.requests).toHaveLength(3); // the refused keys never reached the script
  });

  it('answers the models list and other routes (a WebSocket upgrade) without consuming the script', async () => {
    server = await startScriptedResponses([{ text: 'one' }], { models: ['gpt-5.5'] });
    // With a key, as every client sends one (the server refuses a request without).
    const models = await fetch(`${server.baseURL}/models`, { headers: { authorization: `Bearer ${SCRIPTED_KEY}` } });
    expect(await models.json()).toEqual({
      object: 'list',
      data: [{ id: 'gpt-5.5', object: 'model', created: expect.any(Number), owned_by: 'scripted' }],
    });
    // What Codex's built-in provider sends first (GET /v1/responses with Upgrade: websocket): refused, so a client falls back to HTTP.
    const upgrade = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        `${server!.baseURL}/responses`,
        {
          headers: {
            authorization: `Bearer ${SCRIPTED_KEY}`,
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-version': '13',
            'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('error', reject);
      req.end();
    });
    expect(upgrade.status).toBe(404);
    expect(JSON.parse(upgrade.body).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringContaining('upgrade: websocket'),
    });
    expect(server.sideRequests.map((s) => `${s.method} ${s.path} ${s.status}`)).toEqual([
      'GET /v1/models 200',
      'GET /v1/responses 404',
    ]);
    expect(server.requests).toHaveLength(0);
    expect(
      ((await (await post(server.baseURL, { model: 'gpt-5.5', input: 'x' })).json()) as Record<string, any>)
        .output_text,
    ).toBe('one');
    expect((await post(server.baseURL, { model: 'gpt-nope', input: 'x' })).status).toBe(404); // a model it does not serve
  });

  it('counts conversation steps by the calls a request carries back (parallel calls are one step)', () => {
    const req = (input: unknown[]) => ({ input }) as unknown as ResponsesRequest;
    expect(stepOf(req([{ type: 'message', role: 'user', content: 'go' }]))).toBe(0);
    const step1 = [
      { type: 'custom_tool_call', call_id: 'call_4_0', name: 'apply_patch', input: '' },
      { type: 'function_call', call_id: 'call_4_1', name: 'exec_command', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_4_1', output: 'ok' },
      { type: 'custom_tool_call_output', call_id: 'call_4_0', output: 'Success' },
    ];
    expect(stepOf(req(step1))).toBe(1);
    expect(
      stepOf(req([...step1, { type: 'function_call', call_id: 'call_9_0', name: 'exec_command', arguments: '{}' }])),
    ).toBe(2);
    expect(toolResults(req(step1))).toEqual(['ok', 'Success']);
  });
});

describe("Codex's invocation", () => {
  it('writes config.toml in CODEX_HOME: the proxy as a Responses provider keyed by the placeholder, no WebSocket, no plugin sync, no analytics', () => {
    const home = tempDir();
    const o = {
      prompt: 'write a bot',
      maxTurns: 5,
      home,
      workspace: '/workspace',
      baseUrl: 'http://127.0.0.1:3128/v1',
      model: 'gpt-5.5',
    };
    execFileSync('bash', ['-c', CLIS.codex.prepare!(o)]);
    const toml = fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8');
    expect(toml).toContain('model_provider = "catarena"\n\n[model_providers.catarena]\n');
    for (const line of [
      'base_url = "http://127.0.0.1:3128/v1"',
      'env_key = "CODEX_API_KEY"',
      'wire_api = "responses"',
      'supports_websockets = false',
      '[features]\nplugins = false',
      '[analytics]\nenabled = false',
    ]) {
      expect(toml).toContain(line);
    }
    expect(CLIS.codex.env(o)).toEqual({ CODEX_API_KEY: PLACEHOLDER_KEY, CODEX_HOME: `${home}/.codex` });
    expect(CLIS.codex.argv(o)).toEqual([
      'codex',
      'exec',
      '--skip-git-repo-check',
      '--ephemeral',
      '--json',
      '--dangerously-bypass-approvals-and-sandbox',
      '-C',
      '/workspace',
      '-m',
      'gpt-5.5',
      'write a bot',
    ]);
  });

  it("reads Codex 0.169's usage: input_tokens (cached included, taken apart) and output_tokens (reasoning included), the last turn's", () => {
    const lines = [
      { type: 'thread.started', thread_id: 't' },
      { type: 'turn.started' },
      { type: 'item.completed', item: { id: 'item_0', type: 'reasoning', text: 'Copy the sample bot.' } },
      {
        type: 'item.completed',
        item: {
          id: 'item_1',
          type: 'file_change',
          changes: [{ path: '/workspace/develop_ai/bot.mjs', kind: 'add' }],
          status: 'completed',
        },
      },
      {
        type: 'item.completed',
        item: {
          id: 'item_2',
          type: 'command_execution',
          command: "/bin/bash -lc 'ls'",
          aggregated_output: '',
          exit_code: 0,
          status: 'completed',
        },
      },
      { type: 'item.completed', item: { id: 'item_3', type: 'agent_message', text: 'Done.' } },
      {
        type: 'turn.completed',
        usage: {
          input_tokens: 32947,
          cached_input_tokens: 12000,
          cache_write_input_tokens: 0,
          output_tokens: 2670,
          reasoning_output_tokens: 900,
        },
      },
    ].map((e) => JSON.stringify(e));
    expect(CLIS.codex.parse(lines.join('\n'))).toEqual({
      tokens: { input: 20947, cacheRead: 12000, output: 2670 },
      turns: 1,
      toolCalls: 2,
      summary: 'Done.',
    });
    // A retry it announced (an `error` event) and then got past is no error; retries that end in turn.failed are.
    const retried = [
      ...lines.slice(0, 2),
      JSON.stringify({ type: 'error', message: 'Reconnecting... 1/5 (stream disconnected before completion)' }),
      ...lines.slice(2),
    ];
    expect(CLIS.codex.parse(retried.join('\n')).error).toBeUndefined();
    const unauthorized =
      'unexpected status 401 Unauthorized: Incorrect API key provided, url: http://127.0.0.1:3128/v1/responses';
    const failed = [
      ...lines.slice(0, 2),
      JSON.stringify({ type: 'error', message: `Reconnecting... 5/5 (${unauthorized})` }),
      JSON.stringify({ type: 'error', message: unauthorized }),
      JSON.stringify({ type: 'turn.failed', error: { message: unauthorized } }),
    ];
    expect(CLIS.codex.parse(failed.join('\n'))).toMatchObject({
      tokens: { input: 0, output: 0 },
      turns: 0,
      error: expect.stringContaining('401 Unauthorized'),
    });
  });
});

const agentImage = dockerReady() && dockerReady(agentRuntimeTag()) ? agentRuntimeTag() : undefined;

const OUT = '/workspace/develop_ai';
const sampleFile = (file: string) => fs.readFileSync(path.join(BUILTIN('random'), file), 'utf8');
// Codex's own tools for a catalog model (gpt-5.5 in 0.169): the freeform apply_patch tool takes
// a patch in its grammar (here adding two files), exec_command a shell command.
const addFile = (file: string) =>
  `*** Add File: ${OUT}/${file}\n${sampleFile(file)
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `+${l}`)
    .join('\n')}\n`;
const PATCH = `*** Begin Patch\n${addFile('bot.mjs')}${addFile('bot-http.mjs')}*** End Patch\n`;
const WRITE_START = `mkdir -p ${OUT} && cat > ${OUT}/start_ai.sh <<'EOF'\n${sampleFile('start_ai.sh')}EOF\nchmod +x ${OUT}/start_ai.sh && ls ${OUT}`;
/** Codex's conversation carries its tools; anything else (none seen from 0.169) gets a plain answer. */
const isMain = (r: ResponsesRequest) => toolNames(r).includes('exec_command');

/** The agent that completes its round. Usage given per turn, cached and reasoning tokens included, so the cost record is checked against exact numbers. */
function completingScript(): (r: ResponsesRequest) => ResponsesTurn | undefined {
  const turns: ResponsesTurn[] = [
    {
      reasoning: 'Copy the sample bot: apply_patch for the code, a shell command for start_ai.sh.',
      toolCalls: [
        { name: 'apply_patch', input: PATCH },
        { name: 'exec_command', args: { cmd: WRITE_START } },
      ],
      usage: { input_tokens: 9100, cached_tokens: 0, output_tokens: 2600, reasoning_tokens: 40 },
    },
    {
      toolCalls: [
        {
          name: 'exec_command',
          args: {
            cmd: `cd ${OUT} && (bash start_ai.sh 18123 > /tmp/bot.log 2>&1 &) ; for i in $(seq 100); do curl -s localhost:18123/health && break; sleep 0.2; done`,
            yield_time_ms: 15000,
          },
        },
      ],
      usage: { input_tokens: 11900, cached_tokens: 9000, output_tokens: 80, reasoning_tokens: 20 },
    },
    {
      text: `The bot is in ${OUT} and answers /health.`,
      usage: { input_tokens: 12000, cached_tokens: 11800, output_tokens: 30, reasoning_tokens: 0 },
    },
  ];
  return (r) => (isMain(r) ? turns[stepOf(r)] : { text: 'OK' });
}

// The agent through rate limits and a broken stream, as the strict scripted Responses server
// sends them: a response.failed with code rate_limit_exceeded and "Please try again in 1s" (the
// wait Codex reads: codex-rs sse/responses.rs try_parse_retry_after), an HTTP 429 with retry-after
// and x-ratelimit-* headers (1 s, kept short), then a stream that ends in a top-level `error` event.
function troubledScript(): (r: ResponsesRequest) => ResponsesTurn | undefined {
  const turns: ResponsesTurn[] = [
    {
      toolCalls: [
        { name: 'apply_patch', input: PATCH },
        { name: 'exec_command', args: { cmd: WRITE_START } },
      ],
    },
    { text: `The bot is in ${OUT}.` },
  ];
  const trouble: ResponsesTurn[] = [
    {
      failed: {
        code: 'rate_limit_exceeded',
        message:
          'Rate limit reached for gpt-5.5 on tokens per min (TPM): Limit 30000, Used 30000, Requested 9100. Please try again in 1s.',
      },
    },
    {
      httpError: 429,
      message:
        'Rate limit reached for gpt-5.5 on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 1s.',
      type: 'requests',
      code: 'rate_limit_exceeded',
      retryAfter: 1,
    },
    {
      streamError: { code: 'server_error', message: 'An error occurred while processing your request.' },
      text: 'I will',
    },
  ];
  let main = 0;
  return (r) => (isMain(r) ? (trouble[main++] ?? turns[stepOf(r)]) : { text: 'OK' });
}

// The pinned Codex where another attempt cannot help: a refused key (the strict server's 401
// "Incorrect API key provided", code invalid_api_key), no quota (response.failed code
// insufficient_quota) and a prompt too long (response.failed code context_length_exceeded; codex-rs
// sse/responses.rs is_quota_exceeded_error / is_context_window_error). One attempt each, named.
const FINAL_CASES: Array<[id: string, what: string, reason: string, turn: ResponsesTurn | 'wrong-key']> = [
  ['refused', 'a refused key', 'auth', 'wrong-key'],
  [
    'noquota',
    'no quota',
    'billing',
    {
      failed: {
        code: 'insufficient_quota',
        message: 'You exceeded your current quota, please check your plan and billing details.',
      },
    },
  ],
  [
    'toolong',
    'a prompt too long',
    'context_length',
    {
      failed: {
        code: 'context_length_exceeded',
        message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      },
    },
  ],
];

// One round holds every Codex agent of this file, each against its own scripted server with its
// own key (a per-agent endpoint, as a run's agents: entries give): they develop side by side, so
// Codex's start-ups and its retry waits are paid once instead of once per test (five rounds before).
// Each test reads its own agent's record, build log, games and server.
describe.skipIf(!agentImage)('Codex in the agent container', () => {
  const servers = new Map<string, ScriptedResponses>();
  let round: SharedRound;
  beforeAll(async () => {
    servers.set('codex', await startScriptedResponses(completingScript(), { apiKey: SECRET }));
    servers.set('troubled', await startScriptedResponses(troubledScript(), { apiKey: SECRET }));
    for (const [id, , , turn] of FINAL_CASES)
      servers.set(
        id,
        await startScriptedResponses(() => (turn === 'wrong-key' ? { text: 'never reached' } : turn), {
          apiKey: SECRET,
        }),
      );
    const key = (id: string) =>
      FINAL_CASES.find((c) => c[0] === id)?.[3] === 'wrong-key' ? 'sk-proj-wrong-key-0000' : SECRET;
    round = await agentsRound(
      [...servers].map(([id, s]) => ({ spec: `codex:gpt-5.5#${id}`, endpoint: ownEndpoint(id, key(id), s.baseURL) })),
    );
  }, 600_000);
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  it('completes a tourney round against the scripted Responses server: its bot validates and plays', () => {
    const server = servers.get('codex')!;
    const pinned = loadAgentRecipe().clis['@openai/codex'];
    const { runDir, summary, strategies } = round;
    const { record, buildLog, games } = round.of('codex');
    expect(record.status, buildLog).toBe('ok');
    expect(record.agentKind).toBe('cli:codex/gpt-5.5');
    expect(buildLog).toMatch(/attempt 1 succeeded/);
    // What reached the server: the pinned Codex (codex_exec), the model asked for, the real key
    // (added by the proxy outside the container), streamed stateless requests carrying the
    // conversation, with its own tools: exec_command (a function) and apply_patch (a custom tool).
    expect(server.requests.map(stepOf)).toEqual([0, 1, 2]);
    for (const r of server.requests) {
      expect(r.path).toBe('/v1/responses');
      expect(r.headers['user-agent']).toContain(`codex_exec/${pinned}`);
      expect(r.headers.originator).toBe('codex_exec');
      expect(r.authorization).toBe(`Bearer ${SECRET}`);
      expect(r.model).toBe('gpt-5.5');
      expect([r.stream, r.store, r.previousResponseId]).toEqual([true, false, undefined]);
    }
    const first = server.requests[0]!;
    expect(first.tools.find((t) => t.name === 'exec_command')).toMatchObject({
      type: 'function',
      parameters: { required: ['cmd'] },
    });
    expect(first.tools.find((t) => t.name === 'apply_patch')).toMatchObject({
      type: 'custom',
      format: { type: 'grammar', syntax: 'lark' },
    });
    expect(JSON.stringify(first.input.filter((i) => i.role === 'user'))).toContain(`Write the bot into ${OUT}/`);
    expect(server.sideRequests).toEqual([]);
    // Its hosted web search is off (config.toml web_search = "disabled"): no request offered it.
    expect(server.requests.flatMap((r) => toolNames(r)).filter((n) => /web_search/.test(n))).toEqual([]);
    // Its tools ran in the container: the files it wrote, the patch applied, the bot it started answered /health.
    for (const file of ['start_ai.sh', 'bot.mjs', 'bot-http.mjs'])
      expect(fs.readFileSync(path.join(strategies, 'codex', file), 'utf8')).toBe(sampleFile(file));
    expect(toolResults(server.requests[1]!).join('\n')).toMatch(/start_ai\.sh/);
    expect(toolResults(server.requests[2]!).join('\n')).toMatch(/healthy/);
    // Cost: Codex's own token report (turn.completed) equals what the server answered; its tool items: the patch and two commands.
    expect(record.cost.tokens).toEqual(server.totalUsage());
    expect(record.cost.tokens).toEqual({ input: 12200, cacheRead: 20800, output: 2710 }); // 33000 input, 20800 of it cached: counted once
    expect(record.cost.toolCalls).toBe(3);
    // What the evolution report reads from its JSON lines: the patch's two files, start_ai.sh by a here-document, the bot started.
    const reads = evolutionReads(runDir, 'codex');
    expect(reads.source).toBe('Codex JSON output (1 attempt)');
    expect(reads.firstWrite).toBe(1);
    expect(reads.uses).toEqual(
      expect.arrayContaining([
        'write develop_ai/bot.mjs',
        'write develop_ai/bot-http.mjs',
        'write develop_ai/start_ai.sh',
        'run develop_ai/start_ai.sh',
      ]),
    );
    expect(summary.tracks[0]!.cost.codex!.tokens).toEqual(record.cost.tokens);
    // Egress: only the endpoint, nothing refused (no WebSocket, plugin sync or analytics).
    expect(buildLog).toMatch(new RegExp(`egress: ${server.requests.length} requests to the endpoint, 0 refused`));
    expectPlayedNormally(games);
  });

  it('through rate limits and a broken stream: waits, retries, and builds a bot that plays', () => {
    const { record, buildLog, games } = round.of('troubled');
    const asked = servers.get('troubled')!.requests.filter(isMain);
    expect(record.status, buildLog).toBe('ok');
    expect(asked.slice(0, 3).map((r) => Object.keys(r.turn!)[0])).toEqual(['failed', 'httpError', 'streamError']);
    // It waited the second asked for after each rate limit.
    expect(asked[1]!.receivedAt - asked[0]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(asked[2]!.receivedAt - asked[1]!.receivedAt).toBeGreaterThanOrEqual(950);
    expect(asked.slice(3).map(stepOf)).toEqual([0, 1]);
    expect(buildLog).toMatch(/attempt 1 succeeded/);
    expectPlayedNormally(games);
  });

  for (const [id, what, reason, turn] of FINAL_CASES)
    it(`${what}: ${attemptsWord(reason)}, named ${reason}`, () => {
      const server = servers.get(id)!;
      const seconds = expectFinalFailure(round.of(id), reason);
      if (turn === 'wrong-key') expect(server.requests).toEqual([]);
      console.log(
        `codex, ${what}: stopped after ${seconds.toFixed(0)} s, ${server.requests.length} scripted and ${server.sideRequests.length} refused requests`,
      );
    });

  it('leaves no key in any file of the run', () => {
    expectSecretNowhere(round.runDir, SECRET);
  });
});
