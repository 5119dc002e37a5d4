// A report.md section made of one block per track under one heading (W, ratings, rank
// probabilities...): the shape most of the paper's per-track tables take.
import type { TrackSummary } from '../../records/tourney.ts';

export function perTrack(
  title: string,
  render: (t: TrackSummary) => string,
  tracks: readonly TrackSummary[],
  note?: string,
): string {
  return [`## ${title}`, ...(note ? [note] : []), ...tracks.map(render)].join('\n\n');
}
