// Strategies whose build or entry check failed, with the reason.
import { trackName } from '../../records/tourney.ts';
import { failedStrategies } from '../markdown-tracks.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import type { ReportSection } from './types.ts';

export const failedStrategiesSection: ReportSection = {
  markdown: ({ summary }) => [['## Failed strategies', failedStrategies(summary.tracks)].join('\n\n')],
  html: ({ summary }) => {
    const rows = summary.tracks.flatMap((t) =>
      t.strategies
        .filter((x) => x.status === 'failed')
        .map((x) => [
          h(x.id),
          h(trackName(t)),
          h((x.failure ?? 'no reason recorded').replace(/\s+/g, ' ').slice(0, 300)),
        ]),
    );
    return `<h2 id="failed">Failed builds</h2>
${table(['Strategy', 'Track', 'Reason'], rows, 'failed')}`;
  },
  nav: () => [['failed', 'Failed builds']],
};
