// The paper's Table 4: per game, strategy coding (S.C.) and global learning (G.L.) per rule set,
// and generalizability (G.A.) when both rule sets ran. The page shows them in each track's block.
import type { TourneySummary, TrackSummary } from '../../records/tourney.ts';
import { mdTable, num, withCI } from '../markdown-format.ts';
import type { ReportSection } from './types.ts';

const unique = <T>(xs: T[]) => [...new Set(xs)];

function gameTable(s: TourneySummary, game: string, tracks: TrackSummary[]): string {
  const agents = unique(tracks.flatMap((t) => t.agents));
  const U = s.generalizability[game];
  const head = ['Agent', ...tracks.flatMap((t) => [`${t.variant} S.C.`, `${t.variant} G.L.`]), ...(U ? ['G.A.'] : [])];
  const rows = agents.map((a) => [
    a,
    ...tracks.flatMap((t) => {
      const m = t.metrics.perAgent[a];
      const ci = t.bootstrap.perAgent[a];
      return [withCI(m?.S, ci?.S), withCI(m?.L, ci?.L)];
    }),
    ...(U ? [num(U[a])] : []),
  ]);
  return [`### ${game}`, '', mdTable(head, rows)].join('\n');
}

function markdown(s: TourneySummary): string {
  const games = unique(s.tracks.map((t) => t.game));
  const parts = games.map((g) =>
    gameTable(
      s,
      g,
      s.tracks.filter((t) => t.game === g),
    ),
  );
  return [
    '## Strategy coding, global learning and generalizability (Table 4 layout)',
    ...(parts.length ? parts : ['No tracks.']),
  ].join('\n\n');
}

export const codingLearningSection: ReportSection = { markdown: ({ summary }) => [markdown(summary)] };
