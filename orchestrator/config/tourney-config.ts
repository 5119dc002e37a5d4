// The tournament configuration: one schema (zod) with every default in one place, presets, and
// errors that name the bad field. CLI flags, a YAML/JSON file and presets all resolve to this.
import fs from 'node:fs/promises';
import { budgetPerAgentSchema } from './budget-per-agent.ts';
import { z } from 'zod';
import type { PresetName } from '../../games/core/descriptor.ts';
import { adapterFor, defaultGameIds, gameDescriptor, gameIds } from '../../games/registry.ts';
import { modelTableOverlaySchema } from '../../agents/core/model-table-schema.ts';
import { MODEL_TABLE } from '../../agents/core/models.ts';
import { TASK_TRACKS, type TaskTrack } from '../../records/task-track.ts';
import { BOT_START_TIMEOUT_MS } from '../../records/match.ts';
import { DEFAULT_OPPONENT_CODE, OPPONENT_CODE, type OpponentCode } from '../../records/opponent-code.ts';
import { AGENT_KINDS, agentSpec } from '../../agents/kinds.ts';

/** A repetition count, or 'auto': play the schedule once, then more where it matters until W is stable (orchestrator/tourney/auto-reps.ts). */
const Reps = z.union([z.int().min(1), z.literal('auto')]);

const PerGame = z.strictObject({
  reps: Reps.optional(),
  moveTimeoutMs: z.int().min(1).optional(),
  /** Rule sets for this game, overriding the top-level `variants`. */
  variants: z
    .array(z.enum(['standard', 'variant']))
    .min(1)
    .optional(),
  /**
   * Match options, e.g. chess {algorithm: "minimax"} (sent to bots; CATArena's default "simple")
   * or chess {adjudication: "engine"} (threefold repetition and fifty moves end games; default
   * "catarena": fivefold and 75 moves, as CATArena's servers). Checked by the game's descriptor.
   */
  options: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** What the LLM-player's model is asked with (agents/llm-player/bot/llm.mjs maps each to its provider's field). */
export const LlmPlayerSampling = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  /** OpenAI reasoning models' reasoning_effort (none, minimal, low, medium, high, xhigh: which a model takes varies). */
  reasoningEffort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
  /** Anthropic extended thinking's budget_tokens (at least 1024), Gemini's thinkingConfig.thinkingBudget (0 turns thinking off). */
  thinkingBudget: z.int().min(0).optional(),
});
export type LlmPlayerSamplingOptions = z.infer<typeof LlmPlayerSampling>;

/**
 * LLM-player strategies' own settings (the paper's Table 6 gives them other deadlines and
 * repetitions than the code agents' bots): per-move deadline and reps, for all games and per game,
 * and the sampling options of every LLM-player (a spec's ?key=value options win).
 */
const LlmPlayerSettings = LlmPlayerSampling.extend({
  moveTimeoutMs: z.int().min(1).optional(),
  reps: z.int().min(1).optional(),
  perGame: z
    .record(z.string(), z.strictObject({ moveTimeoutMs: z.int().min(1).optional(), reps: z.int().min(1).optional() }))
    .default({}),
});

export const TourneyConfigSchema = z.strictObject({
  rounds: z.int().min(1).max(100).default(4),
  /** Default: every game whose descriptor is not `inDefault: false` (gomoku, chess, holdem, bridge); the quick defaults keep 4 rounds of all eight tracks within 3 minutes on 2 cores. */
  games: z
    .array(z.string())
    .min(1)
    .default(() => defaultGameIds()),
  variants: z
    .array(z.enum(['standard', 'variant']))
    .min(1)
    .default(['standard', 'variant']),
  agents: z
    .array(z.string())
    .min(1)
    .default(['cautious', 'aggressive', 'imitator'].map((c) => agentSpec(AGENT_KINDS.offline, c))),
  /** Colour-swapped game pairs per pairing (Hold'em: table rounds per table), or 'auto'; default per game. */
  reps: Reps.optional(),
  /** With reps 'auto': when to stop adding repetitions (orchestrator/tourney/auto-reps.ts). */
  autoReps: z
    .strictObject({
      /** Stop when the L1 fluctuation of W over the pairs a batch played is below this, twice in a row. */
      fluctuation: z.number().positive().max(1).default(0.05),
      /** Stop instead when every S and L 95% interval is at most this wide. */
      targetWidth: z.number().positive().max(2).optional(),
      /** Most games per track in all (default: 5 × the games of the schedule played once). */
      maxGames: z.int().min(1).optional(),
      /** Most minutes the added batches may take per track. */
      maxMinutes: z.number().positive().optional(),
      /** Share of the schedule's units one batch plays again. */
      batchShare: z.number().positive().max(1).default(0.25),
    })
    .default({ fluctuation: 0.05, batchShare: 0.25 }),
  /** Busy bots (and games) at once, or 'auto': adapted to measured throughput, 1 to the cores (orchestrator/concurrency/concurrency-controller.ts). */
  concurrency: z.union([z.int().min(1).max(256), z.literal('auto')]).default('auto'),
  seed: z.int().default(1),
  /**
   * Independent repetitions of the whole develop-and-play protocol (the paper repeats each
   * tournament four times): repeat r is a sub-run repeats/<r>/ played with seed `seed + r − 1`,
   * and a combined report over the repeats is written at the top (orchestrator/tourney/repeats.ts).
   */
  repeats: z.int().min(1).max(100).optional(),
  /** Repeats played side by side with --repeats (each with its own bots and executor); default 2. */
  repeatConcurrency: z.int().min(1).max(16).optional(),
  out: z.string().default('runs'),
  policy: z.enum(['strict', 'catarena']).default('strict'),
  /** Per-move deadline; default per game (paper: 10 s for Gomoku, Chess, Bridge; 3 s Hold'em). */
  moveTimeoutMs: z.int().min(1).optional(),
  startTimeoutMs: z.int().min(100).default(BOT_START_TIMEOUT_MS),
  /**
   * Refuse a round's bot on any problem at its entry check (an illegal move on a validation position,
   * a refused join). Default: only a bot that does not start, is not healthy or answers no probe
   * position with a legal move is replaced by a forfeiting stand-in; the rest play, their games show it.
   */
  strictValidation: z.boolean().default(false),
  /** Strategies developed at once: agents work side by side, and later tracks develop while earlier ones play. */
  developConcurrency: z.int().min(1).max(64).default(4),
  /** Wall-clock budget for one agent developing one strategy. */
  developTimeoutMs: z
    .int()
    .min(1_000)
    .default(30 * 60_000),
  /**
   * Where bots run: process (each bot isolated by bubblewrap; where it cannot be, only catarena's own
   * bots run, unsandboxed), docker (containers) or unsafe (plain processes: agents' bots can read
   * the user's keys and files). orchestrator/config/sandbox-choice.ts.
   */
  sandbox: z.enum(['process', 'docker', 'unsafe']).default('process'),
  /** Task track (records/task-track.ts): the task's prompt and the language bots must be written in (standard: any). */
  track: z.enum(TASK_TRACKS as [TaskTrack, ...TaskTrack[]]).default('standard'),
  /** Per agent id, a task track other than `track` (e.g. one agent on go, one on js, in one run). */
  agentTracks: z.record(z.string(), z.enum(TASK_TRACKS as [TaskTrack, ...TaskTrack[]])).default({}),
  /** What round n > 1 workspaces show of rivals (records/opponent-code.ts): visible (CATArena), logs-only or hidden. */
  opponentCode: z.enum(OPPONENT_CODE as [OpponentCode, ...OpponentCode[]]).default(DEFAULT_OPPONENT_CODE),
  /** redis://host:port: games are played by `catarena worker`s through this queue, not in-process. */
  queue: z
    .string()
    .regex(/^rediss?:\/\//, 'expected redis://host:port')
    .optional(),
  /** Copy results of games whose code and settings equal a game of an earlier indexed run. */
  reuse: z.boolean().default(false),
  /** Limits per bot container with --sandbox docker (defaults: 1 CPU, 1024 MiB, 256 pids). */
  docker: z
    .strictObject({
      image: z.string().optional(),
      cpus: z.number().positive().optional(),
      memoryMb: z.int().min(64).optional(),
      pidsLimit: z.int().min(16).optional(),
    })
    .default({}),
  bootstrapSamples: z.int().min(1).default(1000),
  /** Elo 0 of the ratings: an agent id (its round-1 strategy) or a strategy agent@round; default the first offline agent, else the mean. */
  ratingAnchor: z.string().min(1).optional(),
  perGame: z.record(z.string(), PerGame).default({}),
  llmPlayer: LlmPlayerSettings.default({ perGame: {} }),
  /** USD per million tokens by model id (its snapshots too, never a longer name), over the table in agents/core/models.json: {input, output, cacheRead?, cacheWrite?}. */
  prices: z
    .record(
      z.string(),
      z.strictObject({
        input: z.number().min(0),
        output: z.number().min(0),
        cacheRead: z.number().min(0).optional(),
        cacheWrite: z.number().min(0).optional(),
      }),
    )
    .default({}),
  /**
   * This run's entries over the model table (agents/core/models.json), as $CATARENA_MODEL_TABLE's
   * file: {asOf?, families: [...]}; an entry with a table entry's `match` or `pattern` changes the
   * fields it names, another is a new model (complete: agents/core/model-table-schema.ts). Used by
   * the LLM-player's call plan, prices, the budget, the preflight and the report, on workers too.
   */
  models: modelTableOverlaySchema(MODEL_TABLE).optional(),
  /** A hard cap on estimated development dollars (--budget-usd; agents/core/run-budget.ts): requests are admitted under it, developments stop at it, none starts after. */
  budgetUsd: z.number().positive().optional(),
  /** The same budget for every agent's development of each strategy (--budget-per-agent; orchestrator/config/budget-per-agent.ts): dollars, tokens or wall time. */
  budgetPerAgent: budgetPerAgentSchema.optional(),
  /**
   * Rate every strategy that played on its game's anchor pool after the last round (--anchors;
   * orchestrator/tourney/anchored-strategies.ts, docs/anchors.md): at most maxGames games each,
   * fewer once the interval is narrower than targetWidth Elo.
   */
  anchors: z
    .object({ maxGames: z.int().min(2).default(40), targetWidth: z.int().min(1).default(200) })
    .strict()
    .optional(),
  /** Let CLI agents use their provider-side web tools (Anthropic web search, Gemini's google_web_search): off, so agents reach nothing but the API. */
  webTools: z.boolean().default(false),
  /**
   * Per agent spec: the variable its key is read from and its base URL, over the shared ones
   * (OPENAI_API_KEY, CATARENA_OPENAI_BASE_URL, …), so one run can mix OpenAI with an
   * OpenAI-compatible provider. Written as `agents:` entries {spec, keyEnv?, baseUrl?} in a config.
   */
  agentEndpoints: z
    .record(
      z.string(),
      z.strictObject({
        keyEnv: z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
          .optional(),
        baseUrl: z.url().optional(),
      }),
    )
    .default({}),
});

export type TourneyConfig = z.infer<typeof TourneyConfigSchema>;
export type TourneyConfigInput = z.input<typeof TourneyConfigSchema>;

/** Presets by name: the paper's Table 6 settings (compat §8.35), each game's part from its descriptor. */
export const PRESETS: Record<PresetName, TourneyConfigInput> = {
  paper: {
    rounds: 4,
    moveTimeoutMs: 10_000,
    perGame: Object.fromEntries(gameIds().map((game) => [game, { ...gameDescriptor(game).presets.paper }])),
    // The paper's LLM-player settings (its Table 6; each game's from its descriptor's
    // llmPlayerPresets, none for a game the paper did not play); sampling at temperature 0.1,
    // top-p 1.0 (its Appendix C): what the paper asked. Each model is sent only what it accepts
    // (agents/llm-player/call-plan.ts, from the model table), the rest recorded.
    llmPlayer: {
      temperature: 0.1,
      topP: 1.0,
      perGame: Object.fromEntries(
        gameIds()
          .map((game) => [game, { ...gameDescriptor(game).llmPlayerPresets.paper }] as const)
          .filter(([, settings]) => Object.keys(settings).length > 0),
      ),
    },
  },
};

/**
 * An LLM-player's per-move deadline and reps in a game: `llmPlayer.perGame.<game>`, else
 * `llmPlayer`'s own, else the game's (gameSettings). Outside the paper preset, LLM-players get
 * at least 60 s a move (a model asked with reasoning rarely answers within a code bot's 10 s;
 * Hold'em's 3 s leaves it only random fallbacks).
 */
export const LLM_PLAYER_MIN_MOVE_MS = 60_000;
export function llmPlayerSettings(config: TourneyConfig, game: string): { reps: number; moveTimeoutMs: number } {
  const own = config.llmPlayer.perGame[game] ?? {};
  const g = gameSettings(config, game);
  return {
    reps: own.reps ?? config.llmPlayer.reps ?? g.reps,
    moveTimeoutMs:
      own.moveTimeoutMs ?? config.llmPlayer.moveTimeoutMs ?? Math.max(g.moveTimeoutMs, LLM_PLAYER_MIN_MOVE_MS),
  };
}

/** The sampling options every LLM-player of the run is asked with (set ones only). */
export function llmPlayerSampling(config: TourneyConfig): LlmPlayerSamplingOptions {
  const { temperature, topP, reasoningEffort, thinkingBudget } = config.llmPlayer;
  return Object.fromEntries(
    Object.entries({ temperature, topP, reasoningEffort, thinkingBudget }).filter(([, v]) => v !== undefined),
  );
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Settings that exist for all games and per game: a layer's value for all games overrides the per-game values of the layers below. */
const PER_GAME_SETTINGS = ['reps', 'moveTimeoutMs'] as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep merge: objects key by key, arrays and everything else replaced; undefined never overrides. */
export function mergeLayers<T extends Record<string, unknown>>(base: T, layer: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    out[key] =
      isPlainObject(value) && isPlainObject(out[key]) ? mergeLayers(out[key] as Record<string, unknown>, value) : value;
  }
  return out as T;
}

/**
 * One config from layers, lowest first (defaults < preset < file < flags, as the CLI passes them):
 * objects merge key by key (perGame.chess.options keeps perGame.holdem.reps of a preset), arrays
 * and values replace, and `reps` or `moveTimeoutMs` given for all games in a layer override the
 * per-game values of the layers below it (`--reps 2` wins over the paper preset's per-game reps).
 * Validated by the schema; errors name every bad field ("rounds: expected an integer…").
 */
export function resolveConfig(...layers: Array<TourneyConfigInput | undefined>): TourneyConfig {
  let merged: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    const perGame = merged.perGame;
    if (isPlainObject(perGame)) {
      const cleared = PER_GAME_SETTINGS.filter((key) => (layer as Record<string, unknown>)[key] !== undefined);
      if (cleared.length) {
        merged = {
          ...merged,
          perGame: Object.fromEntries(
            Object.entries(perGame).map(([game, g]) => [
              game,
              Object.fromEntries(Object.entries(g as object).filter(([k]) => !(cleared as string[]).includes(k))),
            ]),
          ),
        };
      }
    }
    merged = mergeLayers(merged, layer as Record<string, unknown>);
  }
  // `agents:` entries may be {spec, keyEnv?, baseUrl?}: the spec joins the list, the rest agentEndpoints.
  if (Array.isArray(merged.agents)) {
    const endpoints: Record<string, unknown> = {
      ...(isPlainObject(merged.agentEndpoints) ? merged.agentEndpoints : {}),
    };
    merged = {
      ...merged,
      agents: merged.agents.map((a) => {
        if (!isPlainObject(a)) return a;
        const { spec, ...endpoint } = a;
        if (typeof spec === 'string' && Object.keys(endpoint).length) endpoints[spec] = endpoint;
        return spec;
      }),
      agentEndpoints: endpoints,
    };
  }
  const parsed = TourneyConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`invalid tournament config:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  for (const game of config.games) {
    if (!gameIds().includes(game))
      throw new ConfigError(
        `invalid tournament config:\n  games: unknown game "${game}"; available: ${gameIds().join(', ')}`,
      );
    for (const variant of variantsOf(config, game)) {
      if (!adapterFor(game).game.variants.includes(variant))
        throw new ConfigError(`invalid tournament config:\n  variants: ${game} has no "${variant}" rule set`);
    }
  }
  for (const [game, settings] of Object.entries(config.perGame)) {
    if (!settings.options || !gameIds().includes(game)) continue;
    const errors = gameDescriptor(game).optionErrors?.(settings.options) ?? [];
    if (errors.length)
      throw new ConfigError(
        `invalid tournament config:\n${errors.map((e) => `  perGame.${game}.options.${e}`).join('\n')}`,
      );
  }
  if (new Set(config.agents).size !== config.agents.length)
    throw new ConfigError(
      'invalid tournament config:\n  agents: listed twice; use offline:<character>#2 for a second agent of one kind',
    );
  return config;
}

export async function readConfigFile(file: string): Promise<TourneyConfigInput> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  try {
    // yaml is loaded only for a YAML file: most starts (play, arena, a JSON config) never need it.
    const value = file.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw new Error('the top level must be a mapping of settings');
    return value as TourneyConfigInput;
  } catch (err) {
    throw new ConfigError(`cannot parse config file ${file}: ${(err as Error).message}`);
  }
}

/**
 * A game's settings: `perGame.<game>`, else the top-level value, else the game's default (its
 * descriptor). With reps 'auto' the schedule is first played with the game's default reps, and
 * `auto` is set.
 */
export function gameSettings(
  config: TourneyConfig,
  game: string,
): { reps: number; moveTimeoutMs: number; options?: Record<string, string | number>; auto?: true } {
  const g = config.perGame[game] ?? {};
  const d = gameDescriptor(game).defaults;
  const reps = g.reps ?? config.reps ?? d.reps;
  return {
    reps: reps === 'auto' ? d.reps : reps,
    moveTimeoutMs: g.moveTimeoutMs ?? config.moveTimeoutMs ?? d.moveTimeoutMs,
    options: g.options,
    ...(reps === 'auto' ? { auto: true as const } : {}),
  };
}

/** The rule sets a game runs: its own `perGame.<game>.variants`, else the top-level list. */
export function variantsOf(config: Pick<TourneyConfig, 'variants' | 'perGame'>, game: string): string[] {
  return config.perGame[game]?.variants ?? config.variants;
}

/**
 * `--variants` accepts plain rule sets for every game ("standard,variant") and per-game entries
 * ("gomoku:variant,chess:standard"); returns the top-level list and the per-game overrides.
 */
export function parseVariantsFlag(value: string): { variants?: string[]; perGame: Record<string, string[]> } {
  const perGame: Record<string, string[]> = {};
  const plain: string[] = [];
  for (const item of value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)) {
    const [game, variant] = item.includes(':') ? item.split(':') : [undefined, item];
    if (game) (perGame[game] ??= []).push(variant!);
    else plain.push(variant!);
  }
  return { variants: plain.length ? plain : undefined, perGame };
}

/** The (game, rule set) tracks a config plays, in order. */
export function tracksOf(config: TourneyConfig): Array<{ game: string; variant: string }> {
  return config.games.flatMap((game) => variantsOf(config, game).map((variant) => ({ game, variant })));
}
