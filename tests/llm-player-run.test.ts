// The LLM-player in a run as the paper sets it up, against the scripted OpenAI-compatible server:
// its own settings (the paper's Table 6 under --preset paper, tested on the resolved config; a
// longer deadline than the code bots' by default, on its own seat only), sampling options from the
// config or its spec sent in the provider's fields, a 429's wait honoured within the move, and a
// run in which every call failed says so loudly: in report.md, report.html and the end-of-run
// alarm lines, with the share of random fallbacks per agent and track.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pathToFileURL } from 'node:url';
import { createLlmPlayerAgent, LLM_PLAYER_BOT_DIR } from '../agents/llm-player/agent.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import type { MatchResult } from '../records/match.ts';
import {
  llmPlayerSampling,
  llmPlayerSettings,
  PRESETS,
  resolveConfig,
  type TourneyConfigInput,
} from '../orchestrator/config/tourney-config.ts';
import { BuiltinAgent } from '../agents/builtin/agent.ts';
import type { Agent } from '../agents/core/types.ts';
import { sampleBuildTurns } from './helpers/sample-build.ts';
import { stepOf, type ScriptedRequest } from './helpers/scripted-llm.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { roundSpecs } from '../orchestrator/tourney/track-schedule.ts';
import type { StrategyRecord, TourneySummary } from '../records/tourney.ts';
import { buildAlarmLines } from '../reports/alarms.ts';
import { ownEndpoint } from './helpers/agent-round.ts';
import { tempDir } from './helpers/bots.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

const KEY = 'sk-llm-player-run-321';
/** One round of Gomoku standard, the settings every LLM-player round here starts from. */
const ONE_ROUND: TourneyConfigInput = {
  games: ['gomoku'],
  rounds: 1,
  variants: ['standard'],
  concurrency: 2,
  bootstrapSamples: 20,
  llmPlayer: { temperature: 0.3, perGame: {} },
};
let server: ScriptedLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

describe('LLM-player settings', () => {
  it("--preset paper gives LLM-players the paper's Table 6 deadlines and repetitions and its App. C sampling", () => {
    const config = resolveConfig(PRESETS.paper);
    expect(llmPlayerSettings(config, 'gomoku')).toEqual({ reps: 2, moveTimeoutMs: 600_000 });
    expect(llmPlayerSettings(config, 'holdem')).toEqual({ reps: 10, moveTimeoutMs: 1_000_000 });
    expect(llmPlayerSettings(config, 'bridge')).toEqual({ reps: 12, moveTimeoutMs: 200_000 });
    expect(llmPlayerSettings(config, 'chess')).toEqual({ reps: 2, moveTimeoutMs: 600_000 });
    expect(llmPlayerSampling(config)).toEqual({ temperature: 0.1, topP: 1 });
    // The code agents' bots keep the paper's own settings.
    expect(config.perGame.holdem).toMatchObject({ reps: 100, moveTimeoutMs: 3_000 });
  });

  it("--preset paper schedules a Gomoku pairing with an LLM-player for its 2 game pairs (the code bots' pairings keep 4), on its 600 s deadline", () => {
    const config = resolveConfig(PRESETS.paper, { games: ['gomoku'], variants: ['standard'], rounds: 1 });
    const rec = (id: string, agentKind: string) =>
      ({ id, agent: id.split('@')[0]!, agentKind, round: 1 }) as StrategyRecord;
    const specs = roundSpecs(
      config,
      { game: 'gomoku', variant: 'standard' },
      [
        [
          rec('a@r1', 'offline:cautious'),
          rec('b@r1', 'offline:aggressive'),
          rec('p@r1', 'llm-player:openai/gpt-5-mini'),
        ],
      ],
      1,
    );
    const games = (x: string, y: string) => specs.filter((s) => s.seats.includes(x) && s.seats.includes(y));
    expect(games('a@r1', 'b@r1')).toHaveLength(8); // 4 colour-swapped pairs (the paper's code-agent setting)
    expect(games('a@r1', 'p@r1')).toHaveLength(4); // 2 pairs (its LLM-player setting)
    expect(games('b@r1', 'p@r1')).toHaveLength(4);
    for (const s of games('a@r1', 'p@r1')) expect(s.limits.seatMoveMs).toEqual({ 'p@r1': 600_000 });
    for (const s of games('a@r1', 'b@r1')) expect(s.limits.seatMoveMs).toBeUndefined();
  });

  const rec = (id: string, agentKind: string, round = 1) =>
    ({ id, agent: id.split('@')[0]!, agentKind, round }) as StrategyRecord;

  it("--preset paper plays a Hold'em table with an LLM-player for its 10 table rounds (tables without one keep 100)", () => {
    const config = resolveConfig(PRESETS.paper, { games: ['holdem'], variants: ['standard'], rounds: 2 });
    const track = { game: 'holdem', variant: 'standard' };
    const r1 = [rec('a@r1', 'offline:cautious'), rec('p@r1', 'llm-player:openai/gpt-5-mini')];
    const r2 = [rec('a@r2', 'offline:cautious', 2), rec('p@r2', 'llm-player:openai/gpt-5-mini', 2)];
    const rounds = (label: string, specs: ReturnType<typeof roundSpecs>) =>
      new Set(specs.filter((s) => s.batch?.label === label).map((s) => s.batch!.round)).size;
    const first = roundSpecs(config, track, [r1], 1);
    expect(rounds('round:1', first)).toBe(10);
    for (const s of first) expect(s.limits.seatMoveMs).toEqual({ 'p@r1': 1_000_000 });
    // After the last round: the LLM-player's own table and the field have one, the code agent's own table not.
    const last = roundSpecs(config, track, [r1, r2], 2);
    expect(rounds('round:2', last)).toBe(10);
    expect(rounds('own:p', last)).toBe(10);
    expect(rounds('field', last)).toBe(10);
    expect(rounds('own:a', last)).toBe(100);
  });

  it("a Bridge match with an LLM-player plays its own boards in both rooms (paper: 12×2), the code bots' matches the game's", () => {
    const track = { game: 'bridge', variant: 'standard' };
    const round = [rec('a@r1', 'offline:cautious'), rec('b@r1', 'offline:aggressive'), rec('p@r1', 'llm-player:x/y')];
    const games = (specs: ReturnType<typeof roundSpecs>, x: string, y: string) =>
      specs.filter((s) => s.duplicate?.teams.includes(x) && s.duplicate.teams.includes(y));
    const paper = roundSpecs(resolveConfig(PRESETS.paper, { games: ['bridge'], rounds: 1 }), track, [round], 1);
    expect(games(paper, 'a@r1', 'p@r1')).toHaveLength(24);
    for (const s of games(paper, 'a@r1', 'p@r1')) expect(s.limits.seatMoveMs).toEqual({ 'p@r1': 200_000 });
    const own = resolveConfig({
      games: ['bridge'],
      rounds: 1,
      perGame: { bridge: { reps: 6 } },
      llmPlayer: { perGame: { bridge: { reps: 3 } } },
    });
    const specs = roundSpecs(own, track, [round], 1);
    expect(games(specs, 'a@r1', 'b@r1')).toHaveLength(12);
    expect(games(specs, 'a@r1', 'p@r1')).toHaveLength(6);
    expect(games(specs, 'b@r1', 'p@r1')).toHaveLength(6);
    for (const s of games(specs, 'a@r1', 'p@r1')) expect(s.duplicate!.boards).toBe(3);
    // The code bots' match is the one a run without the LLM-player plays.
    const without = roundSpecs(own, track, [round.slice(0, 2)], 1);
    expect(games(specs, 'a@r1', 'b@r1')).toEqual(without);
  });

  it('by default an LLM-player gets at least 60 s a move, and a config or spec sets its own', () => {
    const config = resolveConfig({});
    expect(llmPlayerSettings(config, 'holdem').moveTimeoutMs).toBe(60_000);
    const own = resolveConfig({
      llmPlayer: { moveTimeoutMs: 90_000, reasoningEffort: 'low', perGame: { chess: { moveTimeoutMs: 120_000 } } },
    });
    expect(llmPlayerSettings(own, 'gomoku').moveTimeoutMs).toBe(90_000);
    expect(llmPlayerSettings(own, 'chess').moveTimeoutMs).toBe(120_000);
    expect(() => resolveConfig({ llmPlayer: { reasoningEffort: 'extreme' as never } })).toThrow(
      /llmPlayer\.reasoningEffort/,
    );
    expect(() => createLlmPlayerAgent('llm-player:openai/gpt-5?effort=low')).toThrow(/unknown option "effort"/);
  });

  it("reads a refused request's wait as each provider gives it: retry-after-ms, retry-after (seconds or a date), Google's RetryInfo in the body", async () => {
    const { retryAfterMs } = (await import(pathToFileURL(path.join(LLM_PLAYER_BOT_DIR, 'llm.mjs')).href)) as {
      retryAfterMs: (h: Headers, text: string) => number | undefined;
    };
    const h = (o: Record<string, string>) => new Headers(o);
    expect(retryAfterMs(h({ 'retry-after-ms': '1500', 'retry-after': '9' }), '')).toBe(1500);
    expect(retryAfterMs(h({ 'retry-after': '7' }), '')).toBe(7000);
    expect(retryAfterMs(h({ 'retry-after': new Date(Date.now() + 30_000).toUTCString() }), '')).toBeGreaterThan(25_000);
    // Gemini API: a 429 RESOURCE_EXHAUSTED with no header; the wait is a RetryInfo detail (a protobuf Duration).
    const gemini = {
      error: {
        code: 429,
        message: 'You exceeded your current quota',
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '31s' },
        ],
      },
    };
    expect(retryAfterMs(h({}), JSON.stringify(gemini))).toBe(31_000);
    expect(
      retryAfterMs(
        h({}),
        '{"error":{"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0.5s"}]}}',
      ),
    ).toBe(500);
    expect(retryAfterMs(h({}), 'not json')).toBeUndefined();
  });
});

describe('LLM-players in one tourney round', () => {
  // Three LLM-players, each behind its own scripted server and key (its agents: entry endpoint), meet
  // each other in one round instead of an offline bot in three: what a server saw is what its player
  // sent. failed: every call refused (a bad key); patient: a 429 first, then answers; priced: answers
  // with usage. The config's temperature and the patient one's reasoning effort ride along.
  const ids = ['failed', 'patient', 'priced'] as const;
  const servers: Record<string, ScriptedLlm> = {};
  const usage = { prompt_tokens: 1000, completion_tokens: 30, prompt_tokens_details: { cached_tokens: 400 } };
  let r: { summary: TourneySummary; games: MatchResult[]; report: string; html: string };
  beforeAll(async () => {
    let first = true;
    const scripts: Record<(typeof ids)[number], Parameters<typeof startScriptedLlm>[0]> = {
      failed: () => ({
        httpError: 401,
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      }),
      patient: () => {
        if (!first) return { text: '1' };
        first = false;
        return {
          httpError: 429,
          message: 'Rate limit reached for requests',
          type: 'requests',
          code: 'rate_limit_exceeded',
          headers: { 'retry-after': '1' },
        };
      },
      // Each answer: 1000 prompt tokens of which 400 cached, 30 output; $10 / $1 / $20 per million.
      priced: () => ({ text: '1', usage }),
    };
    for (const id of ids) servers[id] = await startScriptedLlm(scripts[id], { key: `${KEY}-${id}` });
    const runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      ...ONE_ROUND,
      prices: { scripted: { input: 10, cacheRead: 1, output: 20 } },
    });
    const spec = (id: string) =>
      `llm-player:openai-compatible/scripted#${id}${id === 'patient' ? '?reasoningEffort=low' : ''}`;
    const agents = ids.map((id) =>
      createLlmPlayerAgent(spec(id), llmPlayerSampling(config), ownEndpoint(id, `${KEY}-${id}`, servers[id]!.baseURL)),
    );
    const summary = await runTourney({ config, runDir, agents });
    r = {
      summary,
      games: fs
        .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as MatchResult),
      report: fs.readFileSync(path.join(runDir, 'report.md'), 'utf8'),
      html: fs.readFileSync(path.join(runDir, 'report.html'), 'utf8'),
    };
  }, 180_000);
  afterAll(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it('all calls failed: every decision a random fallback, one call a move (a refused key is not asked twice), said in both reports and the alarm lines', () => {
    const use = r.summary.tracks[0]!.llmPlayers!.failed!;
    expect(use.decisions).toBeGreaterThan(5);
    expect(use.fallbacks).toBe(use.decisions);
    expect(servers.failed!.requests).toHaveLength(use.decisions); // one request per decision, not three
    const alarm = buildAlarmLines(r.summary).find((l) => l.includes('LLM-player failed'));
    expect(alarm).toMatch(/Every decision of LLM-player failed was a random fallback \(\d+ of \d+\)/);
    expect(r.report).toContain(`> **${alarm}**`);
    expect(r.report).toMatch(/## LLM-player decisions[\s\S]*\| failed\s*\| gomoku-standard \|\s*\d+ \|\s*\d+ \| 100%/);
    expect(r.html).toContain('Every decision of LLM-player failed was a random fallback');
    expect(r.html).toContain('LLM-player decisions');
    // Each LLM-player's seat moved on its own deadline (60 s by default); a code bot's seat has
    // none of its own (the budget test below: the coder's seat; the settings tests above: the paper's).
    expect(r.games).toHaveLength(6);
    for (const g of r.games)
      expect(g.spec.limits.seatMoveMs).toEqual(Object.fromEntries(g.spec.seats.map((s) => [s, 60_000])));
  });

  it("a 429's retry-after is waited out within the move, then the model's answers are played; sampling options reach the request", () => {
    const use = r.summary.tracks[0]!.llmPlayers!.patient!;
    expect(use.fallbacks).toBe(0);
    expect(use.decisions).toBeGreaterThan(5);
    const [refused, next] = servers.patient!.requests;
    expect(refused!.turn).toMatchObject({ httpError: 429 });
    expect(next!.at - refused!.at).toBeGreaterThanOrEqual(950);
    // The config's temperature and the spec's reasoning effort, in OpenAI's fields.
    expect(next!.body).toMatchObject({ temperature: 0.3, reasoning_effort: 'low' });
    expect(buildAlarmLines(r.summary).filter((l) => l.includes('LLM-player patient'))).toEqual([]);
    expect(r.report).toMatch(/\| patient\s*\| gomoku-standard \|\s*\d+ \|\s*0 \| 0%/);
  });

  it("play-time tokens by kind equal the server's usage (cached counted once), costed per agent and round in both reports", () => {
    const answered = servers.priced!.requests.filter((q) => q.usage);
    expect(answered.length).toBeGreaterThan(5);
    const n = answered.length;
    const play = r.summary.tracks[0]!.llmPlayers!.priced!.play!['1']!;
    expect(play.tokens).toEqual({ input: 600 * n, cacheRead: 400 * n, cacheWrite: 0, output: 30 * n });
    const usd = (n * (600 * 10 + 400 * 1 + 30 * 20)) / 1e6;
    expect(play.costUsd).toBeCloseTo(usd, 9);
    const cell = `$${usd < 0.01 ? usd.toFixed(4) : usd.toFixed(2)}`;
    const row = new RegExp(
      `\\| priced\\s*\\| 1 \\|.*\\|\\s*${600 * n} \\|\\s*${400 * n} \\|\\s*${30 * n} \\| ${cell.replace(/[$.]/g, '\\$&')}\\s*\\|`,
    );
    expect(r.report).toMatch(/## Cost per agent and round/);
    expect(r.report).toMatch(row);
    expect(r.html).toContain(`<td>${600 * n}</td><td>${400 * n}</td><td>${30 * n}</td><td>${cell}</td>`);
  });
});

describe('an LLM-player in a tourney round', () => {
  const round = async (
    spec: string,
    script: Parameters<typeof startScriptedLlm>[0],
    more: { config?: TourneyConfigInput; agents?: () => Agent[] } = {},
  ) => {
    server = await startScriptedLlm(script, { key: KEY });
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('CATARENA_LLM_BASE_URL', server.baseURL);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
    const runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      ...ONE_ROUND,
      ...more.config,
    });
    const agents = [
      createLlmPlayerAgent(spec, llmPlayerSampling(config)),
      ...(more.agents?.() ?? [createOfflineAgent('offline:cautious', 1)]),
    ];
    const summary = await runTourney({ config, runDir, agents });
    const games = fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as MatchResult);
    return { runDir, summary, games };
  };

  it('play-time dollars count toward --budget-usd: after a round whose LLM-player spent it, no new development starts', async () => {
    const turns = sampleBuildTurns({ usage: { prompt_tokens: 1000, completion_tokens: 100 } });
    // Development: 3 answers × (1000 × $10 + 100 × $20) / 1M = $0.036; play: $1 a decision.
    const script = (req: ScriptedRequest) =>
      req.tools.length ? turns[stepOf(req)] : { text: '1', usage: { prompt_tokens: 100_000, completion_tokens: 0 } };
    const r = await round('llm-player:openai-compatible/scripted#player', script, {
      config: {
        rounds: 2,
        budgetUsd: 1,
        prices: { scripted: { input: 10, output: 20 }, 'scripted-coder': { input: 10, output: 20 } },
        developTimeoutMs: 120_000,
      },
      agents: () => [new BuiltinAgent({ model: 'openai-compatible/scripted-coder', id: 'coder', maxRetries: 0 })],
    });
    const builds = server!.requests.filter((q) => q.tools.length);
    expect(builds).toHaveLength(3); // round 1 only
    const coder = r.summary.tracks[0]!.strategies.find((s) => s.id === 'coder@r2')!;
    expect(coder.carriedOver).toMatch(/budget of \$1\.00 was reached \(\$\d+\.\d\d estimated\)/);
    expect(buildAlarmLines(r.summary).some((l) => l.includes("The run's budget was reached"))).toBe(true);
    // The LLM-player's seat moved on its own deadline, the code bot's on the game's (no entry of its own).
    const round1 = r.games.filter((g) => g.spec.seats.includes('player@r1') && g.spec.seats.includes('coder@r1'));
    expect(round1).toHaveLength(2);
    for (const g of round1) expect(g.spec.limits.seatMoveMs).toEqual({ 'player@r1': 60_000 });
  }, 300_000);
});
