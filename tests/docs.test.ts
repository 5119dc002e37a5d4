// The documentation stays in step with the code and with itself: docs/cli.md is what every
// command's --help prints now (scripts/cli-doc.mjs), docs/README.md lists every page, every
// relative link of the project's own pages reaches a file (and a heading, for #anchors), and the
// README stays a front door (at most 250 lines, none over 300 characters).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../orchestrator/cli/main.ts';
import { CLI_DOC, renderCliDoc } from '../scripts/cli-doc.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Markdown files under `dir` (relative to the root), recursively. */
function markdownUnder(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(dir, f));
}

/** The project's own pages: the root's, docs/ and examples/ (not the games' task texts for agents). */
const projectPages = () => [
  ...fs.readdirSync(ROOT).filter((f) => f.endsWith('.md')),
  ...markdownUnder('docs'),
  ...markdownUnder('examples'),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

const anchorsOf = new Map<string, Set<string>>();
const anchorsOfFile = (file: string) => {
  if (!anchorsOf.has(file)) anchorsOf.set(file, headingAnchors(fs.readFileSync(file, 'utf8')));
  return anchorsOf.get(file)!;
};

/** Each relative link of a page that does not reach a file, or a heading of it: "target (why)". */
export function brokenLinks(page: string, markdown: string, exists = fs.existsSync): string[] {
  const broken: string[] = [];
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, '').replace(/`[^`\n]*`/g, '');
  for (const [, target] of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // https:, mailto: …
    const [file, anchor] = target!.split('#') as [string, string | undefined];
    const abs = file
      ? path.resolve(path.dirname(path.join(ROOT, page)), decodeURIComponent(file))
      : path.join(ROOT, page);
    if (!exists(abs)) {
      broken.push(`${target} (no such file)`);
      continue;
    }
    if (anchor && abs.endsWith('.md') && !anchorsOfFile(abs).has(anchor)) broken.push(`${target} (no such heading)`);
  }
  return broken;
}

describe('docs/cli.md', () => {
  it("is every command's --help as the CLI prints it now (node scripts/cli-doc.mjs rewrites it)", () => {
    const expected = renderCliDoc(buildProgram());
    expect(fs.readFileSync(CLI_DOC, 'utf8'), 'docs/cli.md is out of date: run node scripts/cli-doc.mjs').toBe(expected);
    // Each command's section is what `--help` prints, and every command has one.
    expect(expected).toMatch(/\n## catarena tourney\n\n```text\nUsage: catarena tourney \[options\]\n/);
    expect(expected).toMatch(/\n## catarena queue status\n/);
    expect(expected).not.toMatch(/\n## catarena help\n/);
  });
});

describe('the documentation pages', () => {
  it('are all listed in docs/README.md', () => {
    const index = fs.readFileSync(path.join(ROOT, 'docs', 'README.md'), 'utf8');
    const pages = markdownUnder('docs').filter((p) => p !== path.join('docs', 'README.md'));
    const unlisted = pages.filter((p) => !index.includes(`](${path.relative('docs', p)})`));
    expect(unlisted, 'add a row for each to docs/README.md').toEqual([]);
  });

  it('link only to files and headings that exist', () => {
    const broken = projectPages().flatMap((page) =>
      brokenLinks(page, fs.readFileSync(path.join(ROOT, page), 'utf8')).map((b) => `${page}: ${b}`),
    );
    expect(broken).toEqual([]);
  });

  it('catch a link to a missing file or heading (the check above can fail)', () => {
    const text = [
      '[ok](docs/metrics.md) [gone](docs/nope.md) [bad anchor](docs/metrics.md#no-such-heading)',
      '[web](https://example.com/x.md) `[code](not/checked.md)`',
      '```',
      '[fenced](not/checked/either.md)',
      '```',
    ].join('\n');
    expect(brokenLinks('README.md', text)).toEqual([
      'docs/nope.md (no such file)',
      'docs/metrics.md#no-such-heading (no such heading)',
    ]);
    expect([...headingAnchors('# A `b` c: d\n## A b c d\n```\n# not a heading\n```\n')]).toEqual([
      'a-b-c-d',
      'a-b-c-d-1',
    ]);
  });
  it('keep the README a front door: at most 250 lines, none over 300 characters', () => {
    const lines = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(250);
    expect(lines.filter((l) => l.length > 300)).toEqual([]);
  });
});
