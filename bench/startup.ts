// CLI start-up: wall time of `catarena --help`, `catarena validate --help` and `catarena tourney
// --help` from the compiled build (what `npm install` leaves), against the TypeScript sources
// through tsx (CATARENA_FROM_SOURCE=1), and a whole `catarena validate builtin:random` (start,
// bot start, health, four probes). The target: --help and validate start in ≤ 0.5 s.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summary } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'catarena.mjs');

function time(args: string[], env: NodeJS.ProcessEnv, runs: number): ReturnType<typeof summary> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    try {
      execFileSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: 'ignore' });
    } catch {
      // `validate` of a folder without a bot exits 1: what is timed is getting that far
    }
    ms.push(performance.now() - t0);
  }
  return summary(ms);
}

export async function benchStartup(runs = 10) {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { stdio: 'ignore' }); // as after npm install
  const compiled = {} as Record<string, ReturnType<typeof summary>>;
  const source = {} as Record<string, ReturnType<typeof summary>>;
  // "validate (no bot)": everything validate loads and does up to starting the bot, which the
  // folder lacks; the whole check below adds the bot's own start and the four probes.
  const commands: Record<string, string[]> = {
    help: ['--help'],
    'validate --help': ['validate', '--help'],
    'validate (no bot)': ['validate', path.join(ROOT, 'docs')],
    'tourney --help': ['tourney', '--help'],
  };
  for (const [name, args] of Object.entries(commands)) {
    compiled[name] = time(args, {}, runs);
    source[name] = time(args, { CATARENA_FROM_SOURCE: '1' }, Math.ceil(runs / 2));
  }
  const validate = time(['validate', 'builtin:random', '--game', 'gomoku'], {}, Math.ceil(runs / 2));
  console.log('\nCLI start-up, wall ms (p50 / p90 / max)');
  for (const name of Object.keys(commands)) {
    console.log(
      `  ${name.padEnd(18)} compiled ${compiled[name]!.p50} / ${compiled[name]!.p90} / ${compiled[name]!.max}    from source (tsx) ${source[name]!.p50} / ${source[name]!.p90} / ${source[name]!.max}`,
    );
  }
  console.log(`  validate builtin:random (whole check, compiled) ${validate.p50} / ${validate.p90} / ${validate.max}`);
  return { compiled, source, validate };
}
