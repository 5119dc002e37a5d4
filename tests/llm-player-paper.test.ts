// `--preset paper` rounds (one game, one round: LLM-players against each other, two rounds) on today's
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmPlayerAgent } from '../agents/llm-player/agent.ts';
import { llmPlayerSampling, PRESETS, resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { ownEndpoint } from './helpers/agent-round.ts';
import { tempDir } from './helpers/bots.ts';
import { startScriptedAnthropic } from './helpers/scripted-anthropic.ts';
import { startScriptedLlm } from './helpers/scripted-llm.ts';
import { startScriptedResponses } from './helpers/scripted-responses.ts';

const KEY = 'sk-paper-preset-4242';
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Answers that each server counts: every request with its HTTP status. */
interface Served {
  baseUrl: string;
  statuses: () => number[];
  bodies: () => Array<Record<string, unknown>>;
}

// Each answered request has its usage; a refused one has none.
async function anthropic(): Promise<Served> {
  const s = await startScriptedAnthropic(() => ({ text: '1' }), { apiKey: KEY });
  closers.push(s.close);
  return {
    baseUrl: s.v1URL,
    statuses: () => s.requests.map((r) => (r.usage ? 200 : 400)),
    bodies: () => s.requests.map((r) => r.body),
  };
}

async function chat(script: Parameters<typeof startScriptedLlm>[0] = () => ({ text: '1' })): Promise<Served> {
  const s = await startScriptedLlm(script, { key: KEY });
  closers.push(s.close);
  return {
    baseUrl: s.baseURL,
    statuses: () => s.requests.map((r) => (r.usage ? 200 : 400)),
    bodies: () => s.requests.map((r) => r.body),
  };
}

async function responses(): Promise<Served> {
  const s = await startScriptedResponses(() => ({ text: '1' }), { apiKey: KEY });
  closers.push(s.close);
  return {
    baseUrl: s.baseURL,
    statuses: () => s.requests.map((r) => (r.usage ? 200 : 400)),
    bodies: () => s.requests.map((r) => r.body),
  };
}

/**
 * One --preset paper round of Gomoku between LLM-players, each behind its own server (its agents:
 * entry's key variable and base URL): every player's requests reach its server only, so what one
 * server saw is what that player sent. Two players a round, not one against an offline bot, halve
 * the rounds this file plays (a round's set-up and reports cost about as much as its two games).
 */
async function paperRound(players: Array<{ spec: string; served: Served }>) {
  const runDir = path.join(tempDir(), 'run');
  // The paper's settings, on the smallest schedule: one pair of games a pairing (the preset has 2 pairs).
  const config = resolveConfig(PRESETS.paper, {
    games: ['gomoku'],
    variants: ['standard'],
    rounds: 1,
    concurrency: 2,
    bootstrapSamples: 20,
    llmPlayer: { perGame: { gomoku: { reps: 1 } } },
  });
  expect(llmPlayerSampling(config)).toEqual({ temperature: 0.1, topP: 1 });
  const agents = players.map(({ spec, served }) =>
    createLlmPlayerAgent(spec, llmPlayerSampling(config), ownEndpoint(spec.split('#')[1]!, KEY, served.baseUrl)),
  );
  const summary = await runTourney({ config, runDir, agents });
  return { summary, report: fs.readFileSync(path.join(runDir, 'report.md'), 'utf8') };
}

const CASES: Array<{ name: string; spec: string; server: () => Promise<Served>; sent: RegExp; body: object }> = [
  {
    name: 'Claude Sonnet 4.5 (temperature or top_p, not both)',
    spec: 'llm-player:anthropic/claude-sonnet-4-5#sonnet45',
    server: anthropic,
    sent: /sonnet45: messages: sent \{"temperature":0\.1\}, max_tokens 256; asked \{"temperature":0\.1,"topP":1\} \(topP 1 not sent: claude-sonnet-4-5 takes temperature or top_p, not both/,
    body: { temperature: 0.1, max_tokens: 256 },
  },
  {
    name: 'an OpenAI reasoning model, gpt-5.5 (temperature only 1)',
    spec: 'llm-player:openai/gpt-5.5#gpt55',
    server: chat,
    sent: /gpt55: chat: sent the model defaults; asked \{"temperature":0\.1,"topP":1\} \(temperature 0\.1 not sent: gpt-5\.5 is a reasoning model/,
    body: {},
  },
  {
    name: 'a Responses-only model, gpt-5.5-pro',
    spec: 'llm-player:openai/gpt-5.5-pro#pro',
    server: responses,
    sent: /pro: responses: sent the model defaults; asked \{"temperature":0\.1,"topP":1\}.*served by the Responses API only/,
    body: { store: false },
  },
  {
    name: 'a model that thinks by default, Claude Sonnet 5 (no sampling; thinking counts toward max_tokens)',
    spec: 'llm-player:anthropic/claude-sonnet-5#sonnet5',
    server: anthropic,
    sent: /sonnet5: messages: sent the model defaults, thinking adaptive, max_tokens 16000; asked \{"temperature":0\.1,"topP":1\}/,
    body: { max_tokens: 16_000, thinking: { type: 'adaptive' } },
  },
];

/** The player whose every request is refused as invalid (an OpenAI-compatible chat server). */
const REFUSED = 'llm-player:openai-compatible/scripted#refused';

type Round = Awaited<ReturnType<typeof paperRound>>;
const played = new Map<string, { round: Round; served: Served }>();

// Two rounds: the four current models two by two, the refused player in the first.
beforeAll(async () => {
  const servers = await Promise.all(CASES.map((c) => c.server()));
  const refused = await chat(() => ({
    httpError: 400,
    message: "Unsupported parameter: 'top_p' is not supported with this model.",
    type: 'invalid_request_error',
    code: 'unsupported_parameter',
  }));
  const entries = [...CASES.map((c, i) => ({ spec: c.spec, served: servers[i]! })), { spec: REFUSED, served: refused }];
  for (const group of [
    [entries[0]!, entries[1]!, entries[4]!],
    [entries[2]!, entries[3]!],
  ]) {
    const round = await paperRound(group);
    for (const e of group) played.set(e.spec, { round, served: e.served });
  }
}, 240_000);

const idOf = (spec: string) => spec.split('#')[1]!;

describe('--preset paper on current models: every decision the model’s, no refused request', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const { round, served } = played.get(c.spec)!;
      const { summary, report } = round;
      const use = summary.tracks[0]!.llmPlayers![idOf(c.spec)]!;
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
      expect(report).toMatch(new RegExp(`\\| ${idOf(c.spec)}\\s*\\| gomoku-standard \\|\\s*\\d+ \\|\\s*0 \\| 0%`));
    });
  }
});

describe('a request refused as invalid', () => {
  it('is asked once a decision, not 3 times: the decision falls back at once, counted as refused', () => {
    const { round, served } = played.get(REFUSED)!;
    const use = round.summary.tracks[0]!.llmPlayers!.refused!;
    expect(use.decisions).toBeGreaterThan(5);
    expect(use.fallbacks).toBe(use.decisions);
    expect(use.refused).toBe(use.decisions);
    expect(served.bodies()).toHaveLength(use.decisions);
    expect(round.report).toMatch(
      /refused: chat: sent \{"temperature":0\.1,"topP":1\}.*; \d+ decisions refused as invalid requests/,
    );
  });
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
