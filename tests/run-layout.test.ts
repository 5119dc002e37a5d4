// The run directory is a contract (records/run-layout.ts): every source file outside the layout
// module names a run's files through RUN_FILES and its folders through RUN_DIRS and roundDirName,
// so a renamed file or folder is renamed in one place and a reader cannot drift from the writer.
// This test fails on a run-file name written as a string literal ('journal.jsonl', "report.html",
// `live.jsonl`) or as a path's last segment inside one (`${dir}/report.html`,
// 'replays/replay.html?id='), and on a run-folder name as a path segment in a literal
// (`replays/${id}`, '<a href="replays/'), as a literal in a path call (path.join(run, 'tracks')),
// as a literal at all where the name means nothing else ('bot-logs'), or a round folder built or
// matched by hand (`round_${n}`, /^round_\d+$/); code comments and prose with <placeholders> aside.
// Tests may keep literals: they check the files by the names a person sees.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_DIRS, RUN_FILES } from '../records/run-layout.ts';
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
    file: 'scripts/w-fingerprint.mjs',
    name: 'tracks',
    why: 'a plain .mjs script run by node without tsx: it cannot import a .ts module',
  },
  {
    file: 'orchestrator/worker/worker.ts',
    name: 'bot-logs',
    why: "the queue worker's own work folder (--work-dir), not a run directory",
  },
  {
    file: 'agents/dir/dir-agent.ts',
    name: 'round_',
    why: "a dir agent's folder of bots (round_<n>/ per round) is the user's layout, read as given, not a run's",
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

const DIRS: string[] = Object.values(RUN_DIRS);
/** Folder names that mean nothing else: a literal of one is a run folder wherever it stands. */
const DISTINCT_DIRS = DIRS.filter((d) => d.includes('-') || d === RUN_DIRS.workspaces || d === RUN_DIRS.recordings);
const DIR_ALTERNATION = DIRS.map(escapeRegExp).join('|');
const DIR_PATTERNS: RegExp[] = [
  // A path segment in a literal: after a quote, '/' or '(' (a Markdown link), before '/' and a name or ${…}.
  new RegExp(`(?<=['"\`/(])(${DIR_ALTERNATION})/(?=[\\w$'"\`])`, 'g'),
  // A whole literal of a name that means nothing else.
  new RegExp(`(['"\`])(?<distinct>${DISTINCT_DIRS.map(escapeRegExp).join('|')})\\1`, 'g'),
  // A round folder built or matched by hand: `round_${n}`, 'round_', /^round_(\d+)$/.
  /\b(round_)(?=\$\{|\\d|\(|['"`])/g,
];
/** Any folder name as a whole literal, counted only on a line that builds a path with it (path.join, resolve). */
const DIR_WHOLE = new RegExp(`(['"\`])(${DIR_ALTERNATION})\\1`, 'g');
const PATH_CALL = /\b(join|resolve)\(/;

/** The run-folder names a source text writes as literals, with their line numbers (import specifiers aside). */
function runDirLiterals(text: string): { line: number; name: string }[] {
  return text.split('\n').flatMap((line, i) => {
    const code = codeOf(line);
    if (/^\s*(import|export)\b.*\bfrom\s/.test(code) || /\bimport\(/.test(code)) return [];
    const names = new Set<string>();
    for (const re of DIR_PATTERNS) for (const m of code.matchAll(re)) names.add(m.groups?.distinct ?? m[1]!);
    if (PATH_CALL.test(code)) for (const m of code.matchAll(DIR_WHOLE)) names.add(m[2]!);
    return [...names].map((name) => ({ line: i + 1, name }));
  });
}

/** Every run-file and run-folder literal of a source text. */
const layoutLiterals = (text: string) => [...runFileLiterals(text), ...runDirLiterals(text)];

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

  it('finds a run-folder literal in a path and leaves other words and prose alone (the check can fail)', () => {
    const planted = [
      "const replays = path.join(runDir, 'replays');",
      'const rel = `tracks/${track}/W.json`;',
      "const link = '<a href=\"replays/' + id + '.json.gz\">';",
      "const logs = path.join(root, 'bot-logs');",
      "if (rel[3] === 'workspaces') return;",
      'const round = path.join(trackDir, `round_${n}`);',
      'if (!/^round_\\d+$/.test(name)) continue;',
      '`![svg](probe/${track}/consistency.svg)`',
      "import { x } from '../probe/probe.ts';",
      "if (phase.kind === 'probe') return;",
      "type S = Pick<Summary, 'tracks' | 'strategies'>;",
      "const help = 'the diffs are in tracks/<track>/round_<n>/strategies/<agent>.diff, stored once (store/, links)';",
      "const report = 'round_report.json';",
      "// path.join(run, 'tracks')",
    ].join('\n');
    expect(runDirLiterals(planted)).toEqual([
      { line: 1, name: 'replays' },
      { line: 2, name: 'tracks' },
      { line: 3, name: 'replays' },
      { line: 4, name: 'bot-logs' },
      { line: 5, name: 'workspaces' },
      { line: 6, name: 'round_' },
      { line: 7, name: 'round_' },
      { line: 8, name: 'probe' },
    ]);
  });

  it('no run-file or run-folder name is a string literal outside records/run-layout.ts', () => {
    const found = sourceFiles()
      .filter((rel) => rel !== LAYOUT_MODULE)
      .flatMap((rel) =>
        layoutLiterals(fs.readFileSync(path.join(ROOT, rel), 'utf8'))
          .filter(({ name }) => !ALLOWED.some((a) => a.file === rel && a.name === name))
          .map(
            ({ line, name }) =>
              `${rel}:${line}: '${name}' (use RUN_FILES, RUN_DIRS or roundDirName from records/run-layout.ts)`,
          ),
      );
    expect(found).toEqual([]);
  });

  it('every allowed literal is still there (a stale allowance is removed)', () => {
    for (const a of ALLOWED)
      expect(
        layoutLiterals(fs.readFileSync(path.join(ROOT, a.file), 'utf8')).map((l) => l.name),
        a.file,
      ).toContain(a.name);
  });

  it('run-file and run-folder names are distinct', () => {
    const all = [...NAMES, ...DIRS];
    expect(new Set(all).size).toBe(all.length);
  });
});
