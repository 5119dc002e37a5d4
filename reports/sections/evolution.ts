// The strategy evolution: per agent and round, what changed in its bot, what it read and what it
// borrowed (reports/evolution/, docs/evolution.md).
import { evolutionMarkdown } from '../evolution/evolution-markdown.ts';
import { evolutionSectionHtml } from '../evolution/evolution-html.ts';
import type { ReportSection } from './types.ts';

export const evolutionSection: ReportSection = {
  // evolutionMarkdown ends its text with a newline; the assembly adds the one after each block.
  markdown: ({ evolution }) => (evolution.length ? [evolutionMarkdown(evolution).replace(/\n$/, '')] : []),
  html: ({ evolution, diffHref }) => evolutionSectionHtml(evolution, { diffHref }),
  nav: ({ evolution }) => (evolution.length ? [['evolution', 'Evolution']] : []),
};
