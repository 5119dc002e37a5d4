// The evolution part of report.html: per track a timeline per agent (a button per round; a click
// opens that round's diff, what the agent looked at, its build notes and what its bot is made of,
// with buttons to step to the previous and next round), the code-similarity heatmaps per round,
// the similarity flags, and the bots' make-up over the rounds with a lines-of-code chart.
import { escapeHtml as h } from '../html/page.ts';
import { sequentialColour } from '../html/probe-html.ts';
import { colourLegend, lineChart, matrixFrame } from '../html/svg.ts';
import { constantsText } from './bot-profile.ts';
import { diffSummary, readsSummary } from './evolution-markdown.ts';
import type { Access } from './agent-reads.ts';
import type { EvolutionStep, EvolutionTrack, SimilarityRound } from './evolution.ts';

/**
 * What the page shows of each round, so report.html stays a few MB at paper scale: the whole
 * section shows at most about 20,000 diff lines and 6,000 file uses, shared by the rounds, each
 * round at least 30 and 15 and at most 200 and 50. The whole diffs and uses are files of the run.
 */
export const SHOWN = {
  diffLines: { total: 20_000, min: 30, max: 200 },
  accesses: { total: 6_000, min: 15, max: 50 },
} as const;

interface Budget {
  diffLines: number;
  accesses: number;
}

export function budgetFor(steps: number): Budget {
  const share = (b: { total: number; min: number; max: number }) =>
    Math.max(b.min, Math.min(b.max, Math.floor(b.total / Math.max(1, steps))));
  return { diffLines: share(SHOWN.diffLines), accesses: share(SHOWN.accesses) };
}

export interface EvolutionHtmlOptions {
  /** The full diff file of a step, relative to report.html. */
  diffHref?: (step: EvolutionStep, track: EvolutionTrack) => string | undefined;
}

const key = (s: string) => s.replace(/[^\w-]/g, '_');
const stepDom = (track: string, s: Pick<EvolutionStep, 'agent' | 'round'>) =>
  `evo-${key(track)}-${key(s.agent)}-r${s.round}`;
const signed = (x: number | null, digits = 3) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`);
const share = (x: number | null) => (x === null ? '—' : x.toFixed(2));

function table(head: string[], rows: string[][], cls = ''): string {
  if (!rows.length) return '<p class="muted">None.</p>';
  return `<table class="${cls}"><thead><tr>${head.map((c, i) => `<th${i === 0 ? ' class="text"' : ''}>${c}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => `<td${i === 0 ? ' class="text"' : ''}>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A rectangular similarity heatmap: rows = the round's bots, columns = the previous round's then this round's. */
export function similarityHeatmap(track: string, r: SimilarityRound): string {
  const size = Math.max(r.rows.length, r.cols.length) > 16 ? 18 : 30;
  const labels = [...r.rows, ...r.cols];
  const margin = 10 + Math.max(4, ...labels.map((l) => l.length)) * 6.4;
  const width = margin + r.cols.length * size + 80;
  const height = margin + r.rows.length * size + 12;
  const id = `sim-${key(track)}-r${r.round}`;
  const out = matrixFrame({
    attrs: `class="similarity" data-chart="similarity" data-track="${h(track)}" data-round="${r.round}"`,
    ariaLabel: `code similarity, ${track}, round ${r.round}`,
    width,
    height,
    patternId: `${id}-none`,
    labels: r.rows,
    colLabels: r.cols,
    origin: margin,
    cell: size,
    labelDy: 0.62,
  });
  r.values.forEach((row, i) =>
    row.forEach((v, c) => {
      const x = margin + c * size;
      const y = margin + i * size;
      const self = r.rows[i] === r.cols[c];
      const title = self
        ? r.rows[i]!
        : `${r.rows[i]} → ${r.cols[c]}: ${v === null ? 'no code beyond the sample bot' : v.toFixed(2)}`;
      const fill = self ? '#555' : v === null ? `url(#${id}-none)` : sequentialColour(v);
      out.push(
        `<rect class="cell" x="${x}" y="${y}" width="${size}" height="${size}" fill="${fill}" data-row="${i}" data-col="${c}" data-value="${v ?? ''}"><title>${h(title)}</title></rect>`,
      );
      if (v !== null && !self && size >= 30)
        out.push(
          `<text x="${x + size / 2}" y="${y + size * 0.6}" text-anchor="middle" font-size="9" pointer-events="none" fill="${v > 0.55 ? '#fff' : '#222'}">${v.toFixed(2)}</text>`,
        );
    }),
  );
  // The border between the previous round's columns and this round's.
  const prev = r.cols.length - r.rows.length;
  if (prev > 0)
    out.push(
      `<line x1="${margin + prev * size}" x2="${margin + prev * size}" y1="${margin - 2}" y2="${margin + r.rows.length * size + 2}" stroke="#000" stroke-width="2"/>`,
    );
  out.push(
    ...colourLegend(margin + r.cols.length * size + 16, margin, sequentialColour, [
      ['1', 10],
      ['0', 130],
    ]),
  );
  out.push('</svg>');
  return out.join('');
}

function diffHtml(text: string, shownLines: number): string {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const shown = lines.slice(0, shownLines).map((l) => {
    const cls =
      l.startsWith('+++') || l.startsWith('---')
        ? 'file'
        : l.startsWith('@@')
          ? 'hunk'
          : l.startsWith('+')
            ? 'ins'
            : l.startsWith('-')
              ? 'del'
              : '';
    const text = h(l.length > 240 ? `${l.slice(0, 240)}…` : l);
    return cls ? `<span class="${cls}">${text}</span>` : text;
  });
  return `<pre class="diff">${shown.join('\n')}</pre>${lines.length > shownLines ? `<p class="muted">${lines.length - shownLines} more line(s) in the full diff.</p>` : ''}`;
}

const CATEGORY: Record<Access['category'], string> = {
  own: 'own previous code',
  rival: "a rival's code",
  logs: 'round reports & logs',
  task: 'task files',
  output: 'its bot folder',
  other: 'elsewhere',
};

function readsHtml(s: EvolutionStep, shown: number): string {
  const r = s.reads;
  if (!r)
    return '<p class="muted">No record of what the agent looked at (a dir: or LLM-player agent, or an agent that keeps none).</p>';
  const files = (xs: string[]) => (xs.length ? xs.map((x) => (x === '.' ? 'the whole folder' : h(x))).join(', ') : '—');
  const rows: string[][] = [
    [`Own previous code (last_round/${h(s.agent)}/)`, files(r.own)],
    ...Object.entries(r.rivals).map(([agent, paths]) => [`${h(agent)}'s code`, files(paths)]),
    ['Round reports and logs (logs/)', files(r.logs)],
    ['Task files', files(r.task)],
  ];
  const list = r.accesses
    .slice(0, shown)
    .map(
      (a) =>
        `<li${a.before ? '' : ' class="after"'}>${a.call}. ${h(a.tool)}: ${a.action} <code>${h(a.path)}</code> (${CATEGORY[a.category]}${a.agent && a.category === 'rival' ? `: ${h(a.agent)}` : ''}${a.ok === false ? ', failed' : ''})</li>`,
    );
  const more = r.accesses.length - list.length + r.truncated;
  return `<p>${h(readsSummary(r, s.agent))}. Source: ${h(r.source)}.</p>
${table(['Looked at', 'Files (read, searched, listed, run or copied)'], rows, 'evo-reads')}
<details><summary>Every file use in order (${r.accesses.length + r.truncated}; after its first write to its bot folder in grey)</summary><ol class="evo-accesses">${list.join('')}</ol>${more > 0 ? `<p class="muted">${more} more.</p>` : ''}</details>`;
}

function profileHtml(s: EvolutionStep): string {
  const p = s.profile;
  const langs =
    Object.entries(p.languages)
      .map(([l, n]) => `${l} ${n}`)
      .join(', ') || '—';
  return table(
    ['What', 'In this bot'],
    [
      [
        'Lines of code',
        `${p.linesOfCode} in ${p.codeFiles} code file(s), ${p.files} file(s) in all${p.skipped ? `, ${p.skipped} skipped (vendored, generated, binary or large)` : ''}`,
      ],
      ['Languages (lines)', h(langs)],
      ['Imports', h(p.dependencies.join(', ') || '—')],
      ['Techniques (keyword heuristics)', h(p.techniques.map((t) => `${t.label} (${t.file})`).join('; ') || '—')],
      ['Search-depth constants', h(constantsText(p.depth) || '—')],
      ['Time-budget constants', h(constantsText(p.timeBudget) || '—')],
    ],
    'evo-profile',
  );
}

function detailHtml(e: EvolutionTrack, s: EvolutionStep, o: EvolutionHtmlOptions, budget: Budget): string {
  const mine = e.steps.filter((x) => x.agent === s.agent);
  const k = mine.indexOf(s);
  const nav = [
    k > 0
      ? `<button type="button" class="evo-goto" data-goto="${stepDom(e.track, mine[k - 1]!)}">← round ${mine[k - 1]!.round}</button>`
      : '',
    k < mine.length - 1
      ? `<button type="button" class="evo-goto" data-goto="${stepDom(e.track, mine[k + 1]!)}">round ${mine[k + 1]!.round} →</button>`
      : '',
  ].join(' ');
  const href = o.diffHref?.(s, e);
  const diff = s.diff
    ? `<h5>Diff from ${h(s.diff.from)}: ${h(diffSummary(s))}</h5>
${table(
  ['File', 'Change', 'Lines +', 'Lines −'],
  s.diff.changes.map((c) => [
    h(c.path),
    c.status + (c.replaced ? ' (rewritten)' : ''),
    String(c.added),
    String(c.removed),
  ]),
  'evo-files',
)}
${s.diff.unified ? diffHtml(s.diff.unified, budget.diffLines) : ''}${href && s.diff.unified ? `<p><a href="${h(href)}">the full diff</a></p>` : ''}${s.diff.skipped.length ? `<p class="muted">Not compared: ${h(s.diff.skipped.slice(0, 10).join(', '))}${s.diff.skipped.length > 10 ? ` and ${s.diff.skipped.length - 10} more` : ''}</p>` : ''}`
    : `<h5>First bot: ${h(diffSummary(s))}</h5>`;
  const notes = [
    ...(s.failure ? [`<li class="warn">${h(s.failure.slice(0, 300))}</li>`] : []),
    ...s.notes.map((n) => `<li>${h(n)}</li>`),
    ...(s.warnings ?? []).slice(0, 4).map((w) => `<li class="warn">warning: ${h(w.slice(0, 240))}</li>`),
  ];
  return `<div class="evo-detail" id="${stepDom(e.track, s)}" data-step-id="${h(s.id)}" hidden>
<h4>${h(s.id)} <span class="muted">${s.status === 'ok' ? '' : '(failed build) '}G ${s.G === null ? '—' : s.G.toFixed(3)}, ΔG ${signed(s.deltaG)} · similarity to its own previous bot ${share(s.own)}${s.nearest ? `, to ${h(s.nearest.id)} ${share(s.nearest.value)}` : ''}</span></h4>
<p>${nav}</p>
${diff}
<h5>What it looked at${s.round > 1 ? ` (last_round/ and logs/ hold round ${s.round - 1})` : ''}</h5>
${readsHtml(s, budget.accesses)}
<h5>Build notes</h5>
${notes.length ? `<ul class="evo-notes">${notes.join('')}</ul>` : '<p class="muted">None.</p>'}
<h5>What the bot is made of</h5>
${profileHtml(s)}
</div>`;
}

function timeline(e: EvolutionTrack): string {
  const rounds = Array.from({ length: e.rounds }, (_, k) => k + 1);
  const rows = e.agents.map((agent) => [
    h(agent),
    ...rounds.map((n) => {
      const s = e.steps.find((x) => x.agent === agent && x.round === n);
      if (!s) return '—';
      const flagged = e.flags.some((f) => f.id === s.id && f.borrowed);
      const what = s.diff
        ? s.diff.files.added + s.diff.files.removed + s.diff.files.changed
          ? `+${s.diff.lines.added}/−${s.diff.lines.removed}`
          : 'unchanged'
        : `${s.profile.linesOfCode} LOC`;
      const label = `ΔG ${s.round > 1 ? signed(s.deltaG, 2) : '—'} · ${what}${flagged ? ' · ⚑' : ''}`;
      return `<button type="button" class="evo-step${s.status === 'ok' ? '' : ' failed'}${flagged ? ' flagged' : ''}" data-step="${stepDom(e.track, s)}" aria-pressed="false" title="${h(`${s.id}: ${diffSummary(s)}`)}">${h(label)}</button>`;
    }),
  ]);
  return table(['Agent', ...rounds.map((n) => `round ${n}`)], rows, 'evo-timeline');
}

function trackHtml(e: EvolutionTrack, o: EvolutionHtmlOptions, budget: Budget): string {
  const borrowed = e.flags.filter((f) => f.borrowed);
  const shared = e.flags.length - borrowed.length;
  const rounds = Array.from({ length: e.rounds }, (_, k) => `round ${k + 1}`);
  const loc = lineChart(
    e.agents.map((a) => ({
      name: a,
      values: Array.from(
        { length: e.rounds },
        (_, k) => e.steps.find((s) => s.agent === a && s.round === k + 1)?.profile.linesOfCode ?? null,
      ),
    })),
    { xLabels: rounds, yLabel: 'lines of code', yMin: 0, id: `${key(e.track)}-loc` },
  );
  const techniqueRows = e.agents.map((a) => [
    h(a),
    ...Array.from({ length: e.rounds }, (_, k) => {
      const s = e.steps.find((x) => x.agent === a && x.round === k + 1);
      return s
        ? h(
            [
              s.profile.techniques.map((t) => t.label).join(', ') || '—',
              constantsText(s.profile.depth) ? `depth: ${constantsText(s.profile.depth)}` : '',
            ]
              .filter(Boolean)
              .join(' · '),
          )
        : '—';
    }),
  ]);
  return `<section class="evolution" id="evolution-${key(e.track)}" data-track="${h(e.track)}">
<h3>${h(e.track)}</h3>
<h4>Timeline</h4>
<p class="muted">Per agent, its bot in each round: ΔG (change of G from its previous round) and the lines added/removed (⚑: flagged as close to a rival's previous bot). Click a round for its diff, what the agent looked at, its build notes and what the bot is made of.</p>
${timeline(e)}
<div class="evo-details">${e.steps.map((s) => detailHtml(e, s, o, budget)).join('\n')}</div>
<h4>Code similarity</h4>
<p class="muted">Cell = share of the row bot's fingerprints found in the column bot (asymmetric); columns left of the black line are the previous round's bots. White 0, dark blue 1.</p>
<div class="charts">${e.similarity.map((r) => `<figure><figcaption>round ${r.round}</figcaption>${similarityHeatmap(e.track, r)}</figure>`).join('')}</div>
<h4>Similarity flags</h4>
${table(
  ['Bot', 'Rival bot', 'Similarity', 'Before', 'Rise', 'To own previous', 'ΔG'],
  borrowed.map((f) => [
    h(f.id),
    h(f.rivalId),
    share(f.value),
    share(f.before),
    signed(f.rise, 2),
    share(f.own),
    signed(f.deltaG),
  ]),
  'evo-flags',
)}
${shared ? `<p class="muted">${shared} more pair(s) at or above ${e.settings.threshold} were already as close a round earlier (code the bots share from the start), not flagged.</p>` : ''}
<h4>What the bots are made of</h4>
<p class="muted">Techniques are keyword heuristics on the code (names and comments), not an analysis of what it does.</p>
${table(['Agent', ...rounds], techniqueRows, 'evo-techniques')}
${loc}
</section>`;
}

export const EVOLUTION_CSS = `
svg.similarity rect.cell { stroke: #fff; }
section.evolution table.evo-profile td, section.evolution table.evo-reads td, section.evolution table.evo-techniques td { white-space: normal; text-align: left; max-width: 56rem; }
section.evolution table.evo-profile td:first-child, section.evolution table.evo-reads td:first-child { white-space: nowrap; }
button.evo-step { font-size: 12px; cursor: pointer; background: #f5f5f7; border: 1px solid #bbb; border-radius: 3px; }
button.evo-step[aria-pressed="true"] { background: #dbe7fb; border-color: #0b57d0; }
button.evo-step.failed { border-color: #b00020; }
button.evo-step.flagged { font-weight: 600; }
.evo-detail { border: 1px solid #ccc; padding: .4rem .8rem; margin: .5rem 0 1rem; background: #fcfcfd; }
.evo-detail h5 { margin: .7rem 0 .2rem; font-size: .9rem; }
pre.diff { font: 12px/1.35 ui-monospace, "DejaVu Sans Mono", monospace; background: #fafafa; border: 1px solid #e3e3e3; padding: .4rem; overflow: auto; max-height: 32rem; }
pre.diff .ins { color: #116329; background: #e6ffec; display: inline-block; min-width: 100%; }
pre.diff .del { color: #82071e; background: #ffebe9; display: inline-block; min-width: 100%; }
pre.diff .hunk { color: #6639ba; }
pre.diff .file { font-weight: 600; }
ol.evo-accesses li.after { color: #999; }
figure { margin: 0 1rem .5rem 0; }
figcaption { font-size: 12px; color: #555; }
`;

/** Shows the clicked round's detail (one per track at a time) and steps between rounds. */
export const EVOLUTION_SCRIPT = `(function () {
  function show(id) {
    var detail = document.getElementById(id);
    if (!detail) return;
    var section = detail.closest('section.evolution');
    section.querySelectorAll('.evo-detail').forEach(function (d) { d.hidden = d !== detail; });
    section.querySelectorAll('button.evo-step').forEach(function (b) { b.setAttribute('aria-pressed', String(b.getAttribute('data-step') === id)); });
  }
  document.querySelectorAll('button.evo-step').forEach(function (b) {
    b.addEventListener('click', function () { show(b.getAttribute('data-step')); });
  });
  document.querySelectorAll('button.evo-goto').forEach(function (b) {
    b.addEventListener('click', function () { show(b.getAttribute('data-goto')); });
  });
})();`;

/** The evolution section of report.html ('' without tracks); its CSS and script come inline. */
export function evolutionSectionHtml(tracks: readonly EvolutionTrack[], o: EvolutionHtmlOptions = {}): string {
  if (!tracks.length) return '';
  return `<style>${EVOLUTION_CSS}</style>
<h2 id="evolution">Strategy evolution: what the agents changed, read and borrowed</h2>
<p class="muted">Per agent and round: the diff of its bot from its previous round (generated and vendored files skipped) beside ΔG, what it looked at before its first write (from its transcript or tool log), its build notes and what its bot is made of. Code similarity: winnowed token fingerprints, MOSS-style (identifiers and literals normalised), asymmetric; the sample bot every agent gets counts for nobody. docs/evolution.md in the catarena repository defines it all.</p>
${tracks.map((e) => trackHtml(e, o, budgetFor(tracks.reduce((n, t) => n + t.steps.length, 0)))).join('\n')}
<script>${EVOLUTION_SCRIPT}</script>`;
}
