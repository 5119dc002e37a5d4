// The orchestrator's requests to libuv's thread pool over one tourney (`catarena tourney --rounds 1`
// by default): file-system calls made through promises or callbacks, each counted by the first
// catarena frame of its stack (async zlib hops too, but its handles cannot be told from zlib's
// synchronous ones as they are made, so it is left out). Each is a hop to a pool thread and back;
// on a 2-core VM that cost about eight times the system call itself (45 µs of CPU for an lstat
// through node:fs/promises, 5.5 µs synchronous), so a count per game says where the orchestrator
// pays for hops rather than work.
//   npm run bench -- pool-requests [--rounds 1] [--games gomoku,...]
// Measured (2026-12-07, one round, 52 games): 14,014 requests before the run store, copies, replay
// files and journal made their calls synchronously, 3,744 after.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { journalResults, startTourney } from './tourney-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Counted in the tourney's own process: async_hooks sees each request as it is made.
const HOOK = `import { createHook } from 'node:async_hooks';
const counts = new Map();
let inside = false;
createHook({
  init(_id, type) {
    if (inside || !type.startsWith('FSREQ')) return;
    inside = true;
    const frame = new Error().stack.split('\\n').slice(2).find((l) => l.includes('${root}/'));
    const site = frame ? frame.trim().replace(/^at (async )?/, '') : '(node internals)';
    const key = type + ' ' + site;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    inside = false;
  },
}).enable();
process.on('exit', () => process.stderr.write('POOL_REQUESTS ' + JSON.stringify([...counts]) + '\\n'));
`;

/**
 * "FSREQPROMISE fn (file:///…/.build/chunks/chunk-X.js:L:C)" → "FSREQPROMISE fn in orchestrator/run/x.ts": the
 * bundle marks each module's start with a `// <path>.ts` line.
 */
function sourceOf(key: string): string {
  const m = /^(\S+) (?:(\S+) )?\(?file:\/\/([^:]+):(\d+):\d+\)?$/.exec(key);
  if (!m) return key;
  const [, type, fn, file, line] = m;
  let source = path.relative(root, file!);
  try {
    const lines = fs.readFileSync(file!, 'utf8').split('\n').slice(0, Number(line));
    const start = lines.filter((l) => /^\/\/ [\w./-]+\.(ts|mjs)$/.test(l)).at(-1);
    if (start) source = start.slice(3);
  } catch {}
  return `${type} ${fn ?? '(anonymous)'} in ${source}`;
}

export async function benchPoolRequests() {
  const i = process.argv.indexOf('--rounds');
  const g = process.argv.indexOf('--games');
  const args = ['--rounds', i > 0 ? process.argv[i + 1]! : '1', ...(g > 0 ? ['--games', process.argv[g + 1]!] : [])];
  const { out, runDir, stderr } = await startTourney(args, 'pool', HOOK);
  const counts = new Map<string, number>();
  for (const [key, n] of JSON.parse(/POOL_REQUESTS (\[.*\])/.exec(stderr)![1]!) as Array<[string, number]>) {
    const named = sourceOf(key);
    counts.set(named, (counts.get(named) ?? 0) + n);
  }
  const results = journalResults(runDir);
  fs.rmSync(out, { recursive: true, force: true });
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.log(
    `catarena tourney ${args.join(' ')}: ${results.length} games, ${total} thread-pool requests (${(total / results.length).toFixed(1)} a game)`,
  );
  for (const [site, n] of top) console.log(`  ${String(n).padStart(7)}  ${site}`);
  return {
    args,
    games: results.length,
    requests: total,
    perGame: total / results.length,
    top: Object.fromEntries(top),
  };
}
