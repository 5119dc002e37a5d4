// How each track's games ended (normal end, forfeits by kind, caps), counted.
import { trackName } from '../../records/tourney.ts';
import { escapeHtml as h, htmlTable as table } from '../html/page.ts';
import type { ReportSection } from './types.ts';

export const terminationsSection: ReportSection = {
  html: ({ summary: { tracks } }) => {
    const terms = [...new Set(tracks.flatMap((t) => Object.keys(t.terminations ?? {})))].sort();
    const rows = tracks.map((t) => [h(trackName(t)), ...terms.map((k) => String(t.terminations?.[k] ?? 0))]);
    return `<h2 id="terminations">How games ended</h2>
${table(['Track', ...terms.map(h)], rows, 'terminations')}`;
  },
};
