// `catarena rate`: a bot's rating on an anchor pool's scale (docs/anchors.md). It plays the bot
// in batches against the two anchors that bracket its current estimate (the nearest above and
// below; the pool's middle to start), refits its rating with the anchors' ratings held fixed
// after each batch, and stops when the interval is narrower than the target or at the game cap.
// The games are journaled with their replays in the run directory, as `arena` writes them.
import { gameDescriptor } from '../games/registry.ts';
import type { AnchoredRating, AnchorPool, AnchorRating } from '../records/anchors.ts';
import { type ForfeitPolicy, matchId, type MatchLimits, type MatchResult } from '../records/match.ts';
import { RUN_FILES } from '../records/run-layout.ts';
import { rateAgainstAnchors } from '../reports/metrics/anchored.ts';
import { crossTable, crossTableCsv, formatCrossTable } from '../reports/tables/crosstable.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { deriveSeed } from '../util/rng.ts';
import {
  anchorCode,
  anchorsTempDir,
  checkAnchorCode,
  materializeAnchors,
  poolOf,
  readAnchors,
} from './anchors.ts';
import type { StrategyRef } from './executor/bot-fleet.ts';
import { LocalExecutor } from './executor/executor.ts';
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
  const file = await readAnchors(game, options.anchorsFile);
  const pool: AnchorPool = poolOf(file, variant, options.poolVersion);
  const fit = pool.fit;
  if (!fit) throw new Error(`${game}/${variant} anchor pool v${pool.version} is not fitted`);
  if (pool.anchors.some((a) => a.id === options.bot.id))
    throw new Error(`the bot's id "${options.bot.id}" is an anchor's; rename its folder`);
  const run = new RunDir(options.runDir);
  await run.checkArenaRunDir(game, variant);
  const temp = await anchorsTempDir();
  const anchors = await materializeAnchors(game, pool.anchors, temp.dir);
  checkAnchorCode(game, variant, pool, await anchorCode(anchors));
  const progress = run.teeProgress(options.progress);
  await run.markStatus('running', 'arena');
  const bots = [options.bot, ...anchors];
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
  const hosts = new GameServerPool();
  const executor = new LocalExecutor({
    sandbox: options.sandbox,
    hosts,
    concurrency: options.concurrency,
    startTimeoutMs: options.startTimeoutMs,
    logDir: () => run.botLogsDir(),
    onLive: (event) => run.appendLive(event),
  });
  executor.add({ game, variant }, bots);
  const fixed = { model: fit.model, anchors: fit.ratings, drawParameter: fit.drawParameter };
  const journal = await run.openJournal();
  const results: MatchResult[] = [];
  const estimate = () =>
    results.length ? rateAgainstAnchors(results, options.bot.id, fixed, fit.level) : null;
  let stopped: AnchoredRating['stopped'] = 'max-games';
  try {
    for (let batch = 0; results.length < options.maxGames; batch++) {
      if (options.signal?.aborted) {
        stopped = 'interrupted';
        break;
      }
      const now = estimate();
      if (now && now.hi - now.lo <= options.targetWidth) {
        stopped = 'target';
        break;
      }
      const opponents = bracketingAnchors(fit.ratings, now?.elo ?? midPool(fit.ratings));
      const specs = batchSpecs(options, opponents, batch).slice(0, options.maxGames - results.length);
      const pending = specs.filter((s) => !journal.has(matchId(s)));
      const ids = new Set(specs.map(matchId));
      await executor.run(pending, {
        signal: options.signal,
        onReplay: async (replay) => {
          await run.recordGame(replay);
          progress.tick(results.length + 1, options.maxGames);
        },
      });
      results.push(...journal.results().filter((r) => ids.has(r.id) && !results.some((o) => o.id === r.id)));
      if (!pending.length && !specs.length) break;
    }
  } finally {
    progress.done();
    await executor.close();
    await hosts.closeAll();
    await temp.remove();
  }
  await run.markStatus(stopped === 'interrupted' ? 'interrupted' : 'finished', 'arena');
  const final = estimate() ?? { elo: Number.NaN, lo: Number.NaN, hi: Number.NaN, games: 0 };
  const opponents: Record<string, number> = {};
  for (const r of results)
    for (const s of new Set(r.spec.seats)) if (s !== options.bot.id) opponents[s] = (opponents[s] ?? 0) + 1;
  const rating: AnchoredRating = {
    bot: options.bot.id,
    game,
    variant,
    poolVersion: pool.version,
    elo: final.elo,
    lo: final.lo,
    hi: final.hi,
    level: fit.level,
    games: results.length,
    opponents,
    stopped,
    seed: options.seed,
  };
  const table = crossTable(results, bots.map((b) => b.id).filter((id) => id === options.bot.id || opponents[id]));
  await run.writeArenaFile(RUN_FILES.results, { game, variant, policy: options.policy, table, results, rating });
  await run.writeText(RUN_FILES.crosstableCsv, crossTableCsv(table));
  await run.writeText(RUN_FILES.crosstableTxt, `${formatCrossTable(table)}\n`);
  await run.writeArenaFile(RUN_FILES.rate, rating);
  return rating;
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
  return opponents.flatMap((o) => fieldSpecs(descriptor, { kind: 'arena', ids: [options.bot.id, o] }, { ...settings, reps: 1 }));
}
