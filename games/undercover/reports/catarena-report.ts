// Undercover's round report (CATArena has no such game, so no CATArena file shapes to copy): what
// round n+1's agents read in their logs folder, and where the game-specific metrics are:
//
//   undercover_report_<id>.json   {tournament_id, start_time, participants, stats, team_elo, by_category, games}
//   undercover_report_<id>.txt    the same stats as a table
//
// Per strategy: games, mean composite score, wins (games its team won), survival and voting
// accuracy (means over its games), statement failures by kind, the same per role it held
// (SpyGame's per-role view), and its team Elo after the round's games in table-round order
// (team-elo.ts: CK-Arena's survival and voting accuracy come from each game's replay). Per word category: games and civilian wins (SpyGame's thematic view). Every game lists its words, roles,
// statements, closed ballots and eliminations, rebuilt from the replay. The replays are read one at
// a time and the games spooled, so a round's report is never held in memory whole.
import { createHash } from 'node:crypto';
import type { MatchResult } from '../../../records/match.ts';
import type { CatarenaWriter, WriterContext } from '../../../reports/catarena/catarena-report.ts';
import { JsonArraySpool } from '../../../reports/catarena/log-files.ts';
import { replayStateWith } from '../../core/replay.ts';
import { undercoverWire } from '../wire.ts';
import type { Role, Team } from '../roles.ts';
import type { UndercoverState } from '../rules.ts';
import { ELO_START, seatTerms, teamElo, teamGameOf, type TeamGame } from '../team-elo.ts';

interface Detail {
  winningTeam: Team;
  roles: Role[];
  words: { civilian: string; undercover: string; category: string };
  win: number[];
  survival: number[];
  votingAccuracy: number[];
  rounds: number;
  eliminated: Array<{ seat: number; round: number }>;
}

export interface StrategyStats {
  name: string;
  games: number;
  composite: number;
  wins: number;
  survival: number;
  voting_accuracy: number;
  statement_failures: Record<string, number>;
  /** SpyGame's per-role view: games, mean composite and wins in each role it held. */
  by_role: Partial<Record<Role, { games: number; composite: number; wins: number }>>;
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const order = (r: MatchResult) => [r.spec.batch?.round ?? 0, r.spec.batch?.table ?? 0];

/** Results in play order (table round, then table), the order team Elo rates them in. */
function inPlayOrder(results: readonly MatchResult[]): MatchResult[] {
  return results
    .slice()
    .sort((a, b) => order(a)[0]! - order(b)[0]! || order(a)[1]! - order(b)[1]! || a.id.localeCompare(b.id));
}

/** A game's statements that failed (from its replay), by serverGameId. */
type Faults = ReadonlyMap<string, ReadonlyArray<{ seat: number; fault?: string | null }>>;

export function strategyStats(
  results: readonly MatchResult[],
  faults: Faults,
  nameOf: (id: string) => string,
): Record<string, StrategyStats> {
  const out: Record<string, StrategyStats> = {};
  for (const r of results) {
    const d = r.detail as unknown as Detail | undefined;
    if (!d) continue;
    r.spec.seats.forEach((id, seat) => {
      const s = (out[id] ??= {
        name: nameOf(id),
        games: 0,
        composite: 0,
        wins: 0,
        survival: 0,
        voting_accuracy: 0,
        statement_failures: {},
        by_role: {},
      });
      const role = (s.by_role[d.roles[seat]!] ??= { games: 0, composite: 0, wins: 0 });
      role.games++;
      role.composite += r.scores[seat]!;
      role.wins += d.win[seat]!;
      s.games++;
      s.composite += r.scores[seat]!;
      s.wins += d.win[seat]!;
      s.survival += d.survival[seat]!;
      s.voting_accuracy += d.votingAccuracy[seat]!;
      for (const st of faults.get(r.serverGameId) ?? [])
        if (st.seat === seat && st.fault) s.statement_failures[st.fault] = (s.statement_failures[st.fault] ?? 0) + 1;
    });
  }
  for (const s of Object.values(out)) {
    s.composite = round4(s.composite / s.games);
    s.survival = round4(s.survival / s.games);
    s.voting_accuracy = round4(s.voting_accuracy / s.games);
    for (const r of Object.values(s.by_role)) r.composite = round4(r.composite / r.games);
  }
  return out;
}

/** SpyGame's thematic view: per word category, games played and games the civilians won. */
export function byCategory(results: readonly MatchResult[]): Record<string, { games: number; civilian_wins: number }> {
  const out: Record<string, { games: number; civilian_wins: number }> = {};
  for (const r of results) {
    const d = r.detail as unknown as Detail | undefined;
    if (!d) continue;
    const c = (out[d.words.category] ??= { games: 0, civilian_wins: 0 });
    c.games++;
    if (d.winningTeam === 'civilian') c.civilian_wins++;
  }
  return out;
}

/**
 * The games as team Elo rates them, in play order. CK-Arena's voting accuracy leaves out the
 * ballots of the round a seat went out in, so it needs the ballots: from the replay's state; a
 * game without a replay falls back to outcome.detail's accuracy (every ballot counted).
 */
export function teamGames(
  results: readonly MatchResult[],
  states: ReadonlyMap<string, UndercoverState> = new Map(),
): TeamGame[] {
  return inPlayOrder(results).flatMap((r) => teamGameOfResult(r, states.get(r.serverGameId)) ?? []);
}

/** One game as team Elo rates it (see teamGames), or null without a detail. */
function teamGameOfResult(r: MatchResult, st: UndercoverState | undefined): TeamGame | null {
  const d = r.detail as unknown as Detail | undefined;
  if (!d) return null;
  if (st?.finished)
    return teamGameOf(r.spec.seats, {
      roles: st.roles,
      winner: st.finished.winner,
      rounds: st.round,
      eliminated: st.eliminated,
      ballots: st.ballots,
    });
  const terms = seatTerms({
    roles: d.roles,
    winner: d.winningTeam,
    rounds: d.rounds,
    eliminated: d.eliminated,
    ballots: [],
  });
  return {
    seats: r.spec.seats,
    roles: d.roles,
    winner: d.winningTeam,
    survival: terms.map((t) => t.survival),
    accuracy: d.votingAccuracy,
  };
}

function gameEntry(r: MatchResult, state: UndercoverState | undefined) {
  const d = r.detail as unknown as Detail | undefined;
  return {
    game_id: r.serverGameId,
    players: r.spec.seats,
    words: d?.words ?? null,
    roles: d?.roles ?? null,
    winner: d?.winningTeam ?? null,
    end_reason: r.reason,
    scores: r.scores,
    statements: state?.statements ?? null,
    votes: state?.ballots ?? null,
    eliminated: state?.eliminated ?? null,
  };
}

export const writeCatarenaReport: CatarenaWriter = async (ctx: WriterContext) => {
  const results = inPlayOrder(ctx.results.filter((r) => r.spec.game === 'undercover'));
  // One replay at a time: each game's entry is spooled; its failed statements and team-Elo terms are kept.
  const faults = new Map<string, Array<{ seat: number; fault?: string | null }>>();
  const rated: TeamGame[] = [];
  const games = new JsonArraySpool(ctx.spool(), 1);
  for (const r of results) {
    const rp = await ctx.replay(r);
    const state = rp ? replayStateWith(undercoverWire, rp) : undefined;
    if (state)
      faults.set(
        r.serverGameId,
        state.statements.filter((st) => st.fault),
      );
    const game = teamGameOfResult(r, state);
    if (game) rated.push(game);
    await games.push(gameEntry(r, state));
  }
  const id = `tourney_${createHash('sha256')
    .update(results.map((r) => r.id).join(','))
    .digest('hex')
    .slice(0, 6)}`;
  const stats = strategyStats(results, faults, ctx.nameOf);
  const elo = teamElo(rated);
  const ids = [...ctx.order.filter((x) => stats[x]), ...Object.keys(stats).filter((x) => !ctx.order.includes(x))];
  const report = {
    tournament_id: id,
    start_time: ctx.now.toISOString(),
    participants: ids.map((x) => ({ id: x, name: ctx.nameOf(x) })),
    stats: Object.fromEntries(ids.map((x) => [x, stats[x]])),
    team_elo: Object.fromEntries(ids.map((x) => [x, Math.round((elo[x] ?? ELO_START) * 10) / 10])),
    by_category: byCategory(results),
    games,
  };
  const lines = [
    `Undercover round report ${id}`,
    ...ctx.extra,
    '',
    'strategy                          games  composite  wins  survival  accuracy  team Elo  statement failures',
  ];
  for (const x of ids) {
    const s = stats[x]!;
    const fails =
      Object.entries(s.statement_failures)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '-';
    lines.push(
      `${s.name.padEnd(33)} ${String(s.games).padStart(5)}  ${s.composite.toFixed(3).padStart(9)}  ${String(s.wins).padStart(4)}  ${s.survival.toFixed(3).padStart(8)}  ${s.voting_accuracy.toFixed(3).padStart(8)}  ${report.team_elo[x]!.toFixed(1).padStart(8)}  ${fails}`,
    );
  }
  const json = await ctx.create(`undercover_report_${id}.json`);
  await json.writeJson(report, [games]);
  await json.close();
  const txt = await ctx.create(`undercover_report_${id}.txt`);
  await txt.write(`${lines.join('\n')}\n`);
  await txt.close();
};
