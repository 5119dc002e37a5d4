// The W/D/L cross-table of a set of results, per strategy and per opponent, with the counters
// CATArena's arena reports (timeouts, average thinking time) and our failure taxonomy. Tables of
// more than two players (Hold'em) count a table won/lost/split overall, and per opponent who
// finished ahead.
import type { MatchResult } from '../../records/match.ts';
import { placesOf } from '../metrics/batch.ts';
import { foldDuplicates } from '../metrics/duplicate.ts';

export interface Record3 {
  wins: number;
  draws: number;
  losses: number;
}

export interface CrossRow {
  id: string;
  games: number;
  points: number;
  score: number;
  total: Record3;
  vs: Record<string, Record3>;
  /** Games this strategy lost or spoiled through its own failure, by kind. */
  failures: Record<string, number>;
  moves: number;
  avgMoveMs: number;
}

export function crossTable(results: MatchResult[], order?: string[]): CrossRow[] {
  const rows = new Map<string, CrossRow & { totalMs: number }>();
  const row = (id: string) => {
    let r = rows.get(id);
    if (!r) {
      r = {
        id,
        games: 0,
        points: 0,
        score: 0,
        total: blank(),
        vs: {},
        failures: {},
        moves: 0,
        avgMoveMs: 0,
        totalMs: 0,
      };
      rows.set(id, r);
    }
    return r;
  };
  for (const id of order ?? []) row(id);
  for (const result of foldDuplicates(results)) {
    const { seats } = result.spec;
    // Head to head: a two-player game's score; at a table (Hold'em), who finished ahead.
    const places = placesOf(result);
    seats.forEach((id, seat) => {
      const r = row(id);
      const score = result.scores[seat]!;
      seats.forEach((other, o) => {
        if (o === seat) return;
        const cell = (r.vs[other] ??= blank());
        cell[places[seat]! < places[o]! ? 'wins' : places[seat] === places[o] ? 'draws' : 'losses']++;
      });
      // Overall: the game's score. At a table: won (1), lost (0) or a split win (a share: draw).
      const key: keyof Record3 =
        seats.length === 2
          ? score > 0.5
            ? 'wins'
            : score < 0.5
              ? 'losses'
              : 'draws'
          : score === 1
            ? 'wins'
            : score === 0
              ? 'losses'
              : 'draws';
      r.total[key]++;
      r.games++;
      r.points += score;
      r.moves += result.seatStats[seat]!.moves;
      r.totalMs += result.seatStats[seat]!.totalMs;
      if (result.offender === seat && result.termination !== 'normal') {
        r.failures[result.termination] = (r.failures[result.termination] ?? 0) + 1;
      }
      if (result.standIns?.some((x) => x.seat === seat)) r.failures.stand_in = (r.failures.stand_in ?? 0) + 1;
    });
  }
  return [...rows.values()].map(({ totalMs, ...r }) => ({
    ...r,
    score: r.games ? r.points / r.games : 0,
    avgMoveMs: r.moves ? totalMs / r.moves : 0,
  }));
}

function blank(): Record3 {
  return { wins: 0, draws: 0, losses: 0 };
}

export const wdl = (r: Record3) => `${r.wins}W/${r.draws}D/${r.losses}L`;

/** A fixed-width text table for terminals, ranked by score. */
export function formatCrossTable(rows: CrossRow[]): string {
  const ranked = [...rows].sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const ids = ranked.map((r) => r.id);
  const header = ['#', 'strategy', 'score', 'W/D/L', ...ids.map((_, i) => `vs ${i + 1}`), 'failures', 'ms/move'];
  const body = ranked.map((r, i) => [
    String(i + 1),
    r.id,
    r.score.toFixed(3),
    wdl(r.total),
    ...ids.map((o) => (o === r.id ? '-' : r.vs[o] ? wdl(r.vs[o]!) : '')),
    Object.entries(r.failures)
      .map(([k, v]) => `${k}:${v}`)
      .join(' ') || '-',
    r.avgMoveMs.toFixed(1),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((line) => line[c]!.length)));
  const fmt = (cells: string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...body.map(fmt)].join('\n');
}

/** CSV with one row per strategy and one W/D/L column per opponent. */
export function crossTableCsv(rows: CrossRow[]): string {
  const ids = rows.map((r) => r.id);
  const lines = [['strategy', ...ids, 'total', 'score', 'games', 'timeouts', 'failures', 'avg_move_ms'].join(',')];
  for (const r of rows) {
    lines.push(
      [
        csv(r.id),
        ...ids.map((o) => (o === r.id ? '-' : r.vs[o] ? wdl(r.vs[o]!) : '')),
        wdl(r.total),
        r.score.toFixed(4),
        r.games,
        r.failures.timeout ?? 0,
        csv(
          Object.entries(r.failures)
            .map(([k, v]) => `${k}:${v}`)
            .join(' '),
        ),
        r.avgMoveMs.toFixed(2),
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function csv(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
