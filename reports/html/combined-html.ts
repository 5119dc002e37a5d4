// report.html of a study of repeated tourneys: the same numbers as its report.md
// (reports/markdown-combined.ts), as one self-contained page, with the combined intervals as
// charts, mean W as heatmaps and links to each repeat's own report.
import { trackName } from '../../records/tourney.ts';
import { opponentCodeLine } from '../../records/opponent-code.ts';
import type { CombinedSummary, CombinedTrack } from '../combined.ts';
import { num } from '../markdown-format.ts';
import { pm } from '../markdown-combined.ts';
import type { Interval } from '../../records/metrics.ts';
import type { MeanSd } from '../metrics/repeats.ts';
import { ci, escapeHtml as h, htmlTable as table, PAGE_CSS, vsNext } from './page.ts';
import { heatmap, intervalChart, lineChart } from './svg.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

const pmCI = (x: MeanSd | undefined, iv?: Interval) => `${pm(x)}${x?.mean === null || x === undefined ? '' : ci(iv)}`;
const key = (t: CombinedTrack) => trackName(t).replace(/[^\w-]/g, '_');

function trackSection(t: CombinedTrack): string {
  const id = key(t);
  const m = (a: string) => t.perAgent[a]!;
  const iv = (a: string) => t.intervals.perAgent[a];
  const rounds = Array.from({ length: t.rounds }, (_, k) => k + 1);
  const metrics = table(
    ['Agent', 'S', 'L', 'C', 'SI', 'Elo (agent)', ...rounds.map((n) => `rank SD round ${n}`)],
    t.agents.map((a) => [
      h(a),
      pmCI(m(a).S, iv(a)?.S),
      pmCI(m(a).L, iv(a)?.L),
      pmCI(m(a).C, iv(a)?.C),
      pmCI(m(a).SI, iv(a)?.SI),
      pm(m(a).elo, 0),
      ...rounds.map((n) => num(m(a).rankSd.B[n - 1], 2)),
    ]),
    'metrics',
  );
  const forest = (k: 'S' | 'L', min: number, max: number) =>
    intervalChart(
      t.agents.map((a) => ({ label: a, point: m(a)[k].mean, lo: iv(a)?.[k].lo ?? null, hi: iv(a)?.[k].hi ?? null })),
      { id: `${id}-${k}`, min, max, title: `${k} over repeats (development and games)` },
    );
  const ranks = (['S', 'L'] as const)
    .map((k) => {
      const point = (a: string) => m(a)[k].mean;
      const order = t.agents
        .filter((a) => point(a) !== null)
        .sort((x, y) => point(y)! - point(x)! || x.localeCompare(y));
      const probs = t.intervals.rankProbabilities[k];
      return `<h4>${k}: probability of each rank</h4>${table(
        ['Agent', k, ...order.map((_, r) => `P(${r + 1})`), 'ahead of next'],
        order.map((a, j) => [
          h(a),
          pm(m(a)[k]),
          ...order.map((_, r) => num(probs[a]?.[r], 2)),
          vsNext(j + 1 < order.length ? t.intervals.above[k][a]?.[order[j + 1]!] : null),
        ]),
        'ranks',
      )}`;
    })
    .join('');
  const curves = lineChart(
    t.agents.map((a) => ({
      name: a,
      values: m(a).G.map((g) => g.mean),
      lo: iv(a)?.G.map((g) => g.lo) ?? [],
      hi: iv(a)?.G.map((g) => g.hi) ?? [],
    })),
    { xLabels: rounds.map((n) => `round ${n}`), yLabel: 'G^n (mean over repeats)', yMin: 0, yMax: 1, id: `${id}-G` },
  );
  const agreement = table(
    ['Ranking by', "Kendall's W", 'mean τ'],
    [
      ['S', num(t.agreement.S.W, 2), num(t.agreement.S.tau, 2)],
      ['L', num(t.agreement.L.W, 2), num(t.agreement.L.tau, 2)],
      ...rounds.map((n) => [`B^${n}`, num(t.agreement.B[n - 1]?.W, 2), num(t.agreement.B[n - 1]?.tau, 2)]),
    ],
    'agreement',
  );
  return `<section class="track" id="track-${id}">
<h2>${h(trackName(t))}</h2>
<p class="muted">Games per repeat: ${t.games.join(', ')}.</p>
${metrics}
<div class="charts">${forest('S', 0, 1)}${forest('L', -1, 1)}</div>
${ranks}
<h3>Rank agreement between repeats</h3>
${agreement}
<h3>Score matrix W (mean over repeats)</h3>
<div class="w-wrap">${heatmap({ labels: t.W.strategies, values: t.W.mean, games: t.W.mean.map((row) => row.map(() => 0)), id })}</div>
<h3>Learning curves</h3>
${curves}
</section>`;
}

export function renderCombinedHtml(c: CombinedSummary): string {
  const K = c.repeats.length;
  const board = table(
    ['Agent', '#', 'Avg rank S', 'Avg rank L', 'Mean S', 'Mean L', 'Place (repeats)', 'P(place)', 'ahead of next'],
    c.leaderboard.map((e, k) => [
      h(e.agent),
      String(k + 1),
      num(e.meanRankS),
      num(e.meanRankL),
      pm(e.S),
      pm(e.L),
      pm(e.place, 2),
      num(e.rankProbabilities?.[k], 2),
      vsNext(e.aboveNext),
    ]),
    'leaderboard',
  );
  const maxRounds = Math.max(0, ...c.tracks.map((t) => t.rounds));
  const rounds = Array.from({ length: maxRounds }, (_, k) => k + 1);
  const t8 = table(
    ['Track', 'Agent', ...rounds.map((n) => `round ${n}`), 'S', 'L'],
    c.tracks.flatMap((t) =>
      t.agents.map((a) => [
        h(trackName(t)),
        h(a),
        ...rounds.map((n) => num(t.perAgent[a]!.rankSd.B[n - 1], 2)),
        num(t.perAgent[a]!.rankSd.S, 2),
        num(t.perAgent[a]!.rankSd.L, 2),
      ]),
    ),
    'table8',
  );
  const builds = table(
    ['Track', 'Agent', ...c.repeats.map((r) => `repeat ${r.index}`)],
    c.tracks.flatMap((t) => t.agents.map((a) => [h(trackName(t)), h(a), ...t.perAgent[a]!.failedBuilds.map(String)])),
    'builds',
  );
  const ops = table(
    ['Track', 'Agent', 'Error rate', 'Tool calls', 'Lines of code'],
    c.tracks.flatMap((t) =>
      t.agents.map((a) => [
        h(trackName(t)),
        h(a),
        pm(t.perAgent[a]!.errorRate, 4),
        pm(t.perAgent[a]!.toolCalls, 1),
        pm(t.perAgent[a]!.linesOfCode, 0),
      ]),
    ),
    'operations',
  );
  const nav = [
    '<a href="#leaderboard">Leaderboard</a>',
    '<a href="#table8">Table 8</a>',
    ...c.tracks.map((t) => `<a href="#track-${key(t)}">${h(trackName(t))}</a>`),
    '<a href="#builds">Failed builds</a>',
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(`catarena report ${c.runId} (${K} repeats)`)}</title>
<style>${PAGE_CSS}
.charts { display: flex; gap: 1rem; flex-wrap: wrap; } .w-wrap { overflow-x: auto; } nav a { margin-right: .8rem; } h4 { margin: .6rem 0 .2rem; font-size: .95rem; }</style></head>
<body>
<h1>CATArena tournament report over ${K} repeats: ${h(c.runId)}</h1>
<ul>
<li>Directory: <code>${h(c.runDir)}</code> · finished ${h(c.finishedAt)}</li>
<li>${h(opponentCodeLine(c.config))}</li>
${c.repeats.map((r) => `<li>Repeat ${r.index}: seed ${r.seed}, ${r.games} games — <a href="${h(r.runDir)}/${RUN_FILES.reportHtml}">its report</a></li>`).join('\n')}
</ul>
<p class="muted">Mean over the ${K} repeats ± SD (the paper's way). Brackets: ${Math.round(c.level * 100)}% intervals of the mean covering the agents' development and the games' luck (two-level bootstrap, Student's t with ${K - 1} df; docs/metrics.md "Intervals over repeats"). ≈: not separable from the next at 95%.</p>
<nav>${nav.join('')}</nav>
<h2 id="leaderboard">Leaderboard</h2>
${board}
<p class="muted">Agreement of the repeats' leaderboards: Kendall's W = ${num(c.leaderboardAgreement.W)}, mean τ = ${num(c.leaderboardAgreement.tau)}.</p>
<h2 id="table8">Rank stability across repeats (Table 8 layout)</h2>
<p class="muted">SD over repeats of each agent's rank: per round by B^n, over all rounds by S and L.</p>
${t8}
${c.tracks.map(trackSection).join('\n')}
<h2 id="builds">Failed builds per repeat</h2>
${builds}
<h2 id="operations">Errors and cost (mean ± SD over repeats)</h2>
${ops}
</body></html>
`;
}
