// Imports only run downward (docs/architecture.md): every relative import of every source file is
// checked against the layer table below, and no two folders may import each other. A game folder
// holds modules of higher layers only in its `agents/` and `reports/` subfolders (its offline-agent
// kit and its CATArena report writer); the descriptor names them, it never imports them. Those
// modules are loaded by games/modules.ts loadGameModule: each call counts as an import of every
// game's module of that kind, from the file that makes the call.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_MODULE_EXPORTS, type GameModuleKind } from '../games/modules.ts';
import { gameDescriptor, gameIds } from '../games/registry.ts';
import { ROOT, sourceFiles } from './helpers/sources.ts';

/** Lowest first. A path belongs to the longest prefix listed. */
const LAYERS: string[][] = [
  ['records', 'util'],
  ['games'],
  ['sandbox', 'docker'],
  ['reports', 'agents', 'games/*/reports', 'games/*/agents'],
  [
    'orchestrator/match',
    'orchestrator/concurrency',
    'orchestrator/queue',
    'orchestrator/game-server',
    'orchestrator/formats',
    'orchestrator/config',
    'orchestrator/progress.ts',
  ],
  [
    'orchestrator/executor',
    'orchestrator/run',
    'orchestrator/validate.ts',
    'orchestrator/language-check.ts',
    'orchestrator/probe',
    'orchestrator/human',
  ],
  [
    'orchestrator/tourney',
    'orchestrator/arena.ts',
    'orchestrator/anchors.ts',
    'orchestrator/rate.ts',
    'orchestrator/worker',
    'orchestrator/doctor.ts',
    'orchestrator/serve',
  ],
  ['orchestrator/cli'],
  ['bin', 'bench', 'scripts', 'tests', 'vitest.config.ts'],
];

function layerOf(rel: string): { layer: number; unit: string } {
  let best: { layer: number; unit: string; len: number } | null = null;
  LAYERS.forEach((prefixes, layer) => {
    for (const prefix of prefixes) {
      const re = new RegExp(`^${prefix.replace(/\./g, '\\.').replace(/\*/g, '[^/]+')}(/|$)`);
      const m = re.exec(rel);
      if (m && (!best || m[0].length > best.len)) best = { layer, unit: m[0].replace(/\/$/, ''), len: m[0].length };
    }
  });
  if (!best) throw new Error(`${rel} is in no layer: add its folder to LAYERS in tests/layers.test.ts`);
  return best;
}

/** The folder a file belongs to for the mutual-import check (its unit, refined to its own folder). */
const folderOf = (rel: string) => path.dirname(rel);

const IMPORT =
  /(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/**
 * Relative imports of a file; the compiled tree (.build/x.js, what bin/ runs) counts as its source
 * x.ts. `runtimeOnly`: without type-only imports, which leave no JavaScript.
 */
function importsOf(rel: string, { runtimeOnly = false } = {}): string[] {
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
  return [...text.matchAll(IMPORT)]
    .filter((m) => !runtimeOnly || !/^(import|export)\s+type\s/.test(m[0]))
    .map((m) => path.normalize(path.join(path.dirname(rel), m[1] ?? m[2]!)))
    .map((to) => (to.startsWith(`.build${path.sep}`) ? to.slice('.build/'.length).replace(/\.js$/, '.ts') : to));
}

const LOAD = /loadGameModule(?:<[^(]*?>)?\(\s*[^,]+,\s*'(\w+)'\s*\)/g;

/** The game modules a file loads with loadGameModule: one per registered game that has one of that kind. */
function loadsOf(rel: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
  return [...text.matchAll(LOAD)].flatMap((m) => {
    const kind = m[1]! as GameModuleKind;
    if (!(kind in GAME_MODULE_EXPORTS)) throw new Error(`${rel}: loadGameModule of an unknown kind "${kind}"`);
    return gameIds().flatMap((game) => {
      const module = gameDescriptor(game).modules[kind];
      return module ? [path.join('games', game, module)] : [];
    });
  });
}

describe('layers', () => {
  const files = sourceFiles();
  const loads = files
    .filter((f) => f !== 'games/modules.ts')
    .flatMap((from) => loadsOf(from).map((to) => ({ from, to })));
  const edges = [...files.flatMap((from) => importsOf(from).map((to) => ({ from, to }))), ...loads];

  it('counts the dynamic loads of game modules as imports', () => {
    // The offline agents' kits, the CATArena report writers and the replay viewers' data.
    expect(new Set(loads.map((l) => l.from))).toEqual(
      new Set(['agents/offline/offline-agent.ts', 'reports/round-logs.ts', 'reports/html/replay-page.ts']),
    );
    for (const { to } of loads) expect(fs.existsSync(path.join(ROOT, to)), to).toBe(true);
  });

  it("a game's higher-layer modules get the rules through their context, not back through the registry", () => {
    const back = loads.flatMap(({ to }) =>
      importsOf(to)
        .filter((i) => i === 'games/registry.ts' || i === 'games/replay.ts')
        .map((i) => `${to} → ${i}`),
    );
    expect([...new Set(back)]).toEqual([]);
  });

  it('finds the sources and their imports', () => {
    expect(files.length).toBeGreaterThan(120);
    expect(edges.length).toBeGreaterThan(400);
  });

  it('no import runs from a lower layer to a higher one', () => {
    const upward = edges
      .filter(({ from, to }) => layerOf(to).layer > layerOf(from).layer)
      .map(({ from, to }) => `${from} (layer ${layerOf(from).layer}) → ${to} (layer ${layerOf(to).layer})`);
    expect(upward).toEqual([]);
  });

  it('no two modules import each other at run time, dynamic imports included', () => {
    // Type-only imports vanish from the JavaScript, so a circle of types loads nothing twice.
    const pairs = new Set(
      files.flatMap((from) =>
        importsOf(from, { runtimeOnly: true })
          .filter((to) => to !== from)
          .map((to) => `${from} → ${to}`),
      ),
    );
    const mutual = [...pairs].filter((p) => pairs.has(p.split(' → ').reverse().join(' → '))).sort();
    expect(mutual).toEqual([]);
  });

  it('no two folders import each other', () => {
    const pairs = new Set(
      edges
        .map(({ from, to }) => `${folderOf(from)} → ${folderOf(to)}`)
        .filter((p) => !p.split(' → ').every((x, _, a) => x === a[0])),
    );
    const mutual = [...pairs].filter((p) => pairs.has(p.split(' → ').reverse().join(' → '))).sort();
    expect(mutual).toEqual([]);
  });
});
