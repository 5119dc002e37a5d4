// A tourney config's `models:` (entries over the model table, agents/core/models.json) is the run's
// table everywhere it matters: a model the shipped table does not know, added with the sampling it
// refuses and a price, is sent only what it accepts (the scripted Anthropic server, holding it to
// the same entry, refuses the rest) and is priced for --budget-usd and the play costs; a shipped
// entry's price overridden changes the estimated dollars; the preflight and a queue worker (the
// route as job data) see the same table; the report names the entries the run overrode and added;
// a bad entry is refused before anything starts, naming the field. On the code before, `models:`
// was an unknown key (only $CATARENA_MODEL_TABLE, read once per process, could change the table).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLIS } from '../agents/cli/clis.ts';
import { MODEL_TABLE, runModelTable } from '../agents/core/models.ts';
import { estimateCostUsd, priceOf } from '../agents/core/prices.ts';
import { RunBudget } from '../agents/core/run-budget.ts';
import type { PreflightCheck } from '../agents/core/preflight.ts';
import { PRESETS, resolveConfig, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { agentRoute, createRoutedAgent, type AgentRoute } from '../orchestrator/queue/develop-jobs.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { catarenaProcess as catarena } from './helpers/cli.ts';
import { CLAUDE_MODELS, startScriptedAnthropic } from './helpers/scripted-anthropic.ts';

const KEY = 'sk-config-models-7171';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  vi.unstubAllEnvs();
});

/** A model no shipped entry knows, that refuses every sampling parameter (as Claude's newest do). */
const NOVA = {
  match: 'claude-nova-9',
  provider: 'anthropic',
  api: 'messages',
  sampling: 'default-only',
  thinking: 'none',
  thinksByDefault: false,
  price: { input: 4, output: 20 },
  maxOutput: 32_000,
  context: 200_000,
  source: 'tests/config-model-table.test.ts',
  checked: new Date().toISOString().slice(0, 10),
} as const;
/** A shipped entry's price, ten times over. */
const HAIKU_PRICE = { input: 10, output: 50 };

const MODELS = { families: [NOVA, { match: 'claude-haiku-4-5', price: HAIKU_PRICE }] };

/** --preset paper, one pair of Gomoku games per pairing, the run's agents from its specs. */
function paperConfig(extra: TourneyConfigInput) {
  return resolveConfig(PRESETS.paper, {
    games: ['gomoku'],
    variants: ['standard'],
    rounds: 1,
    concurrency: 2,
    bootstrapSamples: 20,
    llmPlayer: { perGame: { gomoku: { reps: 1 } } },
    ...extra,
  });
}

async function anthropicWith(table = MODEL_TABLE) {
  const s = await startScriptedAnthropic(() => ({ text: '1' }), {
    apiKey: KEY,
    knownModels: [...CLAUDE_MODELS, NOVA.match],
    modelTable: table,
  });
  closers.push(s.close);
  vi.stubEnv('ANTHROPIC_API_KEY', KEY);
  vi.stubEnv('CATARENA_LLM_BASE_URL', s.v1URL);
  return s;
}

const tableWarning = (checks: PreflightCheck[]) => checks.find((c) => c.check === 'model table');

describe('a config’s models: entries are the run’s model table', () => {
  it('an added model gets only the sampling it accepts and its price; an overridden price changes the dollars; the report names both', async () => {
    const config = paperConfig({
      agents: ['llm-player:anthropic/claude-nova-9#nova', 'llm-player:anthropic/claude-haiku-4-5#haiku'],
      budgetUsd: 50,
      models: MODELS,
    });
    const server = await anthropicWith(runModelTable(config.models));
    const runDir = path.join(tempDir(), 'run');
    const summary = await runTourney({ config, runDir });
    const report = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');

    const players = summary.tracks[0]!.llmPlayers!;
    for (const id of ['nova', 'haiku']) {
      expect(players[id]!.decisions).toBeGreaterThan(5);
      expect(players[id]!.fallbacks).toBe(0);
    }
    // The scripted server refused nothing: the new model was sent no temperature, no top_p.
    const nova = server.requests.filter((r) => r.body.model === NOVA.match);
    expect(nova.length).toBe(players.nova!.decisions);
    expect(nova.every((r) => r.usage)).toBe(true);
    for (const r of nova) {
      expect(r.body).not.toHaveProperty('temperature');
      expect(r.body).not.toHaveProperty('top_p');
    }
    expect(report).toMatch(/nova: messages: sent the model defaults.*asked \{"temperature":0\.1,"topP":1\}/);

    // Priced from the config's entries: the new model at its price, haiku at the overridden one.
    const play = (id: string) => Object.values(players[id]!.play!)[0]!;
    expect(play('nova').costUsd).toBeCloseTo(estimateCostUsd(play('nova').tokens, NOVA.price)!, 9);
    expect(play('haiku').costUsd).toBeCloseTo(estimateCostUsd(play('haiku').tokens, HAIKU_PRICE)!, 9);
    const shipped = estimateCostUsd(play('haiku').tokens, priceOf('claude-haiku-4-5'))!;
    expect(play('haiku').costUsd).toBeGreaterThan(5 * shipped);

    expect(report).toMatch(
      /^- Model table \(prices, sampling, thinking per model\): agents\/core\/models\.json dated \d{4}-\d{2}-\d{2}; this run's config `models:` overrode claude-haiku-4-5 and added claude-nova-9$/m,
    );
    expect(report).toMatch(/model table, dated \d{4}-\d{2}-\d{2}, with this run's `models:` entries over it,/);
  }, 60_000);

  it('the same model, without the entry: refused by a provider holding it to that entry, and a budget cannot price it', async () => {
    // The control: what the entry changes. The shipped table does not know claude-nova-9, so the
    // paper's sampling is sent as asked and refused (decided at random), and a budget refuses the run.
    const withEntry = resolveConfig({ models: MODELS });
    await anthropicWith(runModelTable(withEntry.models));
    const config = paperConfig({ agents: ['llm-player:anthropic/claude-nova-9#nova'] });
    const summary = await runTourney({ config, runDir: path.join(tempDir(), 'run') });
    const use = summary.tracks[0]!.llmPlayers!.nova!;
    expect(use.refused).toBe(use.decisions);
    await expect(
      runTourney({ config: { ...config, budgetUsd: 5 }, runDir: path.join(tempDir(), 'r2') }),
    ).rejects.toThrow(/model claude-nova-9 has no price .*`models:`/);
  }, 60_000);

  it('the budget prices requests and their output limits from the run’s table', () => {
    const config = resolveConfig({ models: MODELS });
    const budget = new RunBudget(1, config.prices, runModelTable(config.models));
    const lease = budget.reserve('x', 0.5);
    return lease.then((l) => {
      expect(l!.priceOf('claude-nova-9')).toEqual(NOVA.price);
      expect(l!.priceOf('claude-haiku-4-5-20251001')).toEqual(HAIKU_PRICE);
      expect(l!.table.families.find((f) => f.match === 'claude-nova-9')?.maxOutput).toBe(32_000);
      // Another run in the same process keeps the shipped table: nothing global changed.
      expect(new RunBudget(1).prices).toEqual({});
      expect(priceOf('claude-nova-9')).toBeUndefined();
      expect(priceOf('claude-haiku-4-5')).not.toEqual(HAIKU_PRICE);
      l!.close();
    });
  });

  it('a CLI agent writes Qwen Code’s settings from the run’s table (an added OpenAI reasoning model)', () => {
    const table = runModelTable({
      families: [
        {
          ...NOVA,
          match: 'acme-reasoner-2',
          provider: 'openai',
          api: 'chat',
          sampling: 'reasoning',
          thinking: 'effort',
        },
      ],
    });
    const invocation = {
      prompt: 'p',
      model: 'acme-reasoner-2',
      maxTurns: 1,
      baseUrl: 'http://x',
      home: '/h',
      workspace: '/w',
    };
    expect(CLIS['qwen-code'].prepare!({ ...invocation, modelTable: table })).toContain('"max_completion_tokens":32000');
    expect(CLIS['qwen-code'].prepare!(invocation)).not.toContain('max_completion_tokens');
  });

  it('the preflight, and a queue worker given the route as job data, use the run’s table', async () => {
    const config = resolveConfig({
      agents: ['llm-player:anthropic/claude-nova-9#nova'],
      models: MODELS,
      llmPlayer: { temperature: 0.1, topP: 1 },
    });
    await anthropicWith(runModelTable(config.models));
    const spec = config.agents[0]!;
    // A job's data is JSON: the worker creates the agent from the route it parsed.
    const route = JSON.parse(JSON.stringify(agentRoute(config, spec))) as AgentRoute;
    expect(route.models).toEqual(config.models);
    const onWorker = createRoutedAgent(route);
    const checks = await onWorker.preflight!({ games: ['gomoku'], sandbox: 'process' });
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(tableWarning(checks)).toBeUndefined();
    // Without the entries the same model is not in the table: the preflight warns.
    const bare = createRoutedAgent(agentRoute(resolveConfig({ agents: [spec] }), spec));
    expect(tableWarning(await bare.preflight!({ games: ['gomoku'], sandbox: 'process' }))?.detail).toMatch(
      /claude-nova-9 is not in the model table.*`models:`/,
    );
    // The worker's bot is written with the entry's plan: no sampling for a default-only model
    // (the config asked none here: the paper's is set to show what is dropped).
    const out = tempDir();
    await onWorker.develop(
      {
        dir: out,
        outputDir: out,
        game: 'gomoku',
        variant: 'standard',
        round: 1,
        agentId: 'nova',
        envDir: tempDir(),
        task: '',
        moveTimeoutMs: 10_000,
      } as never,
      {} as never,
    );
    const game = JSON.parse(fs.readFileSync(path.join(out, 'game.json'), 'utf8'));
    expect(game.sampling).toBeUndefined();
    expect(game.samplingPlan).toMatch(/temperature 0\.1 not sent|sent the model defaults/);
  }, 30_000);
});

describe('a bad models: entry is refused before anything starts, naming the field', () => {
  const refused = (families: unknown[]) => () => resolveConfig({ models: { families } as never });

  it('a new model missing what the table must know', () => {
    expect(refused([{ match: 'claude-nova-9', price: { input: 1, output: 2 } }])).toThrow(
      /models\.families\.0: claude-nova-9 is not in agents\/core\/models\.json, so it is a new entry and needs provider, api, sampling, thinking, thinksByDefault, source, checked/,
    );
  });

  it('a bad value, an unknown field, a bad pattern, an entry naming no model', () => {
    expect(refused([{ match: 'claude-sonnet-4-5', sampling: 'sometimes' }])).toThrow(
      /models\.families\.0\.sampling: Invalid option/,
    );
    expect(refused([{ match: 'claude-sonnet-4-5', price: { input: -1, output: 2 } }])).toThrow(
      /models\.families\.0\.price\.input: /,
    );
    expect(refused([{ match: 'claude-sonnet-4-5', temperature: 0 }])).toThrow(
      /models\.families\.0: Unrecognized key: "temperature"/,
    );
    expect(refused([{ ...NOVA, match: undefined, pattern: 'nova-(' }])).toThrow(
      /models\.families\.0\.pattern: not a valid regular expression/,
    );
    expect(refused([{ sampling: 'any' }])).toThrow(/models\.families\.0: names no model: give `match`/);
    expect(refused([{ match: 'claude-sonnet-4-5', checked: 'yesterday' }])).toThrow(
      /models\.families\.0\.checked: expected the day it was checked, YYYY-MM-DD/,
    );
  });

  it('catarena tourney with such a config stops with the error and writes no run', async () => {
    const root = tempDir();
    const file = path.join(root, 'bad.yaml');
    fs.writeFileSync(
      file,
      [
        'agents: [offline:cautious, offline:aggressive]',
        'models:',
        '  families:',
        '    - match: claude-nova-9',
        '      sampling: any',
        '',
      ].join('\n'),
    );
    const r = await catarena('tourney', '--config', file, '--out', path.join(root, 'runs'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /models\.families\.0: claude-nova-9 is not in agents\/core\/models\.json.*needs provider, api/,
    );
    expect(fs.existsSync(path.join(root, 'runs'))).toBe(false);
  }, 60_000);

  it('a $CATARENA_MODEL_TABLE file is checked the same way (before, a bad value went through unseen)', async () => {
    const root = tempDir();
    const file = path.join(root, 'table.json');
    fs.writeFileSync(file, JSON.stringify({ families: [{ match: 'claude-sonnet-4-5', sampling: 'sometimes' }] }));
    vi.stubEnv('CATARENA_MODEL_TABLE', file);
    const r = await catarena(
      'tourney',
      '--agents',
      'offline:cautious,offline:aggressive',
      '--out',
      path.join(root, 'runs'),
    );
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /CATARENA_MODEL_TABLE=.*table\.json: not a readable model table.*\n\s*file\.families\.0\.sampling: Invalid option/,
    );
    expect(fs.existsSync(path.join(root, 'runs'))).toBe(false);
  }, 60_000);
});
