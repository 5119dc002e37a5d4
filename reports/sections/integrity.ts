// What the sandboxes and game servers caught bots trying (reports/integrity.ts), when anything was.
import { integrityMarkdown, integrityTableRows } from '../integrity.ts';
import { integrityHtml } from '../html/integrity-html.ts';
import type { ReportSection } from './types.ts';

export const integritySection: ReportSection = {
  markdown: ({ summary }) => integrityMarkdown(summary.tracks),
  html: ({ summary }) => integrityHtml(summary.tracks),
  nav: ({ summary }) => (integrityTableRows(summary.tracks).length ? [['integrity', 'Integrity']] : []),
};
