// `catarena probe`'s action consistency on endgame states, when the run was probed (docs/probe.md).
import { probeSectionMarkdown } from '../probe-markdown.ts';
import { probeSectionHtml } from '../html/probe-html.ts';
import type { ReportSection } from './types.ts';

export const probeSection: ReportSection = {
  markdown: ({ probes }) => (probes.length ? [probeSectionMarkdown(probes)] : []),
  html: ({ probes }) => probeSectionHtml(probes),
};
