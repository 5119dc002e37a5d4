// A round-robin between bot folders for one game and variant, written to a run directory:
// journal (one line per finished game), replays, bot logs, results JSON/CSV and a cross-table.
// Re-running with the same run directory resumes: games already in the journal are not replayed.
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkVariant, gameDescriptor } from '../games/registry.ts';
import {
  type ForfeitPolicy,
  matchId,
  type MatchLimits,
  type MatchResult,
  type MatchSpec,
  type Replay,
} from '../records/match.ts';
import type { LiveListener } from '../records/live.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { crossTable, crossTableCsv, formatCrossTable, type CrossRow } from '../reports/tables/crosstable.ts';
import type { BotStatus, StrategyRef } from './executor/bot-fleet.ts';
import { singleTrackExecutor } from './executor/executor.ts';
import { duplicateMatches } from './formats/duplicate.ts';
import { fieldSpecs } from './formats/field.ts';
import { GameServerPool } from './game-server/game-servers.ts';
import { RunDir } from './run/run-dir.ts';
import type { Progress } from './progress.ts';
import { RUN_FILES } from '../records/run-layout.ts';

export interface ArenaOptions {
  game: string;
  variant: string;
  bots: StrategyRef[];
  reps: number;
  seed: number;
  /** Games and thinking bots at once, or 'auto' (orchestrator/concurrency/concurrency-controller.ts). */
  concurrency: number | 'auto';
  limits: MatchLimits;
  policy: ForfeitPolicy;
  runDir: string;
  sandbox: Sandbox;
  /** Protocol options sent with every turn (chess: {algorithm: 'simple'}). */
  protocolOptions?: Record<string, string | number>;
  /** Keep only the first N games of the schedule (`catarena play --games N`). */
  maxGames?: number;
  /** Duplicate games (Bridge): matches per pairing, each of `reps` boards (default 1). */
  matches?: number;
  /**
   * Asked before play and after each recorded game, with this arena's results in the order they
   * finished (the journal's); true stops scheduling games (those in flight finish and are kept).
   * `catarena play --sprt` stops when its test is decided.
   */
  stopWhen?: (results: MatchResult[]) => boolean;
  startTimeoutMs?: number;
  progress?: Progress;
  hosts?: GameServerPool;
  signal?: AbortSignal;
  /**
   * Strategy ids a person plays (the human seat, orchestrator/human/). Written to arena.json, so
   * `catarena serve` draws their games from their seats' view until each ends.
   */
  humans?: string[];
  /** Told the games still to play, before play (a human seat: which later games deal the same cards). */
  onSchedule?: (specs: readonly MatchSpec[]) => void;
  /** Observer of the games in flight (records/live.ts): a human seat's page. */
  onLive?: LiveListener;
  /** A game to leave out of the journal (a human seat's game abandoned when play was stopped: not played, not lost). */
  discard?: (replay: Replay) => boolean;
  /** Called with each game's replay once it is journaled. */
  onGame?: (replay: Replay) => Promise<void> | void;
}

export interface ArenaOutcome {
  runDir: string;
  results: MatchResult[];
  table: CrossRow[];
  bots: BotStatus[];
  resumed: number;
}

export async function runArena(options: ArenaOptions): Promise<ArenaOutcome> {
  checkVariant(options.game, options.variant);
  for (const bot of options.bots) if (!bot.warm) await assertBotDir(bot.dir); // a warm bot runs already (a human seat)
  const run = new RunDir(options.runDir);
  await run.checkArenaRunDir(options.game, options.variant); // before anything is written there
  const progress = run.teeProgress(options.progress); // progress lines also go to live.jsonl (catarena serve)
  const strays = options.sandbox.reapStrays(options.runDir); // bots a killed run left running here (a resume finds them)
  if (strays) progress.phase(`stopped ${strays} bot processes a killed run left running`);
  await run.markStatus('running', 'arena');
  const specs = arenaSpecs(options);
  const specIds = new Set(specs.map(matchId));
  const journal = await run.openJournal();
  const ownResults = () => journal.results().filter((r) => specIds.has(r.id));
  // A resumed run whose stop condition already holds plays nothing more.
  const pending = options.stopWhen?.(ownResults()) ? [] : specs.filter((s) => !journal.has(matchId(s)));
  options.onSchedule?.(pending);
  const resumed = specs.filter((s) => journal.has(matchId(s))).length;
  await run.writeArenaFile(RUN_FILES.arena, arenaSettings(options, specs.length));
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;

  const hosts = options.hosts ?? new GameServerPool();
  const executor = singleTrackExecutor(run, { ...options, hosts }, options.onLive);
  executor.add(options, options.bots);
  let done = resumed;
  progress.phase(
    `${options.game}/${options.variant}: ${options.bots.length} bots, ${specs.length} games${resumed ? ` (${resumed} already in the journal)` : ''}, concurrency ${options.concurrency}`,
  );
  let bots: BotStatus[];
  try {
    await executor.run(pending, {
      signal,
      onReplay: async (replay) => {
        if (options.discard?.(replay))
          return progress.phase(`game ${replay.result.id} abandoned (play stopped): not counted`);
        await run.recordGame(replay);
        await options.onGame?.(replay);
        progress.tick(++done, specs.length);
        if (options.stopWhen && !stop.signal.aborted && options.stopWhen(ownResults())) stop.abort();
      },
    });
  } catch (err) {
    await run.markStatus('failed', 'arena', (err as Error).message);
    throw err;
  } finally {
    progress.done();
    await executor.close();
    bots = await executor.statuses();
    if (!options.hosts) await hosts.closeAll();
  }
  await run.markStatus(signal.aborted && options.signal?.aborted ? 'interrupted' : 'finished', 'arena');
  const results = ownResults();
  const table = await writeArenaResults(run, options, results, bots);
  return { runDir: options.runDir, results, table, bots, resumed };
}

/** The arena's games: the game's format over the bots (duplicate matches when asked), cut at maxGames. */
function arenaSpecs(options: ArenaOptions): MatchSpec[] {
  const settings = {
    game: options.game,
    variant: options.variant,
    seed: options.seed,
    limits: options.limits,
    policy: options.policy,
    options: options.protocolOptions,
    reps: options.reps,
  };
  const descriptor = gameDescriptor(options.game);
  const optionErrors = options.protocolOptions ? (descriptor.optionErrors?.(options.protocolOptions) ?? []) : [];
  if (optionErrors.length) throw new Error(`${options.game} options: ${optionErrors.join('; ')}`);
  const ids = options.bots.map((b) => b.id);
  const specs =
    descriptor.format === 'duplicate' && options.matches
      ? duplicateMatches({ ...settings, entrants: ids, boards: options.reps, reps: options.matches })
      : fieldSpecs(descriptor, { kind: 'arena', ids }, settings);
  return options.maxGames !== undefined ? specs.slice(0, options.maxGames) : specs;
}

/** arena.json: the options as data (callbacks, the sandbox object and warm bots left out). */
function arenaSettings(options: ArenaOptions, games: number) {
  return {
    ...options,
    sandbox: options.sandbox.kind,
    progress: undefined,
    hosts: undefined,
    signal: undefined,
    stopWhen: undefined,
    onLive: undefined,
    onGame: undefined,
    onSchedule: undefined,
    discard: undefined,
    bots: options.bots.map(({ warm: _, ...ref }) => ref),
    games,
  };
}

/** results.json and the cross-table (CSV and text) of the arena's own games. */
async function writeArenaResults(
  run: RunDir,
  options: ArenaOptions,
  results: MatchResult[],
  bots: BotStatus[],
): Promise<CrossRow[]> {
  const table = crossTable(
    results,
    options.bots.map((b) => b.id),
  );
  await run.writeArenaFile(RUN_FILES.results, {
    game: options.game,
    variant: options.variant,
    policy: options.policy,
    table,
    bots,
    results,
  });
  await run.writeText(RUN_FILES.crosstableCsv, crossTableCsv(table));
  await run.writeText(RUN_FILES.crosstableTxt, `${formatCrossTable(table)}\n`);
  return table;
}

async function assertBotDir(dir: string): Promise<void> {
  const script = path.join(dir, 'start_ai.sh');
  try {
    await fs.access(script);
  } catch {
    throw new Error(
      `${dir} is not a bot folder: ${script} is missing (a bot is started with "bash start_ai.sh <port>")`,
    );
  }
}

/** Strategy ids from bot folders: the folder name, made unique. */
export function refsFromDirs(dirs: string[]): StrategyRef[] {
  const seen = new Map<string, number>();
  return dirs.map((dir) => {
    const base = path.basename(path.resolve(dir)) || 'bot';
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { id: n === 1 ? base : `${base}-${n}`, dir: path.resolve(dir) };
  });
}
