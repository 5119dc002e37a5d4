// The documentation stays in step with the code and with itself: docs/cli.md is what every
// command's --help prints now (scripts/cli-doc.mjs), docs/README.md lists every page, every
// relative link of the project's own pages reaches a file (and a heading, for #anchors), the
// README stays a front door (at most 250 lines, none over 300 characters), and the example configs
// (examples/ and the README's recipe) resolve with agent specs that parse.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createAgent } from '../agents/registry.ts';
import { buildProgram } from '../orchestrator/cli/main.ts';
import { readConfigFile, resolveConfig, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
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
  it('are all listed: in docs/README.md, or in their folder README.md that docs/README.md lists', () => {
    /** The index that must link a page: its folder's README.md, or for that README the parent's. */
    const indexOf = (page: string) => {
      const dir = path.dirname(page);
      return path.join(path.basename(page) === 'README.md' ? path.dirname(dir) : dir, 'README.md');
    };
    const unlisted = markdownUnder('docs')
      .filter((p) => p !== path.join('docs', 'README.md'))
      .filter((p) => {
        const index = indexOf(p);
        const text = fs.existsSync(path.join(ROOT, index)) ? fs.readFileSync(path.join(ROOT, index), 'utf8') : '';
        return !text.includes(`](${path.relative(path.dirname(index), p)})`);
      });
    expect(unlisted, 'add a row for each to docs/README.md (or its folder README.md)').toEqual([]);
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

/** Resolves a config as `tourney --config` does and creates each agent (keys stubbed: specs only). */
function checkConfig(input: TourneyConfigInput): string[] {
  for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'])
    vi.stubEnv(key, 'placeholder-not-a-key');
  const config = resolveConfig(input);
  return config.agents.map((spec) => createAgent(spec, config.seed).id);
}

describe('the example configs', () => {
  it('in examples/ resolve as tourney --config does, and each agent spec parses (run from the root)', async () => {
    const files = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.yaml'));
    expect(files.sort()).toEqual(['quick.yaml', 'your-bots.yaml']);
    const ids = [];
    for (const file of files) ids.push(checkConfig(await readConfigFile(path.join(ROOT, 'examples', file))));
    expect(ids).toEqual([
      ['cautious', 'aggressive', 'imitator'],
      ['mine', 'baseline', 'cautious'],
    ]);
  });

  it("in the README's recipe resolve too", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parseYaml(m[1]!) as TourneyConfigInput);
    expect(blocks).toHaveLength(1);
    expect(checkConfig(blocks[0]!)).toHaveLength(5);
  });

  it('fail on a mistyped field or a bad agent spec (the checks above can fail)', () => {
    expect(() => checkConfig({ round: 2 } as TourneyConfigInput)).toThrow(/round/);
    expect(() => checkConfig({ agents: ['offline:cautious', 'claude-kode:x'] })).toThrow(
      /unknown agent "claude-kode:x"/,
    );
    expect(() => checkConfig({ agents: ['dir:no/such/folder'] })).toThrow(/no\/such\/folder/);
  });
});
