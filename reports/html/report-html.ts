// report.html: the run's report as one self-contained page (inline CSS, inline SVG charts drawn in
// Node, one small inline script) that opens from file:// and can be sent to a colleague. The
// same numbers as report.md (docs/metrics.md), plus W as heatmaps, learning curves and interval
// charts; a click on a W cell lists that pairing's games with links to their replay pages
// (replays/replay.html?id=<id>, written beside the report).
import { integrityLine } from '../../records/journal-integrity.ts';
import { tokenWords } from '../../agents/core/prices.ts';
import { fallbackAlarmLines, llmPlayerRows } from '../llm-player-use.ts';
import {
  budgetAlarmLines,
  budgetLine,
  COST_ROUND_HEAD,
  COST_ROUND_NOTE,
  costRoundRows,
  runCostUsd,
  usd,
} from '../cost-by-round.ts';
import { recordingsLine, trackName, type TourneySummary, type TrackSummary } from '../../records/tourney.ts';
import { opponentCodeLine } from '../../records/opponent-code.ts';
import type { Interval } from '../../records/metrics.ts';
import { duration, num, pct } from '../markdown-format.ts';
import { agentsWithoutBot, everyBuildFailed } from '../summary.ts';
import { sandboxAlarmLines } from '../sandbox-alarm.ts';
import { ci, escapeHtml as h, htmlTable as table, PAGE_CSS, scriptJson, vsNext } from './page.ts';
import { heatmap, intervalChart, lineChart } from './svg.ts';
import { LEADERBOARD_RULE } from '../board-rule.ts';
import { integrityAlarmLines } from '../integrity.ts';
import { integrityHtml } from './integrity-html.ts';
import { eloHtml, tableRatingsHtml } from './ratings-html.ts';
import { crossGameNote } from '../markdown-ratings.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

/** One game as the W-cell panel lists it. */
export interface IndexedGame {
  id: string;
  /** Strategy label (agent@round) per seat. */
  seats: string[];
  scores: number[];
  termination: string;
  reason: string;
  plies: number;
  /** The game can be shown on the replay page (replays/views.js lists it). */
  page: boolean;
}

/** Per track (keyed by the heatmap's id: the track name with [^\w-] as _): W's labels and the games. */
export type GameIndex = Record<string, { labels: string[]; games: IndexedGame[] }>;

export const trackKey = (name: string) => name.replace(/[^\w-]/g, '_');

const withCI = (point: number | null | undefined, iv?: Interval) =>
  `${num(point)}${point === null || point === undefined ? '' : ci(iv)}`;

function header(s: TourneySummary): string {
  const agents = [...new Set(s.tracks.flatMap((t) => t.agents))];
  const games = s.tracks.reduce((n, t) => n + t.games, 0);
  const alarms = everyBuildFailed(s.tracks)
    ? ['Every build of every agent failed: no strategy of this run played, so its scores mean nothing.']
    : [
        ...agentsWithoutBot(s.tracks).map(
          (a) =>
            `Every build of agent ${a.agent} failed: its scores are those of a forfeiting stand-in. First reason: ${a.reason.slice(0, 200)}`,
        ),
        ...fallbackAlarmLines(s.tracks),
        ...budgetAlarmLines(s.tracks),
        ...integrityAlarmLines(s.tracks),
        ...sandboxAlarmLines(s.tracks),
      ];
  const llmRows = llmPlayerRows(s.tracks);
  const auto = s.tracks.filter((t) => t.autoReps);
  return `<h1>CATArena tournament report: ${h(s.runId)}</h1>
${s.incomplete ? `<p class="warn" data-testid="incomplete"><strong>${h(s.incomplete.line)}</strong></p>` : ''}
${s.journal?.state === 'tampered' ? `<p class="warn" data-testid="journal-integrity"><strong>${h(integrityLine(s.journal))}</strong></p>` : ''}
<ul>
${s.journal && s.journal.state !== 'tampered' ? `<li data-testid="journal-integrity">${h(integrityLine(s.journal))}</li>` : ''}
<li>Run directory: <code>${h(s.runDir)}</code></li>
<li>Started ${h(s.createdAt)} · finished ${h(s.finishedAt)}</li>
<li>Agents (${agents.length}): ${h(agents.join(', '))}</li>
${s.modelExchanges ? `<li data-testid="model-exchanges">${h(recordingsLine(s.modelExchanges))}</li>` : ''}
<li>Games played: ${games} (${s.tracks.map((t) => `${h(trackName(t))}: ${t.games}`).join(', ')})</li>
<li>${h(opponentCodeLine(s.config))}</li>
${auto.map((t) => `<li>${h(trackName(t))}: --reps auto, ${t.autoReps!.firstPass} games then ${t.autoReps!.batches.length} batch(es) to ${t.autoReps!.games}; ${h(t.autoReps!.stopped?.detail ?? 'not finished')}</li>`).join('\n')}
</ul>
${alarms.map((a) => `<p class="warn"><strong>${h(a)}</strong></p>`).join('\n')}
${
  llmRows.length
    ? `<h2 id="llm-player">LLM-player decisions</h2>\n<p class="muted">Decisions the model was asked for (forced moves excluded) and how many were played as a random legal action.</p>\n${table(
        ['Agent', 'Track', 'Decisions', 'Random fallbacks', 'Share'],
        llmRows.map((r) => r.map(h)),
      )}`
    : ''
}
<p class="muted">S = strategy coding, L = global learning, C = counter-adaptation, SI = self-improvement, U = generalizability (variant B¹ − standard B¹); docs/metrics.md in the catarena repository defines them.
Brackets: 95% intervals for the luck of the games these bots played (a smoothed bootstrap), not for a rerun in which the agents write other bots. ≈: not separable from the next at 95%.</p>`;
}

function leaderboard(s: TourneySummary): string {
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

function trackSection(s: TourneySummary, t: TrackSummary): string {
  const name = trackName(t);
  const id = trackKey(name);
  const m = (a: string) => t.metrics.perAgent[a];
  const b = (a: string) => t.bootstrap.perAgent[a];
  const U = s.generalizability[t.game];
  const agentElo = new Map((t.ratings?.agents ?? []).map((r) => [r.id, r]));
  const tableElo = t.tableRatings && new Map(t.tableRatings.agents.map((r) => [r.id, r]));
  const metrics = table(
    [
      'Agent',
      'S',
      'L',
      'C',
      'SI',
      ...(U ? ['U'] : []),
      'Elo (agent)',
      ...(tableElo ? ['Elo, tables (Plackett–Luce)'] : []),
    ],
    t.agents.map((a) => {
      const r = agentElo.get(a);
      return [
        h(a),
        withCI(m(a)?.S, b(a)?.S),
        withCI(m(a)?.L, b(a)?.L),
        withCI(m(a)?.C, b(a)?.C),
        m(a)?.SI.defined ? withCI(m(a)!.SI.value, b(a)?.SI) : 'n/a',
        ...(U ? [num(U[a])] : []),
        r
          ? `${r.elo.toFixed(0)}${r.lo === r.hi ? ' <span class="ci">anchor</span>' : ` <span class="ci">[${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}]</span>`}`
          : '—',
        ...(tableElo ? [eloHtml(tableElo.get(a))] : []),
      ];
    }),
    'metrics',
  );
  const forest = (key: 'S' | 'L', min: number, max: number) =>
    intervalChart(
      t.agents.map((a) => ({
        label: a,
        point: m(a)?.[key] ?? null,
        lo: b(a)?.[key].lo ?? null,
        hi: b(a)?.[key].hi ?? null,
      })),
      { id: `${id}-${key}`, min, max, title: key === 'S' ? 'S (strategy coding)' : 'L (global learning)' },
    );
  const ranks = (['S', 'L'] as const)
    .map((key) => {
      const point = (a: string) => m(a)?.[key] ?? null;
      const order = t.agents
        .filter((a) => point(a) !== null)
        .sort((x, y) => point(y)! - point(x)! || x.localeCompare(y));
      const probs = t.bootstrap.rankProbabilities[key];
      const rows = order.map((a, k) => [
        h(a),
        num(point(a)),
        ...order.map((_, r) => num(probs[a]?.[r], 2)),
        vsNext(k + 1 < order.length ? t.bootstrap.above?.[key]?.[a]?.[order[k + 1]!] : null),
      ]);
      return `<h4>${key}: probability of each rank</h4>${table(['Agent', key, ...order.map((_, r) => `P(${r + 1})`), 'ahead of next'], rows, 'ranks')}`;
    })
    .join('');
  const rounds = Array.from({ length: t.rounds }, (_, k) => `round ${k + 1}`);
  const curves = lineChart(
    t.agents.map((a) => ({
      name: a,
      values: m(a)?.G ?? [],
      lo: b(a)?.G.map((g) => g.lo) ?? [],
      hi: b(a)?.G.map((g) => g.hi) ?? [],
    })),
    { xLabels: rounds, yLabel: 'G^n (global performance)', yMin: 0, yMax: 1, id: `${id}-G` },
  );
  const ratings = t.ratings
    ? `<details><summary>Ratings per strategy (Bradley–Terry with Davidson draws; Elo 0 = ${h(t.ratings.anchor === 'mean' ? 'the mean' : t.ratings.anchor)})</summary>${table(
        ['Strategy', 'Elo', '95% interval', 'Games'],
        [...t.ratings.strategies]
          .sort((x, y) => y.elo - x.elo)
          .map((r) => [
            h(r.id),
            r.elo.toFixed(1),
            r.lo === r.hi ? 'anchor' : `[${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}]`,
            String(r.games),
          ]),
        'ratings',
      )}</details>`
    : '';
  return `<section class="track" id="track-${id}">
<h2>${h(name)}</h2>
${metrics}
<div class="charts">${forest('S', 0, 1)}${forest('L', -1, 1)}</div>
${ranks}
<h3>Score matrix W</h3>
<p class="muted">Row = the strategy scoring against the column; blue = wins, red = losses, hatched = never met. Click a cell for its games and their replays.</p>
<div class="w-wrap">${heatmap({ labels: t.W.strategies, values: t.W.W, games: t.W.games, id })}</div>
<h3>Learning curves</h3>
${curves}
${ratings}
${tableRatingsHtml(t)}
</section>`;
}

function operations(s: TourneySummary): string {
  const errors = s.tracks.flatMap((t) =>
    Object.entries(t.errors).map(([agent, e]) => [
      h(agent),
      h(trackName(t)),
      String(e.requests),
      pct(e.timeout, e.requests),
      pct(e.http_error, e.requests),
      pct(e.malformed, e.requests),
      pct(e.illegal, e.requests),
      pct(e.crash, e.requests),
      e.requests ? `${(100 * e.rate).toFixed(2)}%` : '—',
    ]),
  );
  const terms = [...new Set(s.tracks.flatMap((t) => Object.keys(t.terminations ?? {})))].sort();
  const termRows = s.tracks.map((t) => [h(trackName(t)), ...terms.map((k) => String(t.terminations?.[k] ?? 0))]);
  const costs = s.tracks.flatMap((t) =>
    Object.entries(t.cost).map(([agent, c]) => [
      h(agent),
      h(trackName(t)),
      String(c.rounds),
      c.rateLimitWaitMs
        ? `${duration(c.wallMs)} (${duration(c.rateLimitWaitMs)} waiting on rate limits)`
        : duration(c.wallMs),
      String(c.toolCalls),
      c.tokens ? h(tokenWords(c.tokens)) : '—',
      String(c.linesOfCode),
    ]),
  );
  const failed = s.tracks.flatMap((t) =>
    t.strategies
      .filter((x) => x.status === 'failed')
      .map((x) => [
        h(x.id),
        h(trackName(t)),
        h((x.failure ?? 'no reason recorded').replace(/\s+/g, ' ').slice(0, 300)),
      ]),
  );
  const warned = s.tracks.flatMap((t) =>
    t.strategies
      .filter((x) => x.warnings?.length)
      .map((x) => [
        h(x.id),
        h(trackName(t)),
        x
          .warnings!.slice(0, 4)
          .map((w) => h(w.slice(0, 240)))
          .join('<br>'),
      ]),
  );
  return `<h2 id="errors">Errors per agent</h2>
${table(['Agent', 'Track', 'Requests', 'Timeout', 'HTTP error', 'Malformed', 'Illegal', 'Crash', 'Error rate'], errors, 'errors')}
<h2 id="terminations">How games ended</h2>
${table(['Track', ...terms.map(h)], termRows, 'terminations')}
<h2 id="cost">Cost per agent</h2>
${table(['Agent', 'Track', 'Rounds', 'Wall time', 'Tool calls', 'Tokens', 'Lines of code'], costs, 'cost')}
${
  costRoundRows(s.tracks).length
    ? `<h3>Cost per agent and round</h3>\n<p class="muted">${h(COST_ROUND_NOTE)} Estimated for the run: ${h(usd(runCostUsd(s.tracks)))}.${budgetLine(s.config, s.tracks) ? ` ${h(budgetLine(s.config, s.tracks)!)}` : ''}</p>\n${table(
        COST_ROUND_HEAD.map(h),
        costRoundRows(s.tracks).map((r) => r.map(h)),
        'cost-rounds',
      )}`
    : ''
}
<h2 id="failed">Failed builds</h2>
${table(['Strategy', 'Track', 'Reason'], failed, 'failed')}
<h2 id="warnings">Validation warnings</h2>
${table(['Strategy', 'Track', 'Warnings'], warned, 'warnings')}`;
}

const REPORT_CSS = `
.charts { display: flex; gap: 1rem; flex-wrap: wrap; }
.w-wrap { overflow-x: auto; }
.heatmap rect.cell { cursor: pointer; }
.heatmap rect.cell:hover { stroke: #000; stroke-width: 1.5; }
#games { position: fixed; right: 1rem; bottom: 1rem; max-width: min(36rem, calc(100vw - 2rem)); box-sizing: border-box; max-height: 60vh; overflow: auto; background: #fff; border: 1px solid #aaa; box-shadow: 0 2px 12px rgba(0,0,0,.2); padding: .6rem .9rem; display: none; }
#games.open { display: block; }
#games td, #games th { font-size: 12px; }
nav a { margin-right: .8rem; display: inline-block; }
h4 { margin: .6rem 0 .2rem; font-size: .95rem; }
`;

// The W-cell panel: the games between the cell's two strategies, newest schedule order, with replay links.
const REPORT_SCRIPT = `(function () {
  var games = window.CATARENA_GAMES || {};
  var panel = document.getElementById('games');
  function esc(t) { return String(t).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; }); }
  document.querySelectorAll('svg.heatmap').forEach(function (svg) {
    var track = games[svg.getAttribute('data-id')] || { labels: [], games: [] };
    var labels = track.labels;
    svg.addEventListener('click', function (e) {
      var cell = e.target.closest('rect.cell');
      if (!cell) return;
      var a = labels[Number(cell.getAttribute('data-row'))], b = labels[Number(cell.getAttribute('data-col'))];
      var list = track.games.filter(function (g) { return g.seats.indexOf(a) >= 0 && g.seats.indexOf(b) >= 0; });
      var rows = list.map(function (g) {
        var link = g.page ? '<a href="replays/${RUN_FILES.replayPage}?id=' + encodeURIComponent(g.id) + '">replay</a>' : '<a href="replays/' + esc(g.id) + '.json.gz">json</a>';
        return '<tr><td class="text">' + esc(g.seats.join(' · ')) + '</td><td>' + g.scores.map(function (x) { return Math.round(x * 1000) / 1000; }).join('–') + '</td><td class="text">' + esc(g.termination + (g.reason ? ': ' + g.reason : '')) + '</td><td>' + g.plies + '</td><td class="text">' + link + '</td></tr>';
      }).join('');
      panel.innerHTML = '<p><strong>' + esc(a) + ' vs ' + esc(b) + '</strong>: ' + list.length + ' game(s) <button type="button" id="games-close">close</button></p>' +
        '<table><thead><tr><th class="text">seats</th><th>scores</th><th class="text">end</th><th>plies</th><th class="text"></th></tr></thead><tbody>' + rows + '</tbody></table>';
      panel.classList.add('open');
      document.getElementById('games-close').addEventListener('click', function () { panel.classList.remove('open'); });
    });
  });
})();`;

/**
 * `extra`: sections of other reports placed before the error tables (the evolution's,
 * reports/evolution/evolution-html.ts; the probe's, reports/html/probe-html.ts), with their
 * navigation links as [anchor, label].
 */
export function renderReportHtml(
  s: TourneySummary,
  games: GameIndex,
  extra = '',
  extraNav: ReadonlyArray<readonly [string, string]> = [],
): string {
  const nav = [
    '<a href="#leaderboard">Leaderboard</a>',
    ...s.tracks.map((t) => `<a href="#track-${trackKey(trackName(t))}">${h(trackName(t))}</a>`),
    ...extraNav.map(([id, label]) => `<a href="#${h(id)}">${h(label)}</a>`),
    '<a href="#errors">Errors</a>',
    '<a href="#cost">Cost</a>',
    '<a href="#failed">Failed builds</a>',
    ...(integrityHtml(s.tracks) ? ['<a href="#integrity">Integrity</a>'] : []),
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(`catarena report ${s.runId}`)}</title>
<style>${PAGE_CSS}${REPORT_CSS}</style></head>
<body>
${header(s)}
<nav>${nav.join('')}</nav>
${leaderboard(s)}
${s.tracks.map((t) => trackSection(s, t)).join('\n')}
${extra}
${operations(s)}
${integrityHtml(s.tracks)}
<div id="games" data-testid="games"></div>
<script>window.CATARENA_GAMES = ${scriptJson(games)};</script>
<script>${REPORT_SCRIPT}</script>
</body></html>
`;
}
