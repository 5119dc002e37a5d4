// The LLM-player (llm-player:<provider>/<model>): its bot asks a model for every action. No LLM
// API is reachable here, so a scripted OpenAI-compatible chat-completions server in this file
// answers with option numbers (and, on purpose, with garbage and HTTP errors), checking the key.
// Over 30 s: with Docker, every game played move by move through a scripted model, in the process
// sandbox and, with Docker, in a container behind the egress proxy (30.5 s while two other files
// ran).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmPlayerAgent, LLM_PLAYER_BOT_DIR, PROTOCOL_MARKER } from '../agents/llm-player/agent.ts';
import { createAgent } from '../agents/registry.ts';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { runArena, type ArenaOptions } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { allocatePort, releasePort } from '../sandbox/ports.ts';
import { botPath, passEnvFor, PASS_ENV_FILE } from '../sandbox/bot-env.ts';
import type { BotHandle, BotStartOptions, Sandbox } from '../sandbox/types.ts';
import { BUILTIN, botDir, dockerReady, tempDir } from './helpers/bots.ts';
import { replaysIn } from './helpers/replays.ts';

const KEY = 'sk-test-secret';
// unsafe: these tests call the bots' ports directly and pass the key through catarena-env.json (docker below: the egress proxy).
const sandbox = createSandbox('unsafe');
afterAll(() => sandbox.close());

// ---- the scripted LLM ---------------------------------------------------------------------------

type Mode = 'mixed' | 'garbage' | 'slow';
interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
}
interface LlmServer {
  url: string;
  /** Every well-authorised chat request, in arrival order. */
  requests: ChatRequest[];
  /** Requests answered 200 (each with usage 100 in / 2 out). */
  answered: number;
  badAuth: number;
  close(): Promise<void>;
}

/**
 * mixed: mostly a valid option number (a deterministic pseudo-random one), but every 4th answer is
 * prose without a number, every 7th an out-of-range number and every 11th an HTTP 500, so retries
 * happen (and now and then three failures in a row). garbage: never an option. slow: a valid
 * answer after 3 s.
 */
async function startLlm(mode: Mode): Promise<LlmServer> {
  const state: LlmServer = { url: '', requests: [], answered: 0, badAuth: 0, close: async () => {} };
  let n = 0;
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(404, { error: 'not found' });
      if (req.headers.authorization !== `Bearer ${KEY}`) {
        state.badAuth++;
        return send(401, { error: { message: 'bad key' } });
      }
      const body = JSON.parse(text) as ChatRequest;
      state.requests.push(body);
      n++;
      const last = body.messages.at(-1)!.content;
      const count = Number(/from 1 to (\d+)/.exec(last)?.[1] ?? 1);
      if (mode === 'mixed' && n % 11 === 0) return send(500, { error: { message: 'overloaded' } });
      if (mode === 'slow') {
        setTimeout(
          () => send(200, { choices: [{ index: 0, message: { role: 'assistant', content: '1' } }] }),
          3_000,
        ).unref();
        return;
      }
      let content: string;
      if (mode === 'garbage') content = 'I would rather discuss the weather.';
      else if (n % 4 === 0) content = 'Hmm, hard to say, let me think about it.';
      else if (n % 7 === 0) content = String(count + 5);
      else content = String(1 + ((n * 7919) % count));
      state.answered++;
      send(200, {
        id: `chatcmpl-${n}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 2, total_tokens: 102 },
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return state;
}

// ---- helpers ------------------------------------------------------------------------------------

interface Stats {
  requests: number;
  forced: number;
  llmCalls: number;
  llmErrors: number;
  invalidAnswers: number;
  answered: number;
  failures: number;
  tokens: { input: number; cacheRead: number; cacheWrite: number; output: number };
}

/** The process sandbox, but every bot's GET /stats is read just before the bot is stopped. */
function statsSandbox(
  inner: Sandbox,
  seen: Array<{ name: string; totals: Stats; games: Record<string, Stats> }>,
): Sandbox {
  return {
    kind: inner.kind,
    reapStrays: (dir) => inner.reapStrays(dir),
    close: () => inner.close(),
    async start(o: BotStartOptions): Promise<BotHandle> {
      const handle = await inner.start(o);
      const stop = async () => {
        try {
          const res = await fetch(`${handle.url}/stats`, { signal: AbortSignal.timeout(2000) });
          if (res.ok)
            seen.push({
              name: handle.name,
              ...((await res.json()) as { totals: Stats; games: Record<string, Stats> }),
            });
        } catch {
          // not an LLM player, or already gone
        }
        return handle.stop();
      };
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'stop') return stop;
          const v = Reflect.get(target, prop, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    },
  };
}

async function developed(
  game: string,
  variant: string,
  moveTimeoutMs: number,
  spec = 'llm-player:openai/test-model',
): Promise<string> {
  const agent = createAgent(spec, 1);
  expect(agent).toBeInstanceOf(LlmPlayerAgent);
  const ws = await buildWorkspace({
    dir: path.join(tempDir('catarena-llmp-'), 'ws'),
    game,
    variant,
    round: 1,
    agentId: agent.id,
    seed: 1,
    moveTimeoutMs,
  });
  const result = await agent.develop(ws, { wallMs: 60_000 });
  expect(result.cost.tokens).toBeNull();
  expect(result.cost.linesOfCode).toBeGreaterThan(100);
  return result.botDir;
}

/** Runs with the key and the scripted server's URL in the orchestrator's environment only. */
async function withLlmEnv<T>(llm: LlmServer, work: () => Promise<T>): Promise<T> {
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.CATARENA_LLM_BASE_URL };
  process.env.OPENAI_API_KEY = KEY;
  process.env.CATARENA_LLM_BASE_URL = `${llm.url}/v1`;
  try {
    return await work();
  } finally {
    for (const [name, value] of [
      ['OPENAI_API_KEY', saved.key],
      ['CATARENA_LLM_BASE_URL', saved.url],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function arena(
  game: string,
  variant: string,
  bots: Array<{ id: string; dir: string }>,
  seen: Parameters<typeof statsSandbox>[1],
  extra: Partial<ArenaOptions> = {},
  inner: Sandbox = sandbox,
) {
  const hosts = new GameServerPool({ ports: { [`${game}/${variant}`]: 0 } });
  try {
    return await runArena({
      game,
      variant,
      bots,
      reps: 1,
      seed: 11,
      concurrency: 1,
      maxGames: game === 'gomoku' ? 1 : undefined,
      limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
      policy: 'strict',
      runDir: tempDir('catarena-llmp-run-'),
      sandbox: inner.kind === 'unsafe' ? statsSandbox(inner, seen) : inner,
      hosts,
      startTimeoutMs: 15_000,
      ...extra,
    });
  } finally {
    await hosts.closeAll();
  }
}

const replaysOf = (runDir: string): Replay[] => replaysIn(path.join(runDir, 'replays'));

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** (d) The key is in no file of these folders. */
function expectNoKey(...dirs: string[]): void {
  for (const dir of dirs) {
    const files = filesUnder(dir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files)
      expect(fs.readFileSync(file, 'latin1').includes(KEY), `${file} holds the key`).toBe(false);
  }
}

const sum = (list: Stats[], field: Exclude<keyof Stats, 'tokens'>) => list.reduce((a, s) => a + s[field], 0);
const logOf = (runDir: string, id: string) => fs.readFileSync(path.join(runDir, 'logs', `${id}.log`), 'utf8');
const fallbackLines = (log: string) => log.split('\n').filter((l) => l.startsWith('[llm-player] fallback')).length;

// ---- the tests ----------------------------------------------------------------------------------

describe('the LLM-player agent', () => {
  it('writes the bot folder for every game: game.json, rules.md, catarena-env.json (names only), chess-core.mjs for chess', async () => {
    process.env.OPENAI_API_KEY = KEY; // set while developing: it must not end up in any file
    try {
      for (const game of ['gomoku', 'chess', 'holdem', 'bridge']) {
        const dir = await developed(game, 'variant', 4_000);
        const cfg = JSON.parse(fs.readFileSync(path.join(dir, 'game.json'), 'utf8'));
        // What the model is sent, from the model table (test-model is not in it: sent as asked, nothing asked).
        expect(cfg).toEqual({
          game,
          variant: 'variant',
          provider: 'openai',
          model: 'test-model',
          moveTimeoutMs: 4_000,
          call: { api: 'chat' },
          samplingPlan:
            'chat: sent the model defaults; asked the model defaults (test-model is not in the model table: sent as asked)',
        });
        expect(JSON.parse(fs.readFileSync(path.join(dir, PASS_ENV_FILE), 'utf8'))).toEqual({
          passEnv: ['OPENAI_API_KEY', 'CATARENA_LLM_BASE_URL', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'],
          egress: {
            baseUrlVar: 'CATARENA_LLM_BASE_URL',
            baseUrl: 'https://api.openai.com/v1',
            keyVars: ['OPENAI_API_KEY'],
            keyHeader: 'authorization',
          },
        });
        const rules = fs.readFileSync(path.join(dir, 'rules.md'), 'utf8');
        expect(rules).toContain(fs.readFileSync(path.resolve('games', game, 'env', 'rules_variant.md'), 'utf8').trim());
        expect(rules.indexOf(PROTOCOL_MARKER)).toBeGreaterThan(0);
        expect(rules.slice(rules.indexOf(PROTOCOL_MARKER))).toContain(
          fs.readFileSync(path.resolve('games', game, 'env', 'develop_instruction.md'), 'utf8').trim(),
        );
        expect(fs.existsSync(path.join(dir, 'chess-core.mjs'))).toBe(game === 'chess');
        for (const f of fs.readdirSync(LLM_PLAYER_BOT_DIR)) expect(fs.existsSync(path.join(dir, f))).toBe(true);
        expectNoKey(dir);
      }
      // Hold'em's and Bridge's variant rules build on the standard ones: both are in rules.md.
      const holdem = fs.readFileSync(path.join(await developed('holdem', 'variant', 3_000), 'rules.md'), 'utf8');
      expect(holdem.indexOf('standard rules')).toBeLessThan(holdem.indexOf('variant rules'));
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
    expect(createAgent('llm-player:anthropic/claude-x#mine', 1).id).toBe('mine');
    expect(createAgent('llm-player:openai-compatible/meta-llama/Llama-3:8b', 1).id).toBe(
      'llm-player-meta-llama_Llama-3_8b',
    );
    expect(() => createAgent('llm-player:openai/gpt 4o', 1)).toThrow(/bad llm-player spec/);
    expect(createAgent('llm-player:google/gemini-2.5-flash', 1).kind).toBe('llm-player:google/gemini-2.5-flash');
    expect(() => createAgent('llm-player:mystery/model', 1)).toThrow(/unknown provider "mystery"/);
    expect(() => createAgent('llm-player:openai', 1)).toThrow(/expected llm-player:<provider>\/<model>/);
  }, 60_000);

  it('reads answers leniently: an option number, the action itself, or the first integer in range', async () => {
    const { parseAnswer } = (await import(pathToFileURL(path.join(LLM_PLAYER_BOT_DIR, 'answer.mjs')).href)) as {
      parseAnswer: (
        text: string,
        options: Array<{ label: string; aliases?: string[] }>,
        free?: (t: string) => unknown,
      ) => { ok: boolean; option?: { label: string }; why?: string };
    };
    const opts = [
      { label: '(7,7)' },
      { label: 'e2e4' },
      { label: 'call 20', aliases: ['call'] },
      { label: 'bid 1NT', aliases: ['1NT'] },
    ];
    const pick = (t: string) => parseAnswer(t, opts).option?.label;
    expect(pick('2')).toBe('e2e4');
    expect(pick(' #3. ')).toBe('call 20');
    expect(pick('<think>maybe 1</think>4')).toBe('bid 1NT');
    expect(pick('[7, 7]')).toBe('(7,7)');
    expect(pick('I play e2e4!')).toBe('e2e4');
    expect(pick('I call.')).toBe('call 20');
    expect(pick('1nt')).toBe('bid 1NT');
    expect(pick('I think option 9 or maybe 3')).toBe('call 20');
    expect(parseAnswer('9', opts)).toMatchObject({ ok: false, why: 'is not an option number (1 to 4)' });
    expect(parseAnswer('no idea', opts)).toMatchObject({ ok: false, why: 'holds no option number' });
    expect(parseAnswer('', opts)).toMatchObject({ ok: false });
  });

  it('(a) plays a full Gomoku game through runArena, asking the model for every move with the legal moves in the prompt', async () => {
    const llm = await startLlm('mixed');
    const seen: Parameters<typeof statsSandbox>[1] = [];
    try {
      const dir = await developed('gomoku', 'standard', 5_000);
      const out = await withLlmEnv(llm, () =>
        arena(
          'gomoku',
          'standard',
          [
            { id: 'llm', dir },
            { id: 'random', dir: BUILTIN('random') },
          ],
          seen,
        ),
      );
      expect(out.results).toHaveLength(1);
      const result = out.results[0]!;
      expect(result.termination, result.reason).toBe('normal');
      const [replay] = replaysOf(out.runDir);
      const llmSeat = result.spec.seats.indexOf('llm');
      const llmMoves = replay!.moves.filter((m) => m.seat === llmSeat);
      expect(llmMoves.length).toBeGreaterThan(3);
      expect(replay!.moves.filter((m) => m.error)).toEqual([]);

      expect(llm.badAuth).toBe(0);
      expect(llm.requests.length).toBeGreaterThan(llmMoves.length); // retries happened
      for (const req of llm.requests) {
        expect(req.model).toBe('test-model');
        expect(req.messages[0]!.role).toBe('system');
        expect(req.messages[0]!.content).toContain('five or more');
        const prompt = req.messages[1]!.content;
        // The options are exactly the empty cells of the board shown.
        const board = prompt.split('\n').filter((l) => /^\s*\d+(\s+[.XO#]){15}$/.test(l));
        expect(board).toHaveLength(15);
        const empty: string[] = [];
        board.forEach((line, i) =>
          line
            .trim()
            .split(/\s+/)
            .slice(1)
            .forEach((c, j) => c === '.' && empty.push(`(${i},${j})`)),
        );
        const options = [...prompt.matchAll(/^(\d+): (\(\d+,\d+\))$/gm)].map((m) => m[2]);
        expect(options).toEqual(empty);
        expect(prompt).toContain(`Answer with one number from 1 to ${empty.length}.`);
      }
      // The retried conversations carry the correction.
      expect(
        llm.requests.some((r) => r.messages.length === 4 && /Reply with only the number/.test(r.messages[3]!.content)),
      ).toBe(true);

      // /stats (read before the bot was stopped) matches what the server and the arena saw.
      expect(seen).toHaveLength(1);
      const stats = seen[0]!;
      expect(Object.keys(stats.games)).toEqual([result.serverGameId]);
      const g = stats.games[result.serverGameId]!;
      expect(g.requests).toBe(llmMoves.length);
      expect(g.llmCalls).toBe(llm.requests.length);
      expect(g.llmErrors).toBe(llm.requests.length - llm.answered);
      expect(g.tokens).toEqual({ input: 100 * llm.answered, cacheRead: 0, cacheWrite: 0, output: 2 * llm.answered });
      expect(g.answered + g.failures + g.forced).toBe(g.requests);
      expect(g.answered).toBeGreaterThan(0);
      expect(g.invalidAnswers).toBeGreaterThan(0);
      expect(stats.totals).toEqual(g);
      expect(fallbackLines(logOf(out.runDir, 'llm'))).toBe(g.failures);
      expectNoKey(dir, out.runDir);
    } finally {
      await llm.close();
    }
  }, 120_000);

  it('(b) falls back to a random legal move after 3 garbage answers, counts it, and never plays a forbidden cell', async () => {
    const llm = await startLlm('garbage');
    const seen: Parameters<typeof statsSandbox>[1] = [];
    try {
      const dir = await developed('gomoku', 'variant', 5_000);
      const out = await withLlmEnv(llm, () =>
        arena(
          'gomoku',
          'variant',
          [
            { id: 'llm', dir },
            { id: 'random', dir: BUILTIN('random') },
          ],
          seen,
        ),
      );
      const result = out.results[0]!;
      expect(result.termination, result.reason).toBe('normal');
      const [replay] = replaysOf(out.runDir);
      expect(replay!.moves.filter((m) => m.error)).toEqual([]);
      const llmMoves = replay!.moves.filter((m) => m.seat === result.spec.seats.indexOf('llm'));
      const forbidden = new Set((replay!.setup as { forbidden: number[][] }).forbidden.map((p) => p.join(',')));
      expect(forbidden.size).toBe(15);
      for (const m of llmMoves) expect(forbidden.has((m.action as number[]).join(','))).toBe(false);
      // The prompt lists neither stones nor forbidden cells among the options.
      expect(llm.requests[0]!.messages[1]!.content).toContain('#');

      const g = seen[0]!.games[result.serverGameId]!;
      expect(g.requests).toBe(llmMoves.length);
      expect(g.failures).toBe(g.requests - g.forced);
      expect(g.answered).toBe(0);
      expect(g.llmCalls).toBe(3 * g.failures);
      expect(g.invalidAnswers).toBe(g.llmCalls);
      expect(llm.requests).toHaveLength(g.llmCalls);
      // A failed action's three attempts: the prompt, then two corrections.
      expect(llm.requests.map((r) => r.messages.length).slice(0, 3)).toEqual([2, 4, 6]);
      const log = logOf(out.runDir, 'llm');
      expect(fallbackLines(log)).toBe(g.failures);
      expect(log).toMatch(
        /fallback game=gomoku_\w+ after 3 attempt\(s\) tokens=\{"input":300,"cacheRead":0,"cacheWrite":0,"output":6\} stop=stop,stop,stop: answer "I would rather discuss the weather\." holds no option number/,
      );
      expectNoKey(dir, out.runDir);
    } finally {
      await llm.close();
    }
  }, 120_000);

  it("(c) completes a Hold'em table and a Bridge board", async () => {
    const llm = await startLlm('mixed');
    try {
      // Hold'em: 3 s per action, as the arena plays it.
      const seenH: Parameters<typeof statsSandbox>[1] = [];
      const holdemDir = await developed('holdem', 'standard', 3_000);
      const holdem = await withLlmEnv(llm, () =>
        arena(
          'holdem',
          'standard',
          [
            { id: 'llm', dir: holdemDir },
            { id: 'random', dir: BUILTIN('random', 'holdem') },
            { id: 'heuristic', dir: BUILTIN('heuristic', 'holdem') },
          ],
          seenH,
          {
            limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
            protocolOptions: { handCap: 10 },
          },
        ),
      );
      expect(holdem.results).toHaveLength(1);
      expect(holdem.results[0]!.termination, holdem.results[0]!.reason).toBe('normal');
      const holdemReplay = replaysOf(holdem.runDir)[0]!;
      const llmSeat = holdem.results[0]!.spec.seats.indexOf('llm');
      const llmActions = holdemReplay.moves.filter((m) => m.seat === llmSeat && !m.standIn);
      expect(llmActions.length).toBeGreaterThan(0);
      expect(llmActions.filter((m) => m.error)).toEqual([]);
      const h = seenH.find((s) => s.name.includes('llm'))?.totals ?? seenH[0]!.totals;
      expect(h.requests).toBe(llmActions.length);
      expect(h.answered + h.failures + h.forced).toBe(h.requests);
      expect(fallbackLines(logOf(holdem.runDir, 'llm'))).toBe(h.failures);
      const holdemPrompt = llm.requests.find((r) => /hole cards/.test(r.messages[1]!.content))!.messages[1]!.content;
      expect(holdemPrompt).toMatch(/^\d+: (fold|check|call \d+|raise to \d+|all_in \d+)$/m);

      // Bridge: one board in two rooms; the partnership is two processes of the LLM player.
      const before = llm.requests.length;
      const seenB: Parameters<typeof statsSandbox>[1] = [];
      const bridgeDir = await developed('bridge', 'standard', 5_000);
      const bridge = await withLlmEnv(llm, () =>
        arena(
          'bridge',
          'standard',
          [
            { id: 'llm', dir: bridgeDir },
            { id: 'random', dir: BUILTIN('random', 'bridge') },
          ],
          seenB,
        ),
      );
      expect(bridge.results).toHaveLength(2);
      for (const r of bridge.results) expect(r.termination, r.reason).toBe('normal');
      const replays = replaysOf(bridge.runDir);
      const llmBridgeActions = replays.flatMap((rp) => rp.moves.filter((m) => rp.result.spec.seats[m.seat] === 'llm'));
      expect(llmBridgeActions.length).toBeGreaterThan(10);
      expect(replays.flatMap((rp) => rp.moves.filter((m) => m.error))).toEqual([]);
      const llmStats = seenB.filter((s) => s.totals.requests > 0).map((s) => s.totals);
      expect(llmStats.length).toBeGreaterThanOrEqual(1);
      expect(sum(llmStats, 'requests')).toBe(llmBridgeActions.length);
      expect(sum(llmStats, 'llmCalls')).toBe(llm.requests.length - before);
      const bridgePrompt = llm.requests
        .slice(before)
        .map((r) => r.messages[1]!.content)
        .find((p) => /: play [2-9TJQKA][CDHS]$/m.test(p));
      expect(bridgePrompt).toBeDefined();
      expect(llm.badAuth).toBe(0);
      expectNoKey(holdemDir, holdem.runDir, bridgeDir, bridge.runDir);
    } finally {
      await llm.close();
    }
  }, 180_000);

  it('plays chess from its chess-core.mjs copy, and refuses to start without its key', async () => {
    const llm = await startLlm('mixed');
    const dir = await developed('chess', 'standard', 5_000);
    const port = await allocatePort();
    releasePort(port);
    try {
      const bot = await withLlmEnv(llm, () => sandbox.start({ dir, port, startTimeoutMs: 10_000 }));
      try {
        const res = await fetch(`${bot.url}/move`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
            algorithm: 'simple',
            game_id: 'chess_00000001',
            current_player: 'white',
          }),
        });
        const { move } = (await res.json()) as { move: string };
        const prompt = llm.requests[0]!.messages[1]!.content;
        const options = [...prompt.matchAll(/^\d+: ([a-h][1-8][a-h][1-8][qrbn]?)$/gm)].map((m) => m[1]);
        expect(options).toHaveLength(20);
        expect(options).toContain(move);
        expect(prompt).toContain('FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      } finally {
        await bot.stop();
      }
      // No key in the orchestrator's environment: the bot says so and exits.
      delete process.env.OPENAI_API_KEY;
      const err = await sandbox.start({ dir, port, startTimeoutMs: 10_000 }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/OPENAI_API_KEY is not set in the bot's environment/);
    } finally {
      await llm.close();
    }
  }, 60_000);
});

describe('the deadline', () => {
  it('stops asking after 80% of the per-action time and plays a random legal action', async () => {
    const llm = await startLlm('slow');
    const dir = await developed('gomoku', 'standard', 1_000);
    const port = await allocatePort();
    releasePort(port);
    try {
      const bot = await withLlmEnv(llm, () => sandbox.start({ dir, port, startTimeoutMs: 10_000 }));
      try {
        const board = Array.from({ length: 15 }, () => Array(15).fill(0));
        board[7]![7] = 1;
        const started = Date.now();
        const res = await fetch(`${bot.url}/get_move`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ game_id: 'gomoku_0000dead', board, current_player: 'white' }),
        });
        const elapsed = Date.now() - started;
        const { move } = (await res.json()) as { move: [number, number] };
        expect(elapsed).toBeGreaterThanOrEqual(700);
        expect(elapsed).toBeLessThan(2_500); // 800 ms budget + overhead (wide: CI machines are loaded), before the 3 s answer
        expect(board[move[0]]![move[1]]).toBe(0);
        const stats = (await (await fetch(`${bot.url}/stats`)).json()) as {
          budgetMs: number;
          games: Record<string, Stats>;
        };
        expect(stats.budgetMs).toBe(800);
        expect(stats.games.gomoku_0000dead).toMatchObject({
          requests: 1,
          llmCalls: 1,
          llmErrors: 1,
          failures: 1,
          answered: 0,
        });
        await bot.stop();
        expect(await bot.logTail()).toMatch(
          /fallback game=gomoku_0000dead after 1 attempt\(s\) tokens=\{"input":0,"cacheRead":0,"cacheWrite":0,"output":0\} stop=error: LLM error: request failed: timed out; out of time \(800 ms budget\)/,
        );
      } finally {
        await bot.stop();
      }
    } finally {
      await llm.close();
    }
  });
});

describe('(e) the process sandbox passes catarena-env.json variables', () => {
  const names = ['CATARENA_TEST_PASS_A', 'CATARENA_TEST_PASS_B', 'CATARENA_TEST_NOT_LISTED'];
  beforeAll(() => {
    process.env.CATARENA_TEST_PASS_A = 'alpha';
    process.env.CATARENA_TEST_PASS_B = 'beta';
    process.env.CATARENA_TEST_NOT_LISTED = 'gamma';
  });
  afterAll(() => {
    for (const n of names) delete process.env[n];
  });

  const ENV_BOT = `env > env.txt\nexec ${JSON.stringify(process.execPath)} -e "require('http').createServer((q, s) => s.end('{\\"status\\":\\"healthy\\"}')).listen(+process.argv[1])" "$1"\n`;

  async function envOf(
    files: Record<string, string>,
    env?: Record<string, string>,
  ): Promise<{ env: Record<string, string>; log: string }> {
    const dir = botDir('env_bot', ENV_BOT, files);
    const port = await allocatePort();
    releasePort(port);
    const logFile = path.join(tempDir(), 'bot.log');
    const bot = await sandbox.start({ dir, port, env, logFile, startTimeoutMs: 10_000 });
    await bot.stop();
    const lines = fs.readFileSync(path.join(dir, 'env.txt'), 'utf8').trim().split('\n');
    return {
      env: Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])),
      log: fs.readFileSync(logFile, 'utf8'),
    };
  }

  it('gets exactly the listed variables that are set; without the file, none', async () => {
    const listed = await envOf({
      [PASS_ENV_FILE]: JSON.stringify({
        passEnv: ['CATARENA_TEST_PASS_A', 'CATARENA_TEST_PASS_B', 'CATARENA_TEST_UNSET'],
      }),
    });
    expect(listed.env.CATARENA_TEST_PASS_A).toBe('alpha');
    expect(listed.env.CATARENA_TEST_PASS_B).toBe('beta');
    expect('CATARENA_TEST_UNSET' in listed.env).toBe(false);
    expect(listed.env.CATARENA_TEST_NOT_LISTED).toBeUndefined();
    const plain = await envOf({});
    for (const n of names) expect(plain.env[n]).toBeUndefined();
    // Exactly: the difference between the two is the two listed variables.
    expect(
      Object.keys(listed.env)
        .filter((k) => !(k in plain.env))
        .sort(),
    ).toEqual(['CATARENA_TEST_PASS_A', 'CATARENA_TEST_PASS_B']);
  });

  it('ignores bad names and the scrubbed base, lets options.env win, and notes a malformed file in the log', async () => {
    const out = await envOf(
      {
        [PASS_ENV_FILE]: JSON.stringify({
          passEnv: ['PATH', 'HOME', 'lower_case', 'A-B', 42, 'CATARENA_TEST_PASS_A', 'CATARENA_TEST_PASS_B'],
        }),
      },
      { CATARENA_TEST_PASS_B: 'from-options' },
    );
    // PATH cannot be passed: the bot keeps the sandbox's own (the scrubbed one, plus a python shim where needed).
    expect(out.env.PATH).toBe(botPath());
    expect(out.env.CATARENA_TEST_PASS_A).toBe('alpha');
    expect(out.env.CATARENA_TEST_PASS_B).toBe('from-options');
    expect(out.log).toMatch(/"lower_case" is not a variable name that may be passed/);
    expect(out.log).toMatch(/"PATH" is not a variable name/);
    const bad = await envOf({ [PASS_ENV_FILE]: '{"passEnv": "CATARENA_TEST_PASS_A"}' });
    expect(bad.env.CATARENA_TEST_PASS_A).toBeUndefined();
    expect(bad.log).toMatch(/catarena-env.json is not \{"passEnv": \[names\]\}/);
    expect(passEnvFor(tempDir())).toEqual({ env: {}, notes: [] });
  });
});

describe.skipIf(!dockerReady())('the LLM-player in the Docker sandbox', () => {
  it('plays a full Gomoku game through the egress proxy; the key is added outside the container', async () => {
    const llm = await startLlm('mixed');
    const docker = createSandbox('docker', { handleSignals: false });
    try {
      const dir = await developed('gomoku', 'standard', 5_000);
      const out = await withLlmEnv(llm, () =>
        arena(
          'gomoku',
          'standard',
          [
            { id: 'llm', dir },
            { id: 'random', dir: BUILTIN('random') },
          ],
          [],
          {},
          docker,
        ),
      );
      const result = out.results[0]!;
      expect(result.termination, result.reason).toBe('normal');
      const [replay] = replaysOf(out.runDir);
      const llmMoves = replay!.moves.filter((m) => m.seat === result.spec.seats.indexOf('llm'));
      expect(llmMoves.length).toBeGreaterThan(3);
      // Every request carried the real key (the scripted server checks it), yet the bot only ever had a placeholder.
      expect(llm.badAuth).toBe(0);
      expect(llm.requests.length).toBeGreaterThanOrEqual(llmMoves.length);
      const log = logOf(out.runDir, 'llm');
      expect(log).not.toMatch(/fallback.*request failed/);
      expectNoKey(dir, out.runDir);
    } finally {
      await docker.close();
      await llm.close();
    }
  }, 180_000);
});
