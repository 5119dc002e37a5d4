// The short leaderboard `catarena tourney` prints at its end (report.md and report.html are
// assembled from reports/sections/).
import { trackName, type TourneySummary } from '../records/tourney.ts';
import { num, textTable } from './markdown-format.ts';
import { crossGameShort } from './markdown-ratings.ts';

/** A short plain-text leaderboard for the terminal: rank, agent, mean ranks, S/L per track. */
export function renderLeaderboard(summary: TourneySummary, maxAgents = 10): string {
  const tracks = summary.tracks;
  const cross = summary.crossGame ? ['Elo all'] : [];
  const rows = [['#  agent', 'rank S', 'rank L', ...cross, ...tracks.map((t) => `${trackName(t)} S/L`)]];
  summary.leaderboard.slice(0, maxAgents).forEach((e, k) => {
    rows.push([
      `${String(k + 1).padEnd(2)} ${e.agent}`,
      num(e.meanRankS, 2),
      num(e.meanRankL, 2),
      ...(summary.crossGame ? [crossGameShort(summary, e.agent)] : []),
      ...tracks.map((t) => {
        const m = t.metrics.perAgent[e.agent];
        return `${num(m?.S)}/${num(m?.L)}`;
      }),
    ]);
  });
  const level = summary.crossGame && Math.round(summary.crossGame.intervals.level * 100);
  const elo = level ? `; Elo all = one Bradley–Terry rating over every track [${level}%]` : '';
  const lines = [`Leaderboard: mean rank over ${tracks.length} track(s), 1 = best${elo}`, ...textTable(rows)];
  const more = summary.leaderboard.length - maxAgents;
  if (more > 0) lines.push(`… ${more} more agent(s) in report.md`);
  return lines.join('\n');
}
