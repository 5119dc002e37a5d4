// The built-in agent and the LLM-player on Anthropic's Messages API, each through a whole tourney
// round against the scripted Anthropic server (tests/helpers/scripted-anthropic.ts; process
// sandbox). builtin:anthropic/<model> (AI SDK, @ai-sdk/anthropic) writes a bot with its tools and
// tests it; llm-player:anthropic/<model> asks the model for every move from its bot
// (agents/llm-player/bot/llm.mjs). Both send the key as x-api-key, and it ends up in no file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TourneySummary } from '../records/tourney.ts';
import { createAgent } from '../agents/registry.ts';
import { probeEndpoint } from '../agents/core/preflight.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import {
  CLAUDE_MODELS,
  lastUserText,
  perConversation,
  startScriptedAnthropic,
  toolResults,
  type ScriptedAnthropic,
  type ScriptedRequest,
  type ScriptTurn,
} from './helpers/scripted-anthropic.ts';

const SECRET = 'sk-ant-agents-secret-271';
let server: ScriptedAnthropic | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

const config = () =>
  resolveConfig({
    games: ['gomoku'],
    rounds: 1,
    variants: ['standard'],
    concurrency: 2,
    bootstrapSamples: 20,
    developTimeoutMs: 120_000,
  });
const strategies = (runDir: string) => path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies');
const journal = (runDir: string) =>
  fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

function expectNoKey(runDir: string): void {
  for (const entry of fs.readdirSync(runDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      expect(fs.readFileSync(path.join(entry.parentPath, entry.name), 'latin1'), entry.name).not.toContain(SECRET);
  }
}

function expectAnthropicHeaders(s: ScriptedAnthropic): void {
  expect(s.requests.length).toBeGreaterThan(0);
  for (const r of s.requests) {
    expect(r.headers['x-api-key']).toBe(SECRET);
    expect(r.headers['anthropic-version']).toBe('2023-06-01');
  }
  expect(s.others).toEqual([]); // nothing but POST /v1/messages
}

describe('the scripted Anthropic server', () => {
  const post = (
    url: string,
    body: unknown,
    headers: Record<string, string> = { 'x-api-key': SECRET, 'anthropic-version': '2023-06-01' },
  ) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('answers as the API does: messages, streamed events, errors, token counts, the model list', async () => {
    server = await startScriptedAnthropic(
      [
        {
          toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }],
          usage: { input_tokens: 50, output_tokens: 9, cache_read_input_tokens: 10 },
        },
        { text: 'Sunny.', usage: { input_tokens: 70, output_tokens: 3 } },
        { httpError: 529, message: 'Overloaded' },
      ],
      { apiKey: SECRET, knownModels: ['m'] },
    );
    const url = `${server.v1URL}/messages`;
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather of a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    const ask = { model: 'm', max_tokens: 100, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] };
    // A tool call, not streamed.
    const first = await post(url, ask);
    expect(first.headers.get('request-id')).toMatch(/^req_/);
    const message = await first.json();
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 9, cache_read_input_tokens: 10, cache_creation_input_tokens: 0 },
    });
    expect(message.id).toMatch(/^msg_/);
    const use = message.content[0];
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
    // A tool_use left unanswered is refused (400, not counted in the script).
    const unanswered = await post(url, {
      ...ask,
      messages: [...ask.messages, { role: 'assistant', content: [use] }, { role: 'user', content: 'and?' }],
    });
    expect(unanswered.status).toBe(400);
    expect(await unanswered.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/tool_result/) },
    });
    // The answer to the tool result, streamed: the documented event sequence, usage cumulative in message_delta.
    const answered = [
      ...ask.messages,
      { role: 'assistant', content: [use] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21 C, clear' }] },
    ];
    const streamed = await post(url, { ...ask, stream: true, messages: answered });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await streamed.text())
      .trim()
      .split('\n\n')
      .map((e) => {
        const [name, data] = e.split('\n');
        const parsed = JSON.parse(data!.slice('data: '.length));
        expect(name).toBe(`event: ${parsed.type}`);
        return parsed;
      });
    expect(events.map((e) => e.type)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[0].message).toMatchObject({ content: [], stop_reason: null, usage: { input_tokens: 70 } });
    expect(events[3].delta).toEqual({ type: 'text_delta', text: 'Sunny.' });
    expect(events[5]).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { input_tokens: 70, output_tokens: 3 },
    });
    expect(toolResults(server.requests.at(-1)!)).toEqual(['21 C, clear']);
    // An HTTP error from the script, in the API's shape.
    const overloaded = await post(url, ask);
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toMatchObject({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: expect.stringMatching(/^req_/),
    });
    // What the API checks first: the key, then the version header.
    expect((await post(url, ask, { 'anthropic-version': '2023-06-01' })).status).toBe(401);
    expect(
      await (await post(url, ask, { 'x-api-key': 'wrong', 'anthropic-version': '2023-06-01' })).json(),
    ).toMatchObject({ error: { type: 'authentication_error' } });
    expect((await post(url, ask, { 'x-api-key': SECRET })).status).toBe(400);
    // Side routes, answered without touching the script.
    expect(await (await post(`${url}/count_tokens`, { model: 'm', messages: ask.messages })).json()).toEqual({
      input_tokens: expect.any(Number),
    });
    const models = await (await fetch(`${server.v1URL}/models`, { headers: { 'x-api-key': SECRET } })).json();
    expect(models).toMatchObject({ data: [{ type: 'model', id: 'm' }], has_more: false });
    expect(server.others.map((o) => `${o.method} ${o.path} ${o.status}`)).toEqual([
      'POST /v1/messages 401',
      'POST /v1/messages 401',
      'POST /v1/messages 400',
      'POST /v1/messages/count_tokens 200',
      'GET /v1/models 200',
    ]);
    expect(server.totalUsage()).toEqual({ input: 120, cacheRead: 10, output: 12 }); // by kind: the cache read counted once, apart;
  });

  // Strict where the real API is (each wire detail's source is in scripted-anthropic.ts): a key
  // only as x-api-key, unknown models, a 429's wait headers, 402 billing, stop reasons, an error
  // event after a 200, and thinking blocks that must come back unchanged. Before this, the server
  // took a bearer key, any model, sent a bare 429 and no thinking: every expectation below failed.
  it('is strict as the API: x-api-key only, unknown model 404, 429 wait headers, 402, stop reasons, mid-stream error, signed thinking', async () => {
    server = await startScriptedAnthropic(
      [
        { httpError: 429, message: 'Number of request tokens has exceeded your per-minute rate limit' },
        { httpError: 402, message: 'Your credit balance is too low to access the Anthropic API.' },
        { text: 'cut', stopReason: 'max_tokens' },
        { text: '', stopReason: 'refusal' },
        { streamError: {}, text: 'I will wri' },
        { thinking: 'Paris: ask the tool.', toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
        { text: 'Sunny.' },
      ],
      { apiKey: SECRET, knownModels: ['m'] },
    );
    const url = `${server.v1URL}/messages`;
    const tools = [
      {
        name: 'get_weather',
        description: 'Weather of a city',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    const ask = { model: 'm', max_tokens: 100, tools, messages: [{ role: 'user', content: 'Weather in Paris?' }] };
    const bearer = await post(url, ask, { authorization: `Bearer ${SECRET}`, 'anthropic-version': '2023-06-01' });
    expect(bearer.status).toBe(401);
    expect(await bearer.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error', message: 'OAuth authentication is currently not supported.' },
    });
    const unknown = await post(url, { ...ask, model: 'claude-nonesuch' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { type: 'not_found_error', message: 'model: claude-nonesuch' },
    });
    const limited = await post(url, ask);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('anthropic-ratelimit-requests-remaining')).toBe('0');
    expect(limited.headers.get('anthropic-ratelimit-tokens-reset')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await limited.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
    const billing = await post(url, ask);
    expect(billing.status).toBe(402);
    expect(await billing.json()).toMatchObject({ error: { type: 'billing_error' } });
    expect(await (await post(url, ask)).json()).toMatchObject({
      stop_reason: 'max_tokens',
      content: [{ type: 'text', text: 'cut' }],
    });
    expect(await (await post(url, ask)).json()).toMatchObject({ stop_reason: 'refusal' });
    const broken = await post(url, { ...ask, stream: true });
    expect(broken.status).toBe(200);
    const text = await broken.text();
    expect(text).toContain(
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
    expect(text).not.toContain('message_stop');
    // Thinking: answered with a signature when the request enables it; the tool turn must echo it.
    // Thinking counts toward max_tokens: 100 would leave the answer no room (the budget must be below it).
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    const msg = await (await post(url, { ...ask, max_tokens: 2048, thinking })).json();
    expect(msg.content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(msg.content[0]).toMatchObject({ thinking: 'Paris: ask the tool.', signature: expect.any(String) });
    const next = (assistant: unknown[]) => ({
      ...ask,
      max_tokens: 2048,
      thinking,
      messages: [
        ...ask.messages,
        { role: 'assistant', content: assistant },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: msg.content[1].id, content: '21 C' }] },
      ],
    });
    const dropped = await post(url, next([msg.content[1]]));
    expect(dropped.status).toBe(400);
    expect((await dropped.json()).error.message).toMatch(
      /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`/,
    );
    const changed = await post(url, next([{ ...msg.content[0], thinking: 'edited' }, msg.content[1]]));
    expect((await changed.json()).error.message).toMatch(
      /^messages\.1\.content\.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified/,
    );
    const forged = await post(url, next([{ ...msg.content[0], signature: 'forged' }, msg.content[1]]));
    expect((await forged.json()).error.message).toBe('Invalid signature in thinking block');
    // A request that thinks is answered with thinking first, every turn (unscripted: "(thinking)").
    expect(await (await post(url, next(msg.content))).json()).toMatchObject({
      content: [
        { type: 'thinking', thinking: '(thinking)' },
        { type: 'text', text: 'Sunny.' },
      ],
    });
  });
  // The models it serves are the real Claude ids (and their aliases), whatever the test: before, an
  // unknown model was refused only when a test listed the known ones, and the list, one page,
  // held whatever models had been asked for (an unknown one included, once asked).
  it('knows the real Claude models: unknown ones 404 always; the paged model list and the alias lookup the preflight uses', async () => {
    server = await startScriptedAnthropic(() => ({ text: 'ok' }), { apiKey: SECRET });
    const headers = { 'x-api-key': SECRET, 'anthropic-version': '2023-06-01' };
    const ask = (model: string) =>
      post(`${server!.v1URL}/messages`, { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    // A plausible id that does not exist: the API's 404, with its request id in the header and the body.
    const unknown = await ask('claude-sonnet-4-7');
    expect(unknown.status).toBe(404);
    const requestId = unknown.headers.get('request-id');
    expect(requestId).toMatch(/^req_/);
    expect(await unknown.json()).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: 'model: claude-sonnet-4-7' },
      request_id: requestId,
    });
    // A dated id, an alias and an undated id are served.
    for (const model of ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5', 'claude-opus-4-6'])
      expect((await ask(model)).status, model).toBe(200);
    // The list: newest first, 20 a page by default, after_id / before_id cursors, has_more.
    const list = async (query: string) =>
      (await (await fetch(`${server!.v1URL}/models${query}`, { headers })).json()) as {
        data: Array<{ type: string; id: string; display_name: string }>;
        has_more: boolean;
        first_id: string | null;
        last_id: string | null;
      };
    const all = await list('');
    expect(all.data.map((m) => m.id)).toEqual(CLAUDE_MODELS);
    expect(all.has_more).toBe(false);
    expect(all.data.find((m) => m.id === 'claude-opus-4-6')).toMatchObject({
      type: 'model',
      display_name: 'Claude Opus 4.6',
    });
    const first = await list('?limit=5');
    expect(first).toMatchObject({ has_more: true, first_id: CLAUDE_MODELS[0], last_id: CLAUDE_MODELS[4] });
    const second = await list(`?limit=5&after_id=${first.last_id}`);
    expect(second.data.map((m) => m.id)).toEqual(CLAUDE_MODELS.slice(5, 10));
    expect((await list(`?limit=5&before_id=${second.first_id}`)).data.map((m) => m.id)).toEqual(
      CLAUDE_MODELS.slice(0, 5),
    );
    const last = await list(`?limit=10&after_id=${second.last_id}`);
    expect(last).toMatchObject({ has_more: false, last_id: CLAUDE_MODELS.at(-1) });
    expect((await fetch(`${server.v1URL}/models?limit=0`, { headers })).status).toBe(400);
    // One model, by id or alias (an alias answers with its id); an unknown one is a 404.
    const one = async (id: string) => fetch(`${server!.v1URL}/models/${id}`, { headers });
    expect(await (await one('claude-haiku-4-5')).json()).toMatchObject({ id: 'claude-haiku-4-5-20251001' });
    expect((await one('claude-sonnet-4-7')).status).toBe(404);

    // The preflight: a listed id, an alias (looked up), and an unknown model named as such.
    const probe = (model: string) =>
      probeEndpoint({ api: 'anthropic', baseUrl: server!.baseURL, headers: { 'x-api-key': SECRET }, model });
    expect(await probe('claude-opus-4-8')).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/model claude-opus-4-8 listed/),
    });
    expect(await probe('claude-sonnet-4-5')).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/model claude-sonnet-4-5 served \(as claude-sonnet-4-5-20250929\)/),
    });
    const absent = await probe('claude-sonnet-4-7');
    expect(absent.ok).toBe(false);
    expect(absent.detail).toMatch(
      /the model "claude-sonnet-4-7" is not served there: 14 models listed \(claude-opus-5-5, /,
    );
  });
});

describe('Anthropic agents in a tourney round', () => {
  // One round, the two agents against each other (not each against an offline bot in a round of its
  // own): the built-in coder on claude-sonnet-4-5, the LLM-player on claude-haiku-4-5, one scripted
  // server told the two apart by model. Each agent's checks read its own requests.
  const sample = BUILTIN('random');
  const CODER = 'claude-sonnet-4-5';
  const PLAYER = 'claude-haiku-4-5';
  const isCoder = (r: ScriptedRequest) => r.model === CODER;
  const isPlayer = (r: ScriptedRequest) => r.model === PLAYER;
  let runDir: string;
  // Its own: the file's afterEach closes `server` after every test.
  let roundServer: ScriptedAnthropic;
  let summary: TourneySummary;
  beforeAll(async () => {
    const write = (file: string) => ({
      name: 'write_file',
      args: { path: `develop_ai/${file}`, content: fs.readFileSync(path.join(sample, file), 'utf8') },
    });
    const coder = perConversation([
      { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
    ]) as (r: ScriptedRequest) => ScriptTurn | undefined;
    // The first option, a legal one (its number within the prompt's "Answer with one number from 1
    // to N."): the player fills a row while the coder's random bot seldom blocks it, so the games
    // are short (varied answers against the random bot played them to a full board).
    const player = () => ({ text: '1', usage: { input_tokens: 120, output_tokens: 2 } });
    roundServer = await startScriptedAnthropic(
      (r) => (isCoder(r) ? coder(r) : player()),
      // generateText does not stream (nor does the LLM-player's bot): a streamed request would be refused and seen.
      { apiKey: SECRET, noStreaming: true },
    );
    vi.stubEnv('ANTHROPIC_API_KEY', SECRET);
    // As Anthropic's SDKs and Claude Code take it (no /v1): the AI SDK gets the versioned base.
    vi.stubEnv('ANTHROPIC_BASE_URL', roundServer.baseURL);
    vi.stubEnv('CATARENA_LLM_BASE_URL', roundServer.v1URL);
    runDir = path.join(tempDir(), 'run');
    const agents = [
      createAgent(`builtin:anthropic/${CODER}#coder`, 1),
      createAgent(`llm-player:anthropic/${PLAYER}#player`, 1),
    ];
    summary = await runTourney({ config: config(), runDir, agents });
  }, 180_000);
  afterAll(() => roundServer.close());

  it('the round: both bots played both games; the key is as Anthropic takes it (x-api-key) and in no file of the run', () => {
    const games = journal(runDir);
    expect(games).toHaveLength(2);
    for (const g of games) expect(g.termination).toBe('normal');
    expectAnthropicHeaders(roundServer);
    expect(roundServer.requests.filter((r) => !isCoder(r) && !isPlayer(r))).toEqual([]);
    expectNoKey(runDir);
  });

  it('builtin:anthropic writes a bot that validates and plays; tokens are in the cost record', () => {
    const record = JSON.parse(fs.readFileSync(path.join(strategies(runDir), 'coder.strategy.json'), 'utf8'));
    const buildLog = fs.readFileSync(path.join(strategies(runDir), 'coder.build.log'), 'utf8');
    expect(record.status, buildLog).toBe('ok');
    expect(record.agentKind).toBe(`builtin:anthropic/${CODER}`);
    const requests = roundServer.requests.filter(isCoder);
    expect(requests.map((r) => [r.model, r.stream])).toEqual(Array(3).fill([CODER, false]));
    // Prompt caching: the system prompt is marked cache_control ephemeral, and each later step's
    // last message too (Anthropic caches only where a block asks: its prompt-caching guide).
    const first = requests[0]!;
    expect(first.body.system).toEqual([
      expect.objectContaining({ type: 'text', cache_control: { type: 'ephemeral' } }),
    ]);
    const lastBlock = (r: ScriptedRequest) => JSON.stringify((r.body.messages as Array<{ content: unknown }>).at(-1));
    expect(lastBlock(requests[1]!)).toContain('"cache_control":{"type":"ephemeral"}');
    // The tools went over as Anthropic tools (name, description, input_schema); the results came back as tool_result blocks.
    expect(first.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['write_file', 'test_bot', 'finish']));
    for (const t of first.tools) expect(t.input_schema).toMatchObject({ type: 'object' });
    expect(first.system.length).toBeGreaterThan(0);
    expect(first.maxTokens).toBeGreaterThan(0);
    expect(toolResults(requests[2]!).join('\n')).toMatch(/validation: passed/);
    for (const file of ['start_ai.sh', 'bot.mjs', 'bot-http.mjs']) {
      expect(fs.readFileSync(path.join(strategies(runDir), 'coder', file), 'utf8')).toBe(
        fs.readFileSync(path.join(sample, file), 'utf8'),
      );
    }
    expect(record.cost.tokens).toEqual(roundServer.totalUsage(isCoder));
    expect(record.cost.toolCalls).toBe(5);
    expect(summary.tracks[0]!.cost.coder!.tokens).toEqual(roundServer.totalUsage(isCoder));
  });

  it('llm-player:anthropic asks the model for every move and plays the round', () => {
    const record = JSON.parse(fs.readFileSync(path.join(strategies(runDir), 'player.strategy.json'), 'utf8'));
    expect(record.status, fs.readFileSync(path.join(strategies(runDir), 'player.build.log'), 'utf8')).toBe('ok');
    expect(record.agentKind).toBe(`llm-player:anthropic/${PLAYER}`);
    // Its play-time tokens, by kind, are the server's (costed in the report's cost table).
    expect(summary.tracks[0]!.llmPlayers!.player!.play!['1']!.tokens).toMatchObject(roundServer.totalUsage(isPlayer));
    expect(record.cost.tokens).toBeNull(); // no development; play-time tokens are the bot's
    const requests = roundServer.requests.filter(isPlayer);
    for (const r of requests) {
      expect([r.model, r.stream, r.maxTokens]).toEqual([PLAYER, false, 256]);
      expect(r.system).toMatch(/gomoku|five/i); // the rules
      expect(lastUserText(r)).toMatch(/Your legal actions \(\d+\)/);
    }
    // Every move of the two games was the model's: no fallback, and the bots' token counts are the server's.
    const logs = fs
      .readdirSync(runDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.log'))
      .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'));
    const lines = logs.join('\n').split('\n');
    expect(lines.filter((l) => l.startsWith('[llm-player] fallback'))).toEqual([]);
    const stats = lines
      .filter((l) => l.startsWith('[llm-player] stats game='))
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))));
    expect(stats.length).toBeGreaterThanOrEqual(2);
    const answered = stats.reduce((s, x) => s + x.answered, 0);
    expect(answered).toBeGreaterThan(4);
    expect(stats.reduce((s, x) => s + x.tokens.input, 0)).toBe(120 * answered);
  });
});
