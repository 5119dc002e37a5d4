// `catarena tourney --repeats 4 --rounds 2` against the same four tourneys run one after another
// as single runs (seeds s … s + 3), and with two repeats side by side (--repeat-concurrency 2):
// wall time and games of each, through the CLI as a user runs them.
//   npm run bench -- repeats [--games gomoku,chess,holdem,bridge] [--repeats 4] [--rounds 2]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_DIRS, RUN_FILES } from '../records/run-layout.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};

async function cli(args: string[]): Promise<number> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [path.join(root, 'bin', 'catarena.mjs'), ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`catarena ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  return (Date.now() - t0) / 1000;
}

const gamesIn = (dir: string): number => {
  const journal = path.join(dir, RUN_FILES.journal);
  if (fs.existsSync(journal))
    return fs
      .readFileSync(journal, 'utf8')
      .split('\n')
      .filter((l) => l.trim()).length;
  const repeats = path.join(dir, RUN_DIRS.repeats);
  return fs.existsSync(repeats) ? fs.readdirSync(repeats).reduce((n, r) => n + gamesIn(path.join(repeats, r)), 0) : 0;
};
const runsIn = (out: string) =>
  fs
    .readdirSync(out)
    .filter((d) => d.startsWith('tourney-'))
    .map((d) => path.join(out, d));

export async function benchRepeats() {
  const games = arg('--games', 'gomoku,chess,holdem,bridge');
  const K = Number(arg('--repeats', '4'));
  const rounds = arg('--rounds', '2');
  const base = ['tourney', '--rounds', rounds, '--games', games, '--seed', '1'];
  const load = () => os.loadavg()[0]!.toFixed(1);
  const result: Record<string, { wallS: number; games: number; load: number }> = {};

  const seqOut = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-repeats-seq-'));
  console.log(`${K} single runs one after another (--rounds ${rounds}, ${games}; load ${load()}) …`);
  let wall = 0;
  for (let r = 1; r <= K; r++) wall += await cli([...base.slice(0, -1), String(r), '--out', seqOut]);
  result.sequential = { wallS: wall, games: runsIn(seqOut).reduce((n, d) => n + gamesIn(d), 0), load: Number(load()) };
  console.log(`  ${wall.toFixed(1)} s, ${result.sequential.games} games`);

  for (const side of [1, 2]) {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-repeats-'));
    console.log(`--repeats ${K} --repeat-concurrency ${side} (load ${load()}) …`);
    const s = await cli([...base, '--repeats', String(K), '--repeat-concurrency', String(side), '--out', out]);
    result[`repeats-side-by-side-${side}`] = { wallS: s, games: gamesIn(runsIn(out)[0]!), load: Number(load()) };
    console.log(`  ${s.toFixed(1)} s, ${result[`repeats-side-by-side-${side}`]!.games} games`);
    fs.rmSync(out, { recursive: true, force: true });
  }
  fs.rmSync(seqOut, { recursive: true, force: true });
  return { games, rounds: Number(rounds), repeats: K, cores: os.availableParallelism(), ...result };
}
