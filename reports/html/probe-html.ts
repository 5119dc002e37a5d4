// `catarena probe`'s part of report.html, and the consistency heatmap it also writes as
// probe/<track>/consistency.svg: one cell per pair of subjects, white (0: never the same action)
// to dark blue (1: always), the diagonal being each subject against itself asked twice.
import { num, pct } from '../markdown-format.ts';
import type { PairConsistency, ProbeTrackResult } from '../probe-consistency.ts';
import { escapeHtml as h } from './page.ts';
import { colourLegend, matrixFrame } from './svg.ts';

/** Sequential colour for a share in [0, 1]: #f7fbff (0) → #08306b (1). */
export function sequentialColour(v: number): string {
  const t = Math.max(0, Math.min(1, v));
  const channel = (from: number, to: number) => Math.round(from + (to - from) * t);
  return `rgb(${channel(0xf7, 0x08)},${channel(0xfb, 0x30)},${channel(0xff, 0x6b)})`;
}

/** The consistency matrix as an SVG heatmap; every cell carries data-row, data-col, data-value and data-compared. */
export function consistencyHeatmap(result: ProbeTrackResult): string {
  const { labels, values, compared } = result.matrix;
  const size = labels.length > 20 ? 18 : 30;
  const margin = 10 + Math.max(4, ...labels.map((l) => l.length)) * 6.4;
  const side = margin + labels.length * size;
  const width = side + 80;
  const height = side + 12;
  const id = `probe-${result.track.replace(/[^\w-]/g, '_')}`;
  const out = matrixFrame({
    attrs: `class="consistency" data-chart="consistency" data-track="${h(result.track)}"`,
    ariaLabel: `action consistency, ${result.track}`,
    width,
    height,
    patternId: `${id}-none`,
    labels,
    origin: margin,
    cell: size,
    labelDy: 0.62,
  });
  values.forEach((row, r) =>
    row.forEach((v, c) => {
      const x = margin + c * size;
      const y = margin + r * size;
      const n = compared[r]![c]!;
      const what = r === c ? `${labels[r]} asked twice` : `${labels[r]} vs ${labels[c]}`;
      const title =
        v === null
          ? `${what}: no state both answered`
          : `${what}: ${(100 * v).toFixed(1)}% identical over ${n} state(s)`;
      out.push(
        `<rect class="cell" x="${x}" y="${y}" width="${size}" height="${size}" fill="${v === null ? `url(#${id}-none)` : sequentialColour(v)}" stroke="${r === c ? '#000' : '#fff'}" data-row="${r}" data-col="${c}" data-value="${v ?? ''}" data-compared="${n}"><title>${h(title)}</title></rect>`,
      );
      if (v !== null && size >= 30)
        out.push(
          `<text x="${x + size / 2}" y="${y + size * 0.6}" text-anchor="middle" font-size="9" pointer-events="none" fill="${v > 0.55 ? '#fff' : '#222'}">${v.toFixed(2)}</text>`,
        );
    }),
  );
  out.push(
    ...colourLegend(side + 16, margin, sequentialColour, [
      ['1', 10],
      ['0', 130],
    ]),
  );
  out.push('</svg>');
  return out.join('');
}

const share = (p: PairConsistency) => `${num(p.value, 2)} <span class="ci">(${p.compared})</span>`;

function pairTable(title: string, head: [string, string], pairs: PairConsistency[]): string {
  if (!pairs.length) return '';
  return `<h4>${h(title)}</h4><table><thead><tr><th class="text">${h(head[0])}</th><th class="text">${h(head[1])}</th><th>identical</th></tr></thead><tbody>${pairs
    .map((p) => `<tr><td class="text">${h(p.a)}</td><td class="text">${h(p.b)}</td><td>${share(p)}</td></tr>`)
    .join('')}</tbody></table>`;
}

function trackHtml(r: ProbeTrackResult): string {
  const failures = r.failures
    .filter((f) => f.failed > 0)
    .map(
      (f) =>
        `<tr><td class="text">${h(f.subject)}</td><td>${f.failed}/${f.asked} (${pct(f.failed, f.asked)})</td><td class="text">${h(
          Object.entries(f.byKind)
            .map(([k, n]) => `${k} ${n}`)
            .join(', '),
        )}</td><td class="text">${h(f.example ?? '')}</td></tr>`,
    );
  return `<h3>${h(r.track)}</h3>
<p class="muted">${r.sampled} of ${r.candidates} endgame states (seed ${r.seed}): ${h(r.endgame)}. Same action: ${h(r.actionKey)}. Probe time ${(r.wallMs / 1000).toFixed(1)} s for ${r.asks} actions.</p>
<div class="w-wrap">${consistencyHeatmap(r)}</div>
${pairTable('Round n vs round n+1, per agent', ['round n', 'round n+1'], r.rounds)}
${pairTable('Code vs LLM-player', ['strategy', 'LLM-player'], r.codeVsLlm)}
${failures.length ? `<h4>Failures (not counted in the shares)</h4><table><thead><tr><th class="text">subject</th><th>failed</th><th class="text">kinds</th><th class="text">first message</th></tr></thead><tbody>${failures.join('')}</tbody></table>` : '<p class="muted">No bot failed on a probe state.</p>'}
${r.skipped.length ? `<p class="muted">Not asked: ${r.skipped.map((s) => `${h(s.subject)} (${h(s.reason)})`).join('; ')}</p>` : ''}`;
}

/** The probe section of report.html, or '' when the run was never probed. */
export function probeSectionHtml(results: readonly ProbeTrackResult[]): string {
  if (!results.length) return '';
  return `<h2 id="probe">Action consistency on endgame states (catarena probe)</h2>
<p class="muted">Share of sampled endgame states on which two bots chose the same action (the paper's Figures 3, 6 and 7); the diagonal is a bot against itself asked twice. Shares are over the states on which neither failed (count in brackets); failures are listed apart. docs/probe.md defines the states and what counts as the same action.</p>
${results.map(trackHtml).join('\n')}`;
}
