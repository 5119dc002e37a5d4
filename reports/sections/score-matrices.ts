// W per track as a table (the page draws each as a heatmap in its track's block).
import { scoreMatrix } from '../markdown-tracks.ts';
import { perTrack } from './per-track.ts';
import type { ReportSection } from './types.ts';

export const scoreMatricesSection: ReportSection = {
  markdown: ({ summary }) => [
    perTrack(
      'Score matrices W',
      scoreMatrix,
      summary.tracks,
      'Row = the strategy scoring (agent@round), 2 decimals; · = diagonal, ? = never met.',
    ),
  ],
};
