// The README's main command, `catarena tourney --rounds 4`, as a new user runs it (the CLI, embedded
// defaults, a fresh output folder): wall time against the 3-minute target, CPU of the orchestrator
// (and its own peak RSS) and of everything it started (bots), the busy share of the cores (the
// machine's busy CPU from /proc/stat ÷ (cores × wall)), the time to the first game, and per track the games, their wall time and the gap
// before them (developing, starting bots), and the bots' own CPU per track (bench/bot-cpu.ts) with
// the shortest wall time that CPU allows on these cores. Repeats and reports medians.
//   npm run bench -- default-tourney [--repeats 1] [--rounds 4] [--preset paper] [--sandbox unsafe|process|docker]
//   npm run bench -- busy [--paper]   the default tourney, then (with --paper, ~15 min of both cores) --preset paper
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { watchBotCpu } from './bot-cpu.ts';
import { CLOCK_TICKS, machineCpuTicks } from '../util/procfs.mjs';
import { journalResults } from './tourney-process.ts';
import { diskUsage } from '../orchestrator/run/disk-usage.ts';
import { RUN_FILES } from '../records/run-layout.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

/**
 * The machine's busy CPU seconds so far (/proc/stat: user, nice, system, irq, softirq, steal). Not
 * the waited-for children's CPU: a bot under bubblewrap is reaped by bwrap, which is killed at the
 * end of a track, so its CPU never reaches the orchestrator's cutime. Kernel work for the loopback
 * traffic (softirq) counts here too; other jobs on the machine do as well (the load is printed).
 */
function machineBusyS(): number {
  return machineCpuTicks()!.busy / CLOCK_TICKS;
}

interface Run {
  wallS: number;
  /** The machine's busy CPU over the run (bots, orchestrator, brokers, kernel; other jobs too). */
  cpuS: number;
  /** CPU ÷ (cores × wall): how busy the run kept the machine. */
  busy: number;
  /**
   * ∫ min(games in flight, cores) dt ÷ (cores × wall), from the journal: how well the schedule kept
   * the cores supplied with games, which other jobs on a shared machine change less than `busy`.
   */
  gameFill: number;
  orchestratorCpuS: number;
  /** The bots' own CPU (processes running in the run's track folders), in total and by track. */
  botCpuS: number;
  botCpuByTrack: Record<string, number>;
  /** The orchestrator process's own peak RSS (bots are other processes). */
  orchestratorMaxRssMb: number;
  /** The run directory on disk (du: allocated blocks, hard links once), in MB. */
  runDirMb: number;
  firstGameMs: number;
  games: number;
  tracks: Record<string, { games: number; gamesWallS: number; gapS: number }>;
  summaryS: number;
}

async function once(rounds: number, extra: string[] = []): Promise<Run> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-default-'));
  const hook = path.join(out, 'cpu-hook.mjs');
  fs.writeFileSync(
    hook,
    "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`ORCHESTRATOR_CPU_US ${u.user + u.system} MAXRSS_KB ${process.resourceUsage().maxRSS}\\n`); });\n",
  );
  const cpu0 = machineBusyS();
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--import',
      hook,
      path.join(root, 'bin', 'catarena.mjs'),
      'tourney',
      '--rounds',
      String(rounds),
      ...extra,
      '--out',
      out,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const bots = watchBotCpu(out);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const botCpuByTrack = bots.stop();
  const wallS = (Date.now() - t0) / 1000;
  if (code !== 0) throw new Error(`catarena tourney exited ${code}:\n${stderr.slice(-2000)}`);
  const cpuS = machineBusyS() - cpu0;
  const orchestratorCpuS = Number(/ORCHESTRATOR_CPU_US (\d+)/.exec(stderr)?.[1] ?? NaN) / 1e6;
  const orchestratorMaxRssMb = Number(/MAXRSS_KB (\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
  const runDir = path.join(out, fs.readdirSync(out).find((d) => d.startsWith('tourney-'))!);
  const results = journalResults(runDir);
  // Per track and round: the games' span and the gap since the previous track's last game.
  const spans = new Map<string, { first: number; last: number; n: number }>();
  for (const r of results) {
    const round = Math.max(...r.spec.seats.map((s) => Number(s.split('@r')[1])));
    const key = `${r.spec.game}-${r.spec.variant} r${round}`;
    const start = Date.parse(r.startedAt!);
    const s = spans.get(key) ?? { first: Infinity, last: 0, n: 0 };
    spans.set(key, { first: Math.min(s.first, start), last: Math.max(s.last, start + r.durationMs!), n: s.n + 1 });
  }
  const tracks: Run['tracks'] = {};
  let previous = t0;
  for (const [key, s] of [...spans].sort((a, b) => a[1].first - b[1].first)) {
    const track = key.split(' ')[0]!;
    const t = (tracks[track] ??= { games: 0, gamesWallS: 0, gapS: 0 });
    t.games += s.n;
    t.gamesWallS += (s.last - s.first) / 1000;
    t.gapS += Math.max(0, s.first - previous) / 1000;
    previous = Math.max(previous, s.last);
  }
  const firstGameMs = Math.min(...results.map((r) => Date.parse(r.startedAt!))) - t0;
  const edges = results
    .flatMap(
      (r) =>
        [
          [Date.parse(r.startedAt!), 1],
          [Date.parse(r.startedAt!) + r.durationMs!, -1],
        ] as const,
    )
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let inFlight = 0;
  let filledMs = 0;
  edges.forEach(([at, step], k) => {
    inFlight += step;
    filledMs += Math.min(inFlight, os.availableParallelism()) * ((edges[k + 1]?.[0] ?? at) - at);
  });
  const summaryS = (fs.statSync(path.join(runDir, RUN_FILES.reportHtml)).mtimeMs - previous) / 1000;
  // Measured before the folder is removed (du raced the removal when run beside it).
  const runDirMb = (await diskUsage(runDir)).bytes / 1e6;
  fs.rmSync(out, { recursive: true, force: true });
  return {
    wallS,
    cpuS,
    busy: cpuS / (os.availableParallelism() * wallS),
    gameFill: filledMs / 1000 / (os.availableParallelism() * wallS),
    orchestratorCpuS,
    botCpuS: Object.values(botCpuByTrack).reduce((a, b) => a + b, 0),
    botCpuByTrack,
    orchestratorMaxRssMb,
    runDirMb,
    firstGameMs,
    games: results.length,
    tracks,
    summaryS,
  };
}

const load = () => os.loadavg()[0]!.toFixed(1);

/**
 * What the bots' own CPU allows: the cores cannot finish the run sooner than the bots' CPU ÷ the
 * cores, even with an orchestrator that took no CPU; and at 85% busy, with this orchestrator, not
 * sooner than (bots + orchestrator) ÷ (0.85 × cores).
 */
function floorLine(run: Run): string {
  const cores = os.availableParallelism();
  return `bots ${run.botCpuS.toFixed(0)} s CPU, orchestrator ${run.orchestratorCpuS.toFixed(0)} s: on ${cores} cores this run could not take less than ${(run.botCpuS / cores).toFixed(0)} s (the bots alone), nor less than ${((run.botCpuS + run.orchestratorCpuS) / (0.85 * cores)).toFixed(0)} s at 85% busy`;
}

export async function benchDefaultTourney(options: { preset?: string; repeats?: number } = {}) {
  const repeats = options.repeats ?? arg('--repeats', 1);
  const rounds = arg('--rounds', 4);
  const i = process.argv.indexOf('--preset');
  const preset = options.preset ?? (i > 0 ? process.argv[i + 1] : undefined);
  const s = process.argv.indexOf('--sandbox');
  const extra = [...(preset ? ['--preset', preset] : []), ...(s > 0 ? ['--sandbox', process.argv[s + 1]!] : [])];
  const runs: Run[] = [];
  for (let k = 0; k < repeats; k++) {
    console.log(
      `catarena tourney --rounds ${rounds}${preset ? ` --preset ${preset}` : ''}, run ${k + 1}/${repeats} (load ${load()}) …`,
    );
    const run = await once(rounds, extra);
    runs.push(run);
    console.log(
      `  ${run.wallS.toFixed(1)} s wall, ${run.games} games, CPU ${run.cpuS.toFixed(0)} s (orchestrator ${run.orchestratorCpuS.toFixed(0)} s, max RSS ${run.orchestratorMaxRssMb.toFixed(0)} MB), busy ${(run.busy * 100).toFixed(0)}% of ${os.availableParallelism()} cores (games filled ${(run.gameFill * 100).toFixed(0)}% of their slots), first game after ${run.firstGameMs} ms, reports ${run.summaryS.toFixed(1)} s, run directory ${run.runDirMb.toFixed(1)} MB`,
    );
    for (const [track, t] of Object.entries(run.tracks))
      console.log(
        `  ${track.padEnd(16)} ${String(t.games).padStart(4)} games  ${t.gamesWallS.toFixed(1).padStart(6)} s playing  ${t.gapS.toFixed(1).padStart(5)} s before  bots ${(run.botCpuByTrack[track] ?? 0).toFixed(1).padStart(6)} s CPU`,
      );
    console.log(`  ${floorLine(run)}`);
  }
  const result = {
    rounds,
    preset,
    repeats,
    cores: os.availableParallelism(),
    loadAfter: Number(load()),
    wallS: median(runs.map((r) => r.wallS)),
    cpuS: median(runs.map((r) => r.cpuS)),
    busy: median(runs.map((r) => r.busy)),
    gameFill: median(runs.map((r) => r.gameFill)),
    orchestratorCpuS: median(runs.map((r) => r.orchestratorCpuS)),
    botCpuS: median(runs.map((r) => r.botCpuS)),
    orchestratorMaxRssMb: median(runs.map((r) => r.orchestratorMaxRssMb)),
    firstGameMs: median(runs.map((r) => r.firstGameMs)),
    games: runs[0]!.games,
    runs,
  };
  console.log(
    `\nmedian of ${repeats}: ${result.wallS.toFixed(1)} s wall${preset ? '' : ' (target 180 s)'}, CPU ${result.cpuS.toFixed(0)} s on ${result.cores} cores, busy ${(result.busy * 100).toFixed(0)}% (games filled ${(result.gameFill * 100).toFixed(0)}% of the cores), first game after ${result.firstGameMs} ms`,
  );
  return result;
}

/**
 * Both cores busy: wall, CPU (the machine's busy time while it ran) and busy share for the
 * default tourney and, with --paper, for `--preset paper` (goal: busy ≥ 85%, wall ≤ 10 min).
 * Other jobs on the machine take CPU from the run and inflate its wall time: read the load printed.
 */
export async function benchBusy() {
  const result: Record<string, unknown> = { default: await benchDefaultTourney({ repeats: arg('--repeats', 1) }) };
  if (process.argv.includes('--paper')) result.paper = await benchDefaultTourney({ preset: 'paper', repeats: 1 });
  return result;
}
