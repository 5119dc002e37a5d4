// `tourney --anchors`: each strategy's rating on its game's anchor pool (docs/anchors.md), a fixed
// scale that does not move with the field, so runs with different agents compare.
import type { AnchoredStrategy } from '../../records/anchors.ts';
import type { TourneySummary } from '../../records/tourney.ts';
import { mdTable } from '../markdown-format.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import type { ReportSection } from './types.ts';

const NOTE =
  "Each strategy's Elo on its game's anchor pool (fixed reference bots whose ratings are committed: 0 = the pool's mean), " +
  'with its 95% interval and the games it took; ratings of one pool version compare across runs (docs/anchors.md).';

const cell = (a: AnchoredStrategy | undefined) =>
  a ? `${Math.round(a.rating.elo)} [${Math.round(a.rating.lo)}, ${Math.round(a.rating.hi)}] (${a.rating.games})` : '—';

/** Per track: its pool version and a row per agent with a cell per round. */
function trackTables(s: TourneySummary): Array<{ track: string; pools: string; head: string[]; rows: string[][] }> {
  const all = s.anchored ?? [];
  return [...new Set(all.map((a) => a.track))].map((track) => {
    const mine = all.filter((a) => a.track === track);
    const rounds = Math.max(...mine.map((a) => a.round));
    const agents = [...new Set(mine.map((a) => a.agent))];
    const pools = [...new Set(mine.map((a) => `${a.rating.game}/${a.rating.variant} v${a.rating.poolVersion}`))].join(
      ', ',
    );
    return {
      track,
      pools,
      head: ['Agent', ...Array.from({ length: rounds }, (_, k) => `Round ${k + 1}`)],
      rows: agents.map((agent) => [
        agent,
        ...Array.from({ length: rounds }, (_, k) => cell(mine.find((a) => a.agent === agent && a.round === k + 1))),
      ]),
    };
  });
}

export const anchoredSection: ReportSection = {
  markdown: ({ summary }) => {
    const tables = trackTables(summary);
    if (!tables.length) return [];
    return [
      [
        '## Ratings on the anchor scale (--anchors)',
        NOTE,
        ...tables.map((t) => [`### ${t.track} (pool ${t.pools})`, mdTable(t.head, t.rows)].join('\n\n')),
      ].join('\n\n'),
    ];
  },
  html: ({ summary }) => {
    const tables = trackTables(summary);
    if (!tables.length) return '';
    return `<h2 id="anchored">Ratings on the anchor scale</h2>
<p class="muted">${h(NOTE)}</p>
${tables
  .map(
    (t) =>
      `<h3>${h(t.track)} (pool ${h(t.pools)})</h3>\n${table(
        t.head.map(h),
        t.rows.map((r) => r.map(h)),
        'anchored',
      )}`,
  )
  .join('\n')}`;
  },
  nav: ({ summary }) => (summary.anchored?.length ? [['anchored', 'Anchored ratings']] : []),
};
