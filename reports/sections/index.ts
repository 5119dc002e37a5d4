// The report's assembly: which sections report.md and report.html hold, in which order. The page
// groups per track what report.md lays out per table, so the two orders differ; every section
// gives both of its forms (reports/sections/types.ts).
import { reportPage } from './report-page.ts';
import { anchoredSection } from './anchored.ts';
import { codingLearningSection } from './coding-learning.ts';
import { costSection } from './cost.ts';
import { costScoreSection } from './cost-score.ts';
import { errorRatesSection } from './error-rates.ts';
import { evolutionSection } from './evolution.ts';
import { failedStrategiesSection } from './failed-strategies.ts';
import { headerSection } from './header.ts';
import { integritySection } from './integrity.ts';
import { leaderboardSection } from './leaderboard.ts';
import { learningDetailsSection } from './learning-details.ts';
import { probeSection } from './probe.ts';
import { provenanceSection } from './provenance.ts';
import { rankProbabilitiesSection } from './rank-probabilities.ts';
import { ratingsSection } from './ratings.ts';
import { scoreMatricesSection } from './score-matrices.ts';
import { tableWinRatesSection } from './table-win-rates.ts';
import { taskTracksSection } from './task-tracks.ts';
import { terminationsSection } from './terminations.ts';
import { tracksSection } from './tracks.ts';
import { validationWarningsSection } from './validation-warnings.ts';
import type { ReportInput, ReportSection } from './types.ts';

export { trackKey } from './tracks.ts';
export { summaryInput, type GameIndex, type IndexedGame, type ReportInput } from './types.ts';

/** report.md, top to bottom: the paper's tables first, then what happened, then evolution and probe. */
export const MARKDOWN_SECTIONS: readonly ReportSection[] = [
  headerSection,
  leaderboardSection,
  codingLearningSection,
  anchoredSection,
  taskTracksSection,
  rankProbabilitiesSection,
  learningDetailsSection,
  errorRatesSection,
  costSection,
  costScoreSection,
  scoreMatricesSection,
  ratingsSection,
  tableWinRatesSection,
  failedStrategiesSection,
  validationWarningsSection,
  integritySection,
  evolutionSection,
  probeSection,
  provenanceSection,
];

/** report.html below its head and navigation: one block per track, then the run's other parts. */
export const PAGE_SECTIONS: readonly ReportSection[] = [
  leaderboardSection,
  anchoredSection,
  tracksSection,
  evolutionSection,
  probeSection,
  errorRatesSection,
  terminationsSection,
  costSection,
  costScoreSection,
  failedStrategiesSection,
  validationWarningsSection,
  integritySection,
];

export function renderReportMarkdown(r: ReportInput): string {
  return `${MARKDOWN_SECTIONS.flatMap((s) => s.markdown?.(r) ?? []).join('\n\n')}\n`;
}

export function renderReportHtml(r: ReportInput): string {
  return reportPage({
    title: `catarena report ${r.summary.runId}`,
    header: headerSection.html?.(r) ?? '',
    nav: PAGE_SECTIONS.flatMap((s) => s.nav?.(r) ?? []),
    sections: PAGE_SECTIONS.map((s) => s.html?.(r) ?? ''),
    games: r.games,
  });
}
