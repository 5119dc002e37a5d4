// Strength against dollars per agent, with the Pareto front (reports/cost-score.ts), and the
// budget each agent had per development when the run gave one (--budget-per-agent).
import type { TourneySummary } from '../../records/tourney.ts';
import { budgetPerAgentText, type BudgetPerAgent } from '../../records/budget-per-agent.ts';
import { costScores } from '../cost-score.ts';
import { usd } from '../cost-by-round.ts';
import { mdTable, num } from '../markdown-format.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import { scatterChart } from '../html/svg.ts';
import type { ReportSection } from './types.ts';

const NOTE =
  'Per agent: its mean S over the tracks against its estimated dollars (development and play). ' +
  'On the Pareto front (✓): no other agent is at least as strong for at most as many dollars.';

/** "Budget per agent (--budget-per-agent): $0.50 per development; 2 developments stopped at it." */
function budgetText(s: TourneySummary): string | undefined {
  const b = (s.config as { budgetPerAgent?: BudgetPerAgent } | undefined)?.budgetPerAgent;
  if (!b) return undefined;
  const stopped = s.tracks.flatMap((t) => t.strategies).filter((x) => x.budgetStopped?.includes('--budget-per-agent'));
  return `Budget per agent (--budget-per-agent): ${budgetPerAgentText(b)} per development (one agent, track and round)${b.wallMs === undefined ? `; ${stopped.length} development(s) stopped at it` : ''}.`;
}

export const costScoreSection: ReportSection = {
  markdown: ({ summary }) => {
    const rows = costScores(summary);
    const budget = budgetText(summary);
    if (!rows.length && !budget) return [];
    return [
      [
        '## Strength against cost',
        NOTE,
        ...(budget ? [budget] : []),
        mdTable(
          ['Agent', 'Estimated $', 'Mean S', 'Pareto front'],
          rows.map((r) => [r.agent, usd(r.usd), num(r.meanS), r.front ? '✓' : '']),
        ),
      ].join('\n\n'),
    ];
  },
  html: ({ summary }) => {
    const rows = costScores(summary);
    const budget = budgetText(summary);
    if (!rows.length && !budget) return '';
    const chart = scatterChart(
      rows.map((r) => ({ label: r.agent, x: r.usd, y: r.meanS, front: r.front })),
      {
        id: 'cost-score',
        title: 'Mean S against estimated dollars',
        xLabel: 'estimated $',
        yLabel: 'mean S',
        yMin: 0,
        yMax: 1,
        xText: (x) => usd(x),
      },
    );
    return `<h2 id="cost-score">Strength against cost</h2>
<p class="muted">${h(NOTE)}${budget ? ` ${h(budget)}` : ''}</p>
${rows.length ? chart : ''}
${table(
  ['Agent', 'Estimated $', 'Mean S', 'Pareto front'],
  rows.map((r) => [h(r.agent), h(usd(r.usd)), num(r.meanS), r.front ? '✓' : '']),
  'cost-score',
)}`;
  },
  nav: ({ summary }) => (costScores(summary).length || budgetText(summary) ? [['cost-score', 'Cost vs score']] : []),
};
