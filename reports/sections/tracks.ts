// Each track's block on the page: the metrics with intervals, S and L interval charts, rank
// probabilities, W as a heatmap whose cells list their games, learning curves and the ratings.
// report.md lays these out per table instead (coding-learning, rank-probabilities, score-matrices,
// learning-details, ratings).
import { trackName, type TourneySummary, type TrackSummary } from '../../records/tourney.ts';
import type { Interval } from '../../records/metrics.ts';
import { num } from '../markdown-format.ts';
import { ci, escapeHtml as h, htmlTable as table, vsNext } from '../html/page.ts';
import { heatmap, intervalChart, lineChart } from '../html/svg.ts';
import { eloHtml, tableRatingsHtml } from '../html/ratings-html.ts';
import type { ReportSection } from './types.ts';

/** A track's anchor on the page and its key in the games index: the name with [^\w-] as _. */
export const trackKey = (name: string) => name.replace(/[^\w-]/g, '_');

const withCI = (point: number | null | undefined, iv?: Interval) =>
  `${num(point)}${point === null || point === undefined ? '' : ci(iv)}`;

function trackSection(s: TourneySummary, t: TrackSummary): string {
  const name = trackName(t);
  const id = trackKey(name);
  const m = (a: string) => t.metrics.perAgent[a];
  const b = (a: string) => t.bootstrap.perAgent[a];
  const U = s.generalizability[t.game];
  const agentElo = new Map((t.ratings?.agents ?? []).map((r) => [r.id, r]));
  const tableElo = t.tableRatings && new Map(t.tableRatings.agents.map((r) => [r.id, r]));
  const metrics = table(
    [
      'Agent',
      'S',
      'L',
      'C',
      'SI',
      ...(U ? ['U'] : []),
      'Elo (agent)',
      ...(tableElo ? ['Elo, tables (Plackett–Luce)'] : []),
    ],
    t.agents.map((a) => {
      const r = agentElo.get(a);
      return [
        h(a),
        withCI(m(a)?.S, b(a)?.S),
        withCI(m(a)?.L, b(a)?.L),
        withCI(m(a)?.C, b(a)?.C),
        m(a)?.SI.defined ? withCI(m(a)!.SI.value, b(a)?.SI) : 'n/a',
        ...(U ? [num(U[a])] : []),
        r
          ? `${r.elo.toFixed(0)}${r.lo === r.hi ? ' <span class="ci">anchor</span>' : ` <span class="ci">[${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}]</span>`}`
          : '—',
        ...(tableElo ? [eloHtml(tableElo.get(a))] : []),
      ];
    }),
    'metrics',
  );
  const forest = (key: 'S' | 'L', min: number, max: number) =>
    intervalChart(
      t.agents.map((a) => ({
        label: a,
        point: m(a)?.[key] ?? null,
        lo: b(a)?.[key].lo ?? null,
        hi: b(a)?.[key].hi ?? null,
      })),
      { id: `${id}-${key}`, min, max, title: key === 'S' ? 'S (strategy coding)' : 'L (global learning)' },
    );
  const ranks = (['S', 'L'] as const)
    .map((key) => {
      const point = (a: string) => m(a)?.[key] ?? null;
      const order = t.agents
        .filter((a) => point(a) !== null)
        .sort((x, y) => point(y)! - point(x)! || x.localeCompare(y));
      const probs = t.bootstrap.rankProbabilities[key];
      const rows = order.map((a, k) => [
        h(a),
        num(point(a)),
        ...order.map((_, r) => num(probs[a]?.[r], 2)),
        vsNext(k + 1 < order.length ? t.bootstrap.above?.[key]?.[a]?.[order[k + 1]!] : null),
      ]);
      return `<h4>${key}: probability of each rank</h4>${table(['Agent', key, ...order.map((_, r) => `P(${r + 1})`), 'ahead of next'], rows, 'ranks')}`;
    })
    .join('');
  const rounds = Array.from({ length: t.rounds }, (_, k) => `round ${k + 1}`);
  const curves = lineChart(
    t.agents.map((a) => ({
      name: a,
      values: m(a)?.G ?? [],
      lo: b(a)?.G.map((g) => g.lo) ?? [],
      hi: b(a)?.G.map((g) => g.hi) ?? [],
    })),
    { xLabels: rounds, yLabel: 'G^n (global performance)', yMin: 0, yMax: 1, id: `${id}-G` },
  );
  const ratings = t.ratings
    ? `<details><summary>Ratings per strategy (Bradley–Terry with Davidson draws; Elo 0 = ${h(t.ratings.anchor === 'mean' ? 'the mean' : t.ratings.anchor)})</summary>${table(
        ['Strategy', 'Elo', '95% interval', 'Games'],
        [...t.ratings.strategies]
          .sort((x, y) => y.elo - x.elo)
          .map((r) => [
            h(r.id),
            r.elo.toFixed(1),
            r.lo === r.hi ? 'anchor' : `[${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}]`,
            String(r.games),
          ]),
        'ratings',
      )}</details>`
    : '';
  return `<section class="track" id="track-${id}">
<h2>${h(name)}</h2>
${metrics}
<div class="charts">${forest('S', 0, 1)}${forest('L', -1, 1)}</div>
${ranks}
<h3>Score matrix W</h3>
<p class="muted">Row = the strategy scoring against the column; blue = wins, red = losses, hatched = never met. Click a cell for its games and their replays.</p>
<div class="w-wrap">${heatmap({ labels: t.W.strategies, values: t.W.W, games: t.W.games, id })}</div>
<h3>Learning curves</h3>
${curves}
${ratings}
${tableRatingsHtml(t)}
</section>`;
}

export const tracksSection: ReportSection = {
  html: ({ summary }) => summary.tracks.map((t) => trackSection(summary, t)).join('\n'),
  nav: ({ summary }) => summary.tracks.map((t) => [`track-${trackKey(trackName(t))}`, trackName(t)] as const),
};
