// The Integrity section of report.html (reports/integrity.ts has its rows and the Markdown form).
import type { TrackSummary } from '../../records/tourney.ts';
import { INTEGRITY_HEAD, INTEGRITY_NOTE, integrityTableRows } from '../integrity.ts';
import { escapeHtml as h, htmlTable } from './page.ts';

/** The HTML section (id "integrity"), or '' when no game of the run has events. */
export function integrityHtml(tracks: readonly Pick<TrackSummary, 'game' | 'variant' | 'integrity'>[]): string {
  const rows = integrityTableRows(tracks);
  if (!rows.length) return '';
  return `<h2 id="integrity">Integrity</h2>
<p class="muted">${h(INTEGRITY_NOTE)}</p>
${htmlTable(
  INTEGRITY_HEAD,
  rows.map((r) => [...r.slice(0, 5).map(h), `<code>${h(r[5])}</code>`]),
  'integrity',
)}`;
}
