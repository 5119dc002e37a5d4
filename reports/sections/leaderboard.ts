// The leaderboard (the paper's Table 3): average rank over the tracks by S and by L, the one rating
// over every track when there is one, mean S and L, and how sure each place is.
import type { TourneySummary } from '../../records/tourney.ts';
import { LEADERBOARD_RULE } from '../board-rule.ts';
import { mdTable, num } from '../markdown-format.ts';
import { crossGameCell, crossGameNote } from '../markdown-ratings.ts';
import { vsNext as mdVsNext } from '../markdown-tracks.ts';
import { escapeHtml as h, htmlTable as table, vsNext } from '../html/page.ts';
import { eloHtml } from '../html/ratings-html.ts';
import type { ReportSection } from './types.ts';

function markdownLeaderboard(s: TourneySummary): string {
  const cross = s.crossGame ? ['Elo (all tracks)'] : [];
  const rows = s.leaderboard.map((e, k) => [
    String(k + 1),
    e.agent,
    num(e.meanRankS),
    num(e.meanRankL),
    ...(s.crossGame ? [crossGameCell(s, e.agent)] : []),
    num(e.meanS),
    num(e.meanL),
    num(e.rankProbabilities?.[k], 2),
    mdVsNext(e.aboveNext),
  ]);
  return [
    '## Leaderboard (Table 3 layout)',
    '',
    `Average rank over ${s.tracks.length} track(s) (1 = best; ties share the mean rank). P(place) = share of bootstrap samples in which the agent holds this place; ` +
      '"ahead of next" = share in which it is placed above the next agent (✓ at 95%, ≈ not separable).',
    ...(s.crossGame ? ['', crossGameNote(s.crossGame)] : []),
    '',
    rows.length
      ? mdTable(
          ['#', 'Agent', 'Avg rank S', 'Avg rank L', ...cross, 'Mean S', 'Mean L', 'P(place)', 'ahead of next'],
          rows,
          2,
        )
      : 'No agents.',
  ].join('\n');
}

function htmlLeaderboard(s: TourneySummary): string {
  const rows = s.leaderboard.map((e, k) => [
    h(e.agent),
    String(k + 1),
    num(e.meanRankS),
    num(e.meanRankL),
    ...(s.crossGame ? [eloHtml(s.crossGame.agents.find((r) => r.id === e.agent))] : []),
    num(e.meanS),
    num(e.meanL),
    num(e.rankProbabilities?.[k], 2),
    vsNext(e.aboveNext),
  ]);
  const cross = s.crossGame ? ['Elo (all tracks)'] : [];
  return `<h2 id="leaderboard">Leaderboard</h2>
<p class="muted" data-testid="rule">${h(LEADERBOARD_RULE)}</p>
<p class="muted">Average rank over ${s.tracks.length} track(s) (1 = best). P(place): share of bootstrap samples in which the agent holds this place.</p>
${s.crossGame ? `<p class="muted" data-testid="cross-game">${h(crossGameNote(s.crossGame))}</p>` : ''}
${table(['Agent', '#', 'Avg rank S', 'Avg rank L', ...cross, 'Mean S', 'Mean L', 'P(place)', 'ahead of next'], rows, 'leaderboard')}`;
}

export const leaderboardSection: ReportSection = {
  markdown: ({ summary }) => [markdownLeaderboard(summary)],
  html: ({ summary }) => htmlLeaderboard(summary),
  nav: () => [['leaderboard', 'Leaderboard']],
};
