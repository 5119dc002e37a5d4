// The paper's Tables 9–11: per track, G per round, counter-adaptation and self-improvement.
import { learningDetails } from '../markdown-tracks.ts';
import { perTrack } from './per-track.ts';
import type { ReportSection } from './types.ts';

export const learningDetailsSection: ReportSection = {
  markdown: ({ summary }) => [perTrack('Learning details (Tables 9–11 layout)', learningDetails, summary.tracks)],
};
