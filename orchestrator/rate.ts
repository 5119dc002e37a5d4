// `catarena rate`: a bot's rating on an anchor pool's scale (docs/anchors.md). It plays the bot
// in batches against the two anchors that bracket its current estimate (the nearest above and
// below; the pool's middle to start), refits its rating with the anchors' ratings held fixed
// after each batch, and stops when the interval is narrower than the target or at the game cap.
// The games are journaled with their replays in the run directory, as `arena` writes them.
import { gameDescriptor } from '../games/registry.ts';
import type { AnchoredRating, AnchorPool, AnchorRating, PoolFit } from '../records/anchors.ts';
import { type ForfeitPolicy, matchId, type MatchLimits, type MatchResult } from '../records/match.ts';
import { RUN_FILES } from '../records/run-layout.ts';
import { rateAgainstAnchors } from '../reports/metrics/anchored.ts';
import { crossTable, crossTableCsv, formatCrossTable } from '../reports/tables/crosstable.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { deriveSeed } from '../util/rng.ts';
import { anchorCode, anchorsTempDir, checkAnchorCode, materializeAnchors, poolOf, readAnchors } from './anchors.ts';
import type { StrategyRef } from './executor/bot-fleet.ts';
import { singleTrackExecutor } from './executor/executor.ts';
import { fieldSpecs } from './formats/field.ts';
import { GameServerPool } from './game-server/game-servers.ts';
import type { Progress } from './progress.ts';
import { RunDir } from './run/run-dir.ts';

export interface RateOptions {
  game: string;
  variant: string;
  /** The bot to rate (its folder; id: the folder name, unless an anchor has it). */
  bot: StrategyRef;
  seed: number;
  /** Stop once hi − lo (Elo) is at most this. */
  targetWidth: number;
  maxGames: number;
  poolVersion?: number;
  /** The anchors file (default games/<game>/anchors.json). */
  anchorsFile?: string;
  concurrency: number | 'auto';
  limits: MatchLimits;
  policy: ForfeitPolicy;
  runDir: string;
  sandbox: Sandbox;
  startTimeoutMs?: number;
  progress?: Progress;
  signal?: AbortSignal;
}

export const RATE_DEFAULTS = { targetWidth: 200, maxGames: 200 } as const;

/** The anchors nearest the estimate: the closest above and the closest below (two nearest at an end). */
export function bracketingAnchors(ratings: readonly AnchorRating[], estimate: number): string[] {
  const sorted = [...ratings].sort((a, b) => a.elo - b.elo);
  const above = sorted.find((r) => r.elo >= estimate);
  const below = [...sorted].reverse().find((r) => r.elo < estimate);
  if (above && below) return [below.id, above.id];
  const byDistance = [...sorted].sort((a, b) => Math.abs(a.elo - estimate) - Math.abs(b.elo - estimate));
  return byDistance.slice(0, 2).map((r) => r.id);
}

/** The pool's middle: the median anchor's rating. */
const midPool = (ratings: readonly AnchorRating[]) =>
  [...ratings].sort((a, b) => a.elo - b.elo)[Math.floor((ratings.length - 1) / 2)]!.elo;

export async function rateBot(options: RateOptions): Promise<AnchoredRating> {
  const { game, variant } = options;
  const pool: AnchorPool = poolOf(await readAnchors(game, options.anchorsFile), variant, options.poolVersion);
  const fit = pool.fit;
  if (!fit) throw new Error(`${game}/${variant} anchor pool v${pool.version} is not fitted`);
  if (pool.anchors.some((a) => a.id === options.bot.id))
    throw new Error(`the bot's id "${options.bot.id}" is an anchor's; rename its folder`);
  const run = new RunDir(options.runDir);
  await run.checkArenaRunDir(game, variant);
  const temp = await anchorsTempDir();
  try {
    const anchors = await materializeAnchors(game, pool.anchors, temp.dir);
    checkAnchorCode(game, variant, pool, await anchorCode(anchors));
    const bots = [options.bot, ...anchors];
    await run.markStatus('running', 'arena');
    await run.writeArenaFile(RUN_FILES.arena, {
      kind: 'rate',
      game,
      variant,
      seed: options.seed,
      limits: options.limits,
      policy: options.policy,
      poolVersion: pool.version,
      targetWidth: options.targetWidth,
      maxGames: options.maxGames,
      sandbox: options.sandbox.kind,
      bots: bots.map(({ warm: _, ...ref }) => ref),
    });
    const { results, stopped } = await playUntilNarrow(options, run, bots, fit);
    await run.markStatus(stopped === 'interrupted' ? 'interrupted' : 'finished', 'arena');
    const rating = ratingOf(options, pool.version, fit, results, stopped);
    const table = crossTable(
      results,
      bots.map((b) => b.id).filter((id) => id === options.bot.id || rating.opponents[id]),
    );
    await run.writeArenaFile(RUN_FILES.results, { game, variant, policy: options.policy, table, results, rating });
    await run.writeText(RUN_FILES.crosstableCsv, crossTableCsv(table));
    await run.writeText(RUN_FILES.crosstableTxt, `${formatCrossTable(table)}\n`);
    await run.writeArenaFile(RUN_FILES.rate, rating);
    return rating;
  } finally {
    await temp.remove();
  }
}

const fixedPart = (fit: PoolFit) => ({ model: fit.model, anchors: fit.ratings, drawParameter: fit.drawParameter });

/** Batches against the anchors bracketing the estimate until the interval is narrow enough or the cap is reached. */
async function playUntilNarrow(
  options: RateOptions,
  run: RunDir,
  bots: StrategyRef[],
  fit: PoolFit,
): Promise<{ results: MatchResult[]; stopped: AnchoredRating['stopped'] }> {
  const { game, variant } = options;
  const progress = run.teeProgress(options.progress);
  const hosts = new GameServerPool();
  const executor = singleTrackExecutor(run, { ...options, hosts });
  executor.add({ game, variant }, bots);
  const journal = await run.openJournal();
  const results: MatchResult[] = [];
  let played = 0;
  try {
    for (let batch = 0; results.length < options.maxGames; batch++) {
      if (options.signal?.aborted) return { results, stopped: 'interrupted' };
      const now = results.length ? rateAgainstAnchors(results, options.bot.id, fixedPart(fit), fit.level) : null;
      if (now && now.hi - now.lo <= options.targetWidth) return { results, stopped: 'target' };
      const opponents = bracketingAnchors(fit.ratings, now?.elo ?? midPool(fit.ratings));
      const specs = batchSpecs(options, opponents, batch).slice(0, options.maxGames - results.length);
      const ids = new Set(specs.map(matchId));
      // A resumed run (--run-dir) replays the same batches: their games are in the journal already.
      await executor.run(
        specs.filter((s) => !journal.has(matchId(s))),
        {
          signal: options.signal,
          onReplay: async (replay) => {
            await run.recordGame(replay);
            progress.tick(results.length + ++played, options.maxGames);
          },
        },
      );
      played = 0;
      const have = new Set(results.map((r) => r.id));
      results.push(...journal.results().filter((r) => ids.has(r.id) && !have.has(r.id)));
    }
    return { results, stopped: options.signal?.aborted ? 'interrupted' : 'max-games' };
  } finally {
    progress.done();
    await executor.close();
    await hosts.closeAll();
  }
}

function ratingOf(
  options: RateOptions,
  poolVersion: number,
  fit: PoolFit,
  results: MatchResult[],
  stopped: AnchoredRating['stopped'],
): AnchoredRating {
  const final = results.length
    ? rateAgainstAnchors(results, options.bot.id, fixedPart(fit), fit.level)
    : { elo: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const opponents: Record<string, number> = {};
  for (const r of results)
    for (const s of new Set(r.spec.seats)) if (s !== options.bot.id) opponents[s] = (opponents[s] ?? 0) + 1;
  return {
    bot: options.bot.id,
    game: options.game,
    variant: options.variant,
    poolVersion,
    elo: final.elo,
    lo: final.lo,
    hi: final.hi,
    level: fit.level,
    games: results.length,
    opponents,
    stopped,
    seed: options.seed,
  };
}

/** One batch: the bot against each opponent (pairs: a colour-swapped pair each; duplicate: both rooms of a board), or at one table with both (a rotation of seats). */
function batchSpecs(options: RateOptions, opponents: string[], batch: number) {
  const descriptor = gameDescriptor(options.game);
  const settings = {
    game: options.game,
    variant: options.variant,
    seed: deriveSeed(options.seed, 'rate', batch),
    limits: options.limits,
    policy: options.policy,
  };
  if (descriptor.format === 'tables') {
    const ids = [options.bot.id, ...opponents];
    return fieldSpecs(descriptor, { kind: 'arena', ids }, { ...settings, reps: ids.length });
  }
  return opponents.flatMap((o) =>
    fieldSpecs(descriptor, { kind: 'arena', ids: [options.bot.id, o] }, { ...settings, reps: 1 }),
  );
}
