// The paper's Table 17 (cost per agent: wall time, tool calls, tokens, lines of code) and, when
// agents used models, the cost per agent and round with the run's estimate and budget.
import { tokenWords } from '../../agents/core/prices.ts';
import { trackName, type TourneySummary } from '../../records/tourney.ts';
import { budgetLine, COST_ROUND_HEAD, COST_ROUND_NOTE, costRoundRows, runCostUsd, usd } from '../cost-by-round.ts';
import { duration, mdTable } from '../markdown-format.ts';
import { costRows } from '../markdown-tracks.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import type { ReportSection } from './types.ts';

function markdown(s: TourneySummary): string[] {
  const t = s.tracks;
  const perRound = costRoundRows(t);
  const budget = budgetLine(s.config, t);
  return [
    [
      '## Cost per agent (Table 17 layout)',
      "Summed over the agent's rounds; tokens — when no LLM was used.",
      costRows(t),
    ].join('\n\n'),
    ...(perRound.length
      ? [
          [
            '## Cost per agent and round',
            COST_ROUND_NOTE,
            `Estimated for the run: ${usd(runCostUsd(t))}.`,
            ...(budget ? [budget] : []),
            mdTable(COST_ROUND_HEAD, perRound, 2),
          ].join('\n\n'),
        ]
      : []),
  ];
}

function html(s: TourneySummary): string {
  const rows = s.tracks.flatMap((t) =>
    Object.entries(t.cost).map(([agent, c]) => [
      h(agent),
      h(trackName(t)),
      String(c.rounds),
      c.rateLimitWaitMs
        ? `${duration(c.wallMs)} (${duration(c.rateLimitWaitMs)} waiting on rate limits)`
        : duration(c.wallMs),
      String(c.toolCalls),
      c.tokens ? h(tokenWords(c.tokens)) : '—',
      String(c.linesOfCode),
    ]),
  );
  const perRound = costRoundRows(s.tracks);
  const budget = budgetLine(s.config, s.tracks);
  const rounds = perRound.length
    ? `<h3>Cost per agent and round</h3>\n<p class="muted">${h(COST_ROUND_NOTE)} Estimated for the run: ${h(usd(runCostUsd(s.tracks)))}.${budget ? ` ${h(budget)}` : ''}</p>\n${table(
        COST_ROUND_HEAD.map(h),
        perRound.map((r) => r.map(h)),
        'cost-rounds',
      )}`
    : '';
  return `<h2 id="cost">Cost per agent</h2>
${table(['Agent', 'Track', 'Rounds', 'Wall time', 'Tool calls', 'Tokens', 'Lines of code'], rows, 'cost')}
${rounds}`;
}

export const costSection: ReportSection = {
  markdown: ({ summary }) => markdown(summary),
  html: ({ summary }) => html(summary),
  nav: () => [['cost', 'Cost']],
};
