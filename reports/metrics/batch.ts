// Batch tables (Hold'em) in metric terms, metrics.md "Batch games":
// 1. the paper's figures: a strategy's win rate per table kind (tables won / played; a split win
//    counts its share);
// 2. the pairwise projection that feeds W: for every two strategies at one table, 1 to the one
//    that finished ahead (by place: final chips, then elimination order), 0.5 each on a tie.
import type { MatchResult } from '../../records/match.ts';
import { duplicateGames } from './duplicate.ts';
import type { GameResult, StrategyKey } from './score-matrix.ts';
import type { WinRate } from '../../records/metrics.ts';

/** Pairwise games from one table result; `keyOf` maps a strategy id to (agent, round). */
export function projectTable(result: MatchResult, keyOf: (id: string) => StrategyKey): GameResult[] {
  const { seats } = result.spec;
  const places = placesOf(result);
  const out: GameResult[] = [];
  for (let i = 0; i < seats.length; i++) {
    for (let j = i + 1; j < seats.length; j++) {
      const scoreA = places[i]! < places[j]! ? 1 : places[i] === places[j] ? 0.5 : 0;
      out.push({ a: keyOf(seats[i]!), b: keyOf(seats[j]!), scoreA, scoreB: 1 - scoreA, group: result.spec.pairing });
    }
  }
  return out;
}

/** Finishing places of a result: its own, else from scores (higher score = better place, ties share). */
export function placesOf(result: Pick<MatchResult, 'places' | 'scores'>): number[] {
  return result.places ?? result.scores.map((s) => 1 + result.scores.filter((o) => o > s).length);
}

/** Any result to pairwise games: two-seat results as they are, tables by projection, duplicate rooms by match VPs. */
export function pairwiseGames(results: readonly MatchResult[], keyOf: (id: string) => StrategyKey): GameResult[] {
  const duplicate = duplicateGames(
    results.filter((r) => r.spec.duplicate),
    keyOf,
  );
  return duplicate.concat(
    results
      .filter((r) => !r.spec.duplicate)
      .flatMap((r): GameResult[] => {
        if (r.spec.seats.length === 2 && !r.places) {
          return [
            {
              a: keyOf(r.spec.seats[0]!),
              b: keyOf(r.spec.seats[1]!),
              scoreA: r.scores[0]!,
              scoreB: r.scores[1]!,
              group: r.spec.pairing,
            },
          ];
        }
        return projectTable(r, keyOf);
      }),
  );
}

/** Win rate per table kind and strategy id, over the results that came from batch tables. */
export function tableWinRates(results: readonly MatchResult[]): Record<string, Record<string, WinRate>> {
  const out: Record<string, Record<string, WinRate>> = {};
  for (const r of results) {
    const kind = r.spec.batch?.kind;
    if (!kind) continue;
    const byId = (out[kind] ??= {});
    r.spec.seats.forEach((id, seat) => {
      const w = (byId[id] ??= { tables: 0, wins: 0, rate: 0 });
      w.tables++;
      w.wins += r.scores[seat] ?? 0;
      w.rate = w.wins / w.tables;
    });
  }
  return out;
}
