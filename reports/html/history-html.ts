// The history page (runs/index.html, `catarena history --html`): per track and agent, S and L
// across the indexed runs with their intervals, oldest first, so nightly runs show trends; a
// table of the runs links each run's report.html; "Pairwise over time" charts each pair of agents'
// paired difference (the index lines' `pairwise`, catarena compare per run). Self-contained like report.html.
// Its headline is last night against its band per agent (reports/night-regression.ts) and the runs
// and nights that did not finish; a change of setup breaks the chart lines (a gap column) instead
// of joining scores that do not compare. Agent ids and reasons are untrusted text: all escaped.
import path from 'node:path';
import { configChanges } from '../../records/run-changes.ts';
import type { RunEnd } from '../../records/run-end.ts';
import { rulesChanges, rulesOfEntry, type RunIndexEntry } from '../../records/tourney.ts';
import { type BandOptions, bandRule, nightAgainstBand } from '../night-regression.ts';
import { opponentCodeOf } from '../../records/opponent-code.ts';
import { num } from '../markdown-format.ts';
import { escapeHtml as h, PAGE_CSS } from './page.ts';
import { lineChart, type Series } from './svg.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

export interface HistoryPageOptions {
  /** Runs and nights that did not finish (failed, killed, missed, interrupted, running, folder deleted). */
  ends?: RunEnd[];
  /** Indexed runs whose folder is gone (no report link). */
  deleted?: Set<string>;
  band?: Partial<BandOptions>;
}

/** The runs in chart order, with a gap (null) wherever the setup changed from the run before. */
function chartColumns(runs: RunIndexEntry[]): Array<RunIndexEntry | null> {
  return runs.flatMap((r, i) => (i > 0 && configChanges(runs[i - 1]!, r).length ? [null, r] : [r]));
}

/** `root`: the folder the page is written to (report links are relative to it). */
export function renderHistoryHtml(entries: RunIndexEntry[], root: string, options: HistoryPageOptions = {}): string {
  const runs = [...entries].sort((a, b) => a.finishedAt.localeCompare(b.finishedAt));
  const columns = chartColumns(runs);
  const xLabels = columns.map((r) => (r ? r.finishedAt.slice(5, 16).replace('T', ' ') : 'setup changed'));
  const tracks = [...new Set(runs.flatMap((r) => (r.tracks ?? []).map((t) => t.track)))].sort();
  const charts = tracks
    .map((track) => {
      const agents = [
        ...new Set(runs.flatMap((r) => Object.keys(r.tracks?.find((t) => t.track === track)?.perAgent ?? {}))),
      ].sort();
      const chart = (key: 'S' | 'L') => {
        const series: Series[] = agents.map((a) => {
          const ivs = columns.map((r) => r?.tracks?.find((t) => t.track === track)?.perAgent[a]?.[key] ?? null);
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
          width: Math.max(520, 90 + columns.length * 60),
        });
      };
      return `<section class="track"><h2>${h(track)}</h2><div class="charts">${chart('S')}${chart('L')}</div></section>`;
    })
    .join('\n');
  const pairs = pairwiseSections(columns, xLabels);
  const agents = [...new Set(runs.flatMap((r) => r.leaderboard.map((e) => e.agent)))].sort();
  const rows = [...runs].reverse().map((r) => {
    const report = path.relative(root, path.join(r.runDir, RUN_FILES.reportHtml)).split(path.sep).join('/');
    const deleted = options.deleted?.has(r.runDir) ?? false;
    const runCell = deleted ? h(r.runId) : `<a href="${h(report)}">${h(r.runId)}</a>`;
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
    return `<tr><td class="text">${h(r.finishedAt.slice(0, 16).replace('T', ' '))}</td><td class="text status ${deleted ? 'bad' : ''}">${deleted ? 'folder deleted' : 'finished'}</td><td class="text">${runCell}</td><td class="text">${h(r.schedule ?? '')}</td><td class="text">${h(r.games.join(', '))}</td><td class="text">${rulesCell}</td><td class="text">${opponentsCell}</td><td>${r.rounds}</td><td>${r.matches}</td>${agents
      .map((a) => `<td>${by.has(a) ? `${num(by.get(a)!.meanS)} / ${num(by.get(a)!.meanL)}` : ''}</td>`)
      .join('')}</tr>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>catarena history</title>
<style>${PAGE_CSS}.charts { display: flex; gap: 1rem; flex-wrap: wrap; } .bad, .below { color: #b00020; font-weight: 600; } .above { color: #0b6e2e; font-weight: 600; } td.reason { white-space: normal; min-width: 16rem; }</style></head>
<body>
<h1>catarena history: ${runs.length} run(s)</h1>
${headline(runs, options)}
${unfinishedSection(options.ends ?? [])}
<h2>Scores over time</h2>
<p class="muted">Per track, each agent's S (strategy coding) and L (global learning) in every indexed run, oldest first; whiskers are 95% intervals (runs indexed before intervals were recorded show points only). A "setup changed" column breaks the lines where a run's agents, tracks, rounds, rules or opponents' code differ from the run before: scores on its two sides do not compare.</p>
${runs.length ? charts || '<p class="muted">No per-track scores indexed yet.</p>' : '<p class="muted">No finished runs are indexed here yet.</p>'}
${pairs}
<h2>Runs</h2>
<table id="runs"><thead><tr><th class="text">finished (UTC)</th><th class="text">status</th><th class="text">run</th><th class="text">schedule</th><th class="text">games</th><th class="text">rules</th><th class="text">opponents' code</th><th>rounds</th><th>matches</th>${agents.map((a) => `<th>${h(a)} S / L</th>`).join('')}</tr></thead>
<tbody>${rows.join('')}</tbody></table>
</body></html>
`;
}

/**
 * "Pairwise over time": per pair of agents, the paired difference A − B in S over all tracks in
 * each run that indexed it (a band for its 95% interval), and P(A better) in S and in L — what
 * `catarena compare A B <run-dir>` prints for that run or study (docs/metrics.md).
 */
function pairwiseSections(runs: Array<RunIndexEntry | null>, xLabels: string[]): string {
  const keys = [...new Set(runs.flatMap((r) => (r?.pairwise ?? []).map((p) => JSON.stringify([p.a, p.b]))))].sort();
  if (!keys.length) return '';
  const width = Math.max(520, 90 + runs.length * 60);
  const sections = keys.map((key, k) => {
    const [a, b] = JSON.parse(key) as [string, string];
    const of = runs.map((r) => r?.pairwise?.find((p) => p.a === a && p.b === b) ?? null);
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

const fixed = (v: number | null | undefined, digits = 3) => (typeof v === 'number' ? v.toFixed(digits) : '–');

/** Per schedule (and the unscheduled runs), the newest run's S per agent against its band. */
function headline(runs: RunIndexEntry[], options: HistoryPageOptions): string {
  const series = [...new Set(runs.map((r) => r.schedule ?? ''))].sort();
  const blocks = series.map((name) => {
    const night = nightAgainstBand(
      runs.filter((r) => (r.schedule ?? '') === name),
      options.band,
    );
    if (!night) return '';
    const later = (options.ends ?? []).filter(
      (e) => (e.schedule ?? '') === name && e.at > night.finishedAt && e.status !== 'running',
    );
    const rows = night.agents.map(
      (a) =>
        `<tr data-agent="${h(a.agent)}" data-flag="${a.flag ?? 'none'}"><td class="text">${h(a.agent)}</td><td>${fixed(a.S)}</td><td>${a.band ? `${fixed(a.band.lo)} – ${fixed(a.band.hi)} <span class="ci">(${fixed(a.band.mean)} ± ${fixed(a.band.sd)} sd, ${a.band.n} runs)</span>` : '<span class="muted">too few runs</span>'}</td><td class="text ${a.flag ?? ''}">${a.flag === 'below' ? '↓ below its band (regressed)' : a.flag === 'above' ? '↑ above its band' : a.band ? 'within' : ''}</td></tr>`,
    );
    const since = later.length
      ? `<p class="bad" data-testid="not-finished-since">Since then: ${later.map((e) => `${h(e.status)} ${h(e.firedAt ?? e.at)}`).join(', ')}</p>`
      : '';
    return `<section class="headline" data-schedule="${h(name)}"><h3>${name ? `Schedule ${h(name)}` : 'Runs without a schedule'}: last run ${h(night.runId)} (${h(night.finishedAt.slice(0, 16).replace('T', ' '))} UTC) against the previous ${night.previous.length}</h3>
<table><thead><tr><th class="text">agent</th><th>S</th><th>band</th><th class="text">flag</th></tr></thead><tbody>${rows.join('')}</tbody></table>${since}</section>`;
  });
  if (!blocks.some(Boolean)) return '';
  return `<h2>Last night</h2>
<p class="muted">How ${h(bandRule(options.band))}.</p>
${blocks.join('\n')}`;
}

/** Runs and nights that did not finish, newest first. */
function unfinishedSection(ends: RunEnd[]): string {
  if (!ends.length) return '';
  const rows = [...ends]
    .sort((a, b) => b.at.localeCompare(a.at))
    .map(
      (e) =>
        `<tr data-status="${h(e.status)}"><td class="text">${h(e.at.slice(0, 16).replace('T', ' '))}</td><td class="text status ${e.status === 'running' ? '' : 'bad'}">${h(e.status)}</td><td class="text">${h(e.schedule ?? '')}</td><td class="text">${h(e.firedAt ? e.firedAt.slice(0, 16).replace('T', ' ') : '')}</td><td class="text">${h(e.runId)}</td><td class="text reason">${h(e.reason ?? '')}</td></tr>`,
    );
  return `<h2>Not finished (${ends.length})</h2>
<p class="muted">Nights that failed (after their retries), were killed or missed (no worker ran them), runs interrupted or still running, and finished runs whose folder was deleted.</p>
<table id="not-finished"><thead><tr><th class="text">when (UTC)</th><th class="text">status</th><th class="text">schedule</th><th class="text">fired (UTC)</th><th class="text">run</th><th class="text">reason</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
