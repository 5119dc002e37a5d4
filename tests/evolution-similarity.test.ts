// Code similarity (reports/evolution/similarity.ts) on hand-made bots of known overlap
// (tests/fixtures/similarity/<language>/): a bot against itself, against a copy with every name,
// comment and blank line changed, against a copy with its functions in another order, and against
// an unrelated bot of another game, in Python, JavaScript and Go. The values must come in that
// order and inside the bounds docs/evolution.md states; the tokeniser's normalisation is checked
// on the constructs each language has.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBot, type BotFile } from '../reports/evolution/bot-files.ts';
import { fingerprintFiles, similarity, winnow, withoutBase } from '../reports/evolution/similarity.ts';
import { tokenize } from '../reports/evolution/tokenize.ts';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/similarity');
const fp = async (lang: string, bot: string) => fingerprintFiles((await readBot(path.join(FIXTURES, lang, bot))).files);

describe('code similarity of hand-made bots', () => {
  for (const lang of ['python', 'javascript', 'go']) {
    it(`${lang}: identical 1, renamed ≥ 0.95, unrelated ≤ 0.15, in that order and within [0, 1]`, async () => {
      const original = await fp(lang, 'original');
      const renamed = await fp(lang, 'renamed');
      const unrelated = await fp(lang, 'unrelated');
      expect(original.size).toBeGreaterThan(100);
      const values = {
        identical: similarity(original, await fp(lang, 'original')),
        renamed: similarity(renamed, original),
        renamedBack: similarity(original, renamed),
        unrelated: similarity(unrelated, original),
        unrelatedBack: similarity(original, unrelated),
      };
      console.log(
        `${lang}: ${JSON.stringify(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Number(v!.toFixed(3))])))}`,
      );
      for (const v of Object.values(values)) {
        expect(v).not.toBeNull();
        expect(v!).toBeGreaterThanOrEqual(0);
        expect(v!).toBeLessThanOrEqual(1);
      }
      expect(values.identical).toBe(1);
      expect(values.renamed!).toBeGreaterThanOrEqual(0.95);
      expect(values.renamedBack!).toBeGreaterThanOrEqual(0.95);
      expect(values.unrelated!).toBeLessThanOrEqual(0.15);
      expect(values.unrelatedBack!).toBeLessThanOrEqual(0.15);
      expect(values.renamed!).toBeGreaterThan(values.unrelated! + 0.7);
    });
  }

  it('python: reordered functions stay close (≥ 0.85), below a renamed copy and far above an unrelated bot', async () => {
    const original = await fp('python', 'original');
    const reordered = similarity(await fp('python', 'reordered'), original)!;
    const renamed = similarity(await fp('python', 'renamed'), original)!;
    const unrelated = similarity(await fp('python', 'unrelated'), original)!;
    console.log(
      `python reordered: ${reordered.toFixed(3)} (renamed ${renamed.toFixed(3)}, unrelated ${unrelated.toFixed(3)})`,
    );
    expect(reordered).toBeGreaterThanOrEqual(0.85);
    expect(reordered).toBeLessThan(1);
    expect(renamed).toBeGreaterThanOrEqual(reordered);
    expect(reordered).toBeGreaterThan(unrelated + 0.7);
  });

  it('is asymmetric: a bot copied whole into a larger one is all of it, not the reverse', async () => {
    const original = (await readBot(path.join(FIXTURES, 'python', 'original'))).files;
    const extra = (await readBot(path.join(FIXTURES, 'python', 'unrelated'))).files.map(
      (f): BotFile => ({ ...f, path: `poker/${f.path}` }),
    );
    const small = fingerprintFiles(original);
    const large = fingerprintFiles([...original, ...extra]);
    expect(similarity(small, large)).toBe(1);
    const back = similarity(large, small)!;
    expect(back).toBeGreaterThan(0.5);
    expect(back).toBeLessThan(0.9);
  });

  it('leaves out base code (the sample bot) on both sides; a bot of nothing else has no similarity', async () => {
    const original = await fp('python', 'original');
    const renamed = await fp('python', 'renamed');
    const base = await fp('python', 'original');
    expect(withoutBase(renamed, base).size).toBeLessThan(5);
    expect(similarity(withoutBase(original, base), withoutBase(renamed, base))).toBeNull();
    const unrelated = await fp('python', 'unrelated');
    expect(similarity(withoutBase(unrelated, base), withoutBase(original, base))).toBe(0);
  });

  it('data and docs do not count: bots differing only in params.json are the same code', () => {
    const code: BotFile = {
      path: 'bot.py',
      lang: 'python',
      bytes: 0,
      text: fs.readFileSync(path.join(FIXTURES, 'python/original/bot.py'), 'utf8'),
    };
    const a = fingerprintFiles([code, { path: 'params.json', lang: null, bytes: 0, text: '{"depth": 2}' }]);
    const b = fingerprintFiles([
      code,
      { path: 'params.json', lang: null, bytes: 0, text: '{"depth": 5, "width": 9}' },
      { path: 'NOTES.md', lang: null, bytes: 0, text: '# notes' },
    ]);
    expect(similarity(a, b)).toBe(1);
  });
});

describe('the tokeniser', () => {
  it('python: identifiers, numbers and strings normalised, keywords kept, comments dropped, indentation as IN/DE', () => {
    const src = 'def f(x, y=3):  # add\n    """doc"""\n    if x > 0.5:\n        return x + y\n    return rb\'\\x00\'\n';
    expect(tokenize(src, 'python').join(' ')).toBe(
      'def I ( I , I = N ) : NL IN S NL if I > N : NL IN return I + I NL DE return S NL DE',
    );
    // Renaming changes nothing; a different statement does.
    expect(tokenize(src.replace(/\bx\b/g, 'value'), 'python')).toEqual(tokenize(src, 'python'));
  });

  it('javascript: template literals with substitutions, regular expressions and comments', () => {
    const src = 'const re = /a\\/b[/]c/g; // note\nconst s = `x${f(`y${1}`)}z`; /* block */ let q = a / b / c;';
    expect(tokenize(src, 'javascript').join(' ')).toBe('const I = R ; const I = S ; let I = I / I / I ;');
  });

  it('go: raw strings, runes and := are single tokens', () => {
    const src = 'func main() {\n\tx := `raw\n"str"` + "s" + string(\'c\')\n\t// comment\n}';
    expect(tokenize(src, 'go').join(' ')).toBe('func I ( ) { I := S + S + I ( S ) }');
  });

  it('winnowing keeps at least one hash per window and none for a text shorter than k tokens', () => {
    const tokens = tokenize(fs.readFileSync(path.join(FIXTURES, 'javascript/original/bot.mjs'), 'utf8'), 'javascript');
    const hashes = winnow(tokens, { k: 12, w: 8 });
    expect(hashes.length).toBeGreaterThan((tokens.length - 11) / 8);
    expect(hashes.length).toBeLessThan(tokens.length - 11);
    expect(winnow(tokens.slice(0, 11), { k: 12, w: 8 })).toEqual([]);
    expect(winnow(tokens.slice(0, 12), { k: 12, w: 8 })).toHaveLength(1);
  });
});
