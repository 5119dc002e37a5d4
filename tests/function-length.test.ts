// Short functions (issue 47): no function of more than 100 lines outside bots (and the libraries
// copied into them), viewers and the browser pages' scripts. STILL_LONG lists any still longer with
// its length (none since 2026-12-07): the list may only shrink (a function split leaves it; one
// that grows fails), and a new long function fails. Lengths come from the TypeScript parser, declaration to closing brace.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './helpers/sources.ts';

const LIMIT = 100;

/** Bots, game viewers and the pages' browser scripts are programs of their own. */
const EXEMPT = /(^|\/)(bots?|viewer|human|pages)\/|\.js$|^bench\//;
/** The libraries copied into bots (scripts/sync-bot-libs.mjs) are bot code too: a change to one re-versions the anchor pools. */
const { LIBS } = (await import('../scripts/sync-bot-libs.mjs' as string)) as { LIBS: string[][] };
const BOT_LIBS = new Set(LIBS.map(([source]) => path.relative(ROOT, source!)));

/** file:name → its length in lines on 2026-12-07 (after that day's merges); each should be split. */
const STILL_LONG: Record<string, number> = {};

function longFunctions(): Map<string, number> {
  const out = new Map<string, number>();
  for (const file of sourceFiles().filter((f) => !EXEMPT.test(f) && !BOT_LIBS.has(f))) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const from = src.getLineAndCharacterOfPosition(node.getStart()).line;
        const to = src.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (to - from + 1 > LIMIT) {
          const named =
            (node as { name?: ts.Node }).name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
          out.set(`${file}:${named?.getText(src) ?? `(anonymous at line ${from + 1})`}`, to - from + 1);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return out;
}

describe('function length', () => {
  const found = longFunctions();

  it(`no new function of more than ${LIMIT} lines`, () => {
    const fresh = [...found.keys()].filter((k) => !(k in STILL_LONG));
    expect(fresh, 'split these by their steps').toEqual([]);
  });

  it('the functions still long do not grow, and those split leave the list', () => {
    const grown = Object.entries(STILL_LONG)
      .filter(([k, n]) => (found.get(k) ?? 0) > n)
      .map(([k]) => `${k}: ${found.get(k)} lines`);
    expect(grown).toEqual([]);
    const split = Object.keys(STILL_LONG).filter((k) => !found.has(k));
    expect(split, 'remove these from STILL_LONG').toEqual([]);
  });
});
