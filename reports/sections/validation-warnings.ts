// Problems the entry check found that did not keep a bot out (`--strict-validation` refuses them).
import { trackName } from '../../records/tourney.ts';
import { validationWarnings } from '../markdown-tracks.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import type { ReportSection } from './types.ts';

export const validationWarningsSection: ReportSection = {
  markdown: ({ summary }) => [
    [
      '## Validation warnings',
      'Problems at the entry check that did not keep a bot out (it played; its games show the errors). `--strict-validation` refuses such bots instead.',
      validationWarnings(summary.tracks),
    ].join('\n\n'),
  ],
  html: ({ summary }) => {
    const rows = summary.tracks.flatMap((t) =>
      t.strategies
        .filter((x) => x.warnings?.length)
        .map((x) => [
          h(x.id),
          h(trackName(t)),
          x
            .warnings!.slice(0, 4)
            .map((w) => h(w.slice(0, 240)))
            .join('<br>'),
        ]),
    );
    return `<h2 id="warnings">Validation warnings</h2>
${table(['Strategy', 'Track', 'Warnings'], rows, 'warnings')}`;
  },
};
