// The run directory is a contract (records/run-layout.ts): every source file outside the layout
// module names a run's files through RUN_FILES, so a renamed file is renamed in one place and a
// reader cannot drift from the writer. This test fails on a run-file name written as a string
// literal ('journal.jsonl', "report.html", `live.jsonl`) or as a path's last segment inside one
// (`${dir}/report.html`, 'replays/replay.html?id=') in code, comments and prose aside. Tests may
// keep literals: they check the files by the names a person sees.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_FILES } from '../records/run-layout.ts';
import { ROOT, sourceFiles } from './helpers/sources.ts';

const LAYOUT_MODULE = 'records/run-layout.ts';

/** Literals that are right where they are: file, name, and why. */
const ALLOWED: { file: string; name: string; why: string }[] = [
  {
    file: 'scripts/w-fingerprint.mjs',
    name: 'W.json',
    why: 'a plain .mjs script run by node without tsx: it cannot import a .ts module',
  },
  {
    file: 'orchestrator/serve/server.ts',
    name: 'viewer.js',
    why: "serve's own asset /assets/viewer.js, a URL of the server, not a file of a run",
  },
  {
    file: 'orchestrator/human/human-seat.ts',
    name: 'viewer.js',
    why: "the human seat's page's script /play/viewer.js, a URL of its server, not a file of a run",
  },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NAMES = Object.values(RUN_FILES);
const ALTERNATION = NAMES.map(escapeRegExp).join('|');
/** A whole literal: 'name', "name" or `name`; or a path's last segment in one: /name followed by its end, ?query or #hash. */
const LITERAL = new RegExp(`(['"\`])(${ALTERNATION})\\1|/(${ALTERNATION})(?=['"\`?#])`, 'g');

/** The code of a line: comment lines and trailing // comments left out (a // inside a string such as a URL stays). */
function codeOf(line: string): string {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return '';
  return line.replace(/\s\/\/\s.*$/, '');
}

/** The run-file names a source text writes as literals, with their line numbers. */
function runFileLiterals(text: string): { line: number; name: string }[] {
  return text
    .split('\n')
    .flatMap((line, i) => [...codeOf(line).matchAll(LITERAL)].map((m) => ({ line: i + 1, name: (m[2] ?? m[3])! })));
}

describe('run layout', () => {
  it('finds a literal in code and skips comments (the check can fail)', () => {
    const planted = [
      "const file = path.join(dir, 'journal.jsonl');",
      'const link = `${base}/report.html`;',
      '// journal.jsonl, the source of truth',
      "const page = '<a href=\"replays/replay.html?id=' + id;",
      'const other = "my-config.json"; // config.json',
    ].join('\n');
    expect(runFileLiterals(planted)).toEqual([
      { line: 1, name: 'journal.jsonl' },
      { line: 2, name: 'report.html' },
      { line: 4, name: 'replay.html' },
    ]);
  });

  it('no run-file name is a string literal outside records/run-layout.ts', () => {
    const found = sourceFiles()
      .filter((rel) => rel !== LAYOUT_MODULE)
      .flatMap((rel) =>
        runFileLiterals(fs.readFileSync(path.join(ROOT, rel), 'utf8'))
          .filter(({ name }) => !ALLOWED.some((a) => a.file === rel && a.name === name))
          .map(({ line, name }) => `${rel}:${line}: '${name}' (use RUN_FILES from records/run-layout.ts)`),
      );
    expect(found).toEqual([]);
  });

  it('every allowed literal is still there (a stale allowance is removed)', () => {
    for (const a of ALLOWED)
      expect(
        runFileLiterals(fs.readFileSync(path.join(ROOT, a.file), 'utf8')).map((l) => l.name),
        a.file,
      ).toContain(a.name);
  });

  it('run-file names are distinct', () => {
    expect(new Set(NAMES).size).toBe(NAMES.length);
  });
});
