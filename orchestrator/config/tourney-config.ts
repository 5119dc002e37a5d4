// The tournament configuration: one schema (zod) with every default in one place, presets, and
// errors that name the bad field. CLI flags, a YAML/JSON file and presets all resolve to this.
import fs from 'node:fs/promises';
import { z } from 'zod';
import type { PresetName } from '../../games/core/descriptor.ts';
import { adapterFor, defaultGameIds, gameDescriptor, gameIds } from '../../games/registry.ts';
import { TASK_TRACKS, type TaskTrack } from '../../model/task-track.ts';

/** A repetition count, or 'auto': play the schedule once, then more where it matters until W is stable (orchestrator/tourney/auto-reps.ts). */
const Reps = z.union([z.int().min(1), z.literal('auto')]);

const PerGame = z.strictObject({
  reps: Reps.optional(),
  moveTimeoutMs: z.int().min(1).optional(),
  /** Rule sets for this game, overriding the top-level `variants`. */
  variants: z.array(z.enum(['standard', 'variant'])).min(1).optional(),
  /**
   * Match options, e.g. chess {algorithm: "minimax"} (sent to bots; CATArena's default "simple")
   * or chess {adjudication: "engine"} (threefold repetition and fifty moves end games; default
   * "catarena": fivefold and 75 moves, as CATArena's servers). Checked by the game's descriptor.
   */
  options: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

export const TourneyConfigSchema = z.strictObject({
  rounds: z.int().min(1).max(100).default(4),
  /** Default: every game whose descriptor is not `inDefault: false` (gomoku, chess, holdem, bridge); the quick defaults keep 4 rounds of all eight tracks within 3 minutes on 2 cores. */
  games: z.array(z.string()).min(1).default(() => defaultGameIds()),
  variants: z.array(z.enum(['standard', 'variant'])).min(1).default(['standard', 'variant']),
  agents: z.array(z.string()).min(1).default(['offline:cautious', 'offline:aggressive', 'offline:imitator']),
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
  /** Busy bots (and games) at once, or 'auto': adapted to measured throughput, 1 to the cores (orchestrator/match/concurrency-controller.ts). */
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
  startTimeoutMs: z.int().min(100).default(20_000),
  /**
   * Refuse a round's bot on any problem at its entry check (an illegal move on a probe position,
   * a refused join). Default: only a bot that does not start, is not healthy or answers no probe
   * position with a legal move is replaced by a forfeiting stand-in; the rest play, their games show it.
   */
  strictValidation: z.boolean().default(false),
  /** Strategies developed at once: agents work side by side, and later tracks develop while earlier ones play. */
  developConcurrency: z.int().min(1).max(64).default(4),
  /** Wall-clock budget for one agent developing one strategy. */
  developTimeoutMs: z.int().min(1_000).default(30 * 60_000),
  sandbox: z.enum(['process', 'docker']).default('process'),
  /** Task track (model/task-track.ts): the task's prompt and the language bots must be written in (standard: any). */
  track: z.enum(TASK_TRACKS as [TaskTrack, ...TaskTrack[]]).default('standard'),
  /** Per agent id, a task track other than `track` (e.g. one agent on go, one on js, in one run). */
  agentTracks: z.record(z.string(), z.enum(TASK_TRACKS as [TaskTrack, ...TaskTrack[]])).default({}),
  /** redis://host:port: games are played by `catarena worker`s through this queue, not in-process. */
  queue: z.string().regex(/^rediss?:\/\//, 'expected redis://host:port').optional(),
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
});

export type TourneyConfig = z.infer<typeof TourneyConfigSchema>;
export type TourneyConfigInput = z.input<typeof TourneyConfigSchema>;

/** Presets by name: the paper's Table 6 settings (compat §8.35), each game's part from its descriptor. */
export const PRESETS: Record<PresetName, TourneyConfigInput> = {
  paper: {
    rounds: 4,
    moveTimeoutMs: 10_000,
    perGame: Object.fromEntries(gameIds().map((game) => [game, { ...gameDescriptor(game).presets.paper }])),
  },
};

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Settings that exist for all games and per game: a layer's value for all games overrides the per-game values of the layers below. */
const PER_GAME_SETTINGS = ['reps', 'moveTimeoutMs'] as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deep merge: objects key by key, arrays and everything else replaced; undefined never overrides. */
export function mergeLayers<T extends Record<string, unknown>>(base: T, layer: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? mergeLayers(out[key] as Record<string, unknown>, value) : value;
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
        merged = { ...merged, perGame: Object.fromEntries(Object.entries(perGame).map(([game, g]) => [game, Object.fromEntries(Object.entries(g as object).filter(([k]) => !(cleared as string[]).includes(k)))])) };
      }
    }
    merged = mergeLayers(merged, layer as Record<string, unknown>);
  }
  const parsed = TourneyConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`invalid tournament config:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  for (const game of config.games) {
    if (!gameIds().includes(game)) throw new ConfigError(`invalid tournament config:\n  games: unknown game "${game}"; available: ${gameIds().join(', ')}`);
    for (const variant of variantsOf(config, game)) {
      if (!adapterFor(game).game.variants.includes(variant)) throw new ConfigError(`invalid tournament config:\n  variants: ${game} has no "${variant}" rule set`);
    }
  }
  for (const [game, settings] of Object.entries(config.perGame)) {
    if (!settings.options || !gameIds().includes(game)) continue;
    const errors = gameDescriptor(game).optionErrors?.(settings.options) ?? [];
    if (errors.length) throw new ConfigError(`invalid tournament config:\n${errors.map((e) => `  perGame.${game}.options.${e}`).join('\n')}`);
  }
  if (new Set(config.agents).size !== config.agents.length) throw new ConfigError('invalid tournament config:\n  agents: listed twice; use offline:<character>#2 for a second agent of one kind');
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
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('the top level must be a mapping of settings');
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
export function gameSettings(config: TourneyConfig, game: string): { reps: number; moveTimeoutMs: number; options?: Record<string, string | number>; auto?: true } {
  const g = config.perGame[game] ?? {};
  const d = gameDescriptor(game).defaults;
  const reps = g.reps ?? config.reps ?? d.reps;
  return { reps: reps === 'auto' ? d.reps : reps, moveTimeoutMs: g.moveTimeoutMs ?? config.moveTimeoutMs ?? d.moveTimeoutMs, options: g.options, ...(reps === 'auto' ? { auto: true as const } : {}) };
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
  for (const item of value.split(',').map((v) => v.trim()).filter(Boolean)) {
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
