// What a bot is made of, read from its files: lines of code, files, languages, the modules it
// imports, and techniques found by keyword heuristics (minimax, alpha-beta, MCTS, opening books,
// equity tables …) with search-depth and time-budget constants. The techniques are guesses from
// names and comments, not an analysis of what the code does, and every report says so.
import type { BotTechnique } from '../../games/core/descriptor.ts';
import { gameDescriptor, gameIds } from '../../games/registry.ts';
import { nonBlankLines, type BotFile, type BotFiles, type Language } from './bot-files.ts';

export interface Technique {
  id: string;
  label: string;
  /** Where it was seen: the first file that matched. */
  file: string;
}

export interface Constant {
  file: string;
  name: string;
  value: number;
}

export interface BotProfile {
  files: number;
  codeFiles: number;
  /** Non-blank lines of code files (data and docs not counted). */
  linesOfCode: number;
  /** Non-blank lines per language. */
  languages: Partial<Record<Language, number>>;
  /** Modules imported that are not files of the bot (standard library included), sorted. */
  dependencies: string[];
  techniques: Technique[];
  /** Numeric constants named like a search depth (in code or JSON parameters), in file order. */
  depth: Constant[];
  /** Numeric constants named like a per-move time budget (units as written). */
  timeBudget: Constant[];
  /** Files left out (vendored, generated, binary, large). */
  skipped: number;
}

/** Techniques of any game; each game adds its own (its descriptor's `techniques`). */
const DETECTORS: BotTechnique[] = [
  { id: 'minimax', label: 'minimax / negamax', re: /\b(mini_?max|nega_?max)\b/i },
  { id: 'alphabeta', label: 'alpha-beta pruning', re: /alpha[\s_-]?beta|\balpha\b[^\n]{0,80}\bbeta\b/i },
  { id: 'mcts', label: 'Monte Carlo tree search', re: /\bmcts\b|\buct\b|\bucb1?\b|monte[\s_-]?carlo[\s_-]?tree/i },
  {
    id: 'montecarlo',
    label: 'Monte Carlo simulation',
    re: /monte[\s_-]?carlo|\brollouts?\b|\bplayouts?\b|simulations?\b/i,
  },
  {
    id: 'deepening',
    label: 'iterative deepening',
    re: /iterative[\s_-]?deepening|for\s*\(\s*(let|var)\s+depth\s*=|for\s+depth\s+in\s+range|for\s+depth\s*:?=/i,
  },
  { id: 'transposition', label: 'transposition table / Zobrist hashing', re: /transposition|zobrist/i },
  { id: 'book', label: 'opening book', re: /opening[\s_-]?book|\bopenings?\b\s*[=:]/i },
  {
    id: 'timing',
    label: 'time management',
    re: /deadline|time[\s_-]?budget|time[\s_-]?limit|performance\.now|time\.time\(\)|time\.monotonic|time\.Now\(\)|Date\.now\(\)/i,
  },
  {
    id: 'random',
    label: 'randomness',
    re: /Math\.random|\brandom\.(random|choice|randint|shuffle|uniform)|\brand\.(Intn|Float64|Shuffle)|\brng\b/,
  },
  {
    id: 'ml',
    label: 'machine learning',
    re: /\b(sklearn|torch|tensorflow|keras|xgboost|lightgbm)\b|\.fit\(|\.predict(_proba)?\(/,
  },
  { id: 'selfplay', label: 'self-play against the game server', re: /self[\s_-]?play/i },
];

const DEPTH_NAME = /^(max_?|search_?|min_?)?depth$|^(max_?)?ply$|^max_?plies$/i;
const TIME_NAME = /time_?budget|time_?limit|think_?ms|move_?time|budget_?ms/i;
// name = 3, name: 3, "name": 3, NAME := 3 (one value per match).
const ASSIGNMENT = /["']?\b([A-Za-z_][A-Za-z0-9_]*)\b["']?\s*(?::=|=(?!=)|:)\s*(-?\d+(?:\.\d+)?)\b/g;

const IMPORTS: Partial<Record<Language, RegExp[]>> = {
  python: [/^\s*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)/gm, /^\s*from\s+([\w.]+)\s+import\b/gm],
  javascript: [
    /\bimport\s+(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ],
  typescript: [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  ],
  go: [], // import declarations only: see importsOf
  rust: [/^\s*(?:use|extern\s+crate)\s+([\w]+)/gm],
  java: [/^\s*import\s+(?:static\s+)?([\w.]+)/gm],
  c: [/^\s*#\s*include\s*[<"]([^>"]+)[>"]/gm],
  cpp: [/^\s*#\s*include\s*[<"]([^>"]+)[>"]/gm],
};

/** Modules a file imports (its raw names: 'numpy', 'node:http', './engine.mjs', 'encoding/json'). */
function importsOf(f: BotFile): string[] {
  const res = f.lang ? IMPORTS[f.lang] : undefined;
  if (!res) return [];
  const text = f.text;
  if (f.lang === 'go') {
    // Only inside import declarations: `import "x"` and `import ( … )` blocks.
    const blocks = [...text.matchAll(/^\s*import\s*\(([\s\S]*?)\)/gm)].map((m) => m[1]!);
    const single = [...text.matchAll(/^\s*import\s+(?:\w+\s+)?"([^"]+)"/gm)].map((m) => m[1]!);
    return [...single, ...blocks.flatMap((b) => [...b.matchAll(/"([^"]+)"/g)].map((m) => m[1]!))];
  }
  const out: string[] = [];
  for (const re of res) {
    for (const m of text.matchAll(re)) {
      if (f.lang === 'python' && re.source.startsWith('^\\s*import'))
        out.push(...m[1]!.split(',').map((s) => s.trim()));
      else out.push(m[1]!);
    }
  }
  return out;
}

/** The bot's own modules (local files) are not dependencies. */
function external(name: string, lang: Language | null, own: Set<string>): string | null {
  if (name.startsWith('.') || name.startsWith('/')) return null;
  if (lang === 'python') {
    const top = name.split('.')[0]!;
    return own.has(top) ? null : top;
  }
  if (lang === 'javascript' || lang === 'typescript') {
    // A package's name: @scope/name or name (subpaths dropped).
    const parts = name.split('/');
    return name.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  }
  return name;
}

export function profileBot(bot: BotFiles, game: string): BotProfile {
  const languages: Partial<Record<Language, number>> = {};
  let loc = 0;
  const own = new Set(
    bot.files.map((f) =>
      f.path
        .split('/')
        .pop()!
        .replace(/\.\w+$/, ''),
    ),
  );
  const deps = new Set<string>();
  const techniques: Technique[] = [];
  const depth: Constant[] = [];
  const timeBudget: Constant[] = [];
  const detectors = [...DETECTORS, ...(gameIds().includes(game) ? (gameDescriptor(game).techniques ?? []) : [])];
  for (const f of bot.files) {
    const isJson = /\.json$/i.test(f.path);
    if (f.lang) {
      const lines = nonBlankLines(f.text);
      loc += lines;
      languages[f.lang] = (languages[f.lang] ?? 0) + lines;
      for (const name of importsOf(f)) {
        const dep = external(name, f.lang, own);
        if (dep) deps.add(dep);
      }
    }
    if (!f.lang && !isJson) continue; // docs (NOTES.md …) describe, they are not the bot
    if (f.lang) {
      for (const d of detectors) {
        if (!techniques.some((t) => t.id === d.id) && d.re.test(f.text))
          techniques.push({ id: d.id, label: d.label, file: f.path });
      }
    }
    for (const m of f.text.matchAll(ASSIGNMENT)) {
      const value = Number(m[2]);
      if (DEPTH_NAME.test(m[1]!) && Number.isInteger(value) && value > 0 && value <= 64)
        depth.push({ file: f.path, name: m[1]!, value });
      else if (TIME_NAME.test(m[1]!) && value > 0) timeBudget.push({ file: f.path, name: m[1]!, value });
    }
  }
  return {
    files: bot.files.length,
    codeFiles: bot.files.filter((f) => f.lang).length,
    linesOfCode: loc,
    languages,
    dependencies: [...deps].sort(),
    techniques,
    depth,
    timeBudget,
    skipped: bot.skipped.length,
  };
}

/** Constants in a few words, parameter files first: "params.json depth 3; bot.mjs depth 4, 1". */
export function constantsText(list: readonly Constant[]): string {
  const byFile = new Map<string, number[]>();
  for (const c of [...list].sort((a, b) => Number(b.file.endsWith('.json')) - Number(a.file.endsWith('.json')))) {
    byFile.set(c.file, [...(byFile.get(c.file) ?? []), c.value]);
  }
  return [...byFile].map(([file, values]) => `${file} ${[...new Set(values)].join(', ')}`).join('; ');
}

/** The depth a bot is set to: its parameter file's (JSON) depth if it has one, else the first in its code. */
export function mainDepth(p: BotProfile): number | null {
  return (p.depth.find((c) => c.file.endsWith('.json')) ?? p.depth[0])?.value ?? null;
}
