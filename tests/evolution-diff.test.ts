// The evolution report's diffs (reports/evolution/line-diff.ts, bot-diff.ts, bot-files.ts): a
// minimal line diff whose unified form `patch` applies, bot folders compared file by file with
// dependency, generated, binary and large files left out, and a rewritten large file in bounded
// time; and what a bot is made of (bot-profile.ts) on the reference bots.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffLines, splitLines, unifiedHunks } from '../reports/evolution/line-diff.ts';
import { diffBots } from '../reports/evolution/bot-diff.ts';
import { readBot } from '../reports/evolution/bot-files.ts';
import { mainDepth, profileBot } from '../reports/evolution/bot-profile.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

/** A small deterministic generator, so the random cases are the same every run. */
function lcg(seed: number) {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

const hasPatch = (() => {
  try {
    execFileSync('patch', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('the line diff', () => {
  it('turns a into b with the fewest edits, and prints hunks as diff -u does', () => {
    const a = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const b = ['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    const d = diffLines(a, b);
    expect([d.added, d.removed, d.replaced]).toEqual([2, 1, false]);
    expect(unifiedHunks(d.ops)).toEqual([
      '@@ -1,5 +1,5 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      ' d',
      ' e',
      '@@ -8,3 +8,4 @@',
      ' h',
      ' i',
      ' j',
      '+k',
    ]);
    expect(unifiedHunks(diffLines(a, a).ops)).toEqual([]);
    expect(unifiedHunks(diffLines([], ['x', 'y']).ops)).toEqual(['@@ -0,0 +1,2 @@', '+x', '+y']);
  });

  it.skipIf(!hasPatch)(
    "on 40 random edits: reproduces b, is as short as GNU diff's, and patch applies its hunks",
    () => {
      const dir = tempDir();
      const fa = path.join(dir, 'a.txt');
      const fb = path.join(dir, 'b.txt');
      for (let t = 0; t < 40; t++) {
        const r = lcg(t + 1);
        const a = Array.from({ length: Math.floor(r() * 40) }, () => `l${Math.floor(r() * 8)}`);
        const b = a.filter(() => r() > 0.2).flatMap((l) => (r() > 0.8 ? [l, `n${Math.floor(r() * 5)}`] : [l]));
        const d = diffLines(a, b);
        expect(d.ops.filter((o) => o.kind !== '+').map((o) => o.line)).toEqual(a);
        expect(d.ops.filter((o) => o.kind !== '-').map((o) => o.line)).toEqual(b);
        if (!d.added && !d.removed) continue;
        fs.writeFileSync(fa, a.map((l) => `${l}\n`).join(''));
        fs.writeFileSync(fb, b.map((l) => `${l}\n`).join(''));
        let gnu = '';
        try {
          execFileSync('diff', ['-u', fa, fb]);
        } catch (err) {
          gnu = String((err as { stdout: Buffer }).stdout);
        }
        const edits = gnu
          .split('\n')
          .slice(2)
          .filter((l) => /^[+-]/.test(l)).length;
        expect(d.added + d.removed).toBe(edits);
        const patch = path.join(dir, 'p.diff');
        fs.writeFileSync(patch, `${['--- a.txt', '+++ b.txt', ...unifiedHunks(d.ops)].join('\n')}\n`);
        const c = path.join(dir, 'c.txt');
        fs.copyFileSync(fa, c);
        execFileSync('patch', ['-s', c, patch]);
        expect(fs.readFileSync(c, 'utf8')).toBe(fs.readFileSync(fb, 'utf8'));
      }
    },
  );

  it('reports a rewrite too large to search as a replacement, in bounded time', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `x${i}`);
    const b = a.map((l, i) => (i % 3 ? l : `y${i}`));
    const t0 = process.cpuUsage();
    const d = diffLines(a, b);
    const ms = (process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1000;
    expect(d.replaced).toBe(true);
    expect(d.ops.filter((o) => o.kind !== '-').map((o) => o.line)).toEqual(b);
    expect(ms).toBeLessThan(2000);
    // A few scattered changes in the same file are found exactly.
    const sparse = diffLines(
      a,
      a.map((l, i) => (i % 500 ? l : `z${i}`)),
    );
    expect([sparse.replaced, sparse.added, sparse.removed]).toEqual([false, 40, 40]);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
  });
});

describe('bot folders', () => {
  it('compares source files only: dependencies, caches, lock files, minified, binary and large files are named, not read', async () => {
    const root = tempDir();
    const make = (name: string, files: Record<string, string | Buffer>) => {
      for (const [rel, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(root, name, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, name, rel), content);
      }
      return path.join(root, name);
    };
    const junk = {
      'node_modules/left-pad/index.js': 'module.exports = 1;\n',
      '__pycache__/bot.cpython-311.pyc': Buffer.from([0, 1, 2]),
      'package-lock.json': '{}\n',
      'vendor.min.js': 'x',
      'model.pkl': Buffer.from([0, 0, 1]),
      'blob.dat2': Buffer.from([0, 65, 66]),
      'book.txt': 'e4 e5\n'.repeat(60_000),
    };
    const before = make('r1', {
      'bot.py': 'def f():\n    return 1\n',
      'start_ai.sh': 'python3 bot.py "$1"\n',
      'old.py': 'x = 1\n',
    });
    const after = make('r2', {
      'bot.py': 'def f():\n    return 2\n\ndef g():\n    return 3\n',
      'start_ai.sh': 'python3 bot.py "$1"\n',
      'params.json': '{"depth": 3}\n',
      ...junk,
    });
    const a = await readBot(before);
    const b = await readBot(after);
    expect(b.files.map((f) => f.path)).toEqual(['bot.py', 'params.json', 'start_ai.sh']);
    expect(Object.fromEntries(b.skipped.map((s) => [s.path, s.why]))).toEqual({
      '__pycache__/': 'vendored',
      'node_modules/': 'vendored',
      'package-lock.json': 'generated',
      'vendor.min.js': 'generated',
      'model.pkl': 'binary',
      'blob.dat2': 'binary',
      'book.txt': 'large',
    });
    const d = diffBots(a, b);
    expect(d.files).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 1 });
    expect(d.lines).toEqual({ added: 5, removed: 2 });
    expect(d.changes.map((c) => `${c.status} ${c.path} +${c.added} -${c.removed}`)).toEqual([
      'changed bot.py +4 -1',
      'removed old.py +0 -1',
      'added params.json +1 -0',
    ]);
    expect(d.unified).toContain(
      '--- a/bot.py\n+++ b/bot.py\n@@ -1,2 +1,5 @@\n def f():\n-    return 1\n+    return 2\n+\n+def g():\n+    return 3\n',
    );
    expect(d.unified).toContain('--- a/old.py\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-x = 1\n');
    expect(d.unified).toContain('--- /dev/null\n+++ b/params.json\n@@ -0,0 +1,1 @@\n+{"depth": 3}\n');
    expect(d.skipped).toContain('book.txt (large)');
    expect(diffBots(b, b).unified).toBe('');
  });

  it('profiles a bot: lines of code, languages, imports, techniques by keyword, the depth it is set to', async () => {
    const gomoku = profileBot(await readBot(BUILTIN('heuristic')), 'gomoku');
    expect(gomoku.languages.javascript).toBeGreaterThan(400);
    expect(gomoku.dependencies).toEqual(['node:fs', 'node:http']);
    expect(gomoku.techniques.map((t) => t.id)).toEqual(
      expect.arrayContaining(['alphabeta', 'minimax', 'threats', 'timing']),
    );
    expect(gomoku.techniques.map((t) => t.id)).not.toContain('equity'); // a Hold'em detector does not run on Gomoku
    expect(mainDepth(gomoku)).toBe(
      JSON.parse(fs.readFileSync(path.join(BUILTIN('heuristic'), 'params.json'), 'utf8')).depth,
    );
    const holdem = profileBot(await readBot(BUILTIN('heuristic', 'holdem')), 'holdem');
    expect(holdem.techniques.map((t) => t.id)).toEqual(
      expect.arrayContaining(['equity', 'potodds', 'preflop', 'montecarlo']),
    );
    const ml = profileBot(await readBot(BUILTIN('ml')), 'gomoku');
    expect(ml.dependencies).toEqual(expect.arrayContaining(['numpy', 'sklearn']));
    expect(ml.dependencies).not.toContain('features'); // its own module
    expect(ml.techniques.map((t) => t.id)).toContain('ml');
    const go = profileBot(
      await readBot(path.resolve(import.meta.dirname, 'fixtures/similarity/go/original')),
      'gomoku',
    );
    expect(go.dependencies).toEqual(['encoding/json', 'math', 'net/http', 'os']);
    expect(go.techniques.map((t) => t.id)).toContain('alphabeta');
  });
});
