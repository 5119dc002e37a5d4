// The exchange tape's capture points one at a time, over real HTTP against the scripted
// OpenAI-compatible server: a streamed (SSE) answer is recorded as its whole byte stream and
// replayed as a stream (more than one chunk, the same bytes), through the built-in agent's fetch
// and through the egress proxy; a key a client echoes into a body, sends in a header or a `key=`
// query is in no recorded byte; volatile fields do not make a request differ, a changed prompt does;
// the unsafe sandbox's loopback relay keeps the key on the host and records.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { PLACEHOLDER_KEY, startEgressProxy, type EgressProxy } from '../sandbox/egress-proxy.ts';
import { loopbackRelay } from '../sandbox/loopback-relay.ts';
import { tapFetch } from '../util/exchange-tape/fetch-tap.ts';
import { redactUrl } from '../util/exchange-tape/redact.ts';
import { TapeReplayer } from '../util/exchange-tape/replayer.ts';
import { readExchanges, TapeRecorder } from '../util/exchange-tape/tape.ts';
import { tempDir } from './helpers/bots.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

const KEY = 'sk-tape-canary-91c2-do-not-record';
const CHANNEL = { agent: 'a', track: 'gomoku-standard', round: 1 };
const chat = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content }], ...extra });
const post = (body: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
  body,
});

/** A response's body as the chunks it arrived in. */
async function chunksOf(res: Response): Promise<Buffer[]> {
  const out: Buffer[] = [];
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(Buffer.from(value));
  }
}

/** A fetch that fails the test if a replay reaches it. */
const noNetwork: typeof fetch = async () => {
  throw new Error('the replay reached the network');
};

let server: ScriptedLlm | undefined;
const proxies: EgressProxy[] = [];
afterEach(async () => {
  await server?.close();
  for (const p of proxies.splice(0)) await p.close();
});

describe('the exchange tape', () => {
  it("the built-in agent's fetch: a streamed answer recorded whole, replayed as a stream; volatile fields ignored, a changed prompt diverges", async () => {
    server = await startScriptedLlm(() => ({ text: 'forty-two, a long answer streamed in pieces' }), { key: KEY });
    const runDir = tempDir();
    const recording = tapFetch(fetch, new TapeRecorder(runDir, { OPENAI_API_KEY: KEY }).tap(CHANNEL), 1);
    const live = await recording(`${server.baseURL}/chat/completions`, post(chat('why?', { user: 'u-1' })));
    const liveBytes = Buffer.concat(await chunksOf(live));
    await (await recording(`${server.baseURL}/chat/completions`, post(chat('and then?')))).text();
    expect(liveBytes.toString()).toContain('data: [DONE]');
    await new Promise((r) => setTimeout(r, 50)); // the tee's copy is written once read to its end
    const [line] = readExchanges(runDir);
    expect(line).toMatchObject({ ...CHANNEL, attempt: 1, order: 1, status: 200, stream: true, source: 'fetch' });
    expect(readExchanges(runDir).map((l) => l.order)).toEqual([1, 2]);
    expect(line!.usage).toBeDefined();

    const rerunDir = tempDir();
    const replayer = new TapeReplayer(runDir, { rerunDir });
    const replaying = tapFetch(noNetwork, replayer.tap(CHANNEL), 1);
    // Another `user` (a routing hint) and a uuid in the prompt are volatile: the same request.
    const again = await replaying('http://127.0.0.1:9/v1/chat/completions', post(chat('why?', { user: 'u-2' })));
    expect(again.headers.get('content-type')).toMatch(/text\/event-stream/);
    const chunks = await chunksOf(again);
    expect(chunks.length).toBeGreaterThan(2);
    expect(Buffer.concat(chunks).equals(liveBytes)).toBe(true);
    // The next request asks something else: a divergence, refused, never sent.
    const other = await replaying('http://127.0.0.1:9/v1/chat/completions', post(chat('why not?')));
    expect(other.status).toBe(400);
    expect(await other.text()).toMatch(/differs from the recorded run/);
    expect(replayer.divergences).toHaveLength(1);
    expect(replayer.divergences[0]!.differences).toContainEqual({
      path: '$.body.messages[0].content',
      recorded: 'and then?',
      rerun: 'why not?',
    });
  });

  it('the egress proxy: records what it forwards (key added after the tap), replays it as a stream with no upstream', async () => {
    server = await startScriptedLlm(() => ({ text: `I was told ${KEY}` }), { key: KEY });
    const runDir = tempDir();
    const recorder = new TapeRecorder(runDir, { ANTHROPIC_API_KEY: 'x', OPENAI_API_KEY: KEY });
    const proxy = await startEgressProxy({
      allow: [],
      upstream: { url: server.baseURL, headers: { authorization: `Bearer ${KEY}` } },
      listen: { port: 0 },
      tap: recorder.tap(CHANNEL),
    });
    proxies.push(proxy);
    // The client holds a placeholder; it echoes the real key into its prompt (hostile).
    const body = chat(`my key is ${KEY}`);
    const res = await fetch(`${proxy.address}/v1/chat/completions`, {
      ...post(body),
      headers: { 'content-type': 'application/json', authorization: 'Bearer placeholder' },
    });
    const liveBytes = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const [line] = readExchanges(runDir);
    expect(line).toMatchObject({ source: 'egress', stream: true, status: 200 });
    expect(line!.requestHeaders.authorization).toBe('***');
    // Gemini's key may ride in the query: masked there too.
    expect(redactUrl(`https://g.example/v1beta/models/m:streamGenerateContent?alt=sse&key=${KEY}`)).toBe(
      'https://g.example/v1beta/models/m:streamGenerateContent?alt=sse&key=***',
    );
    for (const e of fs.readdirSync(path.join(runDir, 'recordings'), { recursive: true, withFileTypes: true })) {
      if (!e.isFile()) continue;
      const raw = fs.readFileSync(path.join(e.parentPath, e.name));
      expect(raw.includes(KEY), e.name).toBe(false);
      if (e.name.endsWith('.gz')) expect(zlib.gunzipSync(raw).includes(KEY), e.name).toBe(false);
    }

    // Replay: the upstream is a closed port; the answer comes from the tape, chunked as a stream.
    const replayer = new TapeReplayer(runDir, { rerunDir: tempDir(), env: { OPENAI_API_KEY: KEY } });
    const replaying = await startEgressProxy({
      allow: [],
      upstream: { url: 'http://127.0.0.1:9/v1', headers: { authorization: `Bearer ${KEY}` } },
      listen: { port: 0 },
      tap: replayer.tap(CHANNEL),
    });
    proxies.push(replaying);
    const again = await fetch(`${replaying.address}/v1/chat/completions`, post(body));
    expect(again.status).toBe(200);
    const replayed = Buffer.from(await again.arrayBuffer());
    // The recorded answer is the redacted one: the key the model echoed is masked, the rest the same.
    expect(replayed.toString()).toBe(liveBytes.toString().split(KEY).join('***'));
    expect(replayer.replayed).toBe(1);
  });

  it("the unsafe sandbox's loopback relay: the bot gets a placeholder key and a loopback base URL; the relay adds the key and records", async () => {
    server = await startScriptedLlm(() => ({ text: '7' }), { key: KEY });
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'catarena-env.json'),
      JSON.stringify({
        passEnv: ['OPENAI_API_KEY'],
        egress: {
          baseUrlVar: 'CATARENA_TEST_LLM_URL',
          baseUrl: server.baseURL,
          keyVars: ['OPENAI_API_KEY'],
          keyHeader: 'authorization',
        },
      }),
    );
    const before = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    const runDir = tempDir();
    try {
      const relay = (await loopbackRelay(dir, new TapeRecorder(runDir).tap(CHANNEL)))!;
      try {
        expect(relay.env.OPENAI_API_KEY).toBe(PLACEHOLDER_KEY);
        const base = relay.env.CATARENA_TEST_LLM_URL!;
        expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        // The bot, as it would: its base URL and the key it holds (a placeholder the server refuses alone).
        const res = await fetch(`${base}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${relay.env.OPENAI_API_KEY}` },
          body: JSON.stringify({ model: 'scripted', messages: [{ role: 'user', content: 'move?' }] }),
        });
        expect(res.status).toBe(200);
        await res.text();
        await new Promise((r) => setTimeout(r, 50));
        expect(readExchanges(runDir)).toHaveLength(1);
        expect(server.requests).toHaveLength(1);
      } finally {
        await relay.close();
      }
    } finally {
      if (before === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = before;
    }
  });
});
