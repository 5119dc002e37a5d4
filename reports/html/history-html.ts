// The history page (runs/index.html, `catarena history --html`): per track and agent, S and L
// across the indexed runs with their intervals, oldest first, so nightly runs show trends; a
// table of the runs links each run's report.html; "Pairwise over time" charts each pair of agents'
// paired difference (the index lines' `pairwise`, catarena compare per run). Self-contained like report.html.
import path from 'node:path';
import { rulesChanges, rulesOfEntry, type RunIndexEntry } from '../../records/tourney.ts';
import { opponentCodeOf } from '../../records/opponent-code.ts';
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
      const agents = [
        ...new Set(runs.flatMap((r) => Object.keys(r.tracks?.find((t) => t.track === track)?.perAgent ?? {}))),
      ].sort();
      const chart = (key: 'S' | 'L') => {
        const series: Series[] = agents.map((a) => {
          const ivs = runs.map((r) => r.tracks?.find((t) => t.track === track)?.perAgent[a]?.[key] ?? null);
          return {
            name: a,
            values: ivs.map((iv) => iv?.point ?? null),
            lo: ivs.map((iv) => iv?.lo ?? null),
            hi: ivs.map((iv) => iv?.hi ?? null),
          };
        });
        return lineChart(series, {
          xLabels,
          yLabel: key === 'S' ? 'S (strategy coding)' : 'L (global learning)',
          yMin: key === 'S' ? 0 : -1,
          yMax: 1,
          id: `${track}-${key}`,
          width: Math.max(520, 90 + runs.length * 60),
        });
      };
      return `<section class="track"><h2>${h(track)}</h2><div class="charts">${chart('S')}${chart('L')}</div></section>`;
    })
    .join('\n');
  const pairs = pairwiseSections(runs, xLabels);
  const agents = [...new Set(runs.flatMap((r) => r.leaderboard.map((e) => e.agent)))].sort();
  const rows = [...runs].reverse().map((r) => {
    const report = path.relative(root, path.join(r.runDir, 'report.html')).split(path.sep).join('/');
    const by = new Map(r.leaderboard.map((e) => [e.agent, e]));
    // The rules each game was played under; a change from the run before is marked (scores of that game do not compare).
    const before = runs[runs.indexOf(r) - 1];
    const changed = before ? rulesChanges(before, r) : [];
    const rules = Object.entries(rulesOfEntry(r))
      .map(([g, label]) => `${g} ${label}`)
      .join(', ');
    const rulesCell = changed.length
      ? `${h(rules)} <strong title="${h(`changed: ${changed.join(', ')}`)}">(changed)</strong>`
      : h(rules);
    // What agents saw of rivals (opponentCode): a change from the run before is marked too (learning scores do not compare).
    const opponents = opponentCodeOf(r);
    const opponentsChanged = before && opponentCodeOf(before) !== opponents;
    const opponentsCell = `${h(opponents)}${opponentsChanged ? ` <strong title="${h(`changed: ${opponentCodeOf(before)} → ${opponents}`)}">(changed)</strong>` : ''}`;
    return `<tr><td class="text">${h(r.finishedAt.slice(0, 16).replace('T', ' '))}</td><td class="text"><a href="${h(report)}">${h(r.runId)}</a></td><td class="text">${h(r.schedule ?? '')}</td><td class="text">${h(r.games.join(', '))}</td><td class="text">${rulesCell}</td><td class="text">${opponentsCell}</td><td>${r.rounds}</td><td>${r.matches}</td>${agents
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
${pairs}
<h2>Runs</h2>
<table><thead><tr><th class="text">finished (UTC)</th><th class="text">run</th><th class="text">schedule</th><th class="text">games</th><th class="text">rules</th><th class="text">opponents' code</th><th>rounds</th><th>matches</th>${agents.map((a) => `<th>${h(a)} S / L</th>`).join('')}</tr></thead>
<tbody>${rows.join('')}</tbody></table>
</body></html>
`;
}

/**
 * "Pairwise over time": per pair of agents, the paired difference A − B in S over all tracks in
 * each run that indexed it (a band for its 95% interval), and P(A better) in S and in L — what
 * `catarena compare A B <run-dir>` prints for that run or study (docs/metrics.md).
 */
function pairwiseSections(runs: RunIndexEntry[], xLabels: string[]): string {
  const keys = [...new Set(runs.flatMap((r) => (r.pairwise ?? []).map((p) => JSON.stringify([p.a, p.b]))))].sort();
  if (!keys.length) return '';
  const width = Math.max(520, 90 + runs.length * 60);
  const sections = keys.map((key, k) => {
    const [a, b] = JSON.parse(key) as [string, string];
    const of = runs.map((r) => r.pairwise?.find((p) => p.a === a && p.b === b) ?? null);
    const S = of.map((p) => p?.S ?? null);
    const diff = lineChart(
      [
        {
          name: `S: ${a} − ${b}`,
          values: S.map((d) => d?.diff ?? null),
          lo: S.map((d) => d?.lo ?? null),
          hi: S.map((d) => d?.hi ?? null),
        },
      ],
      { xLabels, yLabel: `S difference (${a} − ${b})`, yMin: -1, yMax: 1, id: `pair-${k}-S`, width, band: true },
    );
    const better = lineChart(
      (['S', 'L'] as const).map((m) => ({ name: `P(better) in ${m}`, values: of.map((p) => p?.[m]?.pBetter ?? null) })),
      { xLabels, yLabel: `P(${a} better)`, yMin: 0, yMax: 1, id: `pair-${k}-better`, width },
    );
    const i = of.map((p) => Boolean(p?.S)).lastIndexOf(true);
    const last = i >= 0 ? of[i]!.S! : null;
    const latest = last
      ? `latest (${runs[i]!.runId}, ${of[i]!.repeats} repeat${of[i]!.repeats === 1 ? '' : 's'}): S ${a} − ${b} = ${num(last.diff)} [${num(last.lo)}, ${num(last.hi)}], p = ${num(last.p, 3)}, P(${a} better) = ${num(last.pBetter, 2)}`
      : '';
    return `<section class="pair" data-a="${h(a)}" data-b="${h(b)}"><h3>${h(a)} against ${h(b)}</h3><div class="charts">${diff}${better}</div><p class="muted">${h(latest)}</p></section>`;
  });
  return `<h2>Pairwise over time</h2>
<p class="muted">Per pair of agents and indexed run (or study of repeats), the paired difference A − B in S over all tracks both played, with its 95% interval as a band, and P(A better) in S and L: <code>catarena compare A B &lt;run-dir&gt;</code>'s "all tracks" rows. A single run's interval covers game luck only; a study's covers development too, and only a study's p-value can be small (docs/metrics.md, "Comparing two agents").</p>
${sections.join('\n')}`;
}
