// The report's charts as inline SVG strings, drawn here rather than with a charting library:
// a heatmap is a grid of rects and a learning curve a few polylines, so a hundred lines give
// exact control, no dependency (vega-lite would bring ~12 MB and 30 packages for this) and small
// pages that render from file:// with no script. Every data mark carries data-* attributes, so
// tests (and the report's own script) can read what was drawn.
import { escapeHtml } from './page.ts';
import { scoreColour } from '../board-rule.ts';

const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

/** Diverging colour for a score in [0, 1]: red (0) → white (0.5) → blue (1); the live page's W uses the same (board-rule.ts). */
export const divergingColour = scoreColour;

export interface HeatmapInput {
  labels: string[];
  /** values[row][col]; null = never met (or the diagonal). */
  values: (number | null)[][];
  games: number[][];
  /** An id the page's script uses to find the cell's games. */
  id: string;
}

export interface MatrixFrame {
  /** Attributes of the <svg> element before its size (class, data-*). */
  attrs: string;
  ariaLabel: string;
  width: number;
  height: number;
  /** Id of the hatch pattern empty cells are filled with (url(#id)). */
  patternId: string;
  /** Row labels, and column labels too unless `colLabels` gives others (a rectangular matrix). */
  labels: readonly string[];
  colLabels?: readonly string[];
  /** Left and top edge of the grid (labels sit left of and above it). */
  origin: number;
  cell: number;
  /** Where a label sits along its row or column, as a share of the cell. */
  labelDy: number;
}

/** The most characters of a name a matrix's axis shows: a long agent name is cut (whole in its title), not a 2,000 px wide chart. */
export const AXIS_CHARS = 24;
const axisText = (label: string) => (label.length > AXIS_CHARS ? `${label.slice(0, AXIS_CHARS - 1)}…` : label);
const axisLabel = (label: string) =>
  label.length > AXIS_CHARS ? `<title>${escapeHtml(label)}</title>${escapeHtml(axisText(label))}` : escapeHtml(label);

/** What the matrix heatmaps (W here, the probe's consistency) share: the <svg> element, the hatch for empty cells, labels down the left and slanted across the top. */
export function matrixFrame(o: MatrixFrame): string[] {
  const { origin, cell } = o;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" ${o.attrs} width="${o.width}" height="${o.height}" viewBox="0 0 ${o.width} ${o.height}" role="img" aria-label="${escapeHtml(o.ariaLabel)}">`,
    `<defs><pattern id="${escapeHtml(o.patternId)}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#eee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#bbb" stroke-width="2"/></pattern></defs>`,
  ];
  o.labels.forEach((label, k) => {
    parts.push(
      `<text x="${origin - 4}" y="${origin + k * cell + cell * o.labelDy}" text-anchor="end" font-size="11">${axisLabel(label)}</text>`,
    );
  });
  (o.colLabels ?? o.labels).forEach((label, k) => {
    const x = origin + k * cell + cell * o.labelDy;
    parts.push(
      `<text x="${x}" y="${origin - 4}" font-size="11" transform="rotate(-60 ${x} ${origin - 4})">${axisLabel(label)}</text>`,
    );
  });
  return parts;
}

/** A colour scale's legend at x: eleven steps from 0 (bottom) to 1 (top), and tick labels at their offsets from `top`. */
export function colourLegend(
  x: number,
  top: number,
  colour: (v: number) => string,
  ticks: ReadonlyArray<readonly [string, number]>,
): string[] {
  const parts: string[] = [];
  for (let k = 0; k <= 10; k++)
    parts.push(`<rect x="${x}" y="${top + (10 - k) * 12}" width="14" height="12" fill="${colour(k / 10)}"/>`);
  parts.push(ticks.map(([label, dy]) => `<text x="${x + 18}" y="${top + dy}" font-size="10">${label}</text>`).join(''));
  return parts;
}

/** W as a heatmap: rows score against columns; the diagonal dark, never-met cells hatched. */
export function heatmap({ labels, values, games, id }: HeatmapInput): string {
  const n = labels.length;
  const cell = n > 24 ? 16 : 26;
  const left = 8 + Math.max(...labels.map((l) => axisText(l).length)) * 6.6;
  const top = left;
  const width = left + n * cell + 70;
  const height = top + n * cell + 10;
  const parts = matrixFrame({
    attrs: `class="heatmap" data-chart="heatmap" data-id="${escapeHtml(id)}"`,
    ariaLabel: 'score matrix W',
    width,
    height,
    patternId: `hatch-${id}`,
    labels,
    origin: left,
    cell,
    labelDy: 0.65,
  });
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const x = left + c * cell;
      const y = top + r * cell;
      if (r === c) {
        parts.push(`<rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="#555"/>`);
        continue;
      }
      const v = values[r]?.[c] ?? null;
      const g = games[r]?.[c] ?? 0;
      const title =
        v === null
          ? `${labels[r]} vs ${labels[c]}: never met`
          : `${labels[r]} vs ${labels[c]}: ${fmt(v, 3)} over ${g} game(s)`;
      const fill = v === null ? `url(#hatch-${escapeHtml(id)})` : divergingColour(v);
      parts.push(
        `<rect class="cell" x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${fill}" stroke="#fff" data-row="${r}" data-col="${c}" data-value="${v === null ? '' : v}" data-games="${g}"><title>${escapeHtml(title)}</title></rect>`,
      );
      if (v !== null && cell >= 24)
        parts.push(
          `<text x="${x + cell / 2}" y="${y + cell * 0.62}" text-anchor="middle" font-size="9" pointer-events="none" fill="${v < 0.2 || v > 0.8 ? '#fff' : '#222'}">${fmt(v)}</text>`,
        );
    }
  }
  // Legend: 0 … 0.5 … 1.
  parts.push(
    ...colourLegend(left + n * cell + 18, top, divergingColour, [
      ['1', 10],
      ['0.5', 64],
      ['0', 130],
    ]),
  );
  parts.push('</svg>');
  return parts.join('');
}

export interface Series {
  name: string;
  values: (number | null)[];
  /** Optional interval per point. */
  lo?: (number | null)[];
  hi?: (number | null)[];
}

const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#17becf',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
];
export const seriesColour = (k: number) => PALETTE[k % PALETTE.length]!;

export interface LineChartOptions {
  xLabels: string[];
  yLabel: string;
  yMin?: number;
  yMax?: number;
  width?: number;
  height?: number;
  id: string;
  /** Draw each series' intervals as a shaded band between consecutive points instead of whiskers. */
  band?: boolean;
}

/** Lines with points (and interval whiskers where given), one per series, and a legend. */
export function lineChart(series: Series[], o: LineChartOptions): string {
  const width = o.width ?? 520;
  const height = o.height ?? 260;
  const pad = { left: 48, right: 130, top: 14, bottom: 40 };
  const all = series
    .flatMap((s) => [...s.values, ...(s.lo ?? []), ...(s.hi ?? [])])
    .filter((v): v is number => v !== null && Number.isFinite(v));
  let yMin = o.yMin ?? Math.min(0, ...all);
  let yMax = o.yMax ?? Math.max(1, ...all);
  if (all.length) {
    yMin = Math.min(yMin, ...all);
    yMax = Math.max(yMax, ...all);
  }
  if (yMax === yMin) yMax = yMin + 1;
  const n = o.xLabels.length;
  const px = (k: number) =>
    pad.left + (n <= 1 ? (width - pad.left - pad.right) / 2 : (k * (width - pad.left - pad.right)) / (n - 1));
  const py = (v: number) => pad.top + ((yMax - v) * (height - pad.top - pad.bottom)) / (yMax - yMin);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="line-chart" data-chart="line" data-id="${escapeHtml(o.id)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(o.yLabel)}">`,
  ];
  for (let k = 0; k <= 4; k++) {
    const v = yMin + ((yMax - yMin) * k) / 4;
    parts.push(
      `<line x1="${pad.left}" x2="${width - pad.right}" y1="${py(v)}" y2="${py(v)}" stroke="#e5e5e5"/><text x="${pad.left - 6}" y="${py(v) + 4}" text-anchor="end" font-size="10">${fmt(v)}</text>`,
    );
  }
  o.xLabels.forEach((label, k) =>
    parts.push(
      `<text x="${px(k)}" y="${height - pad.bottom + 16}" text-anchor="middle" font-size="10">${escapeHtml(label)}</text>`,
    ),
  );
  parts.push(
    `<text x="12" y="${pad.top + (height - pad.top - pad.bottom) / 2}" font-size="11" transform="rotate(-90 12 ${pad.top + (height - pad.top - pad.bottom) / 2})" text-anchor="middle">${escapeHtml(o.yLabel)}</text>`,
  );
  series.forEach((s, k) => {
    const colour = seriesColour(k);
    const points = s.values.map((v, i) => (v === null ? null : ([px(i), py(v)] as const)));
    // Break the line at missing values.
    let run: string[] = [];
    const flush = () => {
      if (run.length > 1)
        parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${run.join(' ')}"/>`);
      run = [];
    };
    points.forEach((p) => (p ? run.push(`${p[0].toFixed(1)},${p[1].toFixed(1)}`) : flush()));
    flush();
    const hasInterval = (i: number) => s.values[i] != null && s.lo?.[i] != null && s.hi?.[i] != null;
    if (o.band) {
      // One polygon per stretch of points that all have an interval (a lone point keeps its whisker).
      let stretch: number[] = [];
      const close = () => {
        if (stretch.length > 1) {
          const upper = stretch.map((i) => `${px(i).toFixed(1)},${py(s.hi![i]!).toFixed(1)}`);
          const lower = [...stretch].reverse().map((i) => `${px(i).toFixed(1)},${py(s.lo![i]!).toFixed(1)}`);
          parts.push(
            `<polygon class="band" data-series="${escapeHtml(s.name)}" fill="${colour}" fill-opacity=".15" stroke="none" points="${[...upper, ...lower].join(' ')}"/>`,
          );
        }
        stretch = [];
      };
      s.values.forEach((_, i) => (hasInterval(i) ? stretch.push(i) : close()));
      close();
    }
    points.forEach((p, i) => {
      if (!p) return;
      const lo = s.lo?.[i];
      const hi = s.hi?.[i];
      const banded = o.band && hasInterval(i) && (hasInterval(i - 1) || hasInterval(i + 1));
      if (lo !== null && lo !== undefined && hi !== null && hi !== undefined && !banded)
        parts.push(
          `<line x1="${p[0] + k * 2}" x2="${p[0] + k * 2}" y1="${py(lo)}" y2="${py(hi)}" stroke="${colour}" stroke-opacity=".45" stroke-width="2"/>`,
        );
      parts.push(
        `<circle class="point" cx="${p[0]}" cy="${p[1]}" r="3.5" fill="${colour}" data-series="${escapeHtml(s.name)}" data-x="${i}" data-value="${s.values[i]}"><title>${escapeHtml(`${s.name} · ${o.xLabels[i]}: ${fmt(s.values[i]!, 3)}${lo !== null && lo !== undefined && hi !== null && hi !== undefined ? ` [${fmt(lo)}, ${fmt(hi)}]` : ''}`)}</title></circle>`,
      );
    });
    parts.push(
      `<rect x="${width - pad.right + 12}" y="${pad.top + k * 16}" width="10" height="10" fill="${colour}"/><text x="${width - pad.right + 26}" y="${pad.top + k * 16 + 9}" font-size="11">${escapeHtml(s.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface IntervalRow {
  label: string;
  point: number | null;
  lo: number | null;
  hi: number | null;
}

/** A forest plot: one row per agent, the point and its interval on a shared axis. */
export function intervalChart(rows: IntervalRow[], o: { id: string; min: number; max: number; title: string }): string {
  const width = 420;
  const rowH = 20;
  const left = 8 + Math.max(...rows.map((r) => r.label.length), 4) * 6.6;
  const right = 16;
  const top = 22;
  const height = top + rows.length * rowH + 24;
  const px = (v: number) => left + ((v - o.min) * (width - left - right)) / (o.max - o.min);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="interval-chart" data-chart="interval" data-id="${escapeHtml(o.id)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(o.title)}">`,
  ];
  parts.push(`<text x="${left}" y="13" font-size="11" font-weight="600">${escapeHtml(o.title)}</text>`);
  for (let k = 0; k <= 4; k++) {
    const v = o.min + ((o.max - o.min) * k) / 4;
    parts.push(
      `<line x1="${px(v)}" x2="${px(v)}" y1="${top}" y2="${height - 20}" stroke="#eee"/><text x="${px(v)}" y="${height - 6}" text-anchor="middle" font-size="10">${fmt(v)}</text>`,
    );
  }
  rows.forEach((r, k) => {
    const y = top + k * rowH + rowH / 2;
    parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end" font-size="11">${escapeHtml(r.label)}</text>`);
    if (r.lo !== null && r.hi !== null)
      parts.push(
        `<line x1="${px(r.lo)}" x2="${px(r.hi)}" y1="${y}" y2="${y}" stroke="${seriesColour(k)}" stroke-width="3" stroke-opacity=".5"/>`,
      );
    if (r.point !== null)
      parts.push(
        `<circle class="point" cx="${px(r.point)}" cy="${y}" r="4" fill="${seriesColour(k)}" data-series="${escapeHtml(r.label)}" data-value="${r.point}"><title>${escapeHtml(`${r.label}: ${fmt(r.point, 3)}${r.lo !== null && r.hi !== null ? ` [${fmt(r.lo)}, ${fmt(r.hi)}]` : ''}`)}</title></circle>`,
      );
  });
  parts.push('</svg>');
  return parts.join('');
}

export interface ScatterPoint {
  label: string;
  x: number;
  y: number;
  /** Drawn filled and joined by the front's line. */
  front: boolean;
}

/**
 * A scatter of points (x from 0 to the largest x, y in [yMin, yMax]) with the Pareto front joined
 * by a step line: cost against strength.
 */
export function scatterChart(
  points: ScatterPoint[],
  o: {
    id: string;
    title: string;
    xLabel: string;
    yLabel: string;
    yMin: number;
    yMax: number;
    xText: (x: number) => string;
  },
): string {
  const width = 520;
  const height = 300;
  const [left, right, top, bottom] = [48, 110, 24, 40];
  const xMax = Math.max(...points.map((p) => p.x), 0) * 1.1 || 1;
  const px = (x: number) => left + (x * (width - left - right)) / xMax;
  const py = (y: number) => top + ((o.yMax - y) * (height - top - bottom)) / (o.yMax - o.yMin);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="scatter-chart" data-chart="scatter" data-id="${escapeHtml(o.id)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(o.title)}">`,
    `<text x="${left}" y="14" font-size="11" font-weight="600">${escapeHtml(o.title)}</text>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const x = (xMax * k) / 4;
    const y = o.yMin + ((o.yMax - o.yMin) * k) / 4;
    parts.push(
      `<line x1="${px(x)}" x2="${px(x)}" y1="${top}" y2="${height - bottom}" stroke="#eee"/><text x="${px(x)}" y="${height - bottom + 14}" text-anchor="middle" font-size="10">${escapeHtml(o.xText(x))}</text>`,
      `<line x1="${left}" x2="${width - right}" y1="${py(y)}" y2="${py(y)}" stroke="#eee"/><text x="${left - 4}" y="${py(y) + 3}" text-anchor="end" font-size="10">${fmt(y)}</text>`,
    );
  }
  parts.push(
    `<text x="${(left + width - right) / 2}" y="${height - 6}" text-anchor="middle" font-size="11">${escapeHtml(o.xLabel)}</text>`,
    `<text x="12" y="${(top + height - bottom) / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${(top + height - bottom) / 2})">${escapeHtml(o.yLabel)}</text>`,
  );
  const front = points.filter((p) => p.front).sort((a, b) => a.x - b.x);
  if (front.length > 1)
    parts.push(
      `<polyline class="front" fill="none" stroke="#2a7" stroke-width="1.5" points="${front.flatMap((p, k) => (k ? [`${px(p.x)},${py(front[k - 1]!.y)}`, `${px(p.x)},${py(p.y)}`] : [`${px(p.x)},${py(p.y)}`])).join(' ')}"/>`,
    );
  points.forEach((p, k) => {
    const colour = seriesColour(k);
    parts.push(
      `<circle class="point${p.front ? ' front' : ''}" cx="${px(p.x)}" cy="${py(p.y)}" r="5" fill="${p.front ? colour : '#fff'}" stroke="${colour}" stroke-width="2" data-series="${escapeHtml(p.label)}"><title>${escapeHtml(`${p.label}: ${o.xText(p.x)}, ${fmt(p.y, 3)}${p.front ? ' (Pareto front)' : ''}`)}</title></circle>`,
      `<text x="${px(p.x) + 8}" y="${py(p.y) + 4}" font-size="10">${escapeHtml(p.label)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('');
}
