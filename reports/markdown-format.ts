// Formatting shared by the Markdown and terminal reports: one way to print a number, a missing
// value, an interval, a correlation and a table.
import type { Correlation, Interval } from '../records/metrics.ts';

export const MISSING = '—';

/** Fixed decimals (3 unless told); null, undefined and non-finite values print as '—'. */
export function num(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? MISSING : x.toFixed(digits);
}

/** `0.625 [0.50, 0.75]` when the bootstrap has an interval, else the point alone. */
export function withCI(point: number | null | undefined, iv?: Interval): string {
  if (!iv || iv.lo === null || iv.hi === null || point === null || point === undefined) return num(point);
  return `${num(point)} [${iv.lo.toFixed(2)}, ${iv.hi.toFixed(2)}]`;
}

/** A Pearson correlation; an undefined one (zero variance, < 2 points) is said to be so, not shown as 0. */
export function corr(c: Correlation | undefined): string {
  if (!c) return MISSING;
  return c.defined ? num(c.value) : 'n/a (undefined)';
}

/** count / total as a percentage with 2 decimals. */
export function pct(count: number, total: number): string {
  return total > 0 ? `${((100 * count) / total).toFixed(2)}%` : MISSING;
}

/** 12.3 s, 4 min 05 s, 1 h 02 min. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A GitHub-flavoured Markdown table; numeric-looking columns after the first `labels` are right-aligned. */
export function mdTable(header: string[], rows: string[][], labels = 1): string {
  const numeric = header.map(
    (_, c) => c >= labels && rows.length > 0 && rows.every((r) => /^[-+]?[\d.]|^—$|^[·?]$/.test(r[c] ?? '')),
  );
  const lines = [
    `| ${header.map(cell).join(' | ')} |`,
    `|${header.map((_, c) => (numeric[c] ? ' ---: ' : ' --- ')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
  return lines.join('\n');
}

/** Fixed-width columns for terminals (first column left-aligned, the rest right-aligned). */
export function textTable(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) =>
    r
      .map((text, c) => (c === 0 ? text.padEnd(widths[c]!) : text.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}
