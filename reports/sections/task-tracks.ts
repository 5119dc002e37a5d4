// The task tracks' tables (ML ability, language), when the run had a track other than standard
// (docs/tracks.md).
import { scoresFromSummary, taskTrackSections } from '../markdown-task-tracks.ts';
import type { ReportSection } from './types.ts';

export const taskTracksSection: ReportSection = {
  markdown: ({ summary }) => taskTrackSections(scoresFromSummary(summary)),
};
