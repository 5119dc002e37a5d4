// Ratings per track: Bradley–Terry with Davidson draws for every track, Plackett–Luce for tracks
// whose games seat more than two players (the page shows them in each track's block).
import { tableRatingsTable } from '../markdown-ratings.ts';
import { ratingsTable } from '../markdown-tracks.ts';
import { perTrack } from './per-track.ts';
import type { ReportSection } from './types.ts';

const TABLE_RATINGS_NOTE =
  'Tracks whose games seat more than two players, rated from each table\'s finishing order rather than its pairwise projection (docs/metrics.md "Ratings for tables").';

export const ratingsSection: ReportSection = {
  markdown: ({ summary: { tracks } }) => {
    const tableTracks = tracks.filter((track) => track.tableRatings);
    return [
      perTrack('Ratings (Bradley–Terry with Davidson draws)', ratingsTable, tracks),
      ...(tableTracks.length
        ? [perTrack('Ratings for tables (Plackett–Luce)', tableRatingsTable, tableTracks, TABLE_RATINGS_NOTE)]
        : []),
    ];
  },
};
