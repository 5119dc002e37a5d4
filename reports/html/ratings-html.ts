// report.html's parts of the two ratings beside the paper's metrics: Plackett–Luce per track of
// tables and the one Bradley–Terry rating across every track (the text is report.md's,
// reports/markdown-ratings.ts; docs/metrics.md defines them).
import type { TrackSummary } from '../../records/tourney.ts';
import type { Rating } from '../../records/metrics.ts';
import { eloCell, tableRatingsNote } from '../markdown-ratings.ts';
import { escapeHtml as h, htmlTable as table } from './page.ts';

/** An Elo cell with its interval in the page's muted style. */
export function eloHtml(r: Rating | undefined): string {
  const text = eloCell(r);
  const bracket = text.indexOf(' ');
  return bracket < 0 ? h(text) : `${h(text.slice(0, bracket))} <span class="ci">${h(text.slice(bracket + 1))}</span>`;
}

/** The track's Plackett–Luce ratings per strategy and agent, folded; '' for a track without tables. */
export function tableRatingsHtml(t: TrackSummary): string {
  const r = t.tableRatings;
  if (!r) return '';
  const rows = (xs: readonly Rating[]) =>
    [...xs]
      .sort((a, b) => b.elo - a.elo || a.id.localeCompare(b.id))
      .map((x) => [h(x.id), eloHtml(x), String(x.games)]);
  const pct = Math.round(r.intervals.level * 100);
  return `<details class="table-ratings" open><summary>Ratings for tables (Plackett–Luce over each table's places)</summary>
<p class="muted">${h(tableRatingsNote(r))}</p>
${table(['Strategy', `Elo [${pct}%]`, 'Tables'], rows(r.strategies), 'table-ratings')}
${r.agents.length ? table(['Agent', `Elo [${pct}%]`, 'Tables'], rows(r.agents), 'table-ratings-agents') : ''}
</details>`;
}
