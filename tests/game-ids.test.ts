// A game is its folder: outside games/ (and the entry points bench/, scripts/ and tests/) no
// source names a registered game. What code needs of a game comes from its descriptor
// (docs/adding-a-game.md); a game id written as a string literal, or as an object key, outside
// those folders is a per-game table that a new game would have to be added to by hand.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gameIds } from '../games/registry.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXEMPT = ['games', 'bench', 'scripts', 'tests', 'node_modules', '.build', 'runs', 'docs'];

function sources(dir = ''): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return dir === '' && (EXEMPT.includes(e.name) || e.name.startsWith('.')) ? [] : sources(rel);
    return /\.(ts|mts|mjs|js)$/.test(e.name) ? [rel] : [];
  });
}

/** Comments out, so prose may still name a game. */
const code = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

describe('game ids', () => {
  it('no source outside games/, bench/, scripts/ and tests/ names a registered game in a literal or a key', () => {
    const ids = gameIds().join('|');
    const literal = new RegExp(`(['"\`])(${ids})\\1|(?:^|[{,])\\s*(${ids})\\s*:\\s`, 'g');
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((rel) =>
      code(fs.readFileSync(path.join(ROOT, rel), 'utf8'))
        .split('\n')
        .flatMap((line, i) => [...line.matchAll(literal)].map((m) => `${rel}:${i + 1}: ${m[0]}`)),
    );
    expect(found).toEqual([]);
  });
});
