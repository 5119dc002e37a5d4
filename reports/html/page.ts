// What every HTML page of catarena shares: escaping, JSON inside a <script>, one stylesheet, and the
// report tables' cells (intervals, the separability mark) and table.
// Pages are static and self-contained (no fonts, scripts or styles from anywhere), so they open
// from file:// and can be mailed to a colleague.
import type { Interval } from '../../records/metrics.ts';
import { SEPARABLE } from '../markdown-tracks.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** JSON safe inside <script>: no "</script>", no HTML comment openers, no line separators. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export const PAGE_CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 1.2rem 2rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; margin: .2rem 0 .6rem; }
h2 { font-size: 1.2rem; margin: 1.6rem 0 .5rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.1rem 0 .4rem; }
table { border-collapse: collapse; margin: .3rem 0 .8rem; }
th, td { border: 1px solid #ddd; padding: 2px 7px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child, td.text, th.text { text-align: left; }
th { background: #f5f5f7; }
.muted { color: #777; }
.ci { color: #777; font-size: .85em; }
.warn { color: #b00020; }
a { color: #0b57d0; }
button { font: inherit; padding: 1px 8px; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
/* 360 px and up: a wide table scrolls in its own box, charts shrink to the page, long words wrap. */
table { display: block; max-width: 100%; overflow-x: auto; width: max-content; }
svg { max-width: 100%; height: auto; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
textarea, input, select { max-width: 100%; box-sizing: border-box; }
p, li, h1, h2, h3, h4, summary, code, dd { overflow-wrap: anywhere; }
@media (max-width: 640px) {
  body { margin: .6rem .7rem; }
  h1 { font-size: 1.25rem; }
}
`;

/** An interval after a number in a report table: " [lo, hi]" in the ci style, nothing without one. */
export const ci = (iv?: Interval) =>
  iv && iv.lo !== null && iv.hi !== null ? ` <span class="ci">[${iv.lo.toFixed(2)}, ${iv.hi.toFixed(2)}]</span>` : '';

/** A report table (first column text-aligned); "None." without rows. */
export function htmlTable(head: string[], rows: string[][], cls = ''): string {
  if (!rows.length) return '<p class="muted">None.</p>';
  return `<table class="${cls}"><thead><tr>${head.map((c, i) => `<th${i === 0 ? ' class="text"' : ''}>${c}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => `<td${i === 0 ? ' class="text"' : ''}>${c}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A leaderboard's "above the next" probability: ✓ when separable at 95%, ≈ when not. */
export const vsNext = (p: number | null | undefined) =>
  p === null || p === undefined
    ? '—'
    : p >= SEPARABLE
      ? `✓ ${p.toFixed(2)}`
      : `<span title="not separable at 95%">≈ ${p.toFixed(2)}</span>`;
