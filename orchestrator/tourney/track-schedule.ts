// A tourney track's schedule: round n's games, and with reps 'auto' the adaptive batches played
// after the last round (auto-reps.ts decides, this file turns its choices into match specs and
// reads their games back from the journal).
import { deriveSeed } from '../../util/rng.ts';
import { gameDescriptor } from '../../games/registry.ts';
import { DEFAULT_LIMITS, matchId, type MatchSpec } from '../../records/match.ts';
import { trackName, type AutoRepsLog, type StrategyRecord, type TrackId } from '../../records/tourney.ts';
import { pairwiseGames } from '../../reports/metrics/batch.ts';
import { gameSettings, llmPlayerSettings, type TourneyConfig } from '../config/tourney-config.ts';
import { fieldSpecs, moreSpecs, scheduleUnits, type FieldSettings } from '../formats/field.ts';
import type { Journal } from '../run/journal.ts';
import { AUTO_REPS_DEFAULTS, runAutoReps, type AutoUnit } from './auto-reps.ts';
import { agentKindOf } from '../../agents/kinds.ts';

function fieldSettings(config: TourneyConfig, track: TrackId): FieldSettings {
  const { reps, moveTimeoutMs, options } = gameSettings(config, track.game);
  return {
    game: track.game,
    variant: track.variant,
    seed: deriveSeed(config.seed, trackName(track)),
    limits: { ...DEFAULT_LIMITS, moveMs: moveTimeoutMs },
    policy: config.policy,
    options,
    reps,
  };
}

/**
 * Round n's games: round-n strategies against each other and every earlier strategy, in the
 * game's format (formats/field.ts).
 */
export function roundSpecs(
  config: TourneyConfig,
  track: TrackId,
  rounds: StrategyRecord[][],
  round: number,
): MatchSpec[] {
  const descriptor = gameDescriptor(track.game);
  const field = { kind: 'round' as const, rounds, round, last: round === config.rounds };
  const settings = roundSettings(config, track, rounds);
  return withLlmPlayerDeadlines(config, track, rounds, fieldSpecs(descriptor, field, settings));
}

/**
 * The field's settings: a pairing, duplicate match or table series with an LLM-player in it plays
 * the LLM-player's own reps (config llmPlayer; the paper's Table 6): Gomoku and Chess game pairs,
 * Bridge boards, Hold'em table rounds; the others the game's. Seeds do not depend on reps, so the
 * others' games are the same as without an LLM-player in the run.
 */
function roundSettings(config: TourneyConfig, track: TrackId, rounds: StrategyRecord[][]): FieldSettings {
  const settings = fieldSettings(config, track);
  const llm = llmPlayerIds(rounds);
  const llmReps = llmPlayerSettings(config, track.game).reps;
  if (!llm.size || llmReps === settings.reps) return settings;
  return {
    ...settings,
    repsFor: (members) => (members.some((id) => llm.has(id)) ? llmReps : settings.reps),
  };
}

function llmPlayerIds(rounds: StrategyRecord[][]): Set<string> {
  return new Set(
    rounds
      .flat()
      .filter((r) => agentKindOf(r.agentKind)?.ownPlaySettings)
      .map((r) => r.id),
  );
}

/** LLM-player strategies move on their own deadline (config llmPlayer; the paper's Table 6), the others on the game's. */
function withLlmPlayerDeadlines(
  config: TourneyConfig,
  track: TrackId,
  rounds: StrategyRecord[][],
  specs: MatchSpec[],
): MatchSpec[] {
  const llm = llmPlayerIds(rounds);
  if (!llm.size) return specs;
  const ms = llmPlayerSettings(config, track.game).moveTimeoutMs;
  return specs.map((s) =>
    s.seats.some((id) => llm.has(id))
      ? {
          ...s,
          limits: {
            ...s.limits,
            seatMoveMs: Object.fromEntries(s.seats.filter((id) => llm.has(id)).map((id) => [id, ms])),
          },
        }
      : s,
  );
}

export interface AutoRepsContext {
  config: TourneyConfig;
  track: TrackId;
  /** The track's strategy records per round (all rounds played). */
  rounds: StrategyRecord[][];
  journal: Journal;
  /** Plays specs (those already in the journal are skipped by the caller's executor too). */
  play(specs: MatchSpec[], label: string): Promise<void>;
  report(log: AutoRepsLog): Promise<void>;
}

/**
 * With reps 'auto', after the track's last round: batches of more repetitions until W is stable,
 * the intervals are narrow enough or the budget is spent. Returns undefined with fixed reps.
 */
export async function playAutoReps(ctx: AutoRepsContext): Promise<AutoRepsLog | undefined> {
  const { config, track, rounds, journal } = ctx;
  if (!gameSettings(config, track.game).auto) return undefined;
  const descriptor = gameDescriptor(track.game);
  const settings = roundSettings(config, track, rounds);
  const firstPass = rounds.flatMap((_, k) => roundSpecs(config, track, rounds.slice(0, k + 1), k + 1));
  const byId = new Map(rounds.flat().map((r) => [r.id, { agent: r.agent, round: r.round }]));
  const units = scheduleUnits(descriptor, firstPass, settings);
  const autoUnits: AutoUnit[] = units.map((u) => ({
    key: u.key,
    members: u.members.map((id) => byId.get(id)!),
    cost: u.cost,
  }));
  const byKey = new Map(units.map((u) => [u.key, u]));
  // The specs of every batch decided so far: a batch's games are read back by their ids.
  const batches = new Map<number, MatchSpec[]>([[-1, firstPass]]);
  const games = async (before: number) => {
    const ids = new Set([...batches].filter(([b]) => b < before).flatMap(([, specs]) => specs.map(matchId)));
    const results = journal.results().filter((r) => ids.has(r.id));
    return { results: pairwiseGames(results, (id) => byId.get(id)!), played: results.length };
  };
  const { autoReps } = config;
  return runAutoReps(
    {
      agents: [...new Set(rounds.flat().map((r) => r.agent))],
      rounds: rounds.length,
      units: autoUnits,
      games,
      play: async (picked, batch) => {
        const specs = picked.flatMap((u) => moreSpecs(descriptor, byKey.get(u.key)!, batch, settings));
        batches.set(batch, specs);
        await ctx.play(specs, `${trackName(track)} · more repetitions, batch ${batch + 1}`);
      },
      report: ctx.report,
    },
    {
      fluctuation: autoReps.fluctuation,
      targetWidth: autoReps.targetWidth,
      maxGames: autoReps.maxGames ?? AUTO_REPS_DEFAULTS.budgetFactor * firstPass.length,
      maxMinutes: autoReps.maxMinutes,
      batchShare: autoReps.batchShare,
    },
    config.seed,
  );
}
