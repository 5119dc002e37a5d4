// Per track, each agent's probability of each rank by S and by L (the page shows them in each track's block).
import { rankTable } from '../markdown-tracks.ts';
import { perTrack } from './per-track.ts';
import type { ReportSection } from './types.ts';

export const rankProbabilitiesSection: ReportSection = {
  markdown: ({ summary }) => [
    perTrack(
      'Rank probabilities',
      rankTable,
      summary.tracks,
      'Agents by the point value; P(rank r) = share of bootstrap samples with that rank; "ahead of next" as in the leaderboard.',
    ),
  ],
};
