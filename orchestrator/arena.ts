// A round-robin between bot folders for one game and variant, written to a run directory:
// journal (one line per finished game), replays, bot logs, results JSON/CSV and a cross-table.
// Re-running with the same run directory resumes: games already in the journal are not replayed.
import fs from 'node:fs/promises';
import path from 'node:path';
import { adapterFor, checkVariant } from '../games/registry.ts';
import type { ForfeitPolicy } from '../games/core/wire.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { crossTable, crossTableCsv, formatCrossTable, type CrossRow } from '../reports/tables/crosstable.ts';
import { BotFleet, type BotStatus, type StrategyRef } from './executor/bot-fleet.ts';
import { executeLocal } from './executor/local.ts';
import { GameServerPool } from './host/game-servers.ts';
import { matchId, type MatchLimits, type MatchResult, type MatchSpec } from './match/types.ts';
import { roundRobin } from './formats/round-robin.ts';
import { tableSpecs } from './formats/batch.ts';
import { duplicateMatches } from './formats/duplicate.ts';
import { Journal } from './run/journal.ts';
import type { Progress } from './progress.ts';

export interface ArenaOptions {
  game: string;
  variant: string;
  bots: StrategyRef[];
  reps: number;
  seed: number;
  concurrency: number;
  limits: MatchLimits;
  policy: ForfeitPolicy;
  runDir: string;
  sandbox: Sandbox;
  /** Protocol options sent with every turn (chess: {algorithm: 'simple'}). */
  protocolOptions?: Record<string, string | number>;
  /** Keep only the first N games of the schedule (`catarena play --games N`). */
  maxGames?: number;
  startTimeoutMs?: number;
  progress?: Progress;
  hosts?: GameServerPool;
  signal?: AbortSignal;
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
  const adapter = adapterFor(options.game);
  for (const bot of options.bots) await assertBotDir(bot.dir);
  await fs.mkdir(path.join(options.runDir, 'replays'), { recursive: true });
  const common = { game: options.game, variant: options.variant, seed: options.seed, limits: options.limits, policy: options.policy, options: options.protocolOptions };
  const ids = options.bots.map((b) => b.id);
  // Table games seat every bot at one table (split if more than fit) for `reps` table rounds.
  // Bridge plays one duplicate match of `reps` boards per pairing.
  let specs: MatchSpec[] = adapter.tables
    ? tableSpecs({ kind: 'round', label: 'arena', members: ids }, { ...common, tableRounds: options.reps, maxSeats: adapter.tables.maxSeats })
    : adapter.duplicate
      ? duplicateMatches({ ...common, entrants: ids, boards: options.reps, reps: 1 })
      : roundRobin({ ...common, entrants: ids, reps: options.reps });
  if (options.maxGames !== undefined) specs = specs.slice(0, options.maxGames);
  const journal = await Journal.open(path.join(options.runDir, 'journal.jsonl'));
  const pending = specs.filter((s) => !journal.has(matchId(s)));
  const resumed = specs.length - pending.length;
  await writeJson(path.join(options.runDir, 'arena.json'), { ...options, sandbox: options.sandbox.kind, progress: undefined, hosts: undefined, signal: undefined, games: specs.length });

  const hosts = options.hosts ?? new GameServerPool();
  const server = await hosts.get(options.game, options.variant);
  const fleet = new BotFleet({
    sandbox: options.sandbox,
    health: adapter.health,
    logDir: path.join(options.runDir, 'logs'),
    startTimeoutMs: options.startTimeoutMs,
    ...server.botAccess(),
  });
  fleet.add(options.bots);
  let done = resumed;
  options.progress?.phase(`${options.game}/${options.variant}: ${options.bots.length} bots, ${specs.length} games${resumed ? ` (${resumed} already in the journal)` : ''}, concurrency ${options.concurrency}`);
  try {
    await executeLocal(pending, {
      fleet,
      hosts,
      concurrency: options.concurrency,
      signal: options.signal,
      onReplay: async (replay) => {
        await fs.writeFile(path.join(options.runDir, 'replays', `${replay.result.id}.json`), JSON.stringify(replay));
        await journal.append(replay.result);
        options.progress?.tick(++done, specs.length);
      },
    });
  } finally {
    options.progress?.done();
    await fleet.stopAll();
    if (!options.hosts) await hosts.closeAll();
  }
  const specIds = new Set(specs.map(matchId));
  const results = journal.results().filter((r) => specIds.has(r.id));
  const table = crossTable(results, options.bots.map((b) => b.id));
  const bots = fleet.statuses();
  await writeJson(path.join(options.runDir, 'results.json'), { game: options.game, variant: options.variant, policy: options.policy, table, bots, results });
  await fs.writeFile(path.join(options.runDir, 'crosstable.csv'), crossTableCsv(table));
  await fs.writeFile(path.join(options.runDir, 'crosstable.txt'), `${formatCrossTable(table)}\n`);
  return { runDir: options.runDir, results, table, bots, resumed };
}

async function assertBotDir(dir: string): Promise<void> {
  const script = path.join(dir, 'start_ai.sh');
  try {
    await fs.access(script);
  } catch {
    throw new Error(`${dir} is not a bot folder: ${script} is missing (a bot is started with "bash start_ai.sh <port>")`);
  }
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
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
