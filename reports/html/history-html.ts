// The history page (runs/index.html, `catarena history --html`): per track and agent, S and L
// across the indexed runs with their intervals, oldest first, so nightly runs show trends; a
// table of the runs links each run's report.html. Self-contained like report.html.
import path from 'node:path';
import { rulesChanges, rulesOfEntry, type RunIndexEntry } from '../../model/tourney.ts';
import { num } from '../markdown-format.ts';
import { escapeHtml as h, PAGE_CSS } from './page.ts';
import { lineChart, type Series } from './svg.ts';

/** `root`: the folder the page is written to (report links are relative to it). */
export function renderHistoryHtml(entries: RunIndexEntry[], root: string): string {
  const runs = [...entries].sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
  const xLabels = runs.map((r) => r.finishedAt.slice(5, 16).replace('T', ' '));
  const tracks = [...new Set(runs.flatMap((r) => (r.tracks ?? []).map((t) => t.track)))].sort();
  const charts = tracks
    .map((track) => {
      const agents = [...new Set(runs.flatMap((r) => Object.keys(r.tracks?.find((t) => t.track === track)?.perAgent ?? {})))].sort();
      const chart = (key: 'S' | 'L') => {
        const series: Series[] = agents.map((a) => {
          const ivs = runs.map((r) => r.tracks?.find((t) => t.track === track)?.perAgent[a]?.[key] ?? null);
          return { name: a, values: ivs.map((iv) => iv?.point ?? null), lo: ivs.map((iv) => iv?.lo ?? null), hi: ivs.map((iv) => iv?.hi ?? null) };
        });
        return lineChart(series, { xLabels, yLabel: key === 'S' ? 'S (strategy coding)' : 'L (global learning)', yMin: key === 'S' ? 0 : -1, yMax: 1, id: `${track}-${key}`, width: Math.max(520, 90 + runs.length * 60) });
      };
      return `<section class="track"><h2>${h(track)}</h2><div class="charts">${chart('S')}${chart('L')}</div></section>`;
    })
    .join('\n');
  const agents = [...new Set(runs.flatMap((r) => r.leaderboard.map((e) => e.agent)))].sort();
  const rows = [...runs].reverse().map((r) => {
    const report = path.relative(root, path.join(r.runDir, 'report.html')).split(path.sep).join('/');
    const by = new Map(r.leaderboard.map((e) => [e.agent, e]));
    // The rules each game was played under; a change from the run before is marked (scores of that game do not compare).
    const before = runs[runs.indexOf(r) - 1];
    const changed = before ? rulesChanges(before, r) : [];
    const rules = Object.entries(rulesOfEntry(r)).map(([g, label]) => `${g} ${label}`).join(', ');
    const rulesCell = changed.length ? `${h(rules)} <strong title="${h(`changed: ${changed.join(', ')}`)}">(changed)</strong>` : h(rules);
    return `<tr><td class="text">${h(r.finishedAt.slice(0, 16).replace('T', ' '))}</td><td class="text"><a href="${h(report)}">${h(r.runId)}</a></td><td class="text">${h(r.schedule ?? '')}</td><td class="text">${h(r.games.join(', '))}</td><td class="text">${rulesCell}</td><td>${r.rounds}</td><td>${r.matches}</td>${agents
      .map((a) => `<td>${by.has(a) ? `${num(by.get(a)!.meanS)} / ${num(by.get(a)!.meanL)}` : ''}</td>`)
      .join('')}</tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>catarena history</title>
<style>${PAGE_CSS}.charts { display: flex; gap: 1rem; flex-wrap: wrap; }</style></head>
<body>
<h1>catarena history: ${runs.length} run(s)</h1>
<p class="muted">Per track, each agent's S (strategy coding) and L (global learning) in every indexed run, oldest first; whiskers are 95% intervals (runs indexed before intervals were recorded show points only).</p>
${runs.length ? charts || '<p class="muted">No per-track scores indexed yet.</p>' : '<p class="muted">No finished runs are indexed here yet.</p>'}
<h2>Runs</h2>
<table><thead><tr><th class="text">finished (UTC)</th><th class="text">run</th><th class="text">schedule</th><th class="text">games</th><th class="text">rules</th><th>rounds</th><th>matches</th>${agents.map((a) => `<th>${h(a)} S / L</th>`).join('')}</tr></thead>
<tbody>${rows.join('')}</tbody></table>
</body></html>
`;
}
