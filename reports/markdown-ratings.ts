// The Markdown (and plain-text) parts of the two ratings beside the paper's metrics: Plackett–Luce
// per track of tables (reports/metrics/table-ratings.ts) and the one Bradley–Terry rating across
// every track on the leaderboard (reports/metrics/cross-game.ts). docs/metrics.md defines them.
import { trackName, type TourneySummary, type TrackSummary } from '../records/tourney.ts';
import type { CrossGameRatings, Rating, TableRatings } from '../records/metrics.ts';
import { mdTable, num } from './markdown-format.ts';

/** Whole Elo points; a rounded −0 prints as 0. */
const whole = (x: number) => num(x, 0).replace(/^-0$/, '0');

const isAnchor = (r: Rating) => r.elo === 0 && r.lo === 0 && r.hi === 0;

/** "35 [-10, 80]"; the anchor's own rating "0 (anchor)". */
export function eloCell(r: Rating | undefined): string {
  if (!r) return '—';
  return isAnchor(r) ? '0 (anchor)' : `${whole(r.elo)} [${whole(r.lo)}, ${whole(r.hi)}]`;
}

const byElo = (xs: readonly Rating[]) => [...xs].sort((a, b) => b.elo - a.elo || a.id.localeCompare(b.id));

const anchorText = (anchor: string) => (anchor === 'mean' ? 'the mean of the rated players' : `${anchor} (anchor)`);

/** Below this many table groups a percentile bootstrap has few distinct samples: the note says so. */
const ROUGH_UNITS = 10;

/** What a track's table ratings are, in one paragraph. */
export function tableRatingsNote(r: TableRatings): string {
  const pct = Math.round(r.intervals.level * 100);
  return (
    `Plackett–Luce over each table's places: ${r.tables} tables in ${r.units} table groups` +
    `${r.tiedTables ? `, ${r.tiedTables} with a tie (counted as the average of the orders that break it)` : ''}. ` +
    `Elo 0 = ${anchorText(r.anchor)}; 400 Elo = finishing ahead 10 times in 11. ` +
    `${pct}% intervals: percentile bootstrap over table groups (${r.intervals.samples} samples)` +
    `${r.units < ROUGH_UNITS ? `, rough with only ${r.units} groups to resample` : ''}. Tables = tables sat at with another player.`
  );
}

/** One track's Plackett–Luce section: per strategy and per agent. */
export function tableRatingsTable(t: TrackSummary): string {
  const r = t.tableRatings;
  if (!r) return [`### ${trackName(t)}`, '', 'No tables.'].join('\n');
  const pct = Math.round(r.intervals.level * 100);
  const row = (x: Rating) => [x.id, eloCell(x), String(x.games)];
  return [
    `### ${trackName(t)}`,
    '',
    tableRatingsNote(r),
    '',
    mdTable(['Strategy', `Elo [${pct}%]`, 'Tables'], byElo(r.strategies).map(row)),
    ...(r.agents.length
      ? [
          '',
          'Per agent (all its rounds as one player):',
          '',
          mdTable(['Agent', `Elo [${pct}%]`, 'Tables'], byElo(r.agents).map(row)),
        ]
      : []),
  ].join('\n');
}

/** What the cross-game rating is, with each track's weight. */
export function crossGameNote(c: CrossGameRatings): string {
  const pct = Math.round(c.intervals.level * 100);
  const weights = c.tracks.map((t) => `${t.track} ${t.games} × ${num(t.weight, 2)}`).join(', ');
  return (
    'Elo (all tracks): one Bradley–Terry fit of the games between agents over every track, each track weighing the same ' +
    `(games × weight per game: ${weights}); Elo 0 = ${anchorText(c.anchor)}; ` +
    `${pct}% intervals: percentile bootstrap within each track (${c.intervals.samples} samples).`
  );
}

/** The leaderboard's cross-game cell for an agent. */
export function crossGameCell(s: Pick<TourneySummary, 'crossGame'>, agent: string): string {
  return eloCell(s.crossGame?.agents.find((r) => r.id === agent));
}

/** One-column terminal cell: "35 [-10,80]". */
export function crossGameShort(s: Pick<TourneySummary, 'crossGame'>, agent: string): string {
  const r = s.crossGame?.agents.find((x) => x.id === agent);
  if (!r) return '—';
  return isAnchor(r) ? '0 anchor' : `${whole(r.elo)} [${whole(r.lo)},${whole(r.hi)}]`;
}
