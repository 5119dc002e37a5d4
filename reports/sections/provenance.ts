// report.md's "Reproducibility": seeds, rules, sandbox, versions and images from provenance.json.
import { provenanceMarkdown } from '../provenance-markdown.ts';
import type { ReportSection } from './types.ts';

export const provenanceSection: ReportSection = {
  markdown: ({ provenance }) => (provenance ? [provenanceMarkdown(provenance)] : []),
};
