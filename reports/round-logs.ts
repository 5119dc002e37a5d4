// After round n is played: the files round n+1's agents read in their logs folder. For games with
// a CATArena writer (games/<game>/reports/catarena-report.ts, named by the game's descriptor),
// CATArena's own arena report files (names and shapes of compat §2.7, §3.7, §4.7, §5.9) so that
// CATArena's prompt and agents trained on it find what they expect; for every game our richer
// round_report.json. The writers read the round's replays one at a time and write the files in
// pieces (catarena/log-files.ts), so memory does not grow with the round's games.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatchResult, Replay } from '../records/match.ts';
import type { HeadToHead, RoundReport, StrategyRecord } from '../records/tourney.ts';
import { json, writeLogFile, type CatarenaWriter, type WriterContext } from './catarena/catarena-report.ts';
import { LogFile, Spool } from './catarena/log-files.ts';
import { loadGameModule } from '../games/modules.ts';
import { placesOf, projectTable } from './metrics/batch.ts';
import { foldDuplicates } from './metrics/duplicate.ts';
import { crossTable } from './tables/crosstable.ts';
import { RUN_FILES } from '../records/run-layout.ts';

/**
 * A game's CATArena report writer (the module its descriptor names, exporting
 * `writeCatarenaReport`), or null for a game without one: it gets round_report.json only.
 */
export async function catarenaWriterOf(game: string): Promise<CatarenaWriter | null> {
  return loadGameModule<CatarenaWriter>(game, 'catarenaReport');
}

export interface RoundLogsInput {
  game: string;
  variant: string;
  round: number;
  policy: string;
  /** Strategy records known to the caller (at least round n's); older opponents may be left out. */
  strategies: StrategyRecord[];
  /** The games of round n: round-n strategies against each other and against earlier strategies. */
  results: MatchResult[];
  /** Their replays: read one at a time when asked (a run's replays), or given (in memory, for small inputs). */
  replay?: (result: MatchResult) => Promise<Replay | undefined>;
  replays?: Replay[];
  now?: Date;
}

/** agent and round of a strategy id: from its record, else from the "agent@rN" form. */
function describer(strategies: StrategyRecord[], round: number) {
  const known = new Map(strategies.map((s) => [s.id, { agent: s.agent, round: s.round }]));
  return (id: string) => {
    const hit = known.get(id);
    if (hit) return hit;
    const m = /^(.*)@r(\d+)$/.exec(id);
    return m ? { agent: m[1]!, round: Number(m[2]) } : { agent: id, round };
  };
}

/** Report order: round n's strategies first (what agents look for), then older ones, newest first. */
function participantOrder(input: RoundLogsInput): string[] {
  const current = input.strategies.filter((s) => s.round === input.round);
  const older = input.strategies.filter((s) => s.round !== input.round).sort((a, b) => b.round - a.round);
  return [...current, ...older].map((s) => s.id);
}

/** A table game's result (Hold'em): more than two seats, or finishing places. */
const isTable = (r: MatchResult) => !r.spec.duplicate && (r.spec.seats.length > 2 || r.places !== undefined);

type TableFacts = Pick<RoundReport['standings'][number], 'avgPlace' | 'avgChips' | 'errors'>;

/**
 * Per strategy over its table results: mean finishing place, mean final chips and the request
 * failures by kind (at a table a failure folds instead of ending the game, so `failures` does not
 * see them).
 */
function tableFacts(results: readonly MatchResult[]): Map<string, TableFacts> {
  const acc = new Map<
    string,
    { tables: number; places: number; chipTables: number; chips: number; errors: Record<string, number> }
  >();
  for (const r of results.filter(isTable)) {
    const places = placesOf(r);
    const chips = Array.isArray(r.detail?.chips) ? (r.detail.chips as unknown[]) : [];
    r.spec.seats.forEach((id, seat) => {
      let a = acc.get(id);
      if (!a) acc.set(id, (a = { tables: 0, places: 0, chipTables: 0, chips: 0, errors: {} }));
      a.tables++;
      a.places += places[seat]!;
      const c = chips[seat];
      if (typeof c === 'number') {
        a.chipTables++;
        a.chips += c;
      }
      for (const [kind, n] of Object.entries(r.seatStats[seat]?.errors ?? {}))
        a.errors[kind] = (a.errors[kind] ?? 0) + (n ?? 0);
    });
  }
  return new Map(
    [...acc].map(([id, a]) => [
      id,
      {
        avgPlace: a.places / a.tables,
        ...(a.chipTables ? { avgChips: a.chips / a.chipTables } : {}),
        errors: a.errors,
      },
    ]),
  );
}

export function buildRoundReport(input: RoundLogsInput): RoundReport {
  const describe = describer(input.strategies, input.round);
  const rows = crossTable(input.results, participantOrder(input)).filter((r) => r.games > 0);
  const facts = tableFacts(input.results);
  const standings = rows
    .map((r) => ({
      id: r.id,
      ...describe(r.id),
      games: r.games,
      ...r.total,
      score: r.score,
      failures: r.failures,
      avgMoveMs: r.avgMoveMs,
      ...facts.get(r.id),
    }))
    .sort((a, b) => b.score - a.score || (a.avgPlace ?? 0) - (b.avgPlace ?? 0) || a.id.localeCompare(b.id));

  const pairwise: Record<string, Record<string, HeadToHead>> = {};
  const add = (id: string, other: string, score: number) => {
    const h = ((pairwise[id] ??= {})[other] ??= { games: 0, wins: 0, draws: 0, losses: 0, score: 0 });
    h.games++;
    h[score > 0.5 ? 'wins' : score < 0.5 ? 'losses' : 'draws']++;
    h.score += score; // a sum until the division below
  };
  // projectTable's keys carry the strategy id in `agent` here (round unused).
  const key = (id: string) => ({ agent: id, round: 0 });
  // Bridge rooms count per match (VP / 20), like a two-player game.
  for (const result of foldDuplicates(input.results)) {
    if (isTable(result)) {
      // At a table: a finished ahead of b = a win, the same place = a draw (metrics.md "Batch games").
      for (const g of projectTable(result, key)) {
        add(g.a.agent, g.b.agent, g.scoreA);
        add(g.b.agent, g.a.agent, g.scoreB);
      }
      continue;
    }
    if (result.spec.seats.length !== 2) continue;
    result.spec.seats.forEach((id, seat) => add(id, result.spec.seats[1 - seat]!, result.scores[seat]!));
  }
  for (const row of Object.values(pairwise)) for (const h of Object.values(row)) h.score /= h.games;

  return {
    game: input.game,
    variant: input.variant,
    round: input.round,
    policy: input.policy,
    strategies: input.strategies.map((s) => ({
      id: s.id,
      agent: s.agent,
      round: s.round,
      status: s.status,
      ...(s.failure !== undefined ? { failure: s.failure } : {}),
      ...(s.warnings?.length ? { warnings: s.warnings } : {}),
    })),
    standings,
    pairwise,
    games: input.results.length,
  };
}

/** A replay reader over replays given in memory. */
function inMemory(replays: Replay[]): WriterContext['replay'] {
  const byGame = new Map(replays.map((r) => [r.result.serverGameId, r]));
  return async (result) => byGame.get(result.serverGameId);
}

/** Writes round n's logs into `dir` (created if needed); returns the paths written. */
export async function writeRoundLogs(dir: string, input: RoundLogsInput): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  const writer = await catarenaWriterOf(input.game);
  const describe = describer(input.strategies, input.round);
  const spools = await mkdtemp(join(tmpdir(), 'catarena-round-logs-'));
  let spooled = 0;
  const ctx: WriterContext = {
    results: input.results,
    replay: input.replay ?? inMemory(input.replays ?? []),
    now: input.now ?? new Date(),
    dir,
    order: participantOrder(input),
    nameOf: (id) => {
      const { agent, round } = describe(id);
      return `${agent} AI (round ${round})`;
    },
    extra: [`Game: ${input.game} (${input.variant}), round ${input.round}, forfeit policy: ${input.policy}`],
    create: (name) => LogFile.open(join(dir, name), (file) => written.push(file)),
    spool: () => new Spool(join(spools, `${++spooled}.part`)),
  };
  try {
    if (writer) await writer(ctx);
    await writeLogFile(ctx, RUN_FILES.roundReport, json(buildRoundReport(input)));
  } finally {
    await rm(spools, { recursive: true, force: true });
  }
  return written;
}
