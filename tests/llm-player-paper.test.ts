// A `--preset paper` round (one game, one round: an LLM-player against an offline bot) on today's
// models, each behind a scripted server that refuses what its real API refuses: Claude Sonnet 4.5
// (temperature and top_p not both), an OpenAI reasoning model (temperature only 1), a Responses-only
// one (gpt-5.5-pro), and a model that thinks by default (Claude Sonnet 5: no sampling at all, and
// thinking that counts toward max_tokens). Each plays with 0 random fallbacks and 0 refused
// requests, and the report says what was sent beside what the paper asked. On main the bot sent
// the paper's temperature 0.1 and top-p 1.0 to every model, repeated each refused request 3 times a
// move, then played at random; it spoke chat completions only and gave every answer 256 tokens.
// Last: a request refused as invalid is asked once a decision, not 3 times.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLlmPlayerAgent } from '../agents/llm-player/agent.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import { llmPlayerSampling, PRESETS, resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { startScriptedAnthropic } from './helpers/scripted-anthropic.ts';
import { startScriptedLlm } from './helpers/scripted-llm.ts';
import { startScriptedResponses } from './helpers/scripted-responses.ts';

const KEY = 'sk-paper-preset-4242';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.unstubAllEnvs();
});

/** Answers that each server counts: every request with its HTTP status. */
interface Served {
  baseUrl: string;
  statuses: () => number[];
  bodies: () => Array<Record<string, unknown>>;
}

async function anthropic(): Promise<Served> {
  const s = await startScriptedAnthropic(() => ({ text: '1' }), { apiKey: KEY });
  closers.push(s.close);
  vi.stubEnv('ANTHROPIC_API_KEY', KEY);
  // Each answered request has its usage; a refused one has none.
  return {
    baseUrl: s.v1URL,
    statuses: () => s.requests.map((r) => (r.usage ? 200 : 400)),
    bodies: () => s.requests.map((r) => r.body),
  };
}

async function chat(): Promise<Served> {
  const s = await startScriptedLlm(() => ({ text: '1' }), { key: KEY });
  closers.push(s.close);
  vi.stubEnv('OPENAI_API_KEY', KEY);
  return {
    baseUrl: s.baseURL,
    statuses: () => s.requests.map((r) => (r.usage ? 200 : 400)),
    bodies: () => s.requests.map((r) => r.body),
  };
}

async function responses(): Promise<Served> {
  const s = await startScriptedResponses(() => ({ text: '1' }), { apiKey: KEY });
  closers.push(s.close);
  vi.stubEnv('OPENAI_API_KEY', KEY);
  return {
    baseUrl: s.baseURL,
    statuses: () => s.requests.map((r) => (r.usage ? 200 : 400)),
    bodies: () => s.requests.map((r) => r.body),
  };
}

/** One --preset paper round of Gomoku: the LLM-player against an offline bot. */
async function paperRound(spec: string, served: Served) {
  vi.stubEnv('CATARENA_LLM_BASE_URL', served.baseUrl);
  const runDir = path.join(tempDir(), 'run');
  // The paper's settings, on the smallest schedule: one pair of games (the preset has 2 pairs).
  const config = resolveConfig(PRESETS.paper, {
    games: ['gomoku'],
    variants: ['standard'],
    rounds: 1,
    concurrency: 2,
    bootstrapSamples: 20,
    llmPlayer: { perGame: { gomoku: { reps: 1 } } },
  });
  expect(llmPlayerSampling(config)).toEqual({ temperature: 0.1, topP: 1 });
  const agents = [createLlmPlayerAgent(spec, llmPlayerSampling(config)), createOfflineAgent('offline:cautious', 1)];
  const summary = await runTourney({ config, runDir, agents });
  return { summary, report: fs.readFileSync(path.join(runDir, 'report.md'), 'utf8') };
}

const CASES: Array<{ name: string; spec: string; server: () => Promise<Served>; sent: RegExp; body: object }> = [
  {
    name: 'Claude Sonnet 4.5 (temperature or top_p, not both)',
    spec: 'llm-player:anthropic/claude-sonnet-4-5#player',
    server: anthropic,
    sent: /player: messages: sent \{"temperature":0\.1\}, max_tokens 256; asked \{"temperature":0\.1,"topP":1\} \(topP 1 not sent: claude-sonnet-4-5 takes temperature or top_p, not both/,
    body: { temperature: 0.1, max_tokens: 256 },
  },
  {
    name: 'an OpenAI reasoning model, gpt-5.5 (temperature only 1)',
    spec: 'llm-player:openai/gpt-5.5#player',
    server: chat,
    sent: /player: chat: sent the model defaults; asked \{"temperature":0\.1,"topP":1\} \(temperature 0\.1 not sent: gpt-5\.5 is a reasoning model/,
    body: {},
  },
  {
    name: 'a Responses-only model, gpt-5.5-pro',
    spec: 'llm-player:openai/gpt-5.5-pro#player',
    server: responses,
    sent: /player: responses: sent the model defaults; asked \{"temperature":0\.1,"topP":1\}.*served by the Responses API only/,
    body: { store: false },
  },
  {
    name: 'a model that thinks by default, Claude Sonnet 5 (no sampling; thinking counts toward max_tokens)',
    spec: 'llm-player:anthropic/claude-sonnet-5#player',
    server: anthropic,
    sent: /player: messages: sent the model defaults, thinking adaptive, max_tokens 16000; asked \{"temperature":0\.1,"topP":1\}/,
    body: { max_tokens: 16_000, thinking: { type: 'adaptive' } },
  },
];

describe('--preset paper on current models: every decision the model’s, no refused request', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const served = await c.server();
      const { summary, report } = await paperRound(c.spec, served);
      const use = summary.tracks[0]!.llmPlayers!.player!;
      expect(use.decisions).toBeGreaterThan(5);
      expect(use.fallbacks).toBe(0);
      expect(use.refused).toBeUndefined();
      expect(served.statuses().filter((s) => s !== 200)).toEqual([]);
      expect(served.statuses()).toHaveLength(use.decisions);
      for (const body of served.bodies()) {
        expect(body).toMatchObject(c.body);
        expect(body).not.toHaveProperty('top_p');
      }
      expect(report).toMatch(c.sent);
      expect(report).toMatch(/model table, dated \d{4}-\d{2}-\d{2}/);
      expect(report).toMatch(
        /^- Model table \(prices, sampling, thinking per model\): agents\/core\/models\.json dated \d{4}-\d{2}-\d{2}$/m,
      );
      expect(report).toMatch(/\| player\s*\| gomoku-standard \|\s*\d+ \|\s*0 \| 0%/);
    }, 120_000);
  }
});

describe('a request refused as invalid', () => {
  it('is asked once a decision, not 3 times: the decision falls back at once, counted as refused', async () => {
    const s = await startScriptedLlm(
      () => ({
        httpError: 400,
        message: "Unsupported parameter: 'top_p' is not supported with this model.",
        type: 'invalid_request_error',
        code: 'unsupported_parameter',
      }),
      { key: KEY },
    );
    closers.push(s.close);
    vi.stubEnv('OPENAI_API_KEY', KEY);
    const { summary, report } = await paperRound('llm-player:openai-compatible/scripted#player', {
      baseUrl: s.baseURL,
      statuses: () => [],
      bodies: () => [],
    });
    const use = summary.tracks[0]!.llmPlayers!.player!;
    expect(use.decisions).toBeGreaterThan(5);
    expect(use.fallbacks).toBe(use.decisions);
    expect(use.refused).toBe(use.decisions);
    expect(s.requests).toHaveLength(use.decisions);
    expect(report).toMatch(
      /player: chat: sent \{"temperature":0\.1,"topP":1\}.*; \d+ decisions refused as invalid requests/,
    );
  }, 120_000);
});

describe('--preset paper: the LLM-player settings from the game descriptors', () => {
  it("are the paper's Table 6 for its four games, and nothing for a game it did not play", () => {
    // The table tourney-config.ts held before the descriptors did (byte for byte).
    expect(PRESETS.paper.llmPlayer?.perGame).toEqual({
      gomoku: { reps: 2, moveTimeoutMs: 600_000 },
      holdem: { reps: 10, moveTimeoutMs: 1_000_000 },
      bridge: { reps: 12, moveTimeoutMs: 200_000 },
      chess: { reps: 2, moveTimeoutMs: 600_000 },
    });
  });
});
