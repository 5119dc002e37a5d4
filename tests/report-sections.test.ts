// Report sections behind one interface: every file of reports/sections/ that is a section is in
// the assembly's lists, the two outputs hold each section's own text in the listed order, and the
// assembly stays out of orchestrator/ (summarize.ts hands the sections their input, nothing more).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MARKDOWN_SECTIONS,
  PAGE_SECTIONS,
  renderReportHtml,
  renderReportMarkdown,
  summaryInput,
} from '../reports/sections/index.ts';
import type { ReportSection } from '../reports/sections/types.ts';
import { GOMOKU_TWO_ROUNDS, sharedRun } from './helpers/shared-runs.ts';
import { tempDir } from './helpers/bots.ts';

const DIR = path.resolve('reports/sections');
const NOT_SECTIONS = new Set(['index.ts', 'types.ts', 'per-track.ts', 'report-page.ts']);

describe('report sections', () => {
  it('every section file exports one ReportSection, and the assembly lists it', async () => {
    const listed = new Set<ReportSection>([...MARKDOWN_SECTIONS, ...PAGE_SECTIONS]);
    const files = fs.readdirSync(DIR).filter((f) => f.endsWith('.ts') && !NOT_SECTIONS.has(f));
    expect(files.length).toBeGreaterThanOrEqual(15);
    for (const file of files) {
      const mod = (await import(path.join(DIR, file))) as Record<string, unknown>;
      const sections = Object.entries(mod).filter(([name]) => name.endsWith('Section'));
      expect(
        sections.map(([name]) => name),
        file,
      ).toHaveLength(1);
      expect(listed.has(sections[0]![1] as ReportSection), `${file} is not in MARKDOWN_SECTIONS or PAGE_SECTIONS`).toBe(
        true,
      );
    }
  });

  it("report.md and report.html hold each section's text, in the listed order", async () => {
    const summary = await sharedRun(
      'gomoku-two-rounds',
      GOMOKU_TWO_ROUNDS,
      path.join(tempDir('catarena-sections-'), 'run'),
    );
    const input = summaryInput(summary);
    const md = renderReportMarkdown(input);
    let at = 0;
    for (const section of MARKDOWN_SECTIONS)
      for (const block of section.markdown?.(input) ?? []) {
        const found = md.indexOf(block, at);
        expect(found, block.slice(0, 80)).toBeGreaterThanOrEqual(at);
        at = found + block.length;
      }
    const html = renderReportHtml(input);
    at = 0;
    for (const section of PAGE_SECTIONS) {
      const part = section.html?.(input) ?? '';
      const found = html.indexOf(part, at);
      expect(found, part.slice(0, 80)).toBeGreaterThanOrEqual(at);
      at = found + part.length;
      for (const [id, label] of section.nav?.(input) ?? []) expect(html).toContain(`<a href="#${id}">${label}</a>`);
    }
  });

  it('summarize.ts renders no section itself', () => {
    const source = fs.readFileSync('orchestrator/tourney/summarize.ts', 'utf8');
    const renderers = [...source.matchAll(/from '(\.\.\/)+reports\/([^']+)'/g)].map((m) => m[2]!);
    // The replay pages (html/replay-page.ts) are not report sections.
    expect(renderers.filter((p) => /markdown|report-html|probe-html|evolution-html/.test(p))).toEqual([]);
  });
});
