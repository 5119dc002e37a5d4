// The paper's Table 16: the share of each agent's bot requests that timed out, failed, or were
// malformed or illegal.
import { trackName } from '../../records/tourney.ts';
import { errorRateCells, errorRows } from '../markdown-tracks.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import type { ReportSection } from './types.ts';

export const errorRatesSection: ReportSection = {
  markdown: ({ summary }) => [
    [
      '## HTTP error rates per agent (Table 16 layout)',
      "Share of the agent's bot requests (moves asked + joins); a failed join counts as an HTTP error.",
      errorRows(summary.tracks),
    ].join('\n\n'),
  ],
  html: ({ summary }) => {
    const rows = summary.tracks.flatMap((t) =>
      Object.entries(t.errors).map(([agent, e]) => [h(agent), h(trackName(t)), ...errorRateCells(e)]),
    );
    return `<h2 id="errors">Errors per agent</h2>
${table(['Agent', 'Track', 'Requests', 'Timeout', 'HTTP error', 'Malformed', 'Illegal', 'Crash', 'Error rate'], rows, 'errors')}`;
  },
  nav: () => [['errors', 'Errors']],
};
