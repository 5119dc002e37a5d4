// One `catarena tourney` as a user starts it (the CLI, a fresh runs folder), measured from inside
// the orchestrator process: its own CPU time and peak RSS (process.resourceUsage at exit, so the
// bots it starts are not counted), plus wall time, games and moves (the journal's plies).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MatchResult } from '../records/match.ts';
import { RUN_FILES } from '../records/run-layout.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The main thread's share (from its /proc stat, in clock ticks of 10 ms) tells JavaScript apart
// from V8's compiler and GC threads and libuv's pool (file system, gzip).
const HOOK = `import fs from 'node:fs';
process.on('exit', () => {
  const u = process.resourceUsage();
  let mainUs = null;
  try {
    const st = fs.readFileSync('/proc/self/task/' + process.pid + '/stat', 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    mainUs = (Number(f[11]) + Number(f[12])) * 10000;
  } catch {}
  const usage = { cpuUs: u.userCPUTime + u.systemCPUTime, userUs: u.userCPUTime, sysUs: u.systemCPUTime, mainUs, maxRssKb: u.maxRSS };
  process.stderr.write('ORCHESTRATOR_USAGE ' + JSON.stringify(usage) + '\\n');
});
`;

export interface TourneyProcess {
  out: string;
  runDir: string;
  wallS: number;
  /** The orchestrator process's own CPU (user + system), all its threads. */
  cpuS: number;
  userS: number;
  sysS: number;
  /** Of cpuS, its main (JavaScript) thread's; null where /proc is not there. */
  mainS: number | null;
  maxRssMb: number;
  games: number;
  moves: number;
}

/** What a tourney started by `startTourney` left: its output and run folders, its stderr, its wall time. */
export interface StartedTourney {
  out: string;
  runDir: string;
  stderr: string;
  wallS: number;
}

/**
 * `catarena tourney <args>` in a fresh output folder, as a user starts it, with `hook` (a module's
 * source) imported into the process first; throws on a non-zero exit.
 */
export async function startTourney(args: string[], label: string, hook: string): Promise<StartedTourney> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `catarena-bench-${label}-`));
  const hookFile = path.join(out, `${label}-hook.mjs`);
  fs.writeFileSync(hookFile, hook);
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    ['--import', hookFile, path.join(root, 'bin', 'catarena.mjs'), 'tourney', ...args, '--out', out],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const wallS = (Date.now() - t0) / 1000;
  if (code !== 0) throw new Error(`catarena tourney ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`);
  const runDir = path.join(out, fs.readdirSync(out).find((d) => d.startsWith('tourney-'))!);
  return { out, runDir, stderr, wallS };
}

/** The games a run's journal holds (its result lines). */
export function journalResults(runDir: string): MatchResult[] {
  return fs
    .readFileSync(path.join(runDir, RUN_FILES.journal), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MatchResult)
    .filter((r) => r.spec);
}

export async function measureTourney(args: string[], label = 'run'): Promise<TourneyProcess> {
  const { out, runDir, stderr, wallS } = await startTourney(args, label, HOOK);
  const usage = JSON.parse(/ORCHESTRATOR_USAGE (\{.*\})/.exec(stderr)![1]!) as {
    cpuUs: number;
    userUs: number;
    sysUs: number;
    mainUs: number | null;
    maxRssKb: number;
  };
  let games = 0;
  let moves = 0;
  for (const line of fs.readFileSync(path.join(runDir, RUN_FILES.journal), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    games++;
    moves += (JSON.parse(line) as MatchResult).plies;
  }
  return {
    out,
    runDir,
    wallS,
    cpuS: usage.cpuUs / 1e6,
    userS: usage.userUs / 1e6,
    sysS: usage.sysUs / 1e6,
    mainS: usage.mainUs === null ? null : usage.mainUs / 1e6,
    maxRssMb: usage.maxRssKb / 1024,
    games,
    moves,
  };
}
