// report.html's page shell: one self-contained page (inline CSS, inline SVG charts drawn in Node, one
// small inline script) that opens from file:// and can be sent to a colleague. Its sections come
// from reports/sections/ (the same numbers as report.md, docs/metrics.md, plus W as heatmaps,
// learning curves and interval charts); a click on a W cell lists that pairing's games with links
// to their replay pages (replays/replay.html?id=<id>, written beside the report).
import type { GameIndex } from './types.ts';
import { escapeHtml as h, PAGE_CSS, scriptJson } from '../html/page.ts';
import { RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

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
        var link = g.page ? '<a href="${RUN_DIRS.replays}/${RUN_FILES.replayPage}?id=' + encodeURIComponent(g.id) + '">replay</a>' : '<a href="${RUN_DIRS.replays}/' + esc(g.id) + '.json.gz">json</a>';
        return '<tr><td class="text">' + esc(g.seats.join(' · ')) + '</td><td>' + g.scores.map(function (x) { return Math.round(x * 1000) / 1000; }).join('–') + '</td><td class="text">' + esc(g.termination + (g.reason ? ': ' + g.reason : '')) + '</td><td>' + g.plies + '</td><td class="text">' + link + '</td></tr>';
      }).join('');
      panel.innerHTML = '<p><strong>' + esc(a) + ' vs ' + esc(b) + '</strong>: ' + list.length + ' game(s) <button type="button" id="games-close">close</button></p>' +
        '<table><thead><tr><th class="text">seats</th><th>scores</th><th class="text">end</th><th>plies</th><th class="text"></th></tr></thead><tbody>' + rows + '</tbody></table>';
      panel.classList.add('open');
      document.getElementById('games-close').addEventListener('click', function () { panel.classList.remove('open'); });
    });
  });
})();`;

export interface ReportPageParts {
  title: string;
  /** The run's head, above the navigation. */
  header: string;
  /** The navigation links as [anchor, label]. */
  nav: ReadonlyArray<readonly [string, string]>;
  /** The sections below the navigation, in order. */
  sections: string[];
  games: GameIndex;
}

/** The whole page around its sections. */
export function reportPage(p: ReportPageParts): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(p.title)}</title>
<style>${PAGE_CSS}${REPORT_CSS}</style></head>
<body>
${p.header}
<nav>${p.nav.map(([id, label]) => `<a href="#${h(id)}">${h(label)}</a>`).join('')}</nav>
${p.sections.join('\n')}
<div id="games" data-testid="games"></div>
<script>window.CATARENA_GAMES = ${scriptJson(p.games)};</script>
<script>${REPORT_SCRIPT}</script>
</body></html>
`;
}
